"""The one writer of an output file (``-o`` and ``Converted.write``): where a path is
written, and what it never replaces."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.write.destination import (
    FILE,
    SPECIAL,
    OutputError,
    OutputIsInput,
    resolve_destination,
    write_file,
)


def test_a_new_path_and_a_regular_file_are_files_a_device_is_special(tmp_path):
    assert resolve_destination(tmp_path / "new.sdf") == (FILE, tmp_path / "new.sdf")
    assert resolve_destination(Path("/dev/null"))[0] == SPECIAL


def test_a_link_is_followed_only_when_the_user_named_it(tmp_path):
    target = tmp_path / "real.sdf"
    target.write_bytes(b"old")
    link = tmp_path / "link.sdf"
    link.symlink_to(target)
    assert resolve_destination(link, through_links=True) == (FILE, target)
    assert resolve_destination(link) == (FILE, link)


def test_an_input_reached_through_a_link_is_refused_and_kept(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_bytes(b"<robot/>")
    link = tmp_path / "out.urdf"
    link.symlink_to(source)
    with pytest.raises(OutputIsInput, match="refusing to overwrite the input file"):
        write_file(b"new", link, [str(source)], through_links=True)
    assert source.read_bytes() == b"<robot/>"
    assert issubclass(OutputIsInput, ValueError) and issubclass(OutputError, ValueError)


def test_a_missing_folder_is_refused_and_a_new_file_is_written(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        write_file(b"x", tmp_path / "missing" / "out.sdf")
    write_file(b"x", tmp_path / "out.sdf")
    assert (tmp_path / "out.sdf").read_bytes() == b"x"
