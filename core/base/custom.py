"""The custom-element convention shared by ``urdf2sdf`` and ``sdf2urdf``.

Whatever SDFormat cannot express (a planar or floating joint, calibration,
safety_controller, transmissions, robot-level materials, URDF names that SDF
generates) is written into the SDF as elements and attributes in the namespace
``URDF_NS`` with the prefix ``urdf``. libsdformat keeps such custom elements and
ignores them; ``sdf2urdf`` turns them back into the URDF they came from.

A URDF element is carried as a *namespaced copy*: the same element tree with
every tag put in the namespace, attributes and text unchanged.
"""
from __future__ import annotations

import copy

from lxml import etree

URDF_NS = "urn:urdf-sdf:urdf"
PREFIX = "urdf"


def qname(tag: str) -> str:
    """``{URDF_NS}tag``: the lxml name of a custom element or attribute."""
    return f"{{{URDF_NS}}}{tag}"


_CUSTOM_PREFIX = qname("")
# <urdf:attributes urdf:of="PATH" .../>: the attributes URDF does not define of the element at
# PATH (``visual[1]/geometry/box``) in the URDF link or joint the SDF element came from,
# under their own names (urdf2sdf.attributes, sdf2urdf.attributes).
PART_ATTRIBUTES = qname("attributes")
PART_PATH = qname("of")
# On the SDF frame a massless URDF link and its fixed joint become, the joint's attributes
# are at this path (its own) and below it (``joint/origin``).
FRAME_JOINT = "joint"
# <urdf:inertia ixx="..." .../> in an SDF <inertial>: a URDF inertia tensor as written (the
# text of each of core.base.inertia.INERTIA_KEYS), kept beside the repair urdf2sdf writes for
# libsdformat (urdf2sdf.inertia); sdf2urdf gives it back while the SDF's tensor is still that
# repair (sdf2urdf.inertia).
INERTIA_AS_WRITTEN = qname("inertia")
# urdf:inertia="invalid" on an SDF <inertial>: a URDF tensor libsdformat refuses, kept as
# written by urdf2sdf --keep-inertia (core.read.sdf_elements reads it with a warning).
INERTIA_KEPT = qname("inertia")
# urdf:gazebo="true" on an SDF joint urdf2sdf copied from a URDF <gazebo> block: sdf2urdf gives
# one that closes a kinematic loop back to a block (sdf2urdf.loops).
FROM_GAZEBO = qname("gazebo")


def markup_of(el) -> dict[str, str] | None:
    """The ``urdf:`` attributes of an element by local name (None: it has none)."""
    found = None
    for name, value in el.items():
        if name.startswith(_CUSTOM_PREFIX):
            if found is None:
                found = {}
            found[name[len(_CUSTOM_PREFIX):]] = value
    return found


def markup(value, name: str) -> str | None:
    """The ``urdf:NAME`` attribute a model value's element had (its ``markup``)."""
    found = value.markup
    return found.get(name) if found else None


def namespaced_copy(el):
    """A copy of URDF element ``el`` with every tag in ``URDF_NS``; comments are dropped.
    An element already in a namespace of its own (``controller:...``, ``drake:...``) is
    copied as it is."""
    if not isinstance(el.tag, str) or el.tag.startswith("{"):
        return foreign_copy(el)
    out = etree.Element(qname(el.tag), nsmap={PREFIX: URDF_NS, **attribute_prefixes(el)})
    for key, value in el.attrib.items():
        out.set(key, value)
    out.text = el.text
    out.tail = None
    for child in el:
        if isinstance(child.tag, str):
            out.append(namespaced_copy(child))
    return out


def attribute_prefixes(el) -> dict[str, str]:
    """The prefixes ``el`` declares for the namespaces of its own attributes
    (``drake:acceleration``), so a copy writes them so and not as ``ns0:``."""
    spaces = {key[1:].partition("}")[0] for key in el.attrib if key.startswith("{")}
    return {prefix: uri for prefix, uri in el.nsmap.items()
            if prefix and uri in spaces and prefix != PREFIX}


def foreign_copy(el):
    """A verbatim copy of an element of another namespace, which libsdformat keeps and
    ignores as custom content."""
    out = copy.deepcopy(el)
    out.tail = None
    return out


def plain_copy(el):
    """The inverse of :func:`namespaced_copy`: tags back out of ``URDF_NS``; elements of
    other namespaces as they are."""
    if not el.tag.startswith(f"{{{URDF_NS}}}"):
        return foreign_copy(el)
    tag = etree.QName(el).localname
    out = etree.Element(tag, nsmap=attribute_prefixes(el) or None)
    for key, value in el.attrib.items():
        out.set(key, value)
    out.text = el.text
    for child in el:
        if isinstance(child.tag, str):
            out.append(plain_copy(child))
    return out


def custom_children(el, tag: str) -> list:
    """The ``urdf:TAG`` children of an SDF element (None-safe)."""
    if el is None:
        return []
    wanted = qname(tag)
    return [c for c in el if c.tag == wanted]


def has_namespaced_children(el) -> bool:
    """Whether an SDF element (None-safe) has a child in a namespace (``urdf:`` content or
    another custom element): what sdf2urdf restores or carries is only there."""
    if el is None:
        return False
    for c in el:
        tag = c.tag
        if isinstance(tag, str) and tag[0] == "{":
            return True
    return False


def custom_joints(model_el) -> list[dict]:
    """URDF joints SDF cannot express (floating, planar), carried as ``<urdf:joint>``:
    ``{"name", "type", "parent", "child", "axis", "xml"}`` for each."""
    joints = []
    for el in custom_children(model_el, "joint"):
        parent = el.find(qname("parent"))
        child = el.find(qname("child"))
        axis = el.find(qname("axis"))
        if parent is None or child is None or not el.get("name"):
            continue
        joints.append({"name": el.get("name"), "type": el.get("type", ""),
                       "parent": parent.get("link", ""), "child": child.get("link", ""),
                       "axis": axis.get("xyz") if axis is not None else None, "xml": el})
    return joints
