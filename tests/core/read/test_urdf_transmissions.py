"""core.read.urdf_transmissions: what a URDF's transmissions name that Drake refuses, named
by a warning while urdfdom and libsdformat read the file."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import Context, load, load_string
from urdf_sdf.core.base.diagnostics import Code, Severity

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "urdf"


def found(result, code: Code) -> list:
    return [d for d in result.diagnostics if d.code is code]


def test_transmission_naming_a_missing_joint_is_named():
    result = load(FIXTURES / "urdf_transmission_names_missing_joint.urdf", Context())
    assert result.ok  # urdfdom and libsdformat read it; Drake refuses it
    unknown = found(result, Code.URDF_TRANSMISSION_JOINT_UNKNOWN)
    assert [(d.severity, d.line) for d in unknown] == [(Severity.WARNING, 16)]
    assert "[elbow]" in unknown[0].message


def test_transmission_naming_a_renamed_joint_by_its_urdf_name_is_fine():
    data = b"""<robot name="r"><link name="a"/><link name="b"/>
      <joint name="b" type="continuous"><parent link="a"/><child link="b"/></joint>
      <transmission name="t"><joint name="b"/></transmission></robot>"""
    result = load_string(data, "renamed.urdf", Context())
    assert not found(result, Code.URDF_TRANSMISSION_JOINT_UNKNOWN)


def test_two_transmissions_naming_one_actuator_are_named_at_the_second():
    """The xArm6 slip: joints 3 and 4 both drive motor3 (Drake: "already contains a joint
    actuator named 'motor3'"); the file still loads, as urdfdom reads it."""
    result = load(FIXTURES / "urdf_transmission_actuator_repeated_xarm6.urdf", Context())
    assert result.ok
    [repeated] = found(result, Code.URDF_TRANSMISSION_ACTUATOR_REPEATED)
    assert (repeated.severity, repeated.line) == (Severity.WARNING, 20)
    assert "transmission [tran4] names actuator [motor3], which transmission [tran3]" \
        in repeated.message


def test_each_transmission_with_its_own_actuator_is_fine():
    source = (FIXTURES / "urdf_transmission_actuator_repeated_xarm6.urdf").read_text()
    fixed = source.replace('<actuator name="motor3"><mechanicalReduction>1</mechanicalReduction>'
                           '</actuator>\n  </transmission>\n</robot>',
                           '<actuator name="motor4"><mechanicalReduction>1</mechanicalReduction>'
                           '</actuator>\n  </transmission>\n</robot>')
    assert fixed != source
    result = load_string(fixed.encode(), "fixed.urdf", Context())
    assert not found(result, Code.URDF_TRANSMISSION_ACTUATOR_REPEATED)
