"""What both converter commands (``urdf2sdf``, ``sdf2urdf``) share around their direction's
conversion of one file (its ``convert_file``, a :class:`ConvertFile`): a FILE argument
converted, reported and written (:func:`convert_source`, :func:`finish_conversion`), a
batch's file converted for its place in the output tree (:class:`BatchConversion`), and the
output directory a batch needs (:func:`batch_output`). With ``--report``, each conversion's
report (``core.inspect.conversion_report``) is printed after its diagnostics
(:func:`print_report`) or put in its JSON.

Every failure is a coded diagnostic: a refused ``-o`` (the input, or the file standard
input reads: OUTPUT_IS_INPUT, exit 1; a directory, a missing directory: OUTPUT_INVALID,
exit 2), a write that fails (FILE_WRITE with the system's reason, exit 1, the previous file
intact). With ``--json`` they are in the JSON object on stdout, which is always printed;
without it they are lines on stderr, never in the document's stream.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from urdf_sdf.cli.batch import BatchItem, batch_output_problem
from urdf_sdf.cli.declare import UsageError
from urdf_sdf.cli.inputs import is_stdin
from urdf_sdf.cli.output import (
    StdoutError,
    flush_stdout,
    stdout_closed,
    stdout_failed,
    write_failed,
    write_output,
)
from urdf_sdf.cli.path_names import renamed_output
from urdf_sdf.cli.render import (
    SourceLines,
    diagnostic_json,
    emit,
    print_json,
    report_text,
    visible,
)
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Diagnostic
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.inspect.conversion_report import ConversionReport
from urdf_sdf.core.write.destination import Input, OutputError


class ConverterOptions(Protocol):
    """A converter's options (``ToSdf``, ``ToUrdf``: dataclasses), as the command line sets
    where the output goes, so that relative mesh paths are rewritten for its folder."""
    __dataclass_fields__: ClassVar[dict[str, Any]]
    output_dir: str | None


Options = TypeVar("Options", bound=ConverterOptions)
Options_in = TypeVar("Options_in", bound=ConverterOptions, contravariant=True)


class ConvertFile(Protocol[Options_in]):
    """A direction's ``convert_file``: load ``path`` (``-``, a xacro file or a file; a pipe
    only when ``pipes``) and convert it, ``(document bytes or None, diagnostics)``; the
    conversion's report appended to ``reports`` when given."""

    def __call__(self, path: Path, options: Options_in, xacro: XacroOptions | None,
                 sources: SourceLines, context: Context, pipes: bool = True,
                 reports: list[ConversionReport] | None = None,
                 ) -> tuple[bytes | None, Sequence[Diagnostic]]: ...


def batch_output(output: Path | None) -> Path:
    """The output directory of a batch: required, not standard output, not a file."""
    problem = batch_output_problem(output)
    if problem is not None:
        raise UsageError(escape(problem), "-o/--output")
    return cast(Path, output)  # a problem when there is none


def written_to(options: Options, output: Path | None) -> Options:
    """Conversion ``options`` for an output written to ``output`` (None or ``-``: standard
    output): relative mesh paths are rewritten for the output's folder."""
    if output is None or is_stdin(output):
        return options
    return replace(options, output_dir=str(Path(output).absolute().parent))


def convert_source(prog: str, function: ConvertFile[Options], source: Path,
                   output: Path | None, options: Options, xacro: XacroOptions | None,
                   context: Context, quiet: bool = False, as_json: bool = False,
                   report: bool = False) -> int:
    """A FILE argument (or ``-``) converted by ``function``, reported and written to
    ``output`` (:func:`finish_conversion`): the exit code. ``report``: with the
    conversion report (``--report``)."""
    sources = SourceLines()
    reports: list[ConversionReport] | None = [] if report else None
    data, diagnostics = function(source, written_to(options, output), xacro, sources, context,
                                 reports=reports)
    return finish_conversion(prog, source, data, diagnostics, output, sources, quiet, as_json,
                             reports[0] if reports else None)


@dataclass(frozen=True)
class BatchConversion(Generic[Options]):
    """The ``convert`` of a converter's batch (:func:`urdf_sdf.cli.batch.run_batch`): each
    file converted by ``function`` (the direction's module-level ``convert_file``, which
    worker processes receive by name) with the options written for the file's place under
    ``out_dir``, the note of a renamed output (NAME_RENAMED) before its diagnostics."""
    function: ConvertFile[Options]
    options: Options
    xacro: XacroOptions | None
    context: Context
    out_dir: Path
    report: bool = False  # --report: the file's ConversionReport third

    def __call__(self, item: BatchItem, sources: SourceLines
                 ) -> tuple[bytes | None, list[Diagnostic]] | \
            tuple[bytes | None, list[Diagnostic], ConversionReport]:
        reports: list[ConversionReport] | None = [] if self.report else None
        data, diagnostics = self.function(
            item.source, written_to(self.options, self.out_dir / item.output), self.xacro,
            sources, self.context, pipes=False, reports=reports)
        diagnostics = [*self.context.policy.apply(renamed_output(item)), *diagnostics]
        return (data, diagnostics) if not reports else (data, diagnostics, reports[0])


def finish_conversion(prog: str, source: Path, data: bytes | None,
                      diagnostics: Sequence[Diagnostic], output: Path | None,
                      sources: SourceLines, quiet: bool = False, as_json: bool = False,
                      report: ConversionReport | None = None) -> int:
    """Report and write one conversion; return the exit code.

    Without ``--json``: diagnostics on stderr, the document to ``-o FILE`` (atomically)
    or stdout. With ``--json``: one object on stdout, ``{"ok", "output", "diagnostics"}``
    where ``output`` is the file written (null when none was), plus ``"document"`` (the
    converted text, null on failure) when there is no ``-o FILE`` — stdout holds the JSON.
    A refused or failed write is one more diagnostic (and ``"ok": false``).

    ``report`` (``--report``): printed on stderr after the diagnostics (the verdict
    ``refused`` when the write failed), or the JSON's ``"report"``.
    """
    diagnostics = list(diagnostics)
    ok = data is not None and not any(d.is_error for d in diagnostics)
    to_stdout = output is None or is_stdin(output)
    if not as_json:
        emit(diagnostics, sys.stderr, sources, quiet)
    written = document = None
    code = 0 if ok else 1
    if ok and as_json and to_stdout:
        document = data.decode("utf-8") if data is not None else None
    elif ok and data is not None:
        try:
            code, failure = _write(data, None if to_stdout else str(output),
                                   [str(source), *sources.protected()])
        except BrokenPipeError:  # `| head`: the reader went away, quietly
            return stdout_closed()
        except StdoutError as exc:  # `> /dev/full`, a closed stdout
            return stdout_failed(prog, exc)
        if failure is not None:
            ok = False
            diagnostics.append(failure)
            if not as_json:
                emit([failure], sys.stderr, sources, quiet)
        elif not to_stdout:
            written = str(output)
    if report is not None and not ok:
        report = report.not_written(diagnostics)
    if report is not None and report.file is None and not is_stdin(source):
        report = replace(report, file=str(source))  # not read: named as given
    if report is not None and not as_json:
        print_report(report)
    if as_json:
        summary: dict[str, Any] = {"ok": ok, "output": written,
                   "diagnostics": [diagnostic_json(d, sources)
                                   for d in visible(diagnostics, quiet)]}
        if to_stdout:
            summary["document"] = document
        if report is not None:
            summary["report"] = report.to_json()
        try:
            print_json(summary)
        except BrokenPipeError:
            return stdout_closed()
        except OSError as exc:
            return stdout_failed(prog, exc)
    failure_code = flush_stdout(prog)
    return failure_code if failure_code is not None else code


def print_report(report: ConversionReport) -> None:
    """The report's lines on stderr (:func:`~urdf_sdf.cli.render.report_text`)."""
    print(report_text(report), file=sys.stderr)


def _write(data: bytes, destination: str | None,
           inputs: list[Input]) -> tuple[int, Diagnostic | None]:
    """Write the document; ``(exit code, None)``, or the exit code and the diagnostic of a
    refused or failed write (the old file is intact). ``inputs``: the files it was read
    from and the files they reference, which it never replaces."""
    try:
        write_output(data, destination, inputs, through_links=True)
    except OutputError as exc:  # -o names the input, a directory...
        return exc.exit_code, exc.diagnostic(destination)
    except (StdoutError, BrokenPipeError):
        raise
    except OSError as exc:  # disk full, permissions
        return 1, write_failed(exc, destination)
    return 0, None
