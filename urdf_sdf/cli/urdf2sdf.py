"""``urdf2sdf``: convert URDF to SDFormat.

Inputs: a URDF file, ``-`` (standard input), a ``*.xacro`` file (with ``--xacro`` only:
expanded in a restricted sandbox with the optional ``xacro`` package, the ``[xacro]``
extra; ``--xacro-arg name:=value`` passes arguments, ``--xacro-path DIR``
and ``--xacro-env`` widen what it may read; see :mod:`urdf_sdf.cli.xacro_expand`),
or a directory (batch, with ``-o OUTDIR``; ``-j N`` worker processes, every core by
default; ``*.urdf.xacro`` files are converted with ``--xacro`` only).

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
converted (also: xacro is needed but not installed, ``error[XACRO_UNAVAILABLE]``; in a
batch, any file failed), 2 usage error. Diagnostics go to stderr as
``file:line[:col]: severity[CODE]: message`` with the source line under them (``--quiet``:
errors only); the SDF goes to stdout (also ``-o -``) or, atomically, to ``-o FILE``.
``--json`` prints ``{"ok", "output", "diagnostics"}`` (and ``"document"`` without
``-o FILE``) on stdout instead; for a batch, see :func:`urdf_sdf.cli.batch.batch_json`.
``--report``: what the conversion changed (``core.inspect.conversion_report``), on stderr
after the diagnostics or as the JSON's ``"report"``.

This module converts (:func:`convert`); the command's options and body are
:mod:`urdf_sdf.cli.urdf2sdf_app` (the console script: :func:`urdf_sdf.cli.quick.urdf2sdf`).
"""
from __future__ import annotations

import os
from pathlib import Path

from urdf_sdf.cli.batch import BatchItem, run_batch, skipped_items, walk
from urdf_sdf.cli.conversion import BatchConversion, batch_output, convert_source
from urdf_sdf.cli.inputs import is_stdin, is_xacro, load_input, xacro_available
from urdf_sdf.cli.path_names import safe_outputs
from urdf_sdf.cli.render import SourceLines
from urdf_sdf.cli.xacro_expand import XACRO_HINT, XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Diagnostics, Policy
from urdf_sdf.core.inspect.conversion_report import ConversionReport
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

PROG = "urdf2sdf"
XACRO_SUFFIX = ".urdf.xacro"
URI_SCHEMES = ("package", "model")


def uri_scheme_problem(scheme: str) -> str | None:
    """``--uri-scheme``: a usage error unless it is one the written SDFormat can use."""
    return None if scheme in URI_SCHEMES else f"{scheme!r}: give 'package' or 'model'"


def convert_file(path: Path, options: ToSdf, xacro: XacroOptions | None,
                 sources: SourceLines, context: Context, pipes: bool = True,
                 reports: list[ConversionReport] | None = None,
                 ) -> tuple[bytes | None, Diagnostics]:
    """Load (``-``, xacro or file) and convert: ``(sdf bytes or None, diagnostics)``.
    ``pipes``: a pipe at ``path`` is read (a FILE argument), not in a batch; ``reports``:
    the conversion's report is appended to it (``--report``)."""
    result = load_input(path, context, sources, xacro, pipes)
    conversion = convert_urdf(result, options)
    if reports is not None:
        reports.append(conversion.report)
    return (conversion.xml if conversion.ok else None), conversion.diagnostics


def discover(root: Path, out_dir: Path, expand_xacro: bool = False) -> list[BatchItem]:
    """The URDF files under ``root``: ``*.urdf`` and ``*.urdf.xacro`` (skipped, with the
    reason, unless ``expand_xacro`` (``--xacro``) and the xacro package is installed), each
    to ``NAME.sdf`` at the same relative place (a name that may not be a path component
    renamed: ``urdf_sdf.cli.path_names``). When ``robot.urdf`` and ``robot.urdf.xacro`` sit
    side by side, the one converted is the xacro file (the source) with ``--xacro``, the
    .urdf without; the other is skipped."""
    listing = walk(root, exclude=out_dir)
    items = skipped_items(listing, root, (".urdf", XACRO_SUFFIX))
    installed: bool | None = None
    for path in listing:
        relative = path.relative_to(root)
        name = path.name.lower()
        if name.endswith(XACRO_SUFFIX):
            if expand_xacro and installed is None:  # looked up only for a xacro file
                installed = xacro_available()
            output = relative.with_name(path.name[:-len(XACRO_SUFFIX)] + ".sdf")
            skip = None if expand_xacro and installed else (
                "not expanded: xacro files are expanded only with --xacro" if not expand_xacro
                else f"not expanded: the xacro package is not installed ({XACRO_HINT})")
            items.append(BatchItem(path, relative, output, skip))
        elif name.endswith(".urdf"):
            items.append(BatchItem(path, relative, relative.with_suffix(".sdf")))
    safe_outputs(items)
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


def convert(urdf: Path, output: Path | None, options: ToSdf, xacro: XacroOptions | None,
            strict: bool = False, quiet: bool = False, as_json: bool = False,
            jobs: int = 0, report: bool = False) -> int:
    """The command, once its options are valid: convert, report, write; return the exit
    code. A directory needs ``output``, a directory (a usage error raised before anything
    is read or written). ``jobs`` 0: every core."""
    # A URDF's XML is needed only where the model does not hold its content (the reader
    # keeps that), except by --lump-fixed, which reparents joints' XML.
    context = Context(policy=Policy(warnings_as_errors=strict), keep_xml=options.lump_fixed)
    if not is_stdin(urdf) and os.path.isdir(urdf):
        out_dir = batch_output(output)
        context.inputs_within = os.path.realpath(urdf)
        return run_batch(
            discover(urdf, out_dir, xacro is not None and xacro.expand), out_dir,
            BatchConversion(convert_file, options, xacro, context, out_dir, report),
            prog=PROG, quiet=quiet, as_json=as_json, jobs=jobs or None)
    return convert_source(PROG, convert_file, urdf, output, options, xacro, context, quiet,
                          as_json, report)
