"""``core.diff.difference``: amounts with their units, rotations in degrees beside the
labelled quaternion, edits in a file's own terms."""
from __future__ import annotations

import math

from urdf_sdf.core.base.pose import Pose, quat_from_rpy
from urdf_sdf.core.diff.difference import edit_text, fmt, motion, plain, pose_text


def test_rounding_noise_and_negative_zero_show_as_zero():
    assert fmt([6.123e-17, -0.0, 0.5]) == "[0, 0, 0.5]"
    assert plain([-0.0, 1e-13, -2.5]) == "0 0 -2.5"


def test_a_pose_shows_metres_degrees_and_the_quaternion_order():
    pose = Pose((1.0, 0.0, 0.0), quat_from_rpy(0.0, 0.0, math.pi / 2))
    assert pose_text(pose) == ("xyz [1, 0, 0] m rpy [0, 0, 90] deg quaternion (w x y z) "
                               "[0.707107, 0, 0, 0.707107]")


def test_motion_leaves_out_what_did_not_change():
    a = Pose((0.0, 0.0, 0.0), quat_from_rpy(0.0, 0.0, 0.0))
    assert motion(a, Pose((0.0, 0.3, 0.4), a.rotation)) == "moved 0.5 m"
    assert motion(a, Pose(a.position, quat_from_rpy(0.0, 0.0, 0.6))) == \
        "turned 0.6 rad (34.4 deg)"


def test_an_edit_in_the_file_terms():
    a = Pose((-0.425, 0.0, 0.0), quat_from_rpy(0.0, 0.0, 0.0))
    b = Pose((-0.425, 0.0, 0.0), quat_from_rpy(0.0, 0.0, 0.6))
    assert edit_text("origin", a, b, 1e-9) == "origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)"
    c = Pose((-0.4, 0.0, 0.0), b.rotation)
    assert edit_text("origin", a, c, 1e-9) == (
        "origin xyz -0.425 0 0 -> -0.4 0 0 m (moved 0.025 m); "
        "origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)")
