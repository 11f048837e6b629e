"""sdf2urdf re-expresses the poses of what it carries in ``<gazebo>`` blocks
(``sdf2urdf.carried_poses``): a sensor, light, projector... stays where the SDF puts it,
in the URDF and back through urdf2sdf.

Expected poses (model frame) are libsdformat 12's reading of the source SDF: each
sensor's, light's and particle emitter's SemanticPose resolved to ``__model__``, a
projector's and an audio source's link pose times their ``<pose>``. libsdformat 12 cannot
resolve a joint sensor's pose, so the joint sensor's is the spec's: ``relative_to`` the
child link, 0.1 above it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from urdf_sdf import Context, load, load_string
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.pose import Pose, pose_gap
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sdf2urdf"
SOURCE = FIXTURES / "carried_poses_follow_the_urdf_link_frame.sdf"
TOL = 1e-12
# (element, name) -> x y z qw qx qy qz in the model frame (libsdformat 12)
EXPECTED = {
    ("projector", "proj"): (0.5, 0, 1, 1, 0, 0, 0),
    ("sensor", "cam"): (0, 0, 1.2, 0.9887710779360422, 0, 0.14943813247359922, 0),
    ("light", "lamp"): (0, 0, 0.5, 1, 0, 0, 0),
    ("particle_emitter", "smoke"): (0, 0.1, 1, 1, 0, 0, 0),
    ("audio_source", None): (0, 0, 1.1, 1, 0, 0, 0),
    ("sensor", "torque"): (0, 0, 1.1, 1, 0, 0, 0),
}


def expected(key) -> Pose:
    x, y, z, *q = EXPECTED[key]
    return Pose((x, y, z), tuple(q))


def pose_of(el) -> Pose:
    """The pose an element's ``<pose>`` child states (no ``relative_to`` left)."""
    pose = el.find("pose")
    if pose is None:
        return Pose()
    assert pose.get("relative_to") is None
    numbers = [float(v) for v in pose.text.split()]
    return Pose.from_rpy(numbers[:3], numbers[3:])


def converted() -> bytes:
    conversion = convert_sdf(load(SOURCE, Context()), ToUrdf())
    assert conversion.ok
    return conversion.xml


def carried(data: bytes) -> dict:
    """(tag, name) -> (the block's reference, the element) of every posed element."""
    found = {}
    for block in etree.fromstring(data).findall("gazebo"):
        for el in block:
            found[(el.tag, el.get("name"))] = (block.get("reference"), el)
    return found


def test_every_carried_pose_stays_where_libsdformat_puts_it():
    data = converted()
    urdf = load_string(data, "lamp_arm.urdf")
    found = carried(data)
    assert set(found) == set(EXPECTED)
    for key, (reference, el) in found.items():
        frame = urdf.pose(reference)  # a link (its joint frame) or a joint
        assert pose_gap(frame * pose_of(el), expected(key)) < TOL, key


def test_carried_poses_come_back_through_urdf2sdf():
    back = convert_urdf(load_string(converted(), "lamp_arm.urdf"), ToSdf())
    assert back.ok
    result = load_string(back.xml, "lamp_arm.sdf")
    model = etree.fromstring(back.xml).find("model")
    for key in EXPECTED:
        tag, name = key
        holder = "joint" if name == "torque" else "link"
        (owner,) = [o for o in model.findall(holder) if o.find(tag) is not None
                    and (name is None or o.find(f"{tag}[@name='{name}']") is not None)]
        el = owner.find(tag if name is None else f"{tag}[@name='{name}']")
        gap = pose_gap(result.pose(owner.get("name")) * pose_of(el), expected(key))
        assert gap < TOL, key


def test_text_is_copied_where_the_link_frame_is_the_joint_frame():
    """The same content on a link at its joint: every pose written as it was."""
    text = SOURCE.read_text().replace("<pose>0 0 1 0 0 0</pose>", "<pose relative_to=\"neck\"/>")
    text = text.replace('<pose relative_to="base">0 0 0.5 0 0 0</pose>',
                        "<pose>0 0 0.5000 0 0 0</pose>")
    text = text.replace('<pose relative_to="head">0 0 0.1 0 0 0</pose>',
                        "<pose>0 0 0.1 0 0 0</pose>")
    conversion = convert_sdf(load_string(text, str(SOURCE)), ToUrdf())
    assert conversion.ok
    poses = {key: el.findtext("pose") for key, (_, el) in carried(conversion.xml).items()}
    assert poses == {("projector", "proj"): "0.5 0 0 0 0 0",
                     ("sensor", "cam"): "0 0 0.2 0 0.3 0",
                     ("light", "lamp"): "0 0 0.5000 0 0 0",
                     ("particle_emitter", "smoke"): "0 0.1 0 0 0 0",
                     ("audio_source", None): "0 0 0.1 0 0 0",
                     ("sensor", "torque"): "0 0 0.1 0 0 0"}


def test_element_without_pose_gets_its_link_frame():
    text = SOURCE.read_text().replace("<pose>0.5 0 0 0 0 0</pose>", "")
    conversion = convert_sdf(load_string(text, str(SOURCE)), ToUrdf())
    (_, projector) = carried(conversion.xml)[("projector", "proj")]
    assert projector.findtext("pose") == "0 0 1 0 0 0"


def test_relative_to_naming_nothing_is_copied_with_a_warning():
    """The reader refuses such a sensor or light; a projector's pose is only read here."""
    text = SOURCE.read_text().replace("<pose>0.5 0 0 0 0 0</pose>",
                                      '<pose relative_to="nowhere">0.5 0 0 0 0 0</pose>')
    conversion = convert_sdf(load_string(text, str(SOURCE)), ToUrdf())
    assert conversion.ok
    (_, projector) = carried(conversion.xml)[("projector", "proj")]
    assert projector.find("pose").get("relative_to") == "nowhere"
    (warning,) = [d for d in conversion.diagnostics if d.code is Code.POSE_RELATIVE_TO_INVALID]
    assert "nowhere" in warning.message and "proj" in warning.message


@pytest.mark.parametrize("version", ["1.6"])
def test_sdformat_1_6_link_frames_are_carried_and_placed(version):
    """A 1.5/1.6 ``//link/frame`` (libsdformat 12 drops it) is carried, posed in the URDF
    link frame; a sensor's own frames move with it."""
    text = f"""<sdf version="{version}"><model name="m">
      <link name="base"/>
      <link name="arm"><pose>0 0 1 0 0 0</pose>
        <frame name="tip"><pose>0.5 0 0 0 0 0</pose></frame>
        <sensor name="cam" type="camera"><frame name="optical"><pose>0 0 0 -1.57 0 -1.57</pose>
          </frame><pose>0.1 0 0 0 0 0</pose></sensor>
      </link>
      <joint name="j" type="revolute"><pose frame="base">0 0 0 0 0 0</pose>
        <parent>base</parent><child>arm</child><axis><xyz>0 0 1</xyz></axis></joint>
    </model></sdf>"""
    conversion = convert_sdf(load_string(text, "m.sdf"), ToUrdf())
    assert conversion.ok
    found = carried(conversion.xml)
    assert found[("frame", "tip")][1].findtext("pose") == "0.5 0 1 0 0 0"
    sensor = found[("sensor", "cam")][1]
    assert sensor.findtext("pose") == "0.1 0 1 0 0 0"
    assert sensor.findtext("frame/pose") == "0 0 0 -1.57 0 -1.57"
