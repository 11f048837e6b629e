"""The urdf-sdf command line, through typer's runner and one real subprocess."""
import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from urdf_sdf.cli.main import app

FIXTURES = Path(__file__).parent / "fixtures" / "core"
runner = CliRunner()


def test_frames_json_has_the_conformance_shape():
    result = runner.invoke(app, ["frames", str(FIXTURES / "joint_between_nested_models.sdf"),
                                 "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert set(report) == {"ok", "diagnostics", "links", "joints", "frames", "models"}
    assert report["links"]["gripper::body"][:3] == [0.0, 0.0, 1.0]
    assert report["models"]["gripper"] == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert "weld" in report["joints"] and "arm::gripper_mount" in report["frames"]


def test_frames_table_is_readable():
    result = runner.invoke(app, ["frames", str(FIXTURES / "joint_between_nested_models.sdf")])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["kind", "name", "x", "y", "z", "qw", "qx", "qy", "qz"]
    assert any(line.split()[:2] == ["link", "gripper::body"] for line in lines)


def test_check_valid_file_exits_zero():
    result = runner.invoke(app, ["check", str(FIXTURES / "joint_between_nested_models.sdf")])
    assert result.exit_code == 0
    assert "valid" in result.stdout


def test_check_invalid_file_prints_file_line_code_and_exits_one():
    path = FIXTURES / "sdf_1_9_joint_named_like_link_is_duplicate.sdf"
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:7: error[DUPLICATE_NAME]: joint with name[attachment]" in result.stdout


def test_check_usage_error_exits_two():
    assert runner.invoke(app, ["check"]).exit_code == 2
    assert runner.invoke(app, ["check", "a.sdf", "--no-such-option"]).exit_code == 2


def test_console_script_runs_as_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "check",
                           str(FIXTURES / "xml_malformed_mismatched_tag.sdf")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "xml_malformed_mismatched_tag.sdf:5:13: error[FILE_READ]" in proc.stdout  # line:col
    assert "Traceback" not in proc.stderr
