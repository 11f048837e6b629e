"""URDF -> SDFormat versions and options (``urdf2sdf``): the output version is the lowest
that expresses the result, every accepted ``--sdf-version`` expresses the same robot, and a
version or input that cannot be converted is refused with an error naming why.
"""
from __future__ import annotations

import pytest

from tests.urdf2sdf_helpers import (
    FEATURE_FILES,
    FEATURES,
    OTHER_URDF_FIXTURES,
    Urdf,
    by_name,
    check_axes,
    check_fk,
    convert,
    converted,
    feature_output,
    sdf_model,
)
from urdf_sdf.core.base.custom import URDF_NS


@pytest.mark.parametrize("stem, relative, version", [
    ("joint_revolute_limit_dynamics", False, "1.6"),
    ("joint_revolute_limit_dynamics", True, "1.7"),
    ("link_massless_leaf_fixed_becomes_frame", False, "1.7"),
    ("link_massless_leaf_fixed_becomes_frame", True, "1.7"),
    ("joint_floating_free_link", False, "1.6"),
    ("mimic_joint", False, "1.11"),
    ("mimic_joint", True, "1.11"),
    ("world_parent_joint", False, "1.6"),
])
def test_output_version_is_the_lowest_that_expresses_the_result(stem, relative, version):
    conversion, root, _ = feature_output(stem, relative=relative)
    assert conversion.version == version
    assert root.get("version") == version


def test_default_version_is_1_6_without_frames_relative_or_mimic():
    for urdf in FEATURE_FILES:
        conversion = converted(urdf, {})
        _, model = sdf_model(conversion.xml)
        robot = Urdf(urdf)
        has_frame = model.find("frame") is not None
        has_mimic = robot.root.find("joint/mimic") is not None
        expected = "1.11" if has_mimic else "1.7" if has_frame else "1.6"
        assert conversion.version == expected, urdf.name


@pytest.mark.parametrize("version", ["1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10",
                                     "1.11", "1.12"])
@pytest.mark.parametrize("stem", ["joint_prismatic", "gimbal_lock_origin"])
def test_axes_and_poses_in_every_accepted_version(stem, version):
    """Whatever --sdf-version the converter accepts, it must express the same robot
    (SDFormat 1.4 expresses //axis/xyz in the parent model frame, not the joint frame)."""
    urdf = FEATURES / f"{stem}.urdf"
    if not convert(urdf, sdf_version=version).ok:
        pytest.skip(f"--sdf-version {version} refused")
    check_axes(urdf, {"sdf_version": version})
    check_fk(urdf, {"sdf_version": version})


@pytest.mark.parametrize("stem", ["pose_absolute_shortest_float", "gimbal_lock_origin",
                                  "joint_revolute_limit_dynamics", "world_parent_joint"])
def test_sdf_version_1_6_is_allowed_without_relative(stem):
    conversion, root, _ = feature_output(stem, sdf_version="1.6")
    assert root.get("version") == "1.6"
    assert b"relative_to" not in conversion.xml


@pytest.mark.parametrize("relative", [False, True])
def test_mimic_is_axis_mimic_at_1_11(relative):
    conversion, root, model = feature_output("mimic_joint", relative=relative)
    assert root.get("version") == "1.11"
    mimic = by_name(model, "joint", "right_slide").find("axis/mimic")
    assert mimic is not None
    assert mimic.get("joint") == "left_slide" and mimic.get("axis") == "axis"
    assert mimic.findtext("multiplier") == "1.0" and mimic.findtext("offset") == "0.001"
    assert by_name(model, "joint", "right_slide").find(f"{{{URDF_NS}}}mimic") is None
    assert by_name(model, "joint", "left_slide").find("axis/mimic") is None


@pytest.mark.parametrize("version", ["1.6", "1.7", "1.9", "1.10"])
def test_mimic_below_1_11_is_a_custom_element(version):
    _, root, model = feature_output("mimic_joint", sdf_version=version)
    assert root.get("version") == version
    joint = by_name(model, "joint", "right_slide")
    assert joint.find("axis/mimic") is None
    (custom,) = joint.findall(f"{{{URDF_NS}}}mimic")
    assert dict(custom.attrib) == {"joint": "left_slide", "multiplier": "1.0",
                                   "offset": "0.001"}


# ---- refused ---------------------------------------------------------------------------------

def test_relative_refuses_a_version_below_1_7():
    for version in ("1.4", "1.5", "1.6"):
        conversion = convert(FEATURES / "joint_prismatic.urdf", relative=True,
                             sdf_version=version)
        assert not conversion.ok and conversion.xml is None
        messages = [d.message for d in conversion.diagnostics if d.is_error]
        assert any("relative_to" in m for m in messages), messages


def test_massless_leaf_as_frame_needs_1_7():
    conversion = convert(FEATURES / "link_massless_leaf_fixed_becomes_frame.urdf",
                         sdf_version="1.6")
    assert not conversion.ok and conversion.xml is None
    messages = [d.message for d in conversion.diagnostics if d.is_error]
    assert any("frame" in m and "1.7" in m for m in messages), messages


def test_unknown_sdf_version_is_refused():
    conversion = convert(FEATURES / "joint_prismatic.urdf", sdf_version="1.13")
    assert not conversion.ok and conversion.xml is None
    [refused] = [d for d in conversion.diagnostics if d.is_error]
    assert refused.message == "--sdf-version 1.13 is not one of 1.4, 1.5, 1.6, 1.7, 1.8, " \
        "1.9, 1.10, 1.11, 1.12", refused.format()


def test_invalid_urdf_is_not_converted():
    conversion = convert(OTHER_URDF_FIXTURES / "urdf_kinematic_loop.urdf")
    assert not conversion.ok and conversion.xml is None
    assert any(d.code.value == "URDF_KINEMATIC_LOOP" for d in conversion.diagnostics)
