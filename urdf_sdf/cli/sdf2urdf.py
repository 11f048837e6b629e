"""``sdf2urdf``: convert an SDFormat model to URDF.

Inputs: an SDFormat file, ``-`` (standard input), a ``*.xacro`` file (with ``--xacro``
only: expanded in a restricted sandbox with the optional ``xacro`` package; see
:mod:`urdf_sdf.cli.xacro_expand`), or a directory (batch, with ``-o OUTDIR``: every ``*.sdf``;
in a model directory, the file its ``model.config`` names for the newest SDFormat
version; each model directory's parent is searched for ``model://`` includes; ``-j N``
worker processes, every core by default).

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
expressed in URDF (in a batch: any file failed), 2 usage error. Diagnostics go to
stderr as ``file:line[:col]: severity[CODE]: message`` with the source line under them
(``--quiet``: errors only); the URDF goes to stdout (also ``-o -``) or, atomically, to
``-o FILE``. ``--json`` prints ``{"ok", "output", "diagnostics"}`` (and ``"document"``
without ``-o FILE``) on stdout instead. ``--report``: what the conversion changed
(``core.inspect.conversion_report``), on stderr or as the JSON's ``"report"``.

A URDF left with ``model://`` mesh URIs gets one MODEL_URI_KEPT warning suggesting
``--uri-scheme package`` (:func:`model_uris_kept`).

This module converts (:func:`convert`); the command's options and body are
:mod:`urdf_sdf.cli.sdf2urdf_app` (the console script: :func:`urdf_sdf.cli.quick.sdf2urdf`).
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from urdf_sdf.cli.batch import BatchItem, run_batch, skipped_items, walk
from urdf_sdf.cli.conversion import BatchConversion, batch_output, convert_source
from urdf_sdf.cli.inputs import is_stdin, load_input
from urdf_sdf.cli.path_names import safe_outputs
from urdf_sdf.cli.render import SourceLines
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Diagnostics, Policy, Severity
from urdf_sdf.core.compose.uri import model_config_files
from urdf_sdf.core.inspect.conversion_report import ConversionReport, conversion_report
from urdf_sdf.sdf2urdf.convert import ToUrdf, convert_sdf

PROG = "sdf2urdf"
URI_SCHEMES = (None, "package")
MODEL_MESH = b'filename="model://'  # a mesh URI as core.write.urdf writes it


def uri_scheme_problem(scheme: str | None) -> str | None:
    """``--uri-scheme``: a usage error unless it is one the written URDF can use."""
    return None if scheme in URI_SCHEMES else f"{scheme!r}: give 'package'"


def convert_file(path: Path, options: ToUrdf, xacro: XacroOptions | None,
                 sources: SourceLines, context: Context, pipes: bool = True,
                 reports: list[ConversionReport] | None = None,
                 ) -> tuple[bytes | None, Diagnostics]:
    """Load (``-``, xacro or file) and convert: ``(urdf bytes or None, diagnostics)``.
    ``pipes``: a pipe at ``path`` is read (a FILE argument), not in a batch; ``reports``:
    the conversion's report is appended to it (``--report``)."""
    # The reader keeps the XML sdf2urdf copies (what the model does not hold), no more.
    result = load_input(path, replace(context, keep_xml=False), sources, xacro, pipes)
    conversion = convert_sdf(result, options)
    xml, diagnostics = (conversion.xml if conversion.ok else None), conversion.diagnostics
    if xml is not None and options.uri_scheme is None:
        file = result.document.file if result.document is not None else str(path)
        diagnostics += result.policy.apply(model_uris_kept(xml, file))
        if diagnostics.has_errors:  # --strict
            xml = None
    if reports is not None:
        reports.append(conversion_report(result.document, diagnostics, xml, "urdf"))
    return xml, diagnostics


def model_uris_kept(urdf: bytes, file: str | None) -> list[Diagnostic]:
    """One MODEL_URI_KEPT warning for a URDF that still holds ``model://`` mesh URIs (ROS
    tools resolve ``package://``), with their count and the option that rewrites them."""
    count = urdf.count(MODEL_MESH)
    if not count:
        return []
    uris = "1 mesh URI" if count == 1 else f"{count} mesh URIs"
    return [Diagnostic(Code.MODEL_URI_KEPT, Severity.WARNING,
                       f"{uris} left as model://, which ROS tools do not resolve; "
                       "--uri-scheme package writes them as package:// URIs", file)]


def discover(root: Path, out_dir: Path) -> tuple[list[BatchItem], list[Path]]:
    """The SDFormat files under ``root`` (each to ``NAME.urdf`` at the same relative place)
    and the ``model://`` search directories (the parents of model directories). In a model
    directory the other versions its model.config lists are skipped."""
    files = walk(root, exclude=out_dir)
    chosen: dict[Path, Path] = {}
    others: set[Path] = set()
    model_parents: list[Path] = []
    tree = os.path.realpath(root)
    for path in files:
        if path.name == "model.config":
            if path.parent.parent not in model_parents:
                model_parents.append(path.parent.parent)
            listed = model_config_files(path, tree)
            if listed:
                chosen[path.parent] = listed[0]
                others.update(listed[1:])
    items = skipped_items(files, root, (".sdf",))
    for path in files:
        if not path.name.lower().endswith(".sdf"):
            continue
        relative = path.relative_to(root)
        skip = None
        if path in others:
            skip = (f"model.config picks {chosen[path.parent].name} "
                    "(a newer SDFormat version)")
        items.append(BatchItem(path, relative, relative.with_suffix(".urdf"), skip))
    safe_outputs(items)  # a name that may not be a path component: urdf_sdf.cli.path_names
    return items, model_parents


def convert(sdf: Path, output: Path | None, options: ToUrdf, xacro: XacroOptions | None,
            paths: list[Path] | None = None, strict: bool = False, quiet: bool = False,
            as_json: bool = False, jobs: int = 0, report: bool = False) -> int:
    """The command, once its options are valid: convert, report, write; return the exit
    code. A directory needs ``output``, a directory (a usage error raised before anything
    is read or written). ``paths``: ``--path`` directories; ``jobs`` 0: every core."""
    extra = [str(p) for p in paths or []]
    policy = Policy(warnings_as_errors=strict)
    if not is_stdin(sdf) and os.path.isdir(sdf):
        out_dir = batch_output(output)
        items, model_parents = discover(sdf, out_dir)
        context = Context.from_environment(extra + [str(p) for p in model_parents], policy)
        context.read_roots.append(str(sdf))  # a file includes what its tree holds
        context.inputs_within = os.path.realpath(sdf)
        return run_batch(items, out_dir,
                         BatchConversion(convert_file, options, xacro, context, out_dir, report),
                         prog=PROG, quiet=quiet, as_json=as_json, jobs=jobs or None)
    return convert_source(PROG, convert_file, sdf, output, options, xacro,
                          Context.from_environment(extra, policy), quiet, as_json, report)
