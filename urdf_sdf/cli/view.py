"""``urdf-sdf view``: the command-line side of :mod:`urdf_sdf.view`.

``urdf-sdf view FILE -o robot.html`` writes one self-contained page of a description;
``urdf-sdf view A B -o diff.html`` overlays two and highlights what ``urdf-sdf diff``
reports; ``--png out.png`` writes a still picture too (headless Chromium). Without
``-o`` or ``--png`` the page goes to standard output.

A file that does not load gives its diagnostics and no page (exit 1, the last line
``VIEW_NOT_WRITTEN``); a mesh that does not resolve or read, or is over the size view
reads (``MESH_TOO_LARGE``), is a warning, drawn as a marker (an error under
``--strict``: then no page either).

The view modules need plotly and trimesh (the ``[view]`` extra: :data:`VIEW_HINT`): they are
imported through the ``_VIEW`` table, and when one is missing the command says what to
install (VIEW_UNAVAILABLE, exit 1). The page and the picture are written as every output
is (``urdf_sdf.cli.output``): a regular file atomically, a device, FIFO, descriptor
(``--png /dev/fd/5``) or standard output directly; never over an input.

While headless Chromium takes the ``--png`` picture, SIGTERM, SIGINT and SIGHUP raise
:class:`Interrupted` (handlers installed around that call only, the previous ones put
back after): the snapshot's ``finally`` kills the browser's process group and removes
its temporary folder (and the picture in it: nothing is written yet), and the command
then ends by the same signal, with its default action (VIEW_SNAPSHOT_FAILED says so
first).
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command, Option
from urdf_sdf.cli.inputs import is_stdin, label, load_input
from urdf_sdf.cli.options import (
    OUTPUT,
    PACKAGES,
    PATH,
    QUIET,
    STRICT,
    XACRO,
    comparison_options,
    inspection_inputs,
)
from urdf_sdf.cli.output import (
    StdoutError,
    handling_signals,
    stdout_checked_code,
    write_failed,
    write_output,
)
from urdf_sdf.cli.render import SourceLines, emit
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.diff.report import summary
from urdf_sdf.core.write.destination import Input, OutputError, check_destination

PROG = "urdf-sdf view"
VIEW_HINT = ("pip install plotly trimesh pycollada (urdf-sdf's [view] extra; in its clone: "
             "pip install '.[view]')")
_VIEW = Later({
    "build_scene": ("urdf_sdf.view.scene", "build_scene"),
    "diff_scene": ("urdf_sdf.view.overlay", "diff_scene"),
    "page_html": ("urdf_sdf.view.page", "page_html"),
    "screenshot": ("urdf_sdf.view.snapshot", "screenshot"),
    "find_browser": ("urdf_sdf.view.snapshot", "find_browser"),
    "BROWSER_HINT": ("urdf_sdf.view.snapshot", "BROWSER_HINT"),
    "SnapshotError": ("urdf_sdf.view.snapshot", "SnapshotError"),
})


def missing_library() -> str | None:
    """The name of a package the view modules need and cannot import, or None."""
    try:
        _VIEW.build_scene, _VIEW.page_html  # noqa: B018 (imports plotly and trimesh)
    except ImportError as exc:
        return exc.name or str(exc)
    return None


def view_command(files: Sequence[Path], output: Path | None, png: Path | None,
                 context: Context, quiet: bool = False, tol: float = 1e-9,
                 configurations: int = 20, seed: int = 0, stderr=None,
                 xacro: XacroOptions | None = None) -> int:
    """The whole command; returns its exit code (0 page written, 1 invalid input or a
    missing library or browser, 2 usage error). ``xacro``: whether (and how) a .xacro
    file is expanded."""
    stderr = stderr if stderr is not None else sys.stderr
    if not 1 <= len(files) <= 2:
        print(f"{PROG}: give one file to view, or two to compare", file=stderr)
        return 2
    if sum(is_stdin(f) for f in files) > 1:
        print(f"{PROG}: standard input ('-') can be named once", file=stderr)
        return 2
    inputs = [str(f) for f in files]
    missing = missing_library()
    if missing is not None:
        print(Diagnostic(Code.VIEW_UNAVAILABLE, Severity.ERROR,
                         f"urdf-sdf view needs the Python package '{missing}', which is not "
                         f"installed: {VIEW_HINT}", PROG).format(), file=stderr)
        return 1
    if png is not None and _VIEW.find_browser() is None:  # before any work, nothing written
        print(Diagnostic(Code.VIEW_SNAPSHOT_FAILED, Severity.ERROR, _VIEW.BROWSER_HINT,
                         str(png)).format(), file=stderr)
        return 1
    for target in (output, png):
        if target is not None and str(target) != "-":
            try:
                check_destination(target, inputs, through_links=True)
            except OutputError as exc:
                print(exc.diagnostic(str(target)).format(), file=stderr)
                return exc.exit_code
    sources = SourceLines()
    results = [load_input(f, context, sources, xacro) for f in files]
    for result in results:
        emit(result.diagnostics, stderr, sources, quiet)
    if not all(_viewable(result, name, stderr) for result, name in zip(results, inputs)):
        return _not_written(output, stderr)
    labels = [label(f) for f in files]
    if len(results) == 1:
        scene = _VIEW.build_scene(results[0], labels[0], context)
        title = labels[0]
    else:
        scene = _VIEW.diff_scene(results[0], results[1], tuple(labels), tol, configurations,
                                 seed, context)
        title = f"{labels[0]} (blue) and {labels[1]} (orange): " + \
            summary([h.difference for h in scene.highlights])
    scene.diagnostics = context.policy.apply(scene.diagnostics)
    emit(scene.diagnostics, stderr, sources, quiet)
    if scene.diagnostics.has_errors:
        return _not_written(output, stderr)
    return _write(scene, title, output, png, [*inputs, *sources.protected()], stderr)


def _not_written(output: Path | None, stderr) -> int:
    """The last line of a run that writes nothing (its errors are above); exit 1."""
    where = str(output) if output is not None and str(output) != "-" else PROG
    print(Diagnostic(Code.VIEW_NOT_WRITTEN, Severity.ERROR, "no page written: see the "
                     "errors above", where).format(), file=stderr)
    return 1


def _viewable(result, name: str, stderr) -> bool:
    if not result.ok:
        return False
    if result.graph is None or result.graph.root is None:
        print(Diagnostic(Code.ELEMENT_MISSING, Severity.ERROR, "the file holds no model or "
                         "world: there is nothing to view", name).format(), file=stderr)
        return False
    return True


def _write(scene, title: str, output: Path | None, png: Path | None, inputs: list[Input],
           stderr) -> int:
    try:
        if output is not None or png is None:
            page = _VIEW.page_html(scene, title)
            write_output(page.encode("utf-8"), str(output) if output else None, inputs,
                         through_links=True)
        if png is not None:
            _write_png(_VIEW.page_html(scene, title, controls=False), png, inputs)
    except _VIEW.SnapshotError as exc:
        print(Diagnostic(Code.VIEW_SNAPSHOT_FAILED, Severity.ERROR, str(exc),
                         str(png)).format(), file=stderr)
        return 1
    except Interrupted as exc:  # the browser is gone and its folder removed by now
        name = signal.Signals(exc.signum).name
        print(Diagnostic(Code.VIEW_SNAPSHOT_FAILED, Severity.ERROR, f"interrupted by {name} "
                         "while the browser drew the picture: no picture written",
                         str(png)).format(), file=stderr)
        return end_by_signal(exc.signum)
    except OutputError as exc:
        print(exc.diagnostic(str(png if png is not None else output)).format(), file=stderr)
        return exc.exit_code
    except (StdoutError, BrokenPipeError):
        raise  # stdout_checked reports them
    except OSError as exc:  # disk full, permissions: an old file is intact
        print(write_failed(exc, str(png if png is not None else output)).format(),
              file=stderr)
        return 1
    return 0


def _write_png(html: str, png: Path, inputs: list[Input]) -> None:
    """The picture of ``html`` written to ``png`` as every output is
    (:func:`~urdf_sdf.cli.output.write_output`: a regular file atomically, a device,
    FIFO, descriptor or standard output directly), never over one of ``inputs``."""
    if str(png) == "-":
        raise OutputError("--png needs a file name (a picture does not go to standard output)")
    with signals_raised():
        picture = _VIEW.screenshot(html)
    write_output(picture, str(png), inputs, through_links=True)


class Interrupted(BaseException):
    """A signal (``signum``) received inside :func:`signals_raised`. Not an
    ``Exception``, so that no ``except Exception`` on its way stops it."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def signals_raised() -> Iterator[None]:
    """While inside (:func:`~urdf_sdf.cli.output.handling_signals`): the first
    SIGTERM, SIGINT or SIGHUP raises :class:`Interrupted`, so the ``finally`` blocks
    below run; a second one while they run is ignored."""
    received: list[int] = []

    def handler(signum, frame):
        if not received:
            received.append(signum)
            raise Interrupted(signum)

    with handling_signals(handler):
        yield


def end_by_signal(signum: int) -> int:
    """End the process by ``signum`` with its default action (as if it had not been
    caught: a parent sees that signal); the exit code 128 + ``signum`` should it not."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    return 128 + signum



# ---- the command line ----------------------------------------------------------------------

def run(params: dict) -> int:
    """``view``'s body, from its command line (:data:`COMMAND`)."""
    context, xacro = inspection_inputs(params)
    return stdout_checked_code(COMMAND.prog, lambda: view_command(
        params["files"], params["output"], params["png"], context, params["quiet"],
        params["tol"], params["configurations"], params["seed"], xacro=xacro))


COMMAND = Command(
    prog="urdf-sdf", name="view", run=run,
    help="Write an interactive 3D page of a robot (one self-contained HTML file, offline): "
         "shapes, frames, joint axes, the kinematic tree, a joint slider; with two files, "
         "both overlaid and every difference `urdf-sdf diff` reports highlighted. Needs the "
         "view extra: " + VIEW_HINT + ".",
    arguments=(Argument("files", "SDFormat, URDF or xacro file (with --xacro; '-': standard "
                                 "input); a second file is overlaid on the first and their "
                                 "differences highlighted", many=True, metavar="FILE [FILE]"),),
    options=(OUTPUT.with_help("Write the HTML page here (atomically); stdout without -o and "
                              "--png."),
             Option(("--png",), "png", Path, help="Also write a still picture (PNG, isometric "
                                                  "view), taken by headless Chromium."),
             *comparison_options("With two files: diff's tolerance (a finite number >= 0).",
                                 "With two files: diff's random joint configurations.",
                                 "With two files: diff's seed."),
             *PACKAGES, QUIET, STRICT, PATH, *XACRO))
