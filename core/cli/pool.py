"""Batch conversion in worker processes (``-j N``): :func:`pooled` for
:func:`urdf_sdf.core.cli.batch.run_batch`. A worker converts a file and writes its output
(``done_here``); only the outcome (status, diagnostics) comes back.

* Start: on Linux, while this process runs one thread only, the workers are forked: they
  start in milliseconds with every module already imported. Elsewhere, or with other
  threads running (forking them could deadlock the child), the platform's fork server
  (with the converter's module imported once, in the server) or spawn starts them.
  The workers are started once for many files; only a dying worker or
  :data:`TASKS_PER_CHILD` replaces them.
* Tasks: a few files per task (:func:`chunk_size`), so that small files do not cost a
  round trip each; at most :data:`AHEAD_PER_WORKER` tasks per worker are queued ahead of
  the one whose result is awaited, so the results that arrive early (kept until their
  turn, to keep the input order) stay few.
* Memory: a worker collects its cyclic garbage once enough has piled up (``done_here``),
  and the pool is replaced after :data:`TASKS_PER_CHILD` tasks per worker, which bounds
  what a long batch can leave behind in one process.
* Failures: an exception in a conversion fails its file only (``convert_one``); a worker
  that dies (a crash in a C library, the kernel's OOM killer) fails its file only: the
  files of the task the pool broke on are retried one at a time in a fresh pool
  (:func:`isolated`), the rest go on in another. Ctrl-C (SIGINT to the foreground
  process group) ends the workers at once, without a traceback (a file being written
  leaves no temporary file), and this process as the command would end.
"""
from __future__ import annotations

import collections
import gc
import multiprocessing
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Iterator

from urdf_sdf.core.cli.batch import BatchItem, Converter, Outcome, done_here, finish
from urdf_sdf.core.cli.crash import internal_error
from urdf_sdf.core.cli.output import remove_stale_temporaries
from urdf_sdf.core.cli.render import SourceLines

# A pool (and its worker processes) is replaced after this many tasks per worker. Not
# ProcessPoolExecutor's own max_tasks_per_child: with tasks queued it deadlocks on Python
# 3.11 and 3.12 (https://github.com/python/cpython/issues/115634), and it cannot fork.
TASKS_PER_CHILD = 25
# Tasks submitted to the pool ahead of the one whose result is awaited, per worker.
AHEAD_PER_WORKER = 4
MAX_CHUNK = 8  # files per task at most


def pooled(todo: list[BatchItem], convert: Converter, workers: int,
           out_dir: Path) -> Iterator[Outcome]:
    """The outcomes of converting ``todo`` into ``out_dir`` in ``workers`` worker
    processes, in input order (see the module)."""
    size = chunk_size(len(todo), workers)
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    start = 0
    while start < len(chunks):
        end = min(len(chunks), start + workers * TASKS_PER_CHILD)
        with new_pool(workers, convert) as pool:
            window: collections.deque = collections.deque()
            submitted = start
            try:
                while start < end:
                    while submitted < end and len(window) < workers * AHEAD_PER_WORKER:
                        window.append(pool.submit(convert_chunk, convert, chunks[submitted],
                                                  out_dir))
                        submitted += 1
                    results = window[0].result()
                    window.popleft()
                    start += 1
                    yield from results
            except BrokenProcessPool:
                pool.shutdown(wait=True, cancel_futures=True)
                # The other workers were stopped too, maybe in the middle of a write.
                for chunk in chunks[start:submitted]:
                    for item in chunk:
                        target = out_dir / item.output
                        remove_stale_temporaries(target.parent, target.name)
        if start < end:  # the pool broke on chunks[start]
            for item in chunks[start]:
                yield isolated(convert, item, out_dir)
            start += 1


def chunk_size(files: int, workers: int) -> int:
    """Files per task: up to :data:`MAX_CHUNK`, while every worker still gets several
    tasks to balance."""
    return max(1, min(MAX_CHUNK, files // (workers * 4)))


def convert_chunk(convert: Converter, items: list[BatchItem], out_dir: Path) -> list[Outcome]:
    """A worker's task: ``done_here`` for each of a few files."""
    return [done_here(convert, item, out_dir) for item in items]


def isolated(convert: Converter, item: BatchItem, out_dir: Path) -> Outcome:
    """Convert one file alone in a fresh worker: its outcome, or an INTERNAL_ERROR when
    the worker dies on it."""
    with new_pool(1, convert) as pool:
        try:
            return pool.submit(done_here, convert, item, out_dir).result()
        except BrokenProcessPool as exc:
            message = RuntimeError("the worker process converting this file died "
                                   f"({exc})")
            return finish(item, None, [internal_error(message, str(item.source))],
                          SourceLines(), out_dir)


def new_pool(workers: int, convert: Converter) -> ProcessPoolExecutor:
    """A process pool whose workers start as :func:`start_method` says."""
    method = start_method()
    context = multiprocessing.get_context(method)
    function = getattr(convert, "function", None) or getattr(convert, "func", convert)
    module = getattr(function, "__module__", None)  # FileConverter, functools.partial
    if method == "forkserver" and module:
        context.set_forkserver_preload([module])
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=worker_started)


def start_method() -> str:
    """``fork`` on Linux while this process runs one thread (the workers start at once,
    with everything imported); else the fork server where there is one, else spawn."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods \
            and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def worker_started() -> None:
    """A worker runs with the cycle collector off, as the commands do (it collects between
    files instead), the objects it started with frozen (a forked worker's first collection
    would otherwise walk every object imported before the fork, and copy their memory),
    and SIGINT ends it as it ends a plain program (no KeyboardInterrupt traceback from each
    worker)."""
    gc.disable()
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
