"""The ``sdf2urdf`` command line, through typer's runner and one real subprocess.

Exit codes: 0 converted (warnings allowed), 1 invalid input or conversion refused,
2 usage error. The URDF goes to stdout or, atomically, to ``-o FILE``; diagnostics go
to stderr as ``file:line: severity[CODE]: message``; the input is never overwritten and
bad input never ends in a traceback.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from tests.support import (
    assert_check_urdf_accepts,
    assert_input_not_overwritten,
    assert_written_atomically,
    assert_xml_equivalent,
    only_files,
)
from urdf_sdf.cli.main import sdf2urdf_app as app

HERE = Path(__file__).resolve().parents[2]
FIXTURES = HERE / "fixtures" / "sdf2urdf"
PARITY = HERE / "fixtures" / "parity"
DIAGNOSTIC_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<severity>warning|error)"
                             r"\[(?P<code>[A-Z_0-9]+)\]: (?P<message>.+)$")
runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def fixture(stem: str) -> Path:
    return FIXTURES / f"{stem}.sdf"


def golden(stem: str) -> Path:
    return FIXTURES / f"{stem}.urdf"


def diagnostics(stderr: str) -> list[re.Match]:
    return [m for m in map(DIAGNOSTIC_LINE.match, stderr.splitlines()) if m]


# ---- output ------------------------------------------------------------------------------

@pytest.mark.parametrize("stem", ["frames_become_fixed_joints", "nested_models", "mimic_axis",
                                  "sdf_1_4_model_frame_poses"])
def test_stdout_is_the_urdf(stem):
    result = invoke(fixture(stem))
    assert result.exit_code == 0, result.stderr
    assert_xml_equivalent(result.stdout_bytes, golden(stem))


def test_output_file_is_written_and_nothing_else(tmp_path):
    out = tmp_path / "robot.urdf"
    result = invoke(fixture("joint_to_world"), "-o", out)
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == b""
    assert_xml_equivalent(out.read_bytes(), golden("joint_to_world"))
    assert only_files(tmp_path) == ["robot.urdf"]
    assert_check_urdf_accepts(out)


def test_output_file_replaces_an_existing_file(tmp_path):
    out = tmp_path / "robot.urdf"
    out.write_bytes(b"old")
    assert invoke(fixture("mimic_axis"), "--output", out).exit_code == 0
    assert_xml_equivalent(out.read_bytes(), golden("mimic_axis"))
    assert only_files(tmp_path) == ["robot.urdf"]


def test_output_file_is_written_atomically(tmp_path, monkeypatch):
    assert_written_atomically(invoke, fixture("mimic_axis"), tmp_path / "robot.urdf",
                              monkeypatch)


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink"])
def test_refuses_to_overwrite_the_input(tmp_path, spelling):
    sdf = tmp_path / "robot.sdf"
    shutil.copyfile(fixture("joint_to_world"), sdf)
    assert_input_not_overwritten(invoke, sdf, spelling)


def test_output_into_a_missing_directory_is_a_usage_error(tmp_path):
    result = invoke(fixture("joint_to_world"), "-o", tmp_path / "no" / "such" / "out.urdf")
    assert result.exit_code == 2
    assert not (tmp_path / "no").exists()


def test_output_to_a_directory_is_a_usage_error(tmp_path):
    directory = tmp_path / "out"
    directory.mkdir()
    result = invoke(fixture("joint_to_world"), "-o", directory)
    assert result.exit_code == 2, result.exception
    assert "Traceback" not in result.stderr
    assert only_files(directory) == []


# ---- options -----------------------------------------------------------------------------

def test_separator_option():
    result = invoke(fixture("nested_models"), "--separator", "__")
    assert result.exit_code == 0, result.stderr
    assert_xml_equivalent(result.stdout_bytes,
                          golden("nested_models").read_bytes().replace(b"::", b"__"))


def test_drop_frames_option_warns_per_frame():
    source = fixture("frames_become_fixed_joints")
    result = invoke(source, "--drop-frames")
    assert result.exit_code == 0
    robot = etree.fromstring(result.stdout_bytes)
    assert {l.get("name") for l in robot.findall("link")} == {"base", "head"}
    warned = [m for m in diagnostics(result.stderr) if m["severity"] == "warning"
              and "dropped" in m["message"]]
    assert sorted(re.search(r"frame \[(\w+)\]", m["message"]).group(1) for m in warned) == \
        ["at_pan", "camera", "camera_optical", "on_base"]
    assert all(m["file"] == str(source) for m in warned)


def test_model_option_picks_a_world_model():
    result = invoke(fixture("world_two_models"), "--model", "box")
    assert result.exit_code == 0, result.stderr
    assert etree.fromstring(result.stdout_bytes).get("name") == "box"


def test_world_with_two_models_without_model_exits_one():
    source = fixture("world_two_models")
    result = invoke(source)
    assert result.exit_code == 1
    assert result.stdout_bytes == b""
    assert "--model" in result.stderr and "box" in result.stderr and "pendulum" in result.stderr
    assert result.stderr.startswith(str(source))


def test_approximate_option():
    source = PARITY / "parity_joint_type.sdf"
    refused = invoke(source)
    assert refused.exit_code == 1 and refused.stdout_bytes == b""
    result = invoke(source, "--approximate")
    assert result.exit_code == 0, result.stderr
    assert any("[shoulder]" in m["message"] and "ball" in m["message"]
               for m in diagnostics(result.stderr) if m["severity"] == "warning")
    # revolute joints; without position limits (as here) URDF calls them continuous
    types = {j.get("type") for j in etree.fromstring(result.stdout_bytes).findall("joint")}
    assert types == {"continuous"}


def test_uri_scheme_option():
    result = invoke(fixture("mesh_model_uri"), "--uri-scheme", "package")
    assert result.exit_code == 0
    assert b'filename="package://meshy/meshes/body.dae"' in result.stdout_bytes
    assert b"model://" not in result.stdout_bytes
    plain = invoke(fixture("mesh_model_uri"))
    assert b'filename="model://meshy/meshes/body.dae"' in plain.stdout_bytes


def test_unknown_uri_scheme_is_a_usage_error(tmp_path):
    result = invoke(fixture("mesh_model_uri"), "--uri-scheme", "http", "-o", tmp_path / "o.urdf")
    assert result.exit_code == 2
    assert "uri-scheme" in result.stderr
    assert only_files(tmp_path) == []


def test_missing_argument_or_unknown_option_is_a_usage_error():
    assert invoke().exit_code == 2
    assert invoke(fixture("mimic_axis"), "--no-such-option").exit_code == 2


# ---- diagnostics -------------------------------------------------------------------------

def test_warnings_go_to_stderr_as_file_line_code():
    source = fixture("static_model")
    result = invoke(source)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert lines
    for line in lines:
        if line.startswith(" "):  # the source line and caret under a diagnostic
            continue
        assert DIAGNOSTIC_LINE.match(line), line
    assert any(line.startswith(f"{source}:4: warning[") and "static" in line for line in lines)
    assert b"warning[" not in result.stdout_bytes


@pytest.mark.parametrize("source, code, line, named", [
    (PARITY / "parity_not_a_tree_loop.sdf", "URDF_KINEMATIC_LOOP", 24, "closing"),
    (PARITY / "parity_joint_type.sdf", "URDF_PARITY_JOINT_TYPE", 6, "shoulder"),
])
def test_refused_conversion_exits_one_with_file_line_code(source, code, line, named, tmp_path):
    out = tmp_path / "out.urdf"
    result = invoke(source, "-o", out)
    assert result.exit_code == 1
    errors = [m for m in diagnostics(result.stderr) if m["severity"] == "error"]
    assert any(m["code"] == code and m["file"] == str(source) and int(m["line"]) == line
               and named in m["message"] for m in errors), result.stderr
    assert only_files(tmp_path) == []
    assert result.stdout_bytes == b""


def test_invalid_sdf_exits_one_with_its_diagnostics(tmp_path):
    bad = tmp_path / "bad.sdf"
    bad.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n'
                   '    <link name="a"/>\n    <link name="a"/>\n  </model>\n</sdf>\n')
    result = invoke(bad)
    assert result.exit_code == 1
    assert f"{bad}:5: error[DUPLICATE_NAME]" in result.stderr
    assert result.stdout_bytes == b""


BAD_INPUTS = {
    "empty.sdf": b"",
    "binary.sdf": b"\x00\x01\x02garbage\xff",
    "malformed.sdf": b'<sdf version="1.9"><model name="m"><link name="a"></model></sdf>',
    "not_sdf.sdf": b"<html><body>hello</body></html>",
    "no_model.sdf": b'<?xml version="1.0"?>\n<sdf version="1.9"/>\n',
    "bad_pose.sdf": b'<?xml version="1.0"?>\n<sdf version="1.9">\n<model name="m">\n'
                    b'<link name="a"><pose>1 2 x</pose></link>\n</model>\n</sdf>\n',
    # valid, and convertible: a world whose one model has a joint
    "world_with_joint.sdf": (FIXTURES / "world_one_model.sdf").read_bytes(),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_never_ends_in_a_traceback(name, tmp_path):
    """Anything but a convertible model: exit 1 (0 only if it did convert), diagnostics as
    file:line lines, never an uncaught exception."""
    source = tmp_path / name
    source.write_bytes(BAD_INPUTS[name])
    result = invoke(source, "-o", tmp_path / "out.urdf")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert "Traceback" not in result.stderr
    assert result.exit_code in (0, 1)
    if result.exit_code == 1:
        assert any(m["severity"] == "error" for m in diagnostics(result.stderr)) or \
            re.search(rf"^{re.escape(str(source))}: error\[", result.stderr, re.M), result.stderr
        assert not (tmp_path / "out.urdf").exists()


def test_missing_input_file_exits_one(tmp_path):
    result = invoke(tmp_path / "nope.sdf")
    assert result.exit_code == 1
    assert "nope.sdf" in result.stderr and "error[" in result.stderr


# ---- a real process ----------------------------------------------------------------------

def test_module_runs_as_a_subprocess(tmp_path):
    source = fixture("frames_become_fixed_joints")
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "sdf2urdf", str(source)],
                          capture_output=True, cwd=HERE.parent)
    assert proc.returncode == 0, proc.stderr
    assert_xml_equivalent(proc.stdout, golden("frames_become_fixed_joints"))

    out = tmp_path / "out.urdf"
    loop = PARITY / "parity_not_a_tree_loop.sdf"
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "sdf2urdf",
                           str(loop), "-o", str(out)],
                          capture_output=True, text=True, cwd=HERE.parent)
    assert proc.returncode == 1
    assert f"{loop}:24: error[URDF_KINEMATIC_LOOP]" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "sdf2urdf"
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    for option in ("--output", "--model", "--separator", "--drop-frames", "--approximate",
                   "--uri-scheme"):
        assert option in proc.stdout


def test_report_names_the_gazebo_blocks_carried_and_what_drop_frames_drops():
    sample = HERE.parent / "samples" / "diff_drive.sdf"
    result = invoke(sample, "--report", "--quiet")
    assert result.exit_code == 0 and result.stdout.startswith("<?xml")
    assert result.stderr.splitlines() == [
        f"{sample}: report: exact, with carried content",
        "  converted: 6 visuals, 6 collisions, links 7 -> 8, joints 6 -> 7, frames 1 -> 0",
        "  carried (in the URDF): <gazebo> (6) [CONTENT_KEPT_IN_GAZEBO (6)]",
        "  dropped: nothing"]
    dropped = invoke(sample, "--report", "--quiet", "--drop-frames")
    assert dropped.stderr.splitlines()[0] == f"{sample}: report: changed: FRAME_DROPPED (1)"
    assert "  dropped: FRAME_DROPPED (1)" in dropped.stderr.splitlines()
