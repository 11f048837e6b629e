"""``urdf2sdf robot.urdf --model-dir OUT``: a Gazebo model directory whose meshes resolve
through ``model://`` with only OUT's parent on the model path."""
from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

import urdf_sdf
from tests.reference import run_reference
from urdf_sdf import Context, load
from urdf_sdf.cli.main import urdf2sdf_app as app
from urdf_sdf.core.inspect.resources import check_meshes

BINARY_STL = b"\0" * 80 + struct.pack("<I", 1) + b"\0" * 50
COLLADA = (b'<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema"'
           b' version="1.4.1"><library_images><image id="wood"><init_from>../textures/wood.png'
           b"</init_from></image></library_images></COLLADA>")
PACKAGE_XML = """<?xml version="1.0"?>
<package format="3">
  <name>{name}</name>
  <version>2.3.1</version>
  <description>A   two-link
    test arm</description>
  <maintainer email="m@example.org">Maintainer Person</maintainer>
  <author email="a@example.org">Author Person</author>
</package>
"""


def make_package(src: Path, name: str) -> Path:
    package = src / name
    (package / "meshes" / "visual").mkdir(parents=True)
    (package / "meshes" / "textures").mkdir()
    (package / "urdf").mkdir()
    (package / "package.xml").write_text(PACKAGE_XML.format(name=name))
    (package / "meshes" / "base.stl").write_bytes(BINARY_STL)
    (package / "meshes" / "visual" / "arm.dae").write_bytes(COLLADA)
    (package / "meshes" / "textures" / "wood.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (package / "meshes" / "hand.obj").write_text("mtllib hand.mtl\nv 0 0 0\nv 1 0 0\n"
                                                 "v 0 1 0\nf 1 2 3\n")
    (package / "meshes" / "hand.mtl").write_text("newmtl skin\nmap_Kd textures/wood.png\n")
    return package


@pytest.fixture
def workspace(tmp_path):
    src = tmp_path / "ws" / "src"
    arm = make_package(src, "arm")
    make_package(src, "gripper")  # its meshes/base.stl collides with arm's
    (arm / "urdf" / "arm.urdf").write_text("""<?xml version="1.0"?>
<robot name="arm">
  <link name="base">
    <visual><geometry><mesh filename="package://arm/meshes/base.stl"/></geometry></visual>
    <collision><geometry><mesh filename="package://arm/meshes/base.stl"/></geometry></collision>
  </link>
  <link name="upper">
    <visual><geometry><mesh filename="package://arm/meshes/visual/arm.dae"/></geometry></visual>
    <visual><geometry><mesh filename="../meshes/hand.obj"/></geometry></visual>
  </link>
  <link name="tool">
    <visual><geometry><mesh filename="package://gripper/meshes/base.stl"/></geometry></visual>
    <visual><geometry><mesh filename="package://arm/meshes/gone.stl"/></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
  <joint name="wrist" type="fixed"><parent link="upper"/><child link="tool"/></joint>
</robot>
""")
    return tmp_path


def convert(workspace: Path, *extra: str):
    urdf = workspace / "ws" / "src" / "arm" / "urdf" / "arm.urdf"
    out = workspace / "models" / "arm_robot"
    result = CliRunner().invoke(app, [str(urdf), "--model-dir", str(out), "--package-path",
                                      str(workspace / "ws" / "src"), *extra])
    return result, out


def mesh_uris(model_sdf: Path) -> list[str]:
    return [uri.text for uri in etree.parse(str(model_sdf)).iter("uri")]


def test_model_directory_holds_the_model_its_config_and_every_mesh(workspace):
    result, out = convert(workspace)
    assert result.exit_code == 0, result.output
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == ["meshes/base.stl", "meshes/gripper/base.stl", "meshes/hand.mtl",
                     "meshes/hand.obj", "meshes/textures/wood.png", "meshes/visual/arm.dae",
                     "model.config", "model.sdf"]
    assert mesh_uris(out / "model.sdf") == [
        "model://arm_robot/meshes/base.stl", "model://arm_robot/meshes/base.stl",
        "model://arm_robot/meshes/visual/arm.dae", "model://arm_robot/meshes/hand.obj",
        "model://arm_robot/meshes/gripper/base.stl", "package://arm/meshes/gone.stl"]
    assert "MESH_UNRESOLVED" in result.output and "gone.stl" in result.output
    assert "warning[NAME_RENAMED]: mesh [package://gripper/meshes/base.stl] is copied as " \
           "[meshes/gripper/base.stl]: [meshes/base.stl] holds another file " \
           "([package://arm/meshes/base.stl])" in " ".join(result.output.split())
    assert (out / "meshes" / "gripper" / "base.stl").read_bytes() == BINARY_STL


def test_model_config_names_the_model_and_takes_the_package_xml(workspace):
    _, out = convert(workspace)
    config = etree.parse(str(out / "model.config")).getroot()
    sdf = etree.parse(str(out / "model.sdf")).getroot()
    assert config.findtext("name") == "arm_robot"
    assert config.findtext("version") == "2.3.1"
    assert (config.find("sdf").get("version"), config.findtext("sdf")) == \
        (sdf.get("version"), "model.sdf")
    assert [(a.findtext("name"), a.findtext("email")) for a in config.findall("author")] == \
        [("Author Person", "a@example.org")]
    assert config.findtext("description") == "A two-link test arm"


def test_model_directory_resolves_with_only_its_parent_on_the_model_path(workspace,
                                                                        sdf_reference):
    _, out = convert(workspace)
    scene = workspace / "elsewhere" / "scene.sdf"
    scene.parent.mkdir()
    scene.write_text('<sdf version="1.9"><world name="w"><include><uri>model://arm_robot'
                     "</uri></include></world></sdf>")
    context = Context(model_paths=[str(out.parent)])
    ours = load(scene, context)
    assert ours.ok
    problems = [d.message for d in check_meshes(ours, context)]
    assert problems == ["mesh [package://arm/meshes/gone.stl] does not resolve: package "
                        "[arm] is not found (looked for a folder named arm above "
                        f"{out}); pass --package arm=DIR (DIR: the folder its URIs start "
                        "from) or --package-path with the folder holding it (named by 1 URI)"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH", "GAZEBO_MODEL_PATH")}
    env["SDF_PATH"] = str(out.parent)
    reference = run_reference(sdf_reference.binary, scene, env)
    assert reference["ok"], reference
    assert set(reference["links"]) == {"arm::base", "arm::upper", "arm::tool"}


def test_a_second_run_needs_force_then_replaces_the_directory_whole(workspace):
    _, out = convert(workspace)
    (out / "stale.txt").write_text("from before")
    refused, out = convert(workspace)
    assert refused.exit_code == 1 and "error[OUTPUT_EXISTS]" in refused.output
    assert "--force" in refused.output and (out / "stale.txt").exists()
    result, out = convert(workspace, "--force")
    assert result.exit_code == 0 and not (out / "stale.txt").exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no temporaries


def test_a_marker_not_atop_model_config_is_not_ours(workspace):
    """Our marker counts only where we write it, atop model.config: one quoted inside a
    foreign model.config (a <description>) does not make the directory ours, so even
    --force never replaces it."""
    _, out = convert(workspace)
    config = out / "model.config"
    text = config.read_text()
    marker = next(line for line in text.splitlines() if "urdf-sdf output" in line)
    config.write_text(text.replace(marker + "\n", "").replace(
        "<model>", f"<model><description>{marker}</description>", 1))
    (out / "theirs.txt").write_text("keep")
    refused, out = convert(workspace, "--force")
    assert refused.exit_code == 1 and "error[OUTPUT_EXISTS]" in refused.output
    assert (out / "theirs.txt").read_text() == "keep"


def test_a_urdf_that_does_not_convert_writes_nothing(workspace, tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r"><link name="a"/><link name="a"/></robot>')
    out = tmp_path / "models" / "bad"
    result = CliRunner().invoke(app, [str(bad), "--model-dir", str(out)])
    assert result.exit_code == 1 and "DUPLICATE_NAME" in result.output
    assert not out.exists()


def test_model_dir_usage_errors(workspace, tmp_path):
    taken = tmp_path / "file"
    taken.write_text("x")
    urdf = workspace / "ws" / "src" / "arm" / "urdf" / "arm.urdf"
    assert CliRunner().invoke(app, [str(urdf), "--model-dir", str(taken)]).exit_code == 2
    assert CliRunner().invoke(app, [str(urdf), "--model-dir", str(tmp_path / "m"), "-o",
                                    str(tmp_path / "x.sdf")]).exit_code == 2
    assert taken.read_text() == "x"


def test_a_directory_of_urdfs_gives_one_model_directory_each(workspace):
    """Batch: every URDF under the tree becomes OUT/STEM/, side by side (where model://
    finds them); a URDF that does not convert fails alone."""
    src = workspace / "ws" / "src"
    (src / "gripper" / "urdf" / "gripper.urdf").write_text(
        '<robot name="gripper"><link name="palm"><visual><geometry><mesh '
        'filename="package://gripper/meshes/base.stl"/></geometry></visual></link></robot>')
    (src / "broken.urdf").write_text('<robot name="b"><link name="a"/><link name="a"/></robot>')
    out = workspace / "models"
    result = CliRunner().invoke(app, [str(src), "--model-dir", str(out), "--package-path",
                                      str(src)])
    assert result.exit_code == 1
    assert sorted(p.name for p in out.iterdir()) == ["arm", "gripper"]
    assert mesh_uris(out / "gripper" / "model.sdf") == ["model://gripper/meshes/base.stl"]
    assert (out / "gripper" / "meshes" / "base.stl").read_bytes() == BINARY_STL
    assert "2 converted, 1 failed, 0 skipped" in result.output


def test_diff_matches_copied_meshes_by_content(workspace):
    """The model directory's meshes are the package's files under other URIs: diff
    resolves both and compares the bytes, so the two descriptions are equivalent; a
    copy that changed is a difference."""
    _, out = convert(workspace)
    src = workspace / "ws" / "src"
    context = Context(package_paths=[str(src)], model_paths=[str(out.parent)])
    urdf = src / "arm" / "urdf" / "arm.urdf"
    assert urdf_sdf.diff(urdf, out / "model.sdf", context=context) == []
    (out / "meshes" / "visual" / "arm.dae").write_bytes(COLLADA.replace(b"wood", b"oak"))
    changed = urdf_sdf.diff(urdf, out / "model.sdf", context=context)
    # the cause (link upper's visual mesh) and the geometry difference it makes
    assert {d.name for d in changed} == {"upper"}
    assert ("geometry", "upper") in [(d.kind, d.name) for d in changed]
