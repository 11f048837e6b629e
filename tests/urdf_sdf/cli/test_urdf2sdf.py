"""The ``urdf2sdf`` command line, through typer's runner and one real subprocess.

Exit codes: 0 converted (warnings allowed), 1 invalid input or conversion refused,
2 usage error. The SDF goes to stdout or, atomically, to ``-o FILE``; diagnostics go to
stderr as ``file:line: severity[CODE]: message``; the input is never overwritten.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from tests.support import (
    assert_input_not_overwritten,
    assert_written_atomically,
    assert_xml_equivalent,
    only_files,
)
from urdf_sdf import json_schema
from urdf_sdf.cli.main import urdf2sdf_app as app

HERE = Path(__file__).resolve().parents[2]
FEATURES = HERE / "fixtures" / "urdf2sdf" / "features"
INVALID = HERE / "fixtures" / "urdf" / "urdf_kinematic_loop.urdf"
DIAGNOSTIC_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<severity>warning|error)"
                             r"\[(?P<code>[A-Z_]+)\]: (?P<message>.+)$")
runner = CliRunner()


def feature(stem: str) -> Path:
    return FEATURES / f"{stem}.urdf"


def golden(stem: str, variant: str = "") -> Path:
    name = f"{stem}.{variant}.sdf" if variant else f"{stem}.sdf"
    return FEATURES / name


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


# ---- output ------------------------------------------------------------------------------

@pytest.mark.parametrize("stem, args, variant", [
    ("joint_revolute_limit_dynamics", [], ""),
    ("joint_revolute_limit_dynamics", ["--relative"], "relative"),
    ("mesh_package_uri_scale", ["--uri-scheme", "model"], "model_uri"),
    ("mimic_joint", ["--sdf-version", "1.10"], "v1_10"),
])
def test_stdout_is_the_sdf(stem, args, variant):
    result = invoke(feature(stem), *args)
    assert result.exit_code == 0, result.stderr
    assert_xml_equivalent(result.stdout_bytes, golden(stem, variant))


def test_output_file_is_written_and_nothing_else(tmp_path):
    out = tmp_path / "robot.sdf"
    result = invoke(feature("joint_prismatic"), "-o", out)
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == b""
    assert_xml_equivalent(out.read_bytes(), golden("joint_prismatic"))
    assert only_files(tmp_path) == ["robot.sdf"]  # no temporary file left behind


def test_output_file_replaces_an_existing_file(tmp_path):
    out = tmp_path / "robot.sdf"
    out.write_bytes(b"old")
    assert invoke(feature("joint_prismatic"), "--relative", "-o", out).exit_code == 0
    assert_xml_equivalent(out.read_bytes(), golden("joint_prismatic", "relative"))
    assert only_files(tmp_path) == ["robot.sdf"]


def test_output_file_is_written_atomically(tmp_path, monkeypatch):
    assert_written_atomically(invoke, feature("joint_prismatic"), tmp_path / "robot.sdf",
                              monkeypatch)


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_new_output_file_has_the_usual_permissions(tmp_path, umask_022):
    """Atomic writing must not leak the temporary file's private mode (0600): a new file
    is created as any other, 0666 minus the umask."""
    out = tmp_path / "robot.sdf"
    assert invoke(feature("joint_prismatic"), "-o", out).exit_code == 0
    assert oct(out.stat().st_mode & 0o777) == oct(0o644)


def test_replaced_output_file_keeps_its_permissions(tmp_path, umask_022):
    out = tmp_path / "robot.sdf"
    out.write_bytes(b"old")
    out.chmod(0o664)
    assert invoke(feature("joint_prismatic"), "-o", out).exit_code == 0
    assert_xml_equivalent(out.read_bytes(), golden("joint_prismatic"))
    assert oct(out.stat().st_mode & 0o777) == oct(0o664)


def test_output_to_a_directory_is_a_usage_error(tmp_path):
    """``-o DIR`` is a usage error with a message, not a traceback; nothing is left in DIR."""
    directory = tmp_path / "out"
    directory.mkdir()
    result = invoke(feature("joint_prismatic"), "-o", directory)
    assert result.exit_code == 2, result.exception
    assert "Traceback" not in result.stderr
    assert only_files(directory) == [] and only_files(tmp_path) == ["out"]


def test_output_into_a_missing_directory_is_a_usage_error(tmp_path):
    result = invoke(feature("joint_prismatic"), "-o", tmp_path / "no" / "such" / "out.sdf")
    assert result.exit_code == 2
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink"])
def test_refuses_to_overwrite_the_input(tmp_path, spelling):
    urdf = tmp_path / "robot.urdf"
    shutil.copyfile(feature("joint_prismatic"), urdf)
    assert_input_not_overwritten(invoke, urdf, spelling)


# ---- diagnostics -------------------------------------------------------------------------

def test_warnings_go_to_stderr_as_file_line_code():
    urdf = feature("link_massless_moving_joint_warning")
    result = invoke(urdf)
    assert result.exit_code == 0
    assert_xml_equivalent(result.stdout_bytes, golden("link_massless_moving_joint_warning"))
    lines = result.stderr.splitlines()
    assert lines, "no warning"
    for line in lines:
        if line.startswith(" "):  # the source line and caret under a diagnostic
            continue
        assert DIAGNOSTIC_LINE.match(line), line
    assert any(line.startswith(f"{urdf}:6: warning[") and "[ghost]" in line for line in lines)
    assert b"warning[" not in result.stdout_bytes


def test_undefined_material_warning_has_its_code_and_line():
    urdf = feature("material_undefined_reference")
    result = invoke(urdf)
    assert result.exit_code == 0
    assert f"{urdf}:9: warning[URDF_MATERIAL_UNDEFINED]: " in result.stderr
    assert "nowhere" in result.stderr


def test_invalid_urdf_exits_one_with_coded_errors_and_writes_nothing(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(INVALID, "-o", out)
    assert result.exit_code == 1
    errors = [m for m in map(DIAGNOSTIC_LINE.match, result.stderr.splitlines())
              if m and m["severity"] == "error"]
    assert any(m["code"] == "URDF_KINEMATIC_LOOP" and m["file"] == str(INVALID)
               for m in errors), result.stderr
    assert only_files(tmp_path) == []
    assert result.stdout_bytes == b""


def test_invalid_urdf_to_stdout_prints_no_sdf():
    result = invoke(INVALID)
    assert result.exit_code == 1
    assert result.stdout_bytes == b""


def test_relative_with_sdf_version_1_6_is_refused_naming_relative_to(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(feature("joint_prismatic"), "--relative", "--sdf-version", "1.6", "-o", out)
    assert result.exit_code == 1
    assert "relative_to" in result.stderr
    assert "error[" in result.stderr
    assert only_files(tmp_path) == []


def test_frames_with_sdf_version_1_6_are_refused_naming_frame(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(feature("link_massless_leaf_fixed_becomes_frame"), "--sdf-version", "1.6",
                    "-o", out)
    assert result.exit_code == 1
    assert "frame" in result.stderr
    assert only_files(tmp_path) == []


def test_sdf_version_1_6_without_relative_is_allowed():
    result = invoke(feature("pose_absolute_shortest_float"), "--sdf-version", "1.6")
    assert result.exit_code == 0, result.stderr
    assert b'<sdf xmlns:urdf="urn:urdf-sdf:urdf" version="1.6">' in result.stdout_bytes


def test_mimic_defaults_to_1_11_and_with_lower_version_is_custom():
    result = invoke(feature("mimic_joint"))
    assert result.exit_code == 0
    assert_xml_equivalent(result.stdout_bytes, golden("mimic_joint"))
    result = invoke(feature("mimic_joint"), "--sdf-version", "1.6")
    assert result.exit_code == 0
    assert_xml_equivalent(result.stdout_bytes, golden("mimic_joint", "v1_6"))


def test_unknown_uri_scheme_is_a_usage_error(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(feature("mesh_package_uri_scale"), "--uri-scheme", "http", "-o", out)
    assert result.exit_code == 2
    assert "uri-scheme" in result.stderr
    assert only_files(tmp_path) == []


def test_missing_argument_is_a_usage_error():
    assert invoke().exit_code == 2
    assert invoke(feature("joint_prismatic"), "--no-such-option").exit_code == 2


# ---- a real process ----------------------------------------------------------------------

def test_module_runs_as_a_subprocess(tmp_path):
    urdf = feature("link_massless_moving_joint_warning")
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf",
                           str(urdf), "--relative"],
                          capture_output=True, cwd=HERE.parent)
    assert proc.returncode == 0, proc.stderr
    assert_xml_equivalent(proc.stdout,
                          golden("link_massless_moving_joint_warning", "relative"))
    stderr = proc.stderr.decode()
    assert f"{urdf}:6: warning[" in stderr and "Traceback" not in stderr

    out = tmp_path / "out.sdf"
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf",
                           str(INVALID), "-o", str(out)],
                          capture_output=True, text=True, cwd=HERE.parent)
    assert proc.returncode == 1
    assert "error[URDF_KINEMATIC_LOOP]" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


SAMPLES = HERE.parent / "samples"


def test_report_goes_to_stderr_and_leaves_stdout_the_sdf():
    plain = invoke(SAMPLES / "arm6.urdf")
    reported = invoke(SAMPLES / "arm6.urdf", "--report")
    assert reported.exit_code == 0
    assert reported.stdout_bytes == plain.stdout_bytes
    report = reported.stderr[len(plain.stderr):].splitlines()
    assert report == [
        f"{SAMPLES / 'arm6.urdf'}: report: exact, with carried content",
        "  converted: 10 visuals, 10 collisions, links 11 -> 10, joints 10 -> 9, frames 0 -> 1",
        "  carried (in the SDF): urdf:material (3), urdf:transmission (1)",
        "  dropped: nothing"]


def test_report_is_printed_under_quiet_and_names_lumping_and_repairs():
    result = invoke(HERE / "fixtures" / "codes" / "link_inertia_repaired.urdf", "--report",
                    "--lump-fixed", "--quiet")
    assert result.exit_code == 0
    verdict = result.stderr.splitlines()[0]
    assert verdict.endswith("report: approximated: LINK_INERTIA_REPAIRED (1)"), verdict
    assert "  repaired: LINK_INERTIA_REPAIRED (1)" in result.stderr.splitlines()


def test_report_with_json_is_the_json_s_report_and_follows_the_schema(tmp_path):
    out = tmp_path / "arm6.sdf"
    result = invoke(SAMPLES / "arm6.urdf", "--report", "--json", "-o", out)
    assert result.exit_code == 0 and result.stderr == ""
    summary = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json_schema("conversion")).validate(summary)
    assert summary["report"]["verdict"] == {"kind": "exact-with",
                                            "text": "exact, with carried content"}
    assert summary["report"]["carried"] == {"urdf:material": 3, "urdf:transmission": 1}
    assert out.is_file()


def test_report_of_a_refused_file_says_refused_and_writes_nothing(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(INVALID, "--report", "-o", out)
    assert result.exit_code == 1 and not out.exists()
    assert result.stderr.splitlines()[-1] == \
        f"{INVALID}: report: refused: URDF_KINEMATIC_LOOP, POSE_RELATIVE_TO_CYCLE"
