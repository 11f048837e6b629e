"""Batch workers in a ``ProcessPoolExecutor``: :func:`executed`, what
:func:`urdf_sdf.cli.pool.pooled` runs where this process cannot fork (not Linux, or
other threads running), with the platform's fork server or spawn (see that module for the
behaviour both ways share). Its own pool is replaced after
:data:`~urdf_sdf.cli.pool.TASKS_PER_CHILD` tasks per worker: not
ProcessPoolExecutor's own max_tasks_per_child, which deadlocks with tasks queued on Python
3.11 and 3.12 (https://github.com/python/cpython/issues/115634) and cannot fork.
"""
from __future__ import annotations

import collections
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Iterator

from urdf_sdf.cli import pool
from urdf_sdf.cli.batch import BatchItem, Converter, Outcome, done_here


def executed(todo: list[BatchItem], convert: Converter, workers: int,
           out_dir: Path) -> Iterator[Outcome]:
    """The outcomes of converting ``todo`` into ``out_dir`` in ``workers`` worker
    processes, in input order (see the module)."""
    size = pool.chunk_size(len(todo), workers)
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    start = 0
    while start < len(chunks):
        end = min(len(chunks), start + workers * pool.TASKS_PER_CHILD)
        with new_pool(workers, convert) as executor:
            window: collections.deque = collections.deque()
            submitted = start
            try:
                while start < end:
                    while submitted < end and len(window) < workers * pool.AHEAD_PER_WORKER:
                        window.append(executor.submit(pool.convert_chunk, convert,
                                                      chunks[submitted], out_dir))
                        submitted += 1
                    results = window[0].result()
                    window.popleft()
                    start += 1
                    yield from results
            except BrokenProcessPool:
                executor.shutdown(wait=True, cancel_futures=True)
                # The other workers were stopped too, maybe in the middle of a write.
                for chunk in chunks[start:submitted]:
                    pool.remove_temporaries_of(chunk, out_dir)
        if start < end:  # the pool broke on chunks[start]
            for item in chunks[start]:
                yield isolated(convert, item, out_dir)
            start += 1


def isolated(convert: Converter, item: BatchItem, out_dir: Path) -> Outcome:
    """Convert one file alone in a fresh worker: its outcome, or an INTERNAL_ERROR when
    the worker dies on it."""
    with new_pool(1, convert) as executor:
        try:
            return executor.submit(done_here, convert, item, out_dir).result()
        except BrokenProcessPool as exc:
            return pool.failed_in_worker(
                item, f"the worker process converting this file died ({exc})", out_dir)


def new_pool(workers: int, convert: Converter) -> ProcessPoolExecutor:
    """A process pool whose workers start as :func:`~urdf_sdf.cli.pool.start_method`
    says."""
    method = pool.start_method()
    context = multiprocessing.get_context(method)
    function = getattr(convert, "function", None) or getattr(convert, "func", convert)
    module = getattr(function, "__module__", None)  # FileConverter, functools.partial
    if method == "forkserver" and module:
        context.set_forkserver_preload([module])
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=pool.worker_started)
