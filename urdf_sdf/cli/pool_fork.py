"""Batch workers forked on Linux: :func:`forked`, what :func:`urdf_sdf.cli.pool.pooled`
runs while this process can fork (see that module for the behaviour both ways share).

Why not ``ProcessPoolExecutor`` here: importing it costs a batch about 15 ms, and every
task passes through its two threads and its queues; on a batch of small files (1-2 ms
each) that is most of what the second core gains. A forked worker already holds the
chunks (the parent's memory), so only indices and outcomes cross a pipe:

* each worker reads the indices of its chunks, 4 bytes each, from a pipe of its own, and
  answers each with one message on another pipe (8 bytes of length, then the pickled
  ``(index, outcomes)``); it ends when its task pipe is closed;
* this process gives a worker a chunk while it holds fewer than
  :data:`HELD_PER_WORKER` unanswered ones (the one it converts and the next, so that it
  never waits for work, and a slow file holds up one chunk behind it at most), and so
  knows what a worker held when it died: the oldest unanswered chunk is the one it was
  converting (its files are retried one by one, each in a fresh worker), the others are
  given to the rest;
* after :data:`~urdf_sdf.cli.pool.TASKS_PER_CHILD` chunks a worker's task pipe is
  closed and a fresh worker forked for what remains (memory stays bounded);
* a broken chunk's files are retried once the other workers have answered what they
  hold, one at a time, each alone in a fresh worker (a file that exhausted memory gets
  the machine to itself);
* SIGINT, SIGTERM and SIGHUP are held back while a worker is forked and recorded (an
  interrupt there would lose track of it); a worker ends when this process is gone
  (it checks before each chunk); workers that cannot be forked (EAGAIN, EMFILE) leave
  their work to those running, or to this process when none is.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
from pathlib import Path
from typing import Iterator

from urdf_sdf.cli import pool
from urdf_sdf.cli.batch import BatchItem, Converter, Outcome
from urdf_sdf.cli.crash import debugging

INDEX_BYTES = 4
LENGTH_BYTES = 8
READ_SIZE = 1 << 16
CRASHED = 70  # a worker's exit status when our own code fails outside a conversion
HELD_PER_WORKER = 2
# Held back while a worker is forked (those a platform has: the module imports anywhere).
HELD_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                if hasattr(signal, name)}


def forked(todo: list[BatchItem], convert: Converter, workers: int,
           out_dir: Path) -> Iterator[Outcome]:
    """The outcomes of converting ``todo`` into ``out_dir`` in ``workers`` forked worker
    processes, in input order."""
    size = pool.chunk_size(len(todo), workers)
    chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
    ahead = workers * pool.AHEAD_PER_WORKER
    with Workers(chunks, convert, out_dir, workers) as team:
        for index, chunk in enumerate(chunks):
            team.allow(min(len(chunks), index + 1 + ahead))
            outcomes = team.outcomes(index)
            if outcomes is None:  # its worker died converting it
                team.drain()
                pool.remove_temporaries_of(chunk, out_dir)
                outcomes = [team.alone(item) for item in chunk]
            yield from outcomes


class Worker:
    """This process's end of one worker: its pid, its two pipes, the chunks it was given
    and has not answered (oldest first), and the bytes of a message being received."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.unanswered: list[int] = []
        self.given = 0
        self.received = bytearray()

    def retire(self) -> None:
        """Close the task pipe: the worker ends once it has answered what it holds."""
        if self.tasks >= 0:
            tasks, self.tasks = self.tasks, -1
            os.close(tasks)


class Workers:
    """Up to ``count`` forked workers converting ``chunks`` (see the module); a context
    manager that ends them all when left, at once when left by an exception."""

    def __init__(self, chunks: list[list[BatchItem]], convert: Converter, out_dir: Path,
                 count: int) -> None:
        # A copy: a retried file is added as a chunk of its own (:meth:`alone`).
        self.chunks = list(chunks)
        self.convert, self.out_dir, self.count = convert, out_dir, count
        self.live: dict[int, Worker] = {}  # result pipe -> worker
        self.done: dict[int, list[Outcome]] = {}
        self.broken: set[int] = set()
        self.taken_back: list[int] = []  # chunks a dead worker held, to give again
        self.given = 0  # chunks 0 .. given-1 were handed out
        self.allowed = 0  # chunks 0 .. allowed-1 may be
        self.last_death = ""

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind, value, traceback) -> None:
        workers = list(self.live.values())
        self.live.clear()
        for worker in workers:
            with contextlib.suppress(OSError):
                worker.retire()
            if kind is not None:  # an interrupt, an error here: no need to finish
                with contextlib.suppress(OSError):
                    os.kill(worker.pid, signal.SIGTERM)
        for worker in workers:
            with contextlib.suppress(OSError):
                os.close(worker.results)
            reap(worker.pid)
            pool.remove_temporaries_of([item for index in worker.unanswered
                                   for item in self.chunks[index]], self.out_dir)

    def allow(self, end: int) -> None:
        """Let the chunks up to ``end`` (exclusive) be handed out: the results that
        arrive before their turn stay few."""
        self.allowed = max(self.allowed, end)

    def hand_out(self) -> None:
        """Give the chunks taken back, then the next allowed ones, to the workers with
        room for one, forking workers up to ``count``; with no worker to be had at all,
        convert them here."""
        while self.taken_back or self.given < self.allowed:
            worker = self.worker_with_room()
            if worker is None and self.live:
                return
            if self.taken_back:
                index = self.taken_back.pop(0)
            else:
                index, self.given = self.given, self.given + 1
            if worker is None:
                self.done[index] = pool.convert_chunk(self.convert, self.chunks[index],
                                                      self.out_dir)
            else:
                self.give(worker, index)

    def worker_with_room(self) -> Worker | None:
        open_ones = [w for w in self.live.values() if w.tasks >= 0]
        if len(open_ones) < self.count:
            try:
                return self.start()
            except OSError:  # no process or pipe to be had: do with the ones running
                self.count = max(1, len(open_ones))
                if not open_ones:
                    return None
        worker = min(open_ones, key=lambda w: len(w.unanswered))
        return worker if len(worker.unanswered) < HELD_PER_WORKER else None

    def give(self, worker: Worker, index: int) -> None:
        worker.unanswered.append(index)
        worker.given += 1
        try:
            os.write(worker.tasks, index.to_bytes(INDEX_BYTES, "little"))
        except OSError:  # it died: its end of file tells what it held
            worker.retire()
            return
        if worker.given >= pool.TASKS_PER_CHILD:
            worker.retire()

    def outcomes(self, index: int) -> list[Outcome] | None:
        """Chunk ``index``'s outcomes once answered; None when its worker died on it."""
        self.hand_out()
        while index not in self.done and index not in self.broken:
            self.receive()
            self.hand_out()
        return self.done.pop(index, None)

    def drain(self) -> None:
        """Wait until no worker holds a chunk (handing out none)."""
        while any(worker.unanswered for worker in self.live.values()):
            self.receive()

    def alone(self, item: BatchItem) -> Outcome:
        """Convert one file alone in a fresh worker: its outcome, or an INTERNAL_ERROR
        when the worker dies on it (or none can be forked)."""
        index = len(self.chunks)
        self.chunks.append([item])  # before the fork: the worker finds it there
        try:
            worker = self.start()
        except OSError as exc:
            return pool.failed_in_worker(item, f"no worker process could be started to retry it: {exc}",
                        self.out_dir)
        self.give(worker, index)
        worker.retire()
        while index not in self.done and index not in self.broken:
            self.receive()
        outcomes = self.done.pop(index, None)
        if outcomes is None:
            return pool.failed_in_worker(item, f"the worker process converting this file died "
                              f"({self.last_death})", self.out_dir)
        return outcomes[0]

    def receive(self) -> None:
        """Wait for what the workers send, and take it in."""
        poller = select.poll()
        for fd in self.live:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll():
            worker = self.live[fd]
            data = os.read(fd, READ_SIZE)
            if not data:
                self.ended(worker)
                continue
            worker.received += data
            self.unpack(worker)

    def unpack(self, worker: Worker) -> None:
        buffer = worker.received
        while len(buffer) >= LENGTH_BYTES:
            end = LENGTH_BYTES + int.from_bytes(buffer[:LENGTH_BYTES], "little")
            if len(buffer) < end:
                return
            index, outcomes = pickle.loads(buffer[LENGTH_BYTES:end])
            del buffer[:end]
            worker.unanswered.remove(index)
            self.done[index] = outcomes

    def ended(self, worker: Worker) -> None:
        """A worker's result pipe is at its end: the worker is gone. The chunk it was
        converting, if any, is broken; the others it held go to the rest."""
        del self.live[worker.results]
        worker.retire()
        os.close(worker.results)
        status = reap(worker.pid)
        if worker.unanswered:
            self.broken.add(worker.unanswered[0])
            self.taken_back[:0] = worker.unanswered[1:]
            self.last_death = describe_status(status)

    def start(self) -> Worker:
        """Fork a worker (see :func:`serve`), with the signals that end a command held
        back until it is recorded; raises OSError when no pipe or process can be had."""
        held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
        try:
            return self.fork_worker(held)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def fork_worker(self, held) -> Worker:
        tasks_read, tasks_write = os.pipe()
        try:
            results_read, results_write = os.pipe()
        except OSError:
            os.close(tasks_read)
            os.close(tasks_write)
            raise
        try:
            pid = os.fork()
        except OSError:
            for fd in (tasks_read, tasks_write, results_read, results_write):
                os.close(fd)
            raise
        if pid == 0:  # the worker
            for fd in [tasks_write, results_read] + [fd for other in self.live.values()
                                                     for fd in (other.results, other.tasks)
                                                     if fd >= 0]:
                os.close(fd)
            run_worker(tasks_read, results_write, self, held)
        os.close(tasks_read)
        os.close(results_write)
        worker = Worker(pid, tasks_write, results_read)
        self.live[results_read] = worker
        return worker


def run_worker(tasks: int, results: int, team: Workers, held) -> None:
    """A forked worker's whole life: it never returns, never runs this process's exit
    handlers and never flushes its buffers."""
    status = CRASHED
    try:
        pool.worker_started()
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        serve(tasks, results, team.chunks, team.convert, team.out_dir)
        status = 0
    except BaseException:
        if debugging():
            import traceback
            traceback.print_exc()
    finally:
        os._exit(status)


def serve(tasks: int, results: int, chunks: list[list[BatchItem]], convert: Converter,
          out_dir: Path) -> None:
    """A worker's loop: convert each chunk whose index arrives, send back its outcomes;
    end when the task pipe closes or this worker's parent is gone."""
    parent = os.getppid()
    while True:
        head = read_exactly(tasks, INDEX_BYTES)
        if head is None or os.getppid() != parent:
            return
        index = int.from_bytes(head, "little")
        outcomes = pool.convert_chunk(convert, chunks[index], out_dir)
        message = pickled(index, outcomes, out_dir)
        write_all(results, len(message).to_bytes(LENGTH_BYTES, "little") + message)


def pickled(index: int, outcomes: list[Outcome], out_dir: Path) -> bytes:
    """``(index, outcomes)`` pickled; an outcome that cannot be (a bug of ours) becomes its
    file's INTERNAL_ERROR, and what it wrote is removed."""
    try:
        return pickle.dumps((index, outcomes), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # PicklingError, TypeError, AttributeError...
        pass
    sendable = []
    for outcome in outcomes:
        try:
            pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            if outcome.written is not None:
                with contextlib.suppress(OSError):
                    os.unlink(outcome.written)
            outcome = pool.failed_in_worker(
                outcome.item, f"its outcome could not be sent back from its worker: {exc}",
                out_dir)
        sendable.append(outcome)
    return pickle.dumps((index, sendable), protocol=pickle.HIGHEST_PROTOCOL)


def read_exactly(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``; None at its end."""
    data = b""
    while len(data) < size:
        more = os.read(fd, size - len(data))
        if not more:
            return None
        data += more
    return data


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def reap(pid: int) -> int | None:
    """Wait for worker ``pid`` to end: its wait status (None when it cannot be known: a
    host that reaps children itself)."""
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return None
        except InterruptedError:
            continue


def describe_status(status: int | None) -> str:
    if status is None:
        return "exit status unknown"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"killed by {name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
