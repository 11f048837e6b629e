"""Issue 24, items 8, 14, 15 (``-o`` failures) and 16: outputs and standard streams.

* ``-o`` is never an input, also not the file standard input reads (OUTPUT_IS_INPUT, exit
  1, the input untouched); a symbolic link is written through to its target (atomically
  when the target is a regular file) and stays a link; ``-o /dev/stdout`` writes to
  standard output, wherever it is redirected.
* A closed standard stream: stderr closed, diagnostics are dropped, never written into the
  document on stdout; stdout closed, a document to write is FILE_WRITE and exit 1; stdin
  closed, reading ``-`` is FILE_READ. Never INTERNAL_ERROR.
* A write that fails (``/dev/full``, a full or read-only file system, an unwritable
  directory) is FILE_WRITE with the system's reason, exit 1, and no partial file.
* A batch's output never leaves OUTDIR: a symbolic link (or a file) as a folder between
  OUTDIR and an output is FILE_WRITE for that file, nothing outside touched; OUTDIR itself
  may be a link. ``-o /dev/fd/N`` (``/proc/self/fd/N``, ``/dev/stderr``) is written to
  descriptor N itself, never reopened or truncated; N not open is FILE_WRITE.
* Every failure is a coded ``file[:line[:col]]: error[CODE]: message`` line (or the source
  snippet under one); ``--tol`` below 0 or NaN is a usage error.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from typer.testing import CliRunner

from tests.support import TIMEOUT, examples
from tests.test_fuzz import PLANS, SEED_BYTES, mutate
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.output import write_output

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "streams"
SAMPLE = ROOT / "samples" / "arm6.urdf"
# A sample that converts without a warning (arm6's mimic joints raise the version: a note).
QUIET_SAMPLE = ROOT / "samples" / "pendulum.urdf"
FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
posix_only = pytest.mark.skipif(os.name != "posix" or shutil.which("sh") is None,
                                reason="needs a POSIX shell")
runner = CliRunner()
# A diagnostic line, or the source snippet and caret lines under one.
CODED_LINE = re.compile(r"^\S(.*\S)?: (error|warning)\[[A-Z][A-Z0-9_]*\]: \S")
SNIPPET_LINE = re.compile(r"^ *(\d+)? \|")


def command(*args) -> list[str]:
    return [sys.executable, "-m", "urdf_sdf.cli", *[str(a) for a in args]]


def run(*args, redirect: str = "", stdin=None, stdout=subprocess.PIPE, cwd=None):
    """Run a console script as a shell would with ``redirect`` (``2>&-``...) after it."""
    script = 'exec "$@" ' + redirect
    return subprocess.run(["sh", "-c", script, "sh", *command(*args)], stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, timeout=TIMEOUT,
                          cwd=cwd or ROOT, check=False)


def fixture(name: str, tmp_path: Path) -> Path:
    copy = tmp_path / name
    shutil.copyfile(FIXTURES / name, copy)
    return copy


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def uncoded_lines(stderr: str) -> list[str]:
    return [line for line in stderr.split("\n") if line.strip()
            and not CODED_LINE.match(line) and not SNIPPET_LINE.match(line)]


# ---- item 8: -o is never the input; links are written through --------------------------

@posix_only
@pytest.mark.parametrize("prog", ["urdf2sdf", "sdf2urdf"])
def test_output_refuses_stdin_same_file(tmp_path, prog):
    """``urdf2sdf - -o robot.urdf < robot.urdf``: the file on stdin is the input."""
    source = SAMPLE if prog == "urdf2sdf" else ROOT / "samples" / "arm6.sdf"
    robot = tmp_path / source.name
    shutil.copyfile(source, robot)
    before = robot.read_bytes()
    with open(robot, "rb") as stdin:
        done = run(prog, "-", "-o", robot, stdin=stdin)
    assert done.returncode == 1
    assert b"error[OUTPUT_IS_INPUT]" in done.stderr
    assert robot.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [robot.name]  # no temporary left


@posix_only
def test_output_refuses_stdin_same_file_through_a_link(tmp_path):
    robot = fixture("robot_with_warning.urdf", tmp_path)
    link = tmp_path / "link.urdf"
    link.symlink_to(robot.name)
    before = robot.read_bytes()
    with open(robot, "rb") as stdin:
        done = run("urdf2sdf", "-", "-o", link, stdin=stdin)
    assert done.returncode == 1 and b"error[OUTPUT_IS_INPUT]" in done.stderr
    assert robot.read_bytes() == before and link.is_symlink()


def test_graph_output_linked_to_the_input_is_refused(tmp_path):
    robot = fixture("robot_with_warning.urdf", tmp_path)
    link = tmp_path / "graph.dot"
    link.symlink_to(robot)
    before = robot.read_bytes()
    result = runner.invoke(umbrella, ["graph", str(robot), "-o", str(link)])
    assert result.exit_code == 1 and "error[OUTPUT_IS_INPUT]" in result.stderr
    assert robot.read_bytes() == before


def test_print_output_that_is_the_input_is_refused(tmp_path):
    robot = fixture("world_of_two_models.sdf", tmp_path)
    before = robot.read_bytes()
    result = runner.invoke(umbrella, ["print", str(robot), "-o", str(robot)])
    assert result.exit_code == 1 and "error[OUTPUT_IS_INPUT]" in result.stderr
    assert robot.read_bytes() == before


@pytest.mark.parametrize("target_exists", [True, False])
def test_output_symlink_written_through(tmp_path, target_exists):
    """The link stays a link; its target (in another directory) gets the document,
    atomically: no temporary file is left beside the link or the target."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "real.sdf"
    if target_exists:
        target.write_bytes(b"old")
        target.chmod(0o640)
    link = tmp_path / "link.sdf"
    link.symlink_to(target)
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert etree.fromstring(target.read_bytes()).tag == "sdf"
    if target_exists:
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file's mode
    assert sorted(p.name for p in elsewhere.iterdir()) == ["real.sdf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "link.sdf"]


def test_output_link_in_a_tree_is_replaced_not_followed(tmp_path):
    """An output whose name the command made up (a batch's, after its input) may meet a
    link someone put in the tree: it is replaced, nothing outside the tree is written."""
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.sdf").symlink_to(outside)
    write_output(b"<sdf/>", str(tree / "robot.sdf"))
    assert outside.read_bytes() == b"keep"
    assert not (tree / "robot.sdf").is_symlink()
    assert (tree / "robot.sdf").read_bytes() == b"<sdf/>"


NAME_CHARACTERS = st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",))


@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(name=st.text(NAME_CHARACTERS, min_size=1, max_size=12)
       .filter(lambda n: n not in (".", "..", "target") and len(n.encode()) < 200),
       linked=st.sampled_from([None, "inside", "outside"]), through=st.booleans())
def test_output_names_and_links_stay_where_they_point(name, linked, through):
    """Any file name (control characters, a leading dash, spaces, non-ASCII), plain or a
    link: the document lands at that name (or, through a link the user named, at its
    target); nothing else is written, no temporary file is left."""
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        tree, outside = root / "tree", root / "outside"
        tree.mkdir()
        outside.mkdir()
        target = {"inside": tree / "target", "outside": outside / "target"}.get(linked)
        if target is not None:
            (tree / name).symlink_to(target)
        write_output(b"<sdf/>", str(tree / name), through_links=through)
        lands = target if target is not None and through else tree / name
        assert lands.read_bytes() == b"<sdf/>"
        written = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())
        assert written == [lands]
        assert (tree / name).is_symlink() == (target is not None and through)


def test_output_symlink_to_a_device_is_written_not_replaced(tmp_path):
    link = tmp_path / "graph.dot"
    link.symlink_to(os.devnull)
    result = runner.invoke(umbrella, ["graph", str(SAMPLE), "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)


def stdout_names(tmp_path: Path) -> list[Path]:
    """Names of standard output that a regression could not damage: a link of our own in
    ``tmp_path`` made as /dev/stdout is (to /proc/self/fd/1), and /dev/fd/1, in whose
    directory no file can be made. (The real /dev/stdout is only ever resolved, in
    test_dev_stdout_is_standard_output: a test that writes to it would, on a regressed
    code base run as root, replace it with a regular file for the whole machine.)"""
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    return [link, Path("/dev/fd/1")]


@posix_only
@pytest.mark.skipif(not Path("/proc/self/fd/1").exists(), reason="needs /proc")
@pytest.mark.parametrize("args", [("urdf2sdf", SAMPLE), ("urdf-sdf", "print", SAMPLE),
                                  ("urdf-sdf", "graph", SAMPLE)])
def test_output_dev_stdout_written_through(tmp_path, args):
    """``-o /dev/stdout > robot.sdf`` leaves the document in robot.sdf, and the name of
    standard output as it was."""
    for name in stdout_names(tmp_path):
        before = os.lstat(name)
        redirected = tmp_path / "redirected.out"
        with open(redirected, "wb") as stdout:
            done = run(*args, "-o", name, stdout=stdout)
        assert done.returncode == 0, done.stderr
        text = redirected.read_bytes()
        if "graph" in args:
            assert text.startswith(b"digraph")
        else:
            etree.fromstring(text)
        after = os.lstat(name)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


@posix_only
@pytest.mark.skipif(not os.path.islink("/dev/stdout"), reason="needs /dev/stdout")
def test_dev_stdout_is_standard_output(tmp_path):
    """/dev/stdout redirected to a regular file is standard output, never a file to
    replace (resolved only: nothing is written to it)."""
    probe = ("import sys; from pathlib import Path; "
             "from urdf_sdf.core.write.destination import resolve_destination; "
             "print(resolve_destination(Path('/dev/stdout'), (), True)[0], file=sys.stderr)")
    with open(tmp_path / "redirected.out", "wb") as stdout:
        done = subprocess.run([sys.executable, "-c", probe], stdout=stdout,
                              stderr=subprocess.PIPE, timeout=TIMEOUT, cwd=ROOT, check=False)
    assert done.stderr.strip() == b"stdout"


# ---- item 14: closed standard streams ---------------------------------------------------

@posix_only
@pytest.mark.parametrize("prog, name", [("urdf2sdf", "robot_with_warning.urdf"),
                                        ("urdf2sdf", "joint_child_missing.urdf"),
                                        ("sdf2urdf", "world_of_two_models.sdf")])
def test_closed_stderr_never_mixes_into_document(prog, name):
    """A warning (exit 0) or an error (exit 1) with stderr closed: stdout holds the
    well-formed document or nothing, never a diagnostic; the exit code still tells."""
    with_stderr = run(prog, FIXTURES / name)
    assert with_stderr.stderr  # the file does have diagnostics to drop
    done = run(prog, FIXTURES / name, redirect="2>&-")
    assert done.returncode == with_stderr.returncode
    assert b"error[" not in done.stdout and b"warning[" not in done.stdout
    if done.returncode == 0:
        etree.fromstring(done.stdout)
    else:
        assert done.stdout == b""


@posix_only
@pytest.mark.parametrize("args", [("urdf2sdf", SAMPLE), ("urdf-sdf", "print", SAMPLE),
                                  ("urdf-sdf", "frames", "--json", SAMPLE)])
def test_closed_stdout_is_file_write(args):
    done = run(*args, redirect=">&-")
    assert done.returncode == 1
    assert b"error[FILE_WRITE]: cannot write standard output" in done.stderr
    assert b"INTERNAL_ERROR" not in done.stderr and b"Traceback" not in done.stderr


@posix_only
def test_closed_stdout_does_not_matter_with_an_output_file(tmp_path):
    out = tmp_path / "robot.sdf"
    done = run("urdf2sdf", QUIET_SAMPLE, "-o", out, redirect=">&-")
    assert done.returncode == 0 and done.stderr == b""
    etree.fromstring(out.read_bytes())


@posix_only
@pytest.mark.parametrize("args", [("urdf2sdf", "-"), ("sdf2urdf", "-"),
                                  ("urdf-sdf", "check", "-"), ("urdf-sdf", "graph", "-")])
def test_closed_stdin_is_file_read(args):
    done = run(*args, redirect="<&-")
    said = done.stdout + done.stderr  # check reports on stdout, the others on stderr
    assert done.returncode == 1
    assert b"<stdin>: error[FILE_READ]: cannot read standard input" in said
    assert b"INTERNAL_ERROR" not in said and b"Traceback" not in said


@posix_only
def test_all_standard_streams_closed_is_a_quiet_failure(tmp_path):
    out = tmp_path / "robot.sdf"
    done = run("urdf2sdf", "-", "-o", out, redirect="<&- >&- 2>&-")
    assert done.returncode == 1 and not out.exists()


# ---- item 15: write failures are FILE_WRITE ---------------------------------------------

@needs_full
@pytest.mark.parametrize("link", [False, True])
def test_graph_output_full_device_is_file_write(tmp_path, link):
    output = FULL
    if link:
        output = tmp_path / "graph.dot"
        output.symlink_to(FULL)
    result = runner.invoke(umbrella, ["graph", str(SAMPLE), "-o", str(output)])
    assert result.exit_code == 1
    assert f"{output}: error[FILE_WRITE]: cannot write: " in result.stderr
    assert os.strerror(28) in result.stderr  # ENOSPC, with the system's wording
    assert "INTERNAL_ERROR" not in result.output


@needs_full
@pytest.mark.parametrize("app, args", [(umbrella, ["print", str(SAMPLE)]),
                                       (urdf2sdf, [str(SAMPLE)]),
                                       (sdf2urdf, [str(ROOT / "samples" / "arm6.sdf")])])
def test_output_full_device_is_file_write(app, args):
    result = runner.invoke(app, [*args, "-o", str(FULL)])
    assert result.exit_code == 1
    assert "error[FILE_WRITE]" in result.stderr and os.strerror(28) in result.stderr
    assert uncoded_lines(result.stderr) == []


@needs_full
def test_json_output_full_device_still_prints_the_json():
    """``--json -o FILE`` whose write fails: the JSON on stdout says so."""
    result = runner.invoke(urdf2sdf, [str(QUIET_SAMPLE), "--json", "-o", str(FULL)])
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["ok"] is False and summary["output"] is None
    assert [d["code"] for d in summary["diagnostics"]] == ["FILE_WRITE"]


def test_json_output_file_prints_the_json(tmp_path):
    out = tmp_path / "robot.sdf"
    result = runner.invoke(urdf2sdf, [str(QUIET_SAMPLE), "--json", "-o", str(out)])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"ok": True, "output": str(out), "diagnostics": []}


def test_output_into_a_directory_is_a_coded_usage_error(tmp_path):
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path}: error[OUTPUT_INVALID]: " in result.stderr


def mounted_tmpfs(path: Path, options: str) -> bool:
    """Mount a tmpfs on ``path`` (root only); False when that cannot be done here."""
    if not is_root() or shutil.which("mount") is None:
        return False
    path.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
                          capture_output=True, timeout=TIMEOUT, check=False)
    return done.returncode == 0


def unmount(path: Path) -> None:
    subprocess.run(["umount", str(path)], capture_output=True, timeout=TIMEOUT, check=False)


@pytest.mark.parametrize("options, reason", [("ro,size=64k", 30),   # EROFS
                                             ("size=4k", 28)])      # ENOSPC
def test_graph_output_on_a_read_only_or_full_file_system_is_file_write(tmp_path, options,
                                                                       reason):
    mount = tmp_path / "mount"
    if not mounted_tmpfs(mount, options):
        pytest.skip("needs root and tmpfs mounts")
    try:
        # the frame graphs: more than a 4k file system holds (the tree fits in it)
        result = runner.invoke(umbrella, ["graph", str(SAMPLE), "--kind", "both",
                                          "-o", str(mount / "g.dot")])
        assert result.exit_code == 1
        assert "error[FILE_WRITE]" in result.stderr and os.strerror(reason) in result.stderr
        assert list(mount.iterdir()) == []  # no partial file, no temporary
    finally:
        unmount(mount)


def test_graph_output_in_an_unwritable_directory_is_file_write(tmp_path):
    if is_root():
        pytest.skip("root writes into any directory")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = runner.invoke(umbrella, ["graph", str(SAMPLE), "-o", str(locked / "g.dot")])
        assert result.exit_code == 1
        assert "error[FILE_WRITE]" in result.stderr and os.strerror(13) in result.stderr
    finally:
        locked.chmod(0o700)


# ---- item 16: every failure is a coded line ----------------------------------------------

def test_graph_tree_of_invalid_file_is_coded():
    result = runner.invoke(umbrella, ["graph", "--kind", "tree",
                                      str(FIXTURES / "joint_child_missing.urdf")])
    assert result.exit_code == 1
    assert "error[GRAPH_TREE_INVALID]" in result.stderr
    assert uncoded_lines(result.stderr) == []


@pytest.mark.parametrize("name, extra, code, exit_code", [
    ("world_without_model.sdf", [], "ELEMENT_MISSING", 1),
    ("world_of_two_models.sdf", [], "MODEL_AMBIGUOUS", 2),
    ("world_of_two_models.sdf", ["--model", "third"], "ELEMENT_MISSING", 2)])
def test_check_parity_without_one_model_is_coded(name, extra, code, exit_code):
    result = runner.invoke(umbrella, ["check", "--urdf-parity", *extra, str(FIXTURES / name)])
    assert result.exit_code == exit_code
    assert f"{FIXTURES / name}: error[{code}]: " in result.stderr
    assert uncoded_lines(result.stderr) == []


def test_libxml2_message_stays_on_one_line():
    """libxml2 ends some messages with a newline ("... out of allowed range\\n, line 3")."""
    result = runner.invoke(urdf2sdf, [str(FIXTURES / "nul_byte_in_text.urdf")])
    assert result.exit_code == 1
    assert "error[FILE_READ]: malformed XML: Invalid character" in result.stderr
    assert uncoded_lines(result.stderr) == []


@pytest.mark.parametrize("tol", ["-1", "nan", "-inf", "-1e-9", "inf", "Infinity", "1e400"])
@pytest.mark.parametrize("command_name", ["diff", "view"])
def test_tol_negative_or_not_finite_is_usage_error(command_name, tol):
    """A tolerance no difference can meet, or one every difference meets (a diff in CI
    that can never fail), is refused by both commands comparing two files."""
    result = runner.invoke(umbrella, [command_name, str(SAMPLE), str(SAMPLE), "--tol", tol])
    assert result.exit_code == 2
    assert "is not a tolerance" in result.output


@pytest.mark.parametrize("tol", ["nan", "NaN", "inf", "1e400"])
def test_diff_tol_not_finite_is_usage_error_on_the_quick_path(tol):
    done = subprocess.run(command("urdf-sdf", "diff", SAMPLE, SAMPLE, f"--tol={tol}"),
                          capture_output=True, timeout=TIMEOUT, cwd=ROOT, check=False)
    assert done.returncode == 2 and b"is not a tolerance" in done.stderr


FAILING = [
    (umbrella, ["graph", "--kind", "tree", "joint_child_missing.urdf"]),
    (umbrella, ["graph", "joint_child_missing.urdf", "-o", "OUT/g.dot"]),
    (umbrella, ["check", "--urdf-parity", "world_without_model.sdf"]),
    (umbrella, ["check", "--urdf-parity", "world_of_two_models.sdf"]),
    (umbrella, ["frames", "--model", "third", "world_of_two_models.sdf"]),
    (umbrella, ["print", "nul_byte_in_text.urdf"]),
    (umbrella, ["print", "world_of_two_models.sdf", "-o", "OUT"]),
    (umbrella, ["print", "world_of_two_models.sdf", "-o", "world_of_two_models.sdf"]),
    (urdf2sdf, ["joint_child_missing.urdf"]),
    (urdf2sdf, ["robot_with_warning.urdf", "-o", "OUT/missing/robot.sdf"]),
    (urdf2sdf, ["robot_with_warning.urdf", "-o", "robot_with_warning.urdf"]),
    (sdf2urdf, ["world_without_model.sdf"]),
    (sdf2urdf, ["world_of_two_models.sdf", "-o", "OUT"]),
]


@pytest.mark.parametrize("app, args", FAILING)
def test_every_stderr_line_of_a_failing_command_is_coded(tmp_path, app, args):
    for name in os.listdir(FIXTURES):
        shutil.copyfile(FIXTURES / name, tmp_path / name)
    (tmp_path / "OUT").mkdir()
    argv = [str(tmp_path / a) if (FIXTURES / a).exists() or a.startswith("OUT") else a
            for a in args]
    result = runner.invoke(app, argv)
    assert result.exit_code in (1, 2), result.output
    assert result.stderr.strip(), "a failure says why"
    assert uncoded_lines(result.stderr) == []


def mutated_commands(path: Path, out: Path, is_urdf: bool):
    converter = urdf2sdf if is_urdf else sdf2urdf
    return [(umbrella, ["check", "--urdf-parity", str(path)]),
            (umbrella, ["frames", str(path)]),
            (umbrella, ["graph", "--kind", "tree", str(path)]),
            (umbrella, ["graph", str(path), "-o", str(out.with_suffix(".dot"))]),
            (umbrella, ["print", str(path), "-o", str(out.with_suffix(".print.sdf"))]),
            (converter, [str(path), "-o", str(out)])]


@settings(max_examples=examples(25), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, len(SEED_BYTES) - 1), plan=PLANS, chosen=st.integers(0, 5))
def test_mutated_inputs_print_only_coded_lines(seed, plan, chosen):
    """The fuzzing of tests/test_fuzz.py, reading stderr: every line a diagnostic or its
    snippet (no bare "prog: ..." line, no libxml2 message spilt over two lines)."""
    data = mutate(SEED_BYTES[seed], plan)
    is_urdf = b"<robot" in data[:4096] and b"<sdf" not in data[:4096]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / ("input.urdf" if is_urdf else "input.sdf")
        path.write_bytes(data)
        out = Path(directory) / ("output.sdf" if is_urdf else "output.urdf")
        app, args = mutated_commands(path, out, is_urdf)[chosen]
        result = runner.invoke(app, args)
        assert result.exit_code in (0, 1, 2), (args, result.output[-2000:])
        assert uncoded_lines(result.stderr) == [], (args, result.stderr[-2000:])


def test_view_output_symlink_written_through(tmp_path):
    """``view -o LINK`` writes the page through the link, which stays a link."""
    pytest.importorskip("plotly")
    pytest.importorskip("trimesh")
    target = tmp_path / "elsewhere.html"
    target.write_bytes(b"old")
    link = tmp_path / "page.html"
    link.symlink_to(target)
    result = runner.invoke(umbrella, ["view", str(SAMPLE), "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and b"<html" in target.read_bytes()[:4096].lower()


def test_view_output_into_a_directory_is_a_coded_line(tmp_path):
    """``view -o DIR``: a usage error on one coded line (OUTPUT_INVALID), exit 2."""
    pytest.importorskip("plotly")
    pytest.importorskip("trimesh")
    result = runner.invoke(umbrella, ["view", str(SAMPLE), "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "error[OUTPUT_INVALID]" in result.stderr and not uncoded_lines(result.stderr)


def test_view_output_that_is_the_input_is_refused(tmp_path):
    pytest.importorskip("plotly")
    pytest.importorskip("trimesh")
    robot = tmp_path / "robot.urdf"
    robot.write_bytes(SAMPLE.read_bytes())
    result = runner.invoke(umbrella, ["view", str(robot), "-o", str(robot)])
    assert result.exit_code == 1 and "error[OUTPUT_IS_INPUT]" in result.stderr
    assert robot.read_bytes() == SAMPLE.read_bytes()


# ---- a batch's output tree: no folder on the way is a link -------------------------------

def batch_with_linked_output_folder(tmp_path: Path, sample: str) -> tuple[Path, Path, Path]:
    """The reduced reproducer: ``in/sub/robot.<ext>`` to convert into ``out``, where
    ``out/sub`` is a symbolic link to ``victim`` (which holds a ``robot.<other ext>``)."""
    source = ROOT / "samples" / sample
    written = "robot.urdf" if sample.endswith(".sdf") else "robot.sdf"
    inputs, out, victim = tmp_path / "in", tmp_path / "out", tmp_path / "victim"
    (inputs / "sub").mkdir(parents=True)
    shutil.copyfile(source, inputs / "sub" / f"robot{source.suffix}")
    victim.mkdir()
    (victim / written).write_bytes(b"precious")
    out.mkdir()
    (out / "sub").symlink_to(victim)
    return inputs, out, victim / written


@pytest.mark.parametrize("app, sample", [(urdf2sdf, "pendulum.urdf"),
                                         (sdf2urdf, "pendulum.sdf")])
def test_batch_output_never_follows_a_linked_folder(tmp_path, app, sample):
    inputs, out, victim_file = batch_with_linked_output_folder(tmp_path, sample)
    result = runner.invoke(app, [str(inputs), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "FILE_WRITE" in result.output
    assert "a symbolic link in the output tree: not followed" in result.output
    assert victim_file.read_bytes() == b"precious"
    assert sorted(p.name for p in victim_file.parent.iterdir()) == [victim_file.name]


def test_batch_output_never_makes_folders_through_a_link(tmp_path):
    """``mkdir(parents=True)`` would follow ``out/sub`` and make ``victim/deeper``."""
    inputs, out, victim_file = batch_with_linked_output_folder(tmp_path, "pendulum.urdf")
    (inputs / "sub" / "deeper").mkdir()
    (inputs / "sub" / "robot.urdf").rename(inputs / "sub" / "deeper" / "robot.urdf")
    result = runner.invoke(urdf2sdf, [str(inputs), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "a symbolic link in the output tree: not followed" in result.output
    assert sorted(p.name for p in victim_file.parent.iterdir()) == [victim_file.name]


def test_batch_output_folder_that_is_a_file_is_file_write(tmp_path):
    inputs, out, _ = batch_with_linked_output_folder(tmp_path, "pendulum.urdf")
    (out / "sub").unlink()
    (out / "sub").write_bytes(b"a file")
    result = runner.invoke(urdf2sdf, [str(inputs), "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert "FILE_WRITE" in result.output
    assert (out / "sub").read_bytes() == b"a file"


def test_batch_output_directory_named_by_the_user_may_be_a_link(tmp_path):
    inputs, _, victim_file = batch_with_linked_output_folder(tmp_path, "pendulum.urdf")
    real = tmp_path / "real"
    real.mkdir()
    linked_out = tmp_path / "linked-out"
    linked_out.symlink_to(real)
    result = runner.invoke(urdf2sdf, [str(inputs), "-o", str(linked_out)])
    assert result.exit_code == 0, result.output
    assert linked_out.is_symlink()
    assert b"<sdf" in (real / "sub" / "robot.sdf").read_bytes()
    assert victim_file.read_bytes() == b"precious"


# ---- -o naming a descriptor of this process: written to it, never reopened ---------------

needs_proc_fd = pytest.mark.skipif(not Path("/proc/self/fd").is_dir() or
                                   not Path("/dev/fd").exists(), reason="needs /proc/self/fd")
EARLIER = b"earlier log line\n"


@posix_only
@needs_proc_fd
@pytest.mark.parametrize("name", ["/proc/self/fd/5", "/dev/fd/5"])
def test_output_descriptor_name_is_written_never_truncated(tmp_path, name):
    """``urdf2sdf robot.urdf -o /proc/self/fd/5 5>>log.txt`` appends to log.txt."""
    log = tmp_path / "log.txt"
    log.write_bytes(EARLIER)
    result = run("urdf2sdf", SAMPLE, "-o", name, redirect=f"5>>'{log}'")
    assert result.returncode == 0, result.stderr
    written = log.read_bytes()
    assert written.startswith(EARLIER)
    assert b"<sdf" in written[len(EARLIER):]


@posix_only
@needs_proc_fd
def test_output_dev_stderr_is_written_to_stderr_never_truncated(tmp_path):
    log = tmp_path / "errors.txt"
    log.write_bytes(EARLIER)
    result = run("urdf2sdf", SAMPLE, "-o", "/dev/stderr", redirect=f"2>>'{log}'")
    assert result.returncode == 0
    written = log.read_bytes()
    assert written.startswith(EARLIER) and b"<sdf" in written


@posix_only
@needs_proc_fd
@pytest.mark.parametrize("name", ["/proc/self/fd/9", "/dev/fd/9"])
def test_output_descriptor_not_open_is_file_write(name):
    result = run("urdf2sdf", SAMPLE, "-o", name, redirect="9>&-")
    assert result.returncode == 1
    assert b"error[FILE_WRITE]" in result.stderr


@needs_proc_fd
def test_write_output_to_a_descriptor_name_writes_at_its_offset(tmp_path):
    log = tmp_path / "log.txt"
    log.write_bytes(EARLIER)
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        write_output(b"<sdf/>", f"/proc/self/fd/{fd}", through_links=True)
        write_output(b"<sdf/>", f"/dev/fd/{fd}", through_links=True)
    finally:
        os.close(fd)
    assert log.read_bytes() == EARLIER + b"<sdf/><sdf/>"
