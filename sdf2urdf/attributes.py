"""Attributes given back to the URDF: those urdf2sdf carried (``urdf2sdf.attributes``: a
URDF ``bar`` as ``urdf:bar``, a namespaced ``drake:acceleration`` as it is) on the SDF
robot model, links, joints and joint limits.

A namespaced attribute keeps the prefix the SDF declares for it (one the SDF never
declared gets ``urn:urdf-sdf:undeclared:PREFIX``, ``core.read.prefixes``): the URDF
element that holds one (or whose child does) is written as an lxml element declaring
that prefix.
An attribute of an SDF link, joint, joint limit or frame that SDFormat does not define
and that is in no namespace (which libsdformat ignores with a warning) is named with an
SDF_ATTRIBUTE_DROPPED warning instead: URDF has no place for it either.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.diagnostics import Code, source_of
from urdf_sdf.core.read.prefixes import UNDECLARED_URI, qualified_name, tag_of
from urdf_sdf.core.write.text import Node, to_element

_URDF = f"{{{URDF_NS}}}"
# The urdf: attributes urdf2sdf writes for itself (core.base.custom), never a URDF one.
MARKUP = frozenset({"name", "unnamed", "implicit", "inertia", "origin", "xyz", "rpy", "joint",
                    "element"})
# What SDFormat defines on the elements whose attributes are given back.
SDF_ATTRIBUTES = {"link": {"name"}, "joint": {"name", "type"}, "limit": set(),
                  "frame": {"name", "attached_to"}}


def urdf_attributes(sdf_el) -> dict[str, str]:
    """The URDF attributes ``sdf_el`` (None-safe) carries, by URDF name."""
    found: dict[str, str] = {}
    if sdf_el is None:
        return found
    for name, value in sdf_el.items():
        if name.startswith(_URDF):
            local = name[len(_URDF):]
            if local not in MARKUP:
                found[local] = value
        elif name[0] == "{":
            found[name] = value
        elif ":" in name:  # a prefix the SDF never declared (read leniently)
            qualified = qualified_name(name, {})
            if qualified is not None:
                found[qualified] = value
    return found


def undefined_attributes(sdf_el, kind: str) -> list[str]:
    """The attributes of ``sdf_el`` (the SDF element of a URDF ``kind`` element) in no
    namespace that SDFormat does not define: lost in the URDF, to be named."""
    defined = SDF_ATTRIBUTES[sdf_el.tag] if sdf_el.tag in SDF_ATTRIBUTES else None
    if defined is None or kind not in ("link", "joint", "limit"):
        return []
    return [name for name in sdf_el.keys()
            if name[0] != "{" and ":" not in name and name not in defined]


def given_back(node: Node, sdf_el, warn):
    """``node`` (a URDF element) with the URDF attributes ``sdf_el`` (the SDF element it
    is made from; None-safe) carries, as written (:func:`declared`); each attribute of
    ``sdf_el`` that has no place in the URDF is named by ``warn(code, message, source)``."""
    if sdf_el is None:
        return node
    for name in undefined_attributes(sdf_el, node[0]):
        warn(Code.SDF_ATTRIBUTE_DROPPED, f"<{tag_of(sdf_el)}> has the attribute [{name}], which "
             "SDFormat does not define (libsdformat ignores it) and URDF has no place for: "
             "left out", source_of(sdf_el, None))
    attributes = urdf_attributes(sdf_el)
    if not attributes:
        return node
    return declared(with_attributes(node, attributes), sdf_el)


def limit_xml(joint_element):
    """The SDF ``axis/limit`` element of a joint (None when its XML is not kept)."""
    xml = getattr(joint_element, "xml", None)
    return xml.find("axis/limit") if xml is not None else None


def plain_attributes(sdf_el) -> dict[str, str]:
    """The carried URDF attributes of ``sdf_el`` in no namespace (the robot's: its element
    is made before its attributes are known, so it declares no prefix of theirs)."""
    return {name: value for name, value in urdf_attributes(sdf_el).items() if name[0] != "{"}


def with_attributes(node: Node, attributes: dict[str, str]) -> Node:
    """``node`` with ``attributes`` added."""
    if not attributes:
        return node
    tag, own, children = node
    return (tag, {**own, **attributes}, children)


def declared(node: Node, sdf_el):
    """``node`` as written: itself, or an lxml element declaring the prefixes (as the SDF
    element ``sdf_el`` declares them) of the namespaced attributes it or its children
    hold."""
    uris = set(namespaces_of(node))
    if not uris:
        return node
    nsmap = {prefix: uri for prefix, uri in sdf_el.nsmap.items() if uri in uris and prefix}
    nsmap.update({uri[len(UNDECLARED_URI):]: uri for uri in uris
                  if uri.startswith(UNDECLARED_URI)})
    tag, own, children = node
    el = etree.Element(tag, nsmap=nsmap)
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
