"""Inputs that once ended in a traceback in some command: now a diagnostic and an exit code."""
from pathlib import Path

from typer.testing import CliRunner

from urdf_sdf.cli.main import app as urdf_sdf
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf

FIXTURES = Path(__file__).parent / "fixtures"
runner = CliRunner()


def test_parity_check_of_a_file_without_model_is_an_error_not_a_crash():
    result = runner.invoke(urdf_sdf, ["check", "--urdf-parity",
                                      str(FIXTURES / "core" / "sdf_without_model.sdf")])
    assert result.exit_code == 1
    assert "no model" in result.stderr


def test_diff_of_files_without_model_reports_it():
    path = str(FIXTURES / "core" / "sdf_without_model.sdf")
    result = runner.invoke(urdf_sdf, ["diff", path, path])
    assert result.exit_code == 3  # nothing to compare: not a difference
    assert "holds no model" in result.stdout


def test_diff_of_a_kinematic_loop_compares_the_loop_at_rest():
    path = str(FIXTURES / "parity" / "parity_not_a_tree_loop.sdf")
    result = runner.invoke(urdf_sdf, ["diff", path, path])
    assert result.exit_code == 0, result.stdout
    assert "equivalent" in result.stdout


def test_sdf2urdf_keeps_a_sensor_with_an_undeclared_namespace_prefix():
    path = str(FIXTURES / "core" / "undeclared_namespace_prefix_in_sensor.sdf")
    result = runner.invoke(sdf2urdf, [path])
    assert result.exit_code == 0, result.stderr
    assert "custom_sensor" in result.stdout
    assert "<gazebo reference=\"base\">" in result.stdout
