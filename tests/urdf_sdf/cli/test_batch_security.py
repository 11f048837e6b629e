"""A batch reads only the files of the tree it was given, only regular files, and shows
source lines only of files that look like XML (issue 24, items 3 and 13).

* A symlink (file or directory) that resolves outside the input tree is skipped with the
  reason and never read; a symlink to a file of the tree is read once, under the file's
  own name.
* A FILE_READ / malformed-XML error in a file that is not XML (``/etc/shadow``, a binary)
  shows no line of it.
* Every file is opened non-blocking and examined after opening: a FIFO swapped in for a
  listed file is refused (FILE_READ, "not a regular file") and never blocks. A pipe the
  user names as FILE (``urdf2sdf <(cat robot.urdf)``) is read as ``cat`` would.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf.cli.batch import OUTSIDE_TREE, walk
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.render import SourceLines, render
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.read.xmlio import read_bytes

runner = CliRunner()
TIMEOUT = 60  # seconds: only the guard that turns a hang into a failure
needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

ROBOT = '<robot name="r">\n  <link name="base"/>\n</robot>\n'
MODEL = ('<sdf version="1.9">\n  <model name="m">\n    <link name="base"/>\n  </model>\n'
         '</sdf>\n')
# What a batch must never show: the first line of root's /etc/shadow entry.
SECRET = "root:$6$Secret.Hash$abcdef:19000:0:99999:7:::\n"


def invoke(app, *args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def outside(tmp_path) -> Path:
    """A directory beside the input tree, holding a secret and a robot description."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "shadow").write_text(SECRET)
    (folder / "other.urdf").write_text(ROBOT)
    (folder / "other.sdf").write_text(MODEL)
    return folder


def test_batch_skips_symlink_out_of_tree(tmp_path, outside):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.urdf").write_text(ROBOT)
    (tree / "evil.urdf").symlink_to(outside / "shadow")
    (tree / "elsewhere.urdf").symlink_to(outside / "other.urdf")
    (tree / "more").symlink_to(outside, target_is_directory=True)
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.rglob("*")) == ["robot.sdf"]
    assert "root:" not in result.output and "Secret" not in result.output
    skipped = result.stdout.split("skipped:\n")[1]
    for name, target in (("evil.urdf", outside / "shadow"),
                         ("elsewhere.urdf", outside / "other.urdf")):
        assert f"  {name}: {OUTSIDE_TREE.format(target=target)}" in skipped
    assert "  more: a symlink to" in skipped and "not followed" in skipped


def test_sdf2urdf_batch_skips_symlink_out_of_tree_in_json(tmp_path, outside):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "model.sdf").write_text(MODEL)
    (tree / "evil.sdf").symlink_to(outside / "other.sdf")
    result = invoke(sdf2urdf, tree, "-o", tmp_path / "out", "--json")
    assert result.exit_code == 0, result.output
    files = {Path(f["input"]).name: f for f in json.loads(result.stdout)["files"]}
    assert files["model.sdf"]["status"] == "converted"
    assert files["evil.sdf"]["status"] == "skipped"
    assert "outside the input directory" in files["evil.sdf"]["reason"]
    assert not (tmp_path / "out" / "evil.urdf").exists()


def test_batch_reads_an_in_tree_symlink_once(tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "robot.urdf").write_text(ROBOT)
    (tree / "alias.urdf").symlink_to(Path("sub") / "robot.urdf")
    (tree / "loop").symlink_to(tree, target_is_directory=True)  # never followed
    listing = walk(tree)
    assert listing == [tree / "sub" / "robot.urdf"]
    assert "converted as itself" in listing.skipped[tree / "alias.urdf"]
    assert tree / "loop" not in listing.skipped  # inside the tree: just not followed


def test_batch_reads_a_symlink_to_an_unlisted_file_of_the_tree(tmp_path):
    tree = tmp_path / "tree"
    (tree / ".generated").mkdir(parents=True)  # hidden: not walked
    (tree / ".generated" / "robot.urdf").write_text(ROBOT)
    (tree / "robot.urdf").symlink_to(Path(".generated") / "robot.urdf")
    assert walk(tree) == [tree / "robot.urdf"]


def test_batch_never_snippets_a_non_xml_file(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "shadow.urdf").write_text(SECRET)               # not XML at all
    (tree / "binary.urdf").write_bytes(b"\x7fELF\x02\x01\x01" + b"\x00" * 8)
    (tree / "broken.urdf").write_text('<robot name="r">\n  <link name="base">\n</robot>\n')
    result = invoke(urdf2sdf, tree, "-o", tmp_path / "out")
    assert result.exit_code == 1
    errors = result.stderr
    assert "shadow.urdf:1:1: error[FILE_READ]: malformed XML" in errors
    assert "Secret" not in result.output and "root:" not in result.output
    assert "ELF" not in result.output
    # the control: a malformed file that looks like XML shows its line
    assert " |   <link name=\"base\">" in errors or "| </robot>" in errors


def test_a_trusted_file_that_is_not_xml_shows_no_line(tmp_path):
    secret = tmp_path / "shadow"
    secret.write_text(SECRET)
    sources = SourceLines()
    sources.trust(str(secret))
    diagnostics = Diagnostics()
    diagnostics.error(Code.FILE_READ, "malformed XML: Start tag expected", str(secret), 1, 1)
    assert render(diagnostics[0], sources).count("\n") == 0
    xml = tmp_path / "robot.urdf"
    xml.write_text("\ufeff  <robot name='r'>\n")
    sources.trust(str(xml))
    diagnostics.error(Code.FILE_READ, "malformed XML", str(xml), 1)
    assert "<robot name='r'>" in render(diagnostics[1], sources)


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, check=False)


@needs_fifos
def test_batch_fifo_swapped_after_listing_never_blocks(tmp_path):
    """The FIFO is in place before the batch; the batch's own check of the listing is
    left out (as if the file had been swapped after it), so only the read stands
    between the batch and a read that would wait for ever for a writer."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.urdf").write_text(ROBOT)
    os.mkfifo(tree / "swapped.urdf")
    done = run_python(f"""
        import sys
        from urdf_sdf.cli import batch
        from urdf_sdf.cli.urdf2sdf import convert
        from urdf_sdf.urdf2sdf.convert import ToSdf
        batch.skip_irregular = lambda items: None  # the swap came after the listing
        sys.exit(convert(batch.Path({str(tree)!r}), batch.Path({str(tmp_path / 'out')!r}),
                         ToSdf(), None, jobs=1))
        """)
    assert done.returncode == 1, done.stderr
    assert "swapped.urdf: error[FILE_READ]: not a regular file (a FIFO): not read" in done.stderr
    assert (tmp_path / "out" / "robot.sdf").is_file()
    assert "Traceback" not in done.stderr


@needs_fifos
def test_read_bytes_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "robot.urdf"
    os.mkfifo(fifo)
    done = run_python(f"""
        from urdf_sdf.core.base.diagnostics import Diagnostics
        from urdf_sdf.core.read.xmlio import read_bytes
        diagnostics = Diagnostics()
        assert read_bytes({str(fifo)!r}, diagnostics) is None
        print(diagnostics[0].format())
        """)
    assert "error[FILE_READ]: not a regular file (a FIFO)" in done.stdout, done.stderr


def test_read_bytes_refuses_a_device():
    if not Path("/dev/zero").exists():
        pytest.skip("needs /dev/zero")
    diagnostics = Diagnostics()
    assert read_bytes("/dev/zero", diagnostics) is None  # would never end
    assert diagnostics[0].message == "not a regular file (a device): not read"


@needs_fifos
def test_a_pipe_the_user_names_is_read(tmp_path):
    """``urdf2sdf <(cat robot.urdf)``: the shell passes /dev/fd/N, a pipe."""
    read_end, write_end = os.pipe()
    writer = threading.Thread(target=lambda: (os.write(write_end, ROBOT.encode()),
                                              os.close(write_end)))
    writer.start()
    try:
        done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf",
                               f"/dev/fd/{read_end}"], capture_output=True, text=True,
                              timeout=TIMEOUT, pass_fds=(read_end,), stdin=subprocess.DEVNULL,
                              check=False)
    finally:
        writer.join()
        os.close(read_end)
    assert done.returncode == 0, done.stderr
    assert '<model name="r">' in done.stdout


@needs_fifos
def test_a_named_fifo_the_user_names_waits_for_its_writer(tmp_path):
    fifo = tmp_path / "robot.urdf"
    os.mkfifo(fifo)
    reader = subprocess.Popen([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf", str(fifo)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              stdin=subprocess.DEVNULL)
    with open(fifo, "w") as stream:  # blocks until the command opens it to read
        stream.write(ROBOT)
    out, err = reader.communicate(timeout=TIMEOUT)
    assert reader.returncode == 0, err
    assert '<model name="r">' in out


@needs_fifos
@pytest.mark.parametrize("command, option, suffix", [("urdf2sdf", "--model-dir", ".urdf"),
                                                     ("sdf2urdf", "--package-dir", ".sdf")])
def test_directory_batch_never_blocks_on_a_fifo(tmp_path, command, option, suffix):
    """--model-dir / --package-dir of a tree: a FIFO in it is skipped, not read."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / f"robot{suffix}").write_text(ROBOT if suffix == ".urdf" else MODEL)
    os.mkfifo(tree / f"pipe{suffix}")
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", command, str(tree),
                           option, str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    assert f"pipe{suffix}: skipped: not a regular file" in done.stderr


@needs_fifos
def test_directory_batch_fifo_swapped_after_listing_never_blocks(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    os.mkfifo(tree / "swapped.urdf")
    done = run_python(f"""
        import sys
        from urdf_sdf.cli import batch, packaging
        packaging.skip_irregular = lambda items: None  # the swap came after the listing
        sys.argv = ["urdf2sdf", {str(tree)!r}, "--model-dir", {str(tmp_path / 'out')!r}]
        from urdf_sdf.cli.main import urdf2sdf_app as app
        app()
        """)
    assert done.returncode == 1, done.stderr
    assert "swapped.urdf: error[FILE_READ]: not a regular file (a FIFO): not read" in done.stderr


# ---- a folder swapped for a link after the listing (TOCTOU) --------------------------------

def swap_after_listing(monkeypatch, module, tree: Path, outside: Path) -> None:
    """``module``'s ``walk`` lists ``tree``, then an attacker replaces ``tree/sub`` by a
    link to ``outside``, which holds a robot of the same name carrying the secret."""
    real_walk = module.walk
    (outside / "robot.urdf").write_text(ROBOT.replace("base", SECRET.split(":")[0] + "_leak"))

    def listed_then_swapped(root, exclude=None):
        listing = real_walk(root, exclude)
        (tree / "sub").rename(tree.parent / "sub.was")
        (tree / "sub").symlink_to(outside, target_is_directory=True)
        return listing

    monkeypatch.setattr(module, "walk", listed_then_swapped)


@pytest.mark.parametrize("model_dir", [False, True])
def test_a_folder_swapped_for_a_link_after_the_listing_is_not_read(tmp_path, outside,
                                                                   monkeypatch, model_dir):
    from urdf_sdf.cli import urdf2sdf as urdf2sdf_module
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "robot.urdf").write_text(ROBOT)
    swap_after_listing(monkeypatch, urdf2sdf_module, tree, outside)
    out = tmp_path / "out"
    where = ["--model-dir", out] if model_dir else ["-o", out]
    result = invoke(urdf2sdf, tree, *where, "-j", "1")
    assert result.exit_code == 1, result.output
    assert f"resolves to {outside / 'robot.urdf'}, outside the input directory " \
        f"{tree}: not read" in result.stderr
    assert "root_leak" not in result.stdout + result.stderr
    assert not any("root_leak" in p.read_text() for p in out.rglob("*") if p.is_file())


def test_a_folder_swapped_between_the_check_and_the_open_is_refused(tmp_path, outside,
                                                                    monkeypatch):
    """The narrowest window: the real path checked inside the tree, then the folder
    swapped before the file is opened: no link is followed (core.read.files resolved)."""
    from urdf_sdf.core.read import xmlio
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "robot.urdf").write_text(ROBOT)
    (outside / "robot.urdf").write_text(ROBOT.replace("base", "root_leak"))
    real_is_within = xmlio.is_within

    def checked_then_swapped(path, root):
        inside = real_is_within(path, root)
        if not (tree / "sub").is_symlink():
            (tree / "sub").rename(tmp_path / "sub.was")
            (tree / "sub").symlink_to(outside, target_is_directory=True)
        return inside

    monkeypatch.setattr(xmlio, "is_within", checked_then_swapped)
    result = invoke(urdf2sdf, tree, "-o", tmp_path / "out", "-j", "1")
    assert result.exit_code == 1, result.output
    assert "not a regular file (a symbolic link on its path): not read" in result.stderr
    assert "root_leak" not in result.stdout + result.stderr


# ---- a path longer than the system opens -----------------------------------------------------

def too_long_to_open(tree: Path) -> Path:
    """A robot under ``tree`` whose path passes PATH_MAX (4156 bytes: made relative to
    its folder, of 3950 bytes)."""
    deep = tree
    while len(os.fsencode(str(deep))) + 201 < 3950:
        deep = deep / ("d" * 200)
    deep = deep / ("e" * (3950 - len(os.fsencode(str(deep))) - 1))
    deep.mkdir(parents=True)
    name = "r" * 200 + ".urdf"
    folder = os.open(deep, os.O_RDONLY)
    try:
        os.close(os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=folder))
    finally:
        os.close(folder)
    return deep / name


def test_a_file_whose_path_is_too_long_to_open_is_skipped_with_the_reason(tmp_path):
    """A file under the input directory whose path passes PATH_MAX: skipped, with the
    reason, never an INTERNAL_ERROR; the others converted."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.urdf").write_text(ROBOT)
    name = too_long_to_open(tree).name
    out = tmp_path / "out"
    result = invoke(urdf2sdf, tree, "-o", out, "--json")
    assert result.exit_code == 0, result.output
    files = {Path(f["input"]).name: f for f in json.loads(result.stdout)["files"]}
    assert files[name]["status"] == "skipped"
    assert "longer than the system opens" in files[name]["reason"]
    assert files["robot.urdf"]["status"] == "converted"
    assert "INTERNAL_ERROR" not in result.output


@pytest.mark.parametrize("app", [urdf2sdf, sdf2urdf])
def test_a_file_argument_too_long_to_open_is_file_read(tmp_path, app):
    """Named as FILE: FILE_READ with the system's reason (it was an INTERNAL_ERROR of
    the check for a directory)."""
    result = invoke(app, too_long_to_open(tmp_path))
    assert result.exit_code == 1, result.output
    assert "error[FILE_READ]: cannot read file: file name too long" in result.output


# ---- a batch's output never replaces a file a conversion read -------------------------------

@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_batch_output_never_replaces_a_file_its_input_includes(tmp_path, jobs):
    """``sdf2urdf tree -o tree``: ``robot.sdf`` includes ``robot.urdf``, whose name its
    output takes: OUTPUT_IS_INPUT, the included file intact (it was overwritten)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.urdf").write_text(ROBOT)
    (tree / "robot.sdf").write_text('<?xml version="1.0"?>\n<sdf version="1.9"><world name="w">'
                                    "<include><uri>robot.urdf</uri></include></world></sdf>\n")
    result = invoke(sdf2urdf, tree, "-o", tree, "-j", jobs, "--json")
    assert result.exit_code == 1, result.output
    (outcome,) = json.loads(result.stdout)["files"]
    assert outcome["status"] == "failed"
    assert [d["code"] for d in outcome["diagnostics"]][-1] == "OUTPUT_IS_INPUT"
    assert (tree / "robot.urdf").read_text() == ROBOT


MODEL_CONFIG = ('<?xml version="1.0"?>\n<model><sdf version="1.9">{new}</sdf>'
                '<sdf version="1.6">{old}</sdf></model>\n')
PART_SDF = ('<?xml version="1.0"?>\n<sdf version="1.9"><model name="m"><link name="a"/>'
            '</model></sdf>\n')


def test_a_model_config_swapped_after_the_listing_is_not_read(tmp_path, monkeypatch):
    """A batch reads a model directory's model.config as an included file is read: one
    swapped for a link out of the tree after the listing is not read (the outside one
    would pick b.sdf and skip a.sdf)."""
    import urdf_sdf.cli.sdf2urdf as cli
    arm = tmp_path / "tree" / "arm"
    arm.mkdir(parents=True)
    (arm / "model.config").write_text(MODEL_CONFIG.format(new="a.sdf", old="b.sdf"))
    for name in ("a.sdf", "b.sdf"):
        (arm / name).write_text(PART_SDF)
    (tmp_path / "outside.config").write_text(MODEL_CONFIG.format(new="b.sdf", old="a.sdf"))
    listed = walk(tmp_path / "tree")

    def walk_then_swap(root, exclude=None):
        (arm / "model.config").unlink()
        (arm / "model.config").symlink_to(tmp_path / "outside.config")
        return listed

    monkeypatch.setattr(cli, "walk", walk_then_swap)
    items, _ = cli.discover(tmp_path / "tree", tmp_path / "out")
    assert [(item.source.name, item.skip) for item in items if item.source.suffix == ".sdf"] \
        == [("a.sdf", None), ("b.sdf", None)]


def test_a_batch_file_swapped_after_loading_shows_no_line_outside_the_tree(tmp_path):
    """A batch's own file is shown again only from inside its input tree: swapped for a
    link out of it after it was read, its excerpt is not the outside file's."""
    from urdf_sdf.core.base.context import Context
    tree = tmp_path / "tree"
    tree.mkdir()
    robot = tree / "robot.urdf"
    robot.write_text("<robot name='r'>\n  <link/>\n</robot>\n")
    (tmp_path / "outside.xml").write_text("<a>\n  <secret>TOP-SECRET</secret>\n</a>\n")
    sources = SourceLines()
    sources.confine(str(robot), Context(inputs_within=os.path.realpath(tree)))
    sources.trust(str(robot))
    robot.unlink()
    robot.symlink_to(tmp_path / "outside.xml")
    assert sources.line(str(robot), 2) is None
    within = SourceLines()
    within.trust(str(robot))  # the user named it: shown as named
    assert within.line(str(robot), 2) == "  <secret>TOP-SECRET</secret>"
