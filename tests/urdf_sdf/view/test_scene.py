"""``urdf_sdf.view.scene``: the scene a page is drawn from, as plain data."""
from __future__ import annotations

import pytest

pytest.importorskip("plotly")

from urdf_sdf import load_string  # noqa: E402
from urdf_sdf.core.loader import LoadResult  # noqa: E402
from urdf_sdf.view.scene import build_scene  # noqa: E402

URDF = b"""<robot name="r">
  <link name="base"><visual><geometry><box size="1 1 1"/></geometry></visual></link>
  <link name="arm"><visual><geometry><mesh filename="missing.stl"/></geometry></visual></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_a_side_holds_its_tree_its_joints_and_what_it_cannot_draw(tmp_path):
    result = load_string(URDF, str(tmp_path / "r.urdf"))
    assert result.ok
    scene = build_scene(result, "r")
    side = scene.sides[0]
    assert side.tree.roots == ["base"]
    assert [(j.name, j.parent, j.child, j.pose.position, j.lower, j.upper)
            for j in side.joints] == [("j", "base", "arm", (0.0, 0.0, 1.0), -1.0, 1.0)]
    assert side.subtree("base") == {"base", "arm"}
    drawn = {s.link: s for s in side.shapes}
    assert drawn["base"].missing is None and len(drawn["base"].faces) == 12
    assert "missing.stl" in (drawn["arm"].missing or "") and len(drawn["arm"].faces) == 0
    assert [d.code.name for d in scene.diagnostics] == ["MESH_UNRESOLVED"]


def test_a_description_that_did_not_load_has_no_scene():
    with pytest.raises(ValueError, match="did not load"):
        build_scene(LoadResult(None, None), "broken")


def test_a_package_not_found_is_one_warning_for_all_its_shapes(tmp_path):
    shapes = "".join(f'<visual><geometry><mesh filename="package://gone/m{i}.stl"/></geometry>'
                     "</visual>" for i in range(3))
    result = load_string(f'<robot name="r"><link name="base">{shapes}</link></robot>'.encode(),
                         str(tmp_path / "r.urdf"))
    scene = build_scene(result, "r")
    assert len([s for s in scene.sides[0].shapes if s.missing]) == 3  # each a marker box
    assert [d.message.split(": ", 1)[1][:34] for d in scene.diagnostics] == \
        ["package [gone] is not found (looke"]
