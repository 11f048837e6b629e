"""The end of one conversion on the command line: report, then write the document."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from urdf_sdf.core.cli.inputs import is_stdin
from urdf_sdf.core.cli.output import (OutputError, StdoutError, flush_stdout, stdout_closed,
                                      stdout_failed, write_output)
from urdf_sdf.core.cli.render import SourceLines, diagnostic_json, emit, print_json, visible
from urdf_sdf.core.diagnostics import Diagnostic


def written_to(options, output: Path | None):
    """Conversion ``options`` for an output written to ``output`` (None or ``-``: standard
    output): relative mesh paths are rewritten for the output's folder."""
    if output is None or is_stdin(output):
        return options
    return replace(options, output_dir=str(Path(output).absolute().parent))


def finish_conversion(prog: str, source: Path, data: bytes | None,
                      diagnostics: Sequence[Diagnostic], output: Path | None,
                      sources: SourceLines, quiet: bool = False, as_json: bool = False) -> int:
    """Report and write one conversion; return the exit code.

    Without ``--json``: diagnostics on stderr, the document to ``-o FILE`` (atomically)
    or stdout. With ``--json``: one object on stdout, ``{"ok", "output", "diagnostics"}``
    where ``output`` is the file written (null when none was), plus ``"document"`` (the
    converted text, null on failure) when there is no ``-o FILE`` — stdout holds the JSON.
    """
    ok = data is not None and not any(d.is_error for d in diagnostics)
    to_stdout = output is None or is_stdin(output)
    if not as_json:
        emit(diagnostics, sys.stderr, sources, quiet)
    written = document = None
    if ok:
        if as_json and to_stdout:
            document = data.decode("utf-8")
        else:
            try:
                write_output(data, None if to_stdout else str(output),
                             [] if is_stdin(source) else [str(source)])
            except OutputError as exc:  # -o names a directory, the input...: usage
                print(f"{prog}: {exc}", file=sys.stderr)
                return 2
            except BrokenPipeError:  # `| head`: the reader went away, quietly
                return stdout_closed()
            except StdoutError as exc:  # `> /dev/full`
                return stdout_failed(prog, exc)
            except OSError as exc:  # disk full, permissions: the old file is intact
                print(f"{prog}: cannot write {output}: {exc}", file=sys.stderr)
                return 1
            written = None if to_stdout else str(output)
    if as_json:
        summary = {"ok": ok, "output": written,
                   "diagnostics": [diagnostic_json(d, sources) for d in visible(diagnostics,
                                                                                 quiet)]}
        if to_stdout:
            summary["document"] = document
        try:
            print_json(summary)
        except BrokenPipeError:
            return stdout_closed()
        except OSError as exc:
            return stdout_failed(prog, exc)
    failure = flush_stdout(prog)
    return failure if failure is not None else 0 if ok else 1
