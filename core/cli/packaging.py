"""The command-line side of whole-directory outputs: ``urdf2sdf --model-dir OUT`` (a
Gazebo model directory, ``urdf2sdf.model_dir``) and ``sdf2urdf --package-dir OUT`` (a ROS
package, ``sdf2urdf.package_dir``). Each reports like one conversion: diagnostics on
stderr (or ``--json``: ``{"ok", "output", "diagnostics"}``, ``output`` being the directory
written), exit 0 written, 1 invalid input or not written, 2 a usage error."""
from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import typer

from urdf_sdf.core.cli.directory import write_directory
from urdf_sdf.core.cli.inputs import is_stdin, load_input
from urdf_sdf.core.cli.options import policy
from urdf_sdf.core.cli.output import OutputError
from urdf_sdf.core.cli.render import SourceLines, diagnostic_json, emit, print_json, visible
from urdf_sdf.core.cli.sdf2urdf import discover as discover_sdf
from urdf_sdf.core.cli.urdf2sdf import discover as discover_urdf
from urdf_sdf.core.cli.xacro_expand import XacroOptions
from urdf_sdf.core.compose.uri import model_config_files
from urdf_sdf.core.context import Context
from urdf_sdf.core.diagnostics import Diagnostics
from urdf_sdf.core.write.bundle import tokenize_resources
from urdf_sdf.core.write.ros_package import BUILD_TYPES, PACKAGE_NAME
from urdf_sdf.sdf2urdf.convert import Options as ToUrdf
from urdf_sdf.sdf2urdf.convert import convert_sdf
from urdf_sdf.sdf2urdf.package_dir import ros_package
from urdf_sdf.urdf2sdf.convert import Options, convert_urdf
from urdf_sdf.urdf2sdf.model_dir import model_directory


def convert_to_model_dir(prog: str, urdf: Path, out_dir: Path, options: Options,
                         xacro: XacroOptions | None, context: Context, quiet: bool,
                         as_json: bool) -> int:
    """Convert ``urdf`` into the Gazebo model directory ``out_dir``; the exit code."""
    sources = SourceLines()
    result = load_input(urdf, context, sources, xacro)
    tokens = tokenize_resources(result)
    # The URIs go through as tokens: the model directory rewrites each one.
    conversion = convert_urdf(result, replace(options, output_dir=None, uri_scheme="package"))
    diagnostics = Diagnostics(conversion.diagnostics)
    directory = None
    if conversion.ok:
        directory = model_directory(result, conversion.xml, conversion.version, out_dir,
                                    context, diagnostics, tokens)
        diagnostics = result.policy.apply(diagnostics)
    return _finish(prog, urdf, out_dir, directory, diagnostics, sources, quiet, as_json)


def convert_to_package_dir(prog: str, sdf: Path, out_dir: Path, name: str, build_type: str,
                           options: ToUrdf, context: Context, quiet: bool,
                           as_json: bool, xacro: XacroOptions | None = None) -> int:
    """Convert ``sdf`` into the ROS package ``out_dir`` named ``name``; the exit code."""
    sources = SourceLines()
    result = load_input(sdf, context, sources, xacro)
    tokens = tokenize_resources(result)
    conversion = convert_sdf(result, replace(options, output_dir=None, uri_scheme=None))
    diagnostics = Diagnostics(conversion.diagnostics)
    package = None
    if conversion.ok:
        package = ros_package(result, conversion.xml, name, build_type, context, diagnostics,
                              tokens)
        diagnostics = result.policy.apply(diagnostics)
    return _finish(prog, sdf, out_dir, package, diagnostics, sources, quiet, as_json)


def _finish(prog: str, source: Path, out_dir: Path, directory, diagnostics: Diagnostics,
            sources: SourceLines, quiet: bool, as_json: bool) -> int:
    """Write ``directory`` (its files and bundle) unless there are errors; report."""
    ok = directory is not None and not diagnostics.has_errors
    code = 0 if ok else 1
    if ok:
        try:
            write_directory(out_dir, directory.files, directory.bundle,
                            [] if is_stdin(source) else [str(source)])
        except OutputError as exc:
            print(f"{prog}: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"{prog}: cannot write {out_dir}: {exc}", file=sys.stderr)
            ok, code = False, 1
    if as_json:
        print_json({"ok": ok, "output": str(out_dir) if ok else None,
                    "diagnostics": [diagnostic_json(d, sources)
                                    for d in visible(diagnostics, quiet)]})
    else:
        emit(diagnostics, sys.stderr, sources, quiet)
    return code


def ros_package_name(name: str) -> str:
    """``name`` made a ROS package name (REP 144): lower case, other characters ``_``, a
    letter first."""
    cleaned = re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_")
    return cleaned if cleaned[:1].isalpha() else f"robot_{cleaned}".rstrip("_")


def directory_batch(prog: str, items: list, target_of, convert_one, quiet: bool) -> int:
    """One output directory per input file (``--model-dir``/``--package-dir`` with a
    directory input): ``target_of(item)`` names it, ``convert_one(item, target)`` writes it
    and returns its exit code. Two inputs wanting one directory: the first has it, the
    other is skipped with the reason. Returns the batch's exit code (the worst)."""
    counts = {"converted": 0, "failed": 0, "skipped": 0}
    taken: dict[Path, Path] = {}
    code = 0
    for item in items:
        target = target_of(item)
        skip = item.skip or (f"{taken[target]} is written to {target} already"
                             if target in taken else None)
        if skip is not None:
            counts["skipped"] += 1
            if not quiet:
                print(f"{prog}: {item.relative}: skipped: {skip}", file=sys.stderr)
            continue
        taken[target] = item.relative
        result = convert_one(item, target)
        code = max(code, result)
        counts["converted" if result == 0 else "failed"] += 1
        if not quiet:
            print(f"{prog}: {item.relative} -> {target}" + ("" if result == 0 else " failed"),
                  file=sys.stderr)
    print(f"{prog}: {counts['converted']} converted, {counts['failed']} failed, "
          f"{counts['skipped']} skipped", file=sys.stderr)
    return code


def model_dir_command(prog: str, urdf: Path, output: Path | None, model_dir: Path,
                      options: Options, xacro: XacroOptions, package_paths: list[str],
                      strict: bool, quiet: bool, as_json: bool) -> int:
    """``urdf2sdf --model-dir``: one URDF, or one model directory per URDF of a tree."""
    if output is not None:
        raise typer.BadParameter("--model-dir writes the model directory; -o is not used "
                                 "with it")
    context = Context.from_environment([], policy(strict), package_paths)
    if not is_stdin(urdf) and urdf.is_dir():  # side by side, where model:// finds them
        return directory_batch(
            prog, discover_urdf(urdf, model_dir, xacro.expand),
            lambda item: model_dir / item.output.stem,
            lambda item, target: convert_to_model_dir(prog, item.source, target, options,
                                                      xacro, context, quiet, as_json),
            quiet)
    return convert_to_model_dir(prog, urdf, model_dir, options, xacro, context, quiet,
                                as_json)


def package_dir_command(prog: str, sdf: Path, output: Path | None, package_dir: Path,
                        package_name: str | None, build_type: str, options: ToUrdf,
                        paths: list[str], package_paths: list[str], strict: bool,
                        quiet: bool, as_json: bool, xacro: XacroOptions | None = None) -> int:
    """``sdf2urdf --package-dir``: one model (a file, or a model directory's chosen file),
    or with a directory that is not a model directory, one package per model in it."""
    if build_type not in BUILD_TYPES:
        raise typer.BadParameter(f"--build-type is one of {', '.join(BUILD_TYPES)}")
    if output is not None:
        raise typer.BadParameter("--package-dir writes the package; -o is not used with it")
    if not is_stdin(sdf) and sdf.is_dir() and not (sdf / "model.config").is_file():
        if package_name is not None:
            raise typer.BadParameter("--package-name names one package: convert one model")
        items, model_parents = discover_sdf(sdf, package_dir)
        context = Context.from_environment(paths + [str(p) for p in model_parents],
                                           policy(strict), package_paths)
        return directory_batch(
            prog, items, lambda item: package_dir / ros_package_name(model_name(item.source)),
            lambda item, target: convert_to_package_dir(prog, item.source, target, target.name,
                                                        build_type, options, context, quiet,
                                                        as_json, xacro), quiet)
    name = package_name or package_dir.resolve().name
    if not PACKAGE_NAME.match(name):
        raise typer.BadParameter(f"[{name}] is not a ROS package name (lower case letters, "
                                 "digits, underscores; a letter first): give --package-name")
    source = sdf
    if not is_stdin(sdf) and sdf.is_dir():
        files = model_config_files(sdf / "model.config")
        if not files:
            raise typer.BadParameter(f"{sdf} is not a model directory (no model.config naming "
                                     "an SDFormat file)")
        source = files[0]
    parents = [] if is_stdin(source) else [str(Path(source).resolve().parent.parent)]
    context = Context.from_environment(paths + parents, policy(strict), package_paths)
    return convert_to_package_dir(prog, source, package_dir, name, build_type, options,
                                  context, quiet, as_json, xacro)


def model_name(source: Path) -> str:
    """A model's name for its package: its model directory's, else its file's stem."""
    return source.parent.name if (source.parent / "model.config").is_file() else source.stem
