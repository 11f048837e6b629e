"""The round-trip tools (``urdf-sdf roundtrip``, :mod:`urdf_sdf.round_trip_check`) and the
round trips of what they met in real files, each rule on a fixture reduced from the real case
(``fixtures/roundtrip``), with what Drake and libsdformat 12 read as the expected values.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lxml import etree
from typer.testing import CliRunner

import urdf_sdf.cli.roundtrip as roundtrip_cli
from tests.support import examples
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.cli.quick import SCRIPTS
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS, principal_moments
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


# ---- an inertia urdf2sdf repairs comes back as written ---------------------------------------

REPAIRED = FIXTURES / "urdf_inertia_repaired_comes_back_as_written.urdf"
AS_WRITTEN = {"ixx": "4.701248e-06", "ixy": "1.255968e-06", "ixz": "1.2936e-06",
              "iyy": "3.649312e-06", "iyz": "1.7622e-06", "izz": "4.701248e-06"}
# Drake's reading of the source, and of its urdf2sdf | sdf2urdf round trip alike: it warns
# that the tensor fails its physical-validity test (principal moments DRAKE_MOMENTS, which
# break the triangle inequality) and reads mass 0.0096 with this rotational inertia about
# the centre of mass (Ixx Iyy Izz Ixy Ixz Iyz).
DRAKE_MOMENTS = [2.3006407159542754e-06, 3.485265185555029e-06, 7.26590209849069e-06]
DRAKE_SOURCE = [6.675026182260887e-07, 6.675026182260887e-07, 6.675026182260887e-07, 0, 0, 0]
# Drake's reading of urdf2sdf's SDF: the repair (principal moments 3.48527e-06 3.78064e-06
# 7.2659e-06), which libsdformat 12 loads too.
DRAKE_SDF = [4.7345322110246175e-06, 4.678303187791275e-06, 5.1189760640675865e-06,
             1.070902714662856e-06, 1.411514159604904e-06, 1.1065793041562363e-06]


def drake_order(inertial) -> list[float]:
    return [inertial.ixx, inertial.iyy, inertial.izz, inertial.ixy, inertial.ixz, inertial.iyz]


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
def test_a_repaired_inertia_comes_back_as_written(tmp_path, sdf_reference, relative):
    """The Allegro hand's link_11.0: Gazebo gets the repair, and urdf2sdf | sdf2urdf gives
    Drake, Pinocchio and urdfdom the numbers the source has, text for text."""
    source = load(str(REPAIRED), Context())
    assert principal_moments(source.document.model.links[0].inertial) == \
        pytest.approx(DRAKE_MOMENTS, rel=1e-12)
    to_sdf = convert_urdf(source, ToSdf(relative=relative))
    assert [d.code for d in to_sdf.diagnostics] == [Code.LINK_INERTIA_REPAIRED]
    sdf = tmp_path / "robot.sdf"
    sdf.write_bytes(to_sdf.xml)
    assert sdf_reference(sdf)["ok"] and sdf_reference(sdf)["diagnostics"] == []
    through = load(str(sdf), Context())
    assert drake_order(through.document.model.links[0].inertial) == DRAKE_SDF
    back = convert_sdf(through, ToUrdf())
    assert back.ok and back.diagnostics == []
    assert dict(etree.fromstring(back.xml).find("link/inertial/inertia").attrib) == AS_WRITTEN
    assert "  restored: urdf: elements given back as URDF (1)" in back.report.lines()
    urdf = tmp_path / "back.urdf"
    urdf.write_bytes(back.xml)
    # diff: the round trip is the source; the SDF differs from it by the repair, for Gazebo
    assert diff_results(source, load(str(urdf), Context())) == []
    causes = [d.format() for d in diff_results(source, through) if d.role == "cause"]
    assert len(causes) == 1 and causes[0].startswith("link link_11.0: inertia ixx 4.70125e-06 ->")


def test_roundtrip_says_a_repaired_inertia_survives(monkeypatch, capsys):
    assert run_roundtrip(monkeypatch, REPAIRED) == 0
    assert capsys.readouterr().out.strip().endswith(
        "urdf_inertia_repaired_comes_back_as_written.urdf survives urdf2sdf | sdf2urdf")


def test_an_inertia_edited_in_the_sdf_comes_back_as_edited_and_diff_sees_it():
    """An SDF whose tensor was edited after urdf2sdf (the record no longer matching) comes
    back as edited, with a warning, and diff names the edit."""
    original = load(str(REPAIRED), Context())
    sdf = convert_urdf(original, ToSdf()).xml.replace(b"<izz>5.1189760640675865e-06</izz>",
                                                      b"<izz>5.2e-06</izz>")
    back = convert_sdf(load_string(sdf, str(REPAIRED.with_suffix(".sdf")), Context()), ToUrdf())
    assert [d.code for d in back.diagnostics] == [Code.LINK_INERTIA_RECORD_DROPPED]
    assert "  dropped: LINK_INERTIA_RECORD_DROPPED (1)" in back.report.lines()
    returned = load_string(back.xml, str(REPAIRED.with_suffix(".back.urdf")), Context())
    (cause,) = [d for d in diff_results(original, returned) if d.role == "cause"]
    assert "izz 4.70125e-06 -> 5.2e-06" in cause.format()


def test_model_and_package_directories_and_batches_keep_the_inertia_as_written(tmp_path):
    """urdf2sdf --model-dir, then sdf2urdf --package-dir; a folder of URDFs converted in one
    batch and back."""
    model = tmp_path / "allegro"
    assert CliRunner().invoke(urdf2sdf_app, [str(REPAIRED), "--model-dir", str(model)]) \
        .exit_code == 0
    package = tmp_path / "allegro_description"
    result = CliRunner().invoke(sdf2urdf_app, [str(model), "--package-dir", str(package)])
    assert result.exit_code == 0, result.output
    (urdf,) = package.rglob("*.urdf")
    assert dict(etree.parse(str(urdf)).find("link/inertial/inertia").attrib) == AS_WRITTEN
    sources, sdfs, urdfs = tmp_path / "urdf", tmp_path / "sdf", tmp_path / "back"
    sources.mkdir()
    shutil.copy(REPAIRED, sources / "a.urdf")
    shutil.copy(REPAIRED, sources / "b.urdf")
    assert CliRunner().invoke(urdf2sdf_app, [str(sources), "-o", str(sdfs)]).exit_code == 0
    assert CliRunner().invoke(sdf2urdf_app, [str(sdfs), "-o", str(urdfs)]).exit_code == 0
    written = sorted(urdfs.rglob("*.urdf"))
    assert [path.name for path in written] == ["a.urdf", "b.urdf"]
    for path in written:
        assert dict(etree.parse(str(path)).find("link/inertial/inertia").attrib) == AS_WRITTEN


# A moment or product of inertia as files write it: a few digits or many, plain or with an
# exponent, from 1e-9 to 10 (what real links hold), of either sign.
NUMBER_FORMATS = ("{:.3g}", "{:.6e}", "{!r}", "{:.12f}", "{:.4E}")
moment_texts = st.builds(lambda mantissa, exponent, form: form.format(mantissa * 10.0 ** exponent),
                         st.floats(-1, 1), st.integers(-9, 1), st.sampled_from(NUMBER_FORMATS))
# A tensor: its products often zero (a diagonal tensor breaking the triangle inequality, or
# with a negative moment), else random (mostly not positive semi-definite).
tensor_texts = st.fixed_dictionaries(
    {key: moment_texts if key[1] == key[2] else st.one_of(st.sampled_from(["0", "0.0"]),
                                                            moment_texts)
     for key in INERTIA_KEYS})


def urdf_with_inertia(texts: dict[str, str]) -> bytes:
    attributes = " ".join(f'{key}="{text}"' for key, text in texts.items())
    return f'<robot name="r"><link name="l"><inertial><mass value="1"/><inertia {attributes}/>' \
        "</inertial></link></robot>".encode()


def invalid_inertia_urdf(texts: dict[str, str], relative: bool):
    """The SDF urdf2sdf writes of a link whose inertia ``texts`` libsdformat refuses (the
    example is rejected for a valid one)."""
    source = load_string(urdf_with_inertia(texts), "random.urdf", Context())
    assert source.ok, [d.format() for d in source.diagnostics]
    assume(Code.LINK_INERTIA_INVALID in [d.code for d in source.diagnostics])
    to_sdf = convert_urdf(source, ToSdf(relative=relative))
    assert to_sdf.ok and [d.code for d in to_sdf.diagnostics] == [Code.LINK_INERTIA_REPAIRED]
    return to_sdf.xml


def back_to_urdf(sdf: bytes):
    back = convert_sdf(load_string(sdf, "random.sdf", Context()), ToUrdf())
    assert back.ok, [d.format() for d in back.diagnostics]
    return back, etree.fromstring(back.xml).find("link/inertial/inertia")


@settings(max_examples=examples(100), deadline=None)
@given(tensor_texts, st.booleans())
def test_random_invalid_inertias_come_back_as_written(texts, relative):
    back, inertia = back_to_urdf(invalid_inertia_urdf(texts, relative))
    assert dict(inertia.attrib) == texts
    assert back.diagnostics == []


@settings(max_examples=examples(100), deadline=None)
@given(tensor_texts, st.one_of(st.floats(0.5, 0.999), st.floats(1.001, 2)))
def test_an_edited_sdf_inertia_is_never_replaced_by_the_record(texts, factor):
    """The SDF's tensor scaled (a valid tensor still, but no longer the repair): the URDF
    gets the SDF's numbers, never the record's."""
    sdf = etree.fromstring(invalid_inertia_urdf(texts, False))
    moments = sdf.find("model/link/inertial/inertia")
    assume(any(float(moment.text) != 0 for moment in moments))
    for moment in moments:
        moment.text = repr(float(moment.text) * factor)
    back, inertia = back_to_urdf(etree.tostring(sdf))
    assert {key: float(inertia.get(key)) for key in INERTIA_KEYS} == \
        {moment.tag: float(moment.text) for moment in moments}
    assert [d.code for d in back.diagnostics] == [Code.LINK_INERTIA_RECORD_DROPPED]
