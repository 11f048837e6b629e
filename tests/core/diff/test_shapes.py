"""``core.diff.shapes``: a mesh's default scale written out is the same mesh; a changed
geometry names what changed, with its unit."""
from __future__ import annotations

from urdf_sdf.core.base.model import Geometry
from urdf_sdf.core.diff.shapes import geometry_signature, signature_change


def test_a_written_unit_scale_is_the_default_scale():
    absent = geometry_signature(Geometry(kind="mesh", uri="m.stl"), "m.stl")
    written = geometry_signature(Geometry(kind="mesh", uri="m.stl", scale=(1.0, 1.0, 1.0)),
                                 "m.stl")
    assert absent == written
    scaled = geometry_signature(Geometry(kind="mesh", uri="m.stl", scale=(2.0, 2.0, 2.0)),
                                "m.stl")
    assert signature_change(absent, scaled, 1e-9) == "scale 1 1 1 -> 2 2 2"


def test_a_changed_geometry_names_the_change_and_its_unit():
    box = geometry_signature(Geometry(kind="box", size=(0.2, 0.2, 0.1)), "")
    wider = geometry_signature(Geometry(kind="box", size=(0.3, 0.2, 0.1)), "")
    cylinder = geometry_signature(Geometry(kind="cylinder", radius=0.1, length=0.2), "")
    assert signature_change(box, box, 1e-9) == ""
    assert signature_change(box, wider, 1e-9) == "size 0.2 0.2 0.1 -> 0.3 0.2 0.1 m"
    assert signature_change(box, cylinder, 1e-9) == "geometry box -> cylinder"
    other_file = geometry_signature(Geometry(kind="mesh", uri="a.stl"), "digest-a")
    assert signature_change(other_file, geometry_signature(Geometry(kind="mesh", uri="b.stl"),
                                                           "digest-b"), 1e-9) == \
        "mesh file differs"
