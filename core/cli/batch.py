"""Batch conversion: :func:`run_batch` converts a list of files under a directory into a
mirrored tree, one failure never stopping the rest, with a progress bar on a terminal and
a summary table (or a JSON summary).
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import typer

from urdf_sdf.core.cli.crash import debugging, internal_error
from urdf_sdf.core.cli.inputs import is_stdin
from urdf_sdf.core.cli.output import OutputError, write_output
from urdf_sdf.core.cli.render import (SourceLines, diagnostic_json, presented, print_json, render,
                                      use_color, visible)
from urdf_sdf.core.diagnostics import Code, Diagnostic, Severity


@dataclass
class BatchItem:
    """One file of a batch: ``source`` on disk, ``relative`` to the input directory,
    ``output`` relative to the output directory; ``skip`` says why it is not converted."""
    source: Path
    relative: Path
    output: Path
    skip: str | None = None


@dataclass
class Outcome:
    item: BatchItem
    status: str                      # converted | failed | skipped
    diagnostics: list[Diagnostic] = field(default_factory=list)
    written: Path | None = None
    sources: SourceLines | None = None

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)

    @property
    def first_error(self) -> Diagnostic | None:
        return next((d for d in self.diagnostics if d.is_error), None)


# convert(item, sources) -> (bytes or None, diagnostics)
Converter = Callable[[BatchItem, SourceLines], "tuple[bytes | None, Sequence[Diagnostic]]"]


def walk(root: Path, exclude: Path | None = None) -> list[Path]:
    """Every regular file under ``root`` (sorted, hidden directories skipped, symlinked
    directories not followed), leaving out the ``exclude`` tree (the output directory)."""
    excluded = exclude.resolve() if exclude is not None else None
    found: list[Path] = []
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and (excluded is None or (here / d).resolve() != excluded))
        found.extend(here / f for f in sorted(files))
    return found


def check_batch_output(output: Path | None, prog: str) -> Path:
    """The output directory of a batch: required, not standard output, not a file."""
    if output is None or is_stdin(output):
        raise typer.BadParameter("converting a directory needs -o OUTDIR (a directory)",
                                 param_hint="-o/--output")
    if output.exists() and not output.is_dir():
        raise typer.BadParameter(f"{output} is a file; converting a directory needs -o OUTDIR",
                                 param_hint="-o/--output")
    return output


def run_batch(items: list[BatchItem], out_dir: Path, convert: Converter, *,
              prog: str, quiet: bool = False, as_json: bool = False) -> int:
    """Convert every item, write each output atomically under ``out_dir`` (mirroring the
    layout), print diagnostics as they come, then a summary; return the exit code (1 when
    any file failed, else 0)."""
    outcomes: list[Outcome] = []
    stream = sys.stderr
    color = use_color(stream)
    with ProgressBar(len([i for i in items if i.skip is None]), prog, stream) as bar:
        for item in items:
            if item.skip is not None:
                outcomes.append(Outcome(item, "skipped"))
                continue
            bar.advance(str(item.relative))
            sources = SourceLines()
            try:
                data, diagnostics = convert(item, sources)
                diagnostics = list(diagnostics)
            except Exception as exc:  # a bug of ours must not stop the other files
                if debugging():
                    raise
                data, diagnostics = None, [internal_error(exc, str(item.source))]
            if data is not None and not any(d.is_error for d in diagnostics):
                target = out_dir / item.output
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    write_output(data, str(target), [str(item.source)])
                    outcome = Outcome(item, "converted", diagnostics, target, sources)
                except (OutputError, OSError) as exc:
                    diagnostics.append(Diagnostic(Code.FILE_WRITE, Severity.ERROR,
                                                  f"cannot write {target}: {exc}",
                                                  str(item.source)))
                    outcome = Outcome(item, "failed", diagnostics, None, sources)
            else:
                if not any(d.is_error for d in diagnostics):
                    diagnostics.append(Diagnostic(Code.INTERNAL_ERROR, Severity.ERROR,
                                                  "internal error: the conversion produced "
                                                  "nothing and reported no error; this is a bug "
                                                  "in urdf-sdf: please report it with the input "
                                                  "file", str(item.source)))
                outcome = Outcome(item, "failed", diagnostics, None, sources)
            outcomes.append(outcome)
            shown = visible(outcome.diagnostics, quiet)
            if shown and not as_json:
                bar.log("\n".join(render(d, sources, color) for d in shown))
    if as_json:
        print_json(batch_json(outcomes, out_dir, quiet))
    else:
        print(summary_table(outcomes, out_dir))
    return 1 if any(o.status == "failed" for o in outcomes) else 0


def batch_counts(outcomes: list[Outcome]) -> dict[str, int]:
    converted = [o for o in outcomes if o.status == "converted"]
    return {"converted": len(converted),
            "warnings": sum(1 for o in converted if o.warnings),
            "failed": sum(1 for o in outcomes if o.status == "failed"),
            "skipped": sum(1 for o in outcomes if o.status == "skipped")}


def summary_table(outcomes: list[Outcome], out_dir: Path) -> str:
    """The human summary: counts, then each failed file with its first error, then each
    skipped file with the reason."""
    counts = batch_counts(outcomes)
    rows = [("converted", counts["converted"], f"into {out_dir}"),
            ("warnings", counts["warnings"], "converted files with warnings"),
            ("failed", counts["failed"], ""),
            ("skipped", counts["skipped"], "")]
    width = max(len(str(n)) for _, n, _ in rows)
    lines = [f"{len(outcomes)} file{'s' if len(outcomes) != 1 else ''}:"]
    lines += [f"  {name:<11}{n:>{width}}" + (f"  {note}" if note else "")
              for name, n, note in rows]
    failed = [o for o in outcomes if o.status == "failed"]
    if failed:
        lines.append("failed:")
        for outcome in failed:
            first = outcome.first_error
            shown = presented(first, outcome.sources).format() if first else "unknown error"
            lines.append(f"  {outcome.item.relative}: {shown}")
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        lines.append("skipped:")
        lines += [f"  {o.item.relative}: {o.item.skip}" for o in skipped]
    return "\n".join(lines)


def batch_json(outcomes: list[Outcome], out_dir: Path, quiet: bool = False) -> dict:
    """``{"ok", "output", "diagnostics", "counts", "files"}``: ``output`` is the output
    directory, ``diagnostics`` every file's diagnostics, ``files`` one entry per file
    (``input``, ``output`` or null, ``status``, ``diagnostics``)."""
    files = []
    for o in outcomes:
        files.append({"input": str(o.item.source),
                      "output": str(o.written) if o.written is not None else None,
                      "status": o.status,
                      "reason": o.item.skip,
                      "diagnostics": [diagnostic_json(d, o.sources)
                                      for d in visible(o.diagnostics, quiet)]})
    return {"ok": not any(o.status == "failed" for o in outcomes),
            "output": str(out_dir),
            "diagnostics": [d for f in files for d in f["diagnostics"]],
            "counts": batch_counts(outcomes),
            "files": files}


class ProgressBar:
    """A progress bar on ``stream`` (stderr) when it is a terminal, nothing otherwise::

        with ProgressBar(total, "urdf2sdf") as bar:
            bar.advance("robot.urdf")      # about to convert this file
            bar.log(text)                  # print above the bar (diagnostics)

    rich's bar when rich is importable (typer depends on it), else a counter line.
    """

    def __init__(self, total: int, prog: str, stream=None) -> None:
        self.total, self.prog = total, prog
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total > 0 and _is_tty(self.stream)
        self._progress = self._task = None
        self._count = 0

    def __enter__(self) -> "ProgressBar":
        if not self.enabled:
            return self
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        except ImportError:
            return self
        console = Console(file=self.stream, no_color=not use_color(self.stream))
        self._progress = Progress(TextColumn(self.prog), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("{task.fields[current]}"), console=console,
                                  transient=True, redirect_stdout=False,
                                  redirect_stderr=False)
        self._progress.start()
        self._task = self._progress.add_task(self.prog, total=self.total, current="")
        return self

    def advance(self, name: str) -> None:
        if not self.enabled:
            return
        if self._progress is not None:
            self._progress.update(self._task, completed=self._count, current=name)
        else:
            print(f"\r{self.prog}: [{self._count + 1}/{self.total}] {name}\x1b[K", end="",
                  file=self.stream, flush=True)
        self._count += 1

    def log(self, text: str) -> None:
        """Print ``text`` (lines, maybe with ANSI colour) above the bar, unwrapped."""
        if self._progress is not None:
            from rich.text import Text
            self._progress.console.print(Text.from_ansi(text), soft_wrap=True,
                                         highlight=False)
        elif self.enabled:
            print(f"\r\x1b[K{text}", file=self.stream, flush=True)
        else:
            print(text, file=self.stream)

    def __exit__(self, *exc) -> None:
        if not self.enabled:
            return
        if self._progress is not None:
            self._progress.update(self._task, completed=self.total)
            self._progress.stop()
        else:
            print("\r\x1b[K", end="", file=self.stream, flush=True)


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
