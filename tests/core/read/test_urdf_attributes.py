"""``core.read.urdf_attributes``: every attribute URDF does not define, on any element of a
link or joint, is named once with URDF_ATTRIBUTE_UNKNOWN (the element's path, the file's
line) and kept by path; the common case finds none."""
from __future__ import annotations

from urdf_sdf import Context, load_string
from urdf_sdf.core.base.diagnostics import Code

DRAKE = "{http://drake.mit.edu}"
URDF = b"""<?xml version="1.0"?>
<robot name="r" xmlns:drake="http://drake.mit.edu">
  <link name="a">
    <inertial><origin xyz="0 0 1" q="1"/><mass value="1"/>
      <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1" drake:x="2"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry></visual>
    <visual name="second" drake:renderer="vtk"><geometry><box size="1 1 1" foo="3"/></geometry>
      <material name="m"><color rgba="1 0 0 1" space="srgb"/></material></visual>
    <visual><origin/><origin bar="ignored"/><geometry><sphere radius="1"/></geometry></visual>
  </link>
  <link name="b"/>
  <joint name="j" type="revolute">
    <parent link="a" p="1"/><child link="b"/>
    <axis xyz="0 0 1" drake:sign="+"/>
    <limit lower="-1" upper="1" effort="1" velocity="1" drake:acceleration="15"/>
    <mimic joint="k" wrong="1"/>
  </joint>
  <link name="c"/>
  <joint name="k" type="revolute"><parent link="a"/><child link="c"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <frame name="tool" link="b" drake:f="1"/>
  <material name="red" shade="dark"><color rgba="1 0 0 1" c="2"/></material>
  <transmission name="t"><type>x</type><joint name="j" role="main"/></transmission>
</robot>"""


def loaded():
    result = load_string(URDF, "r.urdf", Context())
    assert result.ok, result.diagnostics
    return result


def test_attributes_of_the_elements_below_a_link_or_joint_are_kept_by_path():
    model = loaded().document.model
    link = next(link for link in model.links if link.name == "a")
    assert link.part_attributes == {
        "inertial/origin": {"q": "1"}, "inertial/inertia": {f"{DRAKE}x": "2"},
        "visual[2]": {f"{DRAKE}renderer": "vtk"}, "visual[2]/geometry/box": {"foo": "3"},
        "visual[2]/material/color": {"space": "srgb"}}
    joint = next(joint for joint in model.joints if joint.name == "j")
    assert joint.part_attributes == {"parent": {"p": "1"}, "axis": {f"{DRAKE}sign": "+"},
                                     "mimic": {"wrong": "1"}}
    assert joint.limit.attributes == {f"{DRAKE}acceleration": "15"}
    assert model.frames[0].attributes == {f"{DRAKE}f": "1"}


def test_the_common_case_holds_none():
    model = loaded().document.model
    assert next(link for link in model.links if link.name == "b").part_attributes is None
    assert next(joint for joint in model.joints if joint.name == "k").part_attributes is None


def test_each_is_named_with_its_element_and_line():
    said = [(d.line, d.message) for d in loaded().diagnostics
            if d.code is Code.URDF_ATTRIBUTE_UNKNOWN]
    expected = [
        (22, "[shade]"), (22, "[c]"), (23, "[role]"),  # carried whole: named only
        (4, "<inertial/origin> of link [a] has the attribute [q]"),
        (5, "<inertial/inertia> of link [a] has the attribute [drake:x]"),
        (7, "<visual[2]> of link [a] has the attribute [drake:renderer]"),
        (7, "<visual[2]/geometry/box> of link [a] has the attribute [foo]"),
        (8, "<visual[2]/material/color> of link [a] has the attribute [space]"),
        (13, "<parent> of joint [j] has the attribute [p]"),
        (14, "<axis> of joint [j] has the attribute [drake:sign]"),
        (16, "<mimic> of joint [j] has the attribute [wrong]"),
        (15, "the <limit> of joint [j] has the attribute [drake:acceleration]"),
        (21, "frame [tool] has the attribute [drake:f]"),
    ]
    assert len(said) == len(expected)
    for (line, message), (want_line, part) in zip(said, expected):
        assert line == want_line and part in message, (line, message)
    assert not any("ignored" in message for _, message in said)  # a second <origin>: not read
