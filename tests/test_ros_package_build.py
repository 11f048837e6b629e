"""``sdf2urdf MODEL --package-dir OUT``: the ROS package it writes builds with colcon, and
ROS finds the robot in what was installed (issue 27, item 9).

The package of each build type is made from the ``mini_arm`` sample as a user makes it
(``urdf2sdf --model-dir``, then ``sdf2urdf --package-dir --build-type``), built and
installed by ``colcon build`` with Debian's colcon, catkin and ament_cmake, and the
workspace's ``install/setup.sh`` is sourced. Then the installed package is found the way
ROS tools find it, never by our own resolver: ROS 2's ament index
(``ament_index_python.get_package_share_directory``, what RViz and robot_state_publisher
use for ``package://``) for ``ament_python`` and ``ament_cmake``, ROS 1's ``rospack find``
(what ``$(find pkg)`` and resource_retriever use) for ``catkin``. The URDF and every mesh
and texture it names by ``package://`` must be there, inside the install folder, with the
bytes the package holds.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from tests.support import REPO, ROS_BUILD_HINT, colcon, program, require
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app

SAMPLE = REPO / "samples" / "ros_ws" / "src"
BUILD_TIMEOUT = 180  # seconds for one colcon build (about 10 here); longer is a hang
URI = re.compile(r'filename="package://([^/"]+)/([^"]+)"')
# ROS 2's lookup of a package's share directory, run by colcon's own Python (where Debian
# installs ament_index_python): every package:// package of the URDF, by name.
AMENT_LOOKUP = ("import json, sys\n"
                "from ament_index_python.packages import get_package_share_directory\n"
                "print(json.dumps({name: get_package_share_directory(name)"
                " for name in sys.argv[1:]}))\n")


def test_an_ament_python_package_is_found_through_the_ament_index(tmp_path):
    package, install = _built_package(tmp_path, "ament_python", "arm_description")

    shares = _ament_shares(install, ["arm_description"])

    _assert_installed(package, shares, install)


def test_a_catkin_package_is_found_by_rospack(tmp_path):
    _require_cmake_package("catkin")
    rospack = program("rospack", "ROS 1's rospack", ROS_BUILD_HINT)
    package, install = _built_package(tmp_path, "catkin", "arm_description")
    environment = _sourced(install)
    environment["ROS_HOME"] = str(tmp_path / "ros_home")  # rospack's cache

    found = subprocess.run([rospack, "find", "arm_description"], capture_output=True,
                           text=True, env=environment, timeout=BUILD_TIMEOUT,
                           stdin=subprocess.DEVNULL)

    assert found.returncode == 0, found.stderr
    _assert_installed(package, {"arm_description": found.stdout.strip()}, install)


def test_an_ament_cmake_package_is_found_through_the_ament_index(tmp_path):
    _require_cmake_package("ament_cmake")
    package, install = _built_package(tmp_path, "ament_cmake", "arm_description")

    shares = _ament_shares(install, ["arm_description"])

    _assert_installed(package, shares, install)


def test_the_catkin_build_file_sets_policies_cmake_4_accepts(tmp_path):
    """CMake 4 refuses a policy version below 3.5 (ROS 1's template says
    ``cmake_minimum_required(VERSION 3.0.2)``): the line sets the policies of CMake 3.10
    (CMP0071 is 3.10's) while older CMake still reads 3.0.2 as the minimum. CMake runs the
    line in script mode, as far as it reads without configuring a project."""
    package = _package(tmp_path, "catkin", "arm_description")
    cmake = program("cmake", "CMake", "apt-get install cmake")
    first_line = (package / "CMakeLists.txt").read_text().splitlines()[0]
    script = tmp_path / "minimum.cmake"
    script.write_text(f"{first_line}\ncmake_policy(GET CMP0071 state)\n"
                      'message(STATUS "CMP0071=${state}")\n')

    checked = subprocess.run([cmake, "-P", str(script)], capture_output=True, text=True,
                             timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL)

    assert first_line.startswith("cmake_minimum_required(VERSION 3.0.2...")
    assert checked.returncode == 0, checked.stderr
    assert "CMP0071=NEW" in checked.stdout, checked.stdout + checked.stderr


# ---- the package, built -----------------------------------------------------------------

def _package(tmp_path: Path, build_type: str, name: str) -> Path:
    """``src/NAME``: the mini_arm sample through a Gazebo model directory into a package."""
    model = tmp_path / "models" / "mini_arm"
    runner = CliRunner()
    made = runner.invoke(urdf2sdf_app, [str(SAMPLE / "mini_arm" / "urdf" / "mini_arm.urdf"),
                                        "--package-path", str(SAMPLE), "--model-dir",
                                        str(model)])
    assert made.exit_code == 0, made.output
    package = tmp_path / "src" / name
    converted = runner.invoke(sdf2urdf_app, [str(model), "--package-dir", str(package),
                                             "--build-type", build_type])
    assert converted.exit_code == 0, converted.output
    return package


def _built_package(tmp_path: Path, build_type: str, name: str) -> tuple[Path, Path]:
    """The package's source folder and the workspace's install folder after
    ``colcon build``."""
    tool = colcon()
    python = _colcon_python(tool)
    require(_imports(python, "colcon_ros"), "colcon's ROS extension", ROS_BUILD_HINT)
    package = _package(tmp_path, build_type, name)
    command = [tool, "build", "--base-paths", "src", "--build-base", "build",
               "--install-base", "install",
               # ROS's CMake code runs Python modules installed for colcon's Python, not
               # the test's interpreter first on PATH
               "--cmake-args", f"-DPYTHON_EXECUTABLE={python}",
               f"-DPython3_EXECUTABLE={python}", "--no-warn-unused-cli"]
    built = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                           env=_clean_environment(tmp_path), timeout=BUILD_TIMEOUT,
                           stdin=subprocess.DEVNULL)
    assert built.returncode == 0, f"colcon build failed:\n{built.stdout[-4000:]}\n{built.stderr}"
    return package, tmp_path / "install"


def _clean_environment(tmp_path: Path) -> dict[str, str]:
    """The test's environment without an earlier ROS workspace, colcon's settings in
    ``tmp_path``."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("AMENT_PREFIX_PATH", "CMAKE_PREFIX_PATH",
                                  "ROS_PACKAGE_PATH", "COLCON_PREFIX_PATH", "PYTHONPATH")}
    environment["COLCON_HOME"] = str(tmp_path / "colcon_home")
    return environment


def _sourced(install: Path) -> dict[str, str]:
    """The environment after ``. install/setup.sh``, as a ROS user's shell has it."""
    shown = subprocess.run(["sh", "-c", '. "$1/setup.sh" && env -0', "sh", str(install)],
                           capture_output=True, env=_clean_environment(install.parent),
                           timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL)
    assert shown.returncode == 0, shown.stderr
    pairs = (entry.split("=", 1) for entry in shown.stdout.decode().split("\0") if "=" in entry)
    return dict(pairs)


def _ament_shares(install: Path, names: list[str]) -> dict[str, str]:
    """Each package's share directory by ROS 2's ament index, in the sourced workspace."""
    python = _colcon_python(colcon())
    require(_imports(python, "ament_index_python"), "ROS 2's ament_index_python",
            ROS_BUILD_HINT)
    found = subprocess.run([python, "-c", AMENT_LOOKUP, *names], capture_output=True,
                           text=True, env=_sourced(install), timeout=BUILD_TIMEOUT,
                           stdin=subprocess.DEVNULL)
    assert found.returncode == 0, found.stderr
    return json.loads(found.stdout)


def _assert_installed(package: Path, shares: dict[str, str], install: Path) -> None:
    """The URDF in the share directory, and every file it names found there by its package,
    inside ``install`` and the same as the package's own."""
    name = package.name
    share = Path(shares[name])
    assert share.resolve().is_relative_to(install.resolve()), share
    urdf = share / "urdf" / f"{name}.urdf"
    assert urdf.read_bytes() == (package / "urdf" / f"{name}.urdf").read_bytes()
    uris = URI.findall(urdf.read_text())
    assert {owner for owner, _ in uris} == {name}
    assert {place for _, place in uris} == {"meshes/base.stl", "meshes/upper.obj",
                                            "meshes/visual/cover.dae"}
    for owner, place in uris:
        assert (Path(shares[owner]) / place).read_bytes() == (package / place).read_bytes()
    # what a mesh names beside it (an OBJ's material library and texture) came along too
    for place in ("meshes/upper.mtl", "meshes/paint.png"):
        assert (share / place).read_bytes() == (package / place).read_bytes()


# ---- what the machine has ---------------------------------------------------------------

def _colcon_python(tool: str) -> str:
    """The Python colcon runs on (its script's ``#!`` line), where Debian installs the
    Python side of catkin and ament."""
    first = Path(tool).read_text(errors="replace").split("\n", 1)[0]
    interpreter = first[2:].split() if first.startswith("#!") else []
    if interpreter and Path(interpreter[0]).name != "env":
        return interpreter[0]
    return shutil.which(interpreter[-1] if interpreter else "python3") or "python3"


def _imports(python: str, module: str) -> bool:
    return subprocess.run([python, "-c", f"import {module}"], capture_output=True,
                          timeout=BUILD_TIMEOUT, stdin=subprocess.DEVNULL).returncode == 0


def _require_cmake_package(name: str) -> None:
    """ROS's CMake package ``name`` (``share/NAME/cmake/NAMEConfig.cmake``) under /usr, a
    ROS distribution in /opt/ros or ``$CMAKE_PREFIX_PATH``."""
    prefixes = [Path("/usr"), *Path("/opt/ros").glob("*"),
                *(Path(p) for p in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep)
                  if p)]
    found = any((prefix / "share" / name / "cmake" / f"{name}Config.cmake").is_file()
                for prefix in prefixes)
    require(found, f"ROS's {name} CMake package", ROS_BUILD_HINT)

