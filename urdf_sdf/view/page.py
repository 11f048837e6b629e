"""The scene drawn with plotly: one self-contained HTML page (plotly's JavaScript, from
its Python package, embedded; nothing fetched when it is opened).

Traces, per side: the visual meshes and the collision meshes (one trace per link when
there are few links, so a slider step resends only the links it moves; one trace for
all of them otherwise), the markers of shapes that cannot be drawn, the frames' axis
triads (one trace per axis colour), the frames' hover points, their names, the
kinematic tree, the joint axes (lines and cone heads); on a diff page, one trace per
difference (the legend names the causes, then counts the dependent differences, as
``urdf-sdf diff`` prints them).

The joint slider, the joint picker and the show/hide buttons are :mod:`.controls`. The
interactive page's box is a cube holding every position the slider can show
(:func:`cube_axes`); a still picture's (``view --png``) spans the robot and fills the
frame (:func:`fitted_axes`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from numpy.typing import ArrayLike
from plotly.basedatatypes import BaseTraceType

from urdf_sdf.core.base.pose import IDENTITY, Pose, rotate
from urdf_sdf.core.diff.difference import DEPENDENT
from urdf_sdf.view.controls import GROUPS, menus, motion_controls
from urdf_sdf.view.overlay import HIGHLIGHT_COLOUR
from urdf_sdf.view.scene import Scene, Side, tree_edges
from urdf_sdf.view.snapshot import WINDOW

LINK_TRACES = 60            # links of one side drawn as one trace each, at most
LEGEND_DIFFERENCES = 40     # differences listed one by one in the legend
AXIS_COLOURS = ("#e41a1c", "#2ca02c", "#1f4fff")
TREE_COLOUR = "#555555"
AXIS_ARROW_COLOUR = "#9467bd"
MISSING_COLOUR = "#d62728"
CAMERA = {"eye": {"x": 1.4, "y": 1.4, "z": 1.4}, "up": {"x": 0, "y": 0, "z": 1},
          "projection": {"type": "orthographic"}}  # isometric
# A still picture (urdf_sdf.view.snapshot.WINDOW): the drawing's box fills this share of
# it; plotly draws a box of aspect ratio 1 this many pixels across per unit (measured).
STILL_FILL = 0.75
UNIT_PIXELS = 0.39 * WINDOW[1]
TOP_MARGIN = 60  # pixels: the title's
STILL_TITLE = {"y": 0.985, "yanchor": "top"}  # in the top margin, above the drawing


def page_html(scene: Scene, title: str, controls: bool = True) -> str:
    """The page of ``scene``; ``controls=False`` makes it a still picture's: no slider,
    buttons or toolbar, the title in the top margin, the robot filling the frame
    (:func:`fitted_axes`)."""
    figure, note = scene_figure(scene, title, controls)
    # a still has no toolbar: it would cover the title and means nothing in a picture
    config = {"displaylogo": False} if controls else {"displaylogo": False,
                                                      "displayModeBar": False}
    return figure.to_html(include_plotlyjs=True, full_html=True, config=config,
                          div_id="urdf-sdf-view")


def scene_figure(scene: Scene, title: str, controls: bool = True) -> tuple[go.Figure, str]:
    """The plotly figure, and a note on what the slider leaves out ("" when nothing)."""
    size = axis_length(scene)
    builders = [_SideTraces(side, index, len(scene.sides), size)
                for index, side in enumerate(scene.sides)]
    traces: list[BaseTraceType] = []
    groups: dict[str, list[int]] = {name: [] for name in GROUPS}
    for builder in builders:
        builder.first = len(traces)
        for trace, group in builder.traces({}):
            if group:
                groups[group].append(len(traces))
            traces.append(trace)
    for trace in highlight_traces(scene):
        traces.append(trace)
    figure = go.Figure(data=traces)
    note = ""
    if controls:
        frames, sliders, note = motion_controls(scene, builders)
        figure.frames = frames
        figure.update_layout(sliders=sliders, updatemenus=menus(groups, sliders))
    points = drawn_points(traces + [t for frame in figure.frames for t in frame.data])
    framing = {"aspectmode": "cube", "camera": CAMERA, **cube_axes(points)} if controls \
        else fitted_axes(points, 0.62 if scene.highlights else 1.0)
    figure.update_layout(
        title={"text": escaped(title) + (f"<br><sub>{note}</sub>" if note else ""), "x": 0.01,
               **({} if controls else STILL_TITLE)},
        scene={"domain": {"x": [0, 0.62] if scene.highlights else [0, 1]}, **framing},
        margin={"l": 0, "r": 0, "t": TOP_MARGIN, "b": 0},
        legend={"x": 0.63 if scene.highlights else 0.01, "y": 0.92, "yanchor": "top",
                "font": {"size": 10}, "maxheight": 0.9},
        paper_bgcolor="white", hoverlabel={"namelength": -1})
    return figure, note


def drawn_points(traces: Sequence[BaseTraceType]) -> np.ndarray:
    """Every finite point of ``traces`` (the scene's, and the slider's frames': every
    position the slider can show), one row each; the origin when there is none."""
    coordinates = [np.column_stack([np.asarray(trace[axis], dtype=float).ravel()
                                    for axis in "xyz"])
                   for trace in traces
                   if all(axis in trace and trace[axis] is not None for axis in "xyz")]
    points = np.concatenate(coordinates) if coordinates else np.zeros((0, 3))
    points = points[np.isfinite(points).all(axis=1)]
    return points if len(points) else np.zeros((1, 3))


def cube_axes(points: np.ndarray) -> dict[str, dict[str, object]]:
    """The three axes with one common span, centred on the drawing and holding every one
    of ``points``: with ``aspectmode="cube"`` the robot is undistorted and wholly in view
    from the default camera whatever its proportions (a tall arm is not cut off), and
    stays so as the slider moves it."""
    low, high = points.min(axis=0), points.max(axis=0)
    centre = (low + high) / 2
    half = max(float((high - low).max()) / 2 * 1.05, 1e-3)
    return {f"{axis}axis": {"title": axis, "range": [float(centre[k] - half),
                                                     float(centre[k] + half)]}
            for k, axis in enumerate("xyz")}


def fitted_axes(points: np.ndarray, width: float = 1.0) -> dict[str, object]:
    """A still picture's scene: each axis spans the drawing (a margin of 5%), drawn to
    scale (the box has the drawing's proportions, none below a tenth of the longest),
    the box as large as the picture holds (``width``: the scene's share of it) seen from
    the isometric camera, rather than a cube around the longest side."""
    low, high = points.min(axis=0), points.max(axis=0)
    spans = np.maximum(high - low, 1e-3)
    spans = np.maximum(spans, float(spans.max()) / 10) * 1.05
    centre = (low + high) / 2
    ratio = spans / float(spans.max())
    return {"aspectmode": "manual", "camera": CAMERA,
            "aspectratio": {axis: float(ratio[k] * still_scale(ratio, width))
                            for k, axis in enumerate("xyz")},
            **{f"{axis}axis": {"title": axis, "range": [float(centre[k] - spans[k] / 2),
                                                        float(centre[k] + spans[k] / 2)]}
               for k, axis in enumerate("xyz")}}


def still_scale(ratio: np.ndarray, width: float) -> float:
    """How much the box of proportions ``ratio`` (x, y, z) is enlarged to fill
    :data:`STILL_FILL` of the picture from the isometric camera: plotly draws a box of
    aspect ratio 1 at :data:`UNIT_PIXELS` pixels, and an isometric view of an ``a x b x c``
    box is ``(a + b) / sqrt(2)`` wide and ``c sqrt(2/3) + (a + b) / sqrt(6)`` high."""
    across = float(ratio[0] + ratio[1])
    drawn_width = across / math.sqrt(2) * UNIT_PIXELS
    drawn_height = (float(ratio[2]) * math.sqrt(2 / 3) + across / math.sqrt(6)) * UNIT_PIXELS
    frame_width, frame_height = WINDOW[0] * width, WINDOW[1] - TOP_MARGIN
    return STILL_FILL * min(frame_width / drawn_width, frame_height / drawn_height)


def escaped(text: str) -> str:
    """``text`` as plotly shows it literally: its titles, names and hover texts are
    pseudo-HTML, where ``<stdin>`` would be an unknown tag and vanish."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def axis_length(scene: Scene) -> float:
    """Triad arms: a twentieth of the scene's extent (at least a centimetre)."""
    points = [f.pose.position for side in scene.sides for f in side.frames]
    points += [s.pose.position for side in scene.sides for s in side.shapes]
    if not points:
        return 0.1
    array = np.array(points, dtype=float)
    extent = float(np.linalg.norm(np.ptp(array, axis=0)))
    return max(0.01, extent / 20) if extent > 0 else 0.1


def _matrix(pose: Pose) -> np.ndarray:
    w, x, y, z = pose.rotation
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _placed(pose: Pose, points: np.ndarray) -> np.ndarray:
    return points @ _matrix(pose).T + np.asarray(pose.position)


def _xyz(points: ArrayLike) -> dict[str, np.ndarray]:
    array = np.asarray(points, dtype=np.float32).reshape(-1, 3)
    return {"x": array[:, 0], "y": array[:, 1], "z": array[:, 2]}


def arrow_lines(starts: np.ndarray, directions: np.ndarray, length: float) -> np.ndarray:
    """Arrows as one polyline with NaN breaks: a shaft along each unit direction and four
    barbs at its tip. (Lines, not plotly cones: plotly.js does not animate cone traces.)"""
    count = len(starts)
    if count == 0:
        return np.zeros((0, 3))
    tips = starts + length * directions
    helper = np.where(np.abs(directions[:, :1]) < 0.9, [[1.0, 0, 0]], [[0, 1.0, 0]])
    side = np.cross(directions, helper)
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    other = np.cross(directions, side)
    back = tips - 0.3 * length * directions
    gap = np.full((count, 3), np.nan)
    pieces = [starts, tips, gap]
    for offset in (side, -side, other, -other):
        pieces += [tips, back + 0.12 * length * offset, gap]
    return np.stack(pieces, axis=1).reshape(-1, 3)


def _along(axis: int, length: float) -> tuple[float, float, float]:
    """The vector of ``length`` along coordinate axis ``axis`` (0 x, 1 y, 2 z)."""
    x, y, z = (length if k == axis else 0.0 for k in range(3))
    return x, y, z


class _SideTraces:
    """The traces of one side, for the rest pose or a slider step (``moved``: link ->
    transform applied to what rides on it)."""

    def __init__(self, side: Side, index: int, count: int, size: float):
        self.side, self.index, self.size = side, index, size
        self.prefix = f"{escaped(side.label)}: " if count > 1 else ""
        self.first = 0
        links = sorted({s.link for s in side.shapes if s.missing is None})
        self.per_link = len(links) <= LINK_TRACES
        self.mesh_groups = [(role, link) for role in ("visual", "collision")
                            for link in (links if self.per_link else [None])
                            if any(s.role == role and s.missing is None and
                                   (link is None or s.link == link) for s in side.shapes)]

    def traces(self, moved: dict[str, Pose]) -> list[tuple[BaseTraceType, str | None]]:
        """``(trace, toggle group)`` in a fixed order."""
        found: list[tuple[BaseTraceType, str | None]] = [
            (self.mesh(role, link, moved), "visuals" if role == "visual" else "collisions")
            for role, link in self.mesh_groups]
        return found + self.marks(moved)

    def dynamic(self, moved: dict[str, Pose],
                links: frozenset[str]) -> list[tuple[int, BaseTraceType]]:
        """``(trace index, trace)`` of what a step moving ``links`` changes."""
        changed = [(self.first + i, self.mesh(role, link, moved, full=False))
                   for i, (role, link) in enumerate(self.mesh_groups)
                   if link is None or link in links]
        start = self.first + len(self.mesh_groups)
        return changed + [(start + i, trace) for i, (trace, _) in enumerate(self.marks(moved))]

    def mesh(self, role: str, link: str | None, moved: dict[str, Pose],
             full: bool = True) -> BaseTraceType:
        shapes = [s for s in self.side.shapes if s.role == role and s.missing is None and
                  (link is None or s.link == link)]
        points: list[np.ndarray] = []
        faces: list[np.ndarray] = []
        colours: list[str] = []
        offset = 0
        for shape in shapes:
            pose = moved.get(shape.link, IDENTITY) * shape.pose
            points.append(_placed(pose, shape.vertices))
            faces.append(shape.faces + offset)
            colours.extend([self.side.colour or shape.colour] * len(shape.faces))
            offset += len(shape.vertices)
        xyz = _xyz(np.concatenate(points))
        if not full:
            return go.Mesh3d(**xyz)
        index = np.concatenate(faces).astype(np.int32)
        name = f"{self.prefix}{role}s" + (f" {link}" if link else "")
        return go.Mesh3d(**xyz, i=index[:, 0], j=index[:, 1], k=index[:, 2],
                         facecolor=colours, opacity=shapes[0].opacity if role == "collision"
                         else (0.55 if self.side.colour else 1.0),
                         name=name, hovertext=name, hoverinfo="text", showlegend=False,
                         flatshading=True, visible=role == "visual",
                         legendgroup=f"{self.index}{role}")

    def marks(self, moved: dict[str, Pose]) -> list[tuple[BaseTraceType, str | None]]:
        frames = [(f, moved.get(f.link, IDENTITY) * f.pose if f.link else f.pose)
                  for f in self.side.frames]
        origins = np.array([p.position for _, p in frames], dtype=float).reshape(-1, 3)
        traces: list[tuple[BaseTraceType, str | None]] = []
        for axis, colour in enumerate(AXIS_COLOURS):
            unit = _along(axis, self.size)
            tips = np.array([rotate(p.rotation, unit) for _, p in frames]).reshape(-1, 3)
            traces.append((self._lines(origins, origins + tips, colour, "xyz"[axis] + " axes",
                                       2), "frames"))
        colour = self.side.colour or "#222222"
        owner = f" ({escaped(self.side.label)})" if self.prefix else ""
        hover = [f"{f.kind} {escaped(f.name)}{owner}" for f, _ in frames]
        traces.append((go.Scatter3d(**_xyz(origins), mode="markers", hovertext=hover,
                                    hoverinfo="text", marker={"size": 3, "color": colour},
                                    name=self.prefix + "frames", showlegend=bool(self.prefix)),
                       "frames"))
        traces.append((go.Scatter3d(**_xyz(origins), mode="text", text=[f.name for f, _ in frames],
                                    textfont={"size": 10, "color": colour}, hoverinfo="skip",
                                    name=self.prefix + "names", showlegend=False,
                                    visible=False), "names"))
        traces.extend(self.tree_and_axes(moved, colour))
        traces.append((self.missing(moved), "visuals"))
        return traces

    def tree_and_axes(self, moved: dict[str, Pose],
                      colour: str) -> list[tuple[BaseTraceType, str | None]]:
        side = self.side

        def at(link: str | None, pose: Pose) -> Pose:
            return moved.get(link, IDENTITY) * pose if link else pose

        points: list[tuple[float, float, float]] = []
        for joint, start, end in tree_edges(side):
            parent = joint.parent if joint.parent in side.links else None
            points += [at(parent, start).position, at(joint.child, joint.pose).position,
                       at(joint.child, end).position, (math.nan,) * 3]
        tree = go.Scatter3d(**_xyz(points or np.zeros((0, 3))), mode="lines",
                            line={"color": colour if side.colour else TREE_COLOUR, "width": 3},
                            hoverinfo="skip", name=self.prefix + "kinematic tree",
                            showlegend=False)
        starts: list[tuple[float, float, float]] = []
        directions: list[tuple[float, float, float]] = []
        for joint in side.joints:
            if joint.axis is None:
                continue
            starts.append(at(joint.child, joint.pose).position)
            directions.append(rotate(moved.get(joint.child, IDENTITY).rotation, joint.axis))
        arrows = go.Scatter3d(**_xyz(arrow_lines(np.array(starts, dtype=float).reshape(-1, 3),
                                                 np.array(directions, dtype=float).reshape(-1, 3),
                                                 2 * self.size)),
                              mode="lines", line={"color": AXIS_ARROW_COLOUR, "width": 4},
                              hoverinfo="skip", name=self.prefix + "joint axes",
                              showlegend=False)
        return [(tree, "frames"), (arrows, "frames")]

    def missing(self, moved: dict[str, Pose]) -> BaseTraceType:
        points = [_placed(moved.get(s.link, IDENTITY) * s.pose, s.vertices)
                  for s in self.side.shapes if s.missing is not None]
        hover = [escaped(f"{s.label}: {s.missing}") for s in self.side.shapes
                 if s.missing is not None for _ in range(len(s.vertices))]
        return go.Scatter3d(**_xyz(np.concatenate(points) if points else np.zeros((0, 3))),
                            mode="lines", line={"color": MISSING_COLOUR, "width": 4},
                            hovertext=hover, hoverinfo="text",
                            name=self.prefix + "meshes not drawn", showlegend=bool(points))

    def _lines(self, starts: np.ndarray, ends: np.ndarray, colour: str, name: str,
               width: int) -> BaseTraceType:
        count = len(starts)
        points = np.full((count * 3, 3), np.nan)
        points[0::3], points[1::3] = starts, ends
        return go.Scatter3d(**_xyz(points), mode="lines", line={"color": colour, "width": width},
                            hoverinfo="skip", name=self.prefix + name, showlegend=False)


def highlight_traces(scene: Scene) -> list[BaseTraceType]:
    """One marker per difference; in the legend, as ``urdf-sdf diff`` prints them, each
    cause named (the first :data:`LEGEND_DIFFERENCES`), then one entry for the dependent
    differences (and any further causes)."""
    traces: list[BaseTraceType] = []
    marker = {"size": 9, "color": HIGHLIGHT_COLOUR, "symbol": "diamond", "opacity": 0.8}
    causes = [h for h in scene.highlights if h.difference.role != DEPENDENT]
    shown = causes[:LEGEND_DIFFERENCES]
    rest = causes[LEGEND_DIFFERENCES:] + [h for h in scene.highlights
                                          if h.difference.role == DEPENDENT]
    for item in shown:
        label = escaped(item.difference.format())
        traces.append(go.Scatter3d(**_xyz([item.position]), mode="markers", marker=marker,
                                   hovertext=[escaped(item.text)], hoverinfo="text",
                                   name=label if len(label) <= 80 else label[:77] + "..."))
    if rest:
        traces.append(go.Scatter3d(**_xyz([h.position for h in rest]), mode="markers",
                                   marker=marker, hoverinfo="text",
                                   hovertext=[escaped(h.text) for h in rest],
                                   name=rest_label(len(causes) - len(shown),
                                                   len(scene.highlights) - len(causes))))
    return traces


def rest_label(causes: int, dependent: int) -> str:
    """The legend entry of the differences not named one by one: ``and N dependent
    differences``, as ``urdf-sdf diff`` says it."""
    parts = [f"{causes} more cause{'' if causes == 1 else 's'}"] if causes else []
    if dependent:
        parts.append(f"{dependent} dependent difference{'' if dependent == 1 else 's'}")
    return "and " + ", ".join(parts)
