"""The batch's process pool (``urdf_sdf/cli/pool.py``, through ``batch.outcomes_of``): each
file converted once, in a worker, outcomes in input order whatever order the workers
answer in; a fresh pool after its tasks; a worker that dies or is killed by a signal fails
the file it was converting, and the rest go on; leaving early (an interrupt, an error in
this process) ends every worker and leaves no temporary file; SIGTERM to the batch's
process ends its workers and then it; a worker whose parent is killed ends by itself;
with no worker to be had, this process converts.

The converters here are module-level functions (workers receive them pickled): each
writes the pid of the process that converted the file, so a test can tell which worker
did what. No test waits for a time to pass: a file that must be slow waits for what the
test expects to happen meanwhile (with a deadline, so that a bug fails the test), and
every test fails, rather than hangs, after :data:`HANG` seconds.
"""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from urdf_sdf.cli import batch as batch_module
from urdf_sdf.cli import pool as pool_module
from urdf_sdf.cli.batch import BatchItem, FileConverter, outcomes_of, run_batch
from urdf_sdf.core.base.diagnostics import Code

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or not Path("/proc").is_dir(),
                                reason="signals and /proc (POSIX, Linux)")
ROOT = Path(__file__).resolve().parents[3]

HANG = 60  # seconds after which a test counts as hung
DEADLINE = 10.0  # seconds a waiting file waits at most
SHORT_WAIT = 2.0  # seconds a file waits for what must not happen


def pid_writer(path: Path, sources) -> tuple[bytes, list]:
    """Write the converting process's pid. A file named ``wait_N*`` first waits until N
    other outputs exist (``count_N*`` writes how many it saw after :data:`SHORT_WAIT`); ``block*``
    waits for a file that never comes (until
    :data:`DEADLINE`); ``die*`` ends its worker (exit status 3), ``kill*`` has it killed
    by SIGKILL; ``unsendable*`` returns a diagnostic that cannot be pickled; ``hold*``
    writes its pid beside the input folder, then waits (for a signal)."""
    out = path.parent.parent / "out"
    name = path.name
    if name.startswith("wait_"):
        others = int(name.split("_")[1].split(".")[0])
        wait_for(lambda: len(list(out.glob("*.out"))) >= others)
    if name.startswith("count_"):  # how many others it saw written, waiting for N
        others = int(name.split("_")[1].split(".")[0])
        wait_for(lambda: len(list(out.glob("*.out"))) >= others, SHORT_WAIT)
        return f"saw {len(list(out.glob('*.out')))}".encode(), []
    if name.startswith("block"):
        wait_for(lambda: (out / "never").exists())
    if name.startswith("die"):
        os._exit(3)
    if name.startswith("kill"):
        os.kill(os.getpid(), signal.SIGKILL)
    if name.startswith("unsendable"):
        return str(os.getpid()).encode(), [Unsendable()]
    if name.startswith("hold"):  # tells its pid, then waits for a signal
        (path.parent.parent / f"{name}.pid").write_text(str(os.getpid()))
        wait_for(lambda: False, HANG)
    return str(os.getpid()).encode(), []


def wait_for(condition, seconds: float = DEADLINE) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)
    return condition()


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
def no_child_left():
    """Asserts, once the test has run, that it left no child process behind."""
    processes = children()
    yield
    assert children() <= processes


@pytest.fixture
def nothing_left(no_child_left):
    """Asserts, once the test has run, that it left no child process behind, nor an open
    file descriptor."""
    descriptors = open_descriptors()
    yield
    assert open_descriptors() <= descriptors


def converted(items: list[BatchItem], out: Path, workers: int = 2) -> list:
    with outcomes_of(items, CONVERT, workers, out) as outcomes:
        return list(outcomes)


def test_outcomes_come_in_input_order_when_workers_answer_out_of_order(tmp_path,
                                                                      monkeypatch,
                                                                      nothing_left):
    """The first file waits until 7 others are written: while one worker holds it, the
    other converts what may be submitted meanwhile (8 tasks: 4 per worker ahead of the
    awaited one)."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    names = ["wait_7.urdf"] + [f"r{i:02d}.urdf" for i in range(12)]
    items = items_named(tmp_path, names)
    outcomes = converted(items, tmp_path / "out")
    assert [o.item.source.name for o in outcomes] == names
    assert {o.status for o in outcomes} == {"converted"}
    pids = converted_by(tmp_path / "out")
    assert os.getpid() not in pids.values()
    by_waiting_one = [i for i in range(8) if pids[f"r{i:02d}.out"] == pids["wait_7.out"]]
    assert len(by_waiting_one) <= 1


def test_no_more_tasks_are_submitted_than_the_window(tmp_path, monkeypatch, nothing_left):
    """While the first file waits, at most 4 tasks per worker past it are submitted: the
    files after them wait for it (memory stays bounded whatever the batch's size)."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    names = ["count_12.urdf"] + [f"r{i:02d}.urdf" for i in range(16)]
    items = items_named(tmp_path, names)
    outcomes = converted(items, tmp_path / "out")
    assert (tmp_path / "out" / "count_12.out").read_text() == "saw 8"
    assert [o.status for o in outcomes] == ["converted"] * len(names)


def test_a_fresh_pool_after_its_tasks(tmp_path, monkeypatch, nothing_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    monkeypatch.setattr(pool_module, "TASKS_PER_CHILD", 2)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(10)])
    outcomes = converted(items, tmp_path / "out")
    assert {o.status for o in outcomes} == {"converted"}
    pids = list(converted_by(tmp_path / "out").values())
    # 3 pools (4, 4 and 2 tasks), each of 2 workers: none does more than its pool's tasks
    assert max(pids.count(pid) for pid in pids) <= 4 and len(set(pids)) >= 3


@pytest.mark.parametrize("chunk", [1, 3])
@pytest.mark.parametrize("fatal, reason", [("die.urdf", "exit status 3"),
                                           ("kill.urdf", "killed by SIGKILL")])
def test_a_dead_worker_fails_its_file_and_the_rest_go_on(tmp_path, monkeypatch,
                                                         nothing_left, chunk, fatal, reason):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", chunk)
    names = [f"a{i}.urdf" for i in range(3)] + [fatal] + [f"r{i:02d}.urdf" for i in range(20)]
    assert pool_module.chunk_size(len(names), 2) == chunk
    items = items_named(tmp_path, names)
    outcomes = converted(items, tmp_path / "out")
    assert [o.item.source.name for o in outcomes] == names
    failed = [o for o in outcomes if o.status == "failed"]
    assert [o.item.source.name for o in failed] == [fatal]
    (diagnostic,) = failed[0].diagnostics
    assert diagnostic.code is Code.INTERNAL_ERROR
    assert f"the worker process converting this file died ({reason})" in diagnostic.message
    assert sorted(converted_by(tmp_path / "out")) == sorted(
        Path(name).with_suffix(".out").name for name in names if name != fatal)


def test_two_dead_workers_fail_their_files_only(tmp_path, monkeypatch, nothing_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    names = [f"r{i:02d}.urdf" for i in range(6)] + ["kill.urdf", "r06.urdf", "die.urdf"]
    outcomes = converted(items_named(tmp_path, names), tmp_path / "out")
    assert [o.status for o in outcomes] == ["converted"] * 6 + ["failed", "converted",
                                                                "failed"]
    assert len(converted_by(tmp_path / "out")) == 7


def test_leaving_early_ends_every_worker(tmp_path, monkeypatch, nothing_left):
    """An interrupt or an error in this process while workers convert: they are ended
    (SIGTERM), not waited for (the files they hold are never written), and none is left
    behind, nor any temporary file."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    items = items_named(tmp_path, ["r0.urdf"] + [f"block{i}.urdf" for i in range(8)])
    started = time.monotonic()
    with outcomes_of(items, CONVERT, 2, tmp_path / "out") as outcomes:
        assert next(outcomes).status == "converted"
    assert time.monotonic() - started < DEADLINE  # not waited for
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["r0.out"]


def test_an_interrupt_while_waiting_for_workers_ends_them(tmp_path, monkeypatch,
                                                          nothing_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    items = items_named(tmp_path, [f"block{i}.urdf" for i in range(4)])

    def interrupt(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)  # while this process waits for a result
    try:
        with pytest.raises(KeyboardInterrupt):
            converted(items, tmp_path / "out")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        signal.alarm(HANG)  # the guard that timer replaced
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_an_outcome_that_cannot_be_sent_back_fails_its_file_only(tmp_path, nothing_left):
    items = items_named(tmp_path, ["r0.urdf", "unsendable.urdf", "r1.urdf"])
    outcomes = converted(items, tmp_path / "out")
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


@pytest.mark.parametrize("allowed", [0, 1])
def test_with_workers_not_to_be_had_this_process_converts(tmp_path, monkeypatch,
                                                          no_child_left, allowed):
    """A worker that cannot be forked: the workers started are ended, and this process
    converts every file. (Not ``nothing_left``: multiprocessing leaves open the two pipes
    it made for a fork that failed.)"""
    monkeypatch.setattr(pool_module, "start_method", lambda: "fork")
    failing_forks(monkeypatch, allowed)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(6)])
    outcomes = converted(items, tmp_path / "out")
    assert [o.item.source.name for o in outcomes] == [f"r{i:02d}.urdf" for i in range(6)]
    assert {o.status for o in outcomes} == {"converted"}
    assert set(converted_by(tmp_path / "out").values()) == {os.getpid()}


def test_a_batch_uses_the_pool(tmp_path, capsys, monkeypatch, nothing_left):
    """``run_batch`` with two jobs: every file converted once, by a worker that
    :func:`pool.in_workers` started."""
    calls = []

    def spy(*args, **keywords):
        calls.append(args)
        return in_workers(*args, **keywords)
    in_workers = batch_module.in_workers
    monkeypatch.setattr(batch_module, "in_workers", spy)
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(12)])
    assert run_batch(items, tmp_path / "out", CONVERT, prog="urdf2sdf", quiet=True,
                     jobs=2) == 0
    assert "converted  12  into" in capsys.readouterr().out
    assert len(calls) == 1
    pids = set(converted_by(tmp_path / "out").values())
    assert os.getpid() not in pids and 1 <= len(pids) <= 2


BATCH_PROCESS = """
import sys
from pathlib import Path
from tests.urdf_sdf.cli.test_pool import CONVERT, items_named
from urdf_sdf.cli.batch import run_batch
tmp = Path(sys.argv[1])
items = items_named(tmp, ["r0.urdf", "hold0.urdf", "hold1.urdf", "r1.urdf"])
sys.exit(run_batch(items, tmp / "out", CONVERT, prog="urdf2sdf", jobs=2))
"""


def alive(pid: int) -> bool:
    """Is ``pid`` a process that has not ended (a zombie has)?"""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def default_cleanup_signals() -> None:
    """The cleanup signals at their default action in the batch's process, whatever this
    one inherited (under ``nohup`` SIGHUP is ignored, and a child inherits that: a batch
    then rightly keeps ignoring it)."""
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)


def batch_process_holding(tmp_path: Path) -> tuple[subprocess.Popen, list[int]]:
    """A batch in a process of its own, once both its workers hold a file: the process
    and the workers' pids."""
    process = subprocess.Popen([sys.executable, "-c", BATCH_PROCESS, str(tmp_path)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=default_cleanup_signals)
    pid_files = [tmp_path / "hold0.urdf.pid", tmp_path / "hold1.urdf.pid"]
    if not wait_for(lambda: all(p.exists() and p.read_text() for p in pid_files)):
        process.kill()
        pytest.fail(f"the workers never started: {process.communicate()[1]!r}")
    return process, [int(p.read_text()) for p in pid_files]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_batch_ends_its_workers_then_itself(tmp_path, signum):
    process, workers = batch_process_holding(tmp_path)
    process.send_signal(signum)
    assert process.wait(DEADLINE) == -signum  # as the signal ends a process
    assert not process.stderr.read()  # no traceback
    process.stderr.close()
    assert not any(alive(pid) for pid in workers)
    assert not any(p.name.endswith(".tmp") for p in (tmp_path / "out").iterdir())


def test_workers_end_when_their_batch_is_killed(tmp_path):
    process, workers = batch_process_holding(tmp_path)
    process.kill()
    process.wait(DEADLINE)
    process.stderr.close()
    assert wait_for(lambda: not any(alive(pid) for pid in workers),
                    pool_module.PARENT_CHECK_SECONDS * 4 + 1)


def test_the_pool_imports_nothing_of_the_batch_nor_hides_an_import():
    """One way: the batch imports the pool, the pool knows nothing of files (no import
    cycle), and neither goes through a ``Later`` table."""
    import ast
    for module, forbidden in ((pool_module, "urdf_sdf.cli.batch"), (batch_module, None)):
        tree = ast.parse(Path(module.__file__).read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for alias in node.names}
        assert forbidden not in imported
        assert "urdf_sdf.core.base.lazy" not in imported
    assert batch_module.in_workers is pool_module.in_workers
