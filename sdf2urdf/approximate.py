"""What sdf2urdf's ``--approximate`` writes for what URDF cannot state (docs/sdf2urdf.md).

Joint types URDF lacks become revolute joints (:func:`approximated_chain`): universal and
revolute2 two, about axis and axis2, through an inserted link ``NAME_link``; ball three,
about x, y and z, through two (``NAME_link1``, ``NAME_link2``); screw one about its axis
(the thread pitch is lost). Gearbox joints are dropped (``sdf2urdf.convert``). An inserted
link has no SDF counterpart; massless, libsdformat would drop it and everything below it,
so it carries a negligible, documented mass and inertia (``INSERTED_LINK_MASS``,
``INSERTED_LINK_INERTIA``), which every consumer keeps.

A model of several kinematic trees, or a free model merged with a world's others
(``--all-models``), has no URDF every consumer places: floating joints from ``world`` are
refused by libsdformat and left at the origin by Drake, several root links are refused by
urdfdom. It is refused (``URDF_SEVERAL_TREES``), or with ``--approximate`` each tree is
welded to ``world`` where it stands (free motion lost, placement kept).
"""
from __future__ import annotations

from collections.abc import Callable

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.pose import IDENTITY
from urdf_sdf.core.kinematics.tree import KinematicJoint, KinematicTree
from urdf_sdf.core.write.text import Node

APPROXIMABLE = {"ball", "universal", "revolute2", "screw"}
INSERTED_LINK_MASS = 0.001  # kg
INSERTED_LINK_INERTIA = 1e-06  # kg m^2, each principal moment (a 1 g body ~5 cm across)


def inserted_link_inertial() -> Node:
    """``<inertial>`` of a link sdf2urdf inserts: the documented negligible mass."""
    moment = repr(INSERTED_LINK_INERTIA)
    return ("inertial", {}, [
        ("mass", {"value": repr(INSERTED_LINK_MASS)}, []),
        ("inertia", {"ixx": moment, "ixy": "0", "ixz": "0", "iyy": moment, "iyz": "0",
                     "izz": moment}, [])])


def revolute_axes(joint: KinematicJoint) -> list:
    """The axes of the revolute joints that stand for ``joint``, in chain order."""
    axes = list(joint.axes) or [(0.0, 0.0, 1.0)]
    if joint.type in ("universal", "revolute2"):
        return (axes + [(1.0, 0.0, 0.0)])[:2] if len(axes) < 2 else axes[:2]
    if joint.type == "ball":
        return [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    return axes[:1]


def approximated_chain(joint: KinematicJoint, tree: KinematicTree,
                       warn: Callable) -> list[KinematicJoint]:
    """The revolute joints that stand for ``joint``; each inserted link is added to
    ``tree``; ``warn(code, message, source)`` names the approximation and the mass added."""
    axes = revolute_axes(joint)
    source = getattr(joint.element, "source", None)  # where the SDF states the joint
    warn(Code.JOINT_APPROXIMATED, f"{joint.type} joint [{joint.name}] approximated by "
         f"{len(axes)} revolute joint{'s' if len(axes) > 1 else ''}"
         + ("" if len(axes) == 1 else " through inserted links")
         + (" (the thread pitch is lost)" if joint.type == "screw" else ""), source)
    chain: list[KinematicJoint] = []
    parent, X_PJ = joint.parent, joint.X_PJ
    for i, axis in enumerate(axes):
        last = i == len(axes) - 1
        child = joint.child if last else f"{joint.name}_link{i + 1 if len(axes) > 2 else ''}"
        name = joint.name if i == 0 else f"{joint.name}_{i + 1}"
        chain.append(KinematicJoint(name, "revolute", parent, child, X_PJ,
                                    joint.X_JC if last else IDENTITY, [axis],
                                    joint.element, joint.vertex))
        if not last:
            warn(Code.LINK_MASS_ADDED, f"link [{child}] inserted for {joint.type} joint "
                 f"[{joint.name}] weighs {INSERTED_LINK_MASS} kg (--approximate): a massless "
                 "link is dropped by libsdformat with its children", source)
            tree.links.append(child)
            tree.link_poses[child] = IDENTITY
            tree.parent_joint[child] = chain[-1]
        parent, X_PJ = child, IDENTITY
    return chain


def several_trees_refusal(model: str, roots: list[str], world_jointed: bool,
                          in_world: bool) -> str:
    """The message of ``URDF_SEVERAL_TREES``: the trees and what the user can do."""
    consumers = ("no URDF form places free trees in every consumer (floating joints from "
                 "world are refused by libsdformat 12 and left at the origin by Drake)")
    if in_world and len(roots) == 1 and not world_jointed:
        return (f"model [{model}] is free in its world (root link {roots[0]}): merged with "
                f"the world's other models (--all-models) it is a second tree, and "
                f"{consumers}. Convert it alone with --model {model} (its world pose is kept "
                "in <gazebo><pose>), make it <static>, or pass --approximate to weld it to "
                "world where it stands")
    others = " besides the tree jointed to world" if world_jointed else ""
    return (f"model [{model}] has several kinematic trees (root links {', '.join(roots)}"
            f"{others}); a URDF has one root and {consumers}. Join the trees with a joint, "
            "make the model <static>, or pass --approximate to weld each tree to world where "
            "it stands")


def welded_trees_note(model: str, roots: list[str], in_world: bool) -> str:
    """The ``WORLD_JOINT_ADDED`` message of ``--approximate`` welding free trees."""
    if in_world and len(roots) == 1:
        return (f"model [{model}] is free in its world: its root link [{roots[0]}] is welded "
                "to world where the world places it (--approximate): its free motion is lost")
    return (f"model [{model}] has several kinematic trees (root links {', '.join(roots)}); "
            "each is welded to world where it stands (--approximate): their free motion is "
            "lost")
