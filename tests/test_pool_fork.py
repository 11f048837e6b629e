"""The forked batch workers (``urdf_sdf/cli/pool_fork.py``, Linux): each file converted once,
in a worker, outcomes in input order whatever order the workers answer in; a worker
replaced after its tasks; a worker that dies or is killed fails the file it was
converting, and the chunks it held go to the others; leaving early (an interrupt, an
error in this process) ends every worker; workers that cannot be forked leave the work
to those running, or to this process.

The converters here are module-level functions (workers receive them by fork): each
writes the pid of the process that converted the file, so a test can tell which worker
did what. No test waits for a time to pass: a file that must be slow waits for what the
test expects to happen meanwhile (with a deadline, so that a bug fails the test), and
every test fails, rather than hangs, after :data:`HANG` seconds.
"""
from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path

import pytest

from urdf_sdf.cli import pool as pool_module
from urdf_sdf.cli import pool_fork
from urdf_sdf.cli.batch import BatchItem, FileConverter, run_batch
from urdf_sdf.core.base.diagnostics import Code

pytestmark = pytest.mark.skipif(pool_module.start_method() != "fork",
                                reason="workers are forked on Linux only")

HANG = 60  # seconds after which a test counts as hung
DEADLINE = 10.0  # seconds a waiting file waits at most


def pid_writer(path: Path, sources) -> tuple[bytes, list]:
    """Write the converting process's pid. A file named ``wait_N*`` first waits until N
    other outputs exist; ``block*`` waits for a file that never comes (until
    :data:`DEADLINE`); ``die*`` ends its worker (exit status 3), ``kill*`` has it killed
    by SIGKILL; ``unsendable*`` returns a diagnostic that cannot be pickled."""
    out = path.parent.parent / "out"
    name = path.name
    if name.startswith("wait_"):
        others = int(name.split("_")[1].split(".")[0])
        wait_for(lambda: len(list(out.glob("*.out"))) >= others)
    if name.startswith("block"):
        wait_for(lambda: (out / "never").exists())
    if name.startswith("die"):
        os._exit(3)
    if name.startswith("kill"):
        os.kill(os.getpid(), signal.SIGKILL)
    if name.startswith("unsendable"):
        return str(os.getpid()).encode(), [Unsendable()]
    return str(os.getpid()).encode(), []


def wait_for(condition) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)


class Unsendable:
    """A diagnostic-like value (a warning) that cannot be pickled."""
    is_error = False

    def __reduce__(self):
        raise TypeError("cannot pickle this diagnostic")


CONVERT = FileConverter(pid_writer)


def items_named(tmp_path: Path, names: list[str]) -> list[BatchItem]:
    source = tmp_path / "in"
    source.mkdir()
    items = []
    for name in names:
        (source / name).write_text("<robot/>")
        items.append(BatchItem(source / name, Path(name), Path(name).with_suffix(".out")))
    return items


def converted_by(out: Path) -> dict[str, int]:
    """Output file name -> the pid that wrote it."""
    return {p.name: int(p.read_text()) for p in out.iterdir()}


def children() -> set[int]:
    """The pids of this process's children, zombies included (a fork server that another
    test started may be one)."""
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # after "pid (name) state"
        if parent == os.getpid():
            found.add(int(entry.name))
    return found


def open_descriptors() -> set[int]:
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


@pytest.fixture(autouse=True)
def fails_rather_than_hangs():
    def hung(signum, frame):
        raise TimeoutError(f"hung for {HANG} s")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(HANG)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def nothing_left():
    """Asserts, once the test has run, that it left no child process behind, nor an open
    file descriptor."""
    processes, descriptors = children(), open_descriptors()
    yield
    assert children() <= processes
    assert open_descriptors() <= descriptors


def test_outcomes_come_in_input_order_when_workers_answer_out_of_order(tmp_path,
                                                                      monkeypatch,
                                                                      nothing_left):
    """The first file waits until 7 others are written: while one worker holds it (and
    the one chunk queued behind it), the other converts what may be handed out meanwhile
    (8 chunks: 4 per worker ahead of the awaited one)."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    names = ["wait_7.urdf"] + [f"r{i:02d}.urdf" for i in range(12)]
    items = items_named(tmp_path, names)
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert [o.item.source.name for o in outcomes] == names
    assert {o.status for o in outcomes} == {"converted"}
    pids = converted_by(tmp_path / "out")
    assert os.getpid() not in pids.values()
    by_waiting_one = [i for i in range(8) if pids[f"r{i:02d}.out"] == pids["wait_7.out"]]
    assert len(by_waiting_one) <= 1


def test_a_worker_is_replaced_after_its_tasks(tmp_path, monkeypatch, nothing_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    monkeypatch.setattr(pool_module, "TASKS_PER_CHILD", 2)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(10)])
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert {o.status for o in outcomes} == {"converted"}
    pids = list(converted_by(tmp_path / "out").values())
    assert max(pids.count(pid) for pid in pids) <= 2 and len(set(pids)) >= 5


@pytest.mark.parametrize("chunk", [1, 3])
@pytest.mark.parametrize("fatal, reason", [("die.urdf", "exit status 3"),
                                           ("kill.urdf", "killed by SIGKILL")])
def test_a_dead_worker_fails_its_file_and_its_other_chunks_go_on(tmp_path, monkeypatch,
                                                                  nothing_left, chunk,
                                                                  fatal, reason):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", chunk)
    names = [f"a{i}.urdf" for i in range(3)] + [fatal] + [f"r{i:02d}.urdf" for i in range(20)]
    assert pool_module.chunk_size(len(names), 2) == chunk
    items = items_named(tmp_path, names)
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert [o.item.source.name for o in outcomes] == names
    failed = [o for o in outcomes if o.status == "failed"]
    assert [o.item.source.name for o in failed] == [fatal]
    (diagnostic,) = failed[0].diagnostics
    assert diagnostic.code is Code.INTERNAL_ERROR
    assert f"the worker process converting this file died ({reason})" in diagnostic.message
    assert len(converted_by(tmp_path / "out")) == len(names) - 1


def test_leaving_early_ends_every_worker(tmp_path, monkeypatch, nothing_left):
    """An interrupt or an error in this process while workers convert: they are ended
    (SIGTERM), not waited for (the files they hold are never written), and none is left
    behind, nor any temporary file."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    items = items_named(tmp_path, ["r0.urdf"] + [f"block{i}.urdf" for i in range(8)])
    outcomes = pool_fork.forked(items, CONVERT, 2, tmp_path / "out")
    assert next(outcomes).status == "converted"
    started = time.monotonic()
    outcomes.close()
    assert time.monotonic() - started < DEADLINE  # not waited for
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["r0.out"]


def test_an_interrupt_while_waiting_for_workers_ends_them(tmp_path, monkeypatch,
                                                          nothing_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    items = items_named(tmp_path, [f"block{i}.urdf" for i in range(4)])

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)  # while this process waits in receive()
    try:
        with pytest.raises(KeyboardInterrupt):
            list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        signal.alarm(HANG)  # the guard that timer replaced
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_outcome_that_cannot_be_sent_back_fails_its_file_only(tmp_path, nothing_left):
    items = items_named(tmp_path, ["r0.urdf", "unsendable.urdf", "r1.urdf"])
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert [o.status for o in outcomes] == ["converted", "failed", "converted"]
    (diagnostic,) = outcomes[1].diagnostics
    assert diagnostic.code is Code.INTERNAL_ERROR
    assert "could not be sent back from its worker" in diagnostic.message
    assert sorted(converted_by(tmp_path / "out")) == ["r0.out", "r1.out"]


def failing_forks(monkeypatch, allowed: int) -> None:
    """``os.fork`` fails (EAGAIN, as under a process limit) after ``allowed`` forks."""
    real_fork, forks = os.fork, []

    def fork():
        if len(forks) >= allowed:
            raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
        forks.append(1)
        return real_fork()
    monkeypatch.setattr(os, "fork", fork)


def test_workers_that_cannot_be_forked_leave_the_work_to_the_one_running(
        tmp_path, monkeypatch, nothing_left):
    failing_forks(monkeypatch, allowed=1)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(12)])
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert {o.status for o in outcomes} == {"converted"}
    pids = set(converted_by(tmp_path / "out").values())
    assert len(pids) == 1 and os.getpid() not in pids


def test_with_no_worker_to_be_had_this_process_converts(tmp_path, monkeypatch,
                                                        nothing_left):
    failing_forks(monkeypatch, allowed=0)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(6)])
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert {o.status for o in outcomes} == {"converted"}
    assert set(converted_by(tmp_path / "out").values()) == {os.getpid()}


def test_a_batch_uses_the_forked_workers(tmp_path, capsys, monkeypatch, nothing_left):
    """``run_batch`` with two jobs on Linux: every file converted once, by a worker that
    :func:`pool_fork.forked` started."""
    calls = []

    def spy(*args):
        calls.append(args)
        return forked(*args)
    forked = pool_fork.forked
    monkeypatch.setattr(pool_fork, "forked", spy)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(12)])
    assert run_batch(items, tmp_path / "out", CONVERT, prog="urdf2sdf", quiet=True,
                     jobs=2) == 0
    assert "converted  12  into" in capsys.readouterr().out
    assert len(calls) == 1
    pids = set(converted_by(tmp_path / "out").values())
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
