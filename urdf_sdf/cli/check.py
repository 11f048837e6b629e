"""``urdf-sdf check``: validate files, and optionally their URDF parity and meshes.

Each file's diagnostics, then its line (``FILE: valid``, ``FILE: invalid (N errors)``,
``FILE: URDF parity holds for model [M]``); after several files, ``N of M files valid``.

The command's options, declared once (:data:`COMMAND`), and its body (:func:`run`), which
a plain ``urdf-sdf check FILE...`` runs without typer, as fast as a conversion (a CI job
checks one file per process).
"""
from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command, Option, UsageError
from urdf_sdf.cli.inputs import is_stdin, label, load_input
from urdf_sdf.cli.options import (
    FILE_HELP,
    JSON,
    MODEL,
    PACKAGES,
    PATH,
    QUIET,
    STRICT,
    XACRO,
    inspection_inputs,
)
from urdf_sdf.cli.output import stdout_checked_code
from urdf_sdf.cli.render import SourceLines, diagnostic_json, emit, print_json, visible
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Diagnostics, Severity
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.inspect.parity import check_parity
from urdf_sdf.core.inspect.physics import physics_findings
from urdf_sdf.core.inspect.resources import check_meshes
from urdf_sdf.core.inspect.rules import source_rules

PROG = "urdf-sdf"


def usage_problem(files: Sequence[Path], model: str | None) -> str | None:
    """Why ``check`` cannot take these arguments (a usage error), or None."""
    if sum(is_stdin(f) for f in files) > 1:
        return "standard input ('-') can be named once"
    if model is not None and len(files) > 1:
        return "--model names a model of one file: check one file"
    return None


def check_files(files: Sequence[Path], urdf_parity: bool, model: str | None, meshes: bool,
                as_json: bool, quiet: bool, context: Context,
                xacro: XacroOptions | None = None,
                physics: dict[str, float] | None = None) -> int:
    """Check each file in turn; the worst exit code (0 all pass, 1 one does not, 2 a
    world without ``--model``). ``xacro``: whether (and how) a .xacro file is expanded;
    ``physics``: with the physics tier, the payloads (link -> kg) it hangs on links."""
    codes = [check_file(f, urdf_parity, model, as_json, quiet, meshes, context, xacro, physics)
             for f in files]
    if len(files) > 1 and not as_json:
        print(total_line(codes.count(0), len(files), urdf_parity))
    return max(codes)


def total_line(passed: int, checked: int, urdf_parity: bool) -> str:
    """The last line of a check of several files: ``2 of 3 files valid``."""
    return f"{passed} of {checked} files valid" + (" with URDF parity" if urdf_parity else "")


def verdict_line(name: str, errors: int) -> str:
    """A file's line: ``robot.urdf: valid``, ``robot.urdf: invalid (2 errors)``."""
    if not errors:
        return f"{escape(name)}: valid"
    return f"{escape(name)}: invalid ({errors} error{'s' if errors != 1 else ''})"


def check_file(file: Path, urdf_parity: bool, model: str | None, as_json: bool,
               quiet: bool, meshes: bool, context: Context,
               xacro: XacroOptions | None = None,
               physics: dict[str, float] | None = None) -> int:
    """``check`` of one file; its exit code."""
    sources = SourceLines()
    result = load_input(file, context, sources, xacro)
    if result.ok:
        found = Diagnostics()
        source_rules(result.document, found)
        result.diagnostics.extend(result.policy.apply(found))
    if meshes and result.ok:
        result.diagnostics.extend(result.policy.apply(check_meshes(result, context)))
    if physics is not None and result.ok:
        result.diagnostics.extend(result.policy.apply(physics_findings(result, physics)))
    name = label(file)
    summary = {"ok": result.ok, "file": name, "valid": result.ok,
               "diagnostics": [diagnostic_json(d, sources)
                               for d in visible(result.diagnostics, quiet)],
               "parity": None}
    if not as_json:
        emit(result.diagnostics, sys.stdout, sources, quiet)
    if not result.ok or not urdf_parity:
        if as_json:
            print_json(summary)
        else:
            print(verdict_line(name, 0 if result.ok else _error_count(result.diagnostics)))
        return 0 if result.ok else 1
    problem = parity_scope_problem(result, model, name)
    if problem is not None:
        print(problem.format(), file=sys.stderr)
        return 1 if model is None and problem.code is Code.ELEMENT_MISSING else 2
    scope = model_scope(result, model)
    report = check_parity(result, scope)
    if as_json:
        summary["ok"] = report.holds
        summary["parity"] = {"model": report.model, "holds": report.holds,
                             "findings": [diagnostic_json(f, sources)
                                          for f in report.findings]}
        print_json(summary)
    else:
        emit(report.findings, sys.stdout, sources)
        verdict = "holds" if report.holds else \
            f"does not hold ({len(report.findings)} findings)"
        print(f"{escape(name)}: URDF parity {verdict} for model [{escape(report.model)}]")
    return 0 if report.holds else 1


def _error_count(diagnostics: Sequence[Diagnostic]) -> int:
    """How many errors an invalid file has (at least one: it is invalid)."""
    return max(1, sum(d.is_error for d in diagnostics))


def parity_scope_problem(result, model: str | None, file: str) -> Diagnostic | None:
    """Why URDF parity cannot be checked for ``model`` of ``result`` (None when it can):
    no model at all (ELEMENT_MISSING: the input's fault, exit 1), no model of the name
    ``--model`` gives (ELEMENT_MISSING, a usage error), or a world of several models and
    no ``--model`` (MODEL_AMBIGUOUS, a usage error)."""
    if result.graph is not None and result.graph.root is not None and \
            model_scope(result, model) is not None:
        return None
    count = len(world_models(result, None))
    if model is not None:
        message = f"--model {model}: the file has no such model"
    elif count == 0:
        message = "the file holds no model to check for URDF parity"
    else:
        return Diagnostic(Code.MODEL_AMBIGUOUS, Severity.ERROR, f"the world holds {count} "
                          "models: choose the one to check with --model", file)
    return Diagnostic(Code.ELEMENT_MISSING, Severity.ERROR, message, file)


def world_models(result, name: str | None) -> list:
    """The models of a world ``result`` (named ``name``, when given)."""
    graph = result.graph
    if graph is None or graph.root is None or not graph.root.is_world:
        return []
    model = Kind.MODEL
    return [graph.vertices[v] for v in graph.root.vertices
            if graph.vertices[v].kind is model and (name is None or
                                                    graph.vertices[v].name == name)]


def model_scope(result, name: str | None):
    """The scope of the model to check: the file's model, or the world's one model (named
    ``name``, when given); None when that is not one model."""
    graph = result.graph
    if graph is None or graph.root is None:
        return None
    if not graph.root.is_world:
        return graph.root
    models = world_models(result, name)
    return models[0].inner if len(models) == 1 else None


def run(params: dict) -> int:
    """``check``'s body: the exit code (a usage error raises :class:`UsageError` before
    any file is read)."""
    files = params["files"]
    problem = usage_problem(files, params["model"])
    if params["payload"] and not params["physics"]:
        problem = "--payload needs --physics"
    if problem is not None:
        raise UsageError(problem)
    context, xacro = inspection_inputs(params)
    physics = payloads(params["payload"]) if params["physics"] else None
    return stdout_checked_code(PROG, lambda: check_files(
        files, params["urdf_parity"], params["model"], params["meshes"], params["as_json"],
        params["quiet"], context, xacro, physics))


def payload_problem(text: str | None) -> str | None:
    """Why a ``--payload`` value is not ``LINK=KG`` with a finite mass >= 0, or None."""
    if text is None:  # not given
        return None
    link, _, mass = text.rpartition("=")
    if not link:
        return f"[{text}] is not LINK=KG (a link name and a mass in kg)"
    try:
        value = float(mass)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        return f"[{text}]: the mass [{mass}] is not a finite number >= 0 (kg)"
    return None


def payloads(texts) -> dict[str, float]:
    """``--payload LINK=KG`` values (checked by :func:`payload_problem`), summed per link."""
    masses: dict[str, float] = {}
    for text in texts or ():
        link, _, mass = text.rpartition("=")
        masses[link] = masses.get(link, 0.0) + float(mass)
    return masses


COMMAND = Command(
    prog=PROG, name="check", run=run,
    help="Validate files; print diagnostics as file:line: error[CODE]: message and the "
         "source line. Exit 0 when every file passes, 1 when one does not, 2 on a usage "
         "error.",
    arguments=(Argument("files", FILE_HELP + "; several files are checked one after the "
                                             "other", many=True, metavar="FILE..."),),
    options=(
        Option(("--urdf-parity",), "urdf_parity", default=False,
               help="Also check that the model converts to URDF by copying xyz/rpy text "
                    "(exit 0 when it does)."),
        MODEL.with_help("With --urdf-parity: the model of a world."),
        Option(("--meshes",), "meshes", default=False,
               help="Also check that every mesh resolves to a mesh file (STL, OBJ, COLLADA, "
                    "glTF, GLB by content)."),
        Option(("--physics",), "physics", default=False,
               help="Also check what a simulator will choke on: massless moving links, "
                    "zero or implausible inertia, negative limits, non-unit axes, zero mesh "
                    "scales, efforts too low to hold the links below against gravity, "
                    "mimic cycles (warnings; --strict makes them errors)."),
        Option(("--payload",), "payload", str, default=None, repeated=True, metavar="LINK=KG",
               check=payload_problem,
               help="With --physics: a payload of KG kg at link LINK's frame, which the "
                    "joints above it must hold too (repeatable)."),
        *PACKAGES,
        JSON.with_help("Print one JSON object per file, one per line, for machines: {ok, "
                       "file, valid, diagnostics, parity} (schema: "
                       "urdf_sdf/schemas/check.schema.json)."),
        QUIET, STRICT, PATH, *XACRO))
