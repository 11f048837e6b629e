"""Batch conversion: :func:`run_batch` converts a list of files under a directory into a
mirrored tree, one failure never stopping the rest, with a progress bar on a terminal and
a summary table (or a JSON summary). A converter that gives each file's conversion report
(``--report``) has it printed after the file's diagnostics, with a total line at the end.

With ``jobs`` above 1 and a picklable converter (:class:`FileConverter`, or a
``functools.partial`` of a module-level function), the files are converted and written by
worker processes (:func:`urdf_sdf.cli.pool.in_workers`: the standard library's process
pool, imported only then); their outcomes come back to this process, which prints
diagnostics, progress and the summary in input order. A worker that dies fails the file
it was converting (INTERNAL_ERROR, naming how it ended), and what it left is removed
(:func:`lost_in_worker`, :func:`remove_temporaries_of`); an outcome that cannot be sent
back fails its file, whose output is removed (:func:`done_in_worker`).

A batch reads only what is its own (:func:`walk`): regular files inside the directory it
was given. A symlink that leads out of the tree (a ``robot.urdf`` pointing at
``/etc/shadow``, a folder pointing at ``/``) is skipped with the reason, as is a second
name of a file already listed; a FIFO, socket or device is skipped when listed, and
refused when read (``core.read.files.read_regular`` opens non-blocking and checks what it
opened), so one swapped in after the listing never blocks the batch. Names and reasons
are printed with their control characters escaped (``core.base.safe_text``).

A batch writes only inside the output directory it was given
(:mod:`urdf_sdf.cli.output_tree`): a folder between OUTDIR and a file that is a symbolic
link, or is swapped for one at any moment, makes that file FILE_WRITE, nothing outside
OUTDIR touched.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from urdf_sdf.cli.crash import debugging, internal_error
from urdf_sdf.cli.inputs import is_stdin
from urdf_sdf.cli.output_tree import opened_output_folder, output_folder, write_output_in
from urdf_sdf.cli.pool import in_workers
from urdf_sdf.cli.render import (
    SourceLines,
    diagnostic_json,
    presented,
    print_json,
    render,
    report_text,
    use_color,
    visible,
)
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.inspect.conversion_report import ConversionReport, verdict_totals
from urdf_sdf.core.read.files import file_kind, not_regular_message
from urdf_sdf.core.write.atomic import remove_stale_temporaries
from urdf_sdf.core.write.destination import OutputError, OutputIsInput

if TYPE_CHECKING:  # rich comes with typer; imported when a bar is drawn
    from rich.progress import Progress, TaskID


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
    report: ConversionReport | None = None  # --report: what the conversion changed

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if not d.is_error)

    @property
    def first_error(self) -> Diagnostic | None:
        return next((d for d in self.diagnostics if d.is_error), None)


# convert(item, sources) -> (bytes or None, diagnostics[, the file's ConversionReport])
Converter = Callable[[BatchItem, SourceLines],
                     "tuple[bytes | None, Sequence[Diagnostic]] | "
                     "tuple[bytes | None, Sequence[Diagnostic], ConversionReport]"]

# By default (every core), one worker process per this many bytes of input. Measured on
# a 2-core Linux machine with forked workers (urdf2sdf, copies of samples/*.urdf, wall
# time, -j 1 then -j 2): 155 kB in 20 files 0.10 s both ways, 300 kB in 40 files 0.14
# then 0.13 s, 590 kB in 80 files 0.21 then 0.16 s. Below ~150 kB of input per worker
# the workers cost more than they save.
BYTES_PER_WORKER = 150_000
# Objects allocated (and not freed) since the last collection after which a batch
# collects its cyclic garbage: a large file's conversion passes it, a small file's not
# (one collection per few dozen small files, not one each: each walked every object
# the file made, 10-25% of a small file's conversion).
COLLECT_AFTER_OBJECTS = 200_000


@dataclass(frozen=True)
class FileConverter:
    """A converter that worker processes can receive: ``function(path=item.source,
    sources=sources, **arguments)``. ``function`` must be a module-level function and the
    arguments picklable (a lambda or closure cannot be sent to another process)::

        FileConverter(convert_file, {"options": options, "mappings": mappings,
                                     "context": context})

    A ``functools.partial`` of a module-level ``f(item, sources, **arguments)`` works too
    (for arguments that depend on the item)."""
    function: Callable
    arguments: dict = field(default_factory=dict)

    def __call__(self, item: BatchItem, sources: SourceLines):
        return self.function(path=item.source, sources=sources, **self.arguments)


OUTSIDE_TREE = "a symlink to {target}, outside the input directory: not read"
OUTSIDE_TREE_DIRECTORY = "a symlink to {target}, outside the input directory: not followed"
SAME_FILE = "a symlink to {target}, which is converted as itself: not read twice"
PATH_TOO_LONG = ("its path is {length} bytes long, longer than the system opens "
                 "({limit}): not read")
DEFAULT_PATH_MAX = 4096  # Linux's PATH_MAX, where the system does not say


class Listing(list):
    """The files a batch may read under its root (a list of paths, in walk order), and in
    ``skipped`` the entries it does not read, each with the reason (a symlink out of the
    tree, a second name of a listed file)."""

    def __init__(self, files=(), skipped: dict[Path, str] | None = None) -> None:
        super().__init__(files)
        self.skipped: dict[Path, str] = skipped if skipped is not None else {}


def walk(root: Path, exclude: Path | None = None) -> Listing:
    """Every file under ``root`` a batch may read (sorted, hidden directories skipped,
    symlinked directories not followed), leaving out the ``exclude`` tree (the output
    directory). A file that resolves (after symlinks) outside ``root`` is never listed,
    nor a symlink to a file listed under another name: they are in ``skipped``, with the
    reason, as is a symlinked directory that leads out of ``root`` (one inside it is not
    followed either: its files are listed under their own names)."""
    excluded = exclude.resolve() if exclude is not None else None
    tree = root.resolve()
    listing = Listing()
    found: list[Path] = []
    offset, limit = _path_limit(root)
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        for names in (dirs, files):
            for name in list(names):
                length = offset + len(os.fsencode(os.path.join(directory, name)))
                if length >= limit:
                    listing.skipped[here / name] = PATH_TOO_LONG.format(length=length,
                                                                        limit=limit)
                    names.remove(name)
        for name in sorted(d for d in dirs if (here / d).is_symlink()):
            target = Path(os.path.realpath(here / name))
            if not target.is_relative_to(tree):
                listing.skipped[here / name] = OUTSIDE_TREE_DIRECTORY.format(target=target)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and not (here / d).is_symlink()
                         and (excluded is None or (here / d).resolve() != excluded))
        found.extend(here / f for f in sorted(files))
    _list_files(found, listing, tree)
    return listing


def _list_files(found: list[Path], listing: Listing, tree: Path) -> None:
    """``found`` (in walk order) into ``listing``: every file that is not a symlink, and
    each symlink that leads to a file inside ``tree`` not listed already (under its own
    name or an earlier link's); the other symlinks into ``listing.skipped``."""
    links = {path for path in found if path.is_symlink()}
    if not links:  # the common case: nothing to resolve
        listing.extend(found)
        return
    names: dict[Path, Path] = {}  # real path -> the name it is listed under
    for path in found:
        if path not in links:
            names[Path(os.path.realpath(path))] = path
    for path in found:
        if path not in links:
            listing.append(path)
            continue
        target = Path(os.path.realpath(path))
        if not target.is_relative_to(tree):
            listing.skipped[path] = OUTSIDE_TREE.format(target=target)
        elif names.setdefault(target, path) != path:
            listing.skipped[path] = SAME_FILE.format(target=names[target])
        else:
            listing.append(path)


def _path_limit(root: Path) -> tuple[int, int]:
    """``(offset, limit)``: an entry of a walk of ``root`` whose path as walked, plus
    ``offset`` (what the root's absolute path adds), reaches ``limit`` (``PATH_MAX``,
    counting the terminating NUL) cannot be opened: it is skipped, never opened (it was
    an INTERNAL_ERROR, "File name too long")."""
    try:
        limit = os.pathconf(root, "PC_PATH_MAX")
    except (OSError, ValueError, AttributeError):
        limit = DEFAULT_PATH_MAX
    offset = len(os.fsencode(os.path.abspath(root))) - len(os.fsencode(str(root)))
    return offset, limit if limit > 0 else DEFAULT_PATH_MAX


def skipped_items(listing: Listing, root: Path, suffixes: tuple[str, ...]) -> list[BatchItem]:
    """Skipped items (listed in the summary with the reason) for what ``listing`` skipped
    that the batch would have converted: the files whose names end in one of ``suffixes``
    (any case) and the directories."""
    return [BatchItem(path, path.relative_to(root), path.relative_to(root), reason)
            for path, reason in listing.skipped.items()
            if path.name.lower().endswith(suffixes) or _directory_or_unseen(path)]


def _directory_or_unseen(path: Path) -> bool:
    """Whether ``path`` is a directory, or cannot even be examined (its path too long)."""
    try:
        return path.is_dir()
    except OSError:
        return True


def batch_output_problem(output: Path | None) -> str | None:
    """Why ``output`` cannot be a batch's output directory (it is required, not standard
    output, not a file), or None when it can."""
    if output is None or is_stdin(output):
        return "converting a directory needs -o OUTDIR (a directory)"
    if os.path.exists(output) and not os.path.isdir(output):
        return f"{output} is a file; converting a directory needs -o OUTDIR"
    return None


def run_batch(items: list[BatchItem], out_dir: Path, convert: Converter, *,
              prog: str, quiet: bool = False, as_json: bool = False,
              jobs: int | None = None) -> int:
    """Convert every item, write each output atomically under ``out_dir`` (mirroring the
    layout), print diagnostics as they come, then a summary; return the exit code (1 when
    any file failed, else 0).

    ``jobs``: worker processes (None: every core this process may use, as the batch's size
    makes worth it, :func:`worthwhile_workers`; 1: convert here, one file after the
    other). A converter that cannot be pickled (a lambda) is run here whatever ``jobs``
    says. Files that are not regular files (a FIFO would block the read forever) are
    skipped."""
    skip_irregular(items)
    todo = [item for item in items if item.skip is None]
    for folder in sorted({item.output.parent for item in todo}):
        with contextlib.suppress(OSError):  # once here, not once per file written
            remove_stale_temporaries(output_folder(out_dir, folder, create=False))
    workers = min(worthwhile_workers(todo) if jobs is None else max(1, jobs), len(todo))
    if workers > 1 and not picklable(convert):
        workers = 1
    outcomes: list[Outcome] = []
    stream = sys.stderr
    color = use_color(stream)
    with outcomes_of(todo, convert, workers, out_dir) as results, \
            ProgressBar(len(todo), prog, stream) as bar:
        for item in items:
            if item.skip is not None:
                outcomes.append(Outcome(item, "skipped"))
                continue
            bar.advance(escape(str(item.relative)))
            outcome = next(results)
            outcomes.append(outcome)
            shown = visible(outcome.diagnostics, quiet)
            if shown and not as_json:
                bar.log("\n".join(render(d, outcome.sources, color) for d in shown))
            if outcome.report is not None and not as_json:
                bar.log(report_text(outcome.report))
    if not as_json:
        print_totals([o.report for o in outcomes if o.report is not None], stream)
    if as_json:
        print_json(batch_json(outcomes, out_dir, quiet))
    else:
        print(summary_table(outcomes, out_dir))
    return 1 if any(o.status == "failed" for o in outcomes) else 0


def print_totals(reports: list[ConversionReport], stream) -> None:
    """The total line of a batch's conversion reports (``--report``; none: nothing) on
    ``stream``."""
    if reports:
        print(verdict_totals(reports), file=stream)


def outcomes_of(todo: list[BatchItem], convert: Converter, workers: int,
                out_dir: Path) -> contextlib.AbstractContextManager[Iterator[Outcome]]:
    """While inside: the outcomes of converting ``todo`` into ``out_dir``, in input
    order, by ``workers`` worker processes, or here, one after the other, for one (or
    none: nothing to convert)."""
    if workers <= 1:
        return contextlib.nullcontext(done_here(convert, item, out_dir) for item in todo)
    return in_workers(functools.partial(done_in_worker, convert, out_dir), todo, workers,
                      lost=functools.partial(lost_in_worker, out_dir),
                      abandoned=functools.partial(remove_temporaries_of, out_dir),
                      preload=converter_modules(convert))


def done_in_worker(convert: Converter, out_dir: Path, item: BatchItem) -> Outcome:
    """:func:`done_here` in a worker process; an outcome that cannot be sent back (a bug
    of ours: a value in it cannot be pickled) becomes the file's INTERNAL_ERROR, and what
    it wrote is removed."""
    import pickle  # here: only a batch run by worker processes needs it
    outcome = done_here(convert, item, out_dir)
    try:
        pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # PicklingError, TypeError, AttributeError...
        if outcome.written is not None:
            with contextlib.suppress(OSError):
                os.unlink(outcome.written)
        return failed_in_worker(item, "its outcome could not be sent back from its "
                                      f"worker: {exc}", out_dir)
    return outcome


def lost_in_worker(out_dir: Path, item: BatchItem, why: str) -> Outcome:
    """The outcome of ``item`` when its worker died on it (``why``): what the worker
    left is removed, and the file fails with an INTERNAL_ERROR."""
    remove_temporaries_of(out_dir, [item])
    return failed_in_worker(item, why, out_dir)


def failed_in_worker(item: BatchItem, why: str, out_dir: Path) -> Outcome:
    """``item``'s outcome when its worker could not convert it (``why``): an
    INTERNAL_ERROR."""
    return finish(item, None, [internal_error(RuntimeError(why), str(item.source))],
                  SourceLines(), out_dir)


def remove_temporaries_of(out_dir: Path, items: list[BatchItem]) -> None:
    """Remove what ended workers left of these items' outputs (temporary files)."""
    for item in items:
        target = out_dir / item.output
        remove_stale_temporaries(target.parent, target.name)


def converter_modules(convert: Converter) -> tuple[str, ...]:
    """The module of the function that ``convert`` calls (a :class:`FileConverter` or a
    ``functools.partial``): what a fork server imports once for every worker."""
    function = getattr(convert, "function", None) or getattr(convert, "func", convert)
    module = getattr(function, "__module__", None)
    return (module,) if module else ()


def finish(item: BatchItem, data: bytes | None, diagnostics: list[Diagnostic],
           sources: SourceLines, out_dir: Path) -> Outcome:
    """Write one file's output (atomically) and make its outcome."""
    if data is not None and not any(d.is_error for d in diagnostics):
        target = out_dir / item.output
        try:
            with opened_output_folder(out_dir, item.output.parent) as folder:
                write_output_in(data, folder, target, [str(item.source), *sources.protected()])
            return Outcome(item, "converted", diagnostics, target, sources)
        except (OutputError, OSError) as exc:
            code = Code.OUTPUT_IS_INPUT if isinstance(exc, OutputIsInput) else Code.FILE_WRITE
            diagnostics.append(Diagnostic(code, Severity.ERROR, f"cannot write {target}: {exc}",
                                          str(item.source)))
            return Outcome(item, "failed", diagnostics, None, sources)
    if not any(d.is_error for d in diagnostics):
        diagnostics.append(Diagnostic(Code.INTERNAL_ERROR, Severity.ERROR,
                                      "internal error: the conversion produced nothing and "
                                      "reported no error; this is a bug in urdf-sdf: please "
                                      "report it with the input file", str(item.source)))
    return Outcome(item, "failed", diagnostics, None, sources)


def convert_one(convert: Converter, item: BatchItem, out_dir: Path) -> Outcome:
    """Convert one file and write its output; an exception of ours becomes the file's
    INTERNAL_ERROR."""
    sources = SourceLines()
    report = None
    try:
        data, diagnostics, *reported = convert(item, sources)
        diagnostics = list(diagnostics)
        report = reported[0] if reported else None
    except Exception as exc:  # a bug of ours must not stop the other files
        if debugging():
            raise
        data, diagnostics = None, [internal_error(exc, str(item.source))]
    outcome = finish(item, data, diagnostics, sources, out_dir)
    if report is not None:
        outcome.report = report if outcome.status == "converted" else \
            report.not_written(outcome.diagnostics)
    return outcome


def done_here(convert: Converter, item: BatchItem, out_dir: Path) -> Outcome:
    """:func:`convert_one` in this process (or a worker), then, once
    :data:`COLLECT_AFTER_OBJECTS` objects have been made since the last one, a collection
    of the young generations: the commands run with the cycle collector off (a
    short-lived process), and a batch would otherwise keep every file's cyclic garbage
    until it ends."""
    outcome = convert_one(convert, item, out_dir)
    if gc.get_count()[0] >= COLLECT_AFTER_OBJECTS:
        gc.collect(1)
    return outcome


def worthwhile_workers(todo: list[BatchItem]) -> int:
    """Worker processes for ``todo`` by default: one per :data:`BYTES_PER_WORKER` of work,
    up to every core (:func:`default_jobs`); 1 (no pool) for a small batch."""
    work = sum(input_size(item.source) for item in todo)
    return max(1, min(default_jobs(), work // BYTES_PER_WORKER))


def input_size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # the conversion reports why it cannot be read


def default_jobs() -> int:
    """Every core this process may run on."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counted is not None:
        return counted() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def picklable(convert: Converter) -> bool:
    """Can ``convert`` be sent to a worker process?"""
    import pickle  # here: only a batch run by worker processes needs it
    try:
        pickle.dumps(convert)
    except Exception:  # PicklingError, AttributeError, TypeError: a lambda, a closure...
        return False
    return True


def skip_irregular(items: list[BatchItem]) -> None:
    """Mark the items that are not regular files (a FIFO named ``robot.urdf`` would block
    its read forever) as skipped. A file that cannot be examined is left to the
    conversion, which reports why it cannot be read."""
    for item in items:
        if item.skip is not None:
            continue
        try:
            mode = os.stat(item.source).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            item.skip = not_regular_message(file_kind(mode))


def batch_counts(outcomes: list[Outcome]) -> dict[str, int]:
    converted = [o for o in outcomes if o.status == "converted"]
    return {"converted": len(converted),
            "warnings": sum(1 for o in converted if o.warnings),
            "failed": sum(1 for o in outcomes if o.status == "failed"),
            "skipped": sum(1 for o in outcomes if o.status == "skipped")}


def summary_table(outcomes: list[Outcome], out_dir: Path) -> str:
    """The human summary: counts, then each failed file with its first error, then each
    skipped file with the reason (names and reasons with their control characters
    escaped)."""
    counts = batch_counts(outcomes)
    rows = [("converted", counts["converted"], f"into {escape(str(out_dir))}"),
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
            lines.append(f"  {escape(str(outcome.item.relative))}: {shown}")
    skipped = [o for o in outcomes if o.status == "skipped"]
    if skipped:
        lines.append("skipped:")
        lines += [f"  {escape(str(o.item.relative))}: {escape(o.item.skip or '')}"
                  for o in skipped]
    return "\n".join(lines)


def batch_json(outcomes: list[Outcome], out_dir: Path, quiet: bool = False) -> dict:
    """``{"ok", "output", "diagnostics", "counts", "files"}``: ``output`` is the output
    directory, ``diagnostics`` every file's diagnostics, ``files`` one entry per file
    (``input``, ``output`` or null, ``status``, ``diagnostics``)."""
    shown = [[diagnostic_json(d, o.sources) for d in visible(o.diagnostics, quiet)]
             for o in outcomes]
    files: list[dict[str, Any]] = [{"input": str(o.item.source),
        "output": str(o.written) if o.written is not None else None,
        "status": o.status,
        "reason": o.item.skip,
        "diagnostics": diagnostics} for o, diagnostics in zip(outcomes, shown)]
    for entry, outcome in zip(files, outcomes):
        if outcome.report is not None:  # --report
            entry["report"] = outcome.report.to_json()
    return {"ok": not any(o.status == "failed" for o in outcomes),
            "output": str(out_dir),
            "diagnostics": [d for diagnostics in shown for d in diagnostics],
            "counts": batch_counts(outcomes),
            "files": files}


class ProgressBar:
    """A progress bar on ``stream`` (stderr) when it is a terminal, nothing otherwise::

        with ProgressBar(total, "urdf2sdf") as bar:
            bar.advance("robot.urdf")      # about to convert this file
            bar.log(text)                  # print above the bar (diagnostics)

    rich's bar when rich is importable (typer depends on it), else a counter line. The bar
    is redrawn when it advances, by this thread: no refresh thread runs beside it, so that
    the worker processes of a batch can be forked (:mod:`urdf_sdf.cli.pool`).
    """

    def __init__(self, total: int, prog: str, stream=None) -> None:
        self.total, self.prog = total, prog
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = total > 0 and _is_tty(self.stream)
        self._bar: tuple[Progress, TaskID] | None = None  # rich's, while it is drawn
        self._count = 0

    def __enter__(self) -> ProgressBar:
        if not self.enabled:
            return self
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
            )
        except ImportError:
            return self
        console = Console(file=self.stream, no_color=not use_color(self.stream))
        progress = Progress(TextColumn(self.prog), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[current]}", markup=False),
                            console=console,
                            transient=True, redirect_stdout=False,
                            redirect_stderr=False, auto_refresh=False)
        progress.start()
        self._bar = progress, progress.add_task(self.prog, total=self.total, current="")
        return self

    def advance(self, name: str) -> None:
        """Show ``name`` (escaped by the caller; shown as it is, never as rich markup)."""
        if not self.enabled:
            return
        if self._bar is not None:
            progress, task = self._bar
            progress.update(task, completed=self._count, current=name, refresh=True)
        else:
            print(f"\r{self.prog}: [{self._count + 1}/{self.total}] {name}\x1b[K", end="",
                  file=self.stream, flush=True)
        self._count += 1

    def log(self, text: str) -> None:
        """Print ``text`` (lines, maybe with ANSI colour) above the bar, unwrapped."""
        if self._bar is not None:
            from rich.text import Text
            self._bar[0].console.print(Text.from_ansi(text), soft_wrap=True, highlight=False)
        elif self.enabled:
            print(f"\r\x1b[K{text}", file=self.stream, flush=True)
        else:
            print(text, file=self.stream)

    def __exit__(self, *exc) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            progress, task = self._bar
            progress.update(task, completed=self.total)
            progress.stop()
        else:
            print("\r\x1b[K", end="", file=self.stream, flush=True)


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
