"""Converted.write: the API writes a conversion as the command line does."""
from __future__ import annotations

from pathlib import Path

import pytest

import urdf_sdf
from urdf_sdf.core.write.destination import OutputError, OutputIsInput
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
    with pytest.raises(OutputError, match="is a directory"):
        urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf").write(tmp_path)
    assert tmp_path.is_dir()


def test_the_input_is_never_overwritten(tmp_path):
    urdf = tmp_path / "pendulum.urdf"
    urdf.write_bytes((SAMPLES / "pendulum.urdf").read_bytes())
    sdf = urdf_sdf.to_sdf(urdf)
    with pytest.raises(OutputIsInput, match=f"refusing to overwrite the input file {urdf}"):
        sdf.write(urdf)
    assert urdf.read_bytes() == (SAMPLES / "pendulum.urdf").read_bytes()
    link = tmp_path / "link.sdf"  # a link to it: the same file
    link.symlink_to(urdf)
    with pytest.raises(ValueError):
        sdf.write(link)


def test_a_mesh_the_input_references_is_never_overwritten(tmp_path):
    (tmp_path / "meshes").mkdir()
    mesh = tmp_path / "meshes" / "base.stl"
    mesh.write_bytes(b"solid m\nendsolid m\n")
    urdf = tmp_path / "robot.urdf"
    urdf.write_text('<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n'
                    '    <visual><geometry><mesh filename="meshes/base.stl"/></geometry>'
                    '</visual>\n  </link>\n</robot>\n')
    sdf = urdf_sdf.to_sdf(urdf)
    with pytest.raises(OutputIsInput) as refused:
        sdf.write(mesh)
    assert str(refused.value) == (f"refusing to overwrite {mesh}: the mesh [meshes/base.stl] "
                                  f"at {urdf}:4 references it")
    assert mesh.read_bytes() == b"solid m\nendsolid m\n"


def test_a_device_is_written_as_it_is():
    assert urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf").write("/dev/null") == Path("/dev/null")
