"""``urdf2sdf``: convert URDF to SDFormat.

Inputs: a URDF file, ``-`` (standard input), a ``*.xacro`` file (expanded with the
optional ``xacro`` package, ``pip install 'urdf-sdf[xacro]'``; ``--xacro-arg
name:=value`` passes arguments), or a directory (batch, with ``-o OUTDIR``).

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
converted (also: xacro is needed but not installed, ``error[XACRO_UNAVAILABLE]``; in a
batch, any file failed), 2 usage error. Diagnostics go to stderr as
``file:line[:col]: severity[CODE]: message`` with the source line under them (``--quiet``:
errors only); the SDF goes to stdout (also ``-o -``) or, atomically, to ``-o FILE``.
``--json`` prints ``{"ok", "output", "diagnostics"}`` (and ``"document"`` without
``-o FILE``) on stdout instead; for a batch, see :func:`core.cli.batch.batch_json`.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import List, Optional

import typer

from urdf_sdf.core.cli.batch import BatchItem, check_batch_output, run_batch, walk
from urdf_sdf.core.cli.conversion import finish_conversion, written_to
from urdf_sdf.core.cli.crash import run_command
from urdf_sdf.core.cli.inputs import (XACRO_HINT, is_stdin, is_xacro, load_input, parse_xacro_args,
                                      xacro_available)
from urdf_sdf.core.cli.options import (CONVERTER_JSON_OPTION, QUIET_OPTION, STRICT_OPTION,
                                       XACRO_ARG_OPTION, policy, version_option)
from urdf_sdf.core.cli.render import SourceLines
from urdf_sdf.core.context import Context
from urdf_sdf.urdf2sdf.convert import Options, convert_urdf

app = typer.Typer(add_completion=False, help="Convert URDF to SDFormat.")

PROG = "urdf2sdf"
XACRO_SUFFIX = ".urdf.xacro"


def convert_file(path: Path, options: Options, mappings: dict[str, str],
                 sources: SourceLines, context: Context | None = None):
    """Load (``-``, xacro or file) and convert: ``(sdf bytes or None, diagnostics)``."""
    result = load_input(path, context if context is not None else Context(), sources, mappings)
    conversion = convert_urdf(result, options)
    return (conversion.xml if conversion.ok else None), conversion.diagnostics


def convert_item(item: BatchItem, sources: SourceLines, options: Options,
                 mappings: dict[str, str], context: Context, out_dir: Path):
    """One file of a batch (module level: worker processes receive it by name)."""
    return convert_file(item.source, written_to(options, out_dir / item.output), mappings,
                        sources, context)


def discover(root: Path, out_dir: Path, xacro: bool | None = None) -> list[BatchItem]:
    """The URDF files under ``root``: ``*.urdf`` and ``*.urdf.xacro`` (skipped, with the
    reason, when the xacro package is missing), each to ``NAME.sdf`` at the same relative
    place. When ``robot.urdf`` and ``robot.urdf.xacro`` sit side by side, the xacro file
    (the source) is converted and the .urdf skipped."""
    xacro = xacro_available() if xacro is None else xacro
    items: list[BatchItem] = []
    for path in walk(root, exclude=out_dir):
        relative = path.relative_to(root)
        name = path.name.lower()
        if name.endswith(XACRO_SUFFIX):
            output = relative.with_name(path.name[:-len(XACRO_SUFFIX)] + ".sdf")
            skip = None if xacro else ("not expanded: the xacro package is not installed "
                                       f"({XACRO_HINT})")
            items.append(BatchItem(path, relative, output, skip))
        elif name.endswith(".urdf"):
            items.append(BatchItem(path, relative, relative.with_suffix(".sdf")))
    by_output: dict[Path, list[BatchItem]] = {}
    for item in items:
        if item.skip is None:
            by_output.setdefault(item.output, []).append(item)
    for output, group in by_output.items():
        if len(group) > 1:
            keep = next((i for i in group if is_xacro(i.source)), group[0])
            for item in group:
                if item is not keep:
                    item.skip = f"{keep.relative} converts to the same {output}"
    return items


@app.command()
def main_command(
        urdf: Path = typer.Argument(..., help="URDF file, '-' for standard input, a "
                                              ".urdf.xacro file, or a directory (with -o "
                                              "OUTDIR: converts every .urdf and .urdf.xacro)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout "
                                                   "('-': stdout); for a directory input, the "
                                                   "output directory."),
        relative: bool = typer.Option(False, "--relative",
                                      help="Joint poses relative_to the parent link and child "
                                           "links at their joint, xyz/rpy copied from the URDF."),
        sdf_version: Optional[str] = typer.Option(None, "--sdf-version",
                                                  help="SDFormat version to write (default: the "
                                                       "lowest that expresses the result)."),
        lump_fixed: bool = typer.Option(False, "--lump-fixed",
                                        help="Merge fixed-joint children into their parent."),
        fix_inertia: bool = typer.Option(False, "--fix-inertia",
                                         help="Repair inertia tensors libsdformat refuses "
                                              "(raise the smallest principal moment until "
                                              "the triangle inequality holds)."),
        uri_scheme: str = typer.Option("package", "--uri-scheme",
                                       help="'package' keeps package:// mesh URIs; 'model' "
                                            "rewrites them to model://."),
        xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
        as_json: bool = CONVERTER_JSON_OPTION,
        quiet: bool = QUIET_OPTION,
        strict: bool = STRICT_OPTION,
        jobs: int = typer.Option(1, "-j", "--jobs", min=0,
                                 help="Worker processes for a directory input (0: every core; "
                                      "default 1: one file after the other)."),
        version: bool = version_option(PROG),
) -> None:
    """Convert URDF to SDFormat."""
    # A URDF's XML is needed only where the model does not hold its content (the reader
    # keeps that), except by --lump-fixed, which reparents joints' XML.
    context = Context(policy=policy(strict), keep_xml=lump_fixed)
    if uri_scheme not in ("package", "model"):
        raise typer.BadParameter("--uri-scheme is 'package' or 'model'")
    options = Options(relative=relative, sdf_version=sdf_version, lump_fixed=lump_fixed,
                      uri_scheme=uri_scheme, fix_inertia=fix_inertia)
    mappings = parse_xacro_args(xacro_arg)
    if not is_stdin(urdf) and urdf.is_dir():
        out_dir = check_batch_output(output, PROG)
        items = discover(urdf, out_dir)
        code = run_batch(
            items, out_dir,
            partial(convert_item, options=options, mappings=mappings, context=context,
                    out_dir=out_dir),
            prog=PROG, quiet=quiet, as_json=as_json, jobs=jobs or None)
        raise typer.Exit(code)
    sources = SourceLines()
    data, diagnostics = convert_file(urdf, written_to(options, output), mappings, sources,
                                     context)
    raise typer.Exit(finish_conversion(PROG, urdf, data, diagnostics, output, sources,
                                       quiet, as_json))


def main() -> None:
    run_command(PROG, app)


if __name__ == "__main__":
    main()
