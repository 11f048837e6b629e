"""COLLADA files through our hardened XML parser before pycollada sees them.

pycollada parses with lxml's defaults (and ``huge_tree``): with lxml older than 5.0 an
external entity of a ``.dae`` is read from disk, and libxml2's older releases expand a
billion-laughs document to gigabytes. So a ``.dae`` is first parsed by
:func:`urdf_sdf.core.read.xmlio.parse_xml`, the parser every description goes through
(no DTD, no entity expansion, no network, no file opened on the document's behalf): a
document with a DTD that declares anything is refused with ``XML_UNSAFE`` before any
expansion, one that is not well-formed with ``MESH_UNREADABLE``. libxml2's limits on a
text node's length are lifted (``huge``), as pycollada lifts them: a mesh's float array
runs to tens of megabytes, and the file's size is capped before it is read. pycollada is then
handed the tree serialised again: bytes without a DOCTYPE, entity or processing
instruction, which cannot be read as a zip archive either (pycollada tries that first),
since XML text never holds the control bytes of a zip's directory record.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.read.xmlio import parse_xml


class ColladaRefused(Exception):
    """A COLLADA document that is not handed on: ``code`` and the message say why."""

    def __init__(self, code: Code, message: str):
        super().__init__(message)
        self.code = code


def safe_collada(data: bytes, file: str) -> bytes:
    """The COLLADA document ``data`` (read from ``file``) parsed by the hardened parser
    and serialised again. Raises :class:`ColladaRefused`."""
    diagnostics = Diagnostics()
    root = parse_xml(data, file, diagnostics, huge=True)  # data is capped by the caller
    if root is None:
        problem = next((d for d in diagnostics if d.is_error), None)
        code = Code.XML_UNSAFE if problem is not None and problem.code is Code.XML_UNSAFE \
            else Code.MESH_UNREADABLE
        message = problem.message if problem is not None else "not well-formed XML"
        raise ColladaRefused(code, message)
    if etree.QName(root).localname != "COLLADA":
        raise ColladaRefused(Code.MESH_UNREADABLE, "its root element is not <COLLADA>")
    return etree.tostring(root, encoding="utf-8", xml_declaration=True)
