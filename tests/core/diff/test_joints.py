"""``core.diff.joints``: limits and dynamics carry the unit of their joint's motion, and no
dynamics written is the same as zeros written."""
from __future__ import annotations

from types import SimpleNamespace

from urdf_sdf.core.diff.digest import NO_DYNAMICS, Dynamics, JointElement
from urdf_sdf.core.diff.joints import compare_dynamics, limit_unit


def joint(kind: str, dynamics: Dynamics = NO_DYNAMICS):
    return SimpleNamespace(name="j", type=kind, element=JointElement(None, None, dynamics))


def test_units_follow_the_joint_motion():
    assert [limit_unit(joint("revolute"), key) for key in
            ("upper", "velocity", "effort", "damping")] == \
        [" rad", " rad/s", " N m", " N m s/rad"]
    assert [limit_unit(joint("prismatic"), key) for key in
            ("upper", "velocity", "effort", "damping")] == [" m", " m/s", " N", " N s/m"]


def test_dynamics_differ_by_their_amount_only():
    found: list = []
    compare_dynamics(joint("revolute"), joint("revolute", Dynamics(0.0, 0.0)), 1e-9, found)
    assert found == []
    compare_dynamics(joint("prismatic"), joint("prismatic", Dynamics(0.0, 2.0)), 1e-9, found)
    assert [d.format() for d in found] == ["joints j: dynamics friction 0.0 N in A, 2.0 N in B"]
    assert found[0].property == "dynamics friction"
    compare_dynamics(joint("fixed"), joint("fixed", Dynamics(1.0, 0.0)), 1e-9, found)
    assert len(found) == 1  # a fixed joint does not move: its dynamics mean nothing
