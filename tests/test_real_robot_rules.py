"""Rules that real robot descriptions need, each on a fixture reduced from the robot that
showed it (``fixtures/realworld``, the robots named in each fixture's comment).

Physics and limits as each format means them, what every robot tool reads, and what the
SDF written must be for libsdformat and Drake to read it.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from typer.testing import CliRunner

from urdf_sdf.cli.main import app, sdf2urdf_app, urdf2sdf_app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.custom import qname
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import inertia_problem, principal_moments, repaired, tensor
from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.base.pose import pose_gap
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "realworld"


def to_sdf(path: Path, **options):
    conversion = convert_urdf(load(path, Context()), ToSdf(**options))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    return conversion


def to_urdf(path: Path, **options):
    conversion = convert_sdf(load(path, Context()), ToUrdf(**options))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    return conversion


def warnings(conversion, code: Code) -> list[str]:
    return [d.message for d in conversion.diagnostics if not d.is_error and d.code is code]


# ---- mass ------------------------------------------------------------------------------------

def test_urdf_link_without_inertial_is_massless_in_the_sdf():
    """URDF: a link without <inertial> has no mass. SDFormat: a link without one has mass 1;
    so the SDF states mass 0 and a zero inertia."""
    sdf = etree.fromstring(to_sdf(FIXTURES / "urdf_link_without_inertial_has_no_mass.urdf").xml)
    inertial = sdf.find("model/link[@name='base']/inertial")
    assert inertial is not None and inertial.get(qname("implicit")) == "true"
    assert inertial.findtext("mass") == "0"
    assert {c.text for c in inertial.find("inertia")} == {"0"}


def test_massless_urdf_link_round_trips_without_an_inertial(tmp_path):
    source = FIXTURES / "urdf_link_without_inertial_has_no_mass.urdf"
    sdf = tmp_path / "robot.sdf"
    sdf.write_bytes(to_sdf(source).xml)
    back = etree.fromstring(to_urdf(sdf).xml)
    assert back.find("link[@name='base']/inertial") is None
    assert diff_results(load(source), load_string(etree.tostring(back), "back.urdf")) == []


def test_diff_applies_each_formats_mass_default():
    """A massless URDF link and an SDF link without <inertial> (1 kg) are not the same."""
    urdf = load_string(b'<robot name="r"><link name="a"/></robot>', "r.urdf")
    sdf = load_string(b'<sdf version="1.9"><model name="r"><link name="a"/></model></sdf>',
                      "r.sdf")
    differences = diff_results(urdf, sdf)
    assert [(d.kind, d.name) for d in differences][:1] == [("inertial", "a")]
    assert "mass 0.0 kg in A, 1.0 kg in B" in differences[0].message


def test_sdf_link_without_inertial_weighs_one_kilogram_in_the_urdf():
    robot = etree.fromstring(to_urdf(FIXTURES /
                                     "sdf_link_without_inertial_weighs_one_kilogram.sdf").xml)
    for name in ("base", "arm"):
        inertial = robot.find(f"link[@name='{name}']/inertial")
        assert inertial.find("mass").get("value") == "1"
        inertia = inertial.find("inertia")
        assert [inertia.get(k) for k in ("ixx", "iyy", "izz", "ixy")] == ["1", "1", "1", "0"]


# ---- inertia ---------------------------------------------------------------------------------

BROKEN = Inertial(mass=2.0, ixx=1.0, iyy=1.0, izz=3.0, ixy=0.0, ixz=0.0, iyz=0.0)


def test_libsdformat_criterion_is_relative_to_the_tensor_size():
    """A tiny tensor that is barely non-positive is refused (an absolute 1e-6 tolerance would
    let it through); a tiny valid one is accepted."""
    tiny = Inertial(mass=1e-3, ixx=1e-9, iyy=1e-9, izz=2.5e-9, ixy=0.0, ixz=0.0, iyz=0.0)
    assert inertia_problem(tiny) is not None
    assert inertia_problem(Inertial(mass=1e-3, ixx=1e-9, iyy=1e-9, izz=2e-9)) is None
    assert inertia_problem(BROKEN) is not None


def test_repair_keeps_mass_and_axes_and_raises_the_smallest_moment():
    rotated = Inertial(mass=2.0, ixx=3.0, iyy=1.0, izz=1.0, ixy=0.0, ixz=0.0, iyz=0.5)
    for inertial in (BROKEN, rotated):
        fixed = repaired(inertial)
        assert fixed is not None and inertia_problem(fixed) is None
        assert fixed.mass == inertial.mass
        before, after = principal_moments(inertial), principal_moments(fixed)
        assert after[2] == pytest.approx(before[2], rel=1e-12)  # the largest stays
        # just enough: the triangle inequality with a margin of 1e-6 of the largest
        assert after[0] + after[1] == pytest.approx(after[2] * (1 + 1e-6), rel=1e-12)
        _, axes = np.linalg.eigh(tensor(inertial))
        in_old_axes = axes.T @ tensor(fixed) @ axes
        assert np.abs(in_old_axes - np.diag(np.diag(in_old_axes))).max() < 1e-12
    assert repaired(Inertial()) is None


def test_urdf_inertia_libsdformat_refuses_is_kept_with_a_warning(tmp_path):
    source = Path(__file__).resolve().parent / "fixtures" / "urdf2sdf" / "features" / \
        "inertia_triangle_inequality.urdf"
    loaded = load(source)
    assert loaded.ok
    [warning] = [d for d in loaded.diagnostics if d.code is Code.LINK_INERTIA_INVALID]
    assert not warning.is_error and "libsdformat refuses" in warning.message
    sdf = tmp_path / "palm.sdf"
    sdf.write_bytes(to_sdf(source, fix_inertia=False).xml)
    reread = load(sdf)  # our own marker: a warning, not the error a plain SDF gets
    assert reread.ok
    plain = sdf.read_text().replace(' urdf:inertia="invalid"', "")
    assert not load_string(plain, "plain.sdf").ok


# ---- limits and joints -----------------------------------------------------------------------

def test_revolute_joint_without_position_limits_becomes_continuous():
    source = FIXTURES / "sdf_revolute_without_limits_is_continuous.sdf"
    robot = etree.fromstring(to_urdf(source).xml)
    joint = robot.find("joint[@name='axle']")
    assert joint.get("type") == "continuous"
    assert joint.find("limit") is None


def test_not_enforced_rate_limits_are_written_as_1e16_with_a_warning():
    """SDF's -1 (and a missing value) mean no limit: URDF gets 1e+16, never a negative
    number (Drake aborts) nor 0 (Gazebo locks the joint); the axis is written normalised."""
    conversion = to_urdf(FIXTURES / "sdf_link_without_inertial_weighs_one_kilogram.sdf")
    limit = etree.fromstring(conversion.xml).find("joint[@name='hinge']/limit")
    assert (limit.get("effort"), limit.get("velocity")) == ("1e+16", "1e+16")
    assert (limit.get("lower"), limit.get("upper")) == ("-1", "1")
    assert len([m for m in warnings(conversion, Code.JOINT_LIMIT_DEFAULTED) if "1e+16" in m]) == 2
    axis = etree.fromstring(conversion.xml).find("joint[@name='hinge']/axis")
    assert axis.get("xyz") == "0 0 1"


def test_universal_joint_approximation_uses_axis2_for_the_second_joint():
    conversion = to_urdf(FIXTURES / "sdf_universal_approximated_with_both_axes.sdf",
                         approximate=True)
    robot = etree.fromstring(conversion.xml)
    axes = {j.get("name"): j.find("axis").get("xyz") for j in robot.findall("joint")}
    assert axes == {"gimbal": "1 0 0", "gimbal_2": "0 1 0"}


def test_link_inserted_by_approximate_has_the_documented_negligible_mass():
    """A massless inserted link is dropped by libsdformat 12 with its child (it read only
    [base]); with 0.001 kg and 1e-06 kg m^2 libsdformat and Drake both read base, gimbal_link
    and head at the origin, total mass 2.001 kg (the SDF's 2 kg + 0.001)."""
    conversion = to_urdf(FIXTURES / "sdf_universal_approximated_with_both_axes.sdf",
                         approximate=True)
    robot = etree.fromstring(conversion.xml)
    inertial = robot.find("link[@name='gimbal_link']/inertial")
    assert inertial.find("mass").get("value") == "0.001"
    assert dict(inertial.find("inertia").attrib) == {
        "ixx": "1e-06", "ixy": "0", "ixz": "0", "iyy": "1e-06", "iyz": "0", "izz": "1e-06"}
    masses = [float(m.get("value")) for m in robot.iter("mass")]
    assert sum(masses) == pytest.approx(2.001)
    [warning] = warnings(conversion, Code.LINK_MASS_ADDED)
    assert "[gimbal_link]" in warning and "0.001 kg" in warning


def test_lower_limit_above_upper_is_kept_as_written_with_a_warning(tmp_path):
    """URDF does not forbid lower > upper and its readers disagree (urdfdom reads it,
    pybullet means "no limit", libsdformat swaps the two, Drake refuses the joint): the
    numbers go through both conversions unchanged, named in a warning."""
    conversion = to_sdf(FIXTURES / "urdf_limit_lower_above_upper_kept.urdf")
    [warning] = [d for d in conversion.diagnostics if d.code is Code.URDF_LIMIT_INVALID]
    assert not warning.is_error and warning.line == 12 and "[x_to_world]" in warning.message
    limit = etree.fromstring(conversion.xml).find("model/joint/axis/limit")
    assert (limit.findtext("lower"), limit.findtext("upper")) == ("1", "-1")
    sdf = tmp_path / "cube.sdf"
    sdf.write_bytes(conversion.xml)
    back = etree.fromstring(to_urdf(sdf).xml).find("joint/limit")
    assert (back.get("lower"), back.get("upper")) == ("1", "-1")


def test_joint_to_undeclared_world_is_read_as_the_world(tmp_path):
    loaded = load(FIXTURES / "urdf_joint_to_undeclared_world.urdf")
    assert loaded.ok
    assert any("read as the world" in d.message for d in loaded.diagnostics)
    assert loaded.pose("base").position == (0.0, 0.0, 1.0)
    sdf = tmp_path / "welded.sdf"
    sdf.write_bytes(to_sdf(FIXTURES / "urdf_joint_to_undeclared_world.urdf").xml)
    assert load(sdf).attached_link("base") == "base"
    assert etree.parse(str(sdf)).find("model/joint/parent").text == "world"


# ---- what every robot tool reads -------------------------------------------------------------

def test_geometry_with_an_extra_child_and_a_four_number_scale():
    loaded = load(FIXTURES / "urdf_geometry_with_extra_child.urdf")
    assert loaded.ok
    messages = [d.message for d in loaded.diagnostics]
    assert any("only the first is read" in m for m in messages)
    assert any("the first three are the scale" in m for m in messages)
    [visual] = loaded.document.model.links[0].visuals
    assert visual.geometry.kind == "mesh" and visual.geometry.scale == (1.0, 1.0, 1.0)
    sdf = etree.fromstring(to_sdf(FIXTURES / "urdf_geometry_with_extra_child.urdf").xml)
    assert sdf.findtext(".//mesh/scale") == "1 1 1"


# ---- <gazebo> content valid in the version written -------------------------------------------

def test_gazebo_classic_imu_noise_is_written_per_axis():
    conversion = to_sdf(FIXTURES / "urdf_gazebo_imu_noise_gazebo_classic.urdf")
    imu = etree.fromstring(conversion.xml).find(".//sensor/imu")
    assert imu.find("noise") is None
    for group, mean in (("angular_velocity", "0.0"), ("linear_acceleration", "0.1")):
        for axis in "xyz":
            noise = imu.find(f"{group}/{axis}/noise")
            assert noise.get("type") == "gaussian" and noise.findtext("mean") == mean
    assert imu.findtext("linear_acceleration/z/noise/bias_mean") == "0.1"
    assert any("angular_velocity and linear_acceleration" in m
               for m in warnings(conversion, Code.GAZEBO_LEGACY_TRANSLATED))


def test_gazebo_tag_sdformat_does_not_define_is_kept_as_custom_content():
    conversion = to_sdf(FIXTURES / "urdf_gazebo_classic_tag_kept.urdf")
    joint = etree.fromstring(conversion.xml).find("model/joint[@name='shoulder']")
    assert joint.find("stopKd") is None
    assert joint.find(f"{qname('gazebo')}/{qname('stopKd')}") is not None
    assert any("<stopKd>" in m and "kept as <urdf:gazebo>" in m
               for m in warnings(conversion, Code.GAZEBO_ELEMENT_UNDEFINED))


def test_xacro_markup_in_a_urdf_is_an_error_naming_it():
    for name in ("urdf_xacro_not_expanded.urdf", "urdf_xacro_expression_not_expanded.urdf"):
        loaded = load(Path(__file__).resolve().parent / "fixtures" / "urdf" / name)
        [error] = [d for d in loaded.diagnostics if d.is_error]
        assert error.code is Code.XACRO_NOT_EXPANDED and "run" not in error.message.split()[:1]
        assert error.line is not None and "xacro" in error.message


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("markup", [
    '<link name="a"><visual><geometry><box size="&#36;{s} 1 1"/></geometry></visual></link>',
    '<x:property xmlns:x="http://www.ros.org/wiki/&#120;acro" name="s" value="1"/>'
    '<link name="a"/>',
    '<link name="a"/><x:macro xmlns:x="http://www.ros.org/wiki/xacro" name="m"/>',
])
def test_xacro_markup_is_found_however_the_bytes_spell_it(markup, encoding):
    """The byte screen that spares most URDFs the tree search (no ``$``, ``xacro`` or
    character reference in UTF-8 bytes) lets no xacro markup through: written with a
    character reference, or in UTF-16 (where ``xacro`` is not those bytes)."""
    text = f'<?xml version="1.0" encoding="{encoding}"?><robot name="r">{markup}</robot>'
    loaded = load_string(text.encode(encoding))
    assert [d.code for d in loaded.diagnostics if d.is_error] == [Code.XACRO_NOT_EXPANDED]


# ---- nothing dropped: carried through SDF and given back -------------------------------------

def round_trip(path: Path, tmp_path: Path):
    """(URDF read back after urdf2sdf | sdf2urdf, the SDF conversion)."""
    sdf_conversion = to_sdf(path)
    sdf = tmp_path / f"{path.stem}.sdf"
    sdf.write_bytes(sdf_conversion.xml)
    return etree.fromstring(to_urdf(sdf).xml), sdf_conversion


def canonical(el) -> str:
    """An element as text, whitespace-only text and tails (indentation) left out."""
    copy = etree.fromstring(etree.tostring(el))
    for node in copy.iter():
        node.tail = None
        if node.text is not None and not node.text.strip():
            node.text = None
    return etree.tostring(copy, method="c14n").decode()


def test_unknown_urdf_elements_are_warned_about_carried_and_given_back(tmp_path):
    source = FIXTURES / "urdf_unknown_elements_carried.urdf"
    original = etree.parse(str(source)).getroot()
    back, sdf_conversion = round_trip(source, tmp_path)
    said = " ".join(warnings(sdf_conversion, Code.URDF_ELEMENT_UNKNOWN))
    for tag in ("<orign>", "<contact>", "<sensor>", "rotor_inertia"):
        assert tag in said
    for path in ("link[@name='base']/orign", "link[@name='base']/contact", "sensor"):
        assert canonical(back.find(path)) == canonical(original.find(path)), path
    drake = "{http://drake.mit.edu}rotor_inertia"
    assert back.find(f"joint[@name='shoulder']/{drake}").get("value") == "0.01"
    sdf = etree.fromstring(sdf_conversion.xml)
    assert sdf.find(f"model/link/{qname('carried')}/{qname('orign')}") is not None  # custom


def test_drake_frame_extension_becomes_an_sdf_frame_and_comes_back(tmp_path):
    source = FIXTURES / "urdf_drake_frame_extension.urdf"
    loaded = load(source)
    assert loaded.pose("hand").position == (0.0, 0.0, -2.1)
    back, sdf_conversion = round_trip(source, tmp_path)
    frame = etree.fromstring(sdf_conversion.xml).find("model/frame[@name='hand']")
    assert frame.get("attached_to") == "lower_link"
    assert dict(back.find("frame").attrib) == {"name": "hand", "link": "lower_link",
                                               "xyz": "0 0 -2.1", "rpy": "0 0 0"}


def test_gazebo_content_sdf_cannot_hold_comes_back_as_the_same_block(tmp_path):
    source = FIXTURES / "urdf_gazebo_preserve_fixed_joint.urdf"
    back, _ = round_trip(source, tmp_path)
    [block] = back.findall("gazebo")
    assert block.get("reference") == "ft_joint"
    assert block.findtext("preserveFixedJoint") == "true"
    assert back.find("joint[@name='ft_joint']") is not None


# ---- SDF models that are not one tree ----------------------------------------------------------

def test_static_model_welds_every_root_link_to_world(tmp_path):
    source = FIXTURES / "sdf_static_model_several_links.sdf"
    conversion = to_urdf(source)
    robot = etree.fromstring(conversion.xml)
    welds = {j.find("child").get("link"): j for j in robot.findall("joint")}
    assert set(welds) == {"floor", "wall"}
    assert all(j.get("type") == "fixed" and j.find("parent").get("link") == "world"
               for j in welds.values())
    assert welds["wall"].find("origin").get("xyz") == "2 0 1"
    assert diff_results(load(source), load_string(conversion.xml, "room.urdf")) == []


def refusal(path: Path, **options):
    conversion = convert_sdf(load(path, Context()), ToUrdf(**options))
    assert not conversion.ok and conversion.xml is None
    return [d for d in conversion.diagnostics if d.is_error]


def test_model_with_several_trees_is_refused_naming_the_trees_and_the_options():
    """No URDF places free trees in every consumer (floating joints from world: libsdformat
    refuses them, Drake leaves the links at the origin; several roots: urdfdom refuses)."""
    [error] = refusal(FIXTURES / "sdf_model_several_trees_refused_or_welded.sdf")
    assert error.code is Code.URDF_SEVERAL_TREES and error.line == 8
    assert "root links finger1, finger2" in error.message
    assert all(option in error.message for option in ("<static>", "--approximate", "joint"))


def test_model_with_several_trees_is_welded_where_it_stands_under_approximate():
    """The poses libsdformat 12 and Drake both read from the welded URDF."""
    conversion = to_urdf(FIXTURES / "sdf_model_several_trees_refused_or_welded.sdf",
                         approximate=True)
    robot = etree.fromstring(conversion.xml)
    joints = {j.find("child").get("link"): (j.get("type"), j.find("parent").get("link"),
                                            j.find("origin").get("xyz"),
                                            j.find("origin").get("rpy"))
              for j in robot.findall("joint")}
    assert joints == {"finger1": ("fixed", "world", "0.1 0 0", "0 0 0"),
                      "finger2": ("fixed", "world", "-0.1 0 0", "0 0 2")}
    assert any("root links finger1, finger2" in m and "free motion is lost" in m
               for m in warnings(conversion, Code.WORLD_JOINT_ADDED))


def test_tree_beside_one_jointed_to_the_world_is_refused(tmp_path):
    source = tmp_path / "two.sdf"
    source.write_text('<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>'
                      '<joint name="pin" type="revolute"><parent>world</parent><child>a</child>'
                      '<axis><xyz>0 0 1</xyz></axis></joint></model></sdf>')
    [error] = refusal(source)
    assert error.code is Code.URDF_SEVERAL_TREES
    assert "root links b besides the tree jointed to world" in error.message


def test_all_models_refuse_a_free_model_merged_with_the_others():
    """--all-models: a free model beside others would hang from world on a floating joint,
    which libsdformat 12 refuses and Drake leaves at the origin: refused, naming the model,
    its root link and the options."""
    conversion = convert_sdf(load(FIXTURES / "sdf_world_all_models.sdf", Context()),
                             ToUrdf(all_models=True))
    assert conversion.xml is None
    [error] = [d for d in conversion.diagnostics if d.is_error]
    assert error.code is Code.URDF_SEVERAL_TREES and error.line == 13
    assert "model [rover] is free in its world (root link body)" in error.message
    assert "--model rover" in error.message and "--approximate" in error.message


def test_all_models_of_a_world_become_one_urdf_under_world(tmp_path):
    """--all-models --approximate: each model's links as MODEL::LINK where the world places
    them; a static model welded, a free model welded where it stands (named in a warning),
    a model's own world joint kept; the world's frames are named in a warning."""
    source = FIXTURES / "sdf_world_all_models.sdf"
    conversion = to_urdf(source, all_models=True, approximate=True)
    robot = etree.fromstring(conversion.xml)
    assert robot.get("name") == "arena"
    joints = {j.get("name"): (j.get("type"), j.find("parent").get("link"))
              for j in robot.findall("joint")}
    assert joints == {"ground::slab_static_weld": ("fixed", "world"),
                      "ground::wall_static_weld": ("fixed", "world"),
                      "rover::body_static_weld": ("fixed", "world"),
                      "rover::shoulder": ("revolute", "rover::body"),
                      "crane::anchor": ("fixed", "world")}
    assert any("model [rover] is free in its world: its root link [body] is welded" in m
               for m in warnings(conversion, Code.WORLD_JOINT_ADDED))
    assert [link.get("name") for link in robot.findall("link")][0] == "world"
    assert any("(spawn)" in m for m in warnings(conversion, Code.WORLD_CONTENT_DROPPED))
    urdf = tmp_path / "arena.urdf"
    urdf.write_bytes(conversion.xml)
    sdf, back = load(source), load(urdf)
    # Root links keep their frame; below a joint the URDF link frame is the joint frame.
    for frame in ("ground::slab", "ground::wall", "rover::body", "rover::shoulder",
                  "crane::mast"):
        gap = pose_gap(sdf.pose(frame), back.pose(frame))
        assert gap < 1e-12, (frame, gap)


def test_all_models_option_of_the_command_line(tmp_path):
    out = tmp_path / "arena.urdf"
    run = CliRunner().invoke(sdf2urdf_app, [str(FIXTURES / "sdf_world_all_models.sdf"),
                                            "--all-models", "--approximate", "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert len(etree.parse(str(out)).findall("joint")) == 5
    both = CliRunner().invoke(sdf2urdf_app, [str(FIXTURES / "sdf_world_all_models.sdf"),
                                             "--all-models", "--model", "rover"])
    assert both.exit_code == 2


def test_a_world_of_several_models_names_both_options():
    conversion = convert_sdf(load(FIXTURES / "sdf_world_all_models.sdf", Context()), ToUrdf())
    [error] = [d for d in conversion.diagnostics if d.is_error]
    assert error.code is Code.ELEMENT_MISSING and "--all-models" in error.message


# ---- meshes ------------------------------------------------------------------------------------

def test_relative_mesh_path_still_points_at_the_same_file_from_the_output_folder(tmp_path):
    """A relative mesh path is relative to the file that holds it: written into an output in
    another folder it is rewritten to reach the same file; on standard output it is kept."""
    package = tmp_path / "robot"
    (package / "urdf").mkdir(parents=True)
    (package / "meshes").mkdir()
    (package / "meshes" / "base.stl").write_bytes(b"solid base\nendsolid base\n")
    source = package / "urdf" / "robot.urdf"
    source.write_text('<robot name="r"><link name="base"><visual><geometry>'
                      '<mesh filename="../meshes/base.stl"/></geometry></visual></link></robot>')
    elsewhere = tmp_path / "out"
    elsewhere.mkdir()
    sdf = etree.fromstring(to_sdf(source, output_dir=str(elsewhere)).xml)
    uri = sdf.findtext(".//mesh/uri")
    assert (elsewhere / uri).resolve() == (package / "meshes" / "base.stl").resolve()
    assert etree.fromstring(to_sdf(source).xml).findtext(".//mesh/uri") == "../meshes/base.stl"
    assert etree.fromstring(to_sdf(source, output_dir=str(package / "urdf")).xml).findtext(
        ".//mesh/uri") == "../meshes/base.stl"
    for scheme in ("package://robot/meshes/base.stl", "/abs/base.stl"):
        source.write_text(f'<robot name="r"><link name="base"><visual><geometry><mesh '
                          f'filename="{scheme}"/></geometry></visual></link></robot>')
        assert etree.fromstring(to_sdf(source, output_dir=str(elsewhere)).xml).findtext(
            ".//mesh/uri") == scheme


def test_relative_file_uri_is_relocated_like_a_relative_path_keeping_its_form(tmp_path):
    """``file://meshes/visual/link0.dae`` (gym-ignition, pybullet robots) is a relative path
    too: written into another folder it is rewritten to reach the same file, in both
    directions, and stays a ``file://`` URI; an absolute ``file:///`` URI is kept."""
    robot = tmp_path / "robot"
    (robot / "meshes" / "visual").mkdir(parents=True)
    (robot / "meshes" / "visual" / "link0.dae").write_text("<COLLADA/>")
    elsewhere = tmp_path / "out" / "deeper"
    elsewhere.mkdir(parents=True)
    urdf = robot / "robot.urdf"
    urdf.write_text('<robot name="r"><link name="link0"><visual><geometry><mesh filename="'
                    'file://meshes/visual/link0.dae"/></geometry></visual></link></robot>')
    sdf = robot / "model.sdf"
    sdf.write_text('<sdf version="1.9"><model name="r"><link name="link0"><visual name="v">'
                   '<geometry><mesh><uri>file://meshes/visual/link0.dae</uri></mesh></geometry>'
                   '</visual></link></model></sdf>')
    written = [etree.fromstring(to_sdf(urdf, output_dir=str(elsewhere)).xml).findtext(
                   ".//mesh/uri"),
               etree.fromstring(to_urdf(sdf, output_dir=str(elsewhere)).xml).find(
                   ".//mesh").get("filename")]
    assert written == ["file://../../robot/meshes/visual/link0.dae"] * 2
    assert etree.fromstring(to_sdf(urdf, output_dir=str(robot)).xml).findtext(
        ".//mesh/uri") == "file://meshes/visual/link0.dae"
    urdf.write_text('<robot name="r"><link name="link0"><visual><geometry><mesh filename="'
                    'file:///abs/link0.dae"/></geometry></visual></link></robot>')
    assert etree.fromstring(to_sdf(urdf, output_dir=str(elsewhere)).xml).findtext(
        ".//mesh/uri") == "file:///abs/link0.dae"


def test_frames_model_option_reports_one_model_of_a_world_in_its_frame(tmp_path):
    world = tmp_path / "two.sdf"
    world.write_text('<sdf version="1.9"><world name="w"><model name="a"><pose>1 0 0 0 0 0'
                     '</pose><link name="l"><pose>0 1 0 0 0 0</pose></link></model>'
                     '<model name="b"><link name="l"/></model></world></sdf>')
    result = CliRunner().invoke(app, ["frames", str(world), "--model", "a", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["links"] == {"l": [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]}
    missing = CliRunner().invoke(app, ["frames", str(world), "--model", "zz"])
    assert missing.exit_code == 1 and "ELEMENT_MISSING" in missing.output


def test_diff_model_option_compares_one_model_of_a_world(tmp_path):
    """``diff --model rover``: the world's model [rover] against a URDF of it (compared
    whole); a file holding no such model is a difference naming it."""
    world = FIXTURES / "sdf_world_all_models.sdf"
    rover = tmp_path / "rover.urdf"
    rover.write_bytes(to_urdf(world, model="rover").xml)
    same = CliRunner().invoke(app, ["diff", str(world), str(rover), "--model", "rover",
                                    "--json"])
    assert same.exit_code == 0, same.output
    report = json.loads(same.stdout)
    assert (report["equivalent"], report["compared"], report["differences"]) == (True, True, [])
    other = CliRunner().invoke(app, ["diff", str(world), str(rover), "--model", "crane"])
    assert other.exit_code == 1 and "links mast: only in A" in other.stdout
    missing = CliRunner().invoke(app, ["diff", str(world), str(rover), "--model", "zz",
                                       "--json"])
    assert missing.exit_code == 3  # not compared: no such model
    assert [(d["kind"], d["name"], d["message"])
            for d in json.loads(missing.stdout)["differences"]] == [
        ("model", "A", "holds no model [zz]")]
    unchosen = CliRunner().invoke(app, ["diff", str(world), str(rover)])
    assert unchosen.exit_code == 1  # three models against one: not equivalent


def test_fix_inertia_option_of_the_command_line_repairs(tmp_path):
    """The option reaches the converter (options are passed by name, not position)."""
    source = Path(__file__).resolve().parent / "fixtures" / "urdf2sdf" / "features" / \
        "inertia_triangle_inequality.urdf"
    out = tmp_path / "palm.sdf"
    result = CliRunner().invoke(urdf2sdf_app, [str(source), "-o", str(out), "--fix-inertia"])
    assert result.exit_code == 0, result.output
    assert "inertia repaired" in result.output
    assert 'urdf:inertia="invalid"' not in out.read_text()
    assert load(out).ok


# ---- inertias every consumer accepts (issue: --fix-inertia's output refused) ---------

REPAIRED = FIXTURES / "urdf_inertia_repaired_loads_in_libsdformat.urdf"
# Drake's reading of the default conversion of REPAIRED (drake_oracle.py --json:
# ixx iyy izz ixy ixz iyz, kg m^2); libsdformat 12 loads it without an error and
# MuJoCo compiles each tensor as a moving body's fullinertia.
DRAKE_INERTIAS = {
    "base_link": (2.9277948028752177e-06, 1.8592101098195434e-06, 1.212998087305239e-06,
                  -2.870034126947606e-07, 3.5920860981954364e-07, 1.4277933028752169e-06),
    "link_11": (4.7345322110246175e-06, 4.678303187791275e-06, 5.1189760640675865e-06,
                1.070902714662856e-06, 1.411514159604904e-06, 1.1065793041562363e-06),
    "antenna": (7.138825961678097e-08, 7.1692069487474e-08, 3.865996726530022e-08,
                1.5721021492178995e-08, 8.943292533234557e-09, 1.045479877128012e-08),
}
# The tensor the repair of earlier releases wrote for base_link (principal moments
# 2.8e-22, 3e-6 - 2.4e-14, 3e-6 + 2.4e-14 by libsdformat's closed form): libsdformat 12
# refuses it (LINK_INERTIA_INVALID) and MuJoCo too ("inertia must have positive
# eigenvalues"); check called it valid.
EARLIER_REPAIR = Inertial(mass=1e-6, ixx=2.9277947306699483e-06, ixy=-2.870036996984604e-07,
                          ixz=3.592089690285127e-07, iyy=1.8592089690285123e-06,
                          iyz=1.4277947306699476e-06, izz=1.2129963003015395e-06)


def test_the_default_conversion_repairs_what_libsdformat_refuses_one_warning_a_link(tmp_path):
    conversion = to_sdf(REPAIRED)
    inertia_codes = [d.code for d in conversion.diagnostics if "INERTIA" in d.code.name]
    assert inertia_codes == [Code.LINK_INERTIA_REPAIRED] * 3  # no reader warning beside
    base = next(d for d in conversion.diagnostics if "[base_link]" in d.message)
    assert "principal moments -1.99283e-22 8.51804e-23 3e-06 -> 3e-12 3e-06 3e-06 kg m^2" \
        in base.message
    assert "raised by 3e-06 kg m^2, 100% of the largest" in base.message
    assert "--keep-inertia" in base.message and "--fix-inertia repairs" not in base.message
    sdf = tmp_path / "repaired.sdf"
    sdf.write_bytes(conversion.xml)
    reread = load(sdf)
    assert reread.ok and not [d for d in reread.diagnostics if "INERTIA" in d.code.name]
    links = {link.name: link.inertial for link in reread.document.model.links}
    for name, (xx, yy, zz, xy, xz, yz) in DRAKE_INERTIAS.items():
        got = links[name]
        assert (got.ixx, got.iyy, got.izz, got.ixy, got.ixz, got.iyz) == pytest.approx(
            (xx, yy, zz, xy, xz, yz), rel=1e-9, abs=1e-18), name


def test_check_refuses_what_libsdformat_refuses_the_earlier_repair():
    problem = inertia_problem(EARLIER_REPAIR)
    assert problem is not None and "triangle inequality" in problem
    fixed = repaired(EARLIER_REPAIR)
    assert fixed is not None and inertia_problem(fixed) is None


def test_keep_inertia_keeps_it_with_one_warning_a_link():
    conversion = to_sdf(REPAIRED, fix_inertia=False)
    inertia = [d for d in conversion.diagnostics if "INERTIA" in d.code.name]
    assert [d.code for d in inertia] == [Code.LINK_INERTIA_INVALID] * 3
    assert all("kept as written (--keep-inertia)" in d.message for d in inertia)
    root = etree.fromstring(conversion.xml)
    assert root.find(".//link[@name='base_link']/inertial").get(qname("inertia")) == "invalid"


def test_libsdformat_loads_the_repair_and_refuses_the_earlier_one(tmp_path, sdf_reference):
    sdf = tmp_path / "repaired.sdf"
    sdf.write_bytes(to_sdf(REPAIRED).xml)
    assert sdf_reference(sdf)["diagnostics"] == []
    earlier = sdf.read_text()  # base_link's tensor (the first) as earlier releases wrote it
    tensor_text = "".join(f"<{k}>{getattr(EARLIER_REPAIR, k)!r}</{k}>"
                          for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
    start = earlier.index("<inertia>")
    end = earlier.index("</inertia>", start)
    (tmp_path / "earlier.sdf").write_text(earlier[:start] + "<inertia>" + tensor_text +
                                          earlier[end:])
    codes = [d["code"] for d in sdf_reference(tmp_path / "earlier.sdf")["diagnostics"]]
    assert codes == ["LINK_INERTIA_INVALID"]
