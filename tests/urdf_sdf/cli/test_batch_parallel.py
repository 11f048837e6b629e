"""Batch conversion in worker processes (``run_batch(..., jobs=N)``).

A tree of about twenty small URDF files (good ones, one with a warning, one invalid, one
that makes the converter raise, a FIFO) converts to the same files, the same diagnostics
in the same order and the same summary with ``jobs=1`` (in this process) and ``jobs=2``;
an exception in a worker fails that file only, as in this process; a worker that dies
fails its file only; a FIFO is skipped, never read; a converter that cannot be pickled
(the lambda the commands pass today) still works, in this process.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf.cli import batch as batch_module
from urdf_sdf.cli import pool as pool_module
from urdf_sdf.cli import urdf2sdf as urdf2sdf_cli
from urdf_sdf.cli.batch import BatchItem, FileConverter, default_jobs, picklable, run_batch
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.core.base.context import Context
from urdf_sdf.urdf2sdf.convert import ToSdf

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cli"


def convert_or_fail(path, sources, options, mappings, context, die: bool = False):
    """``urdf2sdf.convert_file``, except that a file named ``crash*`` raises (a bug of
    ours) and, with ``die``, a file named ``die*`` ends its worker process."""
    if path.name.startswith("crash"):
        raise RuntimeError("simulated bug in " + path.name)
    if die and path.name.startswith("die"):
        os._exit(3)
    return urdf2sdf_cli.convert_file(path, options, mappings, sources, context)


def converter(**extra) -> FileConverter:
    return FileConverter(convert_or_fail, {"options": ToSdf(), "mappings": {},
                                           "context": Context(), **extra})


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "tree"
    for i in range(16):
        folder = root / f"group_{i % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(FIXTURES / "pendulum.urdf", folder / f"robot_{i:02d}.urdf")
    shutil.copyfile(FIXTURES / "massless_link_warning.urdf", root / "group_0" / "warn.urdf")
    shutil.copyfile(FIXTURES / "duplicate_link.urdf", root / "group_1" / "bad.urdf")
    shutil.copyfile(FIXTURES / "pendulum.urdf", root / "group_2" / "crash.urdf")
    os.mkfifo(root / "group_1" / "pipe.urdf")
    return root


def batch(tree: Path, out: Path, capsys, convert, jobs, as_json: bool = False):
    items = urdf2sdf_cli.discover(tree, out)
    code = run_batch(items, out, convert, prog="urdf2sdf", as_json=as_json, jobs=jobs)
    captured = capsys.readouterr()
    written = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
               if p.is_file()}
    return code, captured.out, captured.err, written


@pytest.fixture(params=["fork", "forkserver"])
def way(request, monkeypatch) -> str:
    """Both ways the pool's workers start: forked (Linux, one thread running) and by the
    fork server (other threads running, or elsewhere)."""
    monkeypatch.setattr(pool_module, "start_method", lambda: request.param)
    return request.param


def test_two_workers_give_what_one_process_gives(tree, tmp_path, capsys, way):
    one = batch(tree, tmp_path / "one", capsys, converter(), jobs=1)
    two = batch(tree, tmp_path / "two", capsys, converter(), jobs=2)
    assert one[0] == two[0] == 1
    assert one[1].replace("/one", "/two") == two[1]   # the summary names the output directory
    assert one[2] == two[2]                           # diagnostics, in input order
    assert one[3] == two[3] and len(one[3]) == 17     # 16 robots and the warning one


def test_json_summary_is_the_same_with_workers(tree, tmp_path, capsys, way):
    one = json.loads(batch(tree, tmp_path / "one", capsys, converter(), 1, as_json=True)[1])
    two = json.loads(batch(tree, tmp_path / "two", capsys, converter(), 2, as_json=True)[1])
    for summary in (one, two):
        del summary["output"]
        for entry in summary["files"]:
            entry["output"] = entry["output"] and Path(entry["output"]).name
    assert one == two
    assert [Path(f["input"]).name for f in two["files"]] == \
        [item.source.name for item in urdf2sdf_cli.discover(tree, tmp_path / "x")]


def test_an_exception_in_a_worker_fails_that_file_only(tree, tmp_path, capsys, way):
    code, out, err, written = batch(tree, tmp_path / "out", capsys, converter(), jobs=2)
    assert code == 1
    failed = out.split("failed:\n")[1].split("skipped:\n")[0].splitlines()
    assert [line.split(":")[0].strip() for line in failed] == ["group_1/bad.urdf",
                                                               "group_2/crash.urdf"]
    assert "error[INTERNAL_ERROR]" in failed[1] and "simulated bug in crash.urdf" in failed[1]
    assert "group_2/crash.sdf" not in written and "group_2/robot_02.sdf" in written


def test_a_fifo_is_skipped_not_read(tree, tmp_path, capsys):
    for jobs in (1, 2):
        code, out, err, written = batch(tree, tmp_path / f"out{jobs}", capsys, converter(), jobs)
        assert "  group_1/pipe.urdf: not a regular file (a FIFO)\n" in out.split("skipped:\n")[1]
        assert "group_1/pipe.sdf" not in written


def test_a_worker_that_dies_fails_its_file_only(tree, tmp_path, capsys, way):
    shutil.copyfile(FIXTURES / "pendulum.urdf", tree / "group_0" / "die.urdf")
    code, out, err, written = batch(tree, tmp_path / "out", capsys, converter(die=True), 2)
    assert code == 1
    failed = out.split("failed:\n")[1].split("skipped:\n")[0]
    assert "group_0/die.urdf" in failed and "worker process" in failed
    assert len(written) == 17


def test_renewed_workers_keep_the_order(tree, tmp_path, capsys, monkeypatch, way):
    """A fresh worker after every task (memory stays bounded), one file a task: nothing
    lost, nothing out of order."""
    one = batch(tree, tmp_path / "one", capsys, converter(), jobs=1)
    monkeypatch.setattr(pool_module, "TASKS_PER_CHILD", 1)
    monkeypatch.setattr(pool_module, "MAX_CHUNK", 1)
    two = batch(tree, tmp_path / "two", capsys, converter(), jobs=2)
    assert one[2] == two[2] and one[3] == two[3]


def test_a_lambda_converter_runs_in_this_process(tree, tmp_path, capsys):
    """What the commands pass today: not picklable, so converted here whatever jobs says."""
    def closure(item, sources):
        return convert_or_fail(item.source, sources, ToSdf(), {}, Context())
    assert not picklable(closure) and picklable(converter())
    one = batch(tree, tmp_path / "one", capsys, converter(), jobs=1)
    many = batch(tree, tmp_path / "many", capsys, closure, jobs=4)
    assert one[0] == many[0] and one[2] == many[2] and one[3] == many[3]


def test_default_jobs_is_every_usable_core():
    assert default_jobs() >= 1
    if hasattr(os, "sched_getaffinity"):
        assert default_jobs() == len(os.sched_getaffinity(0))


def convert_item(item, sources, options, mappings, context, out_dir):
    """The shape of the commands' per-item converters (options depend on the output)."""
    assert item.output.suffix == ".sdf" and out_dir.name == "out"
    return convert_or_fail(item.source, sources, options, mappings, context)


def test_a_partial_of_a_module_function_goes_to_workers(tree, tmp_path, capsys, way):
    convert = functools.partial(convert_item, options=ToSdf(), mappings={},
                                context=Context(), out_dir=tmp_path / "out")
    assert picklable(convert)
    one = batch(tree, tmp_path / "one", capsys, converter(), jobs=1)
    two = batch(tree, tmp_path / "out", capsys, convert, jobs=2)
    assert one[2] == two[2] and one[3] == two[3]


def test_jobs_option_of_both_commands_gives_the_same_files(tmp_path):
    """``-j 2`` (worker processes) writes exactly what ``-j 1`` (in-process) writes."""
    samples = Path(__file__).resolve().parents[3] / "samples"
    for app, pattern in ((urdf2sdf_app, "*.urdf"), (sdf2urdf_app, "*.sdf")):
        tree = tmp_path / pattern[2:] / "in"
        tree.mkdir(parents=True)
        for source in sorted(samples.glob(pattern)):
            (tree / source.name).write_bytes(source.read_bytes())
        outputs = {}
        for jobs in ("1", "2"):
            out = tree.parent / f"out{jobs}"
            result = CliRunner().invoke(app, [str(tree), "-o", str(out), "-j", jobs, "--quiet"])
            assert result.exit_code == 0, result.output
            outputs[jobs] = {p.name: p.read_bytes() for p in sorted(out.iterdir())}
        assert outputs["1"] == outputs["2"] and outputs["1"]


def test_by_default_a_small_batch_stays_in_this_process(tmp_path, monkeypatch):
    """Worker processes cost more than they save on a small batch: by default a batch
    gets one worker per 150 kB of input, up to every core, and a small one none."""
    monkeypatch.setattr(batch_module, "default_jobs", lambda: 4)
    small = []
    for i in range(10):
        (tmp_path / f"s{i}.urdf").write_bytes((FIXTURES / "pendulum.urdf").read_bytes())
        small.append(BatchItem(tmp_path / f"s{i}.urdf", Path(f"s{i}.urdf"), Path("x")))
    assert batch_module.worthwhile_workers(small) == 1
    large = []
    for i in range(3):
        (tmp_path / f"l{i}.urdf").write_bytes(b" " * 150_000)
        large.append(BatchItem(tmp_path / f"l{i}.urdf", Path(f"l{i}.urdf"), Path("x")))
    assert batch_module.worthwhile_workers(large) == 3          # 450 kB: 3 workers
    assert batch_module.worthwhile_workers(large * 3) == 4      # every core, no more
    missing = [BatchItem(tmp_path / "gone.urdf", Path("gone.urdf"), Path("x"))]
    assert batch_module.worthwhile_workers(missing) == 1
