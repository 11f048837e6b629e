"""Attributes URDF does not define on its elements (``drake:acceleration`` on ``<limit>``,
``bar=`` on ``<link>``, ``drake:foo=`` on a ``<visual>``'s ``<box>``): found, named with a
URDF_ATTRIBUTE_UNKNOWN warning each, and kept on the model value so that urdf2sdf carries
them (``urdf2sdf.attributes``) and sdf2urdf gives them back.

Those of the robot, a link, a joint and a joint limit are the value's ``attributes``
(:func:`unknown_attributes`); those of the elements below a link or a joint (its origin,
inertial, mass, inertia, visuals, collisions, geometry, material, color, texture, parent,
child, axis, calibration, dynamics, mimic, safety_controller) are its ``part_attributes``
(:func:`unknown_part_attributes`), by the element's path in the link or joint
(:data:`PART_CHILDREN`); a Drake ``<frame>``'s are the frame's ``attributes``. Those of the
robot's parts that are carried whole (materials, transmissions) are named only
(:func:`name_robot_part_attributes`): their copy keeps them (a ``<gazebo>`` block's are
named by ``urdf2sdf.gazebo``).

What URDF defines is :data:`KNOWN_ATTRIBUTES` (urdfdom's reader); namespace declarations
are no attributes to lxml, so ``xmlns:xacro`` is never one.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS
from urdf_sdf.core.read.prefixes import prefixed_name

_ORIGIN = frozenset({"xyz", "rpy"})
_NAME = frozenset({"name"})
_LINK = frozenset({"link"})
_FILENAME = frozenset({"filename"})
KNOWN_ATTRIBUTES = {
    "robot": frozenset({"name", "version"}),
    "link": _NAME,
    "joint": frozenset({"name", "type"}),
    "limit": frozenset({"lower", "upper", "effort", "velocity"}),
    "origin": _ORIGIN,
    "inertial": frozenset(),
    "mass": frozenset({"value"}),
    "inertia": frozenset(INERTIA_KEYS),
    "visual": _NAME,
    "collision": _NAME,
    "geometry": frozenset(),
    "box": frozenset({"size"}),
    "cylinder": frozenset({"radius", "length"}),
    "sphere": frozenset({"radius"}),
    "mesh": frozenset({"filename", "scale"}),
    "material": _NAME,
    "color": frozenset({"rgba"}),
    "texture": _FILENAME,
    "parent": _LINK,
    "child": _LINK,
    "axis": frozenset({"xyz"}),
    "calibration": frozenset({"rising", "falling", "reference_position"}),
    "dynamics": frozenset({"damping", "friction"}),
    "mimic": frozenset({"joint", "multiplier", "offset"}),
    "safety_controller": frozenset({"soft_lower_limit", "soft_upper_limit", "k_position",
                                    "k_velocity"}),
    "frame": frozenset({"name", "link", "xyz", "rpy"}),
    "transmission": frozenset({"name", "type"}),
    "actuator": _NAME,
    "type": frozenset(),
    "hardwareInterface": frozenset(),
    "mechanicalReduction": frozenset(),
}
# The elements below a link or joint whose attributes are its part_attributes: each
# element's children that URDF defines (the others are carried whole, with theirs).
# A joint's <limit> has its own ``attributes`` (Limit.attributes).
PART_CHILDREN = {
    "link": ("inertial", "visual", "collision"),
    "joint": ("origin", "parent", "child", "axis", "calibration", "dynamics", "mimic",
              "safety_controller"),
    "inertial": ("origin", "mass", "inertia"),
    "visual": ("origin", "geometry", "material"),
    "collision": ("origin", "geometry"),
    "geometry": ("box", "cylinder", "sphere", "mesh"),
    "material": ("color", "texture"),
}
# Children a link may have several of: their path names which one, from 1 (``visual[2]``);
# of any other tag only the first is read, and its path is the tag alone.
REPEATED = frozenset({"visual", "collision"})
# The robot's parts carried whole, and their children whose attributes URDF defines.
ROBOT_PARTS = {"material": ("color", "texture"),
               "transmission": ("type", "joint", "actuator"),
               "joint": ("hardwareInterface",),
               "actuator": ("hardwareInterface", "mechanicalReduction")}


CARRIED = "carried into the SDF, and given back by sdf2urdf"
CARRIED_PARTS = "carried into the SDF (<urdf:attributes>), and given back by sdf2urdf"
# The root link ``world`` is the world frame, no element of the SDF (core.read.urdf_world).
WORLD_FATE = "left out if the link is URDF's world root, which the SDF has no element for"


def unknown_attributes(el, kind: str, state, what: str, fate: str = CARRIED
                       ) -> dict[str, str] | None:
    """The attributes of ``el`` (a ``kind`` element, ``what`` in messages) URDF does not
    define, by name (``{uri}local`` when namespaced), each named in a warning of
    ``state`` (None: none); None when there is none (the common case)."""
    known = KNOWN_ATTRIBUTES[kind]
    if known.issuperset(el.keys()):
        return None
    found = {name: value for name, value in el.items() if name not in known}
    for name in found:
        warn_unknown(state, name, el, kind, what, fate)
    return found


def warn_unknown(state, name: str, el, kind: str, what: str, fate: str) -> None:
    """Name attribute ``name`` of ``el`` (None ``state``: found without a word)."""
    if state is None:
        return
    state.warning(Code.URDF_ATTRIBUTE_UNKNOWN, f"{what} has the attribute "
                  f"[{prefixed_name(name, el)}], which URDF does not define on <{kind}>: {fate}",
                  el)


def unknown_part_attributes(el, kind: str, state, what: str, fate: str = CARRIED_PARTS
                            ) -> dict[str, dict[str, str]] | None:
    """The attributes URDF does not define of the elements below link or joint ``el``
    (``kind``), by the element's path in it (``visual[2]/geometry/box``, ``axis``), each
    named in a warning; None when there is none (the common case)."""
    found: dict[str, dict[str, str]] = {}
    collect_parts(el, PART_CHILDREN[kind], "", found, state, what, fate)
    return found or None


def collect_parts(el, tags: tuple[str, ...], path: str, found: dict, state, what: str,
                  fate: str) -> None:
    """The unknown attributes of the children of ``el`` (``tags``: those URDF defines there,
    ``path``: where ``el`` is, with a trailing ``/``) and below, into ``found``."""
    counts: dict[str, int] = {}
    for child in el:
        tag = child.tag
        if tag not in tags:
            continue
        count = counts[tag] = counts.get(tag, 0) + 1
        if count > 1 and tag not in REPEATED:
            continue  # only the first is read
        where = f"{path}{tag}[{count}]" if tag in REPEATED else path + tag
        known = KNOWN_ATTRIBUTES[tag]
        if not known.issuperset(child.keys()):
            attributes = found[where] = {name: value for name, value in child.items()
                                         if name not in known}
            for name in attributes:
                warn_unknown(state, name, child, tag, f"<{where}> of {what}", fate)
        inner = PART_CHILDREN.get(tag)
        if inner is not None and len(child):
            collect_parts(child, inner, where + "/", found, state, what, fate)


def name_robot_part_attributes(parts: dict[str, list], state) -> None:
    """Name, with a warning each, the attributes URDF does not define of the robot's parts
    the SDF carries whole (``parts``: the robot's children by tag): their copy keeps them."""
    for tag in ("material", "transmission"):
        for el in parts.get(tag, ()):
            name_part(el, tag, state, f"{tag} [{el.get('name')}]")


def name_part(el, tag: str, state, what: str) -> None:
    """Name the unknown attributes of ``el`` (a ``tag`` element carried whole) and of its
    children URDF defines."""
    known = KNOWN_ATTRIBUTES[tag]
    for name in el.keys():
        if name not in known:
            warn_unknown(state, name, el, tag, what, "carried as written")
    inner = ROBOT_PARTS.get(tag, ())
    for child in el:
        if child.tag in inner:
            name_part(child, child.tag, state, what)
