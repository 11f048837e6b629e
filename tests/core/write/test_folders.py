"""The folders of an output tree (core.write.folders): each opened in the one before it,
none through a link; a file made there is new, never through a link at its name."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.write.folders import (
    LINKED_OUTPUT_FOLDER,
    OutsideOutputTree,
    new_file_in,
    opened_folder,
)


def test_a_new_file_is_made_in_folders_made_one_at_a_time(tmp_path):
    with new_file_in(tmp_path / "out", Path("meshes/visual/a.stl")) as stream:
        stream.write(b"solid a\nendsolid a\n")
    assert (tmp_path / "out" / "meshes" / "visual" / "a.stl").read_bytes() == \
        b"solid a\nendsolid a\n"


def test_a_folder_that_is_a_link_is_refused_nothing_written_through_it(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "meshes").symlink_to(victim, target_is_directory=True)
    with pytest.raises(OutsideOutputTree, match=LINKED_OUTPUT_FOLDER):
        with new_file_in(tmp_path / "out", Path("meshes/a.stl")) as stream:
            stream.write(b"x")
    assert list(victim.iterdir()) == []


def test_the_root_is_followed_through_a_link_only_when_asked(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "named").symlink_to(tmp_path / "real", target_is_directory=True)
    with opened_folder(tmp_path / "named", Path("sub"), root_link=True) as folder:
        assert folder is not None
    assert (tmp_path / "real" / "sub").is_dir()
    with pytest.raises(OutsideOutputTree, match=LINKED_OUTPUT_FOLDER):
        with opened_folder(tmp_path / "named", Path("sub"), root_link=False):
            pass


@pytest.mark.parametrize("relative", ["../escaped", "sub/../../escaped", "/tmp/escaped"])
def test_a_place_leaving_the_root_is_refused(tmp_path, relative):
    (tmp_path / "out").mkdir()
    with pytest.raises(OutsideOutputTree, match="not a place inside"):
        with opened_folder(tmp_path / "out", Path(relative)):
            pass
    assert not (tmp_path / "escaped").exists()


def test_an_existing_file_or_a_link_at_the_name_is_never_written(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "kept").write_bytes(b"kept")
    (tmp_path / "victim").write_bytes(b"precious")
    (tmp_path / "out" / "link").symlink_to(tmp_path / "victim")
    for name in ("kept", "link"):
        with pytest.raises(OSError):
            with new_file_in(tmp_path / "out", Path(name)) as stream:
                stream.write(b"x")
    assert (tmp_path / "out" / "kept").read_bytes() == b"kept"
    assert (tmp_path / "victim").read_bytes() == b"precious"
