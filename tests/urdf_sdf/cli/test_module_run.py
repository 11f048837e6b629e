"""``python -m urdf_sdf.cli.MODULE`` (``urdf_sdf.cli.module_run``): a module named as a
console script runs it exactly as ``python -m urdf_sdf.cli NAME`` does; any other module
of the command line that is not a program says how to run the commands and exits 2,
never 0 having done nothing."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from urdf_sdf.cli import module_run
from urdf_sdf.cli.module_run import PROGRAMS, SCRIPT_MODULES, module_of, script_run_as
from urdf_sdf.cli.quick import SCRIPTS

SAMPLES = Path(__file__).resolve().parents[3] / "samples"
CLI = Path(module_run.__file__).parent
MODULES = sorted(f"urdf_sdf.cli.{path.stem}" for path in CLI.glob("*.py")
                 if path.stem != "__init__")


MAIN_BLOCK = re.compile(r'^if __name__ == "__main__":', re.MULTILINE)


def python_m(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("module, script, source", [
    ("urdf_sdf.cli.urdf2sdf", "urdf2sdf", SAMPLES / "arm6.urdf"),
    ("urdf_sdf.cli.sdf2urdf", "sdf2urdf", SAMPLES / "arm6.sdf"),
])
def test_a_module_named_as_a_console_script_runs_it(module, script, source):
    by_module = python_m(module, str(source), "--json")
    by_name = python_m("urdf_sdf.cli", script, str(source), "--json")
    assert by_module.returncode == 0, by_module.stderr
    assert b'"ok": true' in by_module.stdout
    assert (by_module.returncode, by_module.stdout, by_module.stderr) == \
        (by_name.returncode, by_name.stdout, by_name.stderr)


def test_its_help_names_the_console_script():
    done = python_m("urdf_sdf.cli.urdf2sdf", "--help")
    assert done.returncode == 0
    assert b"Usage: urdf2sdf " in done.stdout


def test_a_module_that_is_not_a_program_says_how_to_run_the_commands():
    done = python_m("urdf_sdf.cli.batch", "robot.urdf")
    assert (done.returncode, done.stdout) == (2, b"")
    assert b"urdf_sdf.cli.batch is not a program" in done.stderr
    assert b"python -m urdf_sdf.cli {urdf2sdf,sdf2urdf,urdf-sdf} ARGS..." in done.stderr


@pytest.mark.parametrize("module", [m for m in MODULES
                                    if m not in PROGRAMS and m not in SCRIPT_MODULES])
def test_every_other_module_is_refused_before_its_code_runs(module, capsys):
    with pytest.raises(SystemExit) as stop:
        script_run_as(["python", "-m", module])
    assert stop.value.code == 2
    assert f"{module} is not a program" in capsys.readouterr().err


@pytest.mark.parametrize("module", sorted(PROGRAMS) + ["json", "urdf_sdf.cli.no_such_module"])
def test_programs_and_other_modules_are_left_to_python(module):
    assert script_run_as(["python", "-m", module]) is None


@pytest.mark.parametrize("module, script", sorted(SCRIPT_MODULES.items()))
def test_a_script_module_stands_for_its_console_script(module, script):
    assert script_run_as(["python", "-m", module]) == script
    assert script in SCRIPTS


def test_the_programs_are_the_modules_with_a_main_block():
    """A module of the command line that runs as a program (``if __name__ ==
    "__main__"``: the xacro sandbox, ``main``) is never refused, and a module listed as one
    is one."""
    with_main = {f"urdf_sdf.cli.{path.stem}" for path in CLI.glob("*.py")
                 if MAIN_BLOCK.search(path.read_text(encoding="utf-8"))}
    assert with_main == PROGRAMS - {"urdf_sdf.cli"}
    assert set(SCRIPT_MODULES) <= set(MODULES)


def test_the_usage_line_names_every_console_script():
    assert "{" + ",".join(SCRIPTS) + "}" in module_run.COMMANDS_USAGE


def test_the_xacro_sandbox_is_left_to_run():
    done = python_m("urdf_sdf.cli.xacro_sandbox")
    assert b"is not a program" not in done.stderr


@pytest.mark.parametrize("argv, module", [
    (["python", "-m", "urdf_sdf.cli.batch", "-m", "x"], "urdf_sdf.cli.batch"),
    (["python", "-murdf_sdf.cli.batch"], "urdf_sdf.cli.batch"),
    (["python", "-X", "dev", "-W", "error", "-Im", "urdf_sdf.cli.check", "a"],
     "urdf_sdf.cli.check"),
    (["python", "-Xfrozen_modules=off", "-m", "urdf_sdf.cli"], "urdf_sdf.cli"),
    (["python", "script.py", "-m", "urdf_sdf.cli.batch"], None),
    (["python", "-c", "pass", "-m", "urdf_sdf.cli.batch"], None),
    (["python", "-m"], None),
])
def test_module_of_reads_the_interpreter_command_line(argv, module):
    assert module_of(argv) == module
