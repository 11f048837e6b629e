"""Hardened XML parsing shared by the SDFormat and URDF readers.

The parser never expands entities, never loads a DTD, never opens a file or the
network on the document's behalf (its resolver answers every request with nothing).
A ``<!DOCTYPE>`` with an external id (``SYSTEM``/``PUBLIC``) or an internal subset
(``[...]``) is refused outright with XML_UNSAFE at its line: robot descriptions have
no use for DTDs, and refusing is the only way to be sure that neither a
billion-laughs bomb, an external entity (XXE), nor a DTD naming a FIFO or
``/dev/stdin`` is ever evaluated by us or by any later consumer of the tree. The
check runs on the *decoded* prolog (:func:`decoded_head`: BOM, UTF-16/32 without a
BOM, the declared encoding), so no encoding hides a DTD. A bare ``<!DOCTYPE robot>``
declares nothing and is accepted.

Files are read by :func:`read_bytes`, through :mod:`urdf_sdf.core.read.files`: opened
non-blocking and without becoming a controlling terminal, examined with ``fstat``
after opening, and read only when they are regular files (a pipe only when the caller
says the user named it), never more than :data:`MAX_BYTES`. A FIFO, socket, device or
directory is FILE_READ "not a regular file (a FIFO): not read", never a read that blocks
or never ends; a file that cannot be opened is FILE_READ with the system's reason.
"""
from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.path_components import is_within
from urdf_sdf.core.read.files import NotRegular, os_reason, read_regular

# Files larger than this are refused: no robot description comes close, and it
# keeps a hostile input from exhausting memory before any check runs.
MAX_BYTES = 512 * 1024 * 1024


class _NothingResolver(etree.Resolver):
    """Answers every request for an external resource (DTD, entity, XInclude) with an
    empty document, so libxml2 never opens a file, a device or a FIFO for us. The
    DOCTYPE check refuses such documents before parsing; this is the second line."""

    def resolve(self, url, pubid, context):
        return self.resolve_string("", context)


def _parser(recover: bool = False, keep_blank_text: bool = False,
            huge: bool = False) -> etree.XMLParser:
    """The hardened parser. Blank text between elements is dropped unless
    ``keep_blank_text`` (see :func:`keeps_blank_text`); ``huge`` lifts libxml2's limits on
    the length of one text node and on nesting (a mesh's float array), never the
    refusal of entities."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             dtd_validation=False, attribute_defaults=False,
                             huge_tree=huge, remove_pis=True, collect_ids=False,
                             remove_blank_text=not keep_blank_text, recover=recover)
    parser.resolvers.add(_NothingResolver())
    return parser


# Errors that libsdformat's XML parser does not treat as fatal: an undeclared
# namespace prefix on a custom element, and stray content after the root element.
# The document is re-read leniently and the finding kept as a warning.
LENIENT_MESSAGES = ("Namespace prefix", "Extra content at the end of the document")


def _lenient(parser: etree.XMLParser, exc: etree.XMLSyntaxError) -> bool:
    """Whether every error of this parse (the parser's own log) is a lenient one."""
    messages = [entry.message for entry in parser.error_log] or [exc.msg]
    return all(any(m in message for m in LENIENT_MESSAGES) for message in messages)


@dataclass(frozen=True)
class Within:
    """Where a file must lie to be read: the real paths of the folders it may resolve
    inside, and how a message names them ("the input directory /src")."""
    roots: tuple[str, ...]
    named: str


def read_bytes(path: str | Path, diagnostics: Diagnostics, pipes: bool = False,
               within: str | Within | None = None, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of the file at ``path``, or None with a FILE_READ diagnostic.

    Only a regular file is read (:func:`~urdf_sdf.core.read.files.read_regular`), unless
    ``pipes``: then a pipe (``<(cat robot.urdf)``, a FIFO) is read too, as ``cat`` would, for a
    FILE argument the
    user named. Never more than ``limit`` (:data:`MAX_BYTES`). ``within`` (:class:`Within`, or the
    real path of a batch's input directory): the file must resolve inside it when it is
    opened, and its real path is opened with no link followed after that check
    (``resolved``), so that a folder swapped for a link out of the tree after the caller
    checked it (a batch's listing, an include's confinement) is refused."""
    try:
        if within is not None:
            real = _resolved_within(path, within, diagnostics)
            if real is None:
                return None
            data = read_regular(real, limit, resolved=True)
        else:
            data = read_regular(path, limit, pipes)
    except NotRegular as exc:
        diagnostics.error(Code.FILE_READ, f"{exc}: not read", str(path))
        return None
    except OSError as exc:
        diagnostics.error(Code.FILE_READ, f"cannot read file: {os_reason(exc)}", str(path))
        return None
    if data is None:
        diagnostics.error(Code.FILE_READ, f"file is larger than {limit} bytes", str(path))
    return data


def _resolved_within(path: str | Path, within: str | Within,
                     diagnostics: Diagnostics) -> str | None:
    """The real path of ``path`` when it lies inside ``within``, else None with FILE_READ."""
    if isinstance(within, str):
        within = Within((within,), f"the input directory {within}")
    real = os.path.realpath(path)
    if any(is_within(real, root) for root in within.roots):
        return real
    diagnostics.error(Code.FILE_READ, f"resolves to {real}, outside {within.named}: not read",
                      str(path))
    return None


_CDATA = "<![CDATA["


def keeps_blank_text(data: bytes) -> bool:
    """Whether ``data`` is parsed with the blank text between its elements.

    Dropping it saves a third of a large SDFormat tree's memory (a text node for every
    line break) and changes no output: every writer indents its output afresh
    (``etree.indent`` replaces blank text anyway) and the readers strip what they read.
    Except next to a CDATA section, whose text the parser merges with the blank text
    before it: such a document, or one whose encoding could hide the section from this
    byte search, keeps its blank text."""
    encoding = detect_encoding(data).replace("utf-8-sig", "utf-8")
    marker = _CDATA.encode(encoding, "replace")
    return marker != _CDATA.encode("ascii") or marker in data


def parse_xml(data: bytes | str, file: str | None, diagnostics: Diagnostics,
              huge: bool = False):
    """Parse ``data`` into an lxml root element, or return None with a diagnostic
    (``huge``: see :func:`_parser`; for a mesh file, whose size the caller has capped)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if refuse_unsafe_doctype(data, file, diagnostics):
        return None
    keep_blank_text = keeps_blank_text(data)
    parser = _parser(keep_blank_text=keep_blank_text, huge=huge)
    try:
        tree = etree.fromstring(data, parser).getroottree()
    except etree.XMLSyntaxError as exc:
        line = exc.lineno if exc.lineno else None
        column = _column(exc) if line is not None else None
        repaired, repairs = repair_tolerated_slips(data, parser.error_log)
        if repairs:
            for repair_line, what in repairs:
                diagnostics.warning(Code.XML_REPAIRED, what, file, repair_line)
            return parse_xml(repaired, file, diagnostics, huge)
        if not _lenient(parser, exc):
            diagnostics.error(Code.FILE_READ, f"malformed XML: {' '.join(exc.msg.split())}",
                              file, line, column)  # libxml2's message on one line
            return None
        message, column = _at_the_prefix(exc.msg, data, line, column)
        diagnostics.warning(Code.XML_RECOVERED, f"XML: {' '.join(message.split())}", file,
                            line, column)
        tree = etree.fromstring(data, _parser(True, keep_blank_text, huge)).getroottree()
    except ValueError as exc:  # e.g. unicode strings with an encoding declaration
        diagnostics.error(Code.FILE_READ, f"malformed XML: {exc}", file)
        return None
    if _declares_a_dtd(tree):  # a DOCTYPE the prolog check could not decode
        diagnostics.error(Code.XML_UNSAFE, UNSAFE_MESSAGE, file, 1)
        return None
    return tree.getroot()


UNSAFE_MESSAGE = ("the document has a DTD (<!DOCTYPE> with an external id or an internal "
                  "subset); DTDs and entities are disabled for safety: remove the DTD")


def refuse_unsafe_doctype(data: bytes, file: str | None, diagnostics: Diagnostics) -> bool:
    """Whether ``data`` has a DTD we refuse (then with XML_UNSAFE at its line)."""
    unsafe = unsafe_doctype(data)
    if unsafe is None:
        return False
    line, entity = unsafe
    message = ("the document declares XML entities (<!DOCTYPE> with <!ENTITY>); entity "
               "expansion is disabled for safety: remove the DTD") if entity else UNSAFE_MESSAGE
    diagnostics.error(Code.XML_UNSAFE, message, file, line)
    return True


def _declares_a_dtd(tree) -> bool:
    """Whether a parsed tree has an external id or a non-empty internal subset (read from
    the tree: ``docinfo.externalDTD`` would load the DTD, so it is never touched)."""
    info = tree.docinfo
    if info.system_url or info.public_id:
        return True
    internal = info.internalDTD
    return internal is not None and (any(True for _ in internal.iterelements())
                                     or any(True for _ in internal.iterentities()))


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


# libxml2's undeclared prefix: "Namespace prefix drake on foo is not defined, line 4,
# column 25" (an element), "Namespace prefix drake for acceleration on joint ..." (an
# attribute); the column is the end of the start tag.
_UNDECLARED_PREFIX = re.compile(r"Namespace prefix (\S+) (?:on|for) (\S+)")
_POSITION = re.compile(r", line \d+, column \d+$")


def _at_the_prefix(message: str, data: bytes, line: int | None,
                   column: int | None) -> tuple[str, int | None]:
    """An undeclared prefix's message and column, the column moved from the end of the
    start tag to the prefix itself (``<drake:foo``: under ``drake``), libxml2's own
    ``line, column`` taken off the message. Any other message is returned as it is."""
    found = _UNDECLARED_PREFIX.match(message)
    if found is None or line is None or column is None:
        return message, column
    lines = data.split(b"\n")
    if line > len(lines):
        return message, column
    text = lines[line - 1].decode("utf-8", "replace")
    name = f"{found.group(1)}:{found.group(2)}"
    start = text.rfind(name, 0, column)
    if start < 0:
        return message, column
    return _POSITION.sub("", message.strip()), start + 1


def _column(exc: etree.XMLSyntaxError) -> int | None:
    """libxml2's 1-based column of a syntax error, or None when it does not know it."""
    position = getattr(exc, "position", None)
    column = position[1] if position and len(position) > 1 else None
    return column if isinstance(column, int) and column > 0 else None


# ---- the prolog, decoded -------------------------------------------------------------

_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32-le"),
         (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
         (b"\xfe\xff", "utf-16-be"))
_ENCODING = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
HEAD_BYTES = 64 * 1024


def first_children(el, tags: tuple[str, ...]) -> dict:
    """The first child of ``el`` of each tag in ``tags`` (one pass over the children)."""
    found: dict = {}
    for c in el:
        tag = c.tag
        if tag in tags and tag not in found:
            found[tag] = c
    return found


def detect_encoding(data: bytes) -> str:
    """The encoding of an XML document the way XML's appendix F finds it: a BOM, the
    byte pattern of ``<`` or ``<?`` in UTF-16/32 without one, else the declaration's
    ``encoding`` (when Python knows it), else UTF-8."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4]
    if len(head) == 4 and head[1:] == b"\x00\x00\x00" and head[0]:
        return "utf-32-le"
    if len(head) == 4 and head[:3] == b"\x00\x00\x00" and head[3]:
        return "utf-32-be"
    if len(head) >= 2 and head[0] and not head[1]:
        return "utf-16-le"
    if len(head) >= 2 and not head[0] and head[1]:
        return "utf-16-be"
    if head == b"\x4c\x6f\xa7\x94":
        return "cp037"
    match = _ENCODING.match(data[:1024])
    if match:
        name = match.group(1).decode("ascii")
        try:
            codecs.lookup(name)
            return name
        except LookupError:
            pass
    return "utf-8"


def decoded_head(data: bytes, limit: int | None = HEAD_BYTES) -> str:
    """The first ``limit`` bytes of ``data`` (all of it for None) as text, decoded per
    :func:`detect_encoding`; undecodable bytes become U+FFFD."""
    decoder = codecs.getincrementaldecoder(detect_encoding(data))("replace")
    chunk = data if limit is None else data[:limit]
    return decoder.decode(chunk, final=limit is None or len(data) <= limit)


_MISC = re.compile(r"\s+|<\?.*?\?>|<!--.*?-->", re.S)
_DOCTYPE = re.compile(r"<!DOCTYPE\s+[^\s>\[]+\s*(.?)", re.S)


def unsafe_doctype(data: bytes) -> tuple[int, bool] | None:
    """``(line, declares entities)`` of a ``<!DOCTYPE`` with an external id or an internal
    subset, or None when the document has no DOCTYPE or a bare ``<!DOCTYPE name>``.

    Decided on the decoded prolog (what precedes the root element), so a UTF-16 or
    EBCDIC document is checked like a UTF-8 one; a prolog longer than the head read
    first is decoded whole."""
    found = _scan_prolog(decoded_head(data), complete=len(data) <= HEAD_BYTES)
    if found is ...:
        found = _scan_prolog(decoded_head(data, None), complete=True)
    return found


def _scan_prolog(text: str, complete: bool):
    """The :func:`unsafe_doctype` answer for ``text``, or ``...`` when ``text`` is not
    ``complete`` and the prolog runs off its end (the caller then decodes it all)."""
    position = 1 if text.startswith("\ufeff") else 0
    match = _MISC.match(text, position)
    while match is not None:
        position = match.end()
        match = _MISC.match(text, position)
    if not text.startswith("<!DOCTYPE", position):
        runs_on = position >= len(text) or text.startswith(("<!--", "<?"), position)
        return ... if runs_on and not complete else None
    line = text.count("\n", 0, position) + 1
    doctype = _DOCTYPE.match(text, position)
    if doctype is None or doctype.group(1) == "":
        return ... if not complete else (line, False)  # cut short: refuse when complete
    if doctype.group(1) == ">":
        return None  # <!DOCTYPE robot>: declares nothing
    end = text.find("]>", doctype.end(1))
    entity = text.find("<!ENTITY", doctype.end(1), end if end >= 0 else len(text))
    if entity >= 0:
        return text.count("\n", 0, entity) + 1, True
    return line, False
