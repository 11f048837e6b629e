"""Mesh resolution shared by every command (``core.inspect.resources``) and ``urdf-sdf check
--meshes``: package://, model://, file:// and relative URIs found where ROS and Gazebo
find them, never outside their package or model, and recognised as meshes by content."""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf import Code, Context, load
from urdf_sdf.cli.main import app
from urdf_sdf.core.inspect.resources import (
    Resource,
    check_meshes,
    mesh_format,
    referenced_files,
    resolve_resource,
)

BINARY_STL = b"\0" * 80 + struct.pack("<I", 1) + b"\0" * 50
MESHES = {
    "binary.stl": BINARY_STL,
    "ascii.stl": b"solid part\n facet normal 0 0 1\n  outer loop\n endsolid part\n",
    "part.obj": b"# exported\nmtllib part.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    "part.dae": b'<?xml version="1.0"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/'
                b'COLLADASchema" version="1.4.1"></COLLADA>\n',
    "part.gltf": b'{"asset": {"version": "2.0"}, "meshes": []}',
    "part.glb": b"glTF" + struct.pack("<II", 2, 12),
}
NOT_MESHES = {
    "text.stl": b"this is not a mesh\n",
    "short.stl": b"\0" * 84 + b"\1",          # a binary STL whose size does not add up
    "image.obj": b"\x89PNG\r\n\x1a\n" + b"\0" * 32,
    "empty.dae": b"",
}


@pytest.mark.parametrize("name", sorted(MESHES))
def test_mesh_is_recognised_by_its_content(tmp_path, name):
    path = tmp_path / ("renamed.bin")  # the extension plays no part
    path.write_bytes(MESHES[name])
    assert mesh_format(path) == name.rsplit(".", 1)[1]


@pytest.mark.parametrize("name", sorted(NOT_MESHES))
def test_other_content_is_not_a_mesh(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(NOT_MESHES[name])
    assert mesh_format(path) is None


@pytest.fixture
def workspace(tmp_path):
    """A ROS workspace (src/my_robot with package.xml, urdf/, meshes/) and a Gazebo model
    path (models/crate with model.config and meshes/)."""
    package = tmp_path / "ws" / "src" / "my_robot"
    (package / "meshes").mkdir(parents=True)
    (package / "urdf").mkdir()
    (package / "package.xml").write_text("<package format='3'><name>my_robot</name></package>")
    for name, data in MESHES.items():
        (package / "meshes" / name).write_bytes(data)
    (package / "meshes" / "text.stl").write_bytes(NOT_MESHES["text.stl"])
    crate = tmp_path / "models" / "crate"
    (crate / "meshes").mkdir(parents=True)
    (crate / "meshes" / "crate.obj").write_bytes(MESHES["part.obj"])
    return tmp_path


def urdf_with_meshes(path: Path, uris: list[str]) -> Path:
    visuals = "\n".join(f'    <visual><geometry><mesh filename="{uri}"/></geometry></visual>'
                        for uri in uris)
    path.write_text(f'<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n'
                    f"{visuals}\n  </link>\n</robot>\n")
    return path


def test_every_scheme_resolves_where_ros_and_gazebo_look(workspace):
    package = workspace / "ws" / "src" / "my_robot"
    urdf = urdf_with_meshes(package / "urdf" / "r.urdf", [
        "package://my_robot/meshes/binary.stl", "../meshes/part.obj",
        f"file://{package / 'meshes' / 'part.dae'}", "model://crate/meshes/crate.obj"])
    context = Context(package_paths=[str(workspace / "ws" / "src")],
                      model_paths=[str(workspace / "models")])
    result = load(urdf, context)
    assert result.ok and check_meshes(result, context) == []


def test_ament_prefix_share_folder_resolves_package_uris(workspace):
    prefix = workspace / "install"
    share = prefix / "share" / "my_robot" / "meshes"
    share.mkdir(parents=True)
    (share / "arm.stl").write_bytes(BINARY_STL)
    resource = resolve_resource(Resource("package://my_robot/meshes/arm.stl", "mesh", None),
                                workspace, Context(ament_prefixes=[str(prefix)]))
    assert resource.path == share / "arm.stl" and resource.owner == "my_robot"


def test_check_meshes_reports_each_bad_mesh_with_its_line(workspace):
    package = workspace / "ws" / "src" / "my_robot"
    urdf = urdf_with_meshes(package / "urdf" / "r.urdf", [
        "package://my_robot/meshes/part.obj",            # line 4: fine
        "package://my_robot/meshes/text.stl",            # 5: not a mesh
        "package://my_robot/meshes/missing.stl",         # 6: not found
        "package://my_robot/../../../../etc/passwd",     # 7: leaves the package
        "https://example.org/part.stl",                  # 8: no network
        "meshes/part.obj"])                              # 9: relative to urdf/: missing
    context = Context(package_paths=[str(workspace / "ws" / "src")])
    found = [(d.code, d.line) for d in check_meshes(load(urdf, context), context)]
    assert found == [(Code.MESH_UNREADABLE, 5), (Code.MESH_UNRESOLVED, 6),
                     (Code.MESH_UNRESOLVED, 7), (Code.MESH_UNRESOLVED, 8),
                     (Code.MESH_UNRESOLVED, 9)]


def test_a_mesh_of_an_included_model_resolves_from_that_models_folder(workspace):
    crate = workspace / "models" / "crate"
    (crate / "model.config").write_text("<model><name>crate</name><sdf version='1.9'>"
                                        "model.sdf</sdf></model>")
    (crate / "model.sdf").write_text(
        '<sdf version="1.9"><model name="crate"><link name="box"><visual name="v"><geometry>'
        "<mesh><uri>meshes/crate.obj</uri></mesh></geometry></visual></link></model></sdf>")
    world = workspace / "scene.sdf"
    world.write_text('<sdf version="1.9"><world name="w"><include><uri>model://crate</uri>'
                     "</include></world></sdf>")
    context = Context(model_paths=[str(workspace / "models")])
    result = load(world, context)
    assert result.ok and check_meshes(result, context) == []


def test_check_meshes_on_the_command_line(workspace):
    package = workspace / "ws" / "src" / "my_robot"
    urdf = urdf_with_meshes(package / "urdf" / "r.urdf", [
        "package://my_robot/meshes/ascii.stl", "package://my_robot/meshes/gone.stl"])
    runner = CliRunner()
    plain = runner.invoke(app, ["check", str(urdf)])
    assert plain.exit_code == 0  # meshes are checked only when asked
    asked = runner.invoke(app, ["check", str(urdf), "--meshes", "--package-path",
                                str(workspace / "ws" / "src"), "--json"])
    assert asked.exit_code == 1
    report = json.loads(asked.stdout)
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("MESH_UNRESOLVED", 5)]
    assert "gone.stl" in report["diagnostics"][0]["message"]


def test_a_package_not_found_is_reported_once_at_its_first_use(workspace):
    (workspace / "checkout" / "urdf").mkdir(parents=True)
    urdf = urdf_with_meshes(workspace / "checkout" / "urdf" / "r.urdf", [
        "package://gone/meshes/a.stl",                   # line 4: the one report
        "package://gone/meshes/b.stl",                   # 5: the same package
        "model://nowhere/meshes/c.stl",                  # 6: a model not found
        "package://gone/meshes/a.stl"])                  # 7: the same package
    context = Context()
    found = [(d.code, d.line, d.message) for d in check_meshes(load(urdf, context), context)]
    assert [(code, line) for code, line, _ in found] == \
        [(Code.MESH_UNRESOLVED, 4), (Code.MESH_UNRESOLVED, 6)]
    assert found[0][2].endswith("pass --package gone=DIR (DIR: the folder its URIs start "
                                "from) or --package-path with the folder holding it "
                                "(named by 3 URIs)")
    assert "model [nowhere] is not found" in found[1][2]
    assert found[1][2].endswith("pass -p/--path with the folder holding it (named by 1 URI)")


def test_a_file_missing_from_a_found_package_is_reported_at_each_use(workspace):
    (workspace / "ws" / "src" / "my_robot" / "urdf").mkdir(parents=True, exist_ok=True)
    urdf = urdf_with_meshes(workspace / "ws" / "src" / "my_robot" / "urdf" / "r.urdf", [
        "package://my_robot/meshes/gone.stl", "package://my_robot/meshes/gone.stl"])
    context = Context()  # my_robot holds the URDF in its urdf/ folder: found
    found = [(d.line, d.message) for d in check_meshes(load(urdf, context), context)]
    assert found == [(line, "mesh [package://my_robot/meshes/gone.stl] does not resolve: "
                            "no such file") for line in (4, 5)]


def test_a_mesh_folder_swapped_for_a_link_after_the_check_is_not_read(tmp_path):
    """A mesh checked inside the input's package is opened at its real path with no link
    followed: its folder swapped for a link out of the package since is refused."""
    from urdf_sdf.core.inspect.resources import resolve_read, resources_of, sniff_mesh
    (tmp_path / "robot" / "meshes").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    for folder in ("robot/meshes", "outside"):
        (tmp_path / folder / "s.stl").write_text("solid s\nfacet normal 0 0 1\nendsolid s\n")
    urdf = tmp_path / "robot" / "r.urdf"
    urdf.write_text('<robot name="r"><link name="a"><visual><geometry>'
                    '<mesh filename="meshes/s.stl"/></geometry></visual></link></robot>\n')
    result = load(str(urdf), Context())
    (resource,) = resources_of(result)
    resource = resolve_read(resource, result, Context())
    assert sniff_mesh(*resource.opened()) == ("stl", None)
    (tmp_path / "robot" / "meshes").rename(tmp_path / "robot" / "old")
    (tmp_path / "robot" / "meshes").symlink_to(tmp_path / "outside")
    kind, reason = sniff_mesh(*resource.opened())
    assert kind is None and "symbolic link" in reason


def test_a_file_named_many_times_is_referenced_once_at_its_first_mention(tmp_path):
    """What -o never replaces holds each mesh once (the stress robot names one mesh 46,250
    times: holding each mention kept the freed model's memory pinned)."""
    links = "".join(f'<link name="l{i}"><visual><geometry><mesh filename="m.stl"/></geometry>'
                    f'</visual></link>' for i in range(3))
    joints = "".join(f'<joint name="j{i}" type="fixed"><parent link="l0"/>'
                     f'<child link="l{i}"/></joint>' for i in (1, 2))
    robot = tmp_path / "r.urdf"
    robot.write_text(f'<robot name="r">\n{links}\n<link name="t"><visual><geometry>'
                     f'<mesh filename="other.stl"/></geometry></visual></link>{joints}'
                     '<joint name="jt" type="fixed"><parent link="l0"/><child link="t"/>'
                     '</joint></robot>')
    found = referenced_files(load(robot, Context()))
    assert [(r.uri, r.source.line) for r in found] == [("m.stl", 2), ("other.stl", 3)]
