"""A link a URDF ``<gazebo>`` block adds with no joint goes back into a block
(``sdf2urdf.gazebo_links``); one the block attaches by a joint is a URDF link."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from urdf_sdf import Context, load, load_string
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "sdf2urdf"
LONE = FIXTURES / "gazebo_block_lone_link_goes_back_into_gazebo.urdf"


def round_trip(urdf: bytes):
    sdf = convert_urdf(load_string(urdf, "robot.urdf"), ToSdf())
    assert sdf.ok
    return convert_sdf(load_string(sdf.xml, "robot.sdf"), ToUrdf())


def test_a_lone_link_of_a_gazebo_block_goes_back_into_one():
    back = round_trip(LONE.read_bytes())
    assert back.ok, [d.format() for d in back.diagnostics]
    robot = etree.fromstring(back.xml)
    assert [link.get("name") for link in robot.findall("link")] == ["base"]
    (link,) = robot.findall("gazebo/link")
    assert dict(link.attrib) == {"name": "marker"}
    assert link.findtext("pose") == "0 0 1 0 0 0"
    assert [d.code for d in back.diagnostics] == [Code.LINK_KEPT_IN_GAZEBO]


def test_a_link_the_block_attaches_by_a_joint_is_a_urdf_link():
    source = LONE.read_bytes().replace(
        b"  </gazebo>", b"    <joint name='mount' type='fixed'><parent>base</parent>"
        b"<child>marker</child></joint>\n  </gazebo>")
    back = round_trip(source)
    assert back.ok, [d.format() for d in back.diagnostics]
    robot = etree.fromstring(back.xml)
    assert sorted(link.get("name") for link in robot.findall("link")) == ["base", "marker"]
    assert robot.find("gazebo/link") is None


def test_an_sdf_models_own_free_link_is_still_a_second_tree():
    """Only what urdf2sdf marked as from a <gazebo> block goes back into one."""
    sdf = convert_urdf(load(LONE, Context()), ToSdf())
    unmarked = sdf.xml.replace(b' urdf:gazebo="true"', b"")
    refused = convert_sdf(load_string(unmarked, "robot.sdf"), ToUrdf())
    assert [d.code for d in refused.diagnostics if d.is_error] == [Code.URDF_SEVERAL_TREES]
