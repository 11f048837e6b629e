"""The round-trip tools (``urdf-sdf roundtrip``, :mod:`urdf_sdf.round_trip_check`) and the
round trips of what they met in real files, each rule on a fixture reduced from the real case
(``fixtures/roundtrip``), with what Drake and libsdformat 12 read as the expected values.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from lxml import etree

import urdf_sdf.cli.roundtrip as roundtrip_cli
from urdf_sdf.cli.quick import SCRIPTS
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.round_trip_check import round_trip
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "roundtrip"
SAMPLES = HERE.parent / "samples"


def run_roundtrip(monkeypatch, *files) -> int:
    monkeypatch.setattr(sys, "argv", ["urdf-sdf", "roundtrip", *map(str, files)])
    with pytest.raises(SystemExit) as exited:
        SCRIPTS["urdf-sdf"]()
    return exited.value.code


# ---- a crash fails its file, not the run ---------------------------------------------------

def test_a_crash_on_one_file_fails_that_file_and_the_others_are_still_checked(monkeypatch,
                                                                              capsys):
    monkeypatch.delenv("URDF_SDF_DEBUG", raising=False)
    checked = []
    real = roundtrip_cli.round_trip

    def crash_on_the_first(path, context):
        checked.append(Path(path).name)
        if len(checked) == 1:
            raise RuntimeError("fell over")
        return real(path, context)

    monkeypatch.setattr(roundtrip_cli, "round_trip", crash_on_the_first)
    files = [SAMPLES / "arm6.urdf", SAMPLES / "pendulum.urdf", SAMPLES / "pendulum.sdf"]
    assert run_roundtrip(monkeypatch, *files) == 1
    out = capsys.readouterr().out
    assert checked == ["arm6.urdf", "pendulum.urdf", "pendulum.sdf"]
    assert f"{files[0]}: the round trip failed:" in out
    assert "error[INTERNAL_ERROR]: internal error (RuntimeError: fell over)" in out
    assert f"{files[1]} survives urdf2sdf | sdf2urdf" in out
    assert out.rstrip().endswith("2 of 3 files survive the round trip")
    assert "Traceback" not in out


def test_the_debug_variable_lets_a_crash_through(monkeypatch):
    monkeypatch.setenv("URDF_SDF_DEBUG", "1")

    def crash(path, context):
        raise RuntimeError("fell over")

    monkeypatch.setattr(roundtrip_cli, "round_trip", crash)
    with pytest.raises(RuntimeError):
        roundtrip_cli.roundtrip_files([SAMPLES / "arm6.urdf"], Context())


def through_urdf(path: Path):
    """The original SDF and what comes back through ``sdf2urdf | urdf2sdf``, loaded."""
    original = load(str(path), Context())
    urdf = convert_sdf(original, ToUrdf())
    assert urdf.ok, [d.format() for d in urdf.diagnostics]
    sdf = convert_urdf(load_string(urdf.xml, str(path.with_suffix(".urdf")), Context()), ToSdf())
    assert sdf.ok, [d.format() for d in sdf.diagnostics]
    return original, sdf.xml


# ---- one rule for a link frame URDF cannot keep ----------------------------------------------

LINK_AWAY = FIXTURES / "sdf_link_away_from_its_joint.sdf"


def test_a_link_away_from_its_joint_survives_the_round_trip_as_diff_judges_it():
    """Drake reads the original and what comes back alike: joint PolePin at the origin, the
    pole's mass 1 with its centre at z -0.5 (the pole's SDF frame was there; URDF's is at the
    pin). ``roundtrip`` compares the pole at its joint frame, as ``diff SDF URDF`` does."""
    trip = round_trip(LINK_AWAY, Context())
    assert trip.ok, trip.report()
    original, back_xml = through_urdf(LINK_AWAY)
    back = load_string(back_xml, str(LINK_AWAY.with_name("back.sdf")), Context())
    assert back.pose("Pole").position == (0.0, 0.0, 0.0)              # at the pin now
    assert original.pose("Pole").position == (0.0, 0.0, -0.5)
    com = etree.fromstring(back_xml).findtext("model/link[@name='Pole']/inertial/pose")
    assert com.split() == ["0", "0", "-0.5", "0", "0", "0"]            # Drake: com z -0.5
    # The link frames themselves differ: compared as they are, the pole is reported.
    moved = diff_results(original, back)
    assert [(d.kind, d.name) for d in moved] == [("pose", "Pole")]


def test_the_joint_frame_rule_still_sees_content_that_moved():
    original, back_xml = through_urdf(LINK_AWAY)
    moved_mass = back_xml.replace(b"<pose>0 0 -0.5 0 0 0</pose>", b"<pose>0 0 -0.4 0 0 0</pose>")
    assert moved_mass != back_xml
    back = load_string(moved_mass, str(LINK_AWAY.with_name("back.sdf")), Context())
    differences = diff_results(original, back, through_urdf=True)
    assert [d.kind for d in differences] == ["inertial"]
