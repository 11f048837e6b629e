"""Model composition through the command lines: ``urdf-sdf frames``, ``check`` and
``diff`` and ``sdf2urdf`` on composed models (the proposal's examples and the fixtures).
"""
from __future__ import annotations

import json
import shutil

import pytest

from tests.compose_helpers import (
    ARM_AND_GRIPPER,
    ASSEMBLIES,
    ASSEMBLY_IDS,
    EXACT,
    FIX,
    ISOLATED_ENV,
    PARTS,
    SAMPLES,
    SUPER,
    SUPER_WORLD,
    runner,
)
from tests.support import assert_check_urdf_accepts
from urdf_sdf.cli.main import app as urdf_sdf_app
from urdf_sdf.cli.main import sdf2urdf_app
from urdf_sdf.core.base.pose import Pose, pose_gap


def test_cli_frames_on_composed_model():
    out = runner.invoke(urdf_sdf_app, ["frames", "--json", str(ARM_AND_GRIPPER)], env=ISOLATED_ENV)
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["ok"]
    a, b = report["frames"]["arm::gripper_mount"], report["frames"]["gripper::mount_point"]
    assert pose_gap(Pose(tuple(a[:3]), tuple(a[3:])), Pose(tuple(b[:3]), tuple(b[3:]))) <= EXACT
    assert set(report["models"]) == {"arm", "gripper"}
    table = runner.invoke(urdf_sdf_app, ["frames", str(SUPER_WORLD)], env=ISOLATED_ENV)
    assert table.exit_code == 0, table.output
    assert "bros::robot_2::gripper::mount" in table.stdout


@pytest.mark.parametrize("sample", [ARM_AND_GRIPPER, SUPER, SUPER_WORLD], ids=lambda p: p.name)
def test_cli_check_on_composed_models(sample):
    out = runner.invoke(urdf_sdf_app, ["check", str(sample)], env=ISOLATED_ENV)
    assert out.exit_code == 0, out.output
    assert f"{sample}: valid" in out.stdout


def test_cli_check_reports_errors_inside_included_files():
    path = FIX / "include_refers_up_pose.sdf"
    out = runner.invoke(urdf_sdf_app, ["check", str(path)], env=ISOLATED_ENV)
    assert out.exit_code == 1
    assert f"{PARTS / 'refers_up_pose.sdf'}:" in out.stdout
    assert "error[POSE_RELATIVE_TO_INVALID]" in out.stdout


@pytest.mark.parametrize("sample,model", ASSEMBLIES, ids=ASSEMBLY_IDS)
def test_cli_sdf2urdf_then_diff_on_composed_models(tmp_path, sample, model):
    urdf = tmp_path / (sample.stem + ".urdf")
    args = [str(sample), "-o", str(urdf)] + (["--model", model] if model else [])
    out = runner.invoke(sdf2urdf_app, args, env=ISOLATED_ENV)
    assert out.exit_code == 0, out.output
    assert_check_urdf_accepts(urdf)
    out = runner.invoke(urdf_sdf_app, ["diff", str(sample), str(urdf)], env=ISOLATED_ENV)
    assert out.exit_code == 0, out.output
    assert "are equivalent" in out.stdout
    # the URDF keeps the composed names
    text = urdf.read_text()
    assert "gripper" in text and ("arm::" in text)


def test_cli_sdf2urdf_world_needs_a_model():
    out = runner.invoke(sdf2urdf_app, [str(FIX / "include_merge_world.sdf")], env=ISOLATED_ENV)
    assert out.exit_code != 0
    out = runner.invoke(sdf2urdf_app, [str(FIX / "include_merge_world.sdf"), "--model", "cart_b"],
                        env=ISOLATED_ENV)
    assert out.exit_code == 0, out.output
    assert '<robot name="cart_b">' in out.stdout


def test_cli_diff_sees_a_moved_include(tmp_path):
    """diff compares composed poses: moving an included gripper is a difference."""
    copy = tmp_path / "composition"
    shutil.copytree(SAMPLES, copy)
    moved = copy / "arm_and_gripper.sdf"
    moved.write_text(moved.read_text().replace('<pose relative_to="arm::gripper_mount"/>',
                                               '<pose relative_to="arm::gripper_mount">'
                                               '0 0 0.01 0 0 0</pose>'))
    out = runner.invoke(urdf_sdf_app, ["diff", str(ARM_AND_GRIPPER), str(moved)],
                        env=ISOLATED_ENV)
    assert out.exit_code == 1, out.output
    assert "gripper" in out.stdout
