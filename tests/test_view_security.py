"""Meshes under hostile input, for every command that reads a mesh's content (``view``,
``diff``, a model directory), and ``view --png``'s browser on every way out.

* A COLLADA file goes through the hardened XML parser: an external entity (XXE) never
  reaches any output, a billion-laughs document is refused (XML_UNSAFE) before any
  expansion; lxml's floor is the release that stopped resolving external entities.
* Size caps: ``view`` reads no mesh over 256 MiB (MESH_TOO_LARGE, a marker box); ``diff``
  hashes no mesh over 64 MiB whole (by size and samples, MESH_SAMPLED). A 200 GB sparse
  file is cheap to make and must cost no more than a few reads.
* Only regular files are read, and the files a mesh names itself only from its folder
  (hypothesis: no name of ``..``, ``/``, NUL, escape or symlink parts climbs out); a change
  in any sampled byte changes a sampled digest (hypothesis).
* ``view --png``: the browser's process group is killed and its folder removed when the
  picture is done, when the browser fails or hangs, and on SIGTERM and SIGINT.
* A view that writes nothing ends with a coded line (VIEW_NOT_WRITTEN).
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.support import examples, written_at_each_destination
from urdf_sdf.cli.main import app, urdf2sdf_app
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.mesh_files import (
    MeshFileError,
    MeshFileTooLarge,
    file_digest,
    read_capped,
    sample_offsets,
)
from urdf_sdf.view import snapshot
from urdf_sdf.view.collada import ColladaRefused, safe_collada
from urdf_sdf.view.companions import CompanionFiles
from urdf_sdf.view.meshes import MAX_MESH_BYTES
from urdf_sdf.view.scene import build_scene

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SECRET = "URDF-SDF-SECRET-7f3a9c"
HUGE = 200 * 2 ** 30   # a 200 GB sparse mesh: no blocks on disk
HANG_GUARD = 120       # seconds: a subprocess that takes longer has hung
FAKE_PICTURE = b"\x89PNG fake picture"  # what FAKE_BROWSER draws
runner = CliRunner()

BOX_DAE = """<?xml version="1.0" encoding="utf-8"?>
{doctype}<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><title>{title}</title><unit meter="1" name="meter"/><up_axis>Z_UP</up_axis></asset>
  <library_images><image id="i"><init_from>{title}</init_from></image></library_images>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node id="n">
    <instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""


def robot(folder: Path, *meshes: str, name: str = "robot.urdf") -> Path:
    """A one-link URDF in ``folder`` with a visual per mesh file name."""
    visuals = "".join(f'\n    <visual><geometry><mesh filename="{m}"/></geometry></visual>'
                      for m in meshes)
    path = folder / name
    path.write_text(f'<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">'
                    f'{visuals}\n  </link>\n</robot>\n', encoding="utf-8")
    return path


def xxe_collada(folder: Path) -> Path:
    """``collada_external_entity.dae``: its title and image name are an external entity
    naming a secret file beside it."""
    secret = folder / "secret.txt"
    secret.write_text(SECRET + "\n", encoding="utf-8")
    path = folder / "collada_external_entity.dae"
    path.write_text(BOX_DAE.format(
        doctype=f'<!DOCTYPE COLLADA [<!ENTITY xxe SYSTEM "{secret.as_uri()}">]>\n',
        title="&xxe;"), encoding="utf-8")
    return path


def billion_laughs_collada(folder: Path) -> Path:
    """``collada_billion_laughs.dae``: 10 levels of ten entities each (3 GB expanded)."""
    entities = ['<!ENTITY l0 "lollollollollollollollollollol">'] + \
        [f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, 10)]
    path = folder / "collada_billion_laughs.dae"
    path.write_text(BOX_DAE.format(doctype="<!DOCTYPE COLLADA [\n" + "\n".join(entities)
                                   + "\n]>\n", title="&l9;"), encoding="utf-8")
    return path


def everything_written(result, *folders: Path) -> str:
    """The command's output and every file under ``folders``, as one text."""
    texts = [result.stdout, result.stderr]
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file() and path.name != "secret.txt":
                texts.append(path.name + path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(texts)


# ---- COLLADA: external entities and billion laughs --------------------------------------

def test_lxml_floor_is_the_release_that_stopped_resolving_external_entities():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (lxml,) = [d for d in dependencies if d.startswith("lxml")]
    floor = re.fullmatch(r"lxml>=(\d+)\.(\d+).*", lxml)
    assert floor and (int(floor.group(1)), int(floor.group(2))) >= (5, 0)


def test_collada_with_an_external_entity_is_refused_before_parsing(tmp_path):
    with pytest.raises(ColladaRefused) as refused:
        safe_collada(xxe_collada(tmp_path).read_bytes(), "x.dae")
    assert refused.value.code is Code.XML_UNSAFE and SECRET not in str(refused.value)


def test_collada_billion_laughs_is_refused_before_any_expansion(tmp_path):
    data = billion_laughs_collada(tmp_path).read_bytes()
    assert len(data) < 2000
    with pytest.raises(ColladaRefused) as refused:
        safe_collada(data, "x.dae")
    assert refused.value.code is Code.XML_UNSAFE and "entities" in str(refused.value)


def test_collada_that_is_safe_is_handed_on_without_doctype_and_drawn(tmp_path):
    path = tmp_path / "box.dae"
    path.write_text(BOX_DAE.format(doctype="", title="box"), encoding="utf-8")
    data = safe_collada(path.read_bytes(), str(path))
    assert b"<!DOCTYPE" not in data and b"<COLLADA" in data
    scene = build_scene(load(robot(tmp_path, "box.dae")), "robot")
    assert not scene.diagnostics and len(scene.sides[0].shapes[0].faces) == 1


def test_collada_with_a_float_array_over_libxml2s_text_limit_is_read():
    floats = b"0.123456789 " * 1_000_000  # 12 MB in one text node (libxml2's limit: 10 MB)
    data = (b'<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema"><float_array>'
            + floats + b"</float_array></COLLADA>")
    assert len(safe_collada(data, "big.dae")) > len(floats)


def test_view_never_shows_a_collada_external_entity_or_expands_laughs(tmp_path):
    xxe, bomb = xxe_collada(tmp_path), billion_laughs_collada(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    result = runner.invoke(app, ["view", str(robot(tmp_path, xxe.name, bomb.name)),
                                 "-o", str(out / "page.html")])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("warning[XML_UNSAFE]") == 2
    assert SECRET not in everything_written(result, out)


def test_diff_never_shows_a_collada_external_entity(tmp_path):
    xxe_collada(tmp_path)
    inlined = tmp_path / "inlined.dae"
    inlined.write_text(BOX_DAE.format(doctype="", title=SECRET[::-1]), encoding="utf-8")
    a = robot(tmp_path, "collada_external_entity.dae", name="a.urdf")
    b = robot(tmp_path, "inlined.dae", name="b.urdf")
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["diff", str(a), str(b), *extra])
        assert result.exit_code == 1  # the files differ, and diff reads no entity
        assert SECRET not in result.stdout + result.stderr


def test_model_dir_never_copies_or_names_a_collada_external_entity(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    xxe_collada(source)
    out = tmp_path / "model"
    result = runner.invoke(urdf2sdf_app, [str(robot(source, "collada_external_entity.dae")),
                                          "--model-dir", str(out)])
    assert SECRET not in everything_written(result, out)
    assert not any(p.name == "secret.txt" for p in out.rglob("*"))


# ---- size caps ----------------------------------------------------------------------------

def sparse_mesh(path: Path, size: int = HUGE) -> Path:
    """A sparse file of ``size`` bytes that starts like an ASCII STL."""
    try:
        with open(path, "wb") as handle:
            handle.write(b"solid huge\nendsolid huge\n")
        os.truncate(path, size)
    except OSError as exc:
        pytest.skip(f"no sparse file of {size} bytes here: {exc}")
    return path


def urdf_sdf(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """The ``urdf-sdf`` console script, in a subprocess with a hang guard."""
    code = "from urdf_sdf.cli.quick import urdf_sdf; urdf_sdf()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=HANG_GUARD, env={**os.environ, **env},
                          check=False)


def test_view_draws_a_200_gb_sparse_mesh_as_a_marker_without_reading_it(tmp_path):
    sparse_mesh(tmp_path / "huge.stl")
    urdf = robot(tmp_path, "huge.stl")
    done = urdf_sdf("view", str(urdf), "-o", str(tmp_path / "page.html"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "warning[MESH_TOO_LARGE]" in done.stderr and "256 MiB" in done.stderr
    assert "robot.urdf:4: warning[MESH_TOO_LARGE]" in done.stderr
    strict = urdf_sdf("view", str(urdf), "-o", str(tmp_path / "strict.html"), "--strict",
                      cwd=tmp_path)
    assert strict.returncode == 1 and "error[MESH_TOO_LARGE]" in strict.stderr
    assert "error[VIEW_NOT_WRITTEN]" in strict.stderr
    assert not (tmp_path / "strict.html").exists()


def test_view_reads_no_mesh_over_its_cap_even_one_byte_over(tmp_path):
    path = sparse_mesh(tmp_path / "over.stl", MAX_MESH_BYTES + 1)
    with pytest.raises(MeshFileTooLarge) as large:
        read_capped(path, MAX_MESH_BYTES)
    assert large.value.size == MAX_MESH_BYTES + 1
    scene = build_scene(load(robot(tmp_path, "over.stl")), "robot")
    assert [d.code for d in scene.diagnostics] == [Code.MESH_TOO_LARGE]
    assert "base visual 0" in scene.diagnostics[0].message


def test_diff_compares_a_200_gb_sparse_mesh_by_samples_and_says_so(tmp_path):
    for name in ("a", "b"):
        sparse_mesh(tmp_path / f"{name}.stl")
    a = robot(tmp_path, "a.stl", name="a.urdf")
    b = robot(tmp_path, "b.stl", name="b.urdf")
    done = urdf_sdf("diff", str(a), str(b), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["equivalent"] is True
    assert done.stderr.count("warning[MESH_SAMPLED]") == 2 and "64 MiB" in done.stderr


@pytest.mark.parametrize("change", ["middle", "end", "size"])
def test_diff_tells_sampled_meshes_apart_by_size_and_each_sample(tmp_path, change):
    size = 2 * 2 ** 30
    a, b = sparse_mesh(tmp_path / "a.stl", size), sparse_mesh(tmp_path / "b.stl", size)
    if change == "size":
        os.truncate(b, size + 1)
    else:
        with open(b, "r+b") as handle:
            handle.seek(size // 2 if change == "middle" else size - 10)
            handle.write(b"x")
    key_a, sampled = file_digest(a, 64 * 2 ** 20, 2 ** 20)
    assert sampled and key_a.startswith(f"sampled-sha256:{size}:")
    assert file_digest(b, 64 * 2 ** 20, 2 ** 20)[0] != key_a
    result = runner.invoke(app, ["diff", str(robot(tmp_path, "a.stl", name="a.urdf")),
                                 str(robot(tmp_path, "b.stl", name="b.urdf"))])
    assert result.exit_code == 1
    assert "link base: visual[0] (mesh) mesh file differs" in result.stdout


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(size=st.integers(0, 5000), sample=st.integers(1, 700), at=st.integers(0, 10 ** 6))
def test_a_change_in_a_sample_changes_the_sampled_digest(tmp_path, size, sample, at):
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(bytes(size))
    data = bytearray(size)
    offsets = sample_offsets(size, sample)
    sampled = {i for start in offsets for i in range(start, min(size, start + sample))}
    if sampled:
        data[sorted(sampled)[at % len(sampled)]] = 1
    b.write_bytes(bytes(data))
    key_a, key_b = file_digest(a, 0, sample)[0], file_digest(b, 0, sample)[0]
    assert (key_a == key_b) == (not sampled)


def test_diff_hashes_a_mesh_within_the_cap_whole(tmp_path):
    a, b = tmp_path / "a.stl", tmp_path / "b.stl"
    a.write_bytes(b"solid a\n" + b" " * 100_000 + b"endsolid a\n")
    b.write_bytes(b"solid a\n" + b" " * 50_000 + b"\t" + b" " * 49_999 + b"endsolid a\n")
    assert file_digest(a, 1 << 20, 1 << 10) == (file_digest(a, 1 << 20, 1 << 10)[0], False)
    assert file_digest(a, 1 << 20, 1 << 10)[0] != file_digest(b, 1 << 20, 1 << 10)[0]


# ---- only regular files, companions only from the mesh's folder ---------------------------

def test_a_fifo_is_never_read_as_a_mesh(tmp_path):
    fifo = tmp_path / "mesh.stl"
    os.mkfifo(fifo)
    code = ("import sys; from urdf_sdf.core.read.mesh_files import read_capped, file_digest, "
            "MeshFileError\n"
            "for read in (lambda p: read_capped(p, 100), lambda p: file_digest(p, 100, 10)):\n"
            "    try:\n        read(sys.argv[1])\n    except MeshFileError as exc:\n"
            "        print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True,
                          text=True, timeout=HANG_GUARD, check=False)
    assert done.stdout.count("not a regular file") == 2, done.stderr


def test_an_unreadable_mesh_says_permission_denied(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads a file of mode 000")
    path = tmp_path / "locked.stl"
    path.write_text("solid x\nendsolid x\n")
    path.chmod(0)
    with pytest.raises(MeshFileError, match="permission denied"):
        read_capped(path, 1000)
    scene = build_scene(load(robot(tmp_path, "locked.stl")), "robot")
    assert "permission denied" in scene.diagnostics[0].message


def test_a_mesh_reads_its_companion_files_only_from_its_own_folder(tmp_path):
    outside = tmp_path / "secret.bin"
    outside.write_bytes(SECRET.encode())
    folder = tmp_path / "meshes"
    folder.mkdir()
    (folder / "buffer.bin").write_bytes(b"12345678")
    (folder / "link.bin").symlink_to(outside)
    os.mkfifo(folder / "fifo.bin")
    companions = CompanionFiles(folder, [10])
    assert companions.get("buffer.bin") == b"12345678"
    for name in ("../secret.bin", str(outside), outside.as_uri(), "link.bin", "fifo.bin",
                 "/proc/self/environ", "buffer.bin"):  # the last: over what is left
        with pytest.raises(FileNotFoundError):
            companions.get(name)
    with pytest.raises(PermissionError):
        companions.write("buffer.bin", b"")


PATH_PARTS = st.sampled_from(["..", ".", "", "meshes", "buffer.bin", "link", "out", "/",
                              "//", "\x00", "\x1b[2J", "-x", "~", "file:", "%2e%2e"])


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(PATH_PARTS, min_size=1, max_size=6), absolute=st.booleans())
def test_a_companion_name_never_resolves_outside_the_mesh_folder(tmp_path, parts, absolute):
    folder = tmp_path / "pkg" / "meshes"
    folder.mkdir(parents=True, exist_ok=True)
    if not (folder / "link").exists():
        (folder / "link").symlink_to(tmp_path)
    name = ("/" if absolute else "") + "/".join(parts)
    inside = CompanionFiles(folder, [0]).inside(name)
    real = os.path.realpath(folder)
    assert inside is None or inside.startswith(real + os.sep)


def test_view_never_draws_a_gltf_buffer_from_outside_the_mesh_folder(tmp_path):
    outside = tmp_path / "secret.bin"
    outside.write_bytes(bytes(range(256)) * 4)
    folder = tmp_path / "pkg"
    folder.mkdir()
    gltf = {"asset": {"version": "2.0"}, "buffers": [{"uri": str(outside), "byteLength": 36}],
            "bufferViews": [{"buffer": 0, "byteLength": 36}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3,
                           "type": "VEC3"}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
            "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0}
    (folder / "leak.gltf").write_text(json.dumps(gltf), encoding="utf-8")
    scene = build_scene(load(robot(folder, "leak.gltf")), "robot")
    assert [d.code for d in scene.diagnostics] == [Code.MESH_UNREADABLE]
    assert scene.sides[0].shapes[0].missing


# ---- view --png: the browser's process group and folder on every way out ------------------

FAKE_BROWSER = """#!{python}
# A stand-in for Chromium: starts a helper (as Chromium starts its renderers), records
# both pids and its folder, then draws, fails or hangs as FAKE_BROWSER_MODE says.
import os, subprocess, sys, time
args = sys.argv[1:]
option = lambda name: next(a.split("=", 1)[1] for a in args if a.startswith(name + "="))
helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
mark = os.environ["FAKE_BROWSER_MARK"]
with open(mark + ".tmp", "w") as f:
    f.write(f"{{os.getpid()}} {{helper.pid}} {{os.path.dirname(option('--user-data-dir'))}}")
os.replace(mark + ".tmp", mark)
mode = os.environ.get("FAKE_BROWSER_MODE", "hang")
if mode == "draw":
    open(option("--screenshot"), "wb").write(b"\\x89PNG fake picture")  # FAKE_PICTURE
elif mode == "fail":
    print("no GPU process", file=sys.stderr)
    sys.exit(3)
else:
    time.sleep(600)
"""


@pytest.fixture
def fake_browser(tmp_path, monkeypatch):
    """``URDF_SDF_CHROMIUM`` set to a fake browser; returns the file it records in."""
    browser = tmp_path / "fake-chromium"
    browser.write_text(FAKE_BROWSER.format(python=sys.executable), encoding="utf-8")
    browser.chmod(0o755)
    mark = tmp_path / "browser.mark"
    monkeypatch.setenv("URDF_SDF_CHROMIUM", str(browser))
    monkeypatch.setenv("FAKE_BROWSER_MARK", str(mark))
    return mark


def recorded(mark: Path) -> tuple[list[int], Path]:
    """The fake browser's pids (itself, its helper) and its temporary folder."""
    browser, helper, folder = mark.read_text().split(" ", 2)
    return [int(browser), int(helper)], Path(folder)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def assert_browser_gone(mark: Path) -> None:
    pids, folder = recorded(mark)
    assert folder.name.startswith("urdf-sdf-view-")
    assert not [pid for pid in pids if running(pid)]
    assert not folder.exists()


@pytest.mark.parametrize("mode", ["draw", "fail"])
def test_browser_group_is_killed_and_its_folder_removed_after_the_picture(
        tmp_path, fake_browser, monkeypatch, mode):
    monkeypatch.setenv("FAKE_BROWSER_MODE", mode)
    out = tmp_path / "robot.png"
    result = runner.invoke(app, ["view", str(SAMPLES / "pendulum.urdf"), "--png", str(out)])
    assert_browser_gone(fake_browser)
    if mode == "draw":
        assert result.exit_code == 0 and out.read_bytes().startswith(b"\x89PNG")
    else:
        assert result.exit_code == 1 and "error[VIEW_SNAPSHOT_FAILED]" in result.stderr
        assert "no GPU process" in result.stderr and not out.exists()


@pytest.mark.parametrize("through_link", [False, True])
def test_the_picture_is_written_at_every_kind_of_destination(tmp_path, fake_browser,
                                                             monkeypatch, through_link):
    """``--png /dev/fd/5`` (a pipe; a file open for appending, never truncated), a FIFO,
    ``/dev/stdout`` and a link to a regular file get the picture as it is; a regular file
    gets it atomically."""
    monkeypatch.setenv("FAKE_BROWSER_MODE", "draw")

    def view_to(destination: str, fds: tuple[int, ...]) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf-sdf", "view",
                               str(SAMPLES / "pendulum.urdf"), "--png", destination],
                              capture_output=True, pass_fds=fds, timeout=HANG_GUARD,
                              check=False)

    got = written_at_each_destination(view_to, tmp_path, "robot.png", through_link)
    assert got.pop("appended") == b"before\n" + FAKE_PICTURE
    assert got == dict.fromkeys(["file", "pipe", "fifo", "stdout", "link"], FAKE_PICTURE)


def test_browser_group_is_killed_and_its_folder_removed_on_timeout(tmp_path, fake_browser):
    with pytest.raises(snapshot.SnapshotError, match="took more than"):
        snapshot.screenshot("<html></html>", timeout=0.5)
    assert_browser_gone(fake_browser)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_browser_group_is_killed_and_its_folder_removed_on_a_signal(tmp_path, fake_browser,
                                                                    signum):
    out = tmp_path / "out"
    out.mkdir()
    # Ctrl-C as a terminal delivers it, even where this test runs with SIGINT ignored.
    code = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from urdf_sdf.cli.quick import urdf_sdf; urdf_sdf()")
    view = subprocess.Popen(
        [sys.executable, "-c", code, "view", str(SAMPLES / "pendulum.urdf"), "--png",
         str(out / "robot.png")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(HANG_GUARD * 10):
            if fake_browser.exists() or view.poll() is not None:
                break
            time.sleep(0.1)
        assert fake_browser.exists(), view.communicate()
        view.send_signal(signum)
        _, stderr = view.communicate(timeout=HANG_GUARD)
    finally:
        if view.poll() is None:
            view.kill()
    assert view.returncode == -signum, stderr
    assert f"interrupted by {signal.Signals(signum).name}" in stderr
    assert_browser_gone(fake_browser)
    assert list(out.iterdir()) == []  # neither the picture nor its temporary file


# ---- messages -----------------------------------------------------------------------------

def test_a_view_that_writes_nothing_ends_with_a_coded_line(tmp_path):
    bad = ROOT / "tests" / "fixtures" / "urdf" / "urdf_duplicate_link.urdf"
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", str(bad), "-o", str(out)])
    assert result.exit_code == 1 and not out.exists()
    last = result.stderr.strip().splitlines()[-1]
    assert last == f"{out}: error[VIEW_NOT_WRITTEN]: no page written: see the errors above"
    assert not [line for line in result.stderr.splitlines()
                if "no page written" in line and "error[VIEW_NOT_WRITTEN]" not in line]
