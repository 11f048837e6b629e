"""``core.read.shape_attributes``: a visual's or collision's attributes SDFormat does not
define, placed at the path of the URDF element that states what holds them, or dropped
when the URDF has none; the shapes of a link numbered as the URDF's."""
from __future__ import annotations

from lxml import etree

from urdf_sdf import Context, load_string
from urdf_sdf.core.read.shape_attributes import link_shape_parts, shape_attributes

CUSTOM = "{http://example.org/custom}"
VISUAL = b"""<visual name="v" xmlns:custom="http://example.org/custom" custom:a="1" plain="2"
    xmlns:urdf="urn:urdf-sdf:urdf" urdf:unnamed="true">
  <pose relative_to="l" custom:b="3">0 0 1 0 0 0</pose>
  <geometry><mesh custom:c="4"><uri gz:d="5">m.dae</uri></mesh></geometry>
  <material custom:e="6"><diffuse>1 0 0 1</diffuse></material>
  <transparency custom:f="7">0.5</transparency>
</visual>"""


def test_attributes_are_placed_on_the_urdf_element_or_dropped():
    found = shape_attributes(etree.fromstring(VISUAL, etree.XMLParser(recover=True)))
    assert found.placed == {"": {f"{CUSTOM}a": "1"}, "origin": {f"{CUSTOM}b": "3"},
                            "geometry/mesh": {f"{CUSTOM}c": "4"},
                            "material": {f"{CUSTOM}e": "6"}}
    assert [(el.tag, name, path) for el, name, path in found.dropped] == [
        ("visual", "plain", ""), ("uri", "gz:d", "geometry/mesh/uri")]


def test_a_shape_with_only_sdformat_attributes_has_none():
    shape = etree.fromstring(b'<collision name="c"><pose relative_to="l"/><geometry><box>'
                             b'<size>1 1 1</size></box></geometry></collision>')
    assert not shape_attributes(shape)
    assert not shape_attributes(None)


LINK = b"""<sdf version="1.9" xmlns:custom="http://example.org/custom"><model name="m">
  <link name="l">
    <visual name="ground"><geometry><plane><normal>0 0 1</normal></plane></geometry></visual>
    <visual name="box" custom:a="1"><geometry><box><size custom:s="2">1 1 1</size></box>
      </geometry></visual>
    <collision name="c" custom:g="3"><geometry><sphere><radius>1</radius></sphere></geometry>
    </collision>
  </link>
</model></sdf>"""


def test_a_links_shapes_are_numbered_as_the_urdf_numbers_them():
    """The plane's visual is no URDF visual: the box visual is ``visual[1]``; an attribute
    the URDF has no place for is at its SDF path."""
    link = load_string(LINK, "m.sdf", Context()).document.model.links[0]
    assert link_shape_parts(link) == {"visual[1]": {f"{CUSTOM}a": "1"},
                                      "visual[1]/geometry/box/size": {f"{CUSTOM}s": "2"},
                                      "collision[1]": {f"{CUSTOM}g": "3"}}
