"""``core.diff.causes``: a difference is traced to the edit of an element's own values
upstream of it, named in the file's terms; everything that follows from it is dependent.

The expected numbers are Drake's reading of the fixtures (``drake_oracle.py``): in
``cause_one_rpy_edit.edited.urdf`` wrist_1_link sits at (-0.748697, -0.221453, 0.1333) m,
forearm_link's centre of mass at (-0.586848, -0.110726, 0.007) m and its inertia tensor
moves by up to 0.0126 kg m^2 (its xy product).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.core.diff.difference import CAUSE, DEPENDENT
from urdf_sdf.core.diff.report import summary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "diff"
SOURCE = FIXTURES / "cause_one_rpy_edit.urdf"
ELBOW = '<origin rpy="0 0 0" xyz="-0.425 0 0"/>'


def edited(tmp_path: Path, *replacements: tuple[str, str]) -> str:
    text = SOURCE.read_text()
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "edited.urdf"
    path.write_text(text)
    return str(path)


def causes(differences) -> list[str]:
    return [d.format() for d in differences if d.role == CAUSE]


def test_one_rpy_edit_is_one_cause_and_its_consequences():
    differences = diff_files(str(SOURCE), str(FIXTURES / "cause_one_rpy_edit.edited.urdf"),
                             context=Context())
    assert causes(differences) == [
        "joint elbow_joint: origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)"]
    assert differences[0].property == "origin"
    dependents = differences[1:]
    assert summary(differences) == "1 cause, 9 dependent differences"
    assert all(d.role == DEPENDENT and d.causes == (0,) for d in dependents)
    by_name = {(d.kind, d.name, d.property): d.message for d in dependents}
    assert "xyz [-0.748697, -0.221453, 0.1333] m rpy [0, 0, 34.3775] deg" in \
        by_name["pose", "wrist_1_link", "pose"]
    assert by_name["inertial", "forearm_link", "centre of mass"].startswith(
        "centre of mass [-0.6211, 0, 0.007] m in A, [-0.586848, -0.110726, 0.007] m in B")
    assert by_name["inertial", "forearm_link", "inertia"] == \
        "inertia tensor differs by up to 0.0126 kg m^2 (in the reference frame)"
    assert {("geometry", "forearm_link", "visuals"), ("geometry", "wrist_1_link", "visuals"),
            ("pose", "joint wrist_1_joint", "pose")} <= set(by_name)


def test_a_moved_origin_says_how_far_in_metres(tmp_path):
    differences = diff_files(str(SOURCE), edited(tmp_path, (ELBOW, ELBOW.replace(
        "-0.425", "-0.4"))))
    assert causes(differences) == [
        "joint elbow_joint: origin xyz -0.425 0 0 -> -0.4 0 0 m (moved 0.025 m)"]


def test_an_edited_inertial_origin_is_its_own_cause(tmp_path):
    written = '<mass value="1.219"/>\n      <origin rpy="0 0 0" xyz="0 0 0"/>'
    differences = diff_files(str(SOURCE), edited(tmp_path, (written, written.replace(
        'xyz="0 0 0"', 'xyz="0 0 0.01"'))))
    assert causes(differences) == [
        "link wrist_1_link: inertial origin xyz 0 0 0 -> 0 0 0.01 m (moved 0.01 m)"]
    assert [(d.kind, d.property, d.causes) for d in differences[1:]] == \
        [("inertial", "centre of mass", (0,))]


def test_a_mass_is_a_cause_as_it_is(tmp_path):
    differences = diff_files(str(SOURCE), edited(tmp_path, ('<mass value="2.275"/>',
                                                            '<mass value="2.5"/>')))
    assert causes(differences) == ["inertial forearm_link: mass 2.275 kg in A, 2.5 kg in B"]
    assert len(differences) == 1


def test_two_edits_are_two_causes_each_with_its_own_dependents(tmp_path):
    differences = diff_files(str(SOURCE), edited(
        tmp_path, (ELBOW, ELBOW.replace('rpy="0 0 0"', 'rpy="0 0 0.6"')),
        ('<inertia ixx="0.0025598989760400002"', '<inertia ixx="0.003"')))
    assert causes(differences) == [
        "joint elbow_joint: origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)",
        "link wrist_1_link: inertia ixx 0.0025599 -> 0.003 kg m^2"]
    tensor = next(d for d in differences if d.name == "wrist_1_link" and d.property == "inertia"
                  and d.role == DEPENDENT)
    assert tensor.causes == (0, 1)  # turned by the joint, and edited itself


def test_an_axis_edited_in_its_joint_frame(tmp_path):
    differences = diff_files(str(SOURCE), edited(tmp_path, (
        '<child link="wrist_1_link"/>\n    <origin rpy="0 0 0" xyz="-0.3922 0 0.1333"/>\n'
        '    <axis xyz="0 0 1"/>', '<child link="wrist_1_link"/>\n    <origin rpy="0 0 0" '
        'xyz="-0.3922 0 0.1333"/>\n    <axis xyz="0 1 0"/>')))
    assert causes(differences) == [
        "joint wrist_1_joint: axis 0 0 1 -> 0 1 0 (in the joint frame; turned 90 deg)"]
    assert all(d.causes == (0,) for d in differences[1:])
    assert {d.kind for d in differences[1:]} == {"joints", "pose"}  # axis, poses when moved


def test_a_limit_names_its_unit(tmp_path):
    differences = diff_files(str(SOURCE), edited(tmp_path, ('effort="28.0"', 'effort="30"')))
    assert causes(differences) == ["joints wrist_1_joint: limit effort 28.0 N m in A, "
                                   "30.0 N m in B"]


@pytest.mark.parametrize("edit", ["absent", "written"])
def test_a_link_edited_in_sdf_terms(tmp_path, edit):
    """In an SDF the joint's frame is posed in its parent link's; a moved link moves
    what hangs on it (its frame) and nothing else."""
    text = """<sdf version="1.9"><model name="m">
  <link name="a"/>
  <link name="b"><pose>{pose}</pose>
    <inertial><mass>1</mass></inertial></link>
  <link name="c"><pose>1 0 0 0 0 0</pose></link>
  <joint name="ab" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <joint name="bc" type="revolute"><parent>b</parent><child>c</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""
    a, b = tmp_path / "a.sdf", tmp_path / "b.sdf"
    a.write_text(text.format(pose="0 0 0.5 0 0 0"))
    b.write_text(text.format(pose="0 0 0.6 0 0 0" if edit == "written" else "0 0 0.5 0 0 0"))
    differences = diff_files(str(a), str(b))
    if edit == "absent":
        assert differences == []
        return
    assert causes(differences) == [
        "joint ab: pose in the parent link xyz 0 0 0.5 -> 0 0 0.6 m (moved 0.1 m)"]
    assert {d.name for d in differences[1:]} >= {"b", "joint ab"}
    assert "c" not in {d.name for d in differences}  # posed in the model: it did not move
