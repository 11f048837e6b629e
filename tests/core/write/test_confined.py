"""Copy roots (core.write.confined): the input's own package as pip wheels lay it out is
one; a folder of the package's name that does not hold the input in its urdf/ folder is
not. A folder swapped for a link out of the package after the check (an attacker who
can write into the input tree) is refused, never followed."""
from __future__ import annotations

import pytest

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.read.files import NotRegular
from urdf_sdf.core.write import confined
from urdf_sdf.core.write.confined import (
    Refusal,
    copy_check,
    copy_checked,
    copy_roots,
    with_own_package,
)


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


SECRET = b"solid secret\nendsolid secret\n"


def swappable_package(tmp_path):
    """A package whose meshes folder an attacker can swap for a link to ``outside``, which
    holds a file of the mesh's name: (roots, the mesh, the swap)."""
    (tmp_path / "pkg" / "meshes").mkdir(parents=True)
    (tmp_path / "pkg" / "package.xml").write_text("<package/>")
    urdf = tmp_path / "pkg" / "r.urdf"
    urdf.write_text("<robot/>")
    mesh = tmp_path / "pkg" / "meshes" / "a.stl"
    mesh.write_bytes(b"solid a\nendsolid a\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "a.stl").write_bytes(SECRET)

    def swap():
        (tmp_path / "pkg" / "meshes").rename(tmp_path / "pkg" / "meshes.was")
        (tmp_path / "pkg" / "meshes").symlink_to(tmp_path / "outside")

    return copy_roots(str(urdf)), mesh, swap


def test_a_folder_swapped_for_a_link_after_the_check_is_refused_not_followed(tmp_path,
                                                                             monkeypatch):
    """The swap at the dangerous moment: the real path checked inside the package, the
    folder then replaced by a link out of it before the file is opened."""
    roots, mesh, swap = swappable_package(tmp_path)
    real_is_within = confined.is_within

    def checked_then_swapped(path, root):
        inside = real_is_within(path, root)
        if inside and not (tmp_path / "pkg" / "meshes").is_symlink():
            swap()
        return inside

    monkeypatch.setattr(confined, "is_within", checked_then_swapped)
    refused = copy_check(mesh, roots)
    assert isinstance(refused, Refusal) and refused.code is Code.RESOURCE_NOT_REGULAR
    assert "a symbolic link on its path" in refused.reason


def test_a_folder_swapped_between_the_check_and_the_copy_copies_nothing(tmp_path):
    roots, mesh, swap = swappable_package(tmp_path)
    identity = copy_check(mesh, roots)
    assert not isinstance(identity, Refusal)
    swap()
    target = tmp_path / "copy.stl"
    with pytest.raises(NotRegular, match="a symbolic link on its path"):
        copy_checked(str(mesh), identity, target)
    assert not target.exists()
