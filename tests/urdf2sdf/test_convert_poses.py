"""URDF -> SDFormat poses and axes (``urdf2sdf``): with ``--relative`` every URDF origin
text is copied; without it, link poses are shortest round-trip floats; either way the core,
reading the output, puts every link, frame and joint where URDF forward kinematics does,
and every joint axis is the URDF's, on every valid URDF fixture of the test suite.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from tests.urdf2sdf_helpers import (
    FEATURE_FILES,
    FEATURES,
    FK_TOL,
    OTHER_URDF_FIXTURES,
    VALID_OTHER_URDF_FILES,
    Urdf,
    all_urdf_cases,
    by_name,
    check_axes,
    check_fk,
    converted,
    custom_joint,
    feature_cases,
    loadable_urdf_or_skip,
    origin_text,
    parse_xml,
    rotation_rpy,
    sdf_model,
)
from urdf_sdf import ToSdf, convert_urdf, load, load_string
from urdf_sdf.core.base.custom import URDF_NS

# ---- --relative: poses copy the URDF origin texts ----------------------------------------

def with_joints(paths):
    return [p for p in paths if parse_xml(p).find("joint") is not None]


@pytest.mark.parametrize("urdf", with_joints(FEATURE_FILES + VALID_OTHER_URDF_FILES),
                         ids=lambda p: p.stem)
def test_relative_poses_are_the_urdf_origin_texts(urdf):
    """With --relative, each URDF joint's origin text is copied: an SDF joint's
    ``<pose relative_to=PARENT>`` (the model frame for the world link), and its child link
    is ``<pose relative_to=JOINT/>``; a frame made from a massless leaf, or the free link
    of a floating/planar joint, gets the origin text relative to the parent link."""
    loadable_urdf_or_skip(urdf)
    robot = Urdf(urdf)
    _, model = sdf_model(converted(urdf, {"relative": True}).xml)
    for name, joint in robot.joints.items():
        parent, child = robot.joint_parent(joint), robot.joint_child(joint)
        expected_frame = "__model__" if robot.world_is_root and parent == "world" else parent
        expected_text = origin_text(joint.find("origin"))
        # A joint named like a link is renamed in SDF; urdf:name keeps the URDF name.
        joint_el = by_name(model, "joint", name)
        if joint_el is None or joint_el.get(f"{{{URDF_NS}}}name") not in (None, name):
            joint_el = next((j for j in model.findall("joint")
                             if j.get(f"{{{URDF_NS}}}name") == name), joint_el)
        sdf_joint_name = joint_el.get("name") if joint_el is not None else name
        frame_el = by_name(model, "frame", child)
        link_el = by_name(model, "link", child)
        if joint_el is not None:
            assert joint.get("type") not in ("floating", "planar")
            poses = joint_el.findall("pose")
            assert len(poses) == 1, f"joint {name}"
            assert poses[0].get("relative_to") == expected_frame, f"joint {name}"
            assert (poses[0].text or "") == expected_text, f"joint {name}"
            assert link_el is not None, f"joint {name}: no link {child}"
            link_poses = link_el.findall("pose")
            assert len(link_poses) == 1 and link_poses[0].get("relative_to") == sdf_joint_name, \
                child
            assert (link_poses[0].text or "").strip() == "", child
        elif frame_el is not None:
            assert joint.get("type") == "fixed", f"frame {child} from a {joint.get('type')}"
            assert link_el is None
            assert frame_el.get("attached_to") == parent
            assert frame_el.get(f"{{{URDF_NS}}}joint") == name
            poses = frame_el.findall("pose")
            assert len(poses) == 1 and poses[0].get("relative_to") == expected_frame, child
            assert (poses[0].text or "") == expected_text, f"frame {child}"
        else:
            assert joint.get("type") in ("floating", "planar"), f"joint {name} is missing"
            assert len(custom_joint(model, name)) == 1, f"no urdf:joint {name}"
            assert link_el is not None, f"free link {child} is missing"
            poses = link_el.findall("pose")
            assert len(poses) == 1 and poses[0].get("relative_to") == expected_frame, child
            assert (poses[0].text or "") == expected_text, f"free link {child}"


def test_relative_copies_odd_origin_texts_verbatim():
    """Spot check of the rule above on texts with spaces, signs and exponents."""
    urdf = FEATURES / "origin_partial_attributes.urdf"
    _, model = sdf_model(converted(urdf, {"relative": True}).xml)
    poses = {el.get("name"): el.find("pose") for el in model.findall("joint")}
    assert poses["no_origin"].text is None and poses["no_origin"].get("relative_to") == "base"
    assert poses["xyz_only"].text == "0 0 1 0 0 0"
    assert poses["rpy_only"].text == "0 0 0 0 0 1.5707963267948966"
    assert poses["odd_text"].text == " 1e-3  +2.50  -0  0.0 -1E-1 3"


# ---- absolute poses ------------------------------------------------------------------------

def test_absolute_poses_are_shortest_round_trip_floats():
    """Without --relative every link pose is resolved to the model frame, each number the
    shortest text that reads back to the same float (no fixed %.6f)."""
    urdf = FEATURES / "pose_absolute_shortest_float.urdf"
    robot = Urdf(urdf)
    for options in ({}, {"sdf_version": "1.6"}):
        conversion = converted(urdf, options)
        _, model = sdf_model(conversion.xml)
        for link in model.findall("link"):
            poses = link.findall("pose")
            if link.get("name") == robot.root_link and not poses:
                continue  # the root link at the model frame needs no pose
            (pose,) = poses
            assert pose.get("relative_to") in (None, "__model__")
            tokens = pose.text.split()
            assert len(tokens) == 6
            for token in tokens:
                assert token == repr(float(token)) or token == str(int(float(token))), token
            position = np.array([float(t) for t in tokens[:3]])
            assert np.max(np.abs(position - robot.fk[link.get("name")][:3, 3])) <= FK_TOL
    # At least one number of this chain needs more than 6 decimals.
    _, model = sdf_model(converted(urdf, {}).xml)
    tokens = [t for link in model.findall("link") for t in (link.findtext("pose") or "").split()]
    assert any(len(t.partition(".")[2]) > 6 for t in tokens), tokens


# ---- forward kinematics ------------------------------------------------------------------

@pytest.mark.parametrize("urdf, variant, options", all_urdf_cases())
def test_poses_equal_urdf_forward_kinematics(urdf, variant, options):
    loadable_urdf_or_skip(urdf)
    check_fk(urdf, options)


def test_fk_helper_matches_a_hand_computed_chain():
    """The test's own FK: a yaw of 90 degrees then a translation along the new x."""
    a = np.eye(4)
    a[:3, :3] = rotation_rpy(0, 0, math.pi / 2)
    b = np.eye(4)
    b[:3, 3] = [1, 0, 0]
    assert np.allclose((a @ b)[:3, 3], [0, 1, 0], atol=1e-15)
    # Fixed axes: roll first about X, then pitch about Y; a point on Y goes to Z by roll.
    r = rotation_rpy(math.pi / 2, math.pi / 2, 0)
    assert np.allclose(r @ [0, 1, 0], [1, 0, 0], atol=1e-15)


# ---- joint axes --------------------------------------------------------------------------

@pytest.mark.parametrize("urdf, variant, options", feature_cases())
def test_axes_are_the_urdf_axes(urdf, variant, options):
    check_axes(urdf, options)


@pytest.mark.parametrize("relative", [False, True])
def test_a_frame_is_written_after_the_frame_it_is_attached_to(relative):
    """Massless tool_tip declared before the massless tool0 it hangs from (the ABB IRB 2400
    of packsim): tool0's frame comes first, as Drake needs, and each frame sits where Drake
    reads the URDF's link (tool_tip at 0.12 0 0.5, turned 90 degrees about y)."""
    urdf = OTHER_URDF_FIXTURES / "frame_written_after_the_frame_it_is_attached_to.urdf"
    conversion = convert_urdf(load(urdf), ToSdf(relative=relative))
    model = parse_xml(conversion.xml).find("model")
    assert [f.get("name") for f in model.findall("frame")] == ["tool0", "tool_tip"]
    sdf = load_string(conversion.xml)
    half = math.sqrt(0.5)
    for name, drake in (("tool0", (0.0, 0.0, 0.5)), ("tool_tip", (0.12, 0.0, 0.5))):
        pose = sdf.pose(name)
        assert np.allclose(pose.position, drake, atol=1e-9), name
        assert np.allclose(np.abs(pose.rotation), (half, 0.0, half, 0.0), atol=1e-9), name
