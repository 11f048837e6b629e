"""core.write.atomic: a file replaced whole or not at all, keeping its mode."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from urdf_sdf.core.write import atomic


def test_a_new_file_is_written_with_the_umask_mode_and_no_temporary_left(tmp_path):
    target = tmp_path / "robot.sdf"
    atomic.write_atomically(b"<sdf/>", target)
    assert target.read_bytes() == b"<sdf/>"
    assert os.stat(target).st_mode & 0o777 == atomic.new_file_mode(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robot.sdf"]


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "robot.sdf"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic.write_atomically(b"new", target)
    assert target.read_bytes() == b"new" and os.stat(target).st_mode & 0o777 == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "robot.sdf"
    target.write_bytes(b"old")

    def fail(*_):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(atomic.os, "replace", fail)
    with pytest.raises(OSError):
        atomic.write_atomically(b"new", target)
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robot.sdf"]


def test_the_guard_is_entered_before_the_temporary_exists(tmp_path):
    seen = []

    class Guard:
        def __init__(self, path: str):
            self.path = path

        def __enter__(self):
            seen.append(os.path.exists(self.path))

        def __exit__(self, *exc):
            seen.append(os.path.exists(self.path))

    atomic.write_atomically(b"x", tmp_path / "a.urdf", guard=Guard)
    assert seen == [False, False]  # made inside the guard, renamed away before it ends


def test_stale_temporaries_of_dead_processes_are_removed(tmp_path):
    stale = tmp_path / ".a.urdf.urdf-sdf-999999999-0a0b0c0d.tmp"
    stale.write_bytes(b"half")
    mine = tmp_path / f".a.urdf.urdf-sdf-{os.getpid()}-0a0b0c0d.tmp"
    mine.write_bytes(b"in progress")
    atomic.write_atomically(b"x", Path(tmp_path / "a.urdf"))
    assert not stale.exists() and mine.exists()


def test_a_name_near_the_systems_limit_is_written_its_temporary_name_fitting(tmp_path):
    """A 250-byte output name: the temporary name beside it (NAME cut) fits NAME_MAX, so
    the file is written (it was "File name too long")."""
    target = tmp_path / ("n" * 246 + ".sdf")
    temporary = Path(atomic.temporary_name(target)).name
    assert len(os.fsencode(temporary + ".old")) <= atomic.NAME_MAX
    assert temporary.startswith("." + "n" * atomic.MAX_STEM_BYTES + ".urdf-sdf-")
    atomic.write_atomically(b"<sdf/>", target)
    assert target.read_bytes() == b"<sdf/>"
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_a_cut_name_keeps_whole_characters_of_a_multibyte_name(tmp_path):
    name = "é" * 120 + ".sdf"  # 244 bytes
    stem = atomic.temporary_stem(name)
    assert stem == "é" * (atomic.MAX_STEM_BYTES // 2)
    atomic.write_atomically(b"<sdf/>", tmp_path / name)
    assert (tmp_path / name).read_bytes() == b"<sdf/>"


def test_a_stale_temporary_of_a_long_name_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / ("n" * 246 + ".sdf")
    stale = Path(atomic.temporary_name(target)).name.replace(f"-{os.getpid()}-", "-999999999-")
    (tmp_path / stale).write_bytes(b"half")
    atomic.write_atomically(b"<sdf/>", target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
