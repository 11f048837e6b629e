"""One way to open a file to read it (``core/read/files.py``), and every reader uses it.

* :func:`open_regular` opens read-only, non-blocking and close-on-exec, examines what it
  opened with ``fstat``, and refuses anything but a regular file with a message naming
  its kind ("not a regular file (a FIFO)"); a FIFO never blocks it. With
  ``follow_links=False`` a last symbolic link is refused, not followed.
* :func:`read_regular` reads no more than its limit (None past it) and a pipe only when
  asked.
* :func:`os_reason` is an ``OSError``'s reason in lower case ("permission denied").
* Every reader (descriptions, meshes, copies into a model directory or package, xacro's
  files, a batch's listing) names the kind of the file it refuses in those words, and
  no other module declares the open flags or the message again.
"""
from __future__ import annotations

import ast
import errno
import functools
import os
import re
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from urdf_sdf.cli.batch import BatchItem, skip_irregular
from urdf_sdf.cli.xacro_files import FileRefused, Files
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.inspect.resources import sniff_mesh
from urdf_sdf.core.read.files import (
    NotRegular,
    open_regular,
    os_reason,
    read_head,
    read_regular,
    system_reason,
)
from urdf_sdf.core.read.mesh_files import MeshFileError, file_digest, read_capped
from urdf_sdf.core.read.xmlio import read_bytes
from urdf_sdf.core.write.confined import Refusal, copy_check, copy_roots

ROOT = Path(__file__).resolve().parents[3]
HANG_GUARD = 60  # seconds: a subprocess that takes longer has hung
needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
needs_sockets = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="needs sockets")


def unix_socket(path: Path) -> Path:
    """A UNIX socket file at ``path`` (its socket closed: the file stays)."""
    with socket.socket(socket.AF_UNIX) as bound:
        bound.bind(str(path))
    return path


# ---- open_regular -------------------------------------------------------------------------

def test_open_regular_opens_non_blocking_and_close_on_exec(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    (tmp_path / "robot.urdf").write_text("<robot/>")
    fd = open_regular(tmp_path / "robot.urdf")
    try:
        assert fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_NONBLOCK
        assert fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
        assert os.read(fd, 100) == b"<robot/>"
    finally:
        os.close(fd)


@needs_fifos
def test_open_regular_refuses_a_fifo_without_blocking(tmp_path):
    """A FIFO without a writer: opening it would block forever if it were not
    non-blocking; it is refused, naming its kind, by every entry point."""
    os.mkfifo(tmp_path / "robot.urdf")
    code = textwrap.dedent("""
        import sys
        from urdf_sdf.core.read.files import open_regular, read_head, read_regular
        for read in (open_regular, lambda p: read_regular(p, 100),
                     lambda p: read_head(p, 100, follow_links=False)):
            try:
                read(sys.argv[1])
            except OSError as exc:
                print(type(exc).__name__, exc)
        """)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "robot.urdf")],
                          capture_output=True, text=True, timeout=HANG_GUARD, check=False)
    assert done.stdout.splitlines() == ["NotRegular not a regular file (a FIFO)"] * 3, \
        done.stderr


@needs_sockets
def test_open_regular_names_a_socket_it_cannot_even_open(tmp_path):
    """Opening a socket fails (ENXIO) before ``fstat`` could say what it is."""
    path = unix_socket(tmp_path / "mesh.stl")
    with pytest.raises(NotRegular, match=re.escape("not a regular file (a socket)")):
        open_regular(path)


@pytest.mark.parametrize("kind", ["a directory", "a device"])
def test_open_regular_names_the_kind_it_refuses(tmp_path, kind):
    path = tmp_path if kind == "a directory" else Path(os.devnull)
    if kind == "a device" and not (path.exists() and stat.S_ISCHR(path.stat().st_mode)):
        pytest.skip("needs /dev/null")
    with pytest.raises(NotRegular) as refused:
        open_regular(path)
    assert str(refused.value) == f"not a regular file ({kind})"
    assert refused.value.kind == kind


def test_open_regular_follows_a_last_symlink_only_when_asked(tmp_path):
    (tmp_path / "real.urdf").write_text("<robot/>")
    (tmp_path / "link.urdf").symlink_to(tmp_path / "real.urdf")
    os.close(open_regular(tmp_path / "link.urdf"))
    with pytest.raises(NotRegular, match=re.escape("not a regular file (a symbolic link)")):
        open_regular(tmp_path / "link.urdf", follow_links=False)
    assert read_head(tmp_path / "link.urdf", 3) == b"<ro"
    with pytest.raises(NotRegular):
        read_regular(tmp_path / "link.urdf", 100, follow_links=False)


def test_not_regular_survives_pickling():
    """A batch worker sends its exception back to the parent whole."""
    import pickle
    back = pickle.loads(pickle.dumps(NotRegular("a FIFO")))
    assert (str(back), back.kind) == ("not a regular file (a FIFO)", "a FIFO")


# ---- reading -----------------------------------------------------------------------------

def test_read_regular_is_none_past_its_limit(tmp_path):
    (tmp_path / "mesh.stl").write_bytes(b"x" * 10)
    assert read_regular(tmp_path / "mesh.stl", 10) == b"x" * 10
    assert read_regular(tmp_path / "mesh.stl", 9) is None
    assert read_head(tmp_path / "mesh.stl", 4) == b"xxxx"


@needs_fifos
def test_read_regular_reads_a_pipe_only_when_asked(tmp_path):
    os.mkfifo(tmp_path / "robot.urdf")
    code = textwrap.dedent("""
        import sys, threading
        from urdf_sdf.core.read.files import read_regular
        def write():
            with open(sys.argv[1], "wb") as pipe:
                pipe.write(b"<robot/>")
        threading.Thread(target=write).start()
        print(read_regular(sys.argv[1], 100, pipes=True))
        """)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "robot.urdf")],
                          capture_output=True, text=True, timeout=HANG_GUARD, check=False)
    assert done.stdout.strip() == "b'<robot/>'", done.stderr


def test_os_reason_says_permission_denied(tmp_path):
    assert os_reason(PermissionError(13, "Permission denied")) == "permission denied"
    assert os_reason(NotRegular("a FIFO")) == "not a regular file (a FIFO)"
    if os.geteuid() == 0:
        pytest.skip("root reads a file of mode 000")
    (tmp_path / "mesh.stl").write_bytes(b"solid x\nendsolid x\n")
    (tmp_path / "mesh.stl").chmod(0)
    with pytest.raises(OSError) as refused:
        open_regular(tmp_path / "mesh.stl")
    assert os_reason(refused.value) == "permission denied"


def test_a_failed_write_keeps_the_systems_wording():
    """A write's FILE_WRITE quotes the system (``system_reason``); a reason following a
    colon in a read's message is in lower case (``os_reason``)."""
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert system_reason(full) == os.strerror(errno.ENOSPC)
    assert os_reason(full) == os.strerror(errno.ENOSPC)[:1].lower() + \
        os.strerror(errno.ENOSPC)[1:]
    assert system_reason(OSError(errno.EROFS, "")) == "EROFS"  # no text: the errno's name


# ---- every reader ------------------------------------------------------------------------

def refusals(path: Path, tmp_path: Path) -> dict[str, str]:
    """What each reader of ours says of ``path``, by reader."""
    said: dict[str, str] = {}
    diagnostics = Diagnostics()
    read_bytes(path, diagnostics)
    said["description"] = diagnostics[0].message
    for name, read in (("mesh", lambda: read_capped(path, 1 << 20)),
                       ("mesh digest", lambda: file_digest(path, 1 << 20, 1 << 10))):
        try:
            read()
        except MeshFileError as exc:
            said[name] = str(exc)
    said["mesh format"] = str(sniff_mesh(path)[1])
    refusal = copy_check(path, copy_roots(str(tmp_path / "robot.urdf")))
    said["copy"] = refusal.reason if isinstance(refusal, Refusal) else "copied"
    (tmp_path / "robot.urdf.xacro").write_text("<robot/>")
    try:
        Files(str(tmp_path / "robot.urdf.xacro"), [], None, 1 << 20).read_file(str(path))
    except FileRefused as exc:
        said["xacro"] = str(exc)
    items = [BatchItem(path, Path(path.name), tmp_path / "out")]
    skip_irregular(items)
    said["batch"] = str(items[0].skip)
    return said


@needs_sockets
def test_every_reader_names_the_kind_of_a_file_it_refuses(tmp_path):
    (tmp_path / "folder.stl").mkdir()
    for path, kind in ((tmp_path / "folder.stl", "a directory"),
                       (unix_socket(tmp_path / "socket.stl"), "a socket")):
        said = refusals(path, tmp_path)
        assert set(said) == {"description", "mesh", "mesh digest", "mesh format", "copy",
                             "xacro", "batch"}
        shown = {reader: f"not a regular file ({kind})" in text
                 for reader, text in said.items()}
        assert all(shown.values()), said


LIBRARY = [path for folder in ("core", "urdf_sdf", "urdf2sdf", "sdf2urdf")
           for path in sorted((ROOT / folder).rglob("*.py"))]
DECLARATIONS = "core/read/files.py"


@functools.cache
def spelled(path: Path) -> frozenset[str]:
    """What the code of ``path`` spells: its names, attributes, functions defined and
    string constants (docstrings left out: they may quote a message)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documented = [node for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))]
    docstrings = {id(node.body[0].value) for node in documented
                  if node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docstrings:
            found.add(node.value)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.FunctionDef):
            found.add(f"def {node.name}")
    return frozenset(found)


@pytest.mark.parametrize("fact", ["O_NONBLOCK", "O_NOCTTY", "O_NOFOLLOW", "not a regular file",
                                  "def os_reason", "def system_reason"])
def test_the_open_flags_and_messages_are_declared_once(fact):
    """Only ``core/read/files.py`` spells the flags a file is opened with, the kind
    message and the reason text; every other module imports them."""
    declaring = [path.relative_to(ROOT).as_posix() for path in LIBRARY
                 if any(fact in text for text in spelled(path))]
    assert declaring == [DECLARATIONS]
