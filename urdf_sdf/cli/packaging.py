"""The command-line side of whole-directory outputs: ``urdf2sdf --model-dir OUT`` (a
Gazebo model directory, ``urdf2sdf.model_dir``) and ``sdf2urdf --package-dir OUT`` (a ROS
package, ``sdf2urdf.package_dir``). Each reports like one conversion: diagnostics on
stderr (or ``--json``: ``{"ok", "output", "diagnostics"}``, ``output`` being the directory
written; a write that fails or is refused is a diagnostic there too), exit 0 written, 1
invalid input or not written, 2 a usage error.

What they never do:

* copy a file from outside the input's own package or model directory and the search
  paths given on the command line, or a file that is not regular (``core.write.confined``;
  RESOURCE_OUTSIDE_PACKAGE, RESOURCE_NOT_REGULAR: nothing is written);
* replace an existing non-empty directory unless it is one they wrote (the marker comment
  in its ``model.config`` or ``package.xml``) and ``--force`` is given (``urdf_sdf.cli.directory``;
  OUTPUT_EXISTS); a batch's output folder is a container, never replaced itself;
* use a name from an input (a file's stem, a model's folder) that is empty, ``.``,
  ``..``, holds a separator or a control character, or starts with ``-`` as a path
  component (``urdf_sdf.cli.path_names``; renamed, NAME_RENAMED);
* print a name from the command line or an input raw in a usage error: control
  characters are escaped (``core.base.safe_text.escape``).
"""
from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from urdf_sdf.cli import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.cli.batch import BatchItem, print_totals, skip_irregular
from urdf_sdf.cli.conversion import print_report
from urdf_sdf.cli.declare import UsageError, version_line
from urdf_sdf.cli.directory import OutputExists, write_directory
from urdf_sdf.cli.inputs import is_stdin, load_input
from urdf_sdf.cli.options import package_mappings, policy
from urdf_sdf.cli.path_names import (
    renamed_output,
    safe_name,
    shown_name,
    unique_name,
    unsafe_reason,
)
from urdf_sdf.cli.render import SourceLines, diagnostic_json, emit, print_json, visible
from urdf_sdf.cli.sdf2urdf import discover as discover_sdf
from urdf_sdf.cli.urdf2sdf import discover as discover_urdf
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Diagnostics
from urdf_sdf.core.base.path_components import component_problem
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.compose.uri import model_config_files
from urdf_sdf.core.inspect.conversion_report import ConversionReport, conversion_report
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.core.read.files import system_reason
from urdf_sdf.core.write.bundle import tokenize_resources
from urdf_sdf.core.write.confined import copy_roots
from urdf_sdf.core.write.destination import OutputError
from urdf_sdf.core.write.ros_package import BUILD_TYPES, PACKAGE_NAME
from urdf_sdf.sdf2urdf.convert import ToUrdf, convert_sdf
from urdf_sdf.sdf2urdf.package_dir import PackageDirectory, ros_package
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf
from urdf_sdf.urdf2sdf.model_dir import ModelDirectory, model_directory


@dataclass(frozen=True)
class Target:
    """Where one conversion writes: ``directory``, with ``--force`` or not, inside the
    batch output folder ``container`` (None for one input); ``note`` a warning about its
    name (NAME_RENAMED) to report with the conversion."""
    directory: Path
    force: bool = False
    container: Path | None = None
    note: str | None = None


def convert_to_model_dir(prog: str, urdf: Path, target: Target, options: ToSdf,
                         xacro: XacroOptions | None, context: Context, search: list[str],
                         quiet: bool, as_json: bool, pipes: bool = True,
                         reports: list[ConversionReport] | None = None) -> int:
    """Convert ``urdf`` into the Gazebo model directory ``target``, copying meshes from
    the URDF's package and the ``search`` paths the user gave; the exit code. ``pipes``:
    a pipe at ``urdf`` is read (a FILE argument), not in a batch; ``reports``: the
    conversion's report is shown and appended to it (``--report``)."""
    sources = SourceLines()
    result = load_input(urdf, context, sources, xacro, pipes)
    tokens = tokenize_resources(result)
    # The URIs go through as tokens: the model directory rewrites each one.
    conversion = convert_urdf(result, replace(options, output_dir=None, uri_scheme="package"))
    diagnostics = _noted(target, urdf, conversion.diagnostics)
    directory = None
    sdf, version = conversion.xml, conversion.version
    if conversion.ok and sdf is not None and version is not None:
        roots = copy_roots(_input_file(result), search)
        directory = model_directory(result, sdf, version, target.directory, context,
                                    diagnostics, tokens, roots)
        diagnostics = result.policy.apply(diagnostics)
    return _finish(prog, urdf, target, directory, diagnostics, sources, quiet, as_json,
                   _reported(reports, result, diagnostics, sdf, "sdf"))


def convert_to_package_dir(prog: str, sdf: Path, target: Target, name: str, build_type: str,
                           options: ToUrdf, context: Context, search: list[str], quiet: bool,
                           as_json: bool, xacro: XacroOptions | None = None,
                           pipes: bool = True,
                           reports: list[ConversionReport] | None = None) -> int:
    """Convert ``sdf`` into the ROS package ``target`` named ``name``, copying meshes from
    the model's own directory and the ``search`` paths; the exit code. ``pipes``: a pipe
    at ``sdf`` is read (a FILE argument), not in a batch; ``reports``: as
    :func:`convert_to_model_dir`."""
    sources = SourceLines()
    result = load_input(sdf, context, sources, xacro, pipes)
    tokens = tokenize_resources(result)
    conversion = convert_sdf(result, replace(options, output_dir=None, uri_scheme=None))
    diagnostics = _noted(target, sdf, conversion.diagnostics)
    package = None
    if conversion.ok and conversion.xml is not None:
        roots = copy_roots(_input_file(result), search)
        package = ros_package(result, conversion.xml, name, build_type, context, diagnostics,
                              tokens, roots)
        diagnostics = result.policy.apply(diagnostics)
    return _finish(prog, sdf, target, package, diagnostics, sources, quiet, as_json,
                   _reported(reports, result, diagnostics, conversion.xml, "urdf"))


def _reported(reports: list[ConversionReport] | None, result: LoadResult,
              diagnostics: Diagnostics, document: bytes | None,
              target_format: str) -> ConversionReport | None:
    """The conversion's report, appended to ``reports``; None when not asked for."""
    if reports is None:
        return None
    report = conversion_report(result.document, diagnostics,
                               None if diagnostics.has_errors else document, target_format)
    reports.append(report)
    return report


def _input_file(result: LoadResult) -> str | None:
    """The file ``result`` was read from (None for standard input or no document)."""
    return result.document.file if result.document is not None else None


def _noted(target: Target, source: Path, found: Iterable[Diagnostic]) -> Diagnostics:
    """The conversion's diagnostics, after the target's NAME_RENAMED warning if any."""
    diagnostics = Diagnostics()
    if target.note is not None:
        diagnostics.warning_at(Code.NAME_RENAMED, target.note, None, str(source))
    diagnostics.extend(found)
    return diagnostics


def _finish(prog: str, source: Path, target: Target,
            directory: ModelDirectory | PackageDirectory | None, diagnostics: Diagnostics,
            sources: SourceLines, quiet: bool, as_json: bool,
            report: ConversionReport | None = None) -> int:
    """Write ``directory`` (its files and bundle) unless there are errors; report (with
    ``report``, the conversion report too). A write refused or failed is a diagnostic
    (OUTPUT_EXISTS, FILE_WRITE)."""
    ok = directory is not None and not diagnostics.has_errors
    code = 0 if ok else 1
    out_dir = target.directory
    if ok and directory is not None:
        try:
            write_directory(out_dir, directory.files, directory.bundle,
                            [*([] if is_stdin(source) else [str(source)]),
                             *sources.protected()],
                            writer=version_line(prog),
                            force=target.force, container=target.container)
        except OutputExists as exc:
            diagnostics.error_at(Code.OUTPUT_EXISTS, str(exc), None, str(out_dir))
            ok, code = False, 1
        except OutputError as exc:
            diagnostics.error_at(Code.FILE_WRITE, str(exc), None, str(out_dir))
            ok, code = False, 2
        except OSError as exc:
            diagnostics.error_at(Code.FILE_WRITE, f"cannot write {out_dir}: {system_reason(exc)}",
                                 None, str(out_dir))
            ok, code = False, 1
    if report is not None and not ok:
        report = report.not_written(diagnostics)
    if as_json:
        summary: dict[str, Any] = {"ok": ok, "output": str(out_dir) if ok else None,
                                   "diagnostics": [diagnostic_json(d, sources)
                                                   for d in visible(diagnostics, quiet)]}
        if report is not None:
            summary["report"] = report.to_json()
        print_json(summary)
    else:
        emit(diagnostics, sys.stderr, sources, quiet)
        if report is not None:
            print_report(report)
    return code


def ros_package_name(name: str) -> str:
    """``name`` made a ROS package name (REP 144): lower case, other characters ``_``, a
    letter first."""
    cleaned = re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_")
    return cleaned if cleaned[:1].isalpha() else f"robot_{cleaned}".rstrip("_")


def batch_targets(items: list[BatchItem], name_of: Callable[[BatchItem], str], fallback: str,
                  container: Path, force: bool,
                  normalise: Callable[[str], str] = lambda name: name) -> dict[int, Target]:
    """Each item's :class:`Target` under ``container``, by ``id(item)``: the folder named
    ``normalise(name_of(item))``; an unsafe name (``urdf_sdf.cli.path_names``) is renamed,
    apart from every other folder, with a note."""
    by_id = {id(item): item for item in items if item.skip is None}
    raw = {key: name_of(item) for key, item in by_id.items()}
    taken = {normalise(name) for name in raw.values() if unsafe_reason(name) is None}
    targets: dict[int, Target] = {}
    for key, name in raw.items():
        problem = unsafe_reason(name)
        folder = normalise(safe_name(name, fallback))
        note = None
        if problem is not None:
            folder = unique_name(folder, taken)
            taken.add(folder)
            note = (f"the output folder's name [{shown_name(name)}] {problem}: written to "
                    f"[{shown_name(folder)}] instead")
        renamed = renamed_output(by_id[key], container / folder)  # by discover
        targets[key] = Target(container / folder, force, container,
                              note or (renamed[0].message if renamed else None))
    return targets


def directory_batch(prog: str, items: list[BatchItem], targets: dict[int, Target],
                    convert_one: Callable[[BatchItem, Target], int], quiet: bool) -> int:
    """One output directory per input file (``--model-dir``/``--package-dir`` with a
    directory input): ``targets`` (:func:`batch_targets`) names it, ``convert_one(item,
    target)`` writes it and returns its exit code. Two inputs wanting one directory: the
    first has it, the other is skipped with the reason. Returns the batch's exit code (the
    worst)."""
    skip_irregular(items)  # a FIFO would block its read
    counts = {"converted": 0, "failed": 0, "skipped": 0}
    taken: dict[Path, Path] = {}
    code = 0
    for item in items:
        target = _batch_target(item, targets, taken)
        if isinstance(target, str):
            counts["skipped"] += 1
            if not quiet:
                print(f"{prog}: {shown_name(str(item.relative))}: skipped: {shown_name(target)}",
                      file=sys.stderr)
            continue
        folder = target.directory
        taken[folder] = item.relative
        result = convert_one(item, target)
        code = max(code, result)
        counts["converted" if result == 0 else "failed"] += 1
        if not quiet:
            print(f"{prog}: {shown_name(str(item.relative))} -> {shown_name(str(folder))}" +
                  ("" if result == 0 else " failed"), file=sys.stderr)
    print(f"{prog}: {counts['converted']} converted, {counts['failed']} failed, "
          f"{counts['skipped']} skipped", file=sys.stderr)
    return code


def _batch_target(item: BatchItem, targets: dict[int, Target],
                  taken: dict[Path, Path]) -> Target | str:
    """Where ``item`` of a batch is written, or why it is skipped: its own reason (given
    when it was found: then it has no target), or its folder taken by an earlier input
    (``taken``: folder -> that input)."""
    target = targets.get(id(item))
    if item.skip is not None or target is None:
        return item.skip or "no output folder was chosen for it"
    if target.directory in taken:
        return f"{taken[target.directory]} is written to {target.directory} already"
    return target


def model_dir_command(prog: str, urdf: Path, output: Path | None, model_dir: Path,
                      options: ToSdf, xacro: XacroOptions, package_paths: list[str],
                      strict: bool, quiet: bool, as_json: bool, force: bool = False,
                      packages: dict[str, str] | None = None, report: bool = False) -> int:
    """``urdf2sdf --model-dir``: one URDF, or one model directory per URDF of a tree.
    Meshes are copied from the URDF's package, the ``--package-path`` folders and (a
    batch) the input tree. ``report``: each file's conversion report (and a batch's total
    line, :func:`with_totals`)."""
    if output is not None:
        raise UsageError("--model-dir writes the model directory; -o is not used "
                                 "with it")
    model_name_problem(model_dir)
    context = Context.from_environment([], policy(strict), package_paths, packages)
    package_paths = package_paths + list((packages or {}).values())  # copy roots too
    reports: list[ConversionReport] | None = [] if report else None
    if not is_stdin(urdf) and os.path.isdir(urdf):  # side by side, where model:// finds them
        items = discover_urdf(urdf, model_dir, xacro.expand)
        context.inputs_within = os.path.realpath(urdf)
        search = package_paths + [str(urdf)]
        return with_totals(reports, as_json, directory_batch(
            prog, items, batch_targets(items, lambda item: item.output.stem, "model",
                                       model_dir, force),
            lambda item, target: convert_to_model_dir(prog, item.source, target, options,
                                                      xacro, context, search, quiet,
                                                      as_json, pipes=False, reports=reports),
            quiet))
    return convert_to_model_dir(prog, urdf, Target(model_dir, force), options, xacro,
                                context, package_paths, quiet, as_json, reports=reports)


def with_totals(reports: list[ConversionReport] | None, as_json: bool, code: int) -> int:
    """A batch's exit ``code``, after the total line of its reports (``--report``) on
    stderr."""
    if reports is not None and not as_json:
        print_totals(reports, sys.stderr)
    return code


def package_dir_command(prog: str, sdf: Path, output: Path | None, package_dir: Path,
                        package_name: str | None, build_type: str, options: ToUrdf,
                        paths: list[str], package_paths: list[str], strict: bool,
                        quiet: bool, as_json: bool, force: bool = False,
                        xacro: XacroOptions | None = None,
                        packages: dict[str, str] | None = None, report: bool = False) -> int:
    """``sdf2urdf --package-dir``: one model (a file, or a model directory's chosen file),
    or with a directory that is not a model directory, one package per model in it.
    Meshes are copied from the model's directory, the folder holding it (where its
    ``model://`` includes are found), ``-p/--path``, ``--package-path`` and (a batch) the
    input tree. ``report``: as :func:`model_dir_command`."""
    reports: list[ConversionReport] | None = [] if report else None
    if build_type not in BUILD_TYPES:
        raise UsageError(f"--build-type is one of {', '.join(BUILD_TYPES)}")
    if output is not None:
        raise UsageError("--package-dir writes the package; -o is not used with it")
    given = package_paths + list((packages or {}).values())  # copy roots
    if not is_stdin(sdf) and os.path.isdir(sdf) and not os.path.isfile(sdf / "model.config"):
        if package_name is not None:
            raise UsageError("--package-name names one package: convert one model")
        items, model_parents = discover_sdf(sdf, package_dir)
        context = Context.from_environment(paths + [str(p) for p in model_parents],
                                           policy(strict), package_paths, packages)
        context.read_roots.append(str(sdf))  # a file includes what its tree holds
        context.inputs_within = os.path.realpath(sdf)
        search = paths + given + [str(sdf)]
        return with_totals(reports, as_json, directory_batch(
            prog, items, batch_targets(items, lambda item: model_name(item.source), "robot",
                                       package_dir, force, ros_package_name),
            lambda item, target: convert_to_package_dir(
                prog, item.source, target, target.directory.name, build_type, options,
                context, search, quiet, as_json, xacro, pipes=False, reports=reports), quiet))
    name = package_name or package_dir.resolve().name
    if not PACKAGE_NAME.match(name):
        raise UsageError(f"[{escape(name)}] is not a ROS package name (lower case "
                                 "letters, digits, underscores; a letter first): give "
                                 "--package-name")
    source = sdf
    if not is_stdin(sdf) and os.path.isdir(sdf):
        files = model_config_files(sdf / "model.config", os.path.realpath(sdf))
        if not files:
            raise UsageError(f"{escape(str(sdf))} is not a model directory (no "
                                     "model.config naming an SDFormat file)")
        source = files[0]
    parents = [] if is_stdin(source) else [str(Path(source).resolve().parent.parent)]
    context = Context.from_environment(paths + parents, policy(strict), package_paths,
                                       packages)
    # A model directory's parent holds the models it includes (model://): a copy root.
    search = paths + given + \
        (parents if parents and os.path.isfile(Path(source).parent / "model.config") else [])
    return convert_to_package_dir(prog, source, Target(package_dir, force), name, build_type,
                                  options, context, search, quiet, as_json, xacro,
                                  reports=reports)


def model_name_problem(model_dir: Path) -> None:
    """A usage error when the folder ``--model-dir`` names cannot be a model's name, which
    ``model.config`` and every ``model://NAME`` URI hold as text (a control character, a
    byte that is not UTF-8: :func:`~urdf_sdf.core.base.path_components.component_problem`)."""
    name = model_dir.resolve().name
    problem = component_problem(name)
    if problem is not None:
        raise UsageError(f"the model directory's name [{shown_name(name)}] {problem}: "
                         "model.config and model:// URIs name the model by it; give "
                         "another folder", "--model-dir")


def model_name(source: Path) -> str:
    """A model's name for its package: its model directory's, else its file's stem."""
    return source.parent.name if os.path.isfile(source.parent / "model.config") else source.stem


# ---- the commands --------------------------------------------------------------------------

def model_dir_run(params: dict) -> int:
    """``urdf2sdf --model-dir``'s body."""
    options, expansion = urdf2sdf_app.prepared(params)
    return model_dir_command(urdf2sdf_app.PROG, params["urdf"], params["output"],
                             params["model_dir"], options, expansion,
                             [str(p) for p in params["package_path"] or []], params["strict"],
                             params["quiet"], params["as_json"], params["force"],
                             package_mappings(params["package"]), params["report"])


def package_dir_run(params: dict) -> int:
    """``sdf2urdf --package-dir``'s body."""
    options, expansion = sdf2urdf_app.prepared(params)
    return package_dir_command(
        sdf2urdf_app.PROG, params["sdf"], params["output"], params["package_dir"],
        params["package_name"], params["build_type"], options,
        [str(p) for p in params["path"] or []], [str(p) for p in params["package_path"] or []],
        params["strict"], params["quiet"], params["as_json"], params["force"], xacro=expansion,
        packages=package_mappings(params["package"]), report=params["report"])


# The converters' commands with these bodies (urdf_sdf.cli.quick.COMMANDS routes to them).
MODEL_DIR = replace(urdf2sdf_app.COMMAND, run=model_dir_run, routes=())
PACKAGE_DIR = replace(sdf2urdf_app.COMMAND, run=package_dir_run, routes=())
