"""``sdf2urdf.attributes``: the attributes an SDF link, joint or joint limit carries come
back on the URDF element (those urdf2sdf carried, and custom namespaced ones), and those
``<urdf:attributes urdf:of=PATH>`` carries on the element at PATH; one SDFormat does not
define and that is in no namespace, which libsdformat ignores, and one whose element the
URDF written lacks, are named with SDF_ATTRIBUTE_DROPPED; so are a visual's or
collision's (and those below them), on the URDF shape made from it and the element that
states what holds them; a restored floating joint keeps its attributes' prefixes."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from urdf_sdf import Context, load, load_string
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.read.prefixes import UNDECLARED_URI
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf

SDF = b"""<?xml version="1.0"?>
<sdf version="1.9" xmlns:drake="http://drake.mit.edu" xmlns:urdf="urn:urdf-sdf:urdf">
  <model name="m">
    <link name="a" baz="3" urdf:bar="1"/>
    <link name="b" drake:foo="2" gz:other="4"/>
    <joint name="j" type="revolute" urdf:zap="5">
      <parent>a</parent><child>b</child>
      <axis><xyz>0 0 1</xyz>
        <limit drake:acceleration="15"><lower>-1</lower><upper>1</upper>
          <effort>1</effort><velocity>1</velocity></limit>
      </axis>
    </joint>
  </model>
</sdf>"""


def converted():
    conversion = convert_sdf(load_string(SDF, "m.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    return conversion, etree.fromstring(conversion.xml)


def test_carried_and_namespaced_attributes_come_back_on_the_urdf_element():
    _, robot = converted()
    drake = "{http://drake.mit.edu}"
    assert robot.find("link[@name='a']").get("bar") == "1"
    assert robot.find("link[@name='b']").get(f"{drake}foo") == "2"
    assert robot.find("link[@name='b']").get(f"{{{UNDECLARED_URI}gz}}other") == "4"
    assert robot.find("joint").get("zap") == "5"
    assert robot.find("joint/limit").get(f"{drake}acceleration") == "15"


def test_an_attribute_sdformat_does_not_define_is_named():
    conversion, robot = converted()
    dropped = [d for d in conversion.diagnostics if d.code is Code.SDF_ATTRIBUTE_DROPPED]
    assert [(d.line, "[baz]" in d.message) for d in dropped] == [(4, True)]
    assert robot.find("link[@name='a']").get("baz") is None


PARTS = b"""<?xml version="1.0"?>
<sdf version="1.9" xmlns:drake="http://drake.mit.edu" xmlns:urdf="urn:urdf-sdf:urdf">
  <model name="m">
    <link name="a">
      <inertial><mass>1</mass></inertial>
      <visual name="v"><geometry><box><size>1 1 1</size></box></geometry></visual>
      <visual name="w"><geometry><sphere><radius>1</radius></sphere></geometry></visual>
      <urdf:attributes urdf:of="visual[2]/geometry/sphere" drake:lod="1" segments="8"/>
      <urdf:attributes urdf:of="inertial/mass" unit="kg"/>
      <urdf:attributes urdf:of="collision[1]/geometry" lost="yes"/>
    </link>
  </model>
</sdf>"""


def test_attributes_of_elements_below_a_link_come_back_at_their_path():
    conversion = convert_sdf(load_string(PARTS, "m.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    link = etree.fromstring(conversion.xml).find("link")
    sphere = link.find("visual[2]/geometry/sphere")
    assert dict(sphere.attrib) == {"radius": "1", "{http://drake.mit.edu}lod": "1",
                                   "segments": "8"}
    assert link.find("visual[1]/geometry/box").get("segments") is None
    assert link.find("inertial/mass").get("unit") == "kg"
    assert b"drake:lod" in conversion.xml


def test_a_carried_attribute_whose_element_the_urdf_lacks_is_named():
    conversion = convert_sdf(load_string(PARTS, "m.sdf", Context()), ToUrdf())
    dropped = [d for d in conversion.diagnostics if d.code is Code.SDF_ATTRIBUTE_DROPPED]
    assert [(d.line, "[lost]" in d.message, "<collision[1]/geometry>" in d.message)
            for d in dropped] == [(4, True, True)]
    assert b"lost" not in conversion.xml


def test_urdf2sdf_markup_is_no_urdf_attribute():
    """``urdf:gazebo`` marks what a URDF <gazebo> block added: markup, not an attribute of
    the URDF element (it was given back as ``gazebo="true"``)."""
    sdf = b"""<sdf version="1.9" xmlns:urdf="urn:urdf-sdf:urdf"><model name="m">
      <link name="a"/><link name="c" urdf:gazebo="true"/>
      <joint name="k" type="fixed" urdf:gazebo="true"><parent>a</parent><child>c</child></joint>
    </model></sdf>"""
    conversion = convert_sdf(load_string(sdf, "m.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    assert b"gazebo=" not in conversion.xml


FLOATING = b"""<?xml version="1.0"?>
<sdf version="1.6" xmlns:urdf="urn:urdf-sdf:urdf" xmlns:drake="http://drake.mit.edu">
  <model name="r">
    <link name="a"/><link name="b"/>
    <urdf:joint name="j" type="floating" drake:foo="1">
      <urdf:origin xyz="0 0 1" drake:o="2"/>
      <urdf:parent link="a"/><urdf:child link="b"/>
    </urdf:joint>
  </model>
</sdf>"""


def test_a_restored_floating_joint_keeps_the_prefix_of_its_attributes():
    """urdf2sdf keeps a floating or planar joint as a ``<urdf:joint>`` copy: its namespaced
    attributes come back under the SDF's prefix, declared on the ``<robot>``."""
    conversion = convert_sdf(load_string(FLOATING, "r.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    assert b'<robot xmlns:drake="http://drake.mit.edu" name="r">' in conversion.xml
    assert b'<joint name="j" type="floating" drake:foo="1">' in conversion.xml
    assert b'drake:o="2"' in conversion.xml and b"ns0" not in conversion.xml


SHAPES = Path(__file__).resolve().parents[1] / "fixtures" / "sdf2urdf" / \
    "shape_attributes_carried_or_named.sdf"
CUSTOM = "{http://example.org/custom}"


def test_a_shapes_attributes_go_on_the_urdf_shape_made_from_it():
    """Mapped by the SDF shape, not by position: the ground plane's visual goes to a
    <gazebo> block, and the box visual (the SDF's second) is the URDF's first."""
    conversion = convert_sdf(load(SHAPES, Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    link = etree.fromstring(conversion.xml).find("link")
    visual = link.find("visual")
    assert (visual.get("name"), visual.get(f"{CUSTOM}test")) == ("top_visual", "foo")
    assert dict(visual.find("origin").attrib) == {"xyz": "0 0 0.5", "rpy": "0 0 0",
                                                  f"{CUSTOM}frame": "top"}
    assert dict(visual.find("geometry/box").attrib) == {"size": "1 0.5 0.5"}
    left, right = link.findall("collision")
    assert left.get(f"{CUSTOM}test") == "hello"
    assert left.find("geometry").get("{http://drake.mit.edu}lod") == "2"
    assert dict(right.attrib) == {"name": "right_wheel_collision"}
    assert b'xmlns:custom="http://example.org/custom"' in conversion.xml


def test_a_shapes_attribute_the_urdf_has_no_place_for_is_named():
    conversion = convert_sdf(load(SHAPES, Context()), ToUrdf())
    dropped = [(d.line, d.message) for d in conversion.diagnostics
               if d.code is Code.SDF_ATTRIBUTE_DROPPED]
    assert dropped == [
        (16, "<size> of visual [top_visual] of link [chassis] has the attribute "
             "[custom:test], which URDF has no element to hold: left out"),
        (23, "collision [right_wheel_collision] of link [chassis] has the attribute [test], "
             "which SDFormat does not define (libsdformat ignores it) and URDF has no place "
             "for: left out")]


def test_an_identity_pose_with_an_attribute_gets_an_origin_to_hold_it():
    sdf = b"""<sdf version="1.9" xmlns:drake="http://drake.mit.edu"><model name="m">
      <link name="a"><collision name="c"><pose drake:x="1"/>
        <geometry><sphere><radius>1</radius></sphere></geometry></collision></link>
    </model></sdf>"""
    conversion = convert_sdf(load_string(sdf, "m.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    origin = etree.fromstring(conversion.xml).find("link/collision/origin")
    assert dict(origin.attrib) == {"{http://drake.mit.edu}x": "1"}


def hostile_conversion(carried: bytes):
    sdf = b"""<sdf version="1.9" xmlns:urdf="urn:urdf-sdf:urdf"><model name="m">
      <link name="a"><visual name="v"><geometry><box><size>1 1 1</size></box></geometry>
      </visual></link><link name="b"/>
      <joint name="j" type="revolute" urdf:type="fixed"><parent>a</parent><child>b</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
        %s</joint>
    </model></sdf>""" % carried
    conversion = convert_sdf(load_string(sdf, "m.sdf", Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    return conversion, etree.fromstring(conversion.xml)


def test_a_malformed_or_out_of_range_path_is_named_not_followed():
    """An edited or hostile ``urdf:of`` (a step ``tag[n]`` whose n is no positive number,
    an unclosed bracket, an XPath) names no element: left out with a warning, never a
    crash and never put on another element."""
    for path in (b"axis[x]", b"axis[0]", b"axis[-1]", b"axis[1", b"axis[" + b"9" * 5000 + b"]",
                 b"axis/..", b"axis[1]/*", b"[1]", b"axis//xyz"):
        conversion, robot = hostile_conversion(
            b'<urdf:attributes urdf:of="%s" bad="1"/>' % path)
        dropped = [d for d in conversion.diagnostics if d.code is Code.SDF_ATTRIBUTE_DROPPED]
        assert len(dropped) == 1 and dropped[0].line == 4, (path, dropped)
        assert b'bad="1"' not in conversion.xml, path


def test_a_carried_attribute_never_overrides_what_the_sdf_says():
    conversion, robot = hostile_conversion(b'<urdf:attributes urdf:of="parent" link="b"/>'
                                           b'<urdf:attributes urdf:of="axis" xyz="1 0 0"/>')
    joint = robot.find("joint")
    assert (joint.get("type"), joint.find("parent").get("link"),
            joint.find("axis").get("xyz")) == ("revolute", "a", "0 0 1")
