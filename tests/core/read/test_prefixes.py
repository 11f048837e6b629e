"""Names in messages as the file writes them (core.read.prefixes): ``drake:rotor_inertia``,
never lxml's ``{http://drake.mit.edu}rotor_inertia``."""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.prefixes import prefixed_name, tag_of


def test_tag_of_a_prefixed_element_is_prefix_colon_local():
    root = etree.fromstring('<joint xmlns:drake="http://drake.mit.edu">'
                            '<drake:rotor_inertia value="1"/><limit/></joint>')
    rotor, limit = root
    assert rotor.tag == "{http://drake.mit.edu}rotor_inertia"
    assert tag_of(rotor) == "drake:rotor_inertia"
    assert tag_of(limit) == "limit"


def test_tag_of_an_element_in_a_default_namespace_is_its_local_name():
    root = etree.fromstring('<robot xmlns="http://example.org/r"><link/></robot>')
    assert tag_of(root[0]) == "link"


def test_an_attribute_keeps_its_prefix():
    root = etree.fromstring('<joint xmlns:drake="http://drake.mit.edu" drake:acceleration="3"/>')
    assert prefixed_name("{http://drake.mit.edu}acceleration", root) == "drake:acceleration"


def test_a_message_names_a_prefixed_shape_as_written(tmp_path):
    robot = tmp_path / "robot.urdf"
    robot.write_text('<robot name="r" xmlns:drake="http://drake.mit.edu"><link name="a">'
                     '<visual><geometry><box size="1 1 1"/><drake:shape/></geometry></visual>'
                     '</link></robot>')
    messages = [d.message for d in load(robot).diagnostics if d.code is Code.ELEMENT_INVALID]
    assert messages == ["<geometry> holds <box> and also <drake:shape>; only the first is "
                        "read (as urdfdom and Drake do)"]
