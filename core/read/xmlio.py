"""Hardened XML parsing shared by the SDFormat and URDF readers.

The parser never expands entities, never loads a DTD and never touches the
network. A document that declares entities is refused outright with a
diagnostic: robot descriptions have no use for them, and refusing is the only
way to be sure that neither a billion-laughs bomb nor an external entity (XXE)
is ever evaluated by any later consumer of the tree.
"""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from urdf_sdf.core.diagnostics import Code, Diagnostics

# Files larger than this are refused: no robot description comes close, and it
# keeps a hostile input from exhausting memory before any check runs.
MAX_BYTES = 512 * 1024 * 1024


def _parser(recover: bool = False) -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_pis=True,
                           collect_ids=False, recover=recover)


# Errors that libsdformat's XML parser does not treat as fatal: an undeclared
# namespace prefix on a custom element, and stray content after the root element.
# The document is re-read leniently and the finding kept as a warning.
LENIENT_MESSAGES = ("Namespace prefix", "Extra content at the end of the document")


def _lenient(parser: etree.XMLParser, exc: etree.XMLSyntaxError) -> bool:
    """Whether every error of this parse (the parser's own log) is a lenient one."""
    messages = [entry.message for entry in parser.error_log] or [exc.msg]
    return all(any(m in message for m in LENIENT_MESSAGES) for message in messages)


def read_bytes(path: str | Path, diagnostics: Diagnostics) -> bytes | None:
    try:
        path = Path(path)
        if path.stat().st_size > MAX_BYTES:
            diagnostics.error(Code.FILE_READ, f"file is larger than {MAX_BYTES} bytes", str(path))
            return None
        return path.read_bytes()
    except OSError as exc:
        diagnostics.error(Code.FILE_READ, f"cannot read file: {exc.strerror or exc}", str(path))
        return None


def parse_xml(data: bytes | str, file: str | None, diagnostics: Diagnostics):
    """Parse ``data`` into an lxml root element, or return None with a diagnostic."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    entity = entity_declaration_line(data)
    if entity is not None:
        diagnostics.error(Code.XML_UNSAFE,
                          "the document declares XML entities (<!DOCTYPE> with <!ENTITY>); "
                          "entity expansion is disabled for safety: remove the DTD",
                          file, entity)
        return None
    parser = _parser()
    try:
        tree = etree.fromstring(data, parser).getroottree()
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        column = _column(exc) if line is not None else None
        if not _lenient(parser, exc):
            diagnostics.error(Code.FILE_READ, f"malformed XML: {exc.msg}", file, line, column)
            return None
        diagnostics.warning(Code.WARNING, f"XML: {exc.msg}", file, line, column)
        tree = etree.fromstring(data, _parser(recover=True)).getroottree()
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        diagnostics.error(Code.FILE_READ, f"malformed XML: {exc}", file)
        return None
    return tree.getroot()


def _column(exc: etree.XMLSyntaxError) -> int | None:
    """libxml2's 1-based column of a syntax error, or None when it does not know it."""
    position = getattr(exc, "position", None)
    column = position[1] if position and len(position) > 1 else None
    return column if isinstance(column, int) and column > 0 else None


def entity_declaration_line(data: bytes) -> int | None:
    """Line of the first ``<!ENTITY`` inside a ``<!DOCTYPE``, or None.

    Checked on the raw bytes before parsing, because libxml2 evaluates some
    entity references while parsing even with substitution turned off.
    """
    doctype = data.find(b"<!DOCTYPE")
    if doctype < 0:
        return None
    entity = data.find(b"<!ENTITY", doctype)
    if entity < 0:
        return None
    return data.count(b"\n", 0, entity) + 1
