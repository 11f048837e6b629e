"""``urdf-sdf frames``, ``print``, ``graph`` and ``diff``: each command's options, declared
once (:data:`FRAMES`, :data:`PRINT`, :data:`GRAPH`, :data:`DIFF`), and its body, which a
plain command line runs without typer (:mod:`urdf_sdf.cli.quick`), so that a pipeline that
prints, poses, draws or compares one file per process does not wait for typer's import.
The work itself is :func:`frames_code`, :func:`print_code`, :func:`graph_code` and
:func:`diff_code`; the diff (and numpy) is imported when ``diff`` runs.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from urdf_sdf.cli.declare import Argument, Command, Option, UsageError
from urdf_sdf.cli.graph import graph_command
from urdf_sdf.cli.inputs import is_stdin, label, load_input
from urdf_sdf.cli.options import (
    FILE_HELP,
    JSON,
    MODEL,
    OUTPUT,
    PATH,
    QUIET,
    STRICT,
    XACRO,
    comparison_options,
    inspection_context,
    inspection_inputs,
    xacro_choice,
)
from urdf_sdf.cli.output import (
    OutputError,
    StdoutError,
    stdout_checked_code,
    write_failed,
    write_output,
)
from urdf_sdf.cli.printing import print_document
from urdf_sdf.cli.render import SourceLines, emit, print_json
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.inspect.report import frames_report, model_vertex
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.core.write.dot import GraphKind

PROG = "urdf-sdf"
_DIFF = Later({"diff_loaded": ("urdf_sdf.core.diff.compare", "diff_loaded")})


def frames_code(file: Path, as_json: bool, quiet: bool, model: str | None,
                context: Context, xacro: XacroOptions | None = None) -> int:
    """``frames``: print the pose of every link, joint, frame and nested model relative to
    the root (of ``model``, when given); the exit code."""
    sources = SourceLines()
    result = load_input(file, context, sources, xacro)
    if model is not None and result.graph is not None and \
            model_vertex(result.graph, model) is None:
        print(f"{escape(label(file))}: error[ELEMENT_MISSING]: --model {escape(model)}: the "
              "file has no such model", file=sys.stderr)
        return 1
    report = frames_report(result, model)
    if as_json:
        print_json(report)
    else:
        emit(result.diagnostics, sys.stderr, sources, quiet)
        print(format_table(report))
    return 0 if result.ok else 1


def format_table(report: dict) -> str:
    """``frames``' table: one row per pose (kind, name, position, quaternion)."""
    rows: list[tuple[str, ...]] = [("kind", "name", "x", "y", "z", "qw", "qx", "qy", "qz")]
    for section in ("models", "links", "joints", "frames"):
        for name, pose in report[section].items():
            rows.append((section[:-1], escape(name), *(f"{v:.6g}" for v in pose)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                     for row in rows)


def print_code(file: Path, output: Path | None, preserve_includes: bool,
               context: Context) -> int:
    """``print``: write the composed document (stdout, or ``output`` atomically) and its
    diagnostics (stderr); the exit code."""
    read: set[str] = set()
    data, diagnostics = print_document(file, context, preserve_includes, read)
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=sys.stderr)
    if data is None:
        return 1
    destination = str(output) if output else None
    try:
        write_output(data, destination, [str(file), *sorted(read)], through_links=True)
    except OutputError as exc:  # the input (exit 1), a directory (a usage error)
        print(exc.diagnostic(destination).format(), file=sys.stderr)
        return exc.exit_code
    except (StdoutError, BrokenPipeError):
        raise  # the caller's stdout check reports them
    except OSError as exc:  # disk full, permissions: the old file is intact
        print(write_failed(exc, destination).format(), file=sys.stderr)
        return 1
    return 0


def graph_code(file: Path, kind: str, output: Path | None, quiet: bool, strict: bool,
               paths: Sequence[Path] | None, xacro: XacroOptions | None = None) -> int:
    """``graph``: :func:`urdf_sdf.cli.graph.graph_command` with the command line's
    loading (standard input, xacro) and diagnostics (with their source lines)."""
    sources = SourceLines()

    def load(_file: object, _paths: object) -> LoadResult:  # graph_command's file, paths
        return load_input(file, inspection_context(paths, strict), sources, xacro)

    def report(result: object, stream: object) -> None:  # what load returned
        emit(cast(LoadResult, result).diagnostics, stream, sources, quiet)

    return graph_command(file, kind, output, paths, loader=load, report=report)


def diff_usage_problem(a: Path, b: Path) -> str | None:
    """Why ``diff`` cannot take these two files (a usage error), or None."""
    if is_stdin(a) and is_stdin(b):
        return "only one of A and B can be '-' (standard input)"
    return None


def diff_code(a: Path, b: Path, tol: float, configurations: int, seed: int,
              model: str | None, as_json: bool, context: Context,
              xacro: XacroOptions | None = None) -> int:
    """``diff``: print the differences of ``a`` and ``b`` and whether they are equivalent;
    the exit code (0 equivalent, 1 not)."""
    sources = SourceLines()
    notes: list = []  # warnings: a mesh compared by samples (MESH_SAMPLED)
    # One file loaded at a time: A's model is gone before B is read.
    differences = _DIFF.diff_loaded(lambda: load_input(a, context, sources, xacro),
                                    lambda: load_input(b, context, sources, xacro),
                                    tol, configurations, seed, model, notes)
    emit(dict.fromkeys(notes), sys.stderr, sources)  # a mesh both sides name: once
    if as_json:
        print_json({"equivalent": not differences,
                    "differences": [d.to_json() for d in differences]})
    else:
        for difference in differences:
            print(difference.format())
        print(f"{escape(label(a))} and {escape(label(b))} are "
              + ("equivalent" if not differences else
                 f"different ({len(differences)} differences)"))
    return 0 if not differences else 1


def frames(params: dict) -> int:
    """``frames``' body."""
    context, xacro = inspection_inputs(params)
    return stdout_checked_code(PROG, lambda: frames_code(
        params["file"], params["as_json"], params["quiet"], params["model"], context, xacro))


def diff(params: dict) -> int:
    """``diff``'s body (a usage error raises :class:`UsageError` before any file is
    read)."""
    a, b = params["a"], params["b"]
    problem = diff_usage_problem(a, b)
    if problem is not None:
        raise UsageError(problem)
    context, xacro = inspection_inputs(params)
    return stdout_checked_code(PROG, lambda: diff_code(
        a, b, params["tol"], params["configurations"], params["seed"], params["model"],
        params["as_json"], context, xacro))


def print_(params: dict) -> int:
    """``print``'s body."""
    context = inspection_context(params["path"], params["strict"])
    return stdout_checked_code(PROG, lambda: print_code(
        params["file"], params["output"], params["preserve_includes"], context))


def graph(params: dict) -> int:
    """``graph``'s body."""
    xacro = xacro_choice(params)
    return stdout_checked_code(PROG, lambda: graph_code(
        params["file"], params["kind"], params["output"], params["quiet"], params["strict"],
        params["path"], xacro))


FILE = Argument("file", FILE_HELP)
FRAMES = Command(
    prog=PROG, name="frames", run=frames,
    help="Print the pose of every link, joint, frame and nested model relative to the root.",
    arguments=(FILE,),
    options=(JSON, QUIET, STRICT,
             MODEL.with_help("Only this model (its scoped name, e.g. one of a world's), posed "
                             "in its frame."),
             PATH, *XACRO))
DIFF = Command(
    prog=PROG, name="diff", run=diff,
    help="Compare two robot descriptions; exit 0 when they are equivalent, 1 when not "
         "(with --strict, a description that loads with warnings does not load).",
    arguments=(Argument("a", "First description (URDF or SDFormat; '-': standard input)"),
               Argument("b", "Second description (URDF or SDFormat; '-': standard input)")),
    options=(*comparison_options("Tolerance (metres, radians, kg...): a number >= 0.",
                                 "Random joint configurations to compare.",
                                 "Seed of the random configurations."),
             MODEL.with_help("Compare this model (its scoped name) of each file that holds "
                             "it; a file that is one model (a URDF) is compared whole."),
             JSON, STRICT, PATH, *XACRO))
PRINT = Command(
    prog=PROG, name="print", run=print_,
    help="Print the composed model as one SDFormat file, every <include> inlined (like "
         "`gz sdf -p`); diagnostics go to stderr.",
    arguments=(Argument("file", "SDFormat or URDF file"),),
    options=(OUTPUT.with_help("Write here (atomically) instead of stdout."),
             Option(("--preserve-includes",), "preserve_includes", default=False,
                    help="Keep <include> elements instead of inlining the models."),
             STRICT, PATH))
GRAPH = Command(
    prog=PROG, name="graph", run=graph,
    help="Write the kinematic tree (links and joints; --kind for the frame graphs) as "
         "Graphviz DOT; -o FILE.svg/.png/.pdf renders it with Graphviz's dot program.",
    arguments=(FILE,),
    options=(Option(("--kind", "-k"), "kind", GraphKind, default=GraphKind.tree,
                    help="tree (the default, for every input: the kinematic tree), or the "
                         "frame graphs: attached_to, relative_to or both."),
             OUTPUT.with_help("Write here instead of stdout: .dot or .gv for DOT text; .svg, "
                              ".png or .pdf rendered by Graphviz's dot program."),
             QUIET, STRICT, PATH, *XACRO))
