"""Links that a URDF ``<gazebo>`` block added to the model, with no joint to hold them.

A ``<gazebo>`` block without reference may hold an SDF ``<link>``: Gazebo (and urdf2sdf, and
libsdformat's URDF reader) add it to the model, where nothing attaches it: a free body, a
second kinematic tree. urdf2sdf marks such a link (``urdf:gazebo="true"``,
``core.base.custom.FROM_GAZEBO``); sdf2urdf gives one that is a root of its own with no
joint below it back to a ``<gazebo>`` block, as the SDF link it is, with
LINK_KEPT_IN_GAZEBO, so the URDF's round trip holds where URDF_SEVERAL_TREES would refuse it.
A link the block also attaches by a joint is converted like any other.
"""
from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from urdf_sdf.core.base.custom import FROM_GAZEBO, plain_copy
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import Link
from urdf_sdf.core.kinematics.tree import KinematicTree


def gazebo_link_blocks(tree: KinematicTree, link_element: Callable[[str], Link | None],
                       warn: Callable) -> list:
    """A ``<gazebo>`` block for each lone root link of ``tree`` that came from a URDF
    ``<gazebo>`` block (see the module), each warned about with ``warn(code, message,
    source)``; those links leave the tree. ``link_element``: a link's model element."""
    if len(tree.roots) < 2:
        return []
    blocks = []
    for name in tree.roots:
        link = link_element(name)
        if link is None or not added_by_gazebo_block(link) or tree.children.get(name):
            continue
        tree.links.remove(name)
        copy = plain_copy(link.xml)
        copy.attrib.pop(FROM_GAZEBO, None)
        block = etree.Element("gazebo")
        block.append(copy)
        blocks.append(block)
        warn(Code.LINK_KEPT_IN_GAZEBO, f"link [{name}] came from a <gazebo> block and no joint "
             "attaches it: a second kinematic tree, which URDF cannot state; it goes back into "
             "a <gazebo> block", link.source)
    return blocks


def added_by_gazebo_block(link: Link) -> bool:
    return link.xml is not None and link.xml.get(FROM_GAZEBO) == "true"
