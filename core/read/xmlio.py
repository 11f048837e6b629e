"""Hardened XML parsing shared by the SDFormat and URDF readers.

The parser never expands entities, never loads a DTD and never touches the
network. A document that declares entities is refused outright with a
diagnostic: robot descriptions have no use for them, and refusing is the only
way to be sure that neither a billion-laughs bomb nor an external entity (XXE)
is ever evaluated by any later consumer of the tree.
"""
from __future__ import annotations

import re
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
        repaired, repairs = repair_tolerated_slips(data, parser.error_log)
        if repairs:
            for repair_line, what in repairs:
                diagnostics.warning(Code.XML_REPAIRED, what, file, repair_line)
            return parse_xml(repaired, file, diagnostics)
        if not _lenient(parser, exc):
            diagnostics.error(Code.FILE_READ, f"malformed XML: {exc.msg}", file, line, column)
            return None
        diagnostics.warning(Code.WARNING, f"XML: {exc.msg}", file, line, column)
        tree = etree.fromstring(data, _parser(recover=True)).getroottree()
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        diagnostics.error(Code.FILE_READ, f"malformed XML: {exc}", file)
        return None
    return tree.getroot()


# Slips urdfdom, libsdformat and Drake (all on TinyXML2) read without a word, and that
# real robot files have: repaired on the bytes, keeping every line where it was.
_DECLARATION = re.compile(rb"^(\s+)(<\?xml[^>]*\?>)")
_DECLARED_VERSION = re.compile(rb"""^(<\?xml\s+version\s*=\s*)(["'])([^"']*)\2""")
_COMMENT = re.compile(rb"<!--(.*?)-->", re.S)


def repair_tolerated_slips(data: bytes, error_log) -> tuple[bytes, list[tuple[int, str]]]:
    """``data`` with the slips the parser reported repaired, and ``(line, what)`` for each
    repair; no repairs when the errors are anything else (then the document is
    malformed as it stands)."""
    messages = " ".join(entry.message for entry in error_log)
    repairs: list[tuple[int, str]] = []
    if "XML declaration allowed only at the start" in messages:
        match = _DECLARATION.match(data)
        if match:  # the declaration moves to the start; the blank lines follow it
            data = match.group(2) + match.group(1) + data[match.end():]
            repairs.append((match.group(1).count(b"\n") + 1, "blank space before the XML "
                            "declaration, which XML does not allow; read as if it were not "
                            "there"))
    if "Unsupported version" in messages:
        match = _DECLARED_VERSION.match(data)
        if match and match.group(3) != b"1.0":
            version = match.group(3).decode("ascii", "replace")
            data = data[:match.start(3)] + b"1.0" + data[match.end(3):]
            repairs.append((1, f"XML declaration version '{version}' read as '1.0'"))
    if "Double hyphen within comment" in messages or "Comment not terminated" in messages:
        fixed = _COMMENT.sub(_comment_without_double_hyphens, data)
        if fixed != data:
            line = data.count(b"\n", 0, data.find(b"--", data.find(b"<!--") + 4)) + 1
            data = fixed
            repairs.append((line, "'--' inside an XML comment, which XML does not allow; "
                            "read as '- '"))
    return data, repairs


def _comment_without_double_hyphens(match: re.Match) -> bytes:
    body = match.group(1).replace(b"--", b"- ")
    if body.endswith(b"-"):  # a comment may not end in '--->' either
        body = body[:-1] + b" "
    return b"<!--" + body + b"-->"


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
