"""Batch conversion in worker processes (``-j N``): :func:`pooled` for
:func:`urdf_sdf.cli.batch.run_batch`. A worker converts a file and writes its output
(``done_here``); only the outcome (status, diagnostics) comes back.

* Start: on Linux, while this process runs one thread only, the workers are forked
  (:mod:`urdf_sdf.cli.pool_fork`): they start in milliseconds with every module
  already imported, and only chunk indices and outcomes cross a pipe. Elsewhere, or with
  other threads running (forking them could deadlock the child), a
  ``ProcessPoolExecutor`` (:mod:`urdf_sdf.cli.pool_executor`) with the platform's
  fork server (the converter's module imported once, in the server) or spawn. The workers
  are started once for many files; only a dying worker or :data:`TASKS_PER_CHILD`
  replaces them.
* Tasks: a few files per task (:func:`chunk_size`), so that small files do not cost a
  round trip each; at most :data:`AHEAD_PER_WORKER` tasks per worker are queued ahead of
  the one whose result is awaited, so the results that arrive early (kept until their
  turn, to keep the input order) stay few.
* Memory: a worker collects its cyclic garbage once enough has piled up (``done_here``),
  and a worker is replaced after :data:`TASKS_PER_CHILD` tasks, which bounds what a long
  batch can leave behind in one process.
* Failures: an exception in a conversion fails its file only (``convert_one``); a worker
  that dies (a crash in a C library, the kernel's OOM killer) fails its file only: the
  files of the task it was converting are retried one at a time, each in a fresh worker,
  the rest go on. Ctrl-C (SIGINT to the foreground process group) ends the workers at
  once, without a traceback (a file being written leaves no temporary file), and this
  process as the command would end.
"""
from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Iterator

from urdf_sdf.cli.batch import BatchItem, Converter, Outcome, done_here, finish
from urdf_sdf.cli.crash import internal_error
from urdf_sdf.cli.output import remove_stale_temporaries
from urdf_sdf.cli.render import SourceLines
from urdf_sdf.core.base.lazy import Later

# A worker is replaced after this many tasks.
TASKS_PER_CHILD = 25
# Tasks handed out ahead of the one whose result is awaited, per worker.
AHEAD_PER_WORKER = 4
MAX_CHUNK = 8  # files per task at most

_WAYS = Later({"forked": ("urdf_sdf.cli.pool_fork", "forked"),
               "executed": ("urdf_sdf.cli.pool_executor", "executed")})


def pooled(todo: list[BatchItem], convert: Converter, workers: int,
           out_dir: Path) -> Iterator[Outcome]:
    """The outcomes of converting ``todo`` into ``out_dir`` in ``workers`` worker
    processes, in input order (see the module)."""
    way = _WAYS.forked if start_method() == "fork" else _WAYS.executed
    return way(todo, convert, workers, out_dir)


def chunk_size(files: int, workers: int) -> int:
    """Files per task: up to :data:`MAX_CHUNK`, while every worker still gets several
    tasks to balance."""
    return max(1, min(MAX_CHUNK, files // (workers * 4)))


def convert_chunk(convert: Converter, items: list[BatchItem], out_dir: Path) -> list[Outcome]:
    """A worker's task: ``done_here`` for each of a few files."""
    return [done_here(convert, item, out_dir) for item in items]


def failed_in_worker(item: BatchItem, why: str, out_dir: Path) -> Outcome:
    """``item``'s outcome when its worker could not convert it (``why``): an
    INTERNAL_ERROR."""
    return finish(item, None, [internal_error(RuntimeError(why), str(item.source))],
                  SourceLines(), out_dir)


def remove_temporaries_of(items: list[BatchItem], out_dir: Path) -> None:
    """Remove what dead workers left of these items' outputs (temporary files)."""
    for item in items:
        target = out_dir / item.output
        remove_stale_temporaries(target.parent, target.name)


def start_method() -> str:
    """``fork`` on Linux while this process runs one thread (the workers start at once,
    with everything imported); else the fork server where there is one, else spawn."""
    if sys.platform.startswith("linux") and hasattr(os, "fork") \
            and threading.active_count() == 1:
        return "fork"
    import multiprocessing  # here: a forked batch has no use for it
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def worker_started() -> None:
    """A worker runs with the cycle collector off, as the commands do (it collects between
    files instead), the objects it started with frozen (a forked worker's first collection
    would otherwise walk every object imported before the fork, and copy their memory),
    and SIGINT ends it as it ends a plain program (no KeyboardInterrupt traceback from each
    worker)."""
    gc.disable()
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
