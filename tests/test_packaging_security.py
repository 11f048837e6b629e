"""``--model-dir`` / ``--package-dir`` under hostile input (issue 24, items 2, 6, 7, 16):
what they copy (only regular files inside the input's package or a search path given,
copies with a new file's mode), what they replace (never a directory that is not their
own earlier output, and that only with ``--force``), and which input names become path
components (never an unsafe one); where a bundled file lands (inside the output, by its
real path), how large a copied file may be, and usage errors naming an input (escaped)."""
from __future__ import annotations

import json
import os
import posixpath
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.support import examples
from urdf_sdf.cli.main import app as main_app
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.cli.path_names import safe_name, unsafe_reason
from urdf_sdf.core.write.bundle import Bundle, safe_place
from urdf_sdf.core.write.confined import (
    MAX_COPY_BYTES,
    Refusal,
    copy_check,
    copy_checked,
    copy_roots,
)

ASCII_STL = b"solid m\nfacet normal 0 0 1\nendfacet\nendsolid m\n"
PACKAGE_XML = '<?xml version="1.0"?><package format="3"><name>arm</name></package>'
HANG_GUARD = 60  # seconds: a subprocess that takes longer hangs


def urdf_naming(uri: str) -> str:
    """A one-link URDF whose mesh is ``uri``, on line 3."""
    return ('<?xml version="1.0"?>\n<robot name="arm"><link name="base">\n'
            f'<visual><geometry><mesh filename="{uri}"/></geometry></visual>\n'
            "</link></robot>\n")


def make_package(root: Path, uri: str) -> Path:
    """``root/arm`` (a ROS package: package.xml, meshes/base.stl) with ``urdf/arm.urdf``
    naming ``uri``; returns the URDF."""
    package = root / "arm"
    (package / "meshes").mkdir(parents=True)
    (package / "urdf").mkdir()
    (package / "package.xml").write_text(PACKAGE_XML)
    (package / "meshes" / "base.stl").write_bytes(ASCII_STL)
    urdf = package / "urdf" / "arm.urdf"
    urdf.write_text(urdf_naming(uri))
    return urdf


def model_dir(urdf: Path, out: Path, *extra: str):
    return CliRunner().invoke(urdf2sdf_app, [str(urdf), "--model-dir", str(out), *extra])


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under ``root``: its kind and content (files), target (symlinks)."""
    found = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            found[str(path)] = ("link", os.readlink(path))
        elif stat.S_ISREG(info.st_mode):
            found[str(path)] = ("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
        else:
            found[str(path)] = ("other", stat.S_IFMT(info.st_mode))
    return found


def assert_refused(result, code: str, out: Path, line: int | None = 3) -> None:
    assert result.exit_code == 1, result.output
    where = f"arm.urdf:{line}: " if line is not None else ""
    assert f"{where}error[{code}]" in result.output, result.output
    assert not out.exists()  # nothing copied, nothing written


# ---- item 2: what is copied ----------------------------------------------------------------

def test_model_dir_refuses_mesh_outside_package(tmp_path):
    secret = tmp_path / "secret.stl"
    secret.write_bytes(ASCII_STL)
    urdf = make_package(tmp_path / "src", str(secret))
    out = tmp_path / "out"
    assert_refused(model_dir(urdf, out), "RESOURCE_OUTSIDE_PACKAGE", out)


def test_model_dir_refuses_file_uri_outside_package(tmp_path):
    secret = tmp_path / "secret.stl"
    secret.write_bytes(ASCII_STL)
    urdf = make_package(tmp_path / "src", f"file://{secret}")
    out = tmp_path / "out"
    assert_refused(model_dir(urdf, out), "RESOURCE_OUTSIDE_PACKAGE", out)


def test_model_dir_refuses_symlinked_mesh_out(tmp_path):
    secret = tmp_path / "secret.stl"
    secret.write_bytes(ASCII_STL)
    urdf = make_package(tmp_path / "src", "package://arm/meshes/link.stl")
    (urdf.parent.parent / "meshes" / "link.stl").symlink_to(secret)
    out = tmp_path / "out"
    result = model_dir(urdf, out, "--package-path", str(tmp_path / "src"))
    assert_refused(result, "RESOURCE_OUTSIDE_PACKAGE", out)
    assert str(secret) in " ".join(result.output.split())


def test_model_dir_copies_a_symlink_that_stays_inside_the_package(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/alias.stl")
    (urdf.parent.parent / "meshes" / "alias.stl").symlink_to("base.stl")
    out = tmp_path / "out"
    result = model_dir(urdf, out)
    assert result.exit_code == 0, result.output
    copied = out / "meshes" / "alias.stl"
    assert not copied.is_symlink() and copied.read_bytes() == ASCII_STL


def test_model_dir_refuses_collada_texture_symlinked_out(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\nsecret")
    urdf = make_package(tmp_path / "src", "../meshes/arm.dae")
    meshes = urdf.parent.parent / "meshes"
    (meshes / "arm.dae").write_bytes(
        b'<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema"'
        b' version="1.4.1"><library_images><image id="t"><init_from>wood.png</init_from>'
        b"</image></library_images></COLLADA>")
    (meshes / "wood.png").symlink_to(secret)
    out = tmp_path / "out"
    result = model_dir(urdf, out)
    assert_refused(result, "RESOURCE_OUTSIDE_PACKAGE", out)
    assert "[wood.png] named by arm.dae" in " ".join(result.output.split())


@pytest.mark.parametrize("uri", ["/proc/self/environ", "/dev/zero",
                                 "package://arm/meshes/environ.stl"])
def test_model_dir_refuses_system_files(tmp_path, uri):
    urdf = make_package(tmp_path / "src", uri)
    (urdf.parent.parent / "meshes" / "environ.stl").symlink_to("/proc/self/environ")
    out = tmp_path / "out"
    result = model_dir(urdf, out, "--package-path", str(tmp_path / "src"))
    assert_refused(result, "RESOURCE_NOT_REGULAR", out)


def test_model_dir_refuses_fifo_mesh_without_hanging(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/pipe.stl")
    os.mkfifo(urdf.parent.parent / "meshes" / "pipe.stl")
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf", str(urdf),
                          "--model-dir", str(out)], capture_output=True, text=True,
                         timeout=HANG_GUARD)
    assert run.returncode == 1 and "error[RESOURCE_NOT_REGULAR]" in run.stderr, run.stderr
    assert not out.exists()


def test_model_dir_never_copies_etc_shadow(tmp_path):
    if os.geteuid() != 0 or not os.path.exists("/etc/shadow"):
        pytest.skip("needs root and /etc/shadow (the issue's reproducer)")
    urdf = make_package(tmp_path / "src", "/etc/shadow")
    out = tmp_path / "out"
    result = model_dir(urdf, out)
    assert_refused(result, "RESOURCE_OUTSIDE_PACKAGE", out)


def test_copied_mesh_mode_is_a_new_files(tmp_path):
    """A copy gets the mode any new file gets (0666 less the umask), never the source's:
    neither a private file's nor an executable, world-writable one's."""
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    source = urdf.parent.parent / "meshes" / "base.stl"
    os.chmod(source, 0o777)
    out = tmp_path / "out"
    assert model_dir(urdf, out).exit_code == 0
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE((out / "meshes" / "base.stl").stat().st_mode) == 0o666 & ~umask


def test_only_search_paths_given_are_copy_roots_not_the_environment(tmp_path, monkeypatch):
    """A package found through ROS_PACKAGE_PATH resolves but is not copied from (the
    environment may name wide folders); named with --package-path it is."""
    other = tmp_path / "other"
    (other / "meshes").mkdir(parents=True)
    (other / "package.xml").write_text(PACKAGE_XML.replace("arm", "other"))
    (other / "meshes" / "m.stl").write_bytes(ASCII_STL)
    urdf = make_package(tmp_path / "src", "package://other/meshes/m.stl")
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path))
    out = tmp_path / "out"
    result = model_dir(urdf, out)
    assert_refused(result, "RESOURCE_OUTSIDE_PACKAGE", out)
    assert "--package-path" in result.output
    given = model_dir(urdf, out, "--package-path", str(tmp_path))
    assert given.exit_code == 0, given.output
    assert (out / "meshes" / "m.stl").read_bytes() == ASCII_STL


def test_package_dir_refuses_mesh_outside_model(tmp_path):
    model = tmp_path / "models" / "rover"
    model.mkdir(parents=True)
    (model / "model.config").write_text("<model><name>rover</name>"
                                        "<sdf version='1.9'>model.sdf</sdf></model>")
    secret = tmp_path / "secret.stl"
    secret.write_bytes(ASCII_STL)
    (model / "model.sdf").write_text(
        '<?xml version="1.0"?>\n<sdf version="1.9"><model name="rover"><link name="l">\n'
        f"<visual name='v'><geometry><mesh><uri>{secret}</uri></mesh></geometry></visual>\n"
        "</link></model></sdf>\n")
    out = tmp_path / "ws" / "rover"
    result = CliRunner().invoke(sdf2urdf_app, [str(model), "--package-dir", str(out)])
    assert result.exit_code == 1 and "model.sdf:3: error[RESOURCE_OUTSIDE_PACKAGE]" in \
        result.output, result.output
    assert not out.exists()


# ---- item 6: what is replaced ----------------------------------------------------------------

def test_model_dir_refuses_foreign_directory(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    out = tmp_path / "models"
    (out / "other_model").mkdir(parents=True)
    (out / "other_model" / "model.sdf").write_text("theirs")
    before = snapshot(out)
    for extra in ([], ["--force"]):
        result = model_dir(urdf, out, *extra)
        assert result.exit_code == 1 and "error[OUTPUT_EXISTS]" in result.output
        assert snapshot(out) == before


def test_model_dir_refuses_the_project_directory(tmp_path):
    """``--model-dir "$PWD"``: the folder holding the input is never replaced."""
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    package = urdf.parent.parent
    before = snapshot(package)
    result = model_dir(urdf, package, "--force")
    assert result.exit_code == 1 and "error[OUTPUT_EXISTS]" in result.output
    assert snapshot(package) == before


def test_model_dir_fills_an_empty_directory(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    out = tmp_path / "empty"
    out.mkdir()
    result = model_dir(urdf, out)
    assert result.exit_code == 0, result.output
    assert (out / "model.sdf").is_file()
    assert (out / "model.config").read_text().count("<!-- urdf-sdf output") == 1


def test_model_dir_named_through_a_symlink_is_written_through(tmp_path):
    """A ``--model-dir`` the user names as a symlink: its target is filled, the link
    stays a link."""
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    result = model_dir(urdf, link)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and (real / "model.sdf").is_file()


def test_package_dir_refuses_a_workspace_source_folder(tmp_path):
    """``--package-dir ws/src``: the other packages there are never deleted."""
    model = tmp_path / "rover"
    model.mkdir()
    (model / "model.sdf").write_text('<sdf version="1.9"><model name="rover"><link name="l"/>'
                                     "</model></sdf>")
    src = tmp_path / "ws" / "src"
    (src / "other_pkg").mkdir(parents=True)
    (src / "other_pkg" / "package.xml").write_text(PACKAGE_XML)
    before = snapshot(src)
    result = CliRunner().invoke(sdf2urdf_app, [str(model / "model.sdf"), "--package-dir",
                                               str(src), "--package-name", "rover", "--force"])
    assert result.exit_code == 1 and "error[OUTPUT_EXISTS]" in result.output
    assert snapshot(src) == before


def test_batch_root_is_a_container_other_entries_untouched(tmp_path):
    """A batch writes OUT/NAME per input: OUT itself and its other entries stay; a
    foreign OUT/NAME is refused for that input alone."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("a", "b"):
        (src / f"{name}.urdf").write_text(urdf_naming("m.stl"))
    (src / "m.stl").write_bytes(ASCII_STL)
    out = tmp_path / "models"
    (out / "keep").mkdir(parents=True)
    (out / "keep" / "model.sdf").write_text("theirs")
    (out / "b").mkdir()
    (out / "b" / "notes.txt").write_text("theirs too")
    before = snapshot(out)
    result = CliRunner().invoke(urdf2sdf_app, [str(src), "--model-dir", str(out)])
    assert result.exit_code == 1 and "error[OUTPUT_EXISTS]" in result.output
    assert (out / "a" / "model.sdf").is_file()
    assert {k: v for k, v in snapshot(out).items() if not k.startswith(str(out / "a"))} == \
        before
    again = CliRunner().invoke(urdf2sdf_app, [str(src), "--model-dir", str(out), "--force"])
    assert "1 converted, 1 failed" in again.output  # a replaced (ours), b still refused
    assert (out / "b" / "notes.txt").read_text() == "theirs too"


def test_batch_does_not_write_through_a_symlink_in_its_output(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.urdf").write_text(urdf_naming("m.stl"))
    (src / "m.stl").write_bytes(ASCII_STL)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "models"
    out.mkdir()
    (out / "a").symlink_to(elsewhere)
    result = CliRunner().invoke(urdf2sdf_app, [str(src), "--model-dir", str(out)])
    assert result.exit_code == 1 and "error[OUTPUT_EXISTS]" in result.output
    assert list(elsewhere.iterdir()) == []


# ---- item 7: names from the input ------------------------------------------------------------

def test_batch_name_dotdot_never_a_path_component(tmp_path):
    """``..urdf`` (stem ``.``) once made the model directory the output root itself."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "..urdf").write_text(urdf_naming("m.stl"))
    (src / "m.stl").write_bytes(ASCII_STL)
    out = tmp_path / "models"
    (out / "keep").mkdir(parents=True)
    (out / "keep" / "model.sdf").write_text("theirs")
    result = CliRunner().invoke(urdf2sdf_app, [str(src), "--model-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning[NAME_RENAMED]" in result.output
    assert (out / "keep" / "model.sdf").read_text() == "theirs"
    assert (out / "model" / "model.sdf").is_file()


def test_batch_names_with_control_characters_or_a_dash_are_renamed(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("-x.urdf", "e\x1b[31m.urdf", "_x.urdf"):
        (src / name).write_text(urdf_naming("m.stl"))
    (src / "m.stl").write_bytes(ASCII_STL)
    out = tmp_path / "out"
    result = CliRunner().invoke(urdf2sdf_app, [str(src), "-o", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["_x.sdf", "_x_2.sdf", "e_[31m.sdf"]
    assert result.output.count("warning[NAME_RENAMED]") == 2
    models = tmp_path / "models"
    result = CliRunner().invoke(urdf2sdf_app, [str(src), "--model-dir", str(models)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in models.iterdir()) == ["_x", "_x_2", "e_[31m"]
    assert "\x1b" not in result.stdout + "".join(p.name for p in models.iterdir())


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a\\b", "a\0b", "a\x1bb", "-rf",
                                  "\x9b31m"])
def test_unsafe_names_are_never_path_components(name):
    assert unsafe_reason(name) is not None
    safe = safe_name(name, "model")
    assert unsafe_reason(safe) is None and safe not in (".", "..")


# ---- item 16: the messages --------------------------------------------------------------------

def test_json_model_dir_carries_the_diagnostics(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "x").write_text("x")
    result = CliRunner().invoke(urdf2sdf_app, [str(urdf), "--model-dir", str(taken), "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["ok"] is False
    assert [d["code"] for d in report["diagnostics"]] == ["OUTPUT_EXISTS"]
    blocked = tmp_path / "file"
    blocked.write_text("x")
    result = CliRunner().invoke(urdf2sdf_app, [str(urdf), "--model-dir", str(blocked / "m"),
                                               "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and [d["code"] for d in report["diagnostics"]] == \
        ["FILE_WRITE"]


def test_unreadable_mesh_says_permission_denied(tmp_path, monkeypatch):
    """``check --meshes`` and ``--model-dir`` on a mesh that cannot be read: the reason is
    the system's, not "not a mesh file". (Root reads a file of mode 0, so the refusal
    is made by the open itself; :func:`test_unreadable_mesh_as_a_user` uses file modes.)"""
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    mesh = os.path.realpath(urdf.parent.parent / "meshes" / "base.stl")
    real_open = os.open

    def refusing_open(path, flags, *rest, **keywords):
        if os.path.realpath(os.fspath(path)) == mesh:
            raise PermissionError(13, "Permission denied", mesh)
        return real_open(path, flags, *rest, **keywords)

    monkeypatch.setattr(os, "open", refusing_open)
    out = tmp_path / "out"
    for result in (CliRunner().invoke(main_app, ["check", "--meshes", str(urdf)]),
                   model_dir(urdf, out)):
        assert result.exit_code == 1 and "error[MESH_UNREADABLE]" in result.output
        text = " ".join(result.output.split())
        assert "permission denied" in text and "not a mesh" not in text
    assert not out.exists()


def test_unreadable_mesh_as_a_user(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads a file of mode 0")
    urdf = make_package(tmp_path / "src", "../meshes/base.stl")
    os.chmod(urdf.parent.parent / "meshes" / "base.stl", 0)
    out = tmp_path / "out"
    for result in (CliRunner().invoke(main_app, ["check", "--meshes", str(urdf)]),
                   model_dir(urdf, out)):
        assert result.exit_code == 1 and "error[MESH_UNREADABLE]" in result.output
        assert "permission denied" in " ".join(result.output.split())


# ---- where a bundled file lands: the real path, never the URI's spelling -----------------------

def climbing_description(root: Path, out: Path) -> tuple[Path, Path]:
    """The review's reproducer, reduced: ``root/repo/robot.urdf`` links to a URDF deep in
    ``d/d/...`` whose mesh URI climbs (``../`` as many times as it is deep) back to the
    repository and through an in-repository symlink named like ``root``'s absolute path
    back into its own folder. Lexically the URI names ``root/victim/pwned`` once ``..``
    climbs past ``/``; the file really is the URDF's own ``v/pwned``. Returns (the URDF
    named, the victim folder)."""
    repo = root / "repo"
    depth = len(out.parts) + 2  # climbs past / from the output's temporary folder too
    deep = repo.joinpath(*["d"] * depth)
    (deep / "v").mkdir(parents=True)
    (deep / "v" / "pwned").write_bytes(ASCII_STL)
    mirror = repo.joinpath(*root.parts[1:])
    mirror.mkdir(parents=True)
    (mirror / "victim").symlink_to(deep / "v")
    uri = "../" * depth + "/".join(root.parts[1:]) + "/victim/pwned"
    (deep / "robot.urdf").write_text(urdf_naming(uri))
    (repo / "robot.urdf").symlink_to(deep / "robot.urdf")
    out.parent.mkdir(parents=True)
    return repo / "robot.urdf", root / "victim"


def test_model_dir_place_never_leaves_the_output(tmp_path):
    out = tmp_path / "repo" / "build" / "models" / "robot"
    urdf, victim = climbing_description(tmp_path, out)
    before = snapshot(tmp_path)
    result = model_dir(urdf, out, "-q")
    assert result.exit_code == 0, result.output
    assert not victim.exists()
    written = {path for path in snapshot(tmp_path) if path not in before}
    assert written and all(Path(path).is_relative_to(out) for path in written), written
    assert (out / "meshes" / "v" / "pwned").read_bytes() == ASCII_STL
    assert "<uri>model://robot/meshes/v/pwned</uri>" in (out / "model.sdf").read_text()


def test_package_dir_place_never_leaves_the_output(tmp_path):
    out = tmp_path / "repo" / "build" / "robot_pkg"
    urdf, victim = climbing_description(tmp_path, out)
    deep = urdf.resolve().parent
    sdf = deep / "robot.sdf"
    uri = (deep / "robot.urdf").read_text().split('filename="')[1].split('"')[0]
    sdf.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><model name="r"><link name="l">\n'
                   f"<visual name='v'><geometry><mesh><uri>{uri}</uri></mesh></geometry>"
                   "</visual>\n</link></model></sdf>\n")
    (urdf.parent / "robot.sdf").symlink_to(sdf)
    before = snapshot(tmp_path)
    result = CliRunner().invoke(sdf2urdf_app, [str(urdf.parent / "robot.sdf"), "--package-dir",
                                               str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert not victim.exists()
    written = {path for path in snapshot(tmp_path) if path not in before}
    assert written and all(Path(path).is_relative_to(out) for path in written), written
    assert (out / "meshes" / "v" / "pwned").read_bytes() == ASCII_STL
    assert 'filename="package://robot_pkg/meshes/v/pwned"' in \
        (out / "urdf" / "robot_pkg.urdf").read_text()


def bundle_of(tmp_path: Path, *places: str) -> tuple[Bundle, Path]:
    """A bundle copying ``tmp_path/base.stl`` (checked) to ``places``, and the new folder
    ``out/bundle`` to copy it into."""
    source = tmp_path / "base.stl"
    source.write_bytes(ASCII_STL)
    bundle = Bundle()
    checked = copy_check(source, copy_roots(str(tmp_path / "robot.urdf")))
    assert not isinstance(checked, Refusal)
    bundle.identity[str(source)] = checked
    for place in places:
        bundle.source_of[place] = str(source)
    root = tmp_path / "out" / "bundle"
    root.mkdir(parents=True)
    return bundle, root


def test_bundle_copy_refuses_a_place_outside_its_root(tmp_path):
    bundle, root = bundle_of(tmp_path, "meshes/ok.stl", "meshes/../../escaped.stl")
    with pytest.raises(OSError, match="not a place inside"):
        bundle.copy_into(root)
    assert not (tmp_path / "escaped.stl").exists()
    assert list(root.iterdir()) == []  # refused before anything is copied


def test_bundle_copy_never_goes_through_a_folder_that_is_a_link(tmp_path):
    """A folder of the tree being written replaced by a link (to a victim folder) before
    the copy: the copy is refused, nothing lands in the victim folder."""
    bundle, root = bundle_of(tmp_path, "meshes/base.stl")
    victim = tmp_path / "victim"
    victim.mkdir()
    (root / "meshes").symlink_to(victim, target_is_directory=True)
    with pytest.raises(OSError, match="symbolic link in the output tree"):
        bundle.copy_into(root)
    assert list(victim.iterdir()) == []


class SwappedMidWrite(dict):
    """The files of a directory being written: after the first is written, its folder
    in the temporary tree is swapped for a link to ``victim``."""

    def __init__(self, files: dict[str, bytes], parent: Path, victim: Path):
        super().__init__(files)
        self.parent, self.victim = parent, victim

    def items(self):  # type: ignore[override]
        for index, item in enumerate(super().items()):
            if index == 1:
                (tmp,) = self.parent.glob(".out.urdf-sdf-*.tmp")
                (tmp / "urdf").rename(tmp / "urdf.was")
                (tmp / "urdf").symlink_to(self.victim, target_is_directory=True)
            yield item


def test_write_directory_never_follows_a_folder_swapped_for_a_link_mid_write(tmp_path,
                                                                            monkeypatch):
    from urdf_sdf.cli import directory
    victim = tmp_path / "victim"
    victim.mkdir()
    files = {"urdf/a.urdf": b"<robot/>", "urdf/b.urdf": b"<robot/>"}
    monkeypatch.setattr(directory, "marked", lambda files, writer: SwappedMidWrite(
        files, tmp_path, victim))
    with pytest.raises(OSError, match="symbolic link in the output tree"):
        directory.write_directory(tmp_path / "out", files, Bundle())
    assert list(victim.iterdir()) == []
    assert not (tmp_path / "out").exists() and list(tmp_path.glob(".out*")) == []


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "", "a", "meshes", "b\x1b", "c\\d", "/"]),
                min_size=1, max_size=6).map("/".join))
def test_safe_places_stay_inside_any_folder(place):
    if safe_place(place):
        assert posixpath.normpath(posixpath.join("/root", place)).startswith("/root/")
        assert not any(unicodedata.category(c) == "Cc" for c in place)


# ---- how much is copied ---------------------------------------------------------------------

def test_model_dir_refuses_mesh_larger_than_the_copy_cap(tmp_path):
    urdf = make_package(tmp_path / "src", "../meshes/huge.stl")
    with open(urdf.parent.parent / "meshes" / "huge.stl", "wb") as huge:
        huge.truncate(MAX_COPY_BYTES + 1)  # sparse: no disk used
    out = tmp_path / "out"
    result = model_dir(urdf, out)
    assert_refused(result, "MESH_TOO_LARGE", out)
    assert "512 MiB" in result.output


def test_copy_never_copies_more_than_the_size_checked(tmp_path):
    source = tmp_path / "base.stl"
    source.write_bytes(ASCII_STL)
    checked = copy_check(source, copy_roots(str(tmp_path / "robot.urdf")))
    assert not isinstance(checked, Refusal)
    with open(source, "ab") as grown:
        grown.write(b"x" * 4096)
    with pytest.raises(OSError, match="changed"):
        copy_checked(str(source), checked, tmp_path / "copy.stl")


# ---- usage errors print no terminal escapes -------------------------------------------------

def test_package_name_usage_error_escapes_control_characters(tmp_path):
    sample = Path(__file__).resolve().parents[1] / "samples" / "pendulum.sdf"
    result = CliRunner().invoke(sdf2urdf_app, [str(sample), "--package-dir",
                                               str(tmp_path / "pk"), "--package-name",
                                               "\x1b[2J"])
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output and "\\x1b[2J" in result.output, result.output
    assert not (tmp_path / "pk").exists()


def test_package_dir_name_from_the_output_folder_escapes_control_characters(tmp_path):
    sample = Path(__file__).resolve().parents[1] / "samples" / "pendulum.sdf"
    result = CliRunner().invoke(sdf2urdf_app, [str(sample), "--package-dir",
                                               str(tmp_path / "pk\x1b]0;x\x07")])
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output, result.output


def test_an_empty_output_folder_swapped_for_a_link_while_filled_takes_nothing_out(
        tmp_path, monkeypatch):
    """--model-dir into an empty folder, which someone replaces by a link to a victim
    folder once it was found empty: the files are refused there, never moved through the
    link."""
    from urdf_sdf.cli import directory
    target, victim = tmp_path / "out", tmp_path / "victim"
    target.mkdir()
    victim.mkdir()
    found_empty = directory._is_empty

    def empty_then_swapped(folder):
        empty = found_empty(folder)
        if folder == target and empty and not target.is_symlink():
            target.rename(tmp_path / "out.was")
            target.symlink_to(victim, target_is_directory=True)
        return empty

    monkeypatch.setattr(directory, "_is_empty", empty_then_swapped)
    with pytest.raises(OSError, match="symbolic link"):
        directory.write_directory(target, {"model.config": b"<model/>\n",
                                           "model.sdf": b"<sdf/>\n"}, Bundle())
    assert list(victim.iterdir()) == []


def test_a_model_directorys_model_config_is_read_only_inside_it(tmp_path):
    """``sdf2urdf MODEL_DIR --package-dir``: a model.config that is a link out of the
    model directory is not read (it would name a file the directory holds)."""
    model = tmp_path / "arm"
    model.mkdir()
    (model / "model.sdf").write_text('<?xml version="1.0"?>\n<sdf version="1.9"><model '
                                     'name="arm"><link name="a"/></model></sdf>\n')
    (tmp_path / "elsewhere.config").write_text('<?xml version="1.0"?>\n<model><sdf '
                                               'version="1.9">model.sdf</sdf></model>\n')
    (model / "model.config").symlink_to(tmp_path / "elsewhere.config")
    out = tmp_path / "arm_pkg"
    result = CliRunner().invoke(sdf2urdf_app, [str(model), "--package-dir", str(out)])
    assert result.exit_code == 2 and "is not a model directory" in result.output
    assert not out.exists()
