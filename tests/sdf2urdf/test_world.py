"""sdf2urdf of a world's model: where the world places it (``sdf2urdf.world``), and what of
the world a URDF cannot hold (``sdf2urdf.world_content``) or of a nested model
(``sdf2urdf.extras``), named in a warning each.

Expected poses are the consumers' reading of the source SDF (Drake 1.58's bodies and
libsdformat 12's links, which agree to the last digit here), written in as numbers.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from urdf_sdf import Context, load, load_string
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.pose import Pose, pose_gap
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.sdf2urdf.world_content import left_out_content
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sdf2urdf"
TOL = 1e-12


def to_urdf(name: str, **options):
    conversion = convert_sdf(load(FIXTURES / name, Context()), ToUrdf(**options))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    return conversion


def codes(conversion) -> list[Code]:
    return [d.code for d in conversion.diagnostics]


def messages(conversion, code: Code) -> list[str]:
    return [d.message for d in conversion.diagnostics if d.code is code]


def wxyz(x, y, z, qw, qx, qy, qz) -> Pose:
    """A pose as the oracles print it: position, then the quaternion w x y z."""
    return Pose((x, y, z), (qw, qx, qy, qz))


def urdf_pose(data: bytes, link: str, offset: str | None = None) -> Pose:
    """Where ``link`` of a URDF sits in its world (its root frame), times the
    ``<origin>`` found at ``offset`` inside the link (its inertial's, say)."""
    result = load_string(data, "robot.urdf")
    pose = result.pose(link)
    assert pose is not None
    if offset is not None:
        origin = etree.fromstring(data).find(f"link[@name='{link}']/{offset}")
        pose = pose * Pose.from_rpy([float(v) for v in origin.get("xyz").split()],
                                    [float(v) for v in origin.get("rpy").split()])
    return pose


# ---- a model fixed to the world keeps the world's placement --------------------------------

def test_model_jointed_to_world_keeps_the_model_placement():
    """The issue's reproducer: the link belongs at z 0.5 rolled 1.57, not at z 0."""
    data = to_urdf("world_model_jointed_to_world_keeps_its_placement.sdf").xml
    # The URDF link frame is the joint frame (Drake's body of the URDF, libsdformat's link);
    # the inertial at the SDF link origin lands where both place the SDF link.
    joint_frame = wxyz(0, 0.24999992073295868, 0.49980091832231666,
                       0.7073882691671998, 0.706825181105366, 0, 0)
    sdf_link = wxyz(0, 0, 0.5, 0.7073882691671998, 0.706825181105366, 0, 0)
    assert pose_gap(urdf_pose(data, "link"), joint_frame) < TOL
    assert pose_gap(urdf_pose(data, "link", "inertial/origin"), sdf_link) < TOL


def test_static_model_is_welded_where_the_world_puts_it():
    conversion = to_urdf("world_static_model_keeps_its_placement.sdf")
    expected = wxyz(2.0000796326710732, 0.09999996829318347, 0.7,
                    0.7073882691671998, 0, 0, 0.706825181105366)
    assert pose_gap(urdf_pose(conversion.xml, "top"), expected) < TOL
    assert codes(conversion) == [Code.WORLD_JOINT_ADDED]


def test_included_model_is_placed_by_the_include_pose():
    data = to_urdf("world_include_pose_places_the_model/world.sdf").xml
    expected = wxyz(3, -1, 0.5, 0.9393727128473789, 0, 0, 0.34289780745545134)
    assert pose_gap(urdf_pose(data, "pole"), expected) < TOL


@pytest.mark.parametrize("name, model", [
    ("world_model_jointed_to_world_keeps_its_placement.sdf", "m"),
    ("world_static_model_keeps_its_placement.sdf", "table"),
    ("world_include_pose_places_the_model/world.sdf", "post"),
])
def test_world_placement_survives_the_round_trip(name, model):
    """SDF -> URDF -> SDF: the link's inertial (at the SDF link origin) sits where it sat
    in the world; the URDF's world is the SDF model frame of the result."""
    source = load(FIXTURES / name, Context())
    urdf = convert_sdf(source, ToUrdf())
    back = convert_urdf(load_string(urdf.xml, "robot.urdf"), ToSdf())
    assert back.ok
    result = load_string(back.xml, "robot.sdf")
    (link,) = result.document.model.links
    got = result.pose(link.name) * link.inertial.pose.value
    assert pose_gap(got, source.pose(f"{model}::{link.name}")) < 1e-9


def test_a_free_model_keeps_its_copied_origins():
    """A free model is written in its own frames: the origins are copied text, as for a
    model file, whatever the world's placement."""
    data = to_urdf("world_one_model.sdf").xml
    origin = etree.fromstring(data).find("joint[@name='hinge']/origin")
    assert (origin.get("xyz"), origin.get("rpy")) == ("0 0 1", "0 0 0")


# ---- a free model: its world pose kept in <gazebo> ----------------------------------------

def test_free_model_world_pose_is_kept_in_a_gazebo_block():
    conversion = to_urdf("world_free_model_pose_kept_in_gazebo.sdf")
    robot = etree.fromstring(conversion.xml)
    assert robot.find("link[@name='world']") is None  # a free root: no joint to the world
    (pose,) = robot.findall("gazebo/pose")
    numbers = [float(v) for v in pose.text.split()]
    # Drake and libsdformat place the SDF link at 1 2 3.1, yaw 0.5
    expected = wxyz(1, 2, 3.1, 0.9689124217106447, 0, 0, 0.24740395925452294)
    assert pose_gap(Pose.from_rpy(numbers[:3], numbers[3:]), expected) < TOL
    assert codes(conversion) == [Code.MODEL_POSE_KEPT_IN_GAZEBO]
    (message,) = messages(conversion, Code.MODEL_POSE_KEPT_IN_GAZEBO)
    assert "[box]" in message and "[body]" in message and pose.text in message


def test_free_model_world_pose_comes_back_as_the_model_pose():
    urdf = to_urdf("world_free_model_pose_kept_in_gazebo.sdf")
    back = convert_urdf(load_string(urdf.xml, "box.urdf"), ToSdf())
    assert back.ok and not [d for d in back.diagnostics if d.code is not Code.JOINT_FREE_BODY]
    model = load_string(back.xml, "box.sdf").document.model
    expected = wxyz(1, 2, 3.1, 0.9689124217106447, 0, 0, 0.24740395925452294)
    assert pose_gap(model.pose.value, expected) < TOL


def test_a_world_placement_composed_into_an_origin_is_not_a_copy():
    """The model is URDF-shaped (parity holds in its own frames), but its world joint's
    origin is the world's placement composed in: computed, so not reported as copied."""
    conversion = to_urdf("world_placement_makes_origins_computed.sdf")
    origin = etree.fromstring(conversion.xml).find("joint[@name='to_world']/origin")
    numbers = [float(v) for v in origin.get("xyz").split() + origin.get("rpy").split()]
    assert numbers == [0, 0, 0.5, 0, 0, 1.57]
    assert not conversion.parity_holds


def test_the_lone_model_of_a_world_under_all_models_is_converted_as_alone():
    """--all-models on a world of one free model: its names prefixed, its world pose kept
    in <gazebo> as without the option, never a floating joint from world (which neither
    Drake nor libsdformat 12 places)."""
    conversion = to_urdf("world_free_model_pose_kept_in_gazebo.sdf", all_models=True)
    robot = etree.fromstring(conversion.xml)
    assert robot.find("link[@name='world']") is None
    assert not robot.findall("joint[@type='floating']")
    assert robot.find("link[@name='box::body']") is not None
    (pose,) = robot.findall("gazebo/pose")
    numbers = [float(v) for v in pose.text.split()]
    expected = wxyz(1, 2, 3.1, 0.9689124217106447, 0, 0, 0.24740395925452294)
    assert pose_gap(Pose.from_rpy(numbers[:3], numbers[3:]), expected) < TOL
    assert codes(conversion) == [Code.MODEL_POSE_KEPT_IN_GAZEBO]


def test_free_model_at_the_origin_has_no_gazebo_pose():
    """world_two_models.sdf places [box] (and its root link) at the world origin."""
    conversion = to_urdf("world_two_models.sdf", model="box")
    assert b"<pose>" not in conversion.xml
    assert codes(conversion) == []


# ---- what of a world or a nested model a URDF cannot hold ----------------------------------

def test_world_content_and_later_worlds_are_named():
    conversion = to_urdf("world_plugins_lights_actors_named_when_dropped.sdf")
    (content,) = messages(conversion, Code.WORLD_CONTENT_DROPPED)
    for named in ("frame (dock)", "physics (1ms)", "light (sun)", "actor (walker)",
                  "gz::sim::systems::Physics", "gz::sim::systems::Sensors"):
        assert named in content
    (later,) = messages(conversion, Code.WORLD_DROPPED)
    assert "[empty]" in later and "ghost" in later


def test_world_content_is_named_for_a_model_picked_by_name():
    source = FIXTURES / "world_two_models.sdf"
    text = source.read_text().replace("<world name=\"default\">",
                                      "<world name=\"default\"><plugin name=\"p\" filename=\"f\"/>")
    assert text != source.read_text()
    conversion = convert_sdf(load_string(text, str(source)), ToUrdf(model="box"))
    assert any("plugin (p)" in m for m in messages(conversion, Code.WORLD_CONTENT_DROPPED))


def test_nested_model_plugin_is_kept_for_the_robot():
    conversion = to_urdf("world_plugins_lights_actors_named_when_dropped.sdf")
    robot = etree.fromstring(conversion.xml)
    plugins = [p.get("name") for p in robot.findall("gazebo/plugin")]
    assert plugins == ["cart::Drive", "arm::Controller"]
    assert robot.find("gazebo/plugin[@name='arm::Controller']/joint").text == "shoulder"
    assert any("nested model [arm]" in m for m in messages(conversion,
                                                           Code.CONTENT_KEPT_IN_GAZEBO))
    (dropped,) = messages(conversion, Code.NESTED_MODEL_CONTENT_DROPPED)
    assert "self_collide" in dropped


def test_nested_model_plugin_goes_back_into_the_sdf_model():
    urdf = to_urdf("world_plugins_lights_actors_named_when_dropped.sdf")
    back = convert_urdf(load_string(urdf.xml, "cart.urdf"), ToSdf())
    assert back.ok
    model = etree.fromstring(back.xml).find("model")
    assert [p.get("name") for p in model.findall("plugin")] == ["cart::Drive", "arm::Controller"]


def test_every_kind_of_world_content_is_listed_once():
    """The message lists each kind once, in the order first written, with its names."""
    document = load(FIXTURES / "world_plugins_lights_actors_named_when_dropped.sdf",
                    Context()).document
    assert left_out_content(document.worlds[0]) == [
        "frame (dock)", "physics (1ms)",
        "plugin (gz::sim::systems::Physics, gz::sim::systems::Sensors)", "light (sun)",
        "actor (walker)"]
