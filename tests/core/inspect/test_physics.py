"""The physics tier of ``check --physics`` (``core.inspect.physics``) on fixtures named for
its rules (``tests/fixtures/physics``), reduced from the corpus robots that showed each:
one finding of its own code per problem, at the element's line, with the numbers the
consumers read (Drake's reading of the effort fixture: upper arm 15.53 kg at x 0.35,
forearm 1 kg at x 0.6, tool frame at x 0.8, shoulder at x 0, elbow at x 0.4, all at
z 1; gravity 9.80665 m/s²)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from urdf_sdf import load
from urdf_sdf.core.base.diagnostics import Code, Severity
from urdf_sdf.core.inspect.physics import GRAVITY, physics_findings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "physics"


def findings(name: str, payloads: dict[str, float] | None = None) -> list:
    result = load(FIXTURES / name)
    assert result.ok, result.diagnostics
    return physics_findings(result, payloads)


def codes_and_lines(found) -> list[tuple[Code, int | None]]:
    return sorted((d.code, d.line) for d in found)


def newton_metres(message: str) -> float:
    return float(re.search(r"needs ([\d.]+) N m", message).group(1))


def test_an_effort_limit_below_what_gravity_needs_is_found_at_the_joint():
    (finding,) = findings("physics_effort_too_low.urdf")
    assert (finding.code, finding.line, finding.severity) == \
        (Code.PHYSICS_EFFORT_TOO_LOW, 10, Severity.WARNING)
    assert "[shoulder_lift]" in finding.message and "limit is 30 N m" in finding.message
    assert newton_metres(finding.message) == pytest.approx(GRAVITY * (15.53 * 0.35 + 0.6),
                                                           abs=0.01)  # 59.19


def test_a_payload_at_a_link_loads_every_joint_above_it():
    found = findings("physics_effort_too_low.urdf", {"tool": 5.0})
    by_joint = {re.search(r"joint \[(\w+)\]", d.message).group(1): d for d in found}
    assert sorted(by_joint) == ["elbow", "shoulder_lift"]
    assert by_joint["elbow"].line == 24
    assert newton_metres(by_joint["elbow"].message) == \
        pytest.approx(GRAVITY * (1 * 0.2 + 5 * 0.4), abs=0.01)  # 21.57 > 20
    assert newton_metres(by_joint["shoulder_lift"].message) == \
        pytest.approx(GRAVITY * (15.53 * 0.35 + 1 * 0.6 + 5 * 0.8), abs=0.01)  # 98.41


def test_a_payload_on_an_unknown_link_is_an_error():
    (finding,) = findings("physics_effort_too_low.urdf", {"gripper": 1.0})
    assert finding.code is Code.ELEMENT_MISSING and finding.is_error
    assert "[gripper]" in finding.message


def test_a_point_mass_without_inertia_about_its_motion_is_found_and_a_pendulum_is_not():
    assert codes_and_lines(findings("physics_inertia_zero.urdf")) == \
        [(Code.PHYSICS_INERTIA_ZERO, 18)]  # on_axis; the pendulum swings off its axis
    assert codes_and_lines(findings("physics_inertia_zero_free.urdf")) == \
        [(Code.PHYSICS_INERTIA_ZERO, 5)]


def test_an_inertia_orders_of_magnitude_from_the_collision_shapes_is_found():
    (finding,) = findings("physics_inertia_implausible.urdf")
    assert (finding.code, finding.line) == (Code.PHYSICS_INERTIA_IMPLAUSIBLE, 7)
    assert "[base_link]" in finding.message
    assert "trace 3 kg m²" in finding.message and "imply 0.000108 kg m²" in finding.message


@pytest.mark.parametrize("name, expected", [
    ("physics_limit_negative.urdf", [(Code.PHYSICS_LIMIT_NEGATIVE, 6)] * 2),
    ("physics_axis_not_unit.urdf", [(Code.PHYSICS_AXIS_NOT_UNIT, 11)]),
    ("physics_mesh_scale_zero.urdf", [(Code.PHYSICS_MESH_SCALE_ZERO, 6)]),
    ("physics_mimic_cycle.urdf", [(Code.PHYSICS_MIMIC_CYCLE, 8)]),
    ("physics_mass_zero.sdf", [(Code.PHYSICS_MASS_ZERO, 9)]),
])
def test_each_rule_gives_its_own_code_at_the_element(name, expected):
    found = findings(name)
    assert codes_and_lines(found) == expected
    assert all(d.severity is Severity.WARNING and d.file for d in found)


def test_a_mimic_cycle_names_every_joint_of_it_once():
    (finding,) = findings("physics_mimic_cycle.urdf")
    assert finding.message.count("[j1]") == 2 and "[j2]" in finding.message and \
        "[j3]" in finding.message


def test_a_sound_robot_has_no_finding():
    samples = Path(__file__).resolve().parents[3] / "samples"
    assert list(physics_findings(load(samples / "pendulum.urdf"))) == []


def test_a_long_chain_and_a_mimic_chain_end(tmp_path):
    """A chain 3,000 deep (no recursion limit) whose joints each mimic the next, the last
    the first: one cycle, found once."""
    count = 3000
    inertia = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
    links = "".join(f'<link name="l{i}"><inertial><mass value="1"/>{inertia}</inertial>'
                    "</link>" for i in range(count + 1))
    joints = "".join(f'<joint name="j{i}" type="revolute"><parent link="l{i}"/>'
                     f'<child link="l{i + 1}"/><axis xyz="0 0 1"/>'
                     f'<limit lower="-1" upper="1" effort="1" velocity="1"/>'
                     f'<mimic joint="j{(i + 1) % count}"/></joint>' for i in range(count))
    path = tmp_path / "chain.urdf"
    path.write_text(f'<robot name="chain">{links}{joints}</robot>')
    found = findings_of(path)
    assert [d.code for d in found] == [Code.PHYSICS_MIMIC_CYCLE]


def findings_of(path: Path) -> list:
    result = load(path)
    assert result.ok, result.diagnostics[:3]
    return list(physics_findings(result))
