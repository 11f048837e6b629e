"""Copy roots (core.write.confined): the input's own package as pip wheels lay it out is
one; a folder of the package's name that does not hold the input in its urdf/ folder is
not."""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.write.confined import Refusal, copy_check, copy_roots, with_own_package


def test_the_package_holding_the_input_in_its_urdf_folder_is_a_copy_root(tmp_path):
    (tmp_path / "pkg" / "urdf").mkdir(parents=True)
    (tmp_path / "pkg" / "meshes").mkdir()
    urdf = tmp_path / "pkg" / "urdf" / "r.urdf"
    urdf.write_text("<robot/>")
    mesh = tmp_path / "pkg" / "meshes" / "a.stl"
    mesh.write_bytes(b"solid a\nendsolid a\n")
    roots = copy_roots(str(urdf))
    refused = copy_check(mesh, roots)
    assert isinstance(refused, Refusal) and refused.code is Code.RESOURCE_OUTSIDE_PACKAGE
    widened = with_own_package(roots, tmp_path / "pkg", "pkg")
    assert copy_check(mesh, widened) == (mesh.stat().st_dev, mesh.stat().st_ino, 19)


def test_a_far_folder_of_the_packages_name_is_not_a_copy_root(tmp_path):
    (tmp_path / "home" / "user" / "robot").mkdir(parents=True)
    urdf = tmp_path / "home" / "user" / "robot" / "r.urdf"
    urdf.write_text("<robot/>")
    roots = copy_roots(str(urdf))
    assert with_own_package(roots, tmp_path / "home", "home") == roots
    assert with_own_package(roots, tmp_path / "home" / "user", "other") == roots
    assert with_own_package(copy_roots("-"), tmp_path / "home", "home") == copy_roots("-")
