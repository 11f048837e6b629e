"""Forward kinematics precomputed for the page's joint slider.

Moving one joint moves the subtree below it rigidly: at position ``q`` every pose
below the joint is premultiplied by ``X_J M(q) X_J^-1`` (``X_J`` the joint frame in
the root frame at the zero configuration, ``M(q)`` the joint's motion in its own
frame). So a slider step is one transform and the set of links it moves, whatever
the number of links. Joints that mimic the moved joint stay where they are.
"""
from __future__ import annotations

from dataclasses import dataclass

from urdf_sdf.core.base.pose import Pose, quat_from_axis_angle, rotate

STEPS = 11  # slider positions from the lower to the upper limit


@dataclass
class Motion:
    """One joint's slider: its positions and, per position, the transform applied to
    the poses of ``links`` (the child link's subtree) in the root frame."""
    joint: str
    values: list[float]
    transforms: list[Pose]
    links: frozenset[str]


def joint_motion(side, joint) -> Motion:
    """The slider of ``joint`` (a movable :class:`~.scene.JointMark` of ``side``)."""
    values = [joint.lower + (joint.upper - joint.lower) * k / (STEPS - 1) for k in range(STEPS)]
    inverse = joint.pose.inverse()
    transforms = [joint.pose * _local_motion(joint, q) * inverse for q in values]
    return Motion(joint.name, values, transforms, frozenset(side.subtree(joint.child)))


def _local_motion(joint, q: float) -> Pose:
    """``M(q)`` for an axis given in the root frame: rotated back into the joint frame."""
    w, x, y, z = joint.pose.rotation
    local = rotate((w, -x, -y, -z), joint.axis)  # the inverse rotation
    if joint.type == "prismatic":
        return Pose((local[0] * q, local[1] * q, local[2] * q))
    return Pose((0.0, 0.0, 0.0), quat_from_axis_angle(local, q))


def movable_joints(side) -> list:
    """The joints a slider can move, in the kinematic tree's order (from the root)."""
    order = {name: i for i, name in enumerate(side.tree.links_in_tree_order())}
    return sorted((j for j in side.joints if j.movable),
                  key=lambda j: order.get(j.child, len(order)))
