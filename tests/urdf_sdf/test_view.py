"""``urdf-sdf view``: the scene a page is drawn from, tested as data, and the command.

* Every link, joint, frame and nested model of every sample is on the page, at the pose
  ``urdf-sdf frames --json`` prints; every shape is drawn.
* A diff page highlights exactly the differences ``urdf-sdf diff --json`` reports, in its
  order, and its legend and hover texts name them.
* Bad input: a missing or corrupt mesh is a warning and a marker (an error and no page
  under --strict); a file that does not load gives its coded diagnostic and no page; a
  generated 10,000-link model still makes a page; without the view extra the command
  says what to install (VIEW_UNAVAILABLE, exit 1).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tests.reference_kinematics import forward
from urdf_sdf.cli import view as view_cli
from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.loader import load
from urdf_sdf.view import tessellate
from urdf_sdf.view.meshes import thinned
from urdf_sdf.view.motion import joint_motion, movable_joints
from urdf_sdf.view.overlay import COLOURS, diff_scene
from urdf_sdf.view.page import STILL_FILL, UNIT_PIXELS, escaped, page_html, scene_figure
from urdf_sdf.view.scene import build_scene

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "view"
SAMPLE_FILES = sorted(p for p in SAMPLES.glob("*.*") if p.suffix in (".urdf", ".sdf")) + \
    sorted((SAMPLES / "composition").rglob("*.sdf")) + \
    sorted((SAMPLES / "ros_ws").rglob("*.urdf")) + [FIXTURES / "view_every_primitive.sdf"]
DIFF_PAIRS = [("pendulum.urdf", "pendulum.sdf"), ("arm6.urdf", "arm6.sdf"),
              ("diff_drive.urdf", "diff_drive.sdf"), ("arm6.urdf", "diff_drive.urdf"),
              ("pendulum.urdf", "arm6.sdf")]
KINDS = {"links": "link", "joints": "joint", "frames": "frame", "models": "model"}
runner = CliRunner()


def frames_json(path: Path) -> dict:
    result = runner.invoke(app, ["frames", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def close(pose, values) -> bool:
    return all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
               for a, b in zip(pose.as_list(), values))


# ---- the scene as data ---------------------------------------------------------------------

@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_frame_of_a_sample_is_in_the_scene_at_the_pose_frames_json_gives(path):
    report = frames_json(path)
    scene = build_scene(load(path), str(path))
    side = scene.sides[0]
    expected = {(KINDS[section], name): values for section in KINDS
                for name, values in report[section].items()}
    assert {(f.kind, f.name) for f in side.frames} == set(expected)
    for mark in side.frames:
        assert close(mark.pose, expected[mark.kind, mark.name]), (mark.kind, mark.name)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_default_view_holds_the_whole_robot_undistorted(path):
    """The three axes span the same length (a cube: no axis stretched) and hold every point
    drawn, at rest and at every slider position, so the default camera shows the whole
    robot, a tall thin arm included (reduced from composition/arm_and_gripper.sdf, whose
    column was cut off)."""
    figure, _ = scene_figure(build_scene(load(path), str(path)), str(path))
    ranges = [figure.layout.scene[f"{axis}axis"].range for axis in "xyz"]
    assert figure.layout.scene.aspectmode == "cube"
    spans = [high - low for low, high in ranges]
    assert max(spans) - min(spans) < 1e-9 * max(spans)
    for trace in list(figure.data) + [t for frame in figure.frames for t in frame.data]:
        if getattr(trace, "x", None) is None:
            continue
        for k, axis in enumerate("xyz"):
            values = np.asarray(trace[axis], dtype=float)
            values = values[np.isfinite(values)]
            low, high = ranges[k]
            assert values.size == 0 or (values.min() >= low and values.max() <= high), \
                (trace.name, axis)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shape_of_a_sample_is_drawn_on_its_link(path):
    result = load(path, Context(package_paths=[str(SAMPLES / "ros_ws" / "src")]))
    side = build_scene(result, str(path)).sides[0]
    for name in side.links:
        link = result.graph.find(name).element
        drawn = [s for s in side.shapes if s.link == name]
        assert [s.role for s in drawn] == ["visual"] * len(link.visuals) + \
            ["collision"] * len(link.collisions)
        for shape in drawn:
            assert len(shape.vertices) and np.isfinite(shape.vertices[~np.isnan(
                shape.vertices).any(axis=1)]).all()


def test_every_joint_has_its_axis_in_the_root_frame_and_the_range_diff_samples():
    side = build_scene(load(SAMPLES / "arm6.urdf"), "arm6").sides[0]
    elbow = next(j for j in side.joints if j.name == "elbow_joint")
    assert elbow.movable and (elbow.lower, elbow.upper) == (-math.pi, math.pi)
    assert math.isclose(math.dist(elbow.axis, (0, 0, 0)), 1.0)
    assert {j.name for j in side.joints} == {f.name for f in side.frames if f.kind == "joint"}


def test_a_slider_step_moves_the_subtree_as_forward_kinematics_does():
    result = load(SAMPLES / "arm6.urdf")
    side = build_scene(result, "arm6").sides[0]
    for joint in movable_joints(side):
        motion = joint_motion(side, joint)
        assert joint.child in motion.links and len(motion.values) == len(motion.transforms)
        for value, transform in zip(motion.values[::5], motion.transforms[::5]):
            poses = forward(side.tree, {joint.name: value})
            for link in motion.links:
                moved = transform * side.links[link]
                assert math.dist(moved.position, poses[link].position) < 1e-9
            untouched = set(side.links) - motion.links
            assert all(math.dist(poses[n].position, side.links[n].position) < 1e-9
                       for n in untouched)


def test_each_primitive_is_a_closed_mesh_of_its_size():
    for (vertices, faces), extent in [(tessellate.box((1, 2, 3)), (1, 2, 3)),
                                      (tessellate.cylinder(0.5, 2), (1, 1, 2)),
                                      (tessellate.sphere(1), (2, 2, 2)),
                                      (tessellate.capsule(0.5, 1), (1, 1, 2)),
                                      (tessellate.ellipsoid((1, 2, 3)), (2, 4, 6))]:
        assert np.allclose(np.ptp(vertices, axis=0), extent, atol=0.02)
        edges = np.sort(np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]),
                        axis=1)
        _, counts = np.unique(edges, axis=0, return_counts=True)
        assert (counts == 2).all()  # every edge shared by two triangles: closed


def test_a_large_mesh_is_thinned_below_the_limit():
    vertices, faces = tessellate.sphere(1.0)
    small_vertices, small_faces = thinned(vertices, faces, 100)
    assert 0 < len(small_faces) <= 100 and small_faces.max() < len(small_vertices)
    assert thinned(vertices, faces, 10_000)[1] is faces


# ---- the diff page ---------------------------------------------------------------------------

@pytest.mark.parametrize("a, b", DIFF_PAIRS)
def test_the_diff_scene_highlights_exactly_what_diff_reports(a, b):
    reported = runner.invoke(app, ["diff", str(SAMPLES / a), str(SAMPLES / b), "--json"])
    scene = diff_scene(load(SAMPLES / a), load(SAMPLES / b), (a, b))
    assert [h.difference.to_json() for h in scene.highlights] == \
        json.loads(reported.stdout)["differences"]
    assert [side.colour for side in scene.sides] == list(COLOURS)
    figure, _ = scene_figure(scene, "diff")
    hovers = [text for trace in figure.data if trace.type == "scatter3d" and trace.marker
              and trace.marker.symbol == "diamond" for text in trace.hovertext]
    assert hovers == [escaped(h.text) for h in scene.highlights]
    legend = " ".join(trace.name for trace in figure.data if trace.showlegend is not False)
    causes = [h for h in scene.highlights if h.difference.role == "cause"]
    assert all(escaped(h.difference.format())[:77] in legend for h in causes[:40])
    dependent = len(scene.highlights) - len(causes)
    assert (f"and {dependent} dependent difference" in legend) is (dependent > 0 and
                                                                   len(causes) <= 40)


def test_the_diff_legend_is_diff_summary():
    """One edit: the legend names it and counts what follows, as ``urdf-sdf diff``."""
    folder = ROOT / "tests" / "fixtures" / "diff"
    scene = diff_scene(load(folder / "cause_one_rpy_edit.urdf"),
                       load(folder / "cause_one_rpy_edit.edited.urdf"), ("a", "b"))
    figure, _ = scene_figure(scene, "diff")
    legend = [trace.name for trace in figure.data if trace.type == "scatter3d" and
              trace.marker and trace.marker.symbol == "diamond"]
    # (escaped for the page: "->" is "-&gt;")
    assert legend == ["joint elbow_joint: origin rpy 0 0 0 -&gt; 0 0 0.6 rad (turned 34.4 deg)",
                      "and 9 dependent differences"]


def test_a_highlight_says_how_far_apart_and_how_turned_the_two_sides_are():
    scene = diff_scene(load(SAMPLES / "pendulum.urdf"), load(SAMPLES / "pendulum.sdf"),
                       ("a", "b"))
    tip = next(h for h in scene.highlights if h.difference.name == "tip")
    assert tip.distance > 1 and 89 < tip.angle < 91
    assert "m apart" in tip.text and "turned" in tip.text


def test_an_equivalent_pair_has_no_highlight_and_is_aligned_at_the_root_link():
    scene = diff_scene(load(SAMPLES / "arm6.urdf"), load(SAMPLES / "arm6.sdf"), ("a", "b"))
    assert scene.highlights == []
    a, b = scene.sides
    for name, pose in a.links.items():  # a URDF link may be an SDF frame
        other = b.frame("link", name) or b.frame("frame", name)
        assert math.dist(pose.position, other.pose.position) < 1e-9, name


# ---- the command and bad input ---------------------------------------------------------------

def test_view_writes_one_self_contained_page(tmp_path):
    out = tmp_path / "arm6.html"
    result = runner.invoke(app, ["view", str(SAMPLES / "arm6.urdf"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "<html>" in page[:100] and "Plotly" in page
    assert "<script src=" not in page and "<link " not in page  # nothing fetched
    assert "shoulder_pan_joint" in page and "sliders" in page


def test_view_of_two_files_writes_the_overlay(tmp_path):
    out = tmp_path / "diff.html"
    result = runner.invoke(app, ["view", str(SAMPLES / "pendulum.urdf"),
                                 str(SAMPLES / "pendulum.sdf"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert all(colour in page for colour in COLOURS) and "only in A" in page


@pytest.mark.parametrize("fixture, code", [("view_missing_mesh.urdf", Code.MESH_UNRESOLVED),
                                           ("view_corrupt_mesh.urdf", Code.MESH_UNREADABLE)])
def test_a_mesh_that_cannot_be_drawn_is_a_warning_and_a_marker(tmp_path, fixture, code):
    scene = build_scene(load(FIXTURES / fixture), fixture)
    assert [d.code for d in scene.diagnostics] == [code]
    assert scene.diagnostics[0].line == 5 and not scene.diagnostics[0].is_error
    (shape,) = scene.sides[0].shapes
    assert shape.missing and len(shape.faces) == 0 and len(shape.vertices) == 36
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", str(FIXTURES / fixture), "-o", str(out)])
    assert result.exit_code == 0 and f"warning[{code.value}]" in result.stderr
    assert "meshes not drawn" in out.read_text(encoding="utf-8")
    strict = runner.invoke(app, ["view", str(FIXTURES / fixture), "-o",
                                 str(tmp_path / "strict.html"), "--strict"])
    assert strict.exit_code == 1 and f"error[{code.value}]" in strict.stderr
    assert not (tmp_path / "strict.html").exists()


def test_a_file_that_does_not_load_gives_its_diagnostic_and_no_page(tmp_path):
    out = tmp_path / "page.html"
    bad = ROOT / "tests" / "fixtures" / "urdf" / "urdf_duplicate_link.urdf"
    for args in ([str(bad)], [str(SAMPLES / "arm6.urdf"), str(bad)],
                 [str(tmp_path / "missing.urdf")]):
        result = runner.invoke(app, ["view", *args, "-o", str(out), "--png",
                                     str(tmp_path / "page.png")])
        assert result.exit_code == 1
        assert "error[DUPLICATE_NAME]" in result.stderr or "error[FILE_READ]" in result.stderr
        assert "no page written" in result.stderr
        assert list(tmp_path.iterdir()) == []


def test_without_the_view_extra_the_command_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(view_cli, "_VIEW", Later({
        "build_scene": ("urdf_sdf_view_extra_not_installed", "build_scene"),
        "page_html": ("urdf_sdf_view_extra_not_installed", "page_html")}))
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", str(SAMPLES / "arm6.urdf"), "-o", str(out)])
    assert result.exit_code == 1 and not out.exists()
    assert "error[VIEW_UNAVAILABLE]" in result.stderr
    assert "pip install plotly trimesh pycollada (urdf-sdf's [view] extra; in its clone: " \
        "pip install '.[view]')" in result.stderr


def test_png_without_a_browser_says_what_to_install_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("URDF_SDF_CHROMIUM", str(tmp_path / "no-such-browser"))
    result = runner.invoke(app, ["view", str(SAMPLES / "arm6.urdf"), "-o",
                                 str(tmp_path / "page.html"), "--png", str(tmp_path / "a.png")])
    assert result.exit_code == 1 and "error[VIEW_SNAPSHOT_FAILED]" in result.stderr
    assert "apt-get install chromium" in result.stderr and list(tmp_path.iterdir()) == []


def test_standard_input_and_xacro_files_are_viewed(tmp_path):
    out = tmp_path / "page.html"
    piped = runner.invoke(app, ["view", "-", "-o", str(out)],
                          input=(SAMPLES / "pendulum.urdf").read_bytes())
    assert piped.exit_code == 0, piped.output
    assert '"title":{"text":"&lt;stdin&gt;"' in out.read_text(encoding="utf-8")  # shown as is
    xacro = ROOT / "tests" / "fixtures" / "cli" / "two_link_arm.urdf.xacro"
    expanded = runner.invoke(app, ["view", str(xacro), "--xacro", "-o", str(out)])
    assert expanded.exit_code == 0, expanded.output


def test_three_files_or_two_stdins_are_usage_errors(tmp_path):
    three = runner.invoke(app, ["view", *(str(SAMPLES / "arm6.urdf"),) * 3])
    assert three.exit_code == 2
    assert runner.invoke(app, ["view", "-", "-"]).exit_code == 2


def test_a_page_of_10000_links_builds(tmp_path):
    """No timing here (bench/ is for that): the page is built, holds every link, and stays
    within the size the issue asks (about 20 MB)."""
    path = tmp_path / "wide_10000.urdf"
    path.write_text(generated_urdf(10_000), encoding="utf-8")
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["view", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size < 25_000_000
    page = out.read_text(encoding="utf-8")
    assert "link l9999" in page


def generated_urdf(count: int) -> str:
    """A tree of ``count`` links, four children each, a box on each and revolute joints."""
    parts = ['<?xml version="1.0"?>', '<robot name="wide">']
    parts += [f'<link name="l{i}"><visual><geometry><box size="0.1 0.1 0.1"/></geometry>'
              '</visual></link>' for i in range(count)]
    parts += [f'<joint name="j{i}" type="revolute"><parent link="l{(i - 1) // 4}"/>'
              f'<child link="l{i}"/><origin xyz="0.3 {0.1 * (i % 4)} 0.05" rpy="0 0 0.3"/>'
              '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
              '</joint>' for i in range(1, count)]
    return "\n".join(parts + ["</robot>"])


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_still_fits_the_robot_and_has_no_toolbar(path):
    """``view --png``'s page: no plotly toolbar (it covered the title), the title in the
    top margin, each axis spanning the robot (not a cube around its longest side) and the
    box drawn large: its isometric outline fills most of the 1280x960 picture."""
    scene = build_scene(load(path), str(path))
    figure, _ = scene_figure(scene, str(path), controls=False)
    layout = figure.layout.scene
    assert layout.aspectmode == "manual"
    spans = [high - low for low, high in (layout[f"{axis}axis"].range for axis in "xyz")]
    ratios = [layout.aspectratio[axis] for axis in "xyz"]
    longest = max(spans)
    for span, ratio in zip(spans, ratios):  # drawn to scale
        assert ratio / max(ratios) == pytest.approx(max(span, longest / 10 * 1.05) / longest)
    across = (ratios[0] + ratios[1]) * UNIT_PIXELS
    drawn = (across / 2 ** 0.5, ratios[2] * UNIT_PIXELS * (2 / 3) ** 0.5 + across / 6 ** 0.5)
    assert max(drawn[0] / 1280, drawn[1] / (960 - 60)) == pytest.approx(STILL_FILL)
    html = page_html(scene, str(path), controls=False)
    assert '"displayModeBar": false' in html
    assert '"displayModeBar"' not in page_html(scene, str(path))  # the page keeps it
