"""The conversion report tested against ``diff``: whenever ``urdf-sdf diff SOURCE OUTPUT``
finds a difference, the report's verdict is not "exact" (nothing changed), and "exact,
with ..." names only what ``diff`` compares literally (carried content given back, poses
re-expressed in the world's frame). Over samples/, the converters' fixtures, every
converter warning's fixture (tests/fixtures/codes, named for its rule), random URDF trees
and random SDFormat models (the converters' property tests' strategies); and the converse
where it makes sense: a repair, a lumping, an approximation or a drop is a difference
``diff`` sees too.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import examples
from tests.test_sdf2urdf_property import SdfModel, sdf_models
from tests.test_urdf2sdf_property import Tree, urdf_trees
from urdf_sdf import diff, load, load_string
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.inspect.changes import Category
from urdf_sdf.core.inspect.conversion_report import ConversionReport, Verdict
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# What diff compares literally where the conversion is exact: a urdf: element the SDF
# carried and the URDF states (a <urdf:mimic>), a world's placement in the URDF's origins.
SEEN_BY_DIFF = {Category.RESTORED, Category.REEXPRESSED}

# Each converter warning's fixture (tests/fixtures/codes), converted as its rule needs.
CODE_FIXTURES = {
    Code.NAME_RENAMED: ("name_renamed_trimmed.urdf", {}),
    Code.LINK_INERTIA_REPAIRED: ("link_inertia_repaired.urdf", {}),
    Code.JOINT_MIMIC_CARRIED: ("joint_mimic_carried_fortress.urdf", {"gazebo": "fortress"}),
    Code.GEOMETRY_KEPT_AS_CUSTOM: ("geometry_kept_as_custom.urdf", {}),
    Code.JOINT_FREE_BODY: ("joint_free_body_planar.urdf", {}),
    Code.LUMPED_CONTENT_DROPPED: ("lumped_content_dropped.urdf", {"lump_fixed": True}),
    Code.LUMPED_NAME_REFERENCED: ("lumped_name_referenced_by_transmission.urdf",
                                  {"lump_fixed": True}),
    Code.GAZEBO_ELEMENT_UNDEFINED: ("gazebo_element_undefined.urdf", {}),
    Code.GAZEBO_PLUGIN_MOVED: ("gazebo_plugin_moved.urdf", {}),
    Code.GAZEBO_REFERENCE_UNRESOLVED: ("gazebo_reference_unresolved.urdf", {}),
    Code.GAZEBO_STRAY_CONTENT: ("gazebo_stray_content.urdf", {}),
    Code.URDF_INERTIA_MISSING: ("urdf_inertia_missing_point_mass.urdf", {}),
    Code.URDF_ATTRIBUTE_UNKNOWN: ("urdf_attribute_unknown.urdf", {}),
    Code.URDF_MIMIC_ON_FIXED_JOINT: ("urdf_mimic_on_fixed_joint.urdf", {}),
    Code.WORLD_LINK_CONTENT_DROPPED: ("world_link_content_dropped_pendulum.urdf", {}),
    Code.JOINT_APPROXIMATED: ("joint_approximated_ball.sdf", {"approximate": True}),
    Code.JOINT_DROPPED: ("joint_dropped_gearbox.sdf", {"approximate": True}),
    Code.JOINT_LIMIT_DEFAULTED: ("joint_limit_defaulted.sdf", {}),
    Code.WORLD_JOINT_ADDED: ("world_joint_added_static_model.sdf", {}),
    Code.FRAME_DROPPED: ("frame_dropped_drop_frames.sdf", {"drop_frames": True}),
    Code.WORLD_CONTENT_DROPPED: ("world_content_dropped.sdf", {"all_models": True}),
    Code.CONTENT_KEPT_IN_GAZEBO: ("content_kept_in_gazebo_sensor.sdf", {}),
    Code.MODEL_POSE_KEPT_IN_GAZEBO: ("model_pose_kept_in_gazebo_free_model.sdf", {}),
    Code.WORLD_DROPPED: ("world_dropped_second_world.sdf", {}),
    Code.NESTED_MODEL_CONTENT_DROPPED: ("nested_model_content_dropped_self_collide.sdf", {}),
    Code.SDF_ATTRIBUTE_DROPPED: ("sdf_attribute_dropped.sdf", {}),
    Code.JOINT_LOOP_KEPT_IN_GAZEBO: ("joint_loop_kept_in_gazebo.sdf", {}),
}
# Their verdicts: the category's.
VERDICT_OF = {Category.CARRIED: Verdict.EXACT_WITH, Category.DEFAULTED: Verdict.EXACT_WITH,
              Category.REPAIRED: Verdict.APPROXIMATED,
              Category.APPROXIMATED: Verdict.APPROXIMATED, Category.RENAMED: Verdict.CHANGED,
              Category.DROPPED: Verdict.CHANGED}

CONVERTED = sorted(
    [*(ROOT / "samples").glob("*.urdf"), *(ROOT / "samples").glob("*.sdf"),
     *(ROOT / "samples" / "composition").rglob("*.sdf"),
     *(FIXTURES / "urdf2sdf").rglob("*.urdf"), *(FIXTURES / "sdf2urdf").rglob("*.sdf"),
     *(FIXTURES / "roundtrip").glob("*.urdf"), *(FIXTURES / "roundtrip").glob("*.sdf")])
# The options that change what a conversion does, for each direction.
OPTIONS = {".urdf": ({}, {"lump_fixed": True}), ".sdf": ({}, {"approximate": True})}


def converted(source: Path, tmp_path: Path, **options) -> tuple[ConversionReport, Path] | None:
    """``source`` converted with ``options`` and written beside it in ``tmp_path``'s
    mirror (relative mesh paths stay valid: written for standard output); its report and
    the output, or None when the conversion refuses the file."""
    result = load(str(source), Context())
    conversion = convert_urdf(result, ToSdf(**options)) if source.suffix == ".urdf" else \
        convert_sdf(result, ToUrdf(**options))
    if not conversion.ok:
        assert conversion.report.verdict_kind is Verdict.REFUSED
        return None
    output = source.with_name(f".report-{tmp_path.name}"
                              + (".sdf" if source.suffix == ".urdf" else ".urdf"))
    output.write_bytes(conversion.xml or b"")
    return conversion.report, output


def differences(source: Path, output: Path) -> list:
    try:
        return diff(str(source), str(output))
    finally:
        output.unlink()


def assert_agrees_with_diff(report: ConversionReport, found: list) -> None:
    if not found:
        return
    assert report.verdict_kind is not Verdict.EXACT, (report.verdict, found[:3])
    if report.verdict_kind is Verdict.EXACT_WITH:
        assert {change.category for change in report.changes} & SEEN_BY_DIFF, \
            (report.lines(), found[:3])


@pytest.mark.parametrize("source", CONVERTED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_verdict_is_never_exact_where_diff_finds_a_difference(source, tmp_path):
    for options in OPTIONS[source.suffix]:
        done = converted(source, tmp_path, **options)
        if done is not None:
            report, output = done
            assert_agrees_with_diff(report, differences(source, output))


@pytest.mark.parametrize("code", CODE_FIXTURES, ids=lambda code: code.name)
def test_each_converter_warning_lands_in_its_category_and_verdict(code, tmp_path):
    fixture, options = CODE_FIXTURES[code]
    source = FIXTURES / "codes" / fixture
    done = converted(source, tmp_path, **options)
    assert done is not None
    report, output = done
    ours = [change for change in report.changes if change.code is code]
    assert len(ours) == 1, report.lines()
    category = ours[0].category
    assert any(line.startswith(f"  {category.value}: ") and code.value in line
               or category is Category.CARRIED and line.startswith("  carried")
               and code.value in line for line in report.lines()), report.lines()
    assert report.verdict_kind in (VERDICT_OF[category], Verdict.CHANGED,
                                   Verdict.APPROXIMATED), report.verdict
    found = differences(source, output)
    assert_agrees_with_diff(report, found)
    if category in (Category.REPAIRED, Category.DROPPED) and code not in (
            Code.URDF_MIMIC_ON_FIXED_JOINT,        # diff reads it as absent, as consumers do
            Code.WORLD_LINK_CONTENT_DROPPED,       # no body carries it in either
            Code.GAZEBO_STRAY_CONTENT, Code.NESTED_MODEL_CONTENT_DROPPED,
            Code.SDF_ATTRIBUTE_DROPPED, Code.WORLD_CONTENT_DROPPED, Code.WORLD_DROPPED,
            Code.LUMPED_CONTENT_DROPPED, Code.FRAME_DROPPED,
            Code.JOINT_DROPPED):  # not compared by diff (a gearbox couples two joints)
        assert found, f"{code.name}: diff finds the change the report names"


def test_an_exact_sample_is_exact_for_diff_too(tmp_path):
    """The converse: a sample the report calls exact, diff calls equivalent; a robot with
    links of mass lumped differs for diff and the report says approximated (the pendulum's
    lumped link is a massless frame, which diff finds where it was: no difference)."""
    source = ROOT / "samples" / "pendulum.urdf"
    report, output = converted(source, tmp_path)
    assert report.verdict == "exact"
    assert differences(source, output) == []
    source = ROOT / "samples" / "arm6.urdf"
    report, output = converted(source, tmp_path, lump_fixed=True)
    assert report.verdict == "approximated: links lumped into their parent by --lump-fixed (2)"
    assert differences(source, output) != []


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(urdf_trees(max_links=6), st.booleans())
def test_random_urdf_trees_report_what_diff_finds(tree: Tree, lump_fixed: bool):
    result = load_string(tree.urdf(), "tree.urdf")
    conversion = convert_urdf(result, ToSdf(lump_fixed=lump_fixed))
    assert conversion.ok, conversion.diagnostics
    found = diff(result, load_string(conversion.xml.decode(), "tree.sdf"))
    assert_agrees_with_diff(conversion.report, found)


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sdf_models(max_links=6, separators=(None,)))
def test_random_sdf_models_report_what_diff_finds(model: SdfModel):
    result = load_string(model.sdf(), "model.sdf")
    conversion = convert_sdf(result, ToUrdf())
    if not conversion.ok:  # a model URDF cannot state: refused, with its code
        assert conversion.report.verdict_kind is Verdict.REFUSED
        return
    found = diff(result, load_string(conversion.xml, "model.urdf"))
    assert_agrees_with_diff(conversion.report, found)
