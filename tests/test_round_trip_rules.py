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
from urdf_sdf.core.base.diagnostics import Code
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
    assert [d.format() for d in moved if d.role == "cause"] == [
        "link Pole: pose in joint PolePin's frame xyz 0 0 -0.5 -> 0 0 0 m (moved 0.5 m)"]
    assert [(d.kind, d.name, d.causes) for d in moved[1:]] == [("pose", "Pole", (0,))]


def test_the_joint_frame_rule_still_sees_content_that_moved():
    original, back_xml = through_urdf(LINK_AWAY)
    moved_mass = back_xml.replace(b"<pose>0 0 -0.5 0 0 0</pose>", b"<pose>0 0 -0.4 0 0 0</pose>")
    assert moved_mass != back_xml
    back = load_string(moved_mass, str(LINK_AWAY.with_name("back.sdf")), Context())
    differences = diff_results(original, back, through_urdf=True)
    assert [d.format() for d in differences if d.role == "cause"] == [
        "link Pole: inertial origin xyz 0 0 -0.5 -> 0 0 -0.4 m (moved 0.1 m)"]  # joint frame
    assert [(d.kind, d.property) for d in differences[1:]] == [("inertial", "centre of mass")]


# ---- names with '::': the scopes of a composed model ---------------------------------------

SCOPED = FIXTURES / "urdf_scoped_names_become_nested_models.urdf"
NESTED_SDF = HERE / "fixtures" / "sdf2urdf" / "nested_models.sdf"


def test_scoped_urdf_names_become_nested_models_that_check_accepts(tmp_path, sdf_reference):
    """libsdformat 12 reads the SDF of the original composed model and ours alike: joint
    arm::wrist at z 1 turned 0.5 about z, frame arm::hand::grasp where it was."""
    conversion = convert_urdf(load(str(SCOPED), Context()), ToSdf())
    assert conversion.ok and conversion.version == "1.8", \
        [d.format() for d in conversion.diagnostics]
    sdf = etree.fromstring(conversion.xml)
    model = sdf.find("model")
    assert [c.get("name") for c in model.findall("model")] == ["arm"]
    assert model.find("model/model[@name='hand']/link[@name='palm']") is not None
    assert model.find("model/model[@name='hand']/frame").get("attached_to") == "palm"
    wrist = model.find("model[@name='arm']/joint[@name='wrist']")
    assert (wrist.findtext("parent"), wrist.findtext("child")) == ("upper", "hand::palm")
    assert model.find("joint[@name='shoulder']").findtext("child") == "arm::upper"
    written = tmp_path / "robot.sdf"
    written.write_bytes(conversion.xml)
    assert load(str(written), Context()).ok  # what `urdf-sdf check` reads
    ours = sdf_reference(written)
    assert ours["ok"], ours["diagnostics"]
    theirs = sdf_reference(NESTED_SDF)
    for kind in ("joints", "frames"):
        assert ours[kind].keys() == theirs[kind].keys()
        for name, pose in theirs[kind].items():
            assert ours[kind][name] == pytest.approx(pose, abs=1e-12), (kind, name)
    assert ours["joints"]["arm::wrist"] == pytest.approx(
        [0, 0, 1, 0.96891242171064484, 0, 0, 0.24740395925452296], abs=1e-12)
    assert ours["frames"]["arm::hand::grasp"][:3] == pytest.approx(
        [0.01296716900261154, 0.0070839967123519053, 1.0477668244562803], abs=1e-12)


def test_relative_poses_that_leave_their_scope_are_computed_in_the_model_frame(tmp_path):
    conversion = convert_urdf(load(str(SCOPED), Context()), ToSdf(relative=True))
    assert conversion.ok and conversion.version == "1.8"
    upper = etree.fromstring(conversion.xml).find("model/model[@name='arm']/link[@name='upper']")
    # its joint, shoulder, is in the model above: the pose is computed where it is
    assert upper.find("pose").get("relative_to") == "__model__"
    assert upper.findtext("pose").split() == ["0", "0", "0.5", "0", "0", "0"]
    written = tmp_path / "robot.sdf"
    written.write_bytes(conversion.xml)
    assert load(str(written), Context()).ok


@pytest.mark.parametrize("path", [NESTED_SDF, SCOPED], ids=["sdf", "urdf"])
def test_composed_models_survive_the_round_trip(path):
    trip = round_trip(path, Context())
    assert trip.ok, trip.report()


def test_a_version_without_nested_joints_is_refused_for_scoped_names():
    conversion = convert_urdf(load(str(SCOPED), Context()), ToSdf(sdf_version="1.7"))
    assert conversion.xml is None
    assert [d.code for d in conversion.diagnostics if d.is_error] == [Code.VERSION_UNSUPPORTED]


def test_a_scoped_joint_reaching_out_of_its_scope_is_refused_not_written():
    path = FIXTURES / "urdf_scoped_joint_outside_its_scope.urdf"
    conversion = convert_urdf(load(str(path), Context()), ToSdf())
    assert conversion.xml is None
    errors = [d for d in conversion.diagnostics if d.is_error]
    assert [d.code for d in errors] == [Code.NAME_SCOPE_UNNESTABLE]
    assert "joint [arm::shoulder] names [base], outside its scope [arm]" in errors[0].message


# ---- a <gazebo> joint that closes a loop -----------------------------------------------------

LOOP = FIXTURES / "urdf_gazebo_joint_closing_a_loop.urdf"
# libsdformat 12 reads the URDF, our SDF and the URDF that comes back with this ball joint.
BALL_JOINT = [-0.70710807985947366, 1.7071054825112362, 0, 0.70710548251123617, 0, 0,
              0.70710807985947366]


def test_a_gazebo_joint_closing_a_loop_goes_back_to_a_gazebo_block(tmp_path, sdf_reference):
    to_sdf = convert_urdf(load(str(LOOP), Context()), ToSdf())
    assert to_sdf.ok
    ball = etree.fromstring(to_sdf.xml).find("model/joint[@name='sdf_ball_joint']")
    assert ball is not None and ball.get("type") == "ball"   # a real joint, as libsdformat's
    sdf = tmp_path / "robot.sdf"
    sdf.write_bytes(to_sdf.xml)
    back = convert_sdf(load(str(sdf), Context()), ToUrdf())
    assert back.ok, [d.format() for d in back.diagnostics if d.is_error]
    assert [d.code for d in back.diagnostics] == [Code.JOINT_LOOP_KEPT_IN_GAZEBO]
    robot = etree.fromstring(back.xml)
    assert robot.find("joint[@name='sdf_ball_joint']") is None
    kept = robot.find("gazebo/joint[@name='sdf_ball_joint']")
    assert dict(kept.attrib) == {"name": "sdf_ball_joint", "type": "ball"}  # mark gone
    assert [(c.tag, c.text) for c in kept] == [("parent", "link1"), ("child", "link3")]
    urdf = tmp_path / "robot.urdf"
    urdf.write_bytes(back.xml)
    for path in (LOOP, sdf, urdf):
        read = sdf_reference(path)
        assert read["joints"]["sdf_ball_joint"] == pytest.approx(BALL_JOINT, abs=1e-12), path
    trip = round_trip(LOOP, Context())
    assert trip.ok, trip.report()


def test_an_sdf_loop_of_its_own_is_still_refused(tmp_path):
    """Only a joint urdf2sdf took from a <gazebo> block goes back to one: an SDF's own loop
    (Cassie's rods) is URDF_KINEMATIC_LOOP, as URDF cannot state it."""
    to_sdf = convert_urdf(load(str(LOOP), Context()), ToSdf())
    sdf = tmp_path / "robot.sdf"
    sdf.write_bytes(to_sdf.xml.replace(b' urdf:gazebo="true"', b""))
    back = convert_sdf(load(str(sdf), Context()), ToUrdf())
    assert back.xml is None
    assert [d.code for d in back.diagnostics if d.is_error] == [Code.URDF_KINEMATIC_LOOP]
