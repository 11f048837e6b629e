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
from urdf_sdf.core.base.model import Joint
from urdf_sdf.core.kinematics.tree import KinematicJoint, KinematicTree


def gazebo_loop_blocks(tree: KinematicTree, warn: Callable) -> list:
    """A ``<gazebo>`` block for each joint of ``tree`` that closes a loop and came from a URDF
    ``<gazebo>`` block (see the module), each warned about with ``warn(code, message,
    source)``; those joints leave the tree, so its other loops are its own."""
    blocks = []
    for joint in tree.loop_joints():
        element = joint.element
        if isinstance(element, Joint) and from_gazebo_block(tree, joint, element):
            blocks.append(gazebo_loop_block(tree, joint, element))
            warn(Code.JOINT_LOOP_KEPT_IN_GAZEBO, f"joint [{joint.name}] closes a kinematic "
                 "loop, which URDF cannot state; it came from a <gazebo> block and goes back "
                 "into one", element.source)
    return blocks


def from_gazebo_block(tree: KinematicTree, joint: KinematicJoint, element: Joint) -> bool:
    """Whether loop joint ``joint`` (of SDF joint ``element``) came from a URDF ``<gazebo>``
    block and is a second parent of its child (the tree keeps the first: the URDF's own)."""
    return element.xml is not None and markup(element, "gazebo") == "true" and \
        any(extra is joint for extra in tree.extra_parents)


def gazebo_loop_block(tree: KinematicTree, joint: KinematicJoint, element: Joint):
    """The ``<gazebo>`` block holding ``element`` (``joint``'s), which leaves the tree."""
    tree.joints = [other for other in tree.joints if other is not joint]
    tree.extra_parents = [other for other in tree.extra_parents if other is not joint]
    copy = plain_copy(element.xml)
    copy.attrib.pop(FROM_GAZEBO, None)
    block = etree.Element("gazebo")
    block.append(copy)
    return block
