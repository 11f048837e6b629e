"""Converted.write: the API writes a conversion as the command line does."""
from __future__ import annotations

from pathlib import Path

import pytest

import urdf_sdf
from urdf_sdf.core.write.result import NothingToWrite

SAMPLES = Path(__file__).resolve().parents[3] / "samples"


def test_a_conversion_writes_its_bytes_and_returns_the_path(tmp_path):
    sdf = urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf", relative=True)
    written = sdf.write(tmp_path / "pendulum.sdf")
    assert written == tmp_path / "pendulum.sdf"
    assert written.read_bytes() == sdf.xml
    urdf = urdf_sdf.to_urdf(SAMPLES / "arm6.sdf")
    assert urdf.write(str(tmp_path / "arm6.urdf")).read_bytes() == urdf.xml


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.sdf"
    target.write_bytes(b"old")
    link = tmp_path / "link.sdf"
    link.symlink_to(target)
    sdf = urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf")
    sdf.write(link)
    assert link.is_symlink() and target.read_bytes() == sdf.xml


def test_a_failed_conversion_writes_nothing_and_says_why(tmp_path):
    failed = urdf_sdf.to_sdf(SAMPLES / "pendulum.sdf")  # an SDF given to urdf2sdf
    assert not failed.ok
    with pytest.raises(NothingToWrite, match=r"INPUT_FORMAT_WRONG.*sdf2urdf"):
        failed.write(tmp_path / "out.sdf")
    assert list(tmp_path.iterdir()) == []


def test_a_directory_is_not_replaced(tmp_path):
    with pytest.raises(OSError):
        urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf").write(tmp_path)
    assert tmp_path.is_dir()
