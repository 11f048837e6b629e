"""Attributes given back to the URDF: those urdf2sdf carried (``urdf2sdf.attributes``: a
URDF ``bar`` as ``urdf:bar``, a namespaced ``drake:acceleration`` as it is) on the SDF
robot model, links, joints, joint limits and Drake frames, and those of the elements below
a link or joint (``<urdf:attributes urdf:of="visual[1]/geometry/box" .../>``), set on the
element of that path in the URDF link or joint written (:func:`placed`). One whose
element the URDF written does not have (an SDF edited since) is named with an
SDF_ATTRIBUTE_DROPPED warning.

A namespaced attribute keeps the prefix the SDF declares for it (one the SDF never
declared gets ``urn:urdf-sdf:undeclared:PREFIX``, ``core.read.prefixes``): the URDF
element that holds one (or whose child does) is written as an lxml element declaring
that prefix; the ``<robot>`` declares those of the robot's own attributes and of a
restored ``<urdf:joint>`` (a floating or planar joint), whose copy then uses them.
An attribute of an SDF link, joint, joint limit or frame that SDFormat does not define
and that is in no namespace (which libsdformat ignores with a warning) is named with an
SDF_ATTRIBUTE_DROPPED warning instead: URDF has no place for it either.
"""
from __future__ import annotations

from itertools import islice

from lxml import etree

from urdf_sdf.core.base.custom import URDF_NS, qname
from urdf_sdf.core.base.diagnostics import Code, source_of
from urdf_sdf.core.read.carried_attributes import (
    SDF_DEFINED,
    frame_joint_parts,
    own_attributes,
    part_attributes,
)
from urdf_sdf.core.read.prefixes import UNDECLARED_URI, namespaced, prefixed_name, tag_of
from urdf_sdf.core.read.shape_attributes import shape_attributes
from urdf_sdf.core.read.urdf_attributes import KNOWN_ATTRIBUTES
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.text import Node, to_element
from urdf_sdf.core.write.urdf import robot_document

_URDF = f"{{{URDF_NS}}}"
CUSTOM_JOINT = qname("joint")


def undefined_attributes(sdf_el, kind: str) -> list[str]:
    """The attributes of ``sdf_el`` (the SDF element of a URDF ``kind`` element) in no
    namespace that SDFormat does not define: lost in the URDF, to be named."""
    defined = SDF_DEFINED.get(sdf_el.tag)
    if defined is None or kind not in ("link", "joint", "limit"):
        return []
    return [name for name in sdf_el.keys()
            if name[0] != "{" and ":" not in name and name not in defined]


def given_back(node: Node, sdf_el, warn, parts: dict[str, dict[str, str]] | None = None):
    """``node`` (a URDF element) with the URDF attributes ``sdf_el`` (the SDF element it
    is made from; None-safe) carries, as written (:func:`declared`); each attribute of
    ``sdf_el`` that has no place in the URDF is named by ``warn(code, message, source)``.
    ``parts``: the attributes of the elements below, by path (None: all ``sdf_el``
    carries)."""
    if sdf_el is None:
        return node
    for name in undefined_attributes(sdf_el, node[0]):
        warn(Code.SDF_ATTRIBUTE_DROPPED, f"<{tag_of(sdf_el)}> has the attribute [{name}], which "
             "SDFormat does not define (libsdformat ignores it) and URDF has no place for: "
             "left out", source_of(sdf_el, None))
    attributes = own_attributes(sdf_el)
    if attributes:
        node = with_attributes(node, attributes)
    if parts is None:
        parts = part_attributes(sdf_el)
    return given_parts(node, parts, sdf_el, warn) if attributes or parts else node


def given_parts(node: Node, parts: dict[str, dict[str, str]], sdf_el, warn):
    """``node`` with ``parts`` (attributes by the path of their element in it, ``""``:
    its own) set, as written (:func:`declared`, with the declarations ``sdf_el`` sees);
    one whose element ``node`` lacks is named by ``warn``."""
    for path, carried in parts.items():
        found = placed(node, path.split("/") if path else [], carried)
        if found is None:
            names = ", ".join(prefixed_name(name, sdf_el) for name in carried)
            warn(Code.SDF_ATTRIBUTE_DROPPED, f"<{tag_of(sdf_el)} name='{sdf_el.get('name')}'> "
                 f"carries the URDF attributes [{names}] of <{path}> of <{node[0]}>, which the "
                 "URDF written has no element for: left out", source_of(sdf_el, None))
        else:
            node = found
    return declared(node, sdf_el)


def shape_given_back(node: Node, shape_el, warn, what: str):
    """URDF visual or collision ``node`` with the attributes its SDF shape ``shape_el``
    (None-safe) has beyond SDFormat's (``core.read.shape_attributes``), each on the URDF
    element that states what holds it (an ``<origin>`` made for a pose's that the identity
    left out), as written (:func:`declared`); each the URDF has no place for is named by
    ``warn(code, message, source)`` (``what``: the shape, as messages name it)."""
    found = shape_attributes(shape_el)
    if not found:
        return node
    for el, name, path in found.dropped:
        why = "SDFormat does not define (libsdformat ignores it) and URDF has no place for" \
            if namespaced(name) is None else "URDF has no element to hold"
        where = f"<{tag_of(el)}> of {what}" if path else what
        warn(Code.SDF_ATTRIBUTE_DROPPED, f"{where} has the attribute [{prefixed_name(name, el)}], "
             f"which {why}: left out", source_of(el, None))
    if "origin" in found.placed and not any(c[0] == "origin" for c in node[2]):
        node = (node[0], node[1], [("origin", {}, []), *node[2]])
    for path, attributes in found.placed.items():
        done = placed(node, path.split("/") if path else [], attributes)
        if done is None:
            names = ", ".join(prefixed_name(name, shape_el) for name in attributes)
            warn(Code.SDF_ATTRIBUTE_DROPPED, f"{what} has the attributes [{names}] on the "
                 f"element of <{path}>, which the URDF written lacks: left out",
                 source_of(shape_el, None))
        node = done or node
    return declared(node, shape_el)


def frame_given_back(link: Node, joint: Node, sdf_frame, warn) -> tuple:
    """The URDF ``link`` and fixed ``joint`` an SDF frame (a massless URDF link and its
    joint, as urdf2sdf wrote them) becomes, each with the attributes it carries for it."""
    link_parts, joint_parts = frame_joint_parts(part_attributes(sdf_frame))
    link = given_back(link, sdf_frame, warn, link_parts)
    return link, given_parts(joint, joint_parts, sdf_frame, warn) if joint_parts else joint


def with_origin(joint_el, origin: Node | None):
    """URDF joint element ``joint_el`` (a ``<urdf:joint>`` restored) with ``origin`` (None:
    the identity) in place of its own, keeping the attributes URDF does not define that
    its first ``<origin>`` had."""
    carried: dict[str, str] = {}
    defined = KNOWN_ATTRIBUTES["origin"]
    for old in joint_el.findall("origin"):
        carried = carried or {k: v for k, v in old.items() if k not in defined}
        joint_el.remove(old)
    if carried:
        origin = with_attributes(origin or ("origin", {}, []), carried)
    if origin is not None:
        joint_el.insert(0, to_element(origin))
    return joint_el


def placed(node: Node, path: list[str], attributes: dict[str, str]) -> Node | None:
    """``node`` with ``attributes`` added to its descendant at ``path`` (steps ``tag`` or
    ``tag[n]``, the n-th of that tag from 1), or None when it has none there (or a step
    is no such step: the path is the SDF's, which may have been edited)."""
    if not path:
        return with_attributes(node, attributes)
    step = path_step(path[0])
    if step is None:
        return None
    tag, wanted = step
    tag_name, own, children = node
    if children.__class__ is str:
        return None
    seen = 0
    for i, child in enumerate(children):
        child_tag = child[0] if child.__class__ is tuple else child.tag
        if child_tag != tag:
            continue
        seen += 1
        if seen < wanted:
            continue
        if child.__class__ is not tuple:  # a copied element (what the SDF carried)
            target = element_at(child, path[1:])
            if target is None:
                return None
            for name, value in attributes.items():
                target.set(name, value)
            return node
        found = placed(child, path[1:], attributes)
        if found is None:
            return None
        return (tag_name, own, [*children[:i], found, *children[i + 1:]])
    return None


def path_step(step: str) -> tuple[str, int] | None:
    """The tag and the number (from 1) of path step ``tag`` or ``tag[n]``; None when it is
    neither."""
    tag, bracket, index = step.partition("[")
    if not tag:
        return None
    if not bracket:
        return tag, 1
    digits = index[:-1]
    if not index.endswith("]") or not (digits.isascii() and digits.isdigit()) \
            or len(digits) > 9 or int(digits) < 1:
        return None
    return tag, int(digits)


def element_at(el, path: list[str]):
    """The descendant of lxml element ``el`` at ``path`` (steps as :func:`placed`'s), or
    None."""
    for step in path:
        parsed = path_step(step)
        if parsed is None:
            return None
        tag, wanted = parsed
        el = next(islice((c for c in el if c.tag == tag), wanted - 1, None), None)
        if el is None:
            return None
    return el


def limit_xml(joint_element):
    """The SDF ``axis/limit`` element of a joint (None when its XML is not kept)."""
    xml = getattr(joint_element, "xml", None)
    return xml.find("axis/limit") if xml is not None else None


def robot_document_of(name: str, model_el, streamed: bool = True) -> Document:
    """``core.write.urdf.robot_document`` of the robot made from SDF model ``model_el``
    (None-safe): with the URDF attributes the model carries, their prefixes declared."""
    out = robot_document(name, streamed, robot_namespaces(model_el))
    out.root.attrib.update(own_attributes(model_el))
    return out


def robot_namespaces(model_el) -> dict[str, str] | None:
    """Prefix -> URI of the namespaced attributes the SDF model ``model_el`` (None-safe)
    carries for the robot and in its restored ``<urdf:joint>`` copies (a floating or planar
    joint, and its origin and limit), as the SDF declares them: the ``<robot>`` declares
    them, as it is made before its attributes are set, and a copy appended to it uses
    them (None: none, the common case)."""
    uris = set(namespaces_of(("robot", own_attributes(model_el), [])))
    if model_el is not None:
        uris.update(copied_joint_namespaces(model_el))
    return prefixes_of(uris, model_el) if uris else None


def copied_joint_namespaces(model_el):
    """The namespace URIs of the attributes of the ``<urdf:joint>`` children of SDF model
    ``model_el`` and of their children, other than urdf2sdf's own."""
    for joint in model_el.iterchildren(CUSTOM_JOINT):
        for el in joint.iter(etree.Element):
            for name in el.keys():
                if name[0] == "{" and not name.startswith(_URDF):
                    yield name[1:].partition("}")[0]


def prefixes_of(uris: set[str], sdf_el) -> dict[str, str]:
    """Prefix -> URI for namespace ``uris``, with the prefixes the SDF element ``sdf_el``
    sees declared (a placeholder URI's own prefix for one the SDF never declared)."""
    nsmap = {prefix: uri for prefix, uri in sdf_el.nsmap.items() if uri in uris and prefix}
    nsmap.update({uri[len(UNDECLARED_URI):]: uri for uri in uris
                  if uri.startswith(UNDECLARED_URI)})
    return nsmap


def with_attributes(node: Node, attributes: dict[str, str]) -> Node:
    """``node`` with ``attributes`` added; one ``node`` already has (what the SDF itself
    says, ``type`` of a joint, ``link`` of its parent) keeps the SDF's value: URDF defines
    it, so no URDF attribute was carried under its name."""
    if not attributes:
        return node
    tag, own, children = node
    return (tag, {**own, **{name: value for name, value in attributes.items()
                            if name not in own}}, children)


def declared(node: Node, sdf_el):
    """``node`` as written: itself, or an lxml element declaring the prefixes (as the SDF
    element ``sdf_el`` declares them) of the namespaced attributes it or its children
    hold."""
    uris = set(namespaces_of(node))
    if not uris:
        return node
    tag, own, children = node
    el = etree.Element(tag, nsmap=prefixes_of(uris, sdf_el))
    for name, value in own.items():
        el.set(name, value)
    for child in children if children.__class__ is not str else ():
        if child.__class__ is tuple:
            to_element(child, el)
        else:
            el.append(child)
    if children.__class__ is str:
        el.text = children
    return el


def namespaces_of(node: Node):
    """The namespace URIs of the attributes in ``node`` (a text node) and its child nodes."""
    _, own, children = node
    for name in own:
        if name[0] == "{":
            yield name[1:].partition("}")[0]
    if children.__class__ is not str:
        for child in children or ():
            if child.__class__ is tuple:
                yield from namespaces_of(child)
