"""The attributes a URDF element has beyond URDF's own (``core.read.urdf_attributes``), as
the SDF carries them, a namespaced one (``drake:acceleration``) as it is, its prefix
declared on ``<sdf>``; sdf2urdf gives them back (``sdf2urdf.attributes``):

* those of the robot, a link, a joint, a joint limit or a Drake ``<frame>``: on the SDF
  element the URDF element becomes, a plain ``bar`` as ``urdf:bar`` (custom attributes,
  which libsdformat keeps and ignores);
* those of the elements below a link or joint (``core.base.custom.PART_ATTRIBUTES``): a
  ``<urdf:attributes urdf:of="visual[1]/geometry/box" bar="1" drake:foo="2"/>`` child of
  the SDF link or joint per element, holding them under their own names; on the frame
  a massless link and its fixed joint become, the joint's are at ``joint`` (its own) and
  below (``joint/origin``): :func:`frame_joint_parts`.
"""
from __future__ import annotations

from urdf_sdf.core.base.custom import FRAME_JOINT, PART_ATTRIBUTES, PART_PATH, qname
from urdf_sdf.core.base.model import Joint, Model
from urdf_sdf.core.write.text import Node


def sdf_attributes(attributes: dict[str, str] | None) -> dict[str, str]:
    """The SDF names and values of carried URDF ``attributes`` (None: none)."""
    if not attributes:
        return {}
    return {name if name[0] == "{" else qname(name): value for name, value in attributes.items()}


def part_attribute_nodes(part_attributes: dict[str, dict[str, str]] | None) -> list[Node]:
    """The ``<urdf:attributes>`` children that carry a link's or joint's
    ``part_attributes`` (None: none)."""
    if not part_attributes:
        return []
    return [(PART_ATTRIBUTES, {PART_PATH: path, **attributes}, [])
            for path, attributes in part_attributes.items()]


def frame_joint_parts(joint: Joint) -> dict[str, dict[str, str]] | None:
    """The attributes of ``joint`` (a fixed joint that becomes part of an SDF frame with its
    child link) as the frame's part attributes."""
    parts = {f"{FRAME_JOINT}/{path}": attributes
             for path, attributes in (joint.part_attributes or {}).items()}
    if joint.attributes:
        parts[FRAME_JOINT] = joint.attributes
    return parts or None


def carried_namespaces(model: Model) -> dict[str, str] | None:
    """Prefix -> URI of the namespaces the carried attributes of ``model`` use, with the
    prefixes the URDF gave them (None: none, the common case)."""
    found = [model.attributes, *(link.attributes for link in model.links),
             *(joint.attributes for joint in model.joints),
             *(joint.limit.attributes for joint in model.joints if joint.limit is not None),
             *(frame.attributes for frame in model.frames),
             *(part for link in model.links for part in (link.part_attributes or {}).values()),
             *(part for joint in model.joints
               for part in (joint.part_attributes or {}).values())]
    uris = {name[1:].partition("}")[0] for attributes in found if attributes
            for name in attributes if name[0] == "{"}
    if not uris:
        return None
    declared = {uri: prefix for prefix, uri in (model.xml.nsmap if model.xml is not None
                                                else {}).items() if prefix}
    return {declared.get(uri, f"ns{i}"): uri for i, uri in enumerate(sorted(uris))}
