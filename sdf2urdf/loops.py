"""Joints that close a kinematic loop and came from a URDF ``<gazebo>`` block.

A URDF is a tree, so a loop can only travel in a ``<gazebo>`` block, whose SDF joint Gazebo
(and urdf2sdf, and libsdformat's URDF reader) add to the model as a real joint. urdf2sdf marks
such a joint (``urdf:gazebo="true"``, ``core.base.custom.FROM_GAZEBO``); sdf2urdf gives one
that is a second parent of its child link back to a ``<gazebo>`` block, as the SDF joint it
is, with JOINT_LOOP_KEPT_IN_GAZEBO, so the URDF's round trip holds. A loop closed by any other
joint (an SDF's own) is still URDF_KINEMATIC_LOOP: URDF cannot state it.

The joint is copied as written: its pose is relative to its child link, whose frame urdf2sdf
put at its URDF joint, where sdf2urdf keeps it.
"""
from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from urdf_sdf.core.base.custom import FROM_GAZEBO, markup, plain_copy
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.kinematics.tree import KinematicJoint, KinematicTree


def gazebo_loop_blocks(tree: KinematicTree, warn: Callable) -> list:
    """A ``<gazebo>`` block for each joint of ``tree`` that closes a loop and came from a URDF
    ``<gazebo>`` block (see the module), each warned about with ``warn(code, message,
    source)``; those joints leave the tree, so its other loops are its own."""
    blocks = []
    for joint in tree.loop_joints():
        if from_gazebo_block(tree, joint):
            blocks.append(gazebo_loop_block(tree, joint))
            warn(Code.JOINT_LOOP_KEPT_IN_GAZEBO, f"joint [{joint.name}] closes a kinematic "
                 "loop, which URDF cannot state; it came from a <gazebo> block and goes back "
                 "into one", joint.element.source)
    return blocks


def from_gazebo_block(tree: KinematicTree, joint: KinematicJoint) -> bool:
    """Whether loop joint ``joint`` came from a URDF ``<gazebo>`` block and is a second
    parent of its child (the tree keeps the first: the URDF's own joint)."""
    return joint.vertex >= 0 and markup(joint.element, "gazebo") == "true" and \
        any(extra is joint for extra in tree.extra_parents)


def gazebo_loop_block(tree: KinematicTree, joint: KinematicJoint):
    """The ``<gazebo>`` block holding ``joint``, which leaves the tree's joints."""
    tree.joints = [other for other in tree.joints if other is not joint]
    tree.extra_parents = [other for other in tree.extra_parents if other is not joint]
    copy = plain_copy(joint.element.xml)
    copy.attrib.pop(FROM_GAZEBO, None)
    block = etree.Element("gazebo")
    block.append(copy)
    return block
