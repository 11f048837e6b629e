"""``--strict`` on every command: the diagnostics policy of the explicit context turns
warnings into errors, so the command exits 1 and writes nothing; without it the same
warnings leave the exit code at 0."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf.cli.main import app as urdf_sdf_app
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Policy, Severity
from urdf_sdf.core.loader import load
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

HERE = Path(__file__).resolve().parent
# Loads with one warning: NAME_RENAMED (a joint named like a link).
LOAD_WARNING = HERE / "fixtures" / "cli" / "strict_load_warning.urdf"
# Loads cleanly; converting it to URDF warns (position limits without effort and velocity).
CONVERSION_WARNING = HERE / "fixtures" / "cli" / "model_tree" / "models" / "pendulum" / \
    "model.sdf"

UMBRELLA_COMMANDS = [["check"], ["frames"], ["graph"], ["print"], ["diff", str(LOAD_WARNING)]]


def invoke(app, *args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("command", UMBRELLA_COMMANDS, ids=lambda c: c[0])
def test_umbrella_command_fails_on_a_warning_only_when_strict(command):
    lenient = invoke(urdf_sdf_app, command[0], LOAD_WARNING, *command[1:])
    assert lenient.exit_code == 0, lenient.output
    strict = invoke(urdf_sdf_app, command[0], LOAD_WARNING, *command[1:], "--strict")
    # diff: a file that does not load under --strict cannot be compared (exit 3)
    assert strict.exit_code == (3 if command[0] == "diff" else 1), strict.output
    assert "NAME_RENAMED" in strict.output


def test_check_reports_the_warning_as_an_error_when_strict():
    strict = invoke(urdf_sdf_app, "check", LOAD_WARNING, "--strict")
    assert "error[NAME_RENAMED]" in strict.stdout
    assert strict.stdout.splitlines()[-1].endswith(": invalid (1 error)")


def test_print_writes_nothing_when_strict(tmp_path):
    out = tmp_path / "printed.sdf"
    assert invoke(urdf_sdf_app, "print", LOAD_WARNING, "-o", out, "--strict").exit_code == 1
    assert not out.exists()


def test_urdf2sdf_writes_nothing_when_strict(tmp_path):
    out = tmp_path / "robot.sdf"
    assert invoke(urdf2sdf_app, LOAD_WARNING, "-o", out).exit_code == 0
    out.unlink()
    strict = invoke(urdf2sdf_app, LOAD_WARNING, "-o", out, "--strict")
    assert strict.exit_code == 1
    assert "error[NAME_RENAMED]" in strict.output
    assert not out.exists()


def test_sdf2urdf_conversion_warnings_fail_when_strict(tmp_path):
    out = tmp_path / "pendulum.urdf"
    assert invoke(sdf2urdf_app, CONVERSION_WARNING, "-o", out).exit_code == 0
    out.unlink()
    strict = invoke(sdf2urdf_app, CONVERSION_WARNING, "-o", out, "--strict")
    assert strict.exit_code == 1
    assert "error[JOINT_LIMIT_DEFAULTED]" in strict.output and "<effort>" in strict.output
    assert not out.exists()


def test_batch_counts_a_strict_warning_as_a_failure(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "robot.urdf").write_bytes(LOAD_WARNING.read_bytes())
    result = invoke(urdf2sdf_app, tree, "-o", tmp_path / "out", "--strict")
    assert result.exit_code == 1
    assert not (tmp_path / "out" / "robot.sdf").exists()


def test_policy_turns_warnings_into_errors_and_keeps_errors():
    warning = Diagnostic(Code.NAME_RENAMED, Severity.WARNING, "renamed", "f.urdf", 3)
    error = Diagnostic(Code.DUPLICATE_NAME, Severity.ERROR, "twice", "f.urdf", 4)
    assert Policy().apply([warning, error]) == [warning, error]
    strict = Policy(warnings_as_errors=True).apply([warning, error])
    assert [d.severity for d in strict] == [Severity.ERROR, Severity.ERROR]
    assert (strict[0].code, strict[0].file, strict[0].line) == (Code.NAME_RENAMED, "f.urdf", 3)
    assert strict[1] == error


def test_library_load_and_conversion_follow_the_context_policy():
    lenient = load(LOAD_WARNING, Context())
    assert lenient.ok
    strict = load(LOAD_WARNING, Context(policy=Policy(warnings_as_errors=True)))
    assert not strict.ok
    assert convert_urdf(lenient, ToSdf()).ok
    assert not convert_urdf(strict, ToSdf()).ok
