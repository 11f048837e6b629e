"""Model composition: the proposal's examples (``samples/composition``).

Welded frames coincide, the assemblies' poses are the proposal's numbers composed by hand,
they convert to URDF that ``check_urdf`` accepts and ``diff`` finds equivalent, and the
reference implementation resolves them alike (through a copy whose gripper files are
renamed: libsdformat 12 would read its own spec file ``gripper.sdf``).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.compose_helpers import (
    ARM_AND_GRIPPER,
    ASSEMBLIES,
    ASSEMBLY_IDS,
    FLANGE_WELDS,
    FLANGES,
    SAMPLES,
    SUPER,
    SUPER_WORLD,
    P,
    assert_agrees_with_reference,
    assert_pose,
    assert_poses,
    joint_ends,
    joint_links,
    loaded,
    reference_report,
)
from tests.support import assert_check_urdf_accepts
from urdf_sdf import Context, frames_report
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf


def test_samples_exist_and_load():
    for path in (SAMPLES / "arm.sdf", SAMPLES / "gripper.sdf", ARM_AND_GRIPPER,
                 FLANGES / "arm.sdf", FLANGES / "gripper.sdf", FLANGES / "flange_electric.sdf",
                 FLANGES / "flange_pneumatic.sdf", SUPER, SUPER_WORLD):
        loaded(path)
    assert (SAMPLES / "README.md").is_file()


def test_arm_and_gripper_weld_frames_coincide():
    result = loaded(ARM_AND_GRIPPER)
    X_ACa = P(0.12, -0.03, 0.71, 0.2, -0.35, 1.1)
    X_GCg = P(0.015, 0.02, -0.045, -0.4, 0.25, -0.8)
    assert_pose(result.pose("gripper::mount_point"), result.pose("arm::gripper_mount"),
                "gripper::mount_point vs arm::gripper_mount")
    # ... and where they are: the arm is at the root, the gripper placed by its mount point.
    assert_poses(result, {"arm": Pose(), "arm::gripper_mount": X_ACa,
                          "gripper::mount_point": X_ACa,
                          "gripper": X_ACa * X_GCg.inverse(),
                          "gripper::body": X_ACa * X_GCg.inverse()})
    # The weld is frame to frame; its joint frame is at X_MCg == X_MCa.
    assert joint_ends(result, "weld") == ("arm::gripper_mount", "gripper::mount_point")
    assert joint_links(result, "weld") == ("arm::body", "gripper::body")
    assert_pose(result.pose("weld"), X_ACa, "weld")


@pytest.mark.parametrize("sample,prefix", [(SUPER, ""), (SUPER_WORLD, "bros::")],
                         ids=["model", "world"])
def test_flange_assemblies_weld_frames_coincide(sample, prefix):
    result = loaded(sample)
    for robot, joint, parent, child in FLANGE_WELDS:
        name = f"{prefix}{robot}::{joint}"
        assert joint_ends(result, name) == (f"{prefix}{robot}::{parent}",
                                            f"{prefix}{robot}::{child}"), name
        assert_pose(result.pose(f"{prefix}{robot}::{child}"),
                    result.pose(f"{prefix}{robot}::{parent}"), name)
        assert_pose(result.pose(name), result.pose(f"{prefix}{robot}::{child}"), name)


def test_flange_assembly_poses():
    """The super model's numbers, composed by hand."""
    result = loaded(SUPER)
    X_MR1 = P(1.0, -0.5, 0.8, 0, 0, 0.35)
    X_MR2 = X_MR1 * P(0, 1.2, 0, 0, 0, -0.6)
    X_AL = P(0, 0, 0.1, 0, 0, 0.2)                        # arm: link
    X_ADa = X_AL * P(0.05, 0, 0.62, 0, -0.3, 0.25)        # arm: flange_mount
    flanges = {  # X_F(body), X_FDf (mount), X_FCf (gripper_mount), all in the model frame
        "robot_1": (Pose(), P(0, 0.01, -0.015, 3.0, 0.1, 0), P(0, 0, 0.06, 0, 0, 0.785)),
        "robot_2": (P(0.002, 0, 0.004, 0, 0, 0.1),
                    P(0.002, 0, 0.004, 0, 0, 0.1) * P(0.005, 0, -0.025, 0.1, -0.05, 0.3),
                    P(0.002, 0, 0.004, 0, 0, 0.1) * P(0.03, 0, 0.09, 0, 0.5, 0)),
    }
    X_GCg = P(0, 0, -0.04, 0.2, 0.1, -0.6)
    for robot, X_MR in (("robot_1", X_MR1), ("robot_2", X_MR2)):
        body, mount, gripper_mount = flanges[robot]
        X_flange = X_MR * X_ADa * mount.inverse()
        X_gripper = X_flange * gripper_mount * X_GCg.inverse()
        assert_poses(result, {
            robot: X_MR,
            f"{robot}::arm::link": X_MR * X_AL,
            f"{robot}::arm::flange_mount": X_MR * X_ADa,
            f"{robot}::flange": X_flange,
            f"{robot}::flange::body": X_flange * body,
            f"{robot}::flange::mount": X_MR * X_ADa,
            f"{robot}::gripper": X_gripper,
            f"{robot}::gripper::gripper": X_gripper,
            f"{robot}::gripper::mount": X_flange * gripper_mount,
        }, tol=1e-12)


def test_flange_world_poses_follow_the_include():
    model, world = loaded(SUPER), loaded(SUPER_WORLD)
    X_WB = P(2.0, 1.0, 0, 0, 0, 0.5) * P(0.25, -0.1, 0, 0, 0, -0.2)
    assert_pose(world.pose("bros"), X_WB, "bros")
    for name in frames_report(model)["frames"]:
        assert_pose(world.pose(f"bros::{name}"), X_WB * model.pose(name), name)


@pytest.mark.parametrize("sample,model", ASSEMBLIES, ids=ASSEMBLY_IDS)
def test_assemblies_convert_to_valid_equivalent_urdf(tmp_path, sample, model):
    result = loaded(sample)
    conversion = convert_sdf(result, ToUrdf(model=model))
    assert conversion.ok, "\n".join(d.format() for d in conversion.diagnostics)
    urdf = tmp_path / (sample.stem + ".urdf")
    urdf.write_bytes(conversion.xml)
    assert_check_urdf_accepts(urdf)
    assert diff_files(str(sample), str(urdf), context=Context()) == []


def renamed_copy(tmp_path: Path) -> Path:
    """The samples with gripper.sdf renamed (libsdformat 12 would read its own spec
    file gripper.sdf instead)."""
    copy = tmp_path / "composition"
    shutil.copytree(SAMPLES, copy)
    for path in copy.rglob("*.sdf"):
        path.write_text(path.read_text().replace("gripper.sdf", "gripper_part.sdf"))
    for path in list(copy.rglob("gripper.sdf")):
        path.rename(path.with_name("gripper_part.sdf"))
    return copy


@pytest.mark.parametrize("sample", [ARM_AND_GRIPPER, SUPER, SUPER_WORLD],
                         ids=lambda p: p.name)
def test_samples_agree_with_reference(sdf_reference, tmp_path, sample):
    copy = renamed_copy(tmp_path) / sample.relative_to(SAMPLES)
    reference = reference_report(sdf_reference, copy)
    assert_agrees_with_reference(frames_report(loaded(sample)), reference)
