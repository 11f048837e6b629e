"""``urdf-sdf expand`` (urdf_sdf.cli.expand): the expanded URDF on stdout or -o, the
xacro arguments and package folders of the other commands, a coded error otherwise."""
from __future__ import annotations

import pytest

from tests.support import xacro_module
from urdf_sdf.cli.expand import COMMAND, expand_code
from urdf_sdf.cli.xacro_expand import XacroOptions

XACRO = """<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="side" default="left"/>
  <link name="$(arg side)_base"/>
</robot>
"""


@pytest.fixture
def xacro_file(tmp_path):
    xacro_module()
    path = tmp_path / "r.urdf.xacro"
    path.write_text(XACRO)
    return path


def test_expand_prints_the_expanded_urdf_with_its_arguments(xacro_file, capsys):
    code = expand_code(xacro_file, None, XacroOptions(True, {"side": "right"}))
    assert code == 0
    assert '<link name="right_base"/>' in capsys.readouterr().out


def test_expand_writes_the_output_file(xacro_file, tmp_path):
    out = tmp_path / "r.urdf"
    assert expand_code(xacro_file, out, XacroOptions(True)) == 0
    assert '<link name="left_base"/>' in out.read_text()


def test_expand_reports_a_failing_expansion_with_its_code(tmp_path, capsys):
    xacro_module()
    broken = tmp_path / "broken.xacro"
    broken.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                      '<link name="$(arg missing)"/></robot>')
    assert expand_code(broken, None, XacroOptions(True)) == 1
    assert "error[XACRO_ERROR]" in capsys.readouterr().err


def test_expand_needs_no_xacro_flag_and_takes_the_package_options():
    flags = {flag for option in COMMAND.options for flag in option.flags}
    assert "--xacro" not in flags
    assert {"--xacro-arg", "--package", "--package-path", "-o"} <= flags
