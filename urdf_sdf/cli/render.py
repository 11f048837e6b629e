"""Diagnostics rendered like a compiler's, on the command lines::

    robot.urdf:12:5: error[URDF_KINEMATIC_LOOP]: joint [closing] closes a loop
       12 |     <joint name="closing" type="fixed">
          |     ^

``file:line:col:`` when the column is known, ``file:line:`` otherwise; the caret sits at
the column, else under the line's first non-blank character. File names, messages and
source lines are shown with their control characters escaped (``\\x1b``:
:mod:`urdf_sdf.core.base.safe_text`), so nothing a file holds or is named can drive the
terminal or forge a line. Colour only when the stream is a terminal and ``NO_COLOR`` is
unset or empty. For a xacro file the diagnostic names
the ``.xacro`` file without a line (its lines would mislead an editor): the message says
which line of the *expanded* document it is, and the snippet shows that expanded line.
A conversion report (``--report``) is shown escaped the same way (:func:`report_text`).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

from urdf_sdf.core.base.diagnostics import Diagnostic, Diagnostics
from urdf_sdf.core.base.safe_text import escape, escape_json, json_strings
from urdf_sdf.core.compose.uri import roots_for
from urdf_sdf.core.inspect.resources import Referenced, referenced_files
from urdf_sdf.core.read.xmlio import Within, decoded_head, detect_encoding, parse_xml, read_bytes

if TYPE_CHECKING:
    from urdf_sdf.core.inspect.conversion_report import ConversionReport

# Source files larger than this are not read again just to show a line.
MAX_SNIPPET_FILE = 64 * 1024 * 1024
# A shown source line is cut after this many characters.
MAX_LINE = 200


# ---- colour ------------------------------------------------------------------------------

def use_color(stream) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR", ""):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


_STYLES = {"bold": "1", "error": "1;31", "warning": "1;35", "caret": "1;32", "gutter": "34"}


def _paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if color and text else text


# ---- source lines ------------------------------------------------------------------------

class SourceLines:
    """The text of the files diagnostics point into, shown under a diagnostic.

    Only text a user may see is ever shown: standard input, a named pipe and xacro
    expansions (registered with :meth:`add`), the files the user named and a batch's files
    (:meth:`trust`), and files that parse as XML (an included file is read and parsed on
    demand, so an ``<include>`` of ``/etc/shadow`` or ``/proc/self/environ`` shows nothing
    of it) and lie where the inputs may read (:meth:`confine`): such a file is read again
    only through the confined reader (its real path inside those roots, opened with no
    link followed), so one swapped for a link out of them since it was loaded shows
    nothing. Whatever its origin, text that does not look like XML (:func:`looks_like_xml`:
    its first character, after a BOM and blank space, is not ``<``) is never shown: a
    malformed-XML error in ``/etc/shadow`` shows no line of it. Only regular files are
    read (:func:`~urdf_sdf.core.read.xmlio.read_bytes`). Binary text (NUL bytes,
    undecodable bytes) is never shown, and a shown line is cut at :data:`MAX_LINE`
    characters; control characters are escaped when the line is rendered. Each command
    has its own instance: nothing is global.
    """

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}
        self._expanded: set[str] = set()
        self._trusted: set[str] = set()
        # Every file the command read a model from (its includes too), and every file
        # those models reference (meshes, textures): never an output (:meth:`remember`).
        self.read: set[str] = set()
        self.referenced: list[Referenced] = []
        # Where the files the inputs included may lie, and a batch's input tree
        # (:meth:`confine`).
        self._roots: dict[str, None] = {}
        self._tree: str | None = None

    def add(self, label: str, data: bytes, expanded: bool = False) -> None:
        self._lines[label] = _split(data) if looks_like_xml(data) else None
        if expanded:
            self._expanded.add(label)

    def remember(self, result) -> None:
        """The files the loaded ``result`` was read from and those it references are
        never an output (:meth:`protected`)."""
        self.read.update(result.source_files)
        self.referenced.extend(referenced_files(result))

    def confine(self, top: str | None, context) -> None:
        """An input ``top`` (None: standard input) is read with ``context``: the files it
        includes are shown only from where it may read them
        (:func:`~urdf_sdf.core.compose.uri.roots_for`)."""
        self._roots.update(dict.fromkeys(roots_for(top, context, "").roots))
        self._tree = context.inputs_within

    def protected(self) -> list[str | Referenced]:
        """What an output of the command never replaces, besides its input files."""
        return [*sorted(self.read), *self.referenced]

    def __getstate__(self) -> dict:
        """Sent to another process (a batch worker's outcome): the lines, not the files
        its output was checked against (written already)."""
        return {**self.__dict__, "referenced": []}

    def trust(self, file: str) -> None:
        """``file`` is the user's own input: its lines are shown even when it is not
        well-formed XML (the diagnostic may be about exactly that)."""
        self._trusted.add(file)

    def is_expanded(self, file: str | None) -> bool:
        return file in self._expanded

    def line(self, file: str | None, number: int | None) -> str | None:
        if file is None or number is None or number < 1:
            return None
        if file not in self._lines:
            self._lines[file] = self._read(file, file in self._trusted, tuple(self._roots),
                                           self._tree)
        lines = self._lines[file]
        if lines is None or number > len(lines):
            return None
        return _capped(lines[number - 1])

    @staticmethod
    def _read(file: str, trusted: bool, roots: tuple[str, ...],
              tree: str | None) -> list[str] | None:
        """The lines of ``file``: the user's own file as named (a batch's only inside its
        input ``tree``), any other only inside ``roots`` (none: not read)."""
        within: str | Within | None = tree if trusted else \
            Within(roots, "the inputs' packages and search paths")
        if not trusted and not roots:
            return None
        try:
            data = read_bytes(file, Diagnostics(), within=within, limit=MAX_SNIPPET_FILE)
        except ValueError:  # a name the system refuses (a NUL byte)
            return None
        if data is None or not looks_like_xml(data):
            return None  # not XML: not a robot description, and maybe a secret
        if not trusted and parse_xml(data, file, Diagnostics()) is None:
            return None
        return _split(data)


def looks_like_xml(data: bytes) -> bool:
    """Whether ``data`` starts (after a BOM and blank space) with ``<``, as XML does."""
    return decoded_head(data).lstrip("\ufeff \t\r\n").startswith("<")


def _split(data: bytes) -> list[str] | None:
    """The lines of ``data`` decoded as its XML encoding says, or None for binary data."""
    try:
        text = data.decode(detect_encoding(data))
    except (UnicodeDecodeError, LookupError):
        return None
    if "\x00" in text:
        return None
    # Lines as XML counts them (lxml's sourceline): only \n, \r\n and \r end a line.
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def _capped(text: str) -> str:
    return text if len(text) <= MAX_LINE else text[:MAX_LINE] + " [...]"


# ---- rendering diagnostics ---------------------------------------------------------------

def presented(diagnostic: Diagnostic, sources: SourceLines | None) -> Diagnostic:
    """The diagnostic as shown: for an expanded (xacro) document, the line moves from the
    location into the message, which says it counts lines of the expanded document."""
    if sources is None or not sources.is_expanded(diagnostic.file) or diagnostic.line is None:
        return diagnostic
    return Diagnostic(diagnostic.code, diagnostic.severity,
                      f"{diagnostic.message} (at line {diagnostic.line} of the xacro-expanded "
                      "document)", diagnostic.file, None, None)


def render(diagnostic: Diagnostic, sources: SourceLines | None = None,
           color: bool = False) -> str:
    """``file:line:col: severity[CODE]: message`` and, when the source line is known, the
    line under it with a caret."""
    shown = presented(diagnostic, sources)
    head = shown.format()
    if color:
        kind = f"{shown.severity.value}[{shown.code.value}]:"
        where, _, message = head.partition(f" {kind} ")
        head = " ".join([_paint(where, "bold", color),
                         _paint(kind, "error" if shown.is_error else "warning", color),
                         _paint(message, "bold", color)])
    text = sources.line(diagnostic.file, diagnostic.line) if sources is not None else None
    if text is None:
        return head
    text = text.expandtabs(4).rstrip()
    if diagnostic.column is not None:
        # libxml2 may point just past the end of the line (an error at a closing '>').
        column = min(max(diagnostic.column, 1), len(text) + 1)
    else:
        column = len(text) - len(text.lstrip()) + 1
    # control characters shown escaped; the caret moves with the text before it
    column, text = len(escape(text[:column - 1])) + 1, escape(text)
    number = str(diagnostic.line)
    gutter = " " * len(number)
    return "\n".join([
        head,
        " " + _paint(f"{number} |", "gutter", color) + f" {text}",
        " " + _paint(f"{gutter} |", "gutter", color) + " " + " " * (column - 1)
        + _paint("^", "caret", color),
    ])


def diagnostic_json(diagnostic: Diagnostic, sources: SourceLines | None = None) -> dict:
    """``Diagnostic.to_json`` (code, severity, message, file, line, and column when known);
    for a xacro-expanded document ``line`` is null and ``expanded_line`` holds the line of
    the expanded document."""
    shown = presented(diagnostic, sources)
    data = shown.to_json()
    if shown is not diagnostic:
        data["expanded_line"] = diagnostic.line
    return data


def visible(diagnostics: Iterable[Diagnostic], quiet: bool) -> list[Diagnostic]:
    """``--quiet`` drops warnings and keeps errors."""
    return [d for d in diagnostics if d.is_error or not quiet]


def emit(diagnostics: Iterable[Diagnostic], stream=None, sources: SourceLines | None = None,
         quiet: bool = False) -> None:
    """Print diagnostics, rendered, to ``stream`` (default: the current stderr)."""
    stream = stream if stream is not None else sys.stderr
    color = use_color(stream)
    for diagnostic in visible(diagnostics, quiet):
        print(render(diagnostic, sources, color), file=stream)


def report_text(report: ConversionReport) -> str:
    """A conversion report (``--report``) as text, its lines escaped like a diagnostic's (a
    file name may hold control characters)."""
    return "\n".join(escape(line) for line in report.lines())


def print_json(data) -> None:
    """``data`` as one line of JSON (ASCII, with DEL and the C1 and bidi controls as
    ``\\u`` escapes: :func:`~urdf_sdf.core.base.safe_text.escape_json`; a byte of a name
    that was not UTF-8 as ``\\xff`` text, as the terminal shows it, never a lone
    surrogate: :func:`~urdf_sdf.core.base.safe_text.json_strings`; never NaN or Infinity,
    which JSON does not have: a computed number that is not finite is NUMBER_NOT_FINITE
    before it gets here)."""
    import json  # here: a run printing no JSON does not import it
    text = json.dumps(data, indent=None, allow_nan=False)
    if "\\ud" in text:  # a lone surrogate, or a character beyond U+FFFF: look closer
        text = json.dumps(json_strings(data), indent=None, allow_nan=False)
    print(escape_json(text))
