"""sdf2urdf.frames: what an SDF frame becomes in a URDF."""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.custom import URDF_NS, qname
from urdf_sdf.sdf2urdf.frames import frame_nodes, unplaceable


def test_a_frame_needs_a_link_and_a_name_no_link_has():
    assert unplaceable("tool", None, {"base"}) == \
        "frame [tool] is not attached to a link; it is left out"
    assert unplaceable("base", 0, {"base"}) == \
        "frame [base] has the name of a link; it is left out"
    assert unplaceable("tool", 0, {"base"}) is None


def test_a_frame_becomes_a_massless_link_on_a_fixed_joint():
    [link, joint] = frame_nodes(None, "tool", "flange", {"xyz": "0 0 0.1"}, str, print)
    assert link == ("link", {"name": "tool"}, [])
    assert joint == ("joint", {"name": "tool_joint", "type": "fixed"}, [
        ("origin", {"xyz": "0 0 0.1"}, []), ("parent", {"link": "flange"}, []),
        ("child", {"link": "tool"}, [])])


def test_a_frame_urdf2sdf_wrote_keeps_its_joints_name():
    xml = etree.Element("frame", {"name": "tool", qname("joint"): "flange_tool"},
                        nsmap={"urdf": URDF_NS})
    [_, joint] = frame_nodes(xml, "tool", "flange", {}, str, print)
    assert joint[1] == {"name": "flange_tool", "type": "fixed"}
    assert [child[0] for child in joint[2]] == ["parent", "child"]  # the identity: no origin


def test_drakes_frame_comes_back_as_written():
    xml = etree.Element("frame", {"name": "tool", qname("element"): "frame"},
                        nsmap={"urdf": URDF_NS})
    [frame] = frame_nodes(xml, "tool", "flange", {"xyz": "1 0 0"}, lambda n: f"r_{n}", print)
    assert frame[:2] == ("frame", {"name": "r_tool", "link": "r_flange", "xyz": "1 0 0"})
