"""``urdf-sdf graph``: the DOT text of ``core.write.dot`` written or rendered.

* :func:`render`: DOT text to stdout or a ``.dot``/``.gv`` file, or an ``.svg``/``.png``/
  ``.pdf`` file made by the Graphviz ``dot`` program (taken from its standard output),
  written as every output is (:mod:`urdf_sdf.cli.output`): a regular file atomically
  (temporary file in the same directory, then renamed: never a partial file), a device,
  FIFO, descriptor or standard output directly.
* :func:`graph_command`: the whole ``urdf-sdf graph`` command, returning its exit code
  (:func:`write_graph` for a file already loaded).

Every failure is one coded line (``file: error[CODE]: message``): a refused destination
(the input: OUTPUT_IS_INPUT, exit 1; a directory: GRAPH_OUTPUT_INVALID, exit 2), a write
that fails (a full disk, a read-only or unwritable directory: FILE_WRITE with the
system's reason, exit 1, the previous file intact), an unknown suffix, Graphviz missing or
failing, the kinematic tree of an invalid file (GRAPH_TREE_INVALID). A destination that is
a device, a FIFO or a descriptor's name (``/dev/stdout``) without a suffix of an image
takes DOT text; a symbolic link is written through to its target (``graph.png`` linked to
``/dev/fd/5`` takes the picture).
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from urdf_sdf.cli.output import StdoutError, write_failed, write_output
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.inspect.resources import never_written
from urdf_sdf.core.loader import LoadResult, load
from urdf_sdf.core.write.destination import Input, OutputError, follow_links, resolve_destination
from urdf_sdf.core.write.dot import GraphKind, frame_graph_dot, kinematic_tree_dot

# ---- rendering --------------------------------------------------------------------------

TEXT_SUFFIXES = (".dot", ".gv")
RENDER_FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf"}
DOT_TIMEOUT = 300.0  # seconds; a 100,000-link graph takes Graphviz a while


class RenderError(Exception):
    """The graph cannot be written where or how it was asked. ``code`` names the
    problem (for the ``error[CODE]`` line), ``exit_code`` is what the CLI exits with."""

    code: Code = Code.GRAPH_OUTPUT_INVALID
    exit_code = 2

    def __init__(self, message: str, file: str | None = None):
        super().__init__(message)
        self.file = file

    @classmethod
    def refused(cls, exc: OutputError, file: str | None) -> RenderError:
        """The destination refused by :mod:`~urdf_sdf.cli.output`: its code (the
        input: OUTPUT_IS_INPUT, exit 1) or GRAPH_OUTPUT_INVALID (a usage error)."""
        error = cls(str(exc), file)
        if exc.code is not Code.OUTPUT_INVALID:
            error.code, error.exit_code = exc.code, exc.exit_code
        return error

    def diagnostic(self) -> Diagnostic:
        """This refusal as an error diagnostic, at its file (``<output>`` without one)."""
        return Diagnostic(self.code, Severity.ERROR, str(self), self.file or "<output>")

    def format(self) -> str:
        """``file: error[CODE]: message``: the diagnostic's line."""
        return self.diagnostic().format()


class OutputFormatUnknown(RenderError):
    code = Code.GRAPH_FORMAT_UNKNOWN
    exit_code = 2


class GraphvizUnavailable(RenderError):
    code = Code.GRAPHVIZ_UNAVAILABLE
    exit_code = 1


class GraphvizFailed(RenderError):
    code = Code.GRAPHVIZ_FAILED
    exit_code = 1


def output_format(output: str | os.PathLike | None) -> str | None:
    """``None`` for DOT text (stdout, ``.dot``, ``.gv``, a device, FIFO or descriptor
    name), else the ``dot -T`` format. Raises :class:`OutputFormatUnknown` for any other
    suffix."""
    if output is None or str(output) == "-":
        return None
    suffix = Path(output).suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return None
    if suffix in RENDER_FORMATS:
        return RENDER_FORMATS[suffix]
    if _written_as_it_is(output):
        return None
    supported = ", ".join(TEXT_SUFFIXES + tuple(RENDER_FORMATS))
    raise OutputFormatUnknown(f"unknown graph output format {suffix or '(no suffix)'!r}; "
                              f"name the file with one of {supported} (or - for stdout)",
                              str(output))


def _written_as_it_is(output: str | os.PathLike) -> bool:
    """A destination that names an open descriptor (/dev/stdout, whatever it is
    redirected to) or exists and is not a regular file or directory (/dev/null, a FIFO): a
    stream, which takes DOT text."""
    try:
        path, descriptor = follow_links(Path(output))
        mode = os.stat(path).st_mode
    except (OSError, OutputError):
        return False
    return descriptor or (not stat.S_ISREG(mode) and not stat.S_ISDIR(mode))


def find_dot(output: str | os.PathLike | None = None) -> str:
    """The path of Graphviz's ``dot`` program, or :class:`GraphvizUnavailable`."""
    dot = shutil.which("dot")
    if dot is None:
        name = Path(output).name if output is not None else "the graph"
        raise GraphvizUnavailable(
            f"cannot render {name}: the Graphviz 'dot' program was not found on PATH. "
            "Install Graphviz (Debian/Ubuntu: sudo apt-get install graphviz; Fedora: "
            "sudo dnf install graphviz; macOS: brew install graphviz; conda: conda install "
            "graphviz), or write DOT text, which needs no Graphviz: -o graph.dot (or no -o "
            "for stdout).", str(output) if output is not None else None)
    return dot


def check_output(output: str | os.PathLike | None) -> None:
    """Fail early (before loading anything) on an unknown suffix or a missing ``dot``."""
    if output_format(output) is not None:
        find_dot(output)


def render(dot_text: str, output: str | os.PathLike | None = None,
           inputs: Sequence[Input] = ()) -> str:
    """Write ``dot_text`` to ``output`` by its suffix: DOT text for None, ``-``, ``.dot``
    or ``.gv``; an image made by Graphviz ``dot -T<format>`` for ``.svg``, ``.png``,
    ``.pdf``. Either is written as :func:`~urdf_sdf.cli.output.write_output` writes
    every output: to a device, FIFO, descriptor or standard output directly, to a regular
    file atomically. Never overwrites a file of ``inputs``, never leaves a partial file.

    Returns what ``dot`` printed on stderr (warnings; empty when none). Raises a
    :class:`RenderError` (``GraphvizUnavailable``, ``GraphvizFailed``,
    ``OutputFormatUnknown``, or the base class for a refused destination), or ``OSError``
    when the write fails (:func:`write_graph` reports it as FILE_WRITE)."""
    fmt = output_format(output)
    data = dot_text.encode("utf-8")
    destination = None if output is None else str(output)
    stderr = ""
    if fmt is not None and destination is not None:
        try:  # refused before Graphviz runs
            _, target = resolve_destination(Path(destination), inputs, through_links=True)
        except OutputError as exc:
            raise RenderError.refused(exc, destination) from exc
        data, stderr = _run_dot(find_dot(target), fmt, data, target, destination)
    try:
        write_output(data, destination, list(inputs), through_links=True)
    except OutputError as exc:
        raise RenderError.refused(exc, destination) from exc
    return stderr


def _run_dot(dot: str, fmt: str, data: bytes, target: Path,
             destination: str) -> tuple[bytes, str]:
    """The image ``dot -T<fmt>`` makes of the DOT text ``data``, and its stderr; or
    :class:`GraphvizFailed`. The image is taken from dot's standard output: dot never
    opens the destination itself (it would reopen a descriptor's name, truncating what
    it names, and leave half a file when it fails)."""
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=data,
                              capture_output=True, timeout=DOT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as exc:
        raise GraphvizFailed(f"Graphviz dot took more than {DOT_TIMEOUT:g} s to render "
                             f"{target.name}; write DOT text with -o graph.dot instead",
                             destination) from exc
    except OSError as exc:
        raise GraphvizFailed(f"cannot run Graphviz dot ({dot}): {exc}", destination) from exc
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0 or not done.stdout:
        detail = stderr.strip() or f"exit status {done.returncode}, no output"
        raise GraphvizFailed(f"Graphviz dot could not render {target.name} as {fmt}: "
                             f"{detail}", destination)
    return done.stdout, stderr


# ---- the command ---------------------------------------------------------------------

FileT = TypeVar("FileT", bound="str | os.PathLike")  # the file a loader is given
PathT = TypeVar("PathT", bound="str | os.PathLike")  # its search paths


def graph_command(file: FileT, kind: str | GraphKind = GraphKind.tree,
                  output: str | os.PathLike | None = None,
                  paths: Sequence[PathT] | None = None, stderr: TextIO | None = None, *,
                  loader: Callable[[FileT, Sequence[PathT] | None], LoadResult] | None = None,
                  report: Callable[[LoadResult, TextIO], None] | None = None) -> int:
    """``urdf-sdf graph FILE [--kind K] [-o OUT] [--path DIR...]``; returns the exit code.
    The kinematic tree unless ``kind`` names a frame graph.

    ``loader(file, paths) -> LoadResult`` loads the file (default: ``core.loader.load``
    with ``Context.from_environment(paths)``); ``report(result, stream)`` prints its
    diagnostics (default: one ``Diagnostic.format()`` line each). The CLI passes its own
    (standard input, xacro, source snippets). Messages go to ``stderr`` (default:
    ``sys.stderr`` at call time).

    The output is checked first: an unknown suffix or a missing Graphviz fails before
    anything is loaded. The frame graphs of an invalid file are still written (broken
    chains outlined in red) and the exit code is 1; the kinematic tree needs a valid
    file. Exit 2 for an unknown kind or output suffix or a bad destination; 1 when
    Graphviz is missing or fails.
    """
    stderr = stderr if stderr is not None else sys.stderr
    kind_value = _kind(kind, stderr)
    if kind_value is None:
        return 2
    try:
        check_output(output)
    except RenderError as exc:
        print(exc.format(), file=stderr)
        return exc.exit_code
    if loader is None:
        loader = _default_loader
    result = loader(file, paths)
    if report is None:
        for diagnostic in result.diagnostics:
            print(diagnostic.format(), file=stderr)
    else:
        report(result, stderr)
    return write_graph(result, kind_value, output, [str(file)], stderr, file=str(file))


def write_graph(result: LoadResult, kind: str | GraphKind = GraphKind.tree,
                output: str | os.PathLike | None = None, inputs: Sequence[Input] = (),
                stderr: TextIO | None = None, file: str | None = None) -> int:
    """Draw an already loaded ``result`` (diagnostics already shown) and write it to
    ``output``; returns the exit code as :func:`graph_command` does."""
    stderr = stderr if stderr is not None else sys.stderr
    kind_value = _kind(kind, stderr)
    if kind_value is None:
        return 2
    if result.graph is None or result.graph.root is None:
        if not result.diagnostics.has_errors:  # e.g. a file holding only an <actor>
            print(Diagnostic(Code.ELEMENT_MISSING, Severity.ERROR, "the file holds no model "
                             "or world: there is no frame graph to draw", file).format(),
                  file=stderr)
        return 1
    if kind_value == GraphKind.tree.value:
        if not result.ok:
            print(Diagnostic(Code.GRAPH_TREE_INVALID, Severity.ERROR, "the kinematic tree of "
                             "an invalid file cannot be drawn; --kind both draws its frame "
                             "graphs", file).format(), file=stderr)
            return 1
        text = kinematic_tree_dot(result)
    else:
        text = frame_graph_dot(result, kind_value)
    try:
        warnings = render(text, output, [*inputs, *never_written(result)])
    except RenderError as exc:
        print(exc.format(), file=stderr)
        return exc.exit_code
    except (StdoutError, BrokenPipeError):
        raise  # the caller's stdout check reports them
    except OSError as exc:  # a full disk, a read-only directory: the old file is intact
        print(write_failed(exc, str(output)).format(), file=stderr)
        return 1
    if warnings:
        stderr.write("".join(escape(line) + "\n" for line in warnings.splitlines()))
    return 0 if result.ok else 1


def _kind(kind: str | GraphKind, stderr: TextIO) -> str | None:
    try:
        return GraphKind(kind).value
    except ValueError:
        print(f"urdf-sdf graph: unknown kind {kind!r}; choose one of "
              f"{', '.join(k.value for k in GraphKind)}", file=stderr)
        return None


def _default_loader(file: str | os.PathLike,
                    paths: Sequence[str | os.PathLike] | None) -> LoadResult:
    path = file if isinstance(file, (str, Path)) else os.fspath(file)
    return load(path, Context.from_environment([str(p) for p in paths or []]))
