"""Serialise SDFormat: the document root, number and pose text, pretty XML bytes.

Numbers that are computed are written with ``repr`` precision (the shortest
text that reads back to the same float); numbers copied from a source file are
written as the source's text.
"""
from __future__ import annotations

import io

from lxml import etree

from urdf_sdf.core.base.custom import PREFIX, URDF_NS
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
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


def new_document(version: str, custom_namespace: bool = True):
    nsmap = {PREFIX: URDF_NS} if custom_namespace else None
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


UNDECLARED_URI = "urn:urdf-sdf:undeclared:"


def has_undeclared_prefixes(root) -> bool:
    """Whether :func:`declare_undeclared_prefixes` has anything to do in ``root``'s tree:
    an element or attribute whose name has a prefix no namespace declaration gave (read
    leniently, the parser keeps ``prefix:local`` as its local name).

    A loop over the names rather than the XPath ``//*[contains(local-name(), ':')]``:
    the XPath builds a string per node and is 2-3 times slower."""
    for el in root.iter(etree.Element):
        if has_prefixed_local_name(el.tag):
            return True
        names = el.keys()
        if names and ":" in "".join(names):  # most elements: no colon in any name
            if any(has_prefixed_local_name(name) for name in names):
                return True
    return False


def has_prefixed_local_name(name: str) -> bool:
    """``prefix:local`` or ``{uri}prefix:local`` (a ``{uri}`` holds colons of its own)."""
    return ":" in name and ":" in name.rpartition("}")[2]


def declare_undeclared_prefixes(root, file: str | None, diagnostics: Diagnostics) -> None:
    """Make the output well-formed where the input was not: a custom element or attribute
    whose prefix was never declared (``<my_ns:custom_sensor/>``, read leniently as
    libsdformat does) gets the prefix declared on ``<sdf>`` with a placeholder namespace,
    ``urn:urdf-sdf:undeclared:PREFIX``, and a warning; a name that cannot be made a
    qualified name at all (``a:b:c``) is dropped with a warning."""
    if not has_undeclared_prefixes(root):
        return
    declared: dict[str, str] = {}
    for el in list(root.iter()):
        if not isinstance(el.tag, str):
            continue
        if not el.tag.startswith("{") and ":" in el.tag:
            qualified = qualified_name(el.tag, declared)
            if qualified is None:
                diagnostics.warning_at(Code.NAMESPACE_PREFIX_INVALID,
                                       f"element <{el.tag}> has no valid "
                                       "namespace prefix: left out of the output",
                                       source_of(el, file))
                el.getparent().remove(el)
                continue
            el.tag = qualified
        for name in [n for n in el.attrib if not n.startswith("{") and ":" in n]:
            value = el.attrib.pop(name)
            qualified = qualified_name(name, declared)
            if qualified is not None:
                el.set(qualified, value)
    for prefix, uri in declared.items():
        diagnostics.warning(Code.NAMESPACE_UNDECLARED,
                            f"namespace prefix [{prefix}] is used but never "
                            f"declared; the output declares xmlns:{prefix}=\"{uri}\"", file)
    if declared:
        etree.cleanup_namespaces(root, top_nsmap=declared)


def qualified_name(name: str, declared: dict[str, str]) -> str | None:
    """``{placeholder-uri}local`` for ``prefix:local``, or None when it is not a valid
    qualified name."""
    prefix, _, local = name.partition(":")
    try:
        etree.QName(None, local)
        etree.QName(None, prefix)
    except ValueError:
        return None
    if ":" in local or prefix.lower().startswith("xml"):
        return None
    uri = declared.setdefault(prefix, UNDECLARED_URI + prefix)
    return f"{{{uri}}}{local}"
