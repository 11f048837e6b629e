"""Helpers shared by the three command lines (``urdf2sdf``, ``sdf2urdf``, ``urdf-sdf``).

* **Inputs**: a FILE argument may be ``-`` (standard input, read as bytes and loaded
  as ``<stdin>``) or a ``*.xacro`` file, expanded with the optional ``xacro`` package
  (``pip install 'urdf-sdf[xacro]'``). See :func:`load_input`. xacro evaluates the
  file's expressions and reads the files it includes, like the ``xacro`` command: expand
  only files you would run ``xacro`` on. A top-level file declaring XML entities is
  refused (XML_UNSAFE) before xacro sees it, as the core refuses any such file.
* **Diagnostics**, rendered like a compiler's::

      robot.urdf:12:5: error[URDF_KINEMATIC_LOOP]: joint [closing] closes a loop
         12 |     <joint name="closing" type="fixed">
            |     ^

  ``file:line:col:`` when the column is known, ``file:line:`` otherwise; the caret
  sits at the column, else under the line's first non-blank character. Colour only
  when the stream is a terminal and ``NO_COLOR`` is unset or empty. For a xacro file
  the diagnostic names the ``.xacro`` file without a line (its lines would mislead an
  editor): the message says which line of the *expanded* document it is, and the
  snippet shows that expanded line.
* **Version**: ``--version`` prints ``PROG VERSION`` from the installed metadata.
* **Batch**: :func:`run_batch` converts a list of files under a directory into a
  mirrored tree, one failure never stopping the rest, with a progress bar on a
  terminal and a summary table (or a JSON summary).
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterable, Sequence

import typer

from core.context import Context
from core.diagnostics import Code, Diagnostic, Diagnostics, Severity
from core.loader import LoadResult, load, load_string

STDIN = "-"
STDIN_LABEL = "<stdin>"
XACRO_SUFFIX = ".xacro"
XACRO_HINT = "pip install 'urdf-sdf[xacro]'"
# Source files larger than this are not read again just to show a line.
MAX_SNIPPET_FILE = 64 * 1024 * 1024


# ---- version -----------------------------------------------------------------------------

def package_version() -> str:
    try:
        return metadata.version("urdf-sdf")
    except metadata.PackageNotFoundError:  # running from a source tree, not installed
        return "unknown"


def version_option(prog: str):
    """An eager ``--version`` option printing ``PROG VERSION`` and exiting 0."""
    def show(value: bool) -> None:
        if value:
            print(f"{prog} {package_version()}")
            raise typer.Exit(0)
    return typer.Option(False, "--version", callback=show, is_eager=True,
                        help="Print the version and exit.")


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
    """The text of the files diagnostics point into: files on disk are read on demand
    (and cached); standard input and xacro expansions are registered with :meth:`add`."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}
        self._expanded: set[str] = set()

    def add(self, label: str, data: bytes, expanded: bool = False) -> None:
        self._lines[label] = _split(data)
        if expanded:
            self._expanded.add(label)

    def is_expanded(self, file: str | None) -> bool:
        return file in self._expanded

    def line(self, file: str | None, number: int | None) -> str | None:
        if file is None or number is None or number < 1:
            return None
        if file not in self._lines:
            self._lines[file] = self._read(file)
        lines = self._lines[file]
        if lines is None or number > len(lines):
            return None
        return lines[number - 1]

    @staticmethod
    def _read(file: str) -> list[str] | None:
        try:
            path = Path(file)
            if not path.is_file() or path.stat().st_size > MAX_SNIPPET_FILE:
                return None
            return _split(path.read_bytes())
        except (OSError, ValueError):
            return None


def _split(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


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


def print_json(data) -> None:
    print(json.dumps(data, indent=None))


# ---- inputs ------------------------------------------------------------------------------

def is_stdin(path: str | Path | None) -> bool:
    return path is not None and str(path) == STDIN


def label(path: str | Path) -> str:
    """The name diagnostics and messages use for an input argument."""
    return STDIN_LABEL if is_stdin(path) else str(path)


def is_xacro(path: str | Path) -> bool:
    return not is_stdin(path) and str(path).endswith(XACRO_SUFFIX)


def read_stdin(diagnostics: Diagnostics) -> bytes | None:
    from core.xmlio import MAX_BYTES
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            data = stream.read(MAX_BYTES + 1)
        else:  # a text stream without a buffer (an embedding application)
            data = sys.stdin.read(MAX_BYTES + 1).encode("utf-8")
    except (OSError, ValueError) as exc:
        diagnostics.error(Code.FILE_READ, f"cannot read standard input: {exc}", STDIN_LABEL)
        return None
    if len(data) > MAX_BYTES:
        diagnostics.error(Code.FILE_READ, f"standard input is larger than {MAX_BYTES} bytes",
                          STDIN_LABEL)
        return None
    return data


def parse_xacro_args(values: Sequence[str] | None) -> dict[str, str]:
    """``name:=value`` strings (``--xacro-arg``) as xacro mappings; a usage error otherwise."""
    mappings: dict[str, str] = {}
    for value in values or []:
        name, sep, text = value.partition(":=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{value!r} is not name:=value", param_hint="--xacro-arg")
        mappings[name.strip()] = text
    return mappings


def xacro_available() -> bool:
    try:
        import xacro  # noqa: F401
    except ImportError:
        return False
    return True


def expand_xacro(path: Path, mappings: dict[str, str] | None,
                 diagnostics: Diagnostics) -> bytes | None:
    """Expand a xacro file with the ``xacro`` package; None with a diagnostic when the
    package is missing (XACRO_UNAVAILABLE) or the expansion fails (XACRO_ERROR)."""
    file = str(path)
    try:
        import xacro
    except ImportError:
        diagnostics.error(Code.XACRO_UNAVAILABLE,
                          "cannot expand a xacro file: the 'xacro' Python package is not "
                          f"installed; {XACRO_HINT}, or expand it with the xacro command and "
                          "pipe the result in as '-'", file)
        return None
    from xml.parsers.expat import ExpatError

    try:
        document = xacro.process_file(file, mappings=dict(mappings or {}), verbosity=0)
        return document.toprettyxml(indent="  ", encoding="utf-8")
    except ExpatError as exc:  # malformed XML: expat knows where, in the file it was reading
        where = _xacro_current_file(xacro) or file
        line = getattr(exc, "lineno", None) or None
        offset = getattr(exc, "offset", None)
        diagnostics.error(Code.XACRO_ERROR, f"xacro: malformed XML: {_expat_message(exc)}",
                          where, line, offset + 1 if line and offset is not None else None)
    except (Exception, SystemExit) as exc:  # XacroException, NameError from an expression...
        message = " ".join(str(exc).split()) or repr(exc)
        where = _xacro_current_file(xacro)
        if where and where != file:
            message += f" (in {where}, included from {file})"
        diagnostics.error(Code.XACRO_ERROR, f"xacro: {message}", file)
    return None


def _xacro_current_file(xacro) -> str | None:
    stack = getattr(xacro, "filestack", None) or []
    return next((str(f) for f in reversed(stack) if f), None)


def _expat_message(exc) -> str:
    from xml.parsers.expat import ErrorString
    code = getattr(exc, "code", None)
    return ErrorString(code) if code is not None else str(exc)


def load_input(path: Path, context: Context, sources: SourceLines,
               xacro_args: dict[str, str] | None = None) -> LoadResult:
    """Load a FILE argument: ``-`` from standard input (named ``<stdin>``), ``*.xacro``
    expanded first (named after the .xacro file), anything else from disk. Never raises
    on bad input."""
    if is_stdin(path):
        diagnostics = Diagnostics()
        data = read_stdin(diagnostics)
        if data is None:
            return LoadResult(None, None, diagnostics)
        sources.add(STDIN_LABEL, data)
        return load_string(data, file=STDIN_LABEL, context=context)
    if is_xacro(path):
        from core.xmlio import _entity_declaration_line, read_bytes
        diagnostics = Diagnostics()
        raw = read_bytes(path, diagnostics)  # FILE_READ, as for any file
        data = None
        if raw is not None:
            entity = _entity_declaration_line(raw)
            if entity is not None:  # xacro's parser would expand them: refuse, as for XML
                diagnostics.error(Code.XML_UNSAFE, "the document declares XML entities "
                                  "(<!DOCTYPE> with <!ENTITY>); entity expansion is disabled "
                                  "for safety: remove the DTD", str(path), entity)
            else:
                data = expand_xacro(Path(path), xacro_args, diagnostics)
        if data is None:
            return LoadResult(None, None, diagnostics)
        sources.add(str(path), data, expanded=True)
        return load_string(data, file=str(path), context=context)
    return load(path, context)


# ---- batch -------------------------------------------------------------------------------

@dataclass
class BatchItem:
    """One file of a batch: ``source`` on disk, ``relative`` to the input directory,
    ``output`` relative to the output directory; ``skip`` says why it is not converted."""
    source: Path
    relative: Path
    output: Path
    skip: str | None = None


@dataclass
class Outcome:
    item: BatchItem
    status: str                      # converted | failed | skipped
    diagnostics: list[Diagnostic] = field(default_factory=list)
    written: Path | None = None
    sources: SourceLines | None = None

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)

    @property
    def first_error(self) -> Diagnostic | None:
        return next((d for d in self.diagnostics if d.is_error), None)


# convert(item, sources) -> (bytes or None, diagnostics)
Converter = Callable[[BatchItem, SourceLines], "tuple[bytes | None, Sequence[Diagnostic]]"]


def walk(root: Path, exclude: Path | None = None) -> list[Path]:
    """Every regular file under ``root`` (sorted, hidden directories skipped, symlinked
    directories not followed), leaving out the ``exclude`` tree (the output directory)."""
    excluded = exclude.resolve() if exclude is not None else None
    found: list[Path] = []
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and (excluded is None or (here / d).resolve() != excluded))
        found.extend(here / f for f in sorted(files))
    return found


def check_batch_output(output: Path | None, prog: str) -> Path:
    """The output directory of a batch: required, not standard output, not a file."""
    if output is None or is_stdin(output):
        raise typer.BadParameter("converting a directory needs -o OUTDIR (a directory)",
                                 param_hint="-o/--output")
    if output.exists() and not output.is_dir():
        raise typer.BadParameter(f"{output} is a file; converting a directory needs -o OUTDIR",
                                 param_hint="-o/--output")
    return output


def run_batch(items: list[BatchItem], out_dir: Path, convert: Converter, *,
              prog: str, quiet: bool = False, as_json: bool = False) -> int:
    """Convert every item, write each output atomically under ``out_dir`` (mirroring the
    layout), print diagnostics as they come, then a summary; return the exit code (1 when
    any file failed, else 0)."""
    from core.output import OutputError, write_output

    outcomes: list[Outcome] = []
    stream = sys.stderr
    color = use_color(stream)
    with ProgressBar(len([i for i in items if i.skip is None]), prog, stream) as bar:
        for item in items:
            if item.skip is not None:
                outcomes.append(Outcome(item, "skipped"))
                continue
            bar.advance(str(item.relative))
            sources = SourceLines()
            try:
                data, diagnostics = convert(item, sources)
                diagnostics = list(diagnostics)
            except Exception as exc:  # a bug must not stop the other files
                data, diagnostics = None, [Diagnostic(
                    Code.PARSING_ERROR, Severity.ERROR,
                    f"internal error while converting: {type(exc).__name__}: {exc}",
                    str(item.source))]
            if data is not None and not any(d.is_error for d in diagnostics):
                target = out_dir / item.output
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_output(data, str(target), [str(item.source)])
                    outcome = Outcome(item, "converted", diagnostics, target, sources)
                except (OutputError, OSError) as exc:
                    diagnostics.append(Diagnostic(Code.FILE_WRITE, Severity.ERROR,
                                                  f"cannot write {target}: {exc}",
                                                  str(item.source)))
                    outcome = Outcome(item, "failed", diagnostics, None, sources)
            else:
                if not any(d.is_error for d in diagnostics):
                    diagnostics.append(Diagnostic(Code.PARSING_ERROR, Severity.ERROR,
                                                  "conversion produced nothing",
                                                  str(item.source)))
                outcome = Outcome(item, "failed", diagnostics, None, sources)
            outcomes.append(outcome)
            shown = visible(outcome.diagnostics, quiet)
            if shown and not as_json:
                bar.log("\n".join(render(d, sources, color) for d in shown))
    if as_json:
        print_json(batch_json(outcomes, out_dir, quiet))
    else:
        print(summary_table(outcomes, out_dir))
    return 1 if any(o.status == "failed" for o in outcomes) else 0


def batch_counts(outcomes: list[Outcome]) -> dict[str, int]:
    converted = [o for o in outcomes if o.status == "converted"]
    return {"converted": len(converted),
            "warnings": sum(1 for o in converted if o.warnings),
            "failed": sum(1 for o in outcomes if o.status == "failed"),
            "skipped": sum(1 for o in outcomes if o.status == "skipped")}


def summary_table(outcomes: list[Outcome], out_dir: Path) -> str:
    """The human summary: counts, then each failed file with its first error, then each
    skipped file with the reason."""
    counts = batch_counts(outcomes)
    rows = [("converted", counts["converted"], f"into {out_dir}"),
            ("warnings", counts["warnings"], "converted files with warnings"),
            ("failed", counts["failed"], ""),
            ("skipped", counts["skipped"], "")]
    width = max(len(str(n)) for _, n, _ in rows)
    lines = [f"{len(outcomes)} file{'s' if len(outcomes) != 1 else ''}:"]
    lines += [f"  {name:<11}{n:>{width}}" + (f"  {note}" if note else "")
              for name, n, note in rows]
    failed = [o for o in outcomes if o.status == "failed"]
    if failed:
        lines.append("failed:")
        for outcome in failed:
            first = outcome.first_error
            shown = presented(first, outcome.sources).format() if first else "unknown error"
            lines.append(f"  {outcome.item.relative}: {shown}")
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        lines.append("skipped:")
        lines += [f"  {o.item.relative}: {o.item.skip}" for o in skipped]
    return "\n".join(lines)


def batch_json(outcomes: list[Outcome], out_dir: Path, quiet: bool = False) -> dict:
    """``{"ok", "output", "diagnostics", "counts", "files"}``: ``output`` is the output
    directory, ``diagnostics`` every file's diagnostics, ``files`` one entry per file
    (``input``, ``output`` or null, ``status``, ``diagnostics``)."""
    files = []
    for o in outcomes:
        files.append({"input": str(o.item.source),
                      "output": str(o.written) if o.written is not None else None,
                      "status": o.status,
                      "reason": o.item.skip,
                      "diagnostics": [diagnostic_json(d, o.sources)
                                      for d in visible(o.diagnostics, quiet)]})
    return {"ok": not any(o.status == "failed" for o in outcomes),
            "output": str(out_dir),
            "diagnostics": [d for f in files for d in f["diagnostics"]],
            "counts": batch_counts(outcomes),
            "files": files}


class ProgressBar:
    """A progress bar on ``stream`` (stderr) when it is a terminal, nothing otherwise::

        with ProgressBar(total, "urdf2sdf") as bar:
            bar.advance("robot.urdf")      # about to convert this file
            bar.log(text)                  # print above the bar (diagnostics)

    rich's bar when rich is importable (typer depends on it), else a counter line.
    """

    def __init__(self, total: int, prog: str, stream=None) -> None:
        self.total, self.prog = total, prog
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total > 0 and _is_tty(self.stream)
        self._progress = self._task = None
        self._count = 0

    def __enter__(self) -> "ProgressBar":
        if not self.enabled:
            return self
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        except ImportError:
            return self
        console = Console(file=self.stream, no_color=not use_color(self.stream))
        self._progress = Progress(TextColumn(self.prog), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[current]}"), console=console,
                                  transient=True, redirect_stdout=False,
                                  redirect_stderr=False)
        self._progress.start()
        self._task = self._progress.add_task(self.prog, total=self.total, current="")
        return self

    def advance(self, name: str) -> None:
        if not self.enabled:
            return
        if self._progress is not None:
            self._progress.update(self._task, completed=self._count, current=name)
        else:
            print(f"\r{self.prog}: [{self._count + 1}/{self.total}] {name}\x1b[K", end="",
                  file=self.stream, flush=True)
        self._count += 1

    def log(self, text: str) -> None:
        """Print ``text`` (lines, maybe with ANSI colour) above the bar, unwrapped."""
        if self._progress is not None:
            from rich.text import Text
            self._progress.console.print(Text.from_ansi(text), soft_wrap=True,
                                         highlight=False)
        elif self.enabled:
            print(f"\r\x1b[K{text}", file=self.stream, flush=True)
        else:
            print(text, file=self.stream)

    def __exit__(self, *exc) -> None:
        if not self.enabled:
            return
        if self._progress is not None:
            self._progress.update(self._task, completed=self.total)
            self._progress.stop()
        else:
            print("\r\x1b[K", end="", file=self.stream, flush=True)


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# ---- one conversion ----------------------------------------------------------------------

def finish_conversion(prog: str, source: Path, data: bytes | None,
                      diagnostics: Sequence[Diagnostic], output: Path | None,
                      sources: SourceLines, quiet: bool = False, as_json: bool = False) -> int:
    """Report and write one conversion; return the exit code.

    Without ``--json``: diagnostics on stderr, the document to ``-o FILE`` (atomically)
    or stdout. With ``--json``: one object on stdout, ``{"ok", "output", "diagnostics"}``
    where ``output`` is the file written (null when none was), plus ``"document"`` (the
    converted text, null on failure) when there is no ``-o FILE`` — stdout holds the JSON.
    """
    from core.output import OutputError, write_output

    ok = data is not None and not any(d.is_error for d in diagnostics)
    to_stdout = output is None or is_stdin(output)
    if not as_json:
        emit(diagnostics, sys.stderr, sources, quiet)
    written = document = None
    if ok:
        if as_json and to_stdout:
            document = data.decode("utf-8")
        else:
            try:
                write_output(data, None if to_stdout else str(output),
                             [] if is_stdin(source) else [str(source)])
            except OutputError as exc:  # -o names a directory, the input...: usage
                print(f"{prog}: {exc}", file=sys.stderr)
                return 2
            except OSError as exc:  # disk full, permissions: the old file is intact
                print(f"{prog}: cannot write {output}: {exc}", file=sys.stderr)
                return 1
            written = None if to_stdout else str(output)
    if as_json:
        summary = {"ok": ok, "output": written,
                   "diagnostics": [diagnostic_json(d, sources) for d in visible(diagnostics,
                                                                                 quiet)]}
        if to_stdout:
            summary["document"] = document
        print_json(summary)
    return 0 if ok else 1


def short_lived_process() -> None:
    """A command runs once and exits: Python's cycle collector would only spend time
    scanning the model's objects, which the process frees all at once on exit."""
    import gc
    gc.disable()


# Options the commands share (typer accepts one OptionInfo as the default of many).
QUIET_OPTION = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings.")
XACRO_ARG_OPTION = typer.Option(None, "--xacro-arg", metavar="NAME:=VALUE",
                                help="Argument for a .xacro input (repeatable).")
CONVERTER_JSON_OPTION = typer.Option(False, "--json",
                                     help="Print a JSON summary on stdout: {ok, output, "
                                          "diagnostics} (and document, without -o FILE).")
