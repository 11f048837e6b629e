"""A crash of our own is ``error[INTERNAL_ERROR]`` asking for a bug report, exit 1, never a
traceback; ``URDF_SDF_DEBUG=1`` lets the traceback through. Batch mode reports it per file
and converts the others."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import urdf_sdf.cli.sdf2urdf as sdf2urdf_cli
import urdf_sdf.cli.urdf2sdf as urdf2sdf_cli
from tests.urdf2sdf_helpers import batch_with_a_crash
from urdf_sdf.cli.crash import internal_error
from urdf_sdf.cli.quick import SCRIPTS
from urdf_sdf.core.base.diagnostics import Code

HERE = Path(__file__).resolve().parents[2]
PENDULUM_URDF = HERE.parent / "samples" / "pendulum.urdf"
PENDULUM_SDF = HERE.parent / "samples" / "pendulum.sdf"


class Boom(RuntimeError):
    pass


def explode(*args, **kwargs):
    raise Boom("converter fell over")


def run_main(module, monkeypatch, *args) -> int:
    monkeypatch.setattr(sys, "argv", [module.PROG, *map(str, args)])
    with pytest.raises(SystemExit) as exited:
        SCRIPTS[module.PROG]()
    return exited.value.code


@pytest.mark.parametrize("module, source", [(urdf2sdf_cli, PENDULUM_URDF),
                                            (sdf2urdf_cli, PENDULUM_SDF)],
                         ids=["urdf2sdf", "sdf2urdf"])
def test_a_crash_is_an_internal_error_without_traceback(module, source, monkeypatch, capsys,
                                                        tmp_path):
    monkeypatch.delenv("URDF_SDF_DEBUG", raising=False)
    name = "convert_urdf" if module is urdf2sdf_cli else "convert_sdf"
    monkeypatch.setattr(module, name, explode)
    out = tmp_path / "out.xml"
    assert run_main(module, monkeypatch, source, "-o", out) == 1
    captured = capsys.readouterr()
    assert f"{module.PROG}: error[INTERNAL_ERROR]: internal error (Boom: converter fell over)" \
        in captured.err
    assert "please report it" in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert not out.exists()


def test_debug_variable_lets_the_traceback_through(monkeypatch):
    monkeypatch.setenv("URDF_SDF_DEBUG", "1")
    monkeypatch.setattr(urdf2sdf_cli, "convert_urdf", explode)
    monkeypatch.setattr(sys, "argv", ["urdf2sdf", str(PENDULUM_URDF)])
    with pytest.raises(Boom):
        SCRIPTS["urdf2sdf"]()


def test_batch_reports_a_crash_per_file_and_goes_on(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("URDF_SDF_DEBUG", raising=False)
    tree = tmp_path / "tree"
    batch_with_a_crash(tree, ["a.urdf", "b.urdf"], PENDULUM_URDF, "a.urdf", Boom("only a"),
                       monkeypatch)
    assert run_main(urdf2sdf_cli, monkeypatch, tree, "-o", tmp_path / "out", "-j", "1") == 1
    captured = capsys.readouterr()
    assert "error[INTERNAL_ERROR]" in captured.err + captured.out
    assert "Traceback" not in captured.err + captured.out
    assert not (tmp_path / "out" / "a.sdf").exists()
    assert (tmp_path / "out" / "b.sdf").is_file()


def test_internal_error_message_is_bounded():
    diagnostic = internal_error(ValueError("x" * 5000), "robot.urdf")
    assert diagnostic.code is Code.INTERNAL_ERROR and diagnostic.is_error
    assert len(diagnostic.message) < 500
    assert diagnostic.file == "robot.urdf"


def test_a_command_leaves_its_objects_out_of_the_collection_at_exit():
    """A command's objects are frozen by its last exit handler (the interpreter's last
    collection would walk them all); exit handlers registered before still run after it,
    and the exit code is the command's."""
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
            "from urdf_sdf.cli.process import short_lived_process\n"
            "short_lived_process()\n"
            "model = [[i] for i in range(1000)]\n"
            "sys.exit(3)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 3
    assert result.stdout.strip() == "frozen True"
