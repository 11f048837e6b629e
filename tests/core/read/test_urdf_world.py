"""The URDF's world link (``core.read.urdf_world``): declared implicitly by a joint's
parent, and what a root world link holds named when it is left out."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import load, load_string
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code

CODES = Path(__file__).resolve().parents[2] / "fixtures" / "codes"


def test_an_undeclared_world_parent_is_the_world():
    result = load_string(b'<robot name="r"><link name="a"/><joint name="j" type="fixed">'
                         b'<parent link="world"/><child link="a"/></joint></robot>', "r.urdf")
    assert result.ok
    assert [d.code for d in result.diagnostics] == [Code.URDF_WORLD_UNDECLARED]
    assert [link.name for link in result.document.model.links] == ["a"]


def test_a_root_world_links_inertial_is_named_and_left_out():
    result = load(CODES / "world_link_content_dropped_pendulum.urdf", Context())
    assert result.ok
    (warning,) = result.diagnostics
    assert warning.code is Code.WORLD_LINK_CONTENT_DROPPED and warning.line == 5
    assert "inertial is left out" in warning.message
    assert [link.name for link in result.document.model.links] == ["base"]


def test_an_empty_world_link_says_nothing():
    result = load_string(b'<robot name="r"><link name="world"/><link name="a"/>'
                         b'<joint name="j" type="fixed"><parent link="world"/>'
                         b'<child link="a"/></joint></robot>', "r.urdf")
    assert result.ok and not result.diagnostics
