"""Names in messages as the file writes them (core.read.prefixes): ``drake:rotor_inertia``,
never lxml's ``{http://drake.mit.edu}rotor_inertia``."""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.prefixes import (
    UNDECLARED_URI,
    ignore_default_namespace,
    namespaced,
    prefixed_name,
    tag_of,
)


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


def test_a_robot_in_a_default_namespace_is_read_by_element_names():
    """<robot xmlns="http://drake.mit.edu"> (Drake's course files): the unprefixed elements
    get their plain names, a prefixed one in the same namespace keeps it, the declaration
    of the default namespace goes, and one warning names it."""
    root = etree.fromstring(
        b'<robot xmlns="http://drake.mit.edu" xmlns:drake="http://drake.mit.edu" name="r">'
        b'<link name="a"><visual><geometry><box size="1 1 1"/></geometry></visual></link>'
        b'<drake:collision_filter_group name="g"/></robot>')
    diagnostics = Diagnostics()
    ignore_default_namespace(root, "r.urdf", diagnostics)
    assert [el.tag for el in root.iter()] == [
        "robot", "link", "visual", "geometry", "box",
        "{http://drake.mit.edu}collision_filter_group"]
    assert None not in root.nsmap
    [warning] = diagnostics
    assert warning.code is Code.URDF_DEFAULT_NAMESPACE and warning.line == 1
    assert "http://drake.mit.edu" in warning.message


def test_a_robot_without_a_default_namespace_is_left_as_it_is():
    root = etree.fromstring(b'<robot name="r"><link name="a"/></robot>')
    other = etree.fromstring(b'<x:robot xmlns:x="urn:x" name="r"/>')
    diagnostics = Diagnostics()
    ignore_default_namespace(root, None, diagnostics)
    ignore_default_namespace(other, None, diagnostics)
    assert (root.tag, other.tag, diagnostics) == ("robot", "{urn:x}robot", [])


def test_namespaced_names_a_prefix_never_declared_by_a_placeholder_uri():
    assert namespaced("{http://drake.mit.edu}foo") == "{http://drake.mit.edu}foo"
    assert namespaced("gz:other") == f"{{{UNDECLARED_URI}gz}}other"
    assert [namespaced(name) for name in ("plain", "a:b:c", "xmlfoo:x")] == [None, None, None]
