"""The URDF's ``world`` link: the world frame itself for Gazebo, libsdformat and Drake
(a joint's parent ``world`` with no link declared is read as it, as Drake reads it), and
what a root ``world`` link holds that no body carries (named, never dropped silently).
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import WORLD, Joint, Link
from urdf_sdf.core.read.urdf_elements import UrdfState

# Whether some joint has a <parent link="world">: the common answer (no) without a
# Python loop over the joints.
_WORLD_PARENT = etree.XPath(f"boolean(joint/parent/@link[. = '{WORLD}'])")


def add_implicit_world(root, joints: list, state: UrdfState, links: dict[str, Link]) -> None:
    """A joint whose parent is ``world`` with no ``<link name="world">`` declared: Drake
    reads that as the world (urdfdom wants the link declared); so do we, with a warning."""
    if WORLD in links or not _WORLD_PARENT(root):
        return
    for el in joints:
        parent = el.find("parent")
        if parent is not None and parent.get("link") == WORLD:
            state.warning(Code.URDF_WORLD_UNDECLARED,
                          f"joint [{el.get('name')}] has the parent link [world], "
                          "which the robot does not declare: read as the world, as Drake does "
                          "(urdfdom needs <link name=\"world\"/>)", parent)
            links[WORLD] = Link(name=WORLD, source=state.src(parent))
            return


def world_link_content(links: dict[str, Link], joints: dict[str, Joint],
                       state: UrdfState) -> None:
    """WORLD_LINK_CONTENT_DROPPED when the root link ``world``, the world frame itself
    (Gazebo, libsdformat and Drake read it so), holds an inertial, visuals or collisions:
    no body carries them, and the model leaves them out."""
    world = links.get(WORLD)
    if world is None or any(j.child == WORLD for j in joints.values()):
        return
    held = [what for what, present in (("inertial", world.inertial is not None),
                                       ("visuals", bool(world.visuals)),
                                       ("collisions", bool(world.collisions))) if present]
    if held:
        verb = "is" if held == ["inertial"] else "are"
        state.diagnostics.warning_at(
            Code.WORLD_LINK_CONTENT_DROPPED, f"link [{WORLD}] is the world frame, which "
            f"Gazebo, libsdformat and Drake give no body: its {', '.join(held)} {verb} left "
            "out", world.source)
