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
    PACKAGES,
    PATH,
    PRINTED_OUTPUT,
    QUIET,
    STRICT,
    XACRO,
    comparison_options,
    inspection_context,
    inspection_inputs,
)
from urdf_sdf.cli.output import stdout_checked_code, write_reported
from urdf_sdf.cli.printing import print_document
from urdf_sdf.cli.render import SourceLines, emit, print_json
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.diff.difference import NOT_COMPARED
from urdf_sdf.core.diff.report import diff_report, summary
from urdf_sdf.core.inspect.report import frames_report, model_vertex
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.core.write.dot import GraphKind

PROG = "urdf-sdf"
NOT_COMPARED_EXIT = 3  # diff: a file that does not load, or holds no model to compare
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
    read = SourceLines()
    data, diagnostics = print_document(file, context, preserve_includes, read)
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=sys.stderr)
    if data is None:
        return 1
    return write_reported(data, output, [str(file), *read.protected()])


def graph_code(file: Path, kind: str, output: Path | None, quiet: bool, context: Context,
               paths: Sequence[Path] | None, xacro: XacroOptions | None = None) -> int:
    """``graph``: :func:`urdf_sdf.cli.graph.graph_command` with the command line's
    loading (standard input, xacro) and diagnostics (with their source lines)."""
    sources = SourceLines()

    def load(_file: object, _paths: object) -> LoadResult:  # graph_command's file, paths
        return load_input(file, context, sources, xacro)

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
              xacro: XacroOptions | None = None, show_all: bool = False,
              lumped: bool = False) -> int:
    """``diff``: print the causes of the differences of ``a`` and ``b`` (with ``show_all``,
    each followed by the differences that follow from it; with ``lumped``, one is the
    other's ``--lump-fixed`` output) and whether they are equivalent; the exit code (0
    equivalent, 1 different, 3 a file cannot be compared: its own diagnostics are
    printed)."""
    sources = SourceLines()
    notes: list = []  # warnings: a mesh compared by samples (MESH_SAMPLED)
    failures: list = []  # the diagnostics of a file that cannot be loaded

    def loaded(file: Path) -> LoadResult:
        result = load_input(file, context, sources, xacro)
        if not result.ok:
            failures.extend(result.diagnostics)
        return result

    # One file loaded at a time: A's model is gone before B is read.
    differences = _DIFF.diff_loaded(lambda: loaded(a), lambda: loaded(b),
                                    tol, configurations, seed, model, notes, lumped=lumped)
    emit(failures, sys.stderr, sources)
    emit(dict.fromkeys(notes), sys.stderr, sources)  # a mesh both sides name: once
    compared = not any(d.property == NOT_COMPARED for d in differences)
    if as_json:
        print_json({"equivalent": not differences, "compared": compared,
                    "summary": summary(differences),
                    "differences": [d.to_json() for d in differences]})
    else:
        for line in diff_report(differences, show_all):
            print(line)
        print(f"{escape(label(a))} and {escape(label(b))} " + (
            "cannot be compared" if not compared else "are equivalent" if not differences
            else f"are different ({summary(differences)})"))
    return 0 if not differences else 1 if compared else NOT_COMPARED_EXIT


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
        params["as_json"], context, xacro, params["show_all"], params["lumped"]))


def print_(params: dict) -> int:
    """``print``'s body."""
    context = inspection_context(params)
    return stdout_checked_code(PROG, lambda: print_code(
        params["file"], params["output"], params["preserve_includes"], context))


def graph(params: dict) -> int:
    """``graph``'s body."""
    context, xacro = inspection_inputs(params)
    return stdout_checked_code(PROG, lambda: graph_code(
        params["file"], params["kind"], params["output"], params["quiet"], context,
        params["path"], xacro))


FILE = Argument("file", FILE_HELP)
FRAMES = Command(
    prog=PROG, name="frames", run=frames,
    help="Print the pose of every link, joint, frame and nested model relative to the root.",
    arguments=(FILE,),
    options=(JSON, QUIET, STRICT,
             MODEL.with_help("Only this model (its scoped name, e.g. one of a world's), posed "
                             "in its frame."),
             PATH, *PACKAGES, *XACRO))
DIFF = Command(
    prog=PROG, name="diff", run=diff,
    help="Compare two robot descriptions: first what was edited (the causes), then how many "
         "differences follow from it (--all lists them). Exit 0 when equivalent, 1 when "
         "different, 3 when a file cannot be compared (it does not load: its errors are "
         "printed; with --strict, a description that loads with warnings does not load).",
    arguments=(Argument("a", "First description (URDF or SDFormat; '-': standard input)"),
               Argument("b", "Second description (URDF or SDFormat; '-': standard input)")),
    options=(*comparison_options("Tolerance (metres, radians, kg...): a finite number >= 0.",
                                 "Random joint configurations to compare.",
                                 "Seed of the random configurations."),
             MODEL.with_help("Compare this model (its scoped name) of each file that holds "
                             "it; a file that is one model (a URDF) is compared whole."),
             Option(("--all",), "show_all", default=False,
                    help="List every difference, each dependent one under its cause."),
             Option(("--lumped",), "lumped", default=False,
                    help="One file is the other's urdf2sdf --lump-fixed output: compare each "
                         "rigid group's summed mass, centre of mass and inertia with the link "
                         "it was merged into, and look for a frame of each lumped link and "
                         "joint."),
             JSON, STRICT, PATH, *PACKAGES, *XACRO))
PRINT = Command(
    prog=PROG, name="print", run=print_,
    help="Print the composed model as one SDFormat file, every <include> inlined (like "
         "`gz sdf -p`); diagnostics go to stderr.",
    arguments=(Argument("file", "SDFormat or URDF file"),),
    options=(PRINTED_OUTPUT,
             Option(("--preserve-includes",), "preserve_includes", default=False,
                    help="Keep <include> elements instead of inlining the models."),
             STRICT, PATH, *PACKAGES))
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
             QUIET, STRICT, PATH, *PACKAGES, *XACRO))
