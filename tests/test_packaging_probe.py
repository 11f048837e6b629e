"""A probe of the outputs whose paths come from input names (issue 24): random file
names (``..urdf``, ``-x``, control characters, unicode), model names with slashes, and
meshes named through absolute paths, ``file://``, ``..``, symlinks in and out of the
input tree and ``/proc``, converted by every command that writes a tree (a batch to
``-o``, ``urdf2sdf --model-dir``, ``sdf2urdf --package-dir``). Whatever the input:

* every path written lies inside the output root, and none is a symbolic link; each
  component of a path written from an input name is a safe one (not ``.``, ``..``,
  no control character, not starting with ``-``);
* nothing outside the output root changes, and what the output root held is kept;
* no file outside the input tree is copied (its content never reaches an output);
* no traceback, no INTERNAL_ERROR, exit 0 or 1.
"""
from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from typer.testing import CliRunner

from tests.support import examples
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.cli.path_names import unsafe_reason

SECRET = b"SECRET-OUTSIDE-THE-TREE"
ASCII_STL = b"solid m\nfacet normal 0 0 1\nendfacet\nendsolid m\n"
# Characters of file names: the dangerous ones and a few ordinary ones.
NAME_CHARACTERS = st.sampled_from(["a", "b", "-", ".", "_", " ", "\x01", "\x1b", "\x7f",
                                   "\x9b", "é", "\u202e", "\\", "[", ":"])
FILE_STEMS = st.one_of(st.sampled_from(["", ".", "..", "-x", "-", "a"]),
                       st.text(NAME_CHARACTERS, max_size=5))
# Names written inside the XML (any XML character, slashes included).
MODEL_NAMES = st.one_of(st.sampled_from(["../../x", "/etc", ".", "..", "-rf", "a/b"]),
                        st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=6))
MESH_URIS = st.sampled_from([
    "m.stl", "sub/../m.stl", "link_in.stl", "link_out.stl", "outdir/secret.stl",
    "../outside/secret.stl", "{outside}/secret.stl", "file://{outside}/secret.stl",
    "/proc/self/environ", "missing.stl", "package://pkg/../../outside/secret.stl",
    "model://in/../outside/secret.stl"])
ENTRIES = st.lists(st.tuples(FILE_STEMS, st.sampled_from([".urdf", ".sdf"]), MODEL_NAMES,
                             MESH_URIS), min_size=1, max_size=4)


def build_tree(root: Path, entries) -> tuple[Path, Path]:
    """``root/in`` (the inputs, a mesh, symlinks in and out) and ``root/outside`` (a
    secret); returns (input tree, outside)."""
    tree, outside = root / "in", root / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "secret.stl").write_bytes(SECRET)
    (tree / "m.stl").write_bytes(ASCII_STL)
    (tree / "sub").mkdir()
    (tree / "link_in.stl").symlink_to("m.stl")
    (tree / "link_out.stl").symlink_to(outside / "secret.stl")
    (tree / "outdir").symlink_to(outside)
    for stem, suffix, model_name, uri in entries:
        name = stem + suffix
        if name in (".", "..") or (tree / name).exists() or (tree / name).is_symlink():
            continue
        uri = uri.replace("{outside}", str(outside))
        (tree / name).write_bytes(document(suffix, model_name, uri))
    return tree, outside


def document(suffix: str, model_name: str, uri: str) -> bytes:
    if suffix == ".urdf":
        robot = etree.Element("robot", name=model_name or "r")
        link = etree.SubElement(robot, "link", name="base")
        geometry = etree.SubElement(etree.SubElement(link, "visual"), "geometry")
        etree.SubElement(geometry, "mesh", filename=uri)
        return etree.tostring(robot)
    sdf = etree.Element("sdf", version="1.9")
    model = etree.SubElement(sdf, "model", name=model_name or "m")
    link = etree.SubElement(model, "link", name="base")
    visual = etree.SubElement(link, "visual", name="v")
    mesh = etree.SubElement(etree.SubElement(visual, "geometry"), "mesh")
    etree.SubElement(mesh, "uri").text = uri
    return etree.tostring(sdf)


def snapshot(root: Path, leave_out: tuple[Path, ...] = ()) -> dict[str, tuple]:
    """Every entry under ``root`` (symlinks not followed), but the ``leave_out`` trees."""
    found = {}
    for directory, dirs, files in os.walk(root):
        here = Path(directory)
        dirs[:] = [d for d in dirs if here / d not in leave_out]
        for name in dirs + files:
            path = here / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                found[str(path)] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                found[str(path)] = ("file", path.read_bytes())
            else:
                found[str(path)] = ("dir" if stat.S_ISDIR(info.st_mode) else "other",)
    return found


def assert_confined(out: Path, kept: dict[str, tuple]) -> None:
    """Everything under ``out`` lies inside it, is no symlink, holds no secret; what it
    held before (``kept``) is still there unchanged."""
    real_out = os.path.realpath(out)
    now = snapshot(out) if out.exists() else {}
    for path, entry in now.items():
        assert os.path.realpath(path).startswith(real_out + os.sep), path
        if path not in kept:
            parts = Path(path).relative_to(out).parts[:2]  # names the inputs gave
            assert all(unsafe_reason(part) is None for part in parts), path
        assert entry[0] != "link", path
        assert entry[0] != "file" or SECRET not in entry[1], path
    for path, entry in kept.items():
        assert now.get(path) == entry, path


def clean(result) -> None:
    text = result.output
    assert result.exit_code in (0, 1), text
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in text and "INTERNAL_ERROR" not in text, text


@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(entries=ENTRIES)
def test_outputs_named_from_inputs_stay_inside_their_root(entries):
    root = Path(tempfile.mkdtemp(prefix="urdf-sdf-probe-"))
    try:
        tree, _ = build_tree(root, entries)
        outputs = root / "outputs"
        (outputs / "keep").mkdir(parents=True)
        (outputs / "keep" / "theirs.txt").write_text("not ours")
        (outputs / "m").mkdir()
        (outputs / "m" / "theirs.txt").write_text("not ours either")
        before = snapshot(root, (outputs,))
        kept = snapshot(outputs)
        runs = [
            (urdf2sdf_app, [str(tree), "-o", str(outputs / "sdf"), "-j", "1"]),
            (sdf2urdf_app, [str(tree), "-o", str(outputs / "urdf"), "-j", "1"]),
            (urdf2sdf_app, [str(tree), "--model-dir", str(outputs)]),
            (urdf2sdf_app, [str(tree), "--model-dir", str(outputs), "--force"]),
            (sdf2urdf_app, [str(tree), "--package-dir", str(outputs)]),
        ]
        for app, arguments in runs:
            clean(CliRunner().invoke(app, arguments))
            assert snapshot(root, (outputs,)) == before
            assert_confined(outputs, kept)
    finally:
        shutil.rmtree(root, ignore_errors=True)
