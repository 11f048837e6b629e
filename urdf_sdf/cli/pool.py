"""Work done in worker processes, results in input order: :func:`in_workers`, the
process pool of a batch run with ``-j N`` (:mod:`urdf_sdf.cli.batch`).

The standard library's ``ProcessPoolExecutor``. Its workers are forked on Linux while
this process runs one thread (they start in milliseconds, with every module imported);
elsewhere, or with other threads running (forking them could deadlock the child), the
platform's fork server starts them (the modules named by ``preload`` imported once, in
the server), or spawn. ``multiprocessing`` and ``concurrent.futures`` are imported on
first use: a plain conversion never loads them. What a batch relies on:

* Order: the results come in the order of the items, whatever order the workers finish in.
* Bounded memory: a few items per task (:func:`chunk_size`: small files do not cost a
  round trip each); at most :data:`AHEAD_PER_WORKER` tasks per worker submitted ahead of
  the one whose results are awaited (results that arrive early wait in their futures, few
  of them); a fresh pool after :data:`TASKS_PER_CHILD` tasks per worker, so that what a
  long batch leaves behind in one process stays bounded (not the executor's own
  ``max_tasks_per_child``, which cannot fork, and deadlocks with tasks queued on Python
  3.11 and 3.12: python/cpython#115634).
* A dying worker (a crash in a C library, the kernel's OOM killer) fails its own item
  only. The pool breaks; the results already back are kept; ``abandoned`` is told the
  items that were in flight (the other workers were ended too, maybe in the middle of a
  write); the items of the awaited task are retried one at a time, each alone in a fresh
  worker (its result, or ``lost(item, why)`` when that worker dies too); a fresh pool
  takes up the rest.
* Interrupts: Ctrl-C (SIGINT to the foreground process group) ends the workers at once
  (they take the default action) and raises KeyboardInterrupt here, as without workers.
  SIGTERM or SIGHUP to this process ends the workers, then this process by the same
  signal. Either way ``abandoned`` is told what was in flight. A worker whose parent is
  gone (killed by SIGKILL) ends by itself within :data:`PARENT_CHECK_SECONDS`.
* No worker to be had (a process limit, EAGAIN): this process does the rest of the work.
"""
from __future__ import annotations

import contextlib
import functools
import gc
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from urdf_sdf.cli.output import CLEANUP_SIGNALS, handling_signals

if TYPE_CHECKING:  # (a TypeVar costs a plain conversion 0.4 ms to make at import)
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.process import BaseProcess
    from typing import TypeVar
    Item = TypeVar("Item")
    Result = TypeVar("Result")

# A fresh pool after this many tasks per worker.
TASKS_PER_CHILD = 25
# Tasks submitted ahead of the one whose results are awaited, per worker.
AHEAD_PER_WORKER = 4
MAX_CHUNK = 8  # items per task at most
# How often a worker checks that the process that started it is still there.
PARENT_CHECK_SECONDS = 0.5
# How long a worker being ended may take before it is killed.
END_GRACE_SECONDS = 1.0


@contextlib.contextmanager
def in_workers(work: Callable[[Item], Result], items: Sequence[Item], workers: int, *,
               lost: Callable[[Item, str], Result],
               abandoned: Callable[[list[Item]], None],
               preload: Sequence[str] = ()) -> Iterator[Iterator[Result]]:
    """While inside: an iterator of ``work(item)`` for each of ``items``, in their order,
    computed by ``workers`` worker processes (see the module). ``work`` must be picklable
    (a module-level function, or a ``functools.partial`` of one), and so must its results.
    ``lost(item, why)`` is the result of an item whose worker died on it (called here);
    ``abandoned(items)`` removes what workers ended early left of these items (called
    here, once those workers are gone). Leaving ends every worker."""
    results = Ordered(work, list(items), workers, lost, abandoned, tuple(preload)).results()
    try:
        with handling_signals(functools.partial(interrupt, os.getpid())):
            yield results
    except Interrupted as stop:
        results.close()
        signal.signal(stop.signum, signal.SIG_DFL)
        os.kill(os.getpid(), stop.signum)  # ends this process as the signal would have
        raise
    finally:
        results.close()


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP while workers run: the workers are ended, then this process."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def interrupt(owner: int, signum: int, frame: object) -> None:
    """The handler of the cleanup signals while workers run, in process ``owner``: leave
    (and so end the workers) by an exception. A worker inherits it until it puts back the
    default action (:func:`worker_started`): there it takes that action."""
    if os.getpid() != owner:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Interrupted(signum)


class PoolBroken(Exception):
    """A worker died: the awaited task's items are retried one by one."""


class NoWorkers(Exception):
    """No worker process could be started: this process does the rest."""


class Ordered:
    """The state of one :func:`in_workers` run: the items in tasks (``chunks``), the
    index of the task whose results come next, and the results of tasks that a broken
    pool had already answered."""

    def __init__(self, work: Callable[[Any], Any], items: list[Any], workers: int,
                 lost: Callable[[Any, str], Any],
                 abandoned: Callable[[list[Any]], None], preload: tuple[str, ...]) -> None:
        size = chunk_size(len(items), workers)
        self.chunks = [items[i:i + size] for i in range(0, len(items), size)]
        self.work, self.workers, self.lost, self.abandoned = work, workers, lost, abandoned
        self.preload = preload
        self.next = 0
        self.answered: dict[int, list[Any]] = {}

    def results(self) -> Generator[Any, None, None]:
        while self.next < len(self.chunks):
            try:
                yield from self.pooled()
            except PoolBroken:
                chunk, self.next = self.chunks[self.next], self.next + 1
                for item in chunk:
                    yield self.alone(item)
            except NoWorkers:
                yield from self.here()

    def pooled(self) -> Iterator[Any]:
        """The results of the tasks from :attr:`next`, by one pool, until it has done
        :data:`TASKS_PER_CHILD` tasks per worker."""
        end = min(len(self.chunks), self.next + self.workers * TASKS_PER_CHILD)
        executor = new_executor(self.workers, self.preload)
        futures: dict[int, Future] = {}
        try:
            while self.next < end:
                self.submit_ahead(executor, futures, end)
                results = self.awaited(futures)
                self.next += 1
                if self.next == end:  # the workers end as they should, not killed
                    executor.shutdown(wait=True)
                yield from results
        except BaseException as exc:
            end_workers(executor)
            self.abandoned([item for index in futures for item in self.chunks[index]])
            self.keep_answered(futures)
            futures.clear()  # their exception's traceback holds this frame
            if is_broken(exc):
                raise PoolBroken from exc
            raise

    def submit_ahead(self, executor: ProcessPoolExecutor, futures: dict[int, Future],
                     end: int) -> None:
        """Submit the tasks up to :data:`AHEAD_PER_WORKER` per worker past the awaited
        one (not beyond ``end``, nor those already answered)."""
        last = min(end, self.next + 1 + self.workers * AHEAD_PER_WORKER)
        for index in range(self.next, last):
            if index not in futures and index not in self.answered:
                try:
                    futures[index] = executor.submit(run_chunk, self.work, self.chunks[index])
                except OSError as exc:  # no process (or pipe) to be had for a worker
                    raise NoWorkers from exc

    def awaited(self, futures: dict[int, Future]) -> list[Any]:
        if self.next in self.answered:
            return self.answered.pop(self.next)
        results = futures[self.next].result()
        del futures[self.next]
        return results

    def keep_answered(self, futures: dict[int, Future]) -> None:
        """Keep the results a broken pool had sent back (not to do them twice)."""
        for index, future in futures.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                self.answered[index] = future.result()

    def alone(self, item: Any) -> Any:
        """``item``'s result from a fresh worker of its own, or ``lost(item, why)`` when
        that worker dies on it (or none can be started)."""
        executor = new_executor(1, self.preload)
        try:
            future = executor.submit(run_chunk, self.work, [item])
            failure = future.exception()  # waits; a worker's death is not raised here
        except OSError as exc:
            end_workers(executor)
            return self.lost(item, f"no worker process could be started to retry it: {exc}")
        except BaseException:
            end_workers(executor)
            self.abandoned([item])
            raise
        if failure is None:
            executor.shutdown(wait=True)
            return future.result()[0]
        processes = worker_processes(executor)
        end_workers(executor)
        if not is_broken(failure):
            raise failure
        return self.lost(item, "the worker process converting this file died "
                               f"({ended_how(processes)})")

    def here(self) -> Iterator[Any]:
        """The remaining results, done in this process."""
        while self.next < len(self.chunks):
            index, self.next = self.next, self.next + 1
            answered = self.answered.pop(index, None)
            yield from answered if answered is not None else run_chunk(self.work,
                                                                       self.chunks[index])


def chunk_size(items: int, workers: int) -> int:
    """Items per task: up to :data:`MAX_CHUNK`, while every worker still gets several
    tasks to balance."""
    return max(1, min(MAX_CHUNK, items // (workers * 4)))


def run_chunk(work: Callable[[Item], Result], chunk: list[Item]) -> list[Result]:
    """A worker's task: ``work`` for each of a few items."""
    return [work(item) for item in chunk]


def new_executor(workers: int, preload: tuple[str, ...]) -> ProcessPoolExecutor:
    """A process pool whose workers start as :func:`start_method` says (the fork server
    importing ``preload`` first); no worker is started before the first task."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    method = start_method()
    context = multiprocessing.get_context(method)
    if method == "forkserver" and preload:
        context.set_forkserver_preload(list(preload))
    return ProcessPoolExecutor(max_workers=workers, mp_context=context,
                               initializer=worker_started)


def start_method() -> str:
    """``fork`` on Linux while this process runs one thread (the workers start at once,
    with everything imported); else the fork server where there is one, else spawn."""
    if sys.platform.startswith("linux") and hasattr(os, "fork") \
            and threading.active_count() == 1:
        return "fork"
    import multiprocessing
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def worker_processes(executor: ProcessPoolExecutor) -> list[BaseProcess]:
    """The executor's worker processes. ``_processes`` is the executor's own record
    (Python 3.14's ``terminate_workers`` is the first public way to reach them)."""
    return list((getattr(executor, "_processes", None) or {}).values())


def end_workers(executor: ProcessPoolExecutor) -> None:
    """End the executor's workers at once and wait until they are gone: SIGTERM (a worker
    writing a file removes its temporary file), then SIGKILL for a worker still there
    after :data:`END_GRACE_SECONDS` (one that the signal reached before it had put
    back the default action)."""
    processes = worker_processes(executor)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.terminate()
    deadline = time.monotonic() + END_GRACE_SECONDS
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
    executor.shutdown(wait=True, cancel_futures=True)


def is_broken(exc: BaseException) -> bool:
    """Did ``exc`` come from a worker that died (the pool is broken)?"""
    from concurrent.futures.process import BrokenProcessPool
    return isinstance(exc, BrokenProcessPool)


def ended_how(processes: list[BaseProcess]) -> str:
    """How the (one) worker of ``processes`` ended: ``killed by SIGKILL``, ``exit status
    3``."""
    codes = [process.exitcode for process in processes if process.exitcode]
    if not codes:
        return "exit status unknown"
    if codes[0] < 0:
        try:
            return f"killed by {signal.Signals(-codes[0]).name}"
        except ValueError:
            return f"killed by signal {-codes[0]}"
    return f"exit status {codes[0]}"


def worker_started() -> None:
    """A worker's cleanup signals take their default action (not the handler of
    :func:`in_workers`, inherited by fork); it runs with the cycle collector off, as the
    commands do (the work collects between items instead), the objects it started with
    frozen (a forked worker's first collection would otherwise walk every object imported
    before the fork, and copy their memory); it ends when the process that started it is
    gone."""
    for signum in CLEANUP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)
    gc.disable()
    gc.freeze()
    threading.Thread(target=end_with_parent, args=(os.getppid(),), daemon=True).start()


def end_with_parent(parent: int) -> None:
    """End this worker (as SIGTERM does: what it was writing is removed) once ``parent``
    is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)
