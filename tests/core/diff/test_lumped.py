"""``urdf-sdf diff --lumped`` (``core.diff.lumped``): a ``--lump-fixed`` output against its
source, per rigid group.

The fixture is the hand of a real Kinova j2s6s200 (``tests/fixtures/diff/lumped_rigid_group.urdf``):
the hand link and four finger links on fixed joints, lumped by ``urdf2sdf --lump-fixed``
into ``lumped_rigid_group.sdf``. The expected group numbers are Drake's: its reading of
each source body's inertial (``drake_oracle.py --json``), summed in the hand link's frame
with the parallel axis theorem outside this code; Drake's reading of the lumped SDF gives
the same numbers to 1e-17. Each ``lumped_wrong_*`` / ``lumped_missing_frame`` fixture is the
correct output with one thing broken, found by its own test.
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from typer.testing import CliRunner

from urdf_sdf import json_schema
from urdf_sdf.api import to_sdf, to_urdf
from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import describe, diff_files, reference_frames
from urdf_sdf.core.diff.lumped import find_lumps, group_inertials
from urdf_sdf.core.kinematics.batch import forward_compact
from urdf_sdf.core.loader import load

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "diff"
SOURCE = FIXTURES / "lumped_rigid_group.urdf"
LUMPED = FIXTURES / "lumped_rigid_group.sdf"
HAND = "j2s6s200_link_6"
FINGERS = ["j2s6s200_link_finger_1", "j2s6s200_link_finger_tip_1", "j2s6s200_link_finger_2",
           "j2s6s200_link_finger_tip_2"]

# Drake 1.x on lumped_rigid_group.urdf: the five bodies' inertials summed in the hand's
# frame (about the group's centre of mass).
DRAKE_MASS = 1.03
DRAKE_CENTRE = [-9.708737864078152e-05, 0.0, -0.06311563363782884]
DRAKE_TENSOR = [[0.0007916006852657271, 0.0, -7.711193253626793e-06],
                [0.0, 0.0006020465870755472, 0.0],
                [-7.711193253626793e-06, 0.0, 0.0007776346554344518]]


def lumped_diff(a: Path, b: Path, lumped: bool = True):
    return diff_files(str(a), str(b), context=Context(), lumped=lumped)


def digest_and_frames(path: Path):
    digest = describe(load(str(path), Context()))
    links = forward_compact([digest.plan], [{}])[0]
    bodies, _ = reference_frames(digest, links, digest.roots[0])
    return digest, bodies


def test_a_correct_lump_compares_equal_in_either_order():
    assert lumped_diff(SOURCE, LUMPED) == []
    assert lumped_diff(LUMPED, SOURCE) == []


def test_the_relative_pose_style_output_compares_equal_too(tmp_path):
    relative = tmp_path / "hand.relative.sdf"
    relative.write_bytes(to_sdf(str(SOURCE), lump_fixed=True, relative=True,
                                context=Context()).xml)
    assert lumped_diff(SOURCE, relative) == []


def test_sdf2urdfs_reading_of_the_lumped_output_compares_as_the_output(tmp_path):
    """sdf2urdf gives each lumped link's frame back as a massless link: it stands for the
    frame, and the group is still found (and a wrong sum too)."""
    back, wrong = tmp_path / "back.urdf", tmp_path / "wrong.urdf"
    back.write_bytes(to_urdf(str(LUMPED), context=Context()).xml)
    wrong.write_bytes(to_urdf(str(FIXTURES / "lumped_wrong_mass.sdf"), context=Context()).xml)
    assert lumped_diff(SOURCE, back) == []
    assert lumped_diff(back, SOURCE) == []
    assert only(lumped_diff(SOURCE, wrong), "mass").name == HAND


def test_the_group_sum_is_drakes():
    digest, bodies = digest_and_frames(SOURCE)
    mass, centre, tensor, present = group_inertials([[HAND, *FINGERS]], digest, bodies)
    assert present == [True]
    assert mass[0] == pytest.approx(DRAKE_MASS, abs=1e-15)
    assert np.abs(centre[0] - DRAKE_CENTRE).max() < 1e-15
    assert np.abs(tensor[0] - DRAKE_TENSOR).max() < 1e-15


def test_the_groups_are_the_links_the_other_side_lacks():
    source, lumped = describe(load(str(SOURCE), Context())), describe(load(str(LUMPED),
                                                                            Context()))
    sides = find_lumps(source, lumped).sides
    assert sides[0].groups == {HAND: [HAND, *FINGERS]}
    assert sides[0].kept == dict.fromkeys(FINGERS, HAND)
    assert set(sides[0].joints) == {"j2s6s200_joint_finger_1", "j2s6s200_joint_finger_tip_1",
                                    "j2s6s200_joint_finger_2", "j2s6s200_joint_finger_tip_2"}
    # The massless end-effector tool frame is compared as plain diff compares it.
    assert "j2s6s200_end_effector" not in sides[0].kept
    assert sides[1].groups == {} and sides[1].kept == {}


def only(differences, prop: str):
    assert [(d.kind, d.property, d.role) for d in differences] == [("lumped", prop, "cause")]
    return differences[0]


def test_a_wrong_mass_is_found():
    found = only(lumped_diff(SOURCE, FIXTURES / "lumped_wrong_mass.sdf"), "mass")
    assert found.name == HAND
    assert found.message.startswith("mass 1.03 kg in A, 1.01 kg in B (differs by 0.02 kg;")


def test_a_wrong_centre_of_mass_is_found():
    found = only(lumped_diff(SOURCE, FIXTURES / "lumped_wrong_centre_of_mass.sdf"),
                 "centre of mass")
    assert found.name == HAND
    # 0.06311563363782884 - 0.06, in the hand's frame
    assert "moved 0.00312 m; in link j2s6s200_link_6's frame" in found.message


def test_a_wrong_inertia_is_found():
    found = only(lumped_diff(SOURCE, FIXTURES / "lumped_wrong_inertia.sdf"), "inertia")
    assert found.name == HAND
    # Drake's ixx 0.0007916006852657271 against the hand's own 0.0003453236187
    assert "differs by up to 0.000446 kg m^2: ixx 0.000791601 -> 0.000345324 kg m^2" \
        in found.message


def test_a_missing_frame_is_found():
    found = only(lumped_diff(SOURCE, FIXTURES / "lumped_missing_frame.sdf"), "frame")
    assert found.name == "j2s6s200_link_finger_tip_1"
    assert found.message == ("link j2s6s200_link_finger_tip_1, lumped into j2s6s200_link_6, "
                             "has no frame of its name in B")


def test_a_lumped_frame_elsewhere_is_a_pose_difference(tmp_path):
    text = LUMPED.read_text()
    frame = ('<pose relative_to="j2s6s200_link_6">-0.0025 -0.03095 -0.11482 -1.570796327 '
             '.649262481663582 -1.57079632679490</pose>')
    assert text.count(frame) == 2  # the joint's frame, then the link's
    moved = tmp_path / "moved.sdf"
    moved.write_text(text.replace(frame, frame.replace("-0.11482", "-0.12482")))
    names = {d.name for d in lumped_diff(SOURCE, moved)}
    assert names == {"j2s6s200_joint_finger_2", "j2s6s200_link_finger_2"}


def test_a_lumped_shape_left_out_is_found(tmp_path):
    text = LUMPED.read_text()
    start = text.index('      <visual name="j2s6s200_link_6_fixed_joint_lump__'
                       'j2s6s200_link_finger_2_visual_3">')
    end = text.index("</visual>", start) + len("</visual>\n")
    dropped = tmp_path / "dropped.sdf"
    dropped.write_text(text[:start] + text[end:])
    found = only(lumped_diff(SOURCE, dropped), "visuals count")
    assert found.message.startswith("4 visuals in A, 3 in B")


def test_without_lumped_the_lumped_output_differs_as_before():
    messages = [d.format() for d in lumped_diff(SOURCE, LUMPED, lumped=False)]
    assert "joints j2s6s200_joint_finger_1: only in A" in messages
    assert "inertial j2s6s200_link_6: mass 0.99 kg in A, 1.03 kg in B" in messages
    assert not any(message.startswith("lumped") for message in messages)


@pytest.mark.parametrize("pair", [("arm6.urdf", "arm6.sdf"), ("diff_drive.urdf",
                                                               "diff_drive.sdf")])
def test_an_unlumped_pair_compares_as_without_lumped(pair):
    a, b = (ROOT / "samples" / name for name in pair)
    assert lumped_diff(a, b) == lumped_diff(a, b, lumped=False) == []


def test_an_edited_unlumped_pair_finds_the_same_differences():
    a, b = FIXTURES / "cause_one_rpy_edit.urdf", FIXTURES / "cause_one_rpy_edit.edited.urdf"
    plain = lumped_diff(a, b, lumped=False)
    assert plain and lumped_diff(a, b) == plain


def run(*args: str):
    return CliRunner().invoke(app, ["diff", "--lumped", *args])


def test_the_command_exits_as_diff_does():
    assert run(str(SOURCE), str(LUMPED)).exit_code == 0
    different = run(str(SOURCE), str(FIXTURES / "lumped_wrong_mass.sdf"))
    assert different.exit_code == 1
    assert different.stdout.splitlines()[0].startswith("lumped j2s6s200_link_6: mass 1.03 kg")
    assert run(str(SOURCE), str(FIXTURES / "no_such_file.sdf")).exit_code == 3


def test_the_json_follows_its_schema():
    result = run(str(SOURCE), str(FIXTURES / "lumped_missing_frame.sdf"), "--json")
    assert result.exit_code == 1
    output = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json_schema("diff")).validate(output)
    assert output["differences"] == [{
        "kind": "lumped", "name": "j2s6s200_link_finger_tip_1", "property": "frame",
        "role": "cause", "message": "link j2s6s200_link_finger_tip_1, lumped into "
                                    "j2s6s200_link_6, has no frame of its name in B"}]


LOOP = """<sdf version="1.9"><model name="m">
<link name="a"><inertial><mass>1</mass></inertial></link>
<link name="b"><inertial><mass>1</mass></inertial></link>
<link name="c"><inertial><mass>1</mass></inertial></link>
<joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>
<joint name="bc" type="fixed"><parent>b</parent><child>c</child></joint>
<joint name="cb" type="fixed"><parent>c</parent><child>b</child></joint>
</model></sdf>"""
ALONE = ('<robot name="m"><link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
         'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>')


def test_links_on_a_loop_of_fixed_joints_are_not_lumped(tmp_path):
    """No link on a loop of fixed joints has an ancestor to be lumped into: each is
    compared as plain diff compares it, never counted as a group of its own loop."""
    loop, alone = tmp_path / "loop.sdf", tmp_path / "alone.urdf"
    loop.write_text(LOOP)
    alone.write_text(ALONE)
    sides = find_lumps(describe(load(str(loop), Context())),
                       describe(load(str(alone), Context()))).sides
    assert (sides[0].kept, sides[0].joints, sides[0].groups) == ({}, {}, {})
    found = {(d.kind, d.name, d.message) for d in lumped_diff(loop, alone)}
    assert found == {("links", "b", "only in A"), ("links", "c", "only in A"),
                     ("joints", "ab", "only in A"), ("joints", "bc", "only in A"),
                     ("joints", "cb", "only in A")}
