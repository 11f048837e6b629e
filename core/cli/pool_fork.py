"""Batch workers forked on Linux: :func:`forked`, what :func:`urdf_sdf.core.cli.pool.pooled`
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
* after :data:`~urdf_sdf.core.cli.pool.TASKS_PER_CHILD` chunks a worker's task pipe is
  closed and a fresh worker forked for what remains (memory stays bounded).
"""
from __future__ import annotations

import os
import pickle
import select
import signal
from pathlib import Path
from typing import Iterator

from urdf_sdf.core.cli import pool
from urdf_sdf.core.cli.batch import BatchItem, Converter, Outcome, finish
from urdf_sdf.core.cli.crash import debugging, internal_error
from urdf_sdf.core.cli.output import remove_stale_temporaries
from urdf_sdf.core.cli.render import SourceLines

INDEX_BYTES = 4
LENGTH_BYTES = 8
READ_SIZE = 1 << 16
CRASHED = 70  # a worker's exit status when our own code fails outside a conversion
HELD_PER_WORKER = 2


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
                for item in chunk:
                    target = out_dir / item.output
                    remove_stale_temporaries(target.parent, target.name)
                outcomes = [isolated(convert, item, out_dir) for item in chunk]
            yield from outcomes


def isolated(convert: Converter, item: BatchItem, out_dir: Path) -> Outcome:
    """Convert one file alone in a fresh worker: its outcome, or an INTERNAL_ERROR when
    the worker dies on it."""
    with Workers([[item]], convert, out_dir, 1) as team:
        team.allow(1)
        outcomes = team.outcomes(0)
        if outcomes is not None:
            return outcomes[0]
        message = RuntimeError("the worker process converting this file died "
                               f"({team.last_death})")
    return finish(item, None, [internal_error(message, str(item.source))], SourceLines(),
                  out_dir)


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
            os.close(self.tasks)
            self.tasks = -1


class Workers:
    """Up to ``count`` forked workers converting ``chunks`` (see the module); a context
    manager that ends them all when left, at once when left by an exception."""

    def __init__(self, chunks: list[list[BatchItem]], convert: Converter, out_dir: Path,
                 count: int) -> None:
        self.chunks, self.convert, self.out_dir, self.count = chunks, convert, out_dir, count
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
        for worker in self.live.values():
            worker.retire()
            if kind is not None:  # an interrupt, an error here: no need to finish
                os.kill(worker.pid, signal.SIGTERM)
        for worker in list(self.live.values()):
            os.close(worker.results)
            reap(worker.pid)
        self.live.clear()

    def allow(self, end: int) -> None:
        """Let the chunks up to ``end`` (exclusive) be handed out: the results that
        arrive before their turn stay few."""
        self.allowed = max(self.allowed, end)

    def hand_out(self) -> None:
        """Give the chunks taken back, then the next allowed ones, to the workers with
        room for one, forking workers up to ``count``."""
        while self.taken_back or self.given < self.allowed:
            worker = self.worker_with_room()
            if worker is None:
                return
            if self.taken_back:
                self.give(worker, self.taken_back.pop(0))
            else:
                self.give(worker, self.given)
                self.given += 1

    def worker_with_room(self) -> Worker | None:
        open_ones = [w for w in self.live.values() if w.tasks >= 0]
        if len(open_ones) < self.count:
            return self.start()
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
        worker.retire()
        os.close(worker.results)
        del self.live[worker.results]
        status = reap(worker.pid)
        if worker.unanswered:
            self.broken.add(worker.unanswered[0])
            self.taken_back[:0] = worker.unanswered[1:]
            self.last_death = describe_status(status)

    def start(self) -> Worker:
        """Fork a worker (see :func:`serve`)."""
        tasks_read, tasks_write = os.pipe()
        results_read, results_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            status = CRASHED
            try:
                os.close(tasks_write)
                os.close(results_read)
                for other in self.live.values():
                    os.close(other.results)
                    if other.tasks >= 0:
                        os.close(other.tasks)
                pool.worker_started()
                serve(tasks_read, results_write, self.chunks, self.convert, self.out_dir)
                status = 0
            except BaseException:
                if debugging():
                    import traceback
                    traceback.print_exc()
            finally:
                os._exit(status)  # never the parent's exit handlers, never its buffers
        os.close(tasks_read)
        os.close(results_write)
        worker = Worker(pid, tasks_write, results_read)
        self.live[results_read] = worker
        return worker


def serve(tasks: int, results: int, chunks: list[list[BatchItem]], convert: Converter,
          out_dir: Path) -> None:
    """A worker's loop: convert each chunk whose index arrives, send back its outcomes."""
    while True:
        head = read_exactly(tasks, INDEX_BYTES)
        if head is None:
            return
        index = int.from_bytes(head, "little")
        outcomes = pool.convert_chunk(convert, chunks[index], out_dir)
        message = pickle.dumps((index, outcomes), protocol=pickle.HIGHEST_PROTOCOL)
        write_all(results, len(message).to_bytes(LENGTH_BYTES, "little") + message)


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


def reap(pid: int) -> int:
    """Wait for worker ``pid`` to end: its wait status."""
    while True:
        try:
            return os.waitpid(pid, 0)[1]
        except ChildProcessError:
            return 0
        except InterruptedError:
            continue


def describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        return f"killed by {name}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
