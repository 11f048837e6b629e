"""A relative mesh (or texture) path rewritten for an output in another folder: kept,
with a warning, when the path from there cannot be written as text (a folder name between
them whose bytes are not UTF-8: XML cannot hold it, and writing it was an INTERNAL_ERROR)."""
from __future__ import annotations

import os

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Source
from urdf_sdf.core.base.model import Material
from urdf_sdf.core.write.uris import (
    relocated,
    relocated_file,
    relocated_material,
    relocated_textures,
)


def test_a_relative_path_is_rewritten_for_the_output_folder():
    diagnostics = Diagnostics()
    moved = relocated_file("meshes/m.stl", Source("/a/robot/r.urdf", 3), "/a/out", diagnostics)
    assert moved == "../robot/meshes/m.stl" and not list(diagnostics)
    assert relocated("file://meshes/m.stl", "/a/robot/r.urdf", "/a/out") == \
        "file://../robot/meshes/m.stl"


def test_a_path_through_a_folder_not_named_in_utf_8_is_kept_with_a_warning():
    source = os.fsdecode(b"/a/d\xff/robot/r.urdf")
    diagnostics = Diagnostics()
    moved = relocated_file("meshes/m.stl", Source(source, 3), "/a/out", diagnostics)
    assert moved == "meshes/m.stl"
    [warning] = list(diagnostics)
    assert warning.code == Code.MESH_URI_NOT_RELATIVE and warning.line == 3
    assert "not UTF-8 text" in warning.message


def test_a_folder_not_named_in_utf_8_that_both_share_is_no_problem():
    source = os.fsdecode(b"/a/d\xff/robot/r.urdf")
    diagnostics = Diagnostics()
    output = os.fsdecode(b"/a/d\xff/out")
    assert relocated_file("m.stl", Source(source), output, diagnostics) == "../robot/m.stl"
    assert not list(diagnostics)


def test_a_materials_texture_is_relocated_like_a_mesh(tmp_path):
    source = Source(str(tmp_path / "robot" / "r.urdf"), 3)
    out = str(tmp_path / "out")
    material = Material(name="m", texture="tex/a.png", source=source)
    assert relocated_material(material, out, Diagnostics()).texture == "../robot/tex/a.png"
    assert relocated_material(material, None, Diagnostics()) is material  # stdout: as written
    package = Material(name="m", texture="package://p/a.png", source=source)
    assert relocated_material(package, out, Diagnostics()) is package
    copied = etree.fromstring('<material name="m"><texture filename="a.mtl"/></material>')
    relocated_textures(copied, source, out, Diagnostics())
    assert copied.find("texture").get("filename") == "../robot/a.mtl"
