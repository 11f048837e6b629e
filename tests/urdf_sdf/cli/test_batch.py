"""Batch conversion: ``urdf2sdf DIR -o OUTDIR`` and ``sdf2urdf DIR -o OUTDIR``.

Every file of the tree is converted to the mirrored place under OUTDIR; one bad file
never stops the rest; outputs are written atomically (nothing for a failed file, no
temporary file, no empty directory); a summary table (converted / warnings / failed /
skipped, failed files with their first error) or a JSON summary; exit 1 when any file
failed, 0 otherwise; a progress bar only on a terminal.
"""
from __future__ import annotations

import gc
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import FakeTerminal, xacro_module
from tests.urdf2sdf_helpers import batch_with_a_crash
from urdf_sdf.cli.batch import COLLECT_AFTER_OBJECTS, BatchItem, ProgressBar, done_here
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf

HERE = Path(__file__).resolve().parents[2]
FIXTURES = HERE / "fixtures" / "cli"
URDF_TREE = FIXTURES / "urdf_package"
MODEL_TREE = FIXTURES / "model_tree"
runner = CliRunner()


def invoke(app, *args):
    return runner.invoke(app, [str(a) for a in args])


def files_under(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


def dirs_under(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_dir())


def counts(stdout: str) -> dict[str, int]:
    return {m[1]: int(m[2]) for m in re.finditer(r"^  (converted|warnings|failed|skipped) +"
                                                 r"(\d+)", stdout, re.M)}


def section(stdout: str, name: str) -> list[str]:
    lines = stdout.splitlines()
    if f"{name}:" not in lines:
        return []
    start = lines.index(f"{name}:") + 1
    rest = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        rest.append(line.strip())
    return rest


@pytest.fixture
def urdf_tree(tmp_path) -> Path:
    tree = tmp_path / "pkg"
    shutil.copytree(URDF_TREE, tree)
    return tree


@pytest.fixture
def xacro_package():
    """The xacro package: skipped without it, a failure under CI."""
    return xacro_module()


# ---- urdf2sdf DIR -o OUTDIR --------------------------------------------------------------

def test_urdf_tree_converts_the_good_files_and_reports_the_bad_one(urdf_tree, tmp_path,
                                                                   xacro_package):
    out = tmp_path / "out"
    result = invoke(urdf2sdf, urdf_tree, "-o", out, "--xacro")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert counts(result.stdout) == {"converted": 3, "warnings": 1, "failed": 1, "skipped": 0}
    assert result.stdout.startswith("4 files:\n")
    [failed] = section(result.stdout, "failed")
    bad = urdf_tree / "urdf" / "broken" / "bad.urdf"
    assert failed.startswith(f"urdf/broken/bad.urdf: {bad}:4:9: error[FILE_READ]: malformed XML")
    # mirrored layout, robot.urdf -> robot.sdf, robot.urdf.xacro -> robot.sdf
    assert files_under(out) == ["urdf/arms/grippers/finger.sdf", "urdf/arms/two_link_arm.sdf",
                                "urdf/pendulum.sdf"]
    # no partial output: nothing for the bad file, not even its directory
    assert "urdf/broken" not in dirs_under(out)
    # each output is what the single-file command writes
    single = invoke(urdf2sdf, urdf_tree / "urdf" / "arms" / "grippers" / "finger.urdf")
    assert (out / "urdf" / "arms" / "grippers" / "finger.sdf").read_bytes() == \
        single.stdout_bytes
    assert (out / "urdf" / "arms" / "two_link_arm.sdf").read_bytes() == \
        invoke(urdf2sdf, urdf_tree / "urdf" / "arms" / "two_link_arm.urdf.xacro",
               "--xacro").stdout_bytes
    # diagnostics on stderr, compiler style, each file's as it is converted
    finger = urdf_tree / "urdf/arms/grippers/finger.urdf"
    assert f"{finger}:6: warning[LINK_MASSLESS_MOVING]" in result.stderr
    assert f"{bad}:4:9: error[FILE_READ]" in result.stderr
    assert "\x1b" not in result.stdout + result.stderr  # no progress bar, no colour
    # the input tree is untouched
    assert files_under(urdf_tree) == files_under(URDF_TREE)


def test_options_apply_to_every_file(urdf_tree, tmp_path):
    out = tmp_path / "out"
    invoke(urdf2sdf, urdf_tree, "-o", out, "--relative")
    assert (out / "urdf" / "pendulum.sdf").read_bytes() == \
        invoke(urdf2sdf, urdf_tree / "urdf" / "pendulum.urdf", "--relative").stdout_bytes


def test_a_bad_file_first_does_not_stop_the_rest(tmp_path):
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    (tree / "a" / "0_bad.urdf").write_text("<robot name='x'><link name='a'></robot>")
    (tree / "a" / "1_empty.urdf").write_bytes(b"")
    shutil.copyfile(FIXTURES / "pendulum.urdf", tree / "a" / "2_good.urdf")
    shutil.copyfile(FIXTURES / "duplicate_link.urdf", tree / "3_duplicate.urdf")
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out)
    assert result.exit_code == 1
    assert counts(result.stdout) == {"converted": 1, "warnings": 0, "failed": 3, "skipped": 0}
    assert files_under(out) == ["a/2_good.sdf"]
    failed = section(result.stdout, "failed")
    # a directory's own files first, then its subdirectories, each sorted by name
    assert [line.split(":")[0] for line in failed] == ["3_duplicate.urdf", "a/0_bad.urdf",
                                                       "a/1_empty.urdf"]
    assert "error[DUPLICATE_NAME]" in failed[0]


def test_an_exception_in_one_conversion_fails_that_file_only(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    batch_with_a_crash(tree, ["a.urdf", "b.urdf", "c.urdf"], FIXTURES / "pendulum.urdf",
                       "b.urdf", RuntimeError("simulated bug"), monkeypatch)
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out, "-j", "1")  # in this process: patched
    assert result.exit_code == 1
    assert files_under(out) == ["a.sdf", "c.sdf"]
    [failed] = section(result.stdout, "failed")
    assert failed.startswith("b.urdf: ") and "simulated bug" in failed


def test_a_failed_write_leaves_no_partial_output(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("a.urdf", "b.urdf"):
        shutil.copyfile(FIXTURES / "pendulum.urdf", tree / name)
    out = tmp_path / "out"
    real_replace = os.replace

    def failing_replace(src, dst, **in_folders):  # src_dir_fd, dst_dir_fd
        if str(dst).endswith("a.sdf"):
            raise OSError("disk full")
        return real_replace(src, dst, **in_folders)

    monkeypatch.setattr(os, "replace", failing_replace)
    result = invoke(urdf2sdf, tree, "-o", out, "-j", "1")  # in this process: patched
    monkeypatch.undo()
    assert result.exit_code == 1
    assert files_under(out) == ["b.sdf"]  # no a.sdf, no temporary file
    [failed] = section(result.stdout, "failed")
    assert failed.startswith("a.urdf: ") and "error[FILE_WRITE]" in failed \
        and "disk full" in failed


def test_all_good_exits_zero(tmp_path):
    tree = tmp_path / "tree"
    (tree / "nested" / "deeper").mkdir(parents=True)
    shutil.copyfile(FIXTURES / "pendulum.urdf", tree / "nested" / "deeper" / "robot.urdf")
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out)
    assert result.exit_code == 0, result.stdout
    assert counts(result.stdout) == {"converted": 1, "warnings": 0, "failed": 0, "skipped": 0}
    assert files_under(out) == ["nested/deeper/robot.sdf"]
    assert section(result.stdout, "failed") == []


def test_an_empty_tree_converts_nothing_and_exits_zero(tmp_path):
    (tmp_path / "empty").mkdir()
    result = invoke(urdf2sdf, tmp_path / "empty", "-o", tmp_path / "out")
    assert result.exit_code == 0
    assert result.stdout.startswith("0 files:")


def test_quiet_batch_prints_errors_only(urdf_tree, tmp_path):
    result = invoke(urdf2sdf, urdf_tree, "-o", tmp_path / "out", "--quiet")
    assert "warning[" not in result.stderr
    assert "error[FILE_READ]" in result.stderr


def test_batch_json(urdf_tree, tmp_path, xacro_package):
    out = tmp_path / "out"
    result = invoke(urdf2sdf, urdf_tree, "-o", out, "--json", "--xacro")
    assert result.exit_code == 1
    assert result.stderr == ""
    report = json.loads(result.stdout)
    assert set(report) == {"ok", "output", "diagnostics", "counts", "files"}
    assert report["ok"] is False and report["output"] == str(out)
    assert report["counts"] == {"converted": 3, "warnings": 1, "failed": 1, "skipped": 0}
    by_input = {Path(f["input"]).name: f for f in report["files"]}
    assert by_input["bad.urdf"]["status"] == "failed" and by_input["bad.urdf"]["output"] is None
    assert by_input["pendulum.urdf"]["output"] == str(out / "urdf" / "pendulum.sdf")
    assert {d["code"] for d in report["diagnostics"]} == {"FILE_READ", "LINK_MASSLESS_MOVING"}


def test_xacro_files_are_skipped_when_xacro_is_missing(urdf_tree, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "xacro", None)
    out = tmp_path / "out"
    result = invoke(urdf2sdf, urdf_tree, "-o", out, "--xacro")
    assert counts(result.stdout) == {"converted": 2, "warnings": 1, "failed": 1, "skipped": 1}
    [skipped] = section(result.stdout, "skipped")
    assert skipped.startswith("urdf/arms/two_link_arm.urdf.xacro: ")
    assert "pip install xacro (urdf-sdf's [xacro] extra" in skipped
    assert "urdf/arms/two_link_arm.sdf" not in files_under(out)


def test_a_urdf_beside_its_xacro_source_is_skipped_with_xacro(tmp_path, xacro_package):
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copyfile(FIXTURES / "two_link_arm.urdf.xacro", tree / "arm.urdf.xacro")
    shutil.copyfile(FIXTURES / "pendulum.urdf", tree / "arm.urdf")
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out, "--xacro")
    assert result.exit_code == 0
    assert section(result.stdout, "skipped") == [
        "arm.urdf: arm.urdf.xacro converts to the same arm.sdf"]
    assert b'<model name="two_link_arm">' in (out / "arm.sdf").read_bytes()
    # without --xacro the xacro source is not expanded: the .urdf beside it is converted
    plain = invoke(urdf2sdf, tree, "-o", tmp_path / "plain")
    assert plain.exit_code == 0
    assert section(plain.stdout, "skipped") == [
        "arm.urdf.xacro: not expanded: xacro files are expanded only with --xacro"]
    assert b'<model name="pendulum">' in (tmp_path / "plain" / "arm.sdf").read_bytes()


def test_output_directory_inside_the_tree_is_not_read_back(urdf_tree):
    out = urdf_tree / "out"
    out.mkdir()
    shutil.copyfile(FIXTURES / "pendulum.urdf", out / "stale.urdf")
    result = invoke(urdf2sdf, urdf_tree, "-o", out)
    assert "stale" not in result.stdout + result.stderr
    assert not (out / "out").exists()


@pytest.mark.parametrize("output", [None, "-", "file"])
def test_a_directory_needs_an_output_directory(urdf_tree, tmp_path, output):
    args = [urdf_tree]
    if output == "-":
        args += ["-o", "-"]
    elif output == "file":
        (tmp_path / "file.sdf").write_text("x")
        args += ["-o", tmp_path / "file.sdf"]
    result = invoke(urdf2sdf, *args)
    assert result.exit_code == 2
    assert "OUTDIR" in result.stderr
    assert result.stdout == ""


def test_batch_in_a_process_has_no_progress_bar_when_captured(urdf_tree, tmp_path):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf",
                           str(urdf_tree), "-o", str(out)],
                          capture_output=True, text=True, cwd=HERE.parent)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "\x1b" not in proc.stdout + proc.stderr and "\r" not in proc.stderr
    for line in proc.stderr.splitlines():  # diagnostics and their source lines only
        assert line.startswith(" ") or re.match(r"^.+?:\d+(:\d+)?: (warning|error)\[", line), line
    assert "failed:" in proc.stdout


# ---- sdf2urdf DIR -o OUTDIR --------------------------------------------------------------

def test_model_tree(tmp_path):
    out = tmp_path / "out"
    result = invoke(sdf2urdf, MODEL_TREE, "-o", out)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert counts(result.stdout) == {"converted": 3, "warnings": 2, "failed": 1, "skipped": 1}
    assert files_under(out) == ["models/cart/model.urdf", "models/pendulum/model.urdf",
                                "worlds/rail.urdf"]
    [failed] = section(result.stdout, "failed")
    assert failed.startswith("worlds/broken/duplicate.sdf: ") and \
        "error[DUPLICATE_NAME]" in failed
    assert "worlds/broken" not in dirs_under(out)
    # model.config lists two versions: the newest is converted, the other skipped
    assert section(result.stdout, "skipped") == [
        "models/pendulum/model-1_6.sdf: model.config picks model.sdf (a newer SDFormat version)"]
    # model://pendulum resolves through the parent of the model directories
    cart = (out / "models" / "cart" / "model.urdf").read_bytes()
    assert b'<link name="pendulum::base"' in cart
    rail = invoke(sdf2urdf, MODEL_TREE / "worlds" / "rail.sdf")
    assert (out / "worlds" / "rail.urdf").read_bytes() == rail.stdout_bytes


def test_model_config_files_newest_first():
    from urdf_sdf.core.compose.uri import model_config_files
    pendulum = MODEL_TREE / "models" / "pendulum"
    assert model_config_files(pendulum / "model.config", str(MODEL_TREE)) == [
        pendulum / "model.sdf",
        pendulum / "model-1_6.sdf"]


def test_a_broken_model_config_falls_back_to_every_sdf(tmp_path):
    model = tmp_path / "tree" / "thing"
    model.mkdir(parents=True)
    (model / "model.config").write_text("<model><sdf version='1.9'>model.sdf")
    shutil.copyfile(HERE / "fixtures" / "sdf2urdf" / "joint_to_world.sdf", model / "model.sdf")
    result = invoke(sdf2urdf, tmp_path / "tree", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stdout
    assert files_under(tmp_path / "out") == ["thing/model.urdf"]


# ---- the progress bar --------------------------------------------------------------------

class Pipe(FakeTerminal):
    def isatty(self):
        return False


def test_progress_bar_only_on_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    pipe = Pipe()
    with ProgressBar(2, "urdf2sdf", pipe) as bar:
        bar.advance("a.urdf")
        bar.advance("b.urdf")
    assert pipe.written == []

    terminal = FakeTerminal()
    with ProgressBar(2, "urdf2sdf", terminal) as bar:
        bar.advance("a.urdf")
        bar.log("a.urdf:1: warning[LINK_MASSLESS_MOVING]: something")
        bar.advance("b.urdf")
    shown = "".join(terminal.written)
    assert "urdf2sdf" in shown and "a.urdf:1: warning[LINK_MASSLESS_MOVING]: something" in shown


def test_progress_counter_without_rich(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    terminal = FakeTerminal()
    with ProgressBar(2, "sdf2urdf", terminal) as bar:
        bar.advance("a.sdf")
        bar.advance("b.sdf")
    shown = "".join(terminal.written)
    assert "[1/2] a.sdf" in shown and "[2/2] b.sdf" in shown


def test_stale_temporaries_are_removed_once_per_output_directory(tmp_path, monkeypatch):
    """A killed run leaves ``.NAME.urdf-sdf-PID-*.tmp`` files; the next batch removes
    those of dead processes, reading each output directory once (not once per file,
    which would make a batch into one large directory quadratic)."""
    tree = tmp_path / "tree"
    (tree / "a").mkdir(parents=True)
    for name in ("r1.urdf", "r2.urdf", "a/r3.urdf", "a/r4.urdf"):
        shutil.copyfile(FIXTURES / "pendulum.urdf", tree / name)
    out = tmp_path / "out"
    (out / "a").mkdir(parents=True)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = [out / f".r1.sdf.urdf-sdf-{dead}-0badf00d.tmp",
             out / "a" / f".old.sdf.urdf-sdf-{dead}-0badf00d.tmp"]
    alive = out / f".r2.sdf.urdf-sdf-{os.getppid()}-0badf00d.tmp"
    for path in (*stale, alive):
        path.write_text("partial")
    scanned = []
    real_scandir = os.scandir

    def counting_scandir(path="."):
        if Path(path).resolve().is_relative_to(out.resolve()):
            scanned.append(Path(path).resolve())
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", counting_scandir)
    result = invoke(urdf2sdf, tree, "-o", out, "-j", "1")  # in this process: counted
    monkeypatch.undo()
    assert result.exit_code == 0, result.stdout
    assert files_under(out) == [alive.name, "a/r3.sdf", "a/r4.sdf", "r1.sdf", "r2.sdf"]
    assert sorted(scanned) == sorted([out.resolve(), (out / "a").resolve()])


def cyclic_garbage_converter(objects: int):
    """A converter leaving ``objects`` objects of cyclic garbage behind per file."""
    def convert(item, sources):
        for _ in range(objects // 2):
            a, b = [], []
            a.append(b)
            b.append(a)
        return b"<sdf/>", []
    return convert


@pytest.mark.parametrize("objects, after_every_file", [(100, False), (300_000, True)])
def test_a_batch_collects_cyclic_garbage_once_enough_has_piled_up(tmp_path, monkeypatch,
                                                                  objects, after_every_file):
    """A batch runs with the cycle collector off, as the commands do: cyclic garbage is
    collected once COLLECT_AFTER_OBJECTS objects have piled up (after every large file),
    not after every small file, and never grows past that bound by more than a file's."""
    source = tmp_path / "in.urdf"
    source.write_text("<robot/>")
    item = BatchItem(source, Path("in.urdf"), Path("in.sdf"))
    real_collect, collections = gc.collect, []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collections.append(generation)
                        or real_collect(generation))
    enabled = gc.isenabled()
    gc.disable()
    real_collect()
    try:
        for _ in range(20):
            done_here(cyclic_garbage_converter(objects), item, tmp_path / "out")
            assert gc.get_count()[0] < COLLECT_AFTER_OBJECTS + objects + 10_000
    finally:
        if enabled:
            gc.enable()
    assert len(collections) == (20 if after_every_file else 0)


def test_a_batch_file_includes_what_its_tree_holds(tmp_path):
    """A world of the batch's tree including ``../parts/...`` (no package.xml above it)
    is read: the tree is a folder the user named; the same world alone needs -p."""
    tree, out = tmp_path / "tree", tmp_path / "out"
    (tree / "worlds").mkdir(parents=True)
    (tree / "parts").mkdir()
    (tree / "parts" / "arm.sdf").write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9"><model name="arm">'
        '<link name="a"/></model></sdf>\n')
    world = tree / "worlds" / "w.sdf"
    world.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><world name="w">'
                     '<include><uri>../parts/arm.sdf</uri></include></world></sdf>\n')
    result = invoke(sdf2urdf, tree, "-o", out)
    assert result.exit_code == 0, result.output
    assert b'<link name="a"' in (out / "worlds" / "w.urdf").read_bytes()
    alone = invoke(sdf2urdf, world, "-o", tmp_path / "w.urdf")
    assert alone.exit_code == 1 and "RESOURCE_OUTSIDE_PACKAGE" in alone.output


def test_report_gives_one_report_per_file_and_a_total_line(tmp_path):
    samples = Path(__file__).resolve().parents[3] / "samples"
    tree = tmp_path / "in"
    tree.mkdir()
    for name in ("arm6.urdf", "pendulum.urdf"):
        shutil.copy(samples / name, tree / name)
    result = invoke(urdf2sdf, tree, "-o", tmp_path / "out", "--report", "--quiet", "-j", "1")
    assert result.exit_code == 0
    verdicts = [line for line in result.stderr.splitlines() if ": report: " in line]
    assert verdicts == [f"{tree / 'arm6.urdf'}: report: exact, with carried content",
                        f"{tree / 'pendulum.urdf'}: report: exact"]
    assert result.stderr.splitlines()[-1] == "reports: 2 files: 1 exact, 1 exact-with"
    summary = json.loads(invoke(urdf2sdf, tree, "-o", tmp_path / "json", "--report", "--json",
                                "-j", "2").stdout)
    assert [f["report"]["verdict"]["kind"] for f in summary["files"]] == ["exact-with", "exact"]
