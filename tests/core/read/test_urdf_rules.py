"""``core.read.urdf``: URDF content read as every consumer reads it, carried or named with a
code, never lost without a word.

Each fixture is named for its rule and reduced from a real robot file; the expected
values are what the consumers (Drake, urdfdom's ``check_urdf``, libsdformat 12) read.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from urdf_sdf import Context, load
from urdf_sdf.cli.main import urdf2sdf_app
from urdf_sdf.core.base.custom import qname
from urdf_sdf.core.base.diagnostics import Code, Severity
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.core.read.prefixes import UNDECLARED_URI
from urdf_sdf.round_trip_check import round_trip as round_trip_check
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "urdf"


def codes(diagnostics) -> dict[Code, Severity]:
    return {d.code: d.severity for d in diagnostics}


def round_trip(path: Path, tmp_path: Path):
    """URDF -> SDF -> URDF: the SDF conversion, the URDF conversion and the URDF file."""
    to_sdf = convert_urdf(load(path, Context()), ToSdf())
    assert to_sdf.ok, to_sdf.diagnostics
    sdf = tmp_path / f"{path.stem}.sdf"
    sdf.write_bytes(to_sdf.xml)
    to_urdf = convert_sdf(load(sdf, Context()), ToUrdf())
    assert to_urdf.ok, to_urdf.diagnostics
    urdf = tmp_path / f"{path.stem}.back.urdf"
    urdf.write_bytes(to_urdf.xml)
    return to_sdf, to_urdf, urdf


# ---- item: an inertial with a mass and no inertia ------------------------------------------

def test_inertial_without_inertia_is_a_point_mass_as_drake_reads_it():
    path = FIXTURES / "urdf_inertial_mass_without_inertia_is_point_mass.urdf"
    result = load(path, Context())
    assert result.ok
    assert codes(result.diagnostics) == {Code.URDF_INERTIA_MISSING: Severity.WARNING}
    inertial = result.document.model.links[0].inertial
    # Drake: mass 2.5, centre of mass (0, 0, 0.1), a zero inertia tensor
    assert inertial.mass == 2.5
    assert inertial.pose.value.position == (0.0, 0.0, 0.1)
    assert (inertial.ixx, inertial.iyy, inertial.izz, inertial.ixy, inertial.ixz,
            inertial.iyz) == (0.0,) * 6


def test_inertial_without_inertia_converts_and_comes_back_with_the_same_mass(tmp_path):
    path = FIXTURES / "urdf_inertial_mass_without_inertia_is_point_mass.urdf"
    to_sdf, _, back = round_trip(path, tmp_path)
    inertia = etree.fromstring(to_sdf.xml).find("model/link/inertial/inertia")
    assert [inertia.findtext(k) for k in ("ixx", "iyy", "izz")] == ["0", "0", "0"]
    assert not diff_files(path, back)


def test_fix_inertia_leaves_a_point_mass_alone():
    path = FIXTURES / "urdf_inertial_mass_without_inertia_is_point_mass.urdf"
    conversion = convert_urdf(load(path, Context()), ToSdf(fix_inertia=True))
    assert conversion.ok
    assert Code.LINK_INERTIA_REPAIRED not in codes(conversion.diagnostics)


# ---- item: undeclared namespace prefixes ---------------------------------------------------

def test_undeclared_prefix_is_declared_and_the_content_carried_both_ways(tmp_path):
    path = FIXTURES / "urdf_namespace_undeclared_drake_collision_filter.urdf"
    result = load(path, Context())
    assert result.ok
    assert codes(result.diagnostics) == {Code.XML_RECOVERED: Severity.WARNING,
                                         Code.NAMESPACE_UNDECLARED: Severity.WARNING,
                                         Code.URDF_ELEMENT_UNKNOWN: Severity.WARNING}
    said = [d.message for d in result.diagnostics if d.code is Code.URDF_ELEMENT_UNKNOWN]
    assert "<drake:collision_filter_group>" in said[0]
    to_sdf, _, back = round_trip(path, tmp_path)
    group = f"{{{UNDECLARED_URI}drake}}collision_filter_group"
    assert etree.fromstring(to_sdf.xml).find(f".//{group}") is not None
    robot = etree.parse(str(back)).getroot()
    members = robot.findall(f"{group}/{{{UNDECLARED_URI}drake}}member")
    assert [m.get("link") for m in members] == ["base", "left_finger"]
    assert not diff_files(path, back)


# ---- item: a mimic on a fixed joint --------------------------------------------------------

def test_mimic_on_a_fixed_joint_is_named_and_absent_for_diff(tmp_path):
    path = FIXTURES / "urdf_mimic_on_fixed_joint_ignored.urdf"
    result = load(path, Context())
    assert codes(result.diagnostics) == {Code.URDF_MIMIC_ON_FIXED_JOINT: Severity.WARNING}
    joints = {joint.name: joint for joint in result.document.model.joints}
    assert joints["gripper_left_fingertip_joint"].mimic is None
    _, _, back = round_trip(path, tmp_path)
    assert etree.parse(str(back)).getroot().find(".//mimic") is None
    assert not diff_files(path, back)


def test_diff_sees_no_mimic_on_a_fixed_joint_either_side(tmp_path):
    source = (FIXTURES / "urdf_mimic_on_fixed_joint_ignored.urdf").read_text()
    without = tmp_path / "without.urdf"
    without.write_text(source.replace(
        '<mimic joint="gripper_left_joint" multiplier="-1.0" offset="0.0"/>', ""))
    assert not diff_files(FIXTURES / "urdf_mimic_on_fixed_joint_ignored.urdf", without)


# ---- item: attributes URDF does not define -------------------------------------------------

def test_unknown_attributes_are_named_carried_in_the_sdf_and_given_back(tmp_path):
    path = FIXTURES / "urdf_attributes_unknown_carried.urdf"
    result = load(path, Context())
    said = [d.message for d in result.diagnostics if d.code is Code.URDF_ATTRIBUTE_UNKNOWN]
    assert len(said) == 4
    for name in ("[bar]", "[drake:foo]", "[zap]", "[drake:acceleration]"):
        assert any(name in message for message in said), name
    to_sdf, _, back = round_trip(path, tmp_path)
    drake = "{http://drake.mit.edu}"
    model = etree.fromstring(to_sdf.xml).find("model")
    assert model.find("link[@name='base_link']").get(qname("bar")) == "1"
    assert model.find("link[@name='shoulder_link']").get(f"{drake}foo") == "2"
    assert model.find("joint").get(qname("zap")) == "3"
    assert model.find("joint/axis/limit").get(f"{drake}acceleration") == "15"
    robot = etree.parse(str(back)).getroot()
    assert robot.find("link[@name='base_link']").get("bar") == "1"
    assert robot.find("link[@name='shoulder_link']").get(f"{drake}foo") == "2"
    assert robot.find("joint").get("zap") == "3"
    assert robot.find("joint/limit").get(f"{drake}acceleration") == "15"
    assert b"drake:acceleration" in back.read_bytes()  # the prefix Drake matches by name


def test_undeclared_prefix_on_a_limit_attribute_is_carried(tmp_path):
    path = FIXTURES / "urdf_namespace_undeclared_drake_collision_filter.urdf"
    source = path.read_text().replace('velocity="2"/>', 'velocity="2" drake:acceleration="3"/>')
    changed = tmp_path / "limit.urdf"
    changed.write_text(source)
    _, _, back = round_trip(changed, tmp_path)
    limit = etree.parse(str(back)).getroot().find("joint/limit")
    assert limit.get(f"{{{UNDECLARED_URI}drake}}acceleration") == "3"
    assert b"drake:acceleration" in back.read_bytes()


EVERY_ELEMENT = FIXTURES / "urdf_attributes_unknown_on_every_element.urdf"


def attribute_table(root) -> dict[str, dict[str, str]]:
    """Each element's attributes by its path of tags (``link[1]/visual[2]/geometry[1]``)."""
    table: dict[str, dict[str, str]] = {}

    def walk(el, path: str) -> None:
        counts: dict[str, int] = {}
        for child in el:
            if not isinstance(child.tag, str):
                continue
            counts[child.tag] = counts.get(child.tag, 0) + 1
            where = f"{path}/{child.tag}[{counts[child.tag]}]"
            if child.attrib:
                table[where] = dict(child.attrib)
            walk(child, where)
    walk(root, "")
    return table


@pytest.mark.parametrize("relative", [False, True])
def test_attributes_of_every_element_survive_urdf_to_sdf_and_back(tmp_path, relative):
    """Every attribute comes back on the element it was on, both pose styles; the
    round trip's diff is empty, and so is the diff of the URDF with its SDF."""
    result = load(EVERY_ELEMENT, Context())
    said = [d for d in result.diagnostics if d.code is Code.URDF_ATTRIBUTE_UNKNOWN]
    assert len(said) == 22  # one per attribute
    to_sdf = convert_urdf(result, ToSdf(relative=relative))
    assert to_sdf.ok, to_sdf.diagnostics
    sdf = tmp_path / "every.sdf"
    sdf.write_bytes(to_sdf.xml)
    to_urdf = convert_sdf(load(sdf, Context()), ToUrdf())
    assert to_urdf.ok, to_urdf.diagnostics
    assert not [d for d in to_urdf.diagnostics if d.code is Code.SDF_ATTRIBUTE_DROPPED]
    back = tmp_path / "every.back.urdf"
    back.write_bytes(to_urdf.xml)
    original = attribute_table(etree.parse(str(EVERY_ELEMENT)).getroot())
    returned = attribute_table(etree.parse(str(back)).getroot())
    assert returned == original
    assert diff_files(str(EVERY_ELEMENT), str(sdf)) == []
    assert diff_files(str(EVERY_ELEMENT), str(back)) == []
    assert round_trip_check(EVERY_ELEMENT).ok


def test_attributes_of_every_element_survive_a_model_directory(tmp_path):
    out = tmp_path / "models" / "ur5e"
    ran = CliRunner().invoke(urdf2sdf_app, [str(EVERY_ELEMENT), "--model-dir", str(out)])
    assert ran.exit_code == 0, ran.output
    assert diff_files(str(EVERY_ELEMENT), str(out / "model.sdf")) == []
    to_urdf = convert_sdf(load(out / "model.sdf", Context()), ToUrdf())
    back = tmp_path / "back.urdf"
    back.write_bytes(to_urdf.xml)
    assert diff_files(str(EVERY_ELEMENT), str(back)) == []
    limit = etree.parse(str(back)).getroot().find("joint/limit")
    assert limit.get("{http://drake.mit.edu}acceleration") == "15"
