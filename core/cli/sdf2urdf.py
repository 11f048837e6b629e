"""``sdf2urdf``: convert an SDFormat model to URDF.

Inputs: an SDFormat file, ``-`` (standard input), a ``*.xacro`` file (expanded with the
optional ``xacro`` package), or a directory (batch, with ``-o OUTDIR``: every ``*.sdf``;
in a model directory, the file its ``model.config`` names for the newest SDFormat
version; each model directory's parent is searched for ``model://`` includes).

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
expressed in URDF (in a batch: any file failed), 2 usage error. Diagnostics go to
stderr as ``file:line[:col]: severity[CODE]: message`` with the source line under them
(``--quiet``: errors only); the URDF goes to stdout (also ``-o -``) or, atomically, to
``-o FILE``. ``--json`` prints ``{"ok", "output", "diagnostics"}`` (and ``"document"``
without ``-o FILE``) on stdout instead.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import List, Optional

import typer

from urdf_sdf.core.cli.batch import BatchItem, check_batch_output, run_batch, walk
from urdf_sdf.core.cli.conversion import finish_conversion, written_to
from urdf_sdf.core.cli.crash import run_command
from urdf_sdf.core.cli.inputs import is_stdin, load_input, parse_xacro_args
from urdf_sdf.core.cli.options import (CONVERTER_JSON_OPTION, QUIET_OPTION, STRICT_OPTION,
                                       XACRO_ARG_OPTION, policy, version_option)
from urdf_sdf.core.cli.render import SourceLines
from urdf_sdf.core.compose.uri import model_config_files
from urdf_sdf.core.context import Context
from urdf_sdf.sdf2urdf.convert import Options, convert_sdf

app = typer.Typer(add_completion=False, help="Convert SDFormat to URDF.")

PROG = "sdf2urdf"


def convert_file(path: Path, options: Options, context: Context, mappings: dict[str, str],
                 sources: SourceLines):
    """Load (``-``, xacro or file) and convert: ``(urdf bytes or None, diagnostics)``."""
    # The reader keeps the XML sdf2urdf copies (what the model does not hold), no more.
    result = load_input(path, replace(context, keep_xml=False), sources, mappings)
    conversion = convert_sdf(result, options)
    return (conversion.xml if conversion.ok else None), conversion.diagnostics


def convert_item(item: BatchItem, sources: SourceLines, options: Options,
                 mappings: dict[str, str], context: Context, out_dir: Path):
    """One file of a batch (module level: worker processes receive it by name)."""
    return convert_file(item.source, written_to(options, out_dir / item.output), context,
                        mappings, sources)


def discover(root: Path, out_dir: Path) -> tuple[list[BatchItem], list[Path]]:
    """The SDFormat files under ``root`` (each to ``NAME.urdf`` at the same relative place)
    and the ``model://`` search directories (the parents of model directories). In a model
    directory the other versions its model.config lists are skipped."""
    files = walk(root, exclude=out_dir)
    chosen: dict[Path, Path] = {}
    others: set[Path] = set()
    model_parents: list[Path] = []
    for path in files:
        if path.name == "model.config":
            if path.parent.parent not in model_parents:
                model_parents.append(path.parent.parent)
            listed = model_config_files(path)
            if listed:
                chosen[path.parent] = listed[0]
                others.update(listed[1:])
    items = []
    for path in files:
        if not path.name.lower().endswith(".sdf"):
            continue
        relative = path.relative_to(root)
        skip = None
        if path in others:
            skip = (f"model.config picks {chosen[path.parent].name} "
                    "(a newer SDFormat version)")
        items.append(BatchItem(path, relative, relative.with_suffix(".urdf"), skip))
    return items, model_parents


@app.command()
def main_command(
        sdf: Path = typer.Argument(..., help="SDFormat file (model or world), '-' for standard "
                                             "input, or a directory (with -o OUTDIR)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout "
                                                   "('-': stdout); for a directory input, the "
                                                   "output directory."),
        model: Optional[str] = typer.Option(None, "--model",
                                            help="The model to convert from a world."),
        separator: str = typer.Option("::", "--separator",
                                      help="Joins nested model names into URDF names."),
        drop_frames: bool = typer.Option(False, "--drop-frames",
                                         help="Leave //frame elements out (with a warning)."),
        approximate: bool = typer.Option(False, "--approximate",
                                         help="Map ball, universal, revolute2, screw and gearbox "
                                              "joints to revolute joints (with a warning)."),
        uri_scheme: Optional[str] = typer.Option(None, "--uri-scheme",
                                                 help="'package' rewrites model:// mesh URIs to "
                                                      "package://."),
        path: Optional[List[Path]] = typer.Option(None, "--path", "-p",
                                                  help="Extra model:// search directory."),
        xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
        as_json: bool = CONVERTER_JSON_OPTION,
        quiet: bool = QUIET_OPTION,
        strict: bool = STRICT_OPTION,
        jobs: int = typer.Option(1, "-j", "--jobs", min=0,
                                 help="Worker processes for a directory input (0: every core; "
                                      "default 1: one file after the other)."),
        version: bool = version_option(PROG),
) -> None:
    """Convert SDFormat to URDF."""
    if uri_scheme not in (None, "package"):
        raise typer.BadParameter("--uri-scheme takes 'package'")
    options = Options(model=model, separator=separator, drop_frames=drop_frames,
                      approximate=approximate, uri_scheme=uri_scheme)
    mappings = parse_xacro_args(xacro_arg)
    extra = [str(p) for p in path or []]
    if not is_stdin(sdf) and sdf.is_dir():
        out_dir = check_batch_output(output, PROG)
        items, model_parents = discover(sdf, out_dir)
        context = Context.from_environment(extra + [str(p) for p in model_parents],
                                           policy(strict))
        code = run_batch(
            items, out_dir,
            partial(convert_item, options=options, mappings=mappings, context=context,
                    out_dir=out_dir),
            prog=PROG, quiet=quiet, as_json=as_json, jobs=jobs or None)
        raise typer.Exit(code)
    sources = SourceLines()
    data, diagnostics = convert_file(sdf, written_to(options, output),
                                     Context.from_environment(extra, policy(strict)), mappings,
                                     sources)
    raise typer.Exit(finish_conversion(PROG, sdf, data, diagnostics, output, sources,
                                       quiet, as_json))


def main() -> None:
    run_command(PROG, app)


if __name__ == "__main__":
    main()
