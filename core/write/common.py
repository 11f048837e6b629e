"""Serialise SDFormat: element helpers, number and pose text, pretty XML bytes.

Numbers that are computed are written with ``repr`` precision (the shortest
text that reads back to the same float); numbers copied from a source file are
written as the source's text.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.custom import PREFIX, URDF_NS
from urdf_sdf.core.pose import Pose


def number_text(value: float) -> str:
    """Shortest round-trip text of a float; integers without '.0'; no negative zero."""
    if value == 0:
        return "0"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def numbers_text(values) -> str:
    return " ".join(number_text(v) for v in values)


def pose_text(pose: Pose) -> str:
    """``x y z roll pitch yaw`` of a computed pose."""
    return numbers_text((*pose.position, *pose.rpy()))


def new_document(version: str, custom_namespace: bool = True):
    nsmap = {PREFIX: URDF_NS} if custom_namespace else None
    root = etree.Element("sdf", nsmap=nsmap)
    root.set("version", version)
    return root


_SubElement = etree.SubElement


def sub(parent, tag: str, text: str | None = None, **attributes):
    """Append ``<tag attributes>text</tag>`` to ``parent``; None-valued attributes are skipped."""
    if attributes:
        el = _SubElement(parent, tag, {k: v for k, v in attributes.items() if v is not None})
    else:
        el = _SubElement(parent, tag)
    if text is not None:
        el.text = text
    return el


def leaf(parent, tag: str, text: str):
    """``<tag>text</tag>`` appended to ``parent``: the common case, kept cheap."""
    el = _SubElement(parent, tag)
    el.text = text
    return el


def to_bytes(root) -> bytes:
    etree.indent(root, space="  ")
    return etree.tostring(root, xml_declaration=True, encoding="utf-8") + b"\n"
