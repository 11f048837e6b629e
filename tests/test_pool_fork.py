"""The forked batch workers (``core/cli/pool_fork.py``, Linux): each file converted once,
in a worker, outcomes in input order whatever order the workers answer in; a worker
replaced after its tasks; a worker that dies or is killed fails the file it was
converting, and the chunks it held go to the others; leaving early (an interrupt, an
error in this process) ends every worker.

The converters here are module-level functions (workers receive them by fork): each
writes the pid of the process that converted the file, so a test can tell which worker
did what.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from urdf_sdf.core.cli import pool as pool_module
from urdf_sdf.core.cli import pool_fork
from urdf_sdf.core.cli.batch import BatchItem, FileConverter, run_batch

pytestmark = pytest.mark.skipif(pool_module.start_method() != "fork",
                                reason="workers are forked on Linux only")


def pid_writer(path: Path, sources) -> tuple[bytes, list]:
    """Write the converting process's pid. A file named ``slow*`` takes 0.3 s, ``die*``
    ends its worker (exit status 3), ``kill*`` has it killed by SIGKILL."""
    if path.name.startswith("slow"):
        time.sleep(0.3)
    if path.name.startswith("die"):
        os._exit(3)
    if path.name.startswith("kill"):
        os.kill(os.getpid(), signal.SIGKILL)
    return str(os.getpid()).encode(), []


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


@pytest.fixture
def no_child_left():
    """Asserts, once the test has run, that it left no child process behind."""
    before = children()
    yield
    assert children() <= before


def test_outcomes_come_in_input_order_when_workers_answer_out_of_order(tmp_path,
                                                                      monkeypatch,
                                                                      no_child_left):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    names = ["slow.urdf"] + [f"r{i:02d}.urdf" for i in range(12)]
    items = items_named(tmp_path, names)
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert [o.item.source.name for o in outcomes] == names
    assert {o.status for o in outcomes} == {"converted"}
    pids = converted_by(tmp_path / "out")
    assert os.getpid() not in pids.values()
    # while one worker sleeps on slow.urdf, the other converts what may be handed out
    # (8 chunks: 4 per worker ahead of the awaited one) but the one queued behind it
    by_slow_one = [i for i in range(8) if pids[f"r{i:02d}.out"] == pids["slow.out"]]
    assert len(by_slow_one) <= 1


def test_a_worker_is_replaced_after_its_tasks(tmp_path, monkeypatch, no_child_left):
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
                                                                  no_child_left, chunk,
                                                                  fatal, reason):
    monkeypatch.setattr(pool_module, "MAX_CHUNK", chunk)
    names = [f"a{i}.urdf" for i in range(3)] + [fatal] + [f"r{i:02d}.urdf" for i in range(12)]
    items = items_named(tmp_path, names)
    outcomes = list(pool_fork.forked(items, CONVERT, 2, tmp_path / "out"))
    assert [o.item.source.name for o in outcomes] == names
    failed = [o for o in outcomes if o.status == "failed"]
    assert [o.item.source.name for o in failed] == [fatal]
    (diagnostic,) = failed[0].diagnostics
    assert diagnostic.code.name == "INTERNAL_ERROR"
    assert f"the worker process converting this file died ({reason})" in diagnostic.message
    assert len(converted_by(tmp_path / "out")) == len(names) - 1


def test_leaving_early_ends_every_worker(tmp_path, monkeypatch, no_child_left):
    """An interrupt or an error in this process while workers convert: they are ended
    (SIGTERM), not waited for (the slow files they hold are never written), and none is
    left behind, nor any temporary file."""
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    items = items_named(tmp_path, ["r0.urdf"] + [f"slow{i}.urdf" for i in range(8)])
    outcomes = pool_fork.forked(items, CONVERT, 2, tmp_path / "out")
    assert next(outcomes).status == "converted"
    outcomes.close()
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["r0.out"]


def test_a_batch_uses_the_forked_workers(tmp_path, capsys, no_child_left):
    """``run_batch`` with two jobs on Linux: every file converted once, by a worker."""
    items = items_named(tmp_path, [f"r{i:02d}.urdf" for i in range(12)])
    assert run_batch(items, tmp_path / "out", CONVERT, prog="urdf2sdf", quiet=True,
                     jobs=2) == 0
    assert "converted  12  into" in capsys.readouterr().out
    pids = set(converted_by(tmp_path / "out").values())
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
