"""Pose math against scipy's Rotation, the independent reference."""
import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from urdf_sdf.core.base.pose import (
    Pose,
    compose,
    invert,
    pose_gap,
    quat_from_rpy,
    relative_rotation,
    rpy_from_quat,
)

angles = st.floats(-math.pi, math.pi, allow_nan=False)
coords = st.floats(-10, 10, allow_nan=False)


def scipy_quat_wxyz(roll, pitch, yaw):
    x, y, z, w = Rotation.from_euler("xyz", [roll, pitch, yaw]).as_quat()
    return np.array([w, x, y, z])


@given(angles, angles, angles)
def test_rpy_to_quaternion_matches_scipy_fixed_axis_convention(roll, pitch, yaw):
    ours = np.array(quat_from_rpy(roll, pitch, yaw))
    theirs = scipy_quat_wxyz(roll, pitch, yaw)
    assert min(np.abs(ours - theirs).max(), np.abs(ours + theirs).max()) < 1e-12


@given(angles, st.floats(-1.5, 1.5), angles)
def test_quaternion_to_rpy_round_trips_away_from_gimbal_lock(roll, pitch, yaw):
    back = rpy_from_quat(quat_from_rpy(roll, pitch, yaw))
    original = Pose.from_rpy((0, 0, 0), (roll, pitch, yaw))
    assert pose_gap(Pose.from_rpy((0, 0, 0), back), original) < 1e-9


@given(st.tuples(coords, coords, coords), st.tuples(angles, angles, angles),
       st.tuples(coords, coords, coords), st.tuples(angles, angles, angles))
def test_composition_matches_homogeneous_matrices(p1, r1, p2, r2):
    a, b = Pose.from_rpy(p1, r1), Pose.from_rpy(p2, r2)

    def matrix(p, r):
        m = np.eye(4)
        m[:3, :3] = Rotation.from_euler("xyz", r).as_matrix()
        m[:3, 3] = p
        return m

    expected = matrix(p1, r1) @ matrix(p2, r2)
    ours = a * b
    w, x, y, z = ours.rotation
    ours_matrix = np.eye(4)
    ours_matrix[:3, :3] = Rotation.from_quat([x, y, z, w]).as_matrix()
    ours_matrix[:3, 3] = ours.position
    assert np.abs(ours_matrix - expected).max() < 1e-9


@given(st.tuples(coords, coords, coords), st.tuples(angles, angles, angles))
def test_inverse_composes_to_identity(p, r):
    pose = Pose.from_rpy(p, r)
    assert pose_gap(pose * pose.inverse(), Pose()) < 1e-12
    assert pose_gap(pose.inverse() * pose, Pose()) < 1e-12


def test_quaternion_pose_is_normalised_and_canonical():
    pose = Pose.from_quat_xyzw((1, 2, 3), (0, 0, 0, -2))
    assert pose.as_list() == [1.0, 2.0, 3.0, 1.0, -0.0, -0.0, -0.0]


@given(angles, st.sampled_from([math.pi / 2, -math.pi / 2]), angles,
       st.floats(-1e-7, 1e-7, allow_nan=False))
def test_rpy_extraction_is_exact_near_gimbal_lock(roll, pitch, yaw, nudge):
    original = Pose.from_rpy((0, 0, 0), (roll, pitch + nudge, yaw))
    rebuilt = Pose.from_rpy((0, 0, 0), original.rpy())
    assert pose_gap(original, rebuilt) < 1e-12


def test_the_formulas_take_numpy_arrays_of_poses():
    """compose, invert and relative_rotation on arrays of components (what
    ``core.kinematics.batch`` and ``core.diff`` pass) give, pose by pose, what ``Pose``
    gives with floats, within 1e-15 (one formula serves both)."""
    rng = np.random.default_rng(7)
    a = [Pose.from_rpy(tuple(p), tuple(r)) for p, r in zip(rng.uniform(-5, 5, (50, 3)),
                                                            rng.uniform(-3, 3, (50, 3)))]
    b = [Pose.from_rpy(tuple(p), tuple(r)) for p, r in zip(rng.uniform(-5, 5, (50, 3)),
                                                            rng.uniform(-3, 3, (50, 3)))]

    def components(poses):
        return (tuple(np.array([p.position[i] for p in poses]) for i in range(3)),
                tuple(np.array([p.rotation[i] for p in poses]) for i in range(4)))

    def rows(position, rotation):
        return np.column_stack(position + rotation)

    def expected(poses):
        return np.array([[*p.position, *p.rotation] for p in poses])

    (pa, qa), (pb, qb) = components(a), components(b)
    products = expected([x * y for x, y in zip(a, b)])
    assert np.abs(rows(*compose(pa, qa, pb, qb)) - products).max() < 1e-15
    assert np.abs(rows(*invert(pa, qa)) - expected([x.inverse() for x in a])).max() < 1e-15
    relative = np.column_stack(relative_rotation(qa, qb))
    turns = np.array([(x.inverse() * y).rotation for x, y in zip(a, b)])
    assert np.abs(relative - turns).max() < 1e-15
    # and the array forms are not vacuous: the two inputs differ
    assert np.abs(rows(pa, qa) - rows(pb, qb)).max() > 0.1
