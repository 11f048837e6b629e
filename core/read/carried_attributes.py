"""The URDF attributes an SDF element carries, as urdf2sdf wrote them
(``urdf2sdf.attributes``), read back by sdf2urdf and by ``urdf-sdf diff``:

* :func:`own_attributes`: those of the element the SDF element stands for: its ``urdf:bar``
  (a plain URDF ``bar``, not urdf2sdf's own markup such as ``urdf:name``) and its
  attributes of any other namespace (``drake:acceleration``), whether urdf2sdf carried
  them or the SDF was written with them;
* :func:`part_attributes`: those of the elements below it, from its
  ``<urdf:attributes urdf:of="PATH" .../>`` children, by path; on a frame made of a
  massless link and its fixed joint, those under ``joint`` are the joint's
  (:func:`frame_joint_parts`).

A prefix the SDF never declared (read leniently) names the namespace
``urn:urdf-sdf:undeclared:PREFIX`` (``core.read.prefixes``).
"""
from __future__ import annotations

from urdf_sdf.core.base.custom import FRAME_JOINT, PART_ATTRIBUTES, PART_PATH, URDF_NS
from urdf_sdf.core.read.prefixes import namespaced

_URDF = f"{{{URDF_NS}}}"
# The urdf: attributes urdf2sdf writes for itself (core.base.custom), never a URDF one
# (``gazebo``: an element a URDF <gazebo> block added, core.base.custom.FROM_GAZEBO;
# ``lumped``: a link or joint --lump-fixed merged, urdf2sdf.lump).
MARKUP = frozenset({"name", "unnamed", "implicit", "inertia", "origin", "xyz", "rpy", "joint",
                    "element", "gazebo", "lumped", "reference"})
# The attributes SDFormat (1.5 to 1.11) defines on the elements whose others are carried or
# named: a link, joint, joint limit or frame (sdf2urdf.attributes), and a visual or
# collision and what is walked in it (core.read.shape_attributes; an element of neither
# table has none).
SDF_DEFINED = {"link": frozenset({"name"}), "joint": frozenset({"name", "type"}),
               "limit": frozenset(), "frame": frozenset({"name", "attached_to"}),
               "visual": frozenset({"name"}), "collision": frozenset({"name"}),
               "pose": frozenset({"relative_to", "degrees", "rotation_format", "frame"}),
               "mesh": frozenset({"optimization"})}


def own_attributes(sdf_el) -> dict[str, str]:
    """The URDF attributes ``sdf_el`` (None-safe) carries, by URDF name."""
    found: dict[str, str] = {}
    if sdf_el is None:
        return found
    for name, value in sdf_el.items():
        if name.startswith(_URDF):
            local = name[len(_URDF):]
            if local not in MARKUP:
                found[local] = value
        else:
            qualified = namespaced(name)
            if qualified is not None:
                found[qualified] = value
    return found


def part_attributes(sdf_el) -> dict[str, dict[str, str]]:
    """The URDF attributes of the elements below the one ``sdf_el`` (None-safe) stands
    for, by the element's path (``visual[1]/geometry/box``)."""
    found: dict[str, dict[str, str]] = {}
    if sdf_el is None:
        return found
    for child in sdf_el.iterchildren(PART_ATTRIBUTES):
        path = child.get(PART_PATH)
        if not path:
            continue
        attributes = found.setdefault(path, {})
        for name, value in child.items():
            if name == PART_PATH:
                continue
            attributes[namespaced(name) or name] = value
    return found


def frame_joint_parts(parts: dict[str, dict[str, str]]
                      ) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The ``parts`` of an SDF frame made of a URDF link and its fixed joint, split: the
    link's, and the joint's by their path in the joint (``""``: the joint itself)."""
    link: dict[str, dict[str, str]] = {}
    joint: dict[str, dict[str, str]] = {}
    for path, attributes in parts.items():
        head, _, rest = path.partition("/")
        if head == FRAME_JOINT:
            joint[rest] = attributes
        else:
            link[path] = attributes
    return link, joint
