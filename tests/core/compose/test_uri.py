"""Where a ``package://`` URI's package is (core.compose.uri.package_roots): the folder
--package names, the package holding the naming file in its urdf/ folder, a folder named
after it in a package path (with or without package.xml), an ament prefix's share."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.compose.uri import package_ancestor, package_candidates, package_roots


def folders(root: Path, *names: str) -> None:
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=True)


def test_a_folder_named_after_the_package_below_a_package_path_needs_no_package_xml(tmp_path):
    folders(tmp_path, "site/deep/er/pkg/meshes", "site/other/pkg")
    (tmp_path / "site/other/pkg/package.xml").write_text("<package/>")
    context = Context(package_paths=[str(tmp_path / "site")])
    assert package_roots("pkg", context) == [tmp_path / "site/other/pkg",
                                             tmp_path / "site/deep/er/pkg"]


def test_a_folder_deeper_than_the_search_depth_is_not_found(tmp_path):
    folders(tmp_path, "site/a/b/c/d/pkg")
    assert package_roots("pkg", Context(package_paths=[str(tmp_path / "site")])) == []


def test_the_package_path_entry_itself_is_the_package_when_named_after_it(tmp_path):
    folders(tmp_path, "pkg")
    assert package_roots("pkg", Context(package_paths=[str(tmp_path / "pkg")])) == \
        [tmp_path / "pkg"]


def test_package_names_the_one_folder_tried(tmp_path):
    folders(tmp_path, "checkout", "site/pkg")
    context = Context(package_paths=[str(tmp_path / "site")],
                      packages={"pkg": str(tmp_path / "checkout")})
    assert package_candidates("pkg/meshes/a.stl", context) == \
        [(tmp_path / "checkout", tmp_path / "checkout/meshes/a.stl")]


def test_the_package_holding_the_file_in_its_urdf_folder_comes_first(tmp_path):
    folders(tmp_path, "pkg/urdf/edu", "site/pkg")
    context = Context(package_paths=[str(tmp_path / "site")],
                      ament_prefixes=[str(tmp_path / "prefix")])
    assert package_roots("pkg", context, tmp_path / "pkg/urdf/edu") == \
        [tmp_path / "pkg", tmp_path / "site/pkg", tmp_path / "prefix/share/pkg"]


def test_only_a_near_folder_holding_descriptions_is_the_files_own_package(tmp_path):
    assert package_ancestor(tmp_path / "pkg", "pkg") == tmp_path / "pkg"
    assert package_ancestor(tmp_path / "pkg/urdf", "pkg") == tmp_path / "pkg"
    assert package_ancestor(tmp_path / "pkg/xacro/pro", "pkg") == tmp_path / "pkg"
    assert package_ancestor(tmp_path / "pkg/src/urdf", "pkg") is None  # not its urdf/
    assert package_ancestor(tmp_path / "pkg/urdf/a/b", "pkg") is None  # too deep
    assert package_ancestor(tmp_path / "home/user/robot", "home") is None
    assert package_ancestor(None, "pkg") is None


def test_a_uri_naming_no_package_has_no_candidates(tmp_path):
    context = Context(package_paths=[str(tmp_path)])
    assert package_candidates("../meshes/a.stl", context) == []
    assert package_candidates("/a.stl", context) == []


def test_an_include_of_the_inputs_own_wheel_package_is_read(tmp_path):
    from urdf_sdf.core.loader import load
    (tmp_path / "pkgx" / "sdf").mkdir(parents=True)
    (tmp_path / "pkgx" / "models").mkdir()
    (tmp_path / "pkgx/models/part.sdf").write_text(
        '<sdf version="1.9"><model name="part"><link name="l"/></model></sdf>')
    world = tmp_path / "pkgx/sdf/world.sdf"
    world.write_text('<sdf version="1.9"><model name="m"><include>'
                     "<uri>package://pkgx/models/part.sdf</uri></include></model></sdf>")
    assert load(world, Context()).ok
    (tmp_path / "pkgx").rename(tmp_path / "other")
    moved = tmp_path / "other/sdf/world.sdf"
    assert not load(moved, Context()).ok
    assert load(moved, Context(packages={"pkgx": str(tmp_path / "other")})).ok
