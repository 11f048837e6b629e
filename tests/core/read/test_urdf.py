"""The URDF reader: every element, URDF frame conventions, and validation.

Each test takes every diagnostic its file causes (the ``diagnostics_checked`` fixture): an
error that appears or vanishes, or a new warning, is a change of the reader's behaviour.
"""
import math
from pathlib import Path

import pytest

from urdf_sdf import Code, load
from urdf_sdf.core.base.pose import Pose, pose_gap

FIXTURES = Path(__file__).parents[2] / "fixtures" / "urdf"

# fixture -> every error it causes as (code, line): the cause first, then its consequences
# (a duplicate joint leaves a link without parent: a second root).
INVALID = {
    "urdf_duplicate_link.urdf": [(Code.DUPLICATE_NAME, 4)],
    "urdf_duplicate_joint.urdf": [(Code.DUPLICATE_NAME, 5), (Code.URDF_MULTIPLE_ROOTS, 2)],
    "urdf_joint_missing_child_link.urdf": [(Code.JOINT_CHILD_LINK_INVALID, 6)],
    "urdf_link_with_two_parents.urdf": [(Code.URDF_MULTIPLE_PARENTS, 5),
                                        (Code.URDF_MULTIPLE_ROOTS, 2)],
    "urdf_several_root_links.urdf": [(Code.URDF_MULTIPLE_ROOTS, 2)],
    "urdf_kinematic_loop.urdf": [(Code.URDF_KINEMATIC_LOOP, 5), (Code.POSE_RELATIVE_TO_CYCLE, 3)],
    "urdf_joint_missing_type.urdf": [(Code.ATTRIBUTE_MISSING, 4), (Code.URDF_MULTIPLE_ROOTS, 2)],
    "urdf_origin_unparsable.urdf": [(Code.ATTRIBUTE_INVALID, 5)],
    "urdf_origin_not_finite.urdf": [(Code.ATTRIBUTE_INVALID, 5)],
    "urdf_inertial_missing_mass_value.urdf": [(Code.ATTRIBUTE_MISSING, 5)],
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_urdf_is_diagnosed_with_its_line(name, diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / name))
    assert not result.ok
    first_error = next(d for d in result.diagnostics if d.is_error)
    taken = [diagnostics_checked.take_error(code) for code, _ in INVALID[name]]
    assert [(d.code, d.line) for d in taken] == INVALID[name]
    assert taken[0] is first_error, first_error.format()  # the cause is reported first
    assert all(d.file.endswith(name) for d in taken)


def test_every_element_is_read(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "urdf_every_element.urdf"))
    assert result.ok
    model = result.document.model
    assert result.document.format == "urdf"
    assert [link.name for link in model.links] == ["base", "arm", "slider", "wheel", "tool0",
                                                   "float", "plane"]
    joints = {j.name: j for j in model.joints}
    shoulder = joints["shoulder"]
    assert shoulder.pose.xyz_text == "0.1 0 0.2"
    assert shoulder.pose.rpy_text == "0 1.5707963267948966 0"
    assert (shoulder.limit.lower, shoulder.limit.upper, shoulder.limit.effort,
            shoulder.limit.velocity) == (-1.57, 1.57, 10.0, 2.0)
    assert (shoulder.dynamics.damping, shoulder.dynamics.friction) == (0.5, 0.1)
    assert set(shoulder.extras) == {"calibration", "safety_controller"}
    assert joints["slide"].mimic.joint == "shoulder" and joints["slide"].mimic.multiplier == 0.5
    assert joints["spin"].axes[0].xyz == (0.0, 1.0, 0.0)
    assert joints["world_to_base"].parent == "world"
    base = model.links[0]
    assert base.inertial.mass == 2.5
    assert base.visuals[0].geometry.size == (0.4, 0.3, 0.1)
    assert base.visuals[0].material.color == (0, 0, 0.8, 1)   # from the robot-level material
    assert base.collisions[0].geometry.kind == "cylinder"
    arm_visual = model.links[1].visuals[0]
    assert arm_visual.geometry.uri == "package://every_element/meshes/arm.stl"
    assert arm_visual.geometry.scale == (0.001, 0.001, 0.001)
    assert arm_visual.material.texture == "package://every_element/red.png"
    assert len(model.transmissions) == 1 and len(model.gazebo) == 2


def test_urdf_frames_follow_the_kinematic_tree(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "urdf_every_element.urdf"))
    # base is 0.1 above the world (= model frame); shoulder is at 0.1 0 0.2 in base,
    # pitched 90 degrees; slider is 0.2 along the shoulder frame's y.
    assert pose_gap(result.pose("base"), Pose.from_rpy((0, 0, 0.1), (0, 0, 0))) < 1e-12
    shoulder = Pose.from_rpy((0, 0, 0.1), (0, 0, 0)) * Pose.from_rpy((0.1, 0, 0.2),
                                                                     (0, math.pi / 2, 0))
    assert pose_gap(result.pose("arm"), shoulder) < 1e-12
    assert pose_gap(result.pose("shoulder"), shoulder) < 1e-12
    slider = shoulder * Pose.from_rpy((0, 0.2, 0), (0.1, 0.2, 0.3))
    assert pose_gap(result.pose("slider"), slider) < 1e-12
    assert result.attached_link("shoulder") == "arm"


def test_joint_named_like_a_link_is_renamed_and_keeps_its_urdf_name(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "urdf_joint_named_like_link.urdf"))
    assert result.ok
    renamed = diagnostics_checked.take_warning(Code.NAME_RENAMED)
    assert renamed.line == 6 and "[arm_joint]" in renamed.message, renamed.format()
    [joint] = result.document.model.joints
    assert (joint.name, joint.urdf_name) == ("arm_joint", "arm")
    assert pose_gap(result.pose("arm"), Pose.from_rpy((0, 0, 0.5), (0, 0, 0.3))) < 1e-12
    assert pose_gap(result.pose("arm_joint"), result.pose("arm")) < 1e-12


def test_numbers_read_alike_before_and_after_the_number_caches_fill():
    """More distinct number texts than the reader remembers (each link's mass and origin),
    then texts every joint repeats: each value is read as written, and the caches stay
    within their bound (emptied when full, then filled again)."""
    from urdf_sdf.core.base.diagnostics import Diagnostics
    from urdf_sdf.core.read.numbers import KNOWN_TEXTS
    from urdf_sdf.core.read.urdf import read_urdf_string
    from urdf_sdf.core.read.urdf_elements import UrdfState

    count = KNOWN_TEXTS + 300
    links = "".join(f'<link name="l{i}"><inertial><origin xyz="{i}.5 0 -{i}e-3"/>'
                    f'<mass value="1.{i:05d}"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
                    'iyz="0" izz="0.01"/></inertial></link>' for i in range(count))
    joints = "".join(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><axis xyz="0 0 2"/><limit lower="-1.5" upper="-0" '
                     'effort="10" velocity="1"/></joint>' for i in range(1, count))
    diagnostics = Diagnostics()
    document = read_urdf_string(f'<robot name="r">{links}{joints}</robot>'.encode(), None,
                                diagnostics)
    assert not list(diagnostics)
    model = document.model
    for i, link in enumerate(model.links):
        assert link.inertial.mass == float(f"1.{i:05d}")
        assert link.inertial.pose.value.position == (i + 0.5, 0.0, -float(f"{i}e-3"))
        assert link.inertial.texts["mass"] == f"1.{i:05d}"
    for joint in model.joints:
        assert joint.axes[0].xyz == (0.0, 0.0, 1.0)
        assert (joint.limit.lower, joint.limit.effort) == (-1.5, 10.0)
        assert math.copysign(1.0, joint.limit.upper) == -1.0  # -0 stays -0.0

    state = UrdfState(None, Diagnostics())
    for i in range(2 * KNOWN_TEXTS + 5):
        assert state.numbers.value(str(i)) == (float(i),) and len(state.numbers) <= KNOWN_TEXTS


@pytest.mark.parametrize(("given", "said"), [
    ('<robot><link name="a"/></robot>', "<robot> needs a name"),
    ('<robot name=""><link name="a"/></robot>', '<robot> has an empty name (name="")'),
    ('<robot name="r"><link name=""/></robot>', '<link> has an empty name (name="")'),
])
def test_a_missing_name_and_an_empty_one_are_told_apart(tmp_path, given, said):
    """jiminy's ant.urdf has <robot name="">: the message says the name is empty, not
    that the robot needs one it seems to have."""
    path = tmp_path / "r.urdf"
    path.write_text(given)
    [missing] = [d for d in load(path).diagnostics if d.code is Code.ATTRIBUTE_MISSING]
    assert missing.message == said
