"""``urdf2sdf.target``: the Gazebo a conversion is written for (``--gazebo``).

The fixture is reduced from the Robotiq and Franka grippers (a finger mimicking another).
libsdformat 12, Gazebo Fortress's, refuses its default output ("Unable to convert from SDF
version 1.11 to 1.9") and reads the ``--gazebo fortress`` one (SDFormat 1.6).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from urdf_sdf.cli.main import urdf2sdf_app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.version import GAZEBO_VERSIONS, gazebo_readers
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

GRIPPER = Path(__file__).parents[1] / "fixtures" / "codes" / "version_raised_mimic.urdf"
URDF_NS = "urn:urdf-sdf:urdf"


def convert(**options):
    return convert_urdf(load(GRIPPER, Context()), ToSdf(**options))


def codes(conversion) -> list[Code]:
    return [d.code for d in conversion.diagnostics]


def test_the_default_target_writes_1_11_and_says_which_gazebo_cannot_load_it():
    conversion = convert()
    assert conversion.ok and conversion.version == "1.11"
    [note] = [d for d in conversion.diagnostics if d.code is Code.VERSION_RAISED]
    assert not note.is_error
    for words in ("joint [finger_joint2]", "SDFormat 1.11", "Gazebo Fortress",
                  "Gazebo Garden", "--gazebo fortress", "--gazebo harmonic"):
        assert words in note.message, words
    root = etree.fromstring(conversion.xml)
    assert root.find(".//joint[@name='finger_joint2']/axis/mimic").get("joint") == \
        "finger_joint"


def test_fortress_gets_a_version_libsdformat_12_reads_and_the_mimic_carried():
    conversion = convert(gazebo="fortress")
    assert conversion.ok and conversion.version == "1.6"  # <= 1.9, Fortress's
    assert codes(conversion) == [Code.JOINT_MIMIC_CARRIED]
    [carried] = conversion.diagnostics
    assert "joint [finger_joint2]" in carried.message
    assert "Gazebo Fortress reads up to 1.9" in carried.message
    root = etree.fromstring(conversion.xml)
    mimic = root.find(f".//joint[@name='finger_joint2']/{{{URDF_NS}}}mimic")
    assert mimic is not None and mimic.get("joint") == "finger_joint"
    assert root.find(".//axis/mimic") is None


@pytest.mark.parametrize("gazebo", ["harmonic", "ionic", "jetty"])
def test_a_target_that_reads_mimic_gets_it_without_a_note(gazebo):
    conversion = convert(gazebo=gazebo)
    assert conversion.ok and conversion.version == "1.11"
    assert codes(conversion) == []


def test_an_sdf_version_newer_than_the_target_reads_is_refused():
    conversion = convert(gazebo="fortress", sdf_version="1.11")
    assert not conversion.ok and conversion.xml is None
    [error] = conversion.diagnostics
    assert error.code is Code.VERSION_UNSUPPORTED and "Gazebo Fortress" in error.message
    assert convert(gazebo="jetty", sdf_version="1.12").version == "1.12"


def test_an_sdf_version_below_1_11_carries_the_mimic_with_a_code():
    conversion = convert(sdf_version="1.10")
    assert conversion.ok and codes(conversion) == [Code.JOINT_MIMIC_CARRIED]
    assert "--sdf-version asks for 1.10" in conversion.diagnostics[0].message


def test_the_versions_each_gazebo_reads():
    assert GAZEBO_VERSIONS == {"fortress": (1, 9), "garden": (1, 10), "harmonic": (1, 11),
                               "ionic": (1, 11), "jetty": (1, 12)}
    assert gazebo_readers((1, 11)) == "Harmonic, Ionic and Jetty"
    assert gazebo_readers((1, 12)) == "Jetty"


def test_the_command_line_option(tmp_path):
    out = tmp_path / "gripper.sdf"
    result = CliRunner().invoke(urdf2sdf_app, [str(GRIPPER), "-o", str(out),
                                               "--gazebo", "fortress"])
    assert result.exit_code == 0, result.output
    assert 'version="1.6"' in out.read_text() and "JOINT_MIMIC_CARRIED" in result.output
    unknown = CliRunner().invoke(urdf2sdf_app, [str(GRIPPER), "--gazebo", "classic"])
    assert unknown.exit_code == 2
    assert "--gazebo is one of fortress" in " ".join(unknown.output.split())
    both = CliRunner().invoke(urdf2sdf_app, [str(GRIPPER), "--keep-inertia", "--fix-inertia"])
    assert both.exit_code == 2 and "opposite" in both.output
