"""Diagnostic codes (``core/base/diagnostics.py``): one enum, one rule per code.

* The enum is the one list of codes: the table of ``docs/codes.md`` names exactly its
  members (the JSON schema's list: ``test_json_schemas.py``), and every ``Code.NAME`` the
  sources use is one of them. There is no generic warning code.
* Each warning of a conversion loss or approximation has its own code: a fixture in
  ``fixtures/codes/``, named for the rule, produces exactly that code (and no other
  diagnostic) when it is loaded, converted or printed as :data:`CASES` says.
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf import Context, load
from urdf_sdf.cli.main import sdf2urdf_app
from urdf_sdf.cli.printing import print_document
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Severity
from urdf_sdf.core.write import uris
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = Path(__file__).parents[2] / "fixtures" / "codes"
SOURCES = ("core", "urdf2sdf", "sdf2urdf", "urdf_sdf")
TABLE_ROW = re.compile(r"^\| `(?P<code>[A-Z0-9_]+)` \| (?P<severity>[^|]+) \| (?P<meaning>[^|]+) "
                       r"\| (?P<origin>[^|]+) \|$")


# ---- the one list ------------------------------------------------------------------------

def test_there_is_no_generic_warning_code():
    assert "WARNING" not in Code.__members__


def test_every_code_is_its_own_name():
    assert [code.value for code in Code] == list(Code.__members__)


def documented() -> list[dict]:
    rows = []
    for line in (ROOT / "docs" / "codes.md").read_text().splitlines():
        match = TABLE_ROW.match(line)
        if match:
            rows.append({key: value.strip() for key, value in match.groupdict().items()})
        else:
            assert not line.startswith("| `"), f"a code row the table check cannot read: {line}"
    return rows


def test_docs_codes_table_lists_every_code_once():
    names = [row["code"] for row in documented()]
    assert len(names) == len(set(names)), "a code listed twice in docs/codes.md"
    assert set(names) == set(Code.__members__)


def test_docs_codes_table_gives_severity_meaning_and_origin():
    for row in documented():
        assert row["severity"] in ("error", "warning"), row
        assert row["meaning"].endswith(".") and row["origin"], row


def test_the_sources_use_only_codes_of_the_enum():
    used = {}
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            for name in re.findall(r"\bCode\.([A-Z][A-Z0-9_]*)\b", path.read_text()):
                used.setdefault(name, str(path.relative_to(ROOT)))
    unknown = {name: where for name, where in used.items() if name not in Code.__members__}
    assert not unknown


# ---- a fixture per rule --------------------------------------------------------------------

Found = list[tuple[Code, Severity]]


def found(diagnostics) -> Found:
    return [(d.code, d.severity) for d in diagnostics]


def loaded(path: Path) -> Found:
    return found(load(path, Context()).diagnostics)


def to_sdf(**options):
    return lambda path: found(convert_urdf(load(path, Context()), ToSdf(**options)).diagnostics)


def to_urdf(**options):
    return lambda path: found(convert_sdf(load(path, Context()), ToUrdf(**options)).diagnostics)


def printed(parser: bool = False):
    """``urdf-sdf print``'s diagnostics; ``parser``: with a custom model parser."""
    def run(path: Path) -> Found:
        context = Context()
        if parser:
            context.register_model_parser(lambda include, errors: None)
        data, diagnostics = print_document(path, context)
        assert data is not None
        return found(diagnostics)
    return run


def packaged(path: Path) -> Found:
    """``sdf2urdf MODEL_DIR --package-dir OUT``'s diagnostics, read from its output."""
    with tempfile.TemporaryDirectory() as out:
        result = CliRunner().invoke(sdf2urdf_app, [str(path), "--package-dir",
                                                   f"{out}/{path.name}_description"])
    assert result.exit_code == 0, result.output
    return [(Code[code], Severity(severity))
            for severity, code in re.findall(r": (warning|error)\[([A-Z0-9_]+)\]: ",
                                             result.output)]


def sdf2urdf_command(path: Path) -> Found:
    """``sdf2urdf FILE``'s diagnostics, read from its output."""
    result = CliRunner().invoke(sdf2urdf_app, [str(path)])
    assert result.exit_code == 0, result.output
    return [(Code[code], Severity(severity))
            for severity, code in re.findall(r": (warning|error)\[([A-Z0-9_]+)\]: ",
                                             result.stderr)]


def relocated_from_another_drive(path: Path) -> Found:
    """urdf2sdf with ``-o`` on another drive than the mesh (Windows): the mesh path cannot
    be made relative (``os.path.relpath`` raises ValueError there)."""
    def another_drive(*_):
        raise ValueError("path is on mount 'C:', start on mount 'D:'")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(uris, "relocated", another_drive)
        options = ToSdf(output_dir=str(path.parent / "out"))
        return found(convert_urdf(load(path, Context()), options).diagnostics)


# code -> (fixture, what produces its diagnostics, the codes that necessarily come with it)
CASES = {
    # the readers
    Code.XML_REPAIRED: ("xml_repaired_blank_line_before_declaration.urdf", loaded),
    Code.URDF_LIMIT_INVALID: ("urdf_limit_invalid_lower_above_upper.urdf", loaded),
    Code.URDF_MATERIAL_UNDEFINED: ("urdf_material_undefined.urdf", loaded),
    Code.ATTRIBUTE_DEPRECATED: ("attribute_deprecated_affixed_to.sdf", loaded),
    Code.XML_RECOVERED: ("xml_recovered_content_after_root.urdf", loaded),
    Code.WORLD_NAME_LEGACY: ("world_name_legacy_link.sdf", loaded),
    Code.URDF_WORLD_UNDECLARED: ("urdf_world_undeclared.urdf", loaded),
    Code.URDF_ELEMENT_UNKNOWN: ("urdf_element_unknown.urdf", loaded),
    Code.URDF_INERTIA_MISSING: ("urdf_inertia_missing_point_mass.urdf", loaded),
    Code.WORLD_LINK_CONTENT_DROPPED: ("world_link_content_dropped_pendulum.urdf", loaded),
    Code.URDF_DEFAULT_NAMESPACE: ("urdf_default_namespace_drake_course.urdf", loaded),
    Code.URDF_ATTRIBUTE_UNKNOWN: ("urdf_attribute_unknown.urdf", loaded),
    Code.URDF_MIMIC_ON_FIXED_JOINT: ("urdf_mimic_on_fixed_joint.urdf", loaded),
    Code.URDF_TRANSMISSION_JOINT_UNKNOWN: ("urdf_transmission_joint_unknown.urdf", loaded),
    Code.URDF_TRANSMISSION_ACTUATOR_REPEATED: ("urdf_transmission_actuator_repeated.urdf",
                                               loaded),
    # the writers: a prefix the input never declared is read leniently (XML_RECOVERED),
    # in a plugin sdf2urdf keeps in a <gazebo> block
    Code.NAMESPACE_PREFIX_INVALID: ("namespace_prefix_invalid.sdf", to_urdf(),
                                    {Code.XML_RECOVERED, Code.CONTENT_KEPT_IN_GAZEBO}),
    Code.NAMESPACE_UNDECLARED: ("namespace_undeclared.sdf", to_urdf(),
                                {Code.XML_RECOVERED, Code.CONTENT_KEPT_IN_GAZEBO}),
    Code.MESH_URI_NOT_RELATIVE: ("mesh_uri_not_relative.urdf", relocated_from_another_drive),
    # urdf2sdf; the reader reports the invalid inertia and the non-URDF shape first
    Code.NAME_RENAMED: ("name_renamed_trimmed.urdf", to_sdf()),
    Code.LINK_MASSLESS_MOVING: ("link_massless_moving.urdf", to_sdf()),
    Code.LINK_INERTIA_REPAIRED: ("link_inertia_repaired.urdf", to_sdf()),
    Code.VERSION_RAISED: ("version_raised_mimic.urdf", to_sdf()),
    Code.JOINT_MIMIC_CARRIED: ("joint_mimic_carried_fortress.urdf", to_sdf(gazebo="fortress")),
    Code.GEOMETRY_KEPT_AS_CUSTOM: ("geometry_kept_as_custom.urdf", to_sdf(),
                                   {Code.ELEMENT_INVALID}),
    Code.JOINT_FREE_BODY: ("joint_free_body_planar.urdf", to_sdf()),
    Code.LUMPED_CONTENT_DROPPED: ("lumped_content_dropped.urdf", to_sdf(lump_fixed=True)),
    Code.LUMPED_NAME_REFERENCED: ("lumped_name_referenced_by_transmission.urdf",
                                  to_sdf(lump_fixed=True)),
    # urdf2sdf's <gazebo> blocks
    Code.ELEMENT_DEPRECATED: ("element_deprecated_cfm_damping.urdf", to_sdf()),
    Code.GAZEBO_ELEMENT_UNDEFINED: ("gazebo_element_undefined.urdf", to_sdf()),
    Code.GAZEBO_TAG_MISPLACED: ("gazebo_tag_misplaced_link_tag_on_model.urdf", to_sdf()),
    Code.GAZEBO_VALUE_INVALID: ("gazebo_value_invalid.urdf", to_sdf()),
    Code.GAZEBO_VALUE_REPLACED: ("gazebo_value_replaced.urdf", to_sdf()),
    Code.GAZEBO_PLUGIN_MOVED: ("gazebo_plugin_moved.urdf", to_sdf()),
    Code.GAZEBO_REFERENCE_UNRESOLVED: ("gazebo_reference_unresolved.urdf", to_sdf()),
    Code.GAZEBO_SHAPE_UNMATCHED: ("gazebo_shape_unmatched.urdf", to_sdf()),
    Code.GAZEBO_LEGACY_TRANSLATED: ("gazebo_legacy_translated_imu_noise.urdf", to_sdf()),
    Code.GAZEBO_STRAY_CONTENT: ("gazebo_stray_content.urdf", to_sdf()),
    # sdf2urdf
    Code.JOINT_APPROXIMATED: ("joint_approximated_ball.sdf", to_urdf(approximate=True),
                              {Code.LINK_MASS_ADDED}),
    Code.LINK_MASS_ADDED: ("link_mass_added_universal.sdf", to_urdf(approximate=True),
                           {Code.JOINT_APPROXIMATED}),
    Code.JOINT_DROPPED: ("joint_dropped_gearbox.sdf", to_urdf(approximate=True)),
    Code.JOINT_LIMIT_DEFAULTED: ("joint_limit_defaulted.sdf", to_urdf()),
    Code.WORLD_JOINT_ADDED: ("world_joint_added_static_model.sdf", to_urdf()),
    Code.FRAME_DROPPED: ("frame_dropped_drop_frames.sdf", to_urdf(drop_frames=True)),
    Code.WORLD_CONTENT_DROPPED: ("world_content_dropped.sdf", to_urdf(all_models=True)),
    Code.CONTENT_KEPT_IN_GAZEBO: ("content_kept_in_gazebo_sensor.sdf", to_urdf()),
    Code.MATERIAL_NAME_CONFLICT: ("material_name_conflict.sdf", to_urdf(all_models=True)),
    Code.PACKAGE_PLACEHOLDERS: ("package_placeholders", packaged),
    Code.MODEL_POSE_KEPT_IN_GAZEBO: ("model_pose_kept_in_gazebo_free_model.sdf", to_urdf()),
    Code.WORLD_DROPPED: ("world_dropped_second_world.sdf", to_urdf()),
    Code.NESTED_MODEL_CONTENT_DROPPED: ("nested_model_content_dropped_self_collide.sdf",
                                        to_urdf()),
    Code.SDF_ATTRIBUTE_DROPPED: ("sdf_attribute_dropped.sdf", to_urdf()),
    Code.JOINT_LOOP_KEPT_IN_GAZEBO: ("joint_loop_kept_in_gazebo.sdf", to_urdf()),
    Code.MODEL_URI_KEPT: ("model_uri_kept.sdf", sdf2urdf_command),
    Code.LINK_INERTIA_RECORD_DROPPED: ("link_inertia_record_dropped_edited_inertia.sdf",
                                       to_urdf()),
    # urdf-sdf print
    Code.VERSION_REWRITTEN: ("version_rewritten.sdf", printed()),
    Code.INCLUDE_KEPT: ("include_kept_custom_parser.sdf", printed(parser=True)),
    Code.INCLUDE_CHILD_DROPPED: ("include_child_dropped.sdf", printed()),
}
# Warnings whose rule needs a mesh over its size cap: tested where their rule is.
ELSEWHERE = {
    Code.MESH_TOO_LARGE: "tests/test_packaging_security.py, tests/test_view_security.py",
    Code.MESH_SAMPLED: "tests/test_view_security.py",
    Code.LINK_KEPT_IN_GAZEBO: "tests/sdf2urdf/test_gazebo_links.py",
    # check --physics: fixtures named for each rule in fixtures/physics/
    **{code: "tests/core/inspect/test_physics.py" for code in Code
       if code.name.startswith("PHYSICS_")},
}


@pytest.mark.parametrize("code", CASES, ids=lambda code: code.name)
def test_the_fixture_named_for_the_rule_produces_exactly_its_code(code):
    fixture, produce, *also = CASES[code]
    assert fixture.startswith(code.name.lower()), "a fixture is named for its rule"
    produced = produce(FIXTURES / fixture)
    assert (code, Severity.WARNING) in produced
    assert {c for c, _ in produced} == {code, *(also[0] if also else ())}, produced
    assert all(severity is Severity.WARNING for _, severity in produced), produced


def test_every_warning_code_has_a_fixture_or_a_test_of_its_own():
    warnings = {Code[row["code"]] for row in documented() if row["severity"] == "warning"}
    assert warnings - set(CASES) - set(ELSEWHERE) == set()
    for code, where in ELSEWHERE.items():
        for path in where.split(", "):
            assert code.name in (ROOT / path).read_text(), (code, path)


def test_has_errors_since_looks_only_after_the_start():
    diagnostics = Diagnostics()
    diagnostics.error(Code.ELEMENT_MISSING, "first model refused")
    start = len(diagnostics)
    diagnostics.warning(Code.WORLD_JOINT_ADDED, "second model welded")
    assert diagnostics.has_errors and not diagnostics.has_errors_since(start)
    diagnostics.error(Code.URDF_SEVERAL_TREES, "second model refused")
    assert diagnostics.has_errors_since(start)
