"""What sdf2urdf gives a link it inserts, and how a model of several trees is written.

A link inserted by ``--approximate`` (between the revolute joints that stand for a
universal, revolute2 or ball joint) has no SDF counterpart. Massless, libsdformat drops it
and everything below it; so it carries a negligible, documented mass and inertia
(``INSERTED_LINK_MASS``, ``INSERTED_LINK_INERTIA``), which every consumer keeps.

A model of several kinematic trees has no URDF every consumer places: floating joints from
``world`` are refused by libsdformat and left at the origin by Drake, several root links
are refused by urdfdom. It is refused (``URDF_SEVERAL_TREES``), or with ``--approximate``
each tree is welded to ``world`` where it stands (free motion lost, placement kept).
"""
from __future__ import annotations

from urdf_sdf.core.write.text import Node

INSERTED_LINK_MASS = 0.001  # kg
INSERTED_LINK_INERTIA = 1e-06  # kg m^2, each principal moment (a 1 g body ~5 cm across)


def inserted_link_inertial() -> Node:
    """``<inertial>`` of a link sdf2urdf inserts: the documented negligible mass."""
    moment = repr(INSERTED_LINK_INERTIA)
    return ("inertial", {}, [
        ("mass", {"value": repr(INSERTED_LINK_MASS)}, []),
        ("inertia", {"ixx": moment, "ixy": "0", "ixz": "0", "iyy": moment, "iyz": "0",
                     "izz": moment}, [])])


def several_trees_refusal(model: str, roots: list[str], world_jointed: bool) -> str:
    """The message of ``URDF_SEVERAL_TREES``: the trees and what the user can do."""
    others = " besides the tree jointed to world" if world_jointed else ""
    return (f"model [{model}] has several kinematic trees (root links {', '.join(roots)}"
            f"{others}); a URDF has one root and no URDF form places free trees in every "
            "consumer (floating joints from world are refused by libsdformat and left at "
            "the origin by Drake). Join the trees with a joint, make the model <static>, or "
            "pass --approximate to weld each tree to world where it stands")
