"""URDF -> SDFormat against the reference implementation (``urdf2sdf``, libsdformat):
it loads every output of every valid URDF fixture without errors and resolves each link,
frame and joint where our core does; and, reading the URDFs itself, it agrees with the
forward kinematics the other ``test_urdf2sdf_*`` modules trust.
"""
from __future__ import annotations

import pytest

from tests.support import shared_cases
from tests.urdf2sdf_helpers import (
    CONFORMANCE_PARTS,
    FEATURE_FILES,
    REAL_WORLD_FILES,
    REFERENCE_TOL,
    Urdf,
    all_urdf_cases,
    check_reference,
    list_pose_matrix,
    loadable_urdf_or_skip,
    matrix_gap,
    reference_poses,
)

# The feature fixtures and the real-world URDFs (those need ../shared).
FK_CHECK_FILES = shared_cases(FEATURE_FILES + REAL_WORLD_FILES, *CONFORMANCE_PARTS)


@pytest.mark.parametrize("urdf, variant, options", all_urdf_cases())
def test_reference_loads_output_and_agrees(urdf, variant, options, sdf_reference, tmp_path):
    loadable_urdf_or_skip(urdf)
    check_reference(urdf, options, sdf_reference, tmp_path)


@pytest.mark.parametrize("urdf", FK_CHECK_FILES, ids=lambda p: p.stem)
def test_reference_reading_the_urdf_agrees_with_the_test_fk(urdf, sdf_reference):
    """libsdformat reading the URDF itself (it lumps fixed joints and drops massless links)
    puts each link, lumped frame and joint it reports where this test's FK does: a check of
    the FK that the other tests trust."""
    loadable_urdf_or_skip(urdf)
    report = sdf_reference(urdf)
    if not report.get("ok"):
        pytest.skip("the reference rejects this URDF")
    robot = Urdf(urdf)
    bodies, joints = reference_poses(report)
    problems = []
    for name, pose in bodies.items():
        if name in robot.fk and pose is not None:
            gap = matrix_gap(list_pose_matrix(pose), robot.fk[name])
            if not gap <= REFERENCE_TOL:
                problems.append(f"{name}: gap {gap:.3g}")
    for name, pose in joints.items():
        if name in robot.joints and pose is not None:
            child = robot.joint_child(robot.joints[name])
            gap = matrix_gap(list_pose_matrix(pose), robot.fk[child])
            if not gap <= REFERENCE_TOL:
                problems.append(f"joint {name}: gap {gap:.3g}")
    assert bodies, "the reference reports no link"
    assert not problems, problems
