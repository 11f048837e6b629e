"""Serialise SDFormat: the document root, number and pose text, pretty XML bytes.

Numbers that are computed are written with ``repr`` precision (the shortest
text that reads back to the same float); numbers copied from a source file are
written as the source's text.
"""
from __future__ import annotations

import io

from lxml import etree

from urdf_sdf.core.base.custom import PREFIX, URDF_NS
from urdf_sdf.core.base.pose import Pose


def number_text(value: float) -> str:
    """Shortest round-trip text of a float; integers without '.0'; no negative zero."""
    if value == 0:
        return "0"
    if value.__class__ is float:  # the common case: float() of it is itself
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


class NumberTexts(dict):
    """``texts[value]``: :func:`number_text` of ``value``, worked out once per distinct value
    (a robot's inertias repeat a few values); at most ``limit`` values, then it starts
    again."""
    __slots__ = ("limit",)

    def __init__(self, limit: int = 4096):
        super().__init__()
        self.limit = limit

    def __missing__(self, value: float) -> str:
        text = number_text(value)
        if len(self) >= self.limit:
            self.clear()
        self[value] = text
        return text


def numbers_text(values) -> str:
    return " ".join(map(number_text, values))


def pose_text(pose: Pose) -> str:
    """``x y z roll pitch yaw`` of a computed pose."""
    return numbers_text((*pose.position, *pose.rpy()))


def new_document(version: str, custom_namespace: bool = True,
                 namespaces: dict[str, str] | None = None):
    """``<sdf version=...>``, declaring the ``urdf`` prefix (``custom_namespace``) and
    ``namespaces`` (prefix -> URI)."""
    nsmap = {PREFIX: URDF_NS} if custom_namespace else None
    if namespaces:
        nsmap = {**(nsmap or {}), **namespaces}
    root = etree.Element("sdf", nsmap=nsmap)
    root.set("version", version)
    return root


def to_bytes(root) -> bytes:
    """The SDF document's bytes: UTF-8 declaration, two-space indentation, a final
    line break."""
    etree.indent(root, space="  ")
    return document_bytes(root, end=b"\n")


def document_bytes(root, pretty_print: bool = False, end: bytes = b"") -> bytes:
    """What ``etree.tostring(root, xml_declaration=True, encoding="utf-8",
    pretty_print=...) + end`` gives, written in pieces into one buffer: libxml2's
    whole-document buffer, its copy and the copy with ``end`` are never held together
    (three times the output's size for a large model)."""
    out = io.BytesIO()
    with etree.xmlfile(out, encoding="utf-8") as document:
        document.write_declaration()
        document.write(root, pretty_print=pretty_print)
    out.write(end)
    return out.getvalue()
