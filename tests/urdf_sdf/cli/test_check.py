"""``urdf-sdf check`` (``urdf_sdf.cli.check``): the converters' rules reported by every
check, the physics tier asked for with ``--physics`` (text and ``--json``, against the
schema), ``--payload LINK=KG`` and its usage errors, and ``--strict`` turning the tier's
warnings into a failing exit code."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from urdf_sdf import json_schema
from urdf_sdf.cli.check import payload_problem, payloads
from urdf_sdf.cli.main import app

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EFFORT = str(FIXTURES / "physics" / "physics_effort_too_low.urdf")


def check(*args: str):
    return CliRunner().invoke(app, ["check", *args])


def test_plain_check_reports_the_mimic_urdf2sdf_refuses():
    result = check(str(FIXTURES / "physics" / "mimic_joint_unknown.urdf"))
    assert result.exit_code == 1
    assert "mimic_joint_unknown.urdf:12: error[MIMIC_JOINT_UNKNOWN]" in result.stdout


def test_plain_check_says_nothing_of_physics_and_physics_finds_the_joint():
    plain = check(EFFORT)
    assert plain.exit_code == 0 and "PHYSICS_" not in plain.stdout
    asked = check(EFFORT, "--physics")
    assert asked.exit_code == 0, asked.output  # warnings: the file is valid
    assert "physics_effort_too_low.urdf:10: warning[PHYSICS_EFFORT_TOO_LOW]: joint " \
           "[shoulder_lift] needs 59.19 N m" in asked.stdout
    assert asked.stdout.rstrip().endswith("physics_effort_too_low.urdf: valid")


def test_strict_makes_a_physics_finding_fail():
    result = check(EFFORT, "--physics", "--strict")
    assert result.exit_code == 1
    assert "error[PHYSICS_EFFORT_TOO_LOW]" in result.stdout


def test_payloads_are_summed_per_link_and_reach_the_tier():
    result = check(EFFORT, "--physics", "--payload", "tool=2", "--payload", "tool=3")
    assert "joint [elbow] needs 21.57 N m" in result.stdout  # 5 kg at the tool
    assert payloads(["tool=2", "a=b=1", "tool=3"]) == {"tool": 5.0, "a=b": 1.0}


@pytest.mark.parametrize("value", ["tool", "=3", "tool=-1", "tool=nan", "tool=heavy"])
def test_a_payload_that_is_not_link_equals_kilograms_is_a_usage_error(value):
    assert payload_problem(value) is not None
    result = check(EFFORT, "--physics", "--payload", value)
    assert result.exit_code == 2


def test_a_payload_without_physics_is_a_usage_error():
    result = check(EFFORT, "--payload", "tool=1")
    assert result.exit_code == 2 and "--payload needs --physics" in result.output


def test_a_payload_on_a_link_the_file_lacks_fails_that_file():
    result = check(EFFORT, "--physics", "--payload", "gripper=1")
    assert result.exit_code == 1 and "error[ELEMENT_MISSING]" in result.stdout


def test_physics_json_validates_against_the_schema():
    result = check(str(FIXTURES / "physics" / "physics_mimic_cycle.urdf"), "--physics",
                   "--json")
    summary = json.loads(result.stdout)
    jsonschema.Draft202012Validator(json_schema("check")).validate(summary)
    assert summary["valid"] is True
    assert [(d["code"], d["line"]) for d in summary["diagnostics"]] == \
        [("PHYSICS_MIMIC_CYCLE", 8)]
