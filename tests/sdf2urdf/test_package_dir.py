"""``sdf2urdf MODEL --package-dir OUT``: a ROS package (package.xml format 3, the build
files of ament_cmake, ament_python or catkin installing urdf/ and meshes/) whose URDF
passes check_urdf and whose package:// meshes resolve once OUT's parent is a package
path."""
from __future__ import annotations

import ast
import struct
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from tests.support import assert_check_urdf_accepts
from urdf_sdf import Context, load
from urdf_sdf.cli.main import sdf2urdf_app as app
from urdf_sdf.core.inspect.resources import check_meshes

BINARY_STL = b"\0" * 80 + struct.pack("<I", 1) + b"\0" * 50
OBJ = b"mtllib crate.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"


@pytest.fixture
def models(tmp_path):
    """Gazebo models: ``rover`` (model.config with author, version 1.2) whose model.sdf
    uses its own meshes through model:// and a relative path, and includes ``crate``."""
    root = tmp_path / "models"
    rover, crate = root / "rover", root / "crate"
    (rover / "meshes").mkdir(parents=True)
    (crate / "meshes").mkdir(parents=True)
    (rover / "meshes" / "chassis.stl").write_bytes(BINARY_STL)
    (rover / "meshes" / "wheel.stl").write_bytes(BINARY_STL)
    (crate / "meshes" / "chassis.stl").write_bytes(b"crate" + BINARY_STL[5:])  # same name
    (crate / "meshes" / "crate.obj").write_bytes(OBJ)
    (crate / "meshes" / "crate.mtl").write_text("newmtl wood\nmap_Kd wood.png\n")
    (crate / "meshes" / "wood.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (rover / "model.config").write_text(
        "<model><name>rover</name><version>1.2</version><sdf version='1.9'>model.sdf</sdf>"
        "<author><name>Ada  Lovelace</name><email>ada@example.org</email></author>"
        "<description>A small\n rover</description></model>")
    (crate / "model.config").write_text(
        "<model><name>crate</name><sdf version='1.9'>model.sdf</sdf></model>")
    (rover / "model.sdf").write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="rover">
    <link name="chassis">
      <visual name="v"><geometry><mesh><uri>model://rover/meshes/chassis.stl</uri></mesh></geometry></visual>
      <collision name="c"><geometry><mesh><uri>meshes/chassis.stl</uri></mesh></geometry></collision>
    </link>
    <link name="wheel">
      <pose>0.2 0 0 0 0 0</pose>
      <visual name="v"><geometry><mesh><uri>meshes/wheel.stl</uri></mesh></geometry></visual>
    </link>
    <joint name="axle" type="continuous">
      <parent>chassis</parent><child>wheel</child><axis><xyz>0 1 0</xyz></axis>
    </joint>
    <include><uri>model://crate</uri><pose>0 0 0.3 0 0 0</pose></include>
    <joint name="load" type="fixed"><parent>chassis</parent><child>crate::box</child></joint>
  </model>
</sdf>
""")
    (crate / "model.sdf").write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="crate">
    <link name="box">
      <visual name="v"><geometry><mesh><uri>meshes/crate.obj</uri></mesh></geometry></visual>
      <collision name="c"><geometry><mesh><uri>meshes/chassis.stl</uri></mesh></geometry></collision>
    </link>
  </model>
</sdf>
""")
    return root


def make_package(models: Path, tmp_path: Path, build_type: str, name="rover_description"):
    out = tmp_path / "ws" / "src" / name
    result = CliRunner().invoke(app, [str(models / "rover"), "--package-dir", str(out),
                                      "--build-type", build_type])
    assert result.exit_code == 0, result.output
    return out, result


def files_of(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


MESHES = ["meshes/chassis.stl", "meshes/crate.mtl", "meshes/crate.obj", "meshes/rover/chassis.stl",
          "meshes/wheel.stl", "meshes/wood.png"]


@pytest.mark.parametrize("build_type", ["ament_cmake", "ament_python", "catkin"])
def test_package_urdf_passes_check_urdf_and_its_meshes_resolve(models, tmp_path, build_type):
    out, _ = make_package(models, tmp_path, build_type)
    urdf = out / "urdf" / "rover_description.urdf"
    assert_check_urdf_accepts(urdf)
    uris = [m.get("filename") for m in etree.parse(str(urdf)).iter("mesh")]
    assert uris and all(u.startswith("package://rover_description/meshes/") for u in uris)
    context = Context(package_paths=[str(out.parent)])
    loaded = load(urdf, context)
    assert loaded.ok and check_meshes(loaded, context) == []
    assert [f for f in files_of(out) if f.startswith(("meshes/", "urdf/"))] == \
        MESHES + ["urdf/rover_description.urdf"]


def test_package_xml_is_format_3_and_takes_the_model_config(models, tmp_path):
    out, result = make_package(models, tmp_path, "ament_cmake")
    package = etree.parse(str(out / "package.xml")).getroot()
    assert package.get("format") == "3"
    assert [child.tag for child in package] == ["name", "version", "description", "maintainer",
                                                "license", "buildtool_depend", "export"]
    assert package.findtext("name") == "rover_description"
    assert package.findtext("version") == "1.2.0"
    assert package.findtext("description") == "A small rover"
    assert (package.findtext("maintainer"), package.find("maintainer").get("email")) == \
        ("Ada Lovelace", "ada@example.org")
    assert package.findtext("export/build_type") == "ament_cmake"
    assert "placeholders for the license" in result.output


def test_ament_cmake_installs_urdf_and_meshes_into_share(models, tmp_path):
    out, _ = make_package(models, tmp_path, "ament_cmake")
    cmake = (out / "CMakeLists.txt").read_text()
    assert "project(rover_description)" in cmake
    assert "find_package(ament_cmake REQUIRED)" in cmake
    assert "install(DIRECTORY meshes urdf\n  DESTINATION share/${PROJECT_NAME})" in cmake
    assert cmake.rstrip().endswith("ament_package()")


def test_catkin_installs_into_the_package_share_destination(models, tmp_path):
    out, _ = make_package(models, tmp_path, "catkin")
    cmake = (out / "CMakeLists.txt").read_text()
    assert "find_package(catkin REQUIRED)" in cmake and "catkin_package()" in cmake
    assert "DESTINATION ${CATKIN_PACKAGE_SHARE_DESTINATION})" in cmake
    package = etree.parse(str(out / "package.xml")).getroot()
    assert package.findtext("buildtool_depend") == "catkin"
    assert package.find("export/build_type") is None


def test_ament_python_lists_every_installed_file(models, tmp_path):
    out, _ = make_package(models, tmp_path, "ament_python")
    setup = ast.parse((out / "setup.py").read_text())
    call = next(node for node in ast.walk(setup) if isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "setup")
    keywords = {k.arg: k.value for k in call.keywords}
    data_files = ast.literal_eval(keywords["data_files"])
    installed = {(destination, Path(f).name) for destination, files in data_files for f in files}
    expected = {(f"share/rover_description/{Path(f).parent.as_posix()}", Path(f).name)
                for f in MESHES + ["urdf/rover_description.urdf"]}
    assert expected <= installed
    assert ("share/ament_index/resource_index/packages", "rover_description") in installed
    assert all((out / f).is_file() for _, files in data_files for f in files)
    assert (out / "resource" / "rover_description").is_file()
    assert (out / "rover_description" / "__init__.py").is_file()
    assert "install_scripts=$base/lib/rover_description" in (out / "setup.cfg").read_text()


def test_package_name_must_be_a_ros_package_name(models, tmp_path):
    result = CliRunner().invoke(app, [str(models / "rover"), "--package-dir",
                                      str(tmp_path / "Rover-Description")])
    assert result.exit_code == 2 and "--package-name" in result.output
    named = CliRunner().invoke(app, [str(models / "rover"), "--package-dir",
                                     str(tmp_path / "Rover-Description"), "--package-name",
                                     "rover_description"])
    assert named.exit_code == 0, named.output
    assert (tmp_path / "Rover-Description" / "urdf" / "rover_description.urdf").is_file()


def test_a_folder_without_models_converts_nothing_and_says_so(tmp_path):
    (tmp_path / "in").mkdir()
    result = CliRunner().invoke(app, [str(tmp_path / "in"), "--package-dir", str(tmp_path / "p")])
    assert result.exit_code == 0 and "0 converted, 0 failed, 0 skipped" in result.output
    assert not (tmp_path / "p").exists()
    named = CliRunner().invoke(app, [str(tmp_path / "in"), "--package-dir",
                                     str(tmp_path / "p"), "--package-name", "one"])
    assert named.exit_code == 2  # --package-name names one package


def test_a_directory_of_models_gives_one_package_each(models, tmp_path):
    """Batch: each model directory under the tree becomes a package named after it."""
    out = tmp_path / "ws" / "src"
    result = CliRunner().invoke(app, [str(models), "--package-dir", str(out), "--build-type",
                                      "catkin"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["crate", "rover"]
    for name in ("crate", "rover"):
        assert_check_urdf_accepts(out / name / "urdf" / f"{name}.urdf")
        assert etree.parse(str(out / name / "package.xml")).findtext("name") == name
    assert "2 converted, 0 failed, 0 skipped" in result.output
