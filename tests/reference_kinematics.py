"""Reference (scalar) definitions that the tests hold ``urdf-sdf diff``'s vectorised code to.

* :func:`forward`: forward kinematics as ``core.kinematics.batch`` defines it, one
  configuration at a time, composed with :class:`core.base.pose.Pose` (it was
  ``KinematicTree.forward``);
* :func:`forward_batch`: :func:`core.kinematics.batch.forward_compact` of trees and their
  plans, the form :func:`forward` is compared with;
* :func:`assert_forward_agrees`: the contract of the vectorised forward kinematics, every
  pose within :data:`core.kinematics.batch.FORWARD_TOLERANCE` of the scalar one;
* :func:`description_poses`, :func:`relative_to_reference`, :func:`scalar_compare_poses`:
  the pose comparison of ``urdf-sdf diff`` one configuration at a time, on
  :class:`core.diff.compare.Description` objects, as it was before it was vectorised.
"""
from __future__ import annotations

import numpy as np

from urdf_sdf.core.base.pose import IDENTITY, Pose, pose_gap, quat_from_axis_angle
from urdf_sdf.core.diff import compare as diff_module
from urdf_sdf.core.diff.difference import Difference, motion, pose_text
from urdf_sdf.core.kinematics.batch import (
    FORWARD_TOLERANCE,
    ForwardPlan,
    compact_plan,
    forward_compact,
)
from urdf_sdf.core.kinematics.tree import WORLD, KinematicJoint, KinematicTree


def joint_motion(joint: KinematicJoint, q: float) -> Pose:
    """Joint frame motion ``X_JpJc(q)`` for one-degree-of-freedom joints."""
    if not joint.axes or joint.type not in ("revolute", "continuous", "prismatic"):
        return IDENTITY
    axis = joint.axes[0]
    if joint.type == "prismatic":
        return Pose((axis[0] * q, axis[1] * q, axis[2] * q))
    return Pose((0.0, 0.0, 0.0), quat_from_axis_angle(axis, q))


def forward(tree: KinematicTree, q: dict[str, float] | None = None) -> dict[str, Pose]:
    """Every link's pose relative to the root frame at configuration ``q`` (joint name ->
    position; missing joints at zero)."""
    q = q or {}
    poses: dict[str, Pose] = {}
    stack = [(root, tree.link_poses[root]) for root in tree.roots]
    if WORLD in tree.children:
        stack.append((WORLD, IDENTITY))
    while stack:
        name, pose = stack.pop()
        if name in poses:
            continue
        if name != WORLD:
            poses[name] = pose
        for joint in tree.children.get(name, []):
            child = pose * joint.X_PJ * joint_motion(joint, q.get(joint.name, 0.0)) * joint.X_JC
            stack.append((joint.child, child))
    for name in tree.links:  # links on a kinematic loop no root reaches: at rest
        poses.setdefault(name, tree.link_poses[name])
    return poses


def forward_batch(trees: list[tuple[KinematicTree, ForwardPlan]],
                  configurations: list[dict[str, float]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every row of each ``(tree, plan)`` at each configuration: positions ``(K, rows, 3)``
    and quaternions ``(K, rows, 4)`` per tree."""
    return forward_compact([compact_plan(tree, plan) for tree, plan in trees], configurations)


def forward_gaps(tree: KinematicTree, plan: ForwardPlan, configurations: list[dict],
                 positions: np.ndarray, rotations: np.ndarray) -> list[tuple[float, str, int]]:
    """``(gap, link, configuration)`` for every link: how far the vectorised pose is from
    ``forward(tree, q)``'s, in units of :data:`FORWARD_TOLERANCE`'s bound (above 1: out
    of tolerance). Positions count relative to the tree's scale at that configuration
    (its largest position coordinate in magnitude, at least 1)."""
    gaps = []
    for k, q in enumerate(configurations):
        poses = forward(tree, q)
        scale = max([1.0] + [abs(c) for pose in poses.values() for c in pose.position])
        for name, pose in poses.items():
            row = plan.rows[name]
            position = np.abs(positions[k, row] - pose.position).max() / scale
            rotation = np.abs(rotations[k, row] - pose.rotation).max()
            gaps.append((max(position, rotation) / FORWARD_TOLERANCE, name, k))
    return gaps


def assert_forward_agrees(tree: KinematicTree, plan: ForwardPlan, configurations: list[dict],
                          positions: np.ndarray, rotations: np.ndarray) -> None:
    """Every link's vectorised pose within :data:`FORWARD_TOLERANCE` of the scalar one
    (a NaN gap fails)."""
    for gap, name, k in forward_gaps(tree, plan, configurations, positions, rotations):
        assert gap <= 1.0, (name, k, gap)


def description_poses(description: diff_module.Description, q: dict[str, float],
                      urdf_links: bool = False) -> dict[str, Pose]:
    """Named frames' poses at ``q``: links, explicit frames, and joint frames (keyed
    ``joint NAME``). With ``urdf_links``, a link's pose is its joint frame's, as a URDF
    link frame always is."""
    poses = forward(description.tree, q)
    for name, (link, X_LF) in description.frames.items():
        if link in poses:
            poses[name] = poses[link] * X_LF
    for joint in description.tree.joints:
        if joint.child in poses:
            joint_frame = poses[joint.child] * joint.X_JC.inverse()
            poses["joint " + joint.name] = joint_frame
            if urdf_links:
                poses[joint.child] = joint_frame
    return poses


def relative_to_reference(poses: dict[str, Pose], reference: str | None) -> dict[str, Pose]:
    """Every pose relative to the ``reference`` frame, when there is one."""
    if reference is None or reference not in poses:
        return poses
    base = poses[reference].inverse()
    return {name: base * pose for name, pose in poses.items()}


def scalar_compare_poses(da, db, configurations, reference, tol, out) -> None:
    """compare_all_poses one configuration at a time, on two :class:`Description`."""
    reported: set[str] = set()
    urdf = "urdf" in (da.result.document.format, db.result.document.format)
    for q in configurations:
        pa = relative_to_reference(description_poses(da, q, urdf), reference[0])
        pb = relative_to_reference(description_poses(db, q, urdf), reference[1])
        where = diff_module.where_text(q)
        for name in sorted(set(pa) & set(pb)):
            if name in reported:
                continue
            gap = pose_gap(pa[name], pb[name])
            if gap > tol:
                reported.add(name)
                out.append(Difference(
                    "pose", name, f"{motion(pa[name], pb[name])} at the {where}: "
                    f"{pose_text(pa[name])} in A, {pose_text(pb[name])} in B", "pose"))
