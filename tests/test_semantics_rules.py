"""Frame-semantics rules of the specification that real models meet, each on a fixture
named for it (``fixtures/semantics``): what the spec states, what libsdformat 12 reads,
and what the tool does where the two differ (a warning; ``--strict`` refuses)."""
from __future__ import annotations

import math
from pathlib import Path

from lxml import etree

from urdf_sdf import Code, Policy, load
from urdf_sdf.core.base.context import Context
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "semantics"


def assert_axis(actual, expected) -> None:
    assert actual is not None and math.dist(actual, expected) < 1e-12, actual


# ---- //axis/xyz/@expressed_in ------------------------------------------------------------------

def test_axis_expressed_in_own_model_name_is_the_model_frame(diagnostics_checked):
    """SDFormat 1.7 tutorial, "@expressed_in instead of use_parent_model_frame":
    ``<xyz expressed_in="pendulum_with_base">`` inside model ``pendulum_with_base``."""
    result = diagnostics_checked.watch(load(FIXTURES / "axis_expressed_in_own_model_name.sdf"))
    assert result.ok
    warning = diagnostics_checked.take_warning(Code.JOINT_AXIS_EXPRESSED_IN_INVALID)
    assert warning.line == 13 and "[pendulum_with_base]" in warning.message
    assert_axis(result.axis_in_joint_frame("joint"), (0.0, -1.0, 0.0))


def test_axis_expressed_in_own_model_name_converts_to_urdf_in_the_joint_frame():
    result = load(FIXTURES / "axis_expressed_in_own_model_name.sdf", Context())
    conversion = convert_sdf(result, ToUrdf())
    assert conversion.ok
    xyz = etree.fromstring(conversion.xml).find("joint/axis").get("xyz")
    assert_axis(tuple(float(v) for v in xyz.split()), (0.0, -1.0, 0.0))


def test_sibling_named_like_the_model_comes_first(diagnostics_checked):
    source = FIXTURES / "axis_expressed_in_sibling_named_like_model.sdf"
    result = diagnostics_checked.watch(load(source))
    assert result.ok  # no warning: the frame [m] exists
    assert_axis(result.axis_in_joint_frame("joint"), (0.0, 1.0, 0.0))


def test_included_model_renamed_keeps_its_own_name_axis(diagnostics_checked):
    result = diagnostics_checked.watch(
        load(FIXTURES / "axis_expressed_in_own_name_included_renamed.sdf"))
    assert result.ok
    warning = diagnostics_checked.take_warning(Code.JOINT_AXIS_EXPRESSED_IN_INVALID)
    assert warning.file.endswith("axis_expressed_in_own_model_name.sdf") and warning.line == 13
    assert_axis(result.axis_in_joint_frame("renamed::joint"), (0.0, -1.0, 0.0))


def test_axis_naming_the_model_is_refused_under_strict():
    strict = Context(policy=Policy(warnings_as_errors=True))
    result = load(FIXTURES / "axis_expressed_in_own_model_name.sdf", strict)
    assert not result.ok
    assert [d.code for d in result.diagnostics if d.is_error] == \
        [Code.JOINT_AXIS_EXPRESSED_IN_INVALID]


# ---- unique sibling names (1.7+) ---------------------------------------------------------------

def test_visual_named_like_a_collision_is_a_warning_from_1_7(diagnostics_checked):
    """Pose frame semantics proposal: "all named sibling elements must have unique names"
    (1.7+); libsdformat 12 and Drake read such a link, so it is a warning."""
    result = diagnostics_checked.watch(load(FIXTURES / "visual_collision_same_name.sdf"))
    assert result.ok
    warning = diagnostics_checked.take_warning(Code.DUPLICATE_NAME)
    assert warning.line == 8 and "visual [body]" in warning.message


def test_visual_named_like_a_collision_is_fine_before_1_7(tmp_path, diagnostics_checked):
    old = tmp_path / "old.sdf"
    old.write_text((FIXTURES / "visual_collision_same_name.sdf").read_text()
                   .replace('version="1.7"', 'version="1.6"'))
    assert diagnostics_checked.watch(load(old)).ok


def test_urdf2sdf_renames_a_visual_named_like_its_collision_and_gives_it_back(tmp_path):
    """URDF allows it; the SDF (1.7, --relative) names the visual ``body_visual`` with
    ``urdf:name``, and sdf2urdf gives back ``body``."""
    conversion = convert_urdf(load(FIXTURES / "urdf_visual_collision_same_name.urdf", Context()),
                              ToSdf(relative=True))
    assert conversion.ok and conversion.version == "1.7"
    assert any("renamed [body_visual]" in d.message for d in conversion.diagnostics)
    sdf = tmp_path / "r.sdf"
    sdf.write_bytes(conversion.xml)
    loaded = load(sdf, Context())
    assert loaded.ok and not loaded.diagnostics
    link = etree.parse(str(sdf)).find("model/link")
    shapes = [(c.tag, c.get("name")) for c in link if c.tag in ("visual", "collision")]
    assert shapes == [("collision", "body"), ("visual", "body_visual")]
    back = etree.fromstring(convert_sdf(loaded, ToUrdf()).xml).find("link")
    assert [(c.tag, c.get("name")) for c in back] == [("visual", "body"), ("collision", "body")]
