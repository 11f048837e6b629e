"""Journeys with robot description packages laid out as pip wheels ship them (upkie_description,
jvrc_description, robot_properties_fingers: meshes beside the URDF, no package.xml), typed as
a user types them, from a temporary directory: ``package://`` resolves from the package's own
folder, a search path or ``--package NAME=DIR``; a package not found is one line; xacro with
its arguments, ``$(find PKG)`` and ``package://`` includes works on every command, and
``urdf-sdf expand`` prints what was converted."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import xacro_module

BIN = Path(sys.executable).parent
STL = (b"solid part\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
       b"vertex 0 1 0\nendloop\nendfacet\nendsolid part\n")
LINK = """  <link name="{prefix}{name}">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>
    </inertial>
    <visual><geometry><mesh filename="package://mybot_description/meshes/{mesh}"/></geometry>
    </visual>
    <collision><geometry><mesh filename="package://mybot_description/meshes/{mesh}"/>
    </geometry></collision>
  </link>
"""
JOINT = """  <joint name="{prefix}hinge" type="revolute">
    <parent link="{prefix}base"/><child link="{prefix}arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
"""
URDF = ('<robot name="mybot">\n' + LINK.format(prefix="", name="base", mesh="base.stl")
        + LINK.format(prefix="", name="arm", mesh="parts/arm.stl") + JOINT.format(prefix="")
        + "</robot>\n")
XACRO_PARTS = ('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
               '<xacro:macro name="arm" params="prefix">\n'
               + LINK.format(prefix="${prefix}", name="base", mesh="base.stl")
               + LINK.format(prefix="${prefix}", name="arm", mesh="parts/arm.stl")
               + JOINT.format(prefix="${prefix}") + "</xacro:macro>\n</robot>\n")
XACRO = """<robot name="mybot" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="prefix" default=""/>
  <xacro:include filename="$(find mybot_description)/urdf/parts.xacro"/>
  <xacro:include filename="package://mybot_description/urdf/colours.xacro"/>
  <xacro:arm prefix="$(arg prefix)"/>
</robot>
"""
COLOURS = '<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><material name="grey"/></robot>\n'


def wheel_layout(site: Path) -> Path:
    """``site/mybot_description`` as a pip wheel installs it; its URDF."""
    package = site / "mybot_description"
    (package / "meshes" / "parts").mkdir(parents=True)
    (package / "urdf").mkdir()
    (package / "__init__.py").write_text("")
    (package / "meshes" / "base.stl").write_bytes(STL)
    (package / "meshes" / "parts" / "arm.stl").write_bytes(STL)
    (package / "urdf" / "mybot.urdf").write_text(URDF)
    (package / "urdf" / "parts.xacro").write_text(XACRO_PARTS)
    (package / "urdf" / "colours.xacro").write_text(COLOURS)
    (package / "urdf" / "mybot.urdf.xacro").write_text(XACRO)
    return package / "urdf" / "mybot.urdf"


@pytest.fixture
def site(tmp_path, monkeypatch) -> Path:
    """A temporary directory holding the package, the current directory of the commands."""
    wheel_layout(tmp_path / "site")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def typed(command: str, *args: str) -> subprocess.CompletedProcess:
    """``command args...`` as a user types it, in the current directory, with no ROS or
    Gazebo search path in the environment."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH", "SDF_PATH",
                        "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH",
                        "GAZEBO_MODEL_PATH", "NO_COLOR")}
    return subprocess.run([str(BIN / command), *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_meshes_resolve_from_the_packages_own_folder_without_any_option(site):
    checked = typed("urdf-sdf", "check", "--meshes", "site/mybot_description/urdf/mybot.urdf")
    assert (checked.returncode, checked.stdout) == \
        (0, "site/mybot_description/urdf/mybot.urdf: valid\n")


def test_model_dir_copies_the_meshes_of_the_packages_own_folder(site):
    made = typed("urdf2sdf", "site/mybot_description/urdf/mybot.urdf", "--model-dir",
                 "models/mybot")
    assert made.returncode == 0, made.stderr
    copied = sorted(str(p.relative_to(site / "models" / "mybot" / "meshes"))
                    for p in (site / "models" / "mybot" / "meshes").rglob("*.stl"))
    assert copied == ["base.stl", "parts/arm.stl"]
    assert "model://mybot/meshes/parts/arm.stl" in (site / "models/mybot/model.sdf").read_text()


def test_a_package_not_found_is_one_line_saying_where_and_what_to_pass(site):
    (site / "site" / "mybot_description").rename(site / "site" / "checkout")
    checked = typed("urdf-sdf", "check", "--meshes", "site/checkout/urdf/mybot.urdf")
    errors = [line for line in checked.stdout.splitlines() if "error[" in line]
    assert checked.returncode == 1
    assert len(errors) == 1, checked.stdout  # four mesh uses, one line
    assert errors[0].startswith("site/checkout/urdf/mybot.urdf:5: error[MESH_UNRESOLVED]: "
                                "mesh [package://mybot_description/meshes/base.stl] does "
                                "not resolve: package [mybot_description] is not found "
                                "(looked for a folder named mybot_description above ")
    assert errors[0].endswith("pass --package mybot_description=DIR (DIR: the folder its "
                              "URIs start from) or --package-path with the folder holding "
                              "it (named by 4 URIs)")


def test_package_maps_a_folder_of_another_name(site):
    (site / "site" / "mybot_description").rename(site / "site" / "checkout")
    urdf = "site/checkout/urdf/mybot.urdf"
    checked = typed("urdf-sdf", "check", "--meshes", urdf,
                    "--package", "mybot_description=site/checkout")
    assert (checked.returncode, checked.stdout) == (0, f"{urdf}: valid\n")
    made = typed("urdf2sdf", urdf, "--package", "mybot_description=site/checkout",
                 "--model-dir", "models/mybot")
    assert made.returncode == 0, made.stderr
    assert (site / "models/mybot/meshes/parts/arm.stl").read_bytes() == STL


def test_package_path_finds_a_folder_named_after_the_package_without_package_xml(site):
    copy = site / "robot.urdf"  # the URDF alone, away from its package
    copy.write_text(URDF)
    alone = typed("urdf-sdf", "check", "--meshes", "robot.urdf")
    assert alone.returncode == 1
    found = typed("urdf-sdf", "check", "--meshes", "robot.urdf", "--package-path", "site")
    assert (found.returncode, found.stdout) == (0, "robot.urdf: valid\n")


def test_a_folder_of_the_packages_name_far_above_the_input_is_not_its_package(site):
    """Only the folder holding the input in its urdf/ folder is its own package: a URDF
    at ``home/user/robot/robot.urdf`` naming package://home/... reads nothing of ``home``."""
    secret = site / "home" / "secret.stl"
    secret.parent.mkdir()
    secret.write_bytes(STL)
    urdf = site / "home" / "user" / "robot" / "robot.urdf"
    urdf.parent.mkdir(parents=True)
    urdf.write_text(URDF.replace("package://mybot_description/meshes/base.stl",
                                 "package://home/secret.stl"))
    made = typed("urdf2sdf", "home/user/robot/robot.urdf", "--model-dir", "models/robot",
                 "--package", "mybot_description=site/mybot_description")
    assert "package [home] is not found" in made.stderr
    assert not (site / "models/robot/meshes/secret.stl").exists()


def test_help_says_what_a_package_path_is(site):
    shown = typed("urdf-sdf", "check", "--help")
    assert "A folder searched for package://PKG" in " ".join(shown.stdout.split())
    assert "--package" in shown.stdout and "NAME=DIR" in shown.stdout


@pytest.fixture
def xacro():
    return xacro_module()


XACRO_FILE = "site/mybot_description/urdf/mybot.urdf.xacro"


def test_expand_prints_the_urdf_with_find_and_package_includes(site, xacro):
    expanded = typed("urdf-sdf", "expand", XACRO_FILE, "--xacro-arg", "prefix:=left_")
    assert expanded.returncode == 0, expanded.stderr
    assert '<link name="left_arm">' in expanded.stdout
    assert '<material name="grey"/>' in expanded.stdout
    written = typed("urdf-sdf", "expand", XACRO_FILE, "-o", "mybot.urdf")
    assert written.returncode == 0, written.stderr
    assert '<link name="arm">' in (site / "mybot.urdf").read_text()


@pytest.mark.parametrize("command", [
    ("urdf-sdf", "check", "--meshes"), ("urdf-sdf", "frames"), ("urdf-sdf", "roundtrip"),
    ("urdf-sdf", "graph", "--kind", "tree"), ("urdf2sdf",)])
def test_every_command_takes_the_xacro_arguments(site, xacro, command):
    ran = typed(*command, "--xacro", XACRO_FILE, "--xacro-arg", "prefix:=left_")
    assert ran.returncode == 0, ran.stderr
    if command[-1] in ("frames", "tree") or command == ("urdf2sdf",):
        assert "left_arm" in ran.stdout


def test_diff_takes_the_xacro_arguments(site, xacro):
    same = typed("urdf-sdf", "diff", "--xacro", XACRO_FILE,
                 "site/mybot_description/urdf/mybot.urdf")
    assert same.returncode == 0, same.stdout + same.stderr
    other = typed("urdf-sdf", "diff", "--xacro", XACRO_FILE, "--xacro-arg", "prefix:=left_",
                  "site/mybot_description/urdf/mybot.urdf")
    assert other.returncode == 1


def test_find_of_a_package_in_another_folder_needs_package(site, xacro):
    (site / "site" / "mybot_description").rename(site / "site" / "checkout")
    xacro_file = "site/checkout/urdf/mybot.urdf.xacro"
    failed = typed("urdf-sdf", "expand", xacro_file)
    assert failed.returncode == 1
    assert "error[XACRO_ERROR]" in failed.stderr
    assert "pass --package mybot_description=DIR" in failed.stderr
    mapped = typed("urdf-sdf", "expand", xacro_file, "--package",
                   "mybot_description=site/checkout")
    assert mapped.returncode == 0, mapped.stderr
    assert '<link name="arm">' in mapped.stdout


def test_a_bad_package_mapping_is_a_usage_error(site):
    refused = typed("urdf-sdf", "check", "site/mybot_description/urdf/mybot.urdf",
                    "--package", "mybot_description")
    assert refused.returncode == 2
    assert "is not NAME=DIR" in refused.stderr
