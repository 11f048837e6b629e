"""The scene a page is drawn from, as plain data: every frame with its pose, every
visual and collision as a triangle mesh posed in the root frame, every joint with its
axis and range, and the kinematic tree's edges; on a diff page, one :class:`Highlight`
per difference (made by :mod:`.overlay`).

Frame poses are :func:`urdf_sdf.core.inspect.report.frames_report`'s, the numbers
``urdf-sdf frames --json`` prints, so what the page shows is what that command says.
Shapes are posed as ``urdf-sdf diff`` poses them (the link's pose times the shape's
pose in the link, ``relative_to`` resolved by the loader).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import Geometry, Shape
from urdf_sdf.core.base.pose import IDENTITY, Pose, rotate
from urdf_sdf.core.compose.uri import shown
from urdf_sdf.core.diff.compare import joint_range
from urdf_sdf.core.diff.difference import Difference
from urdf_sdf.core.graph import FrameGraph, Kind, Vertex
from urdf_sdf.core.inspect.report import frames_report
from urdf_sdf.core.inspect.resources import Resource, resolve_read
from urdf_sdf.core.kinematics.tree import WORLD, KinematicJoint, KinematicTree, build_tree
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.view.meshes import MeshError, read_mesh
from urdf_sdf.view.tessellate import primitive, wire_box

SECTIONS = (("links", "link"), ("joints", "joint"), ("frames", "frame"), ("models", "model"))
VISUAL_COLOUR = "#9aa5b1"
COLLISION_COLOUR = "#e67e22"
MOVABLE = ("revolute", "continuous", "prismatic")
MISSING_MARKER = 0.05  # metres: the edge of the box drawn for a mesh that cannot be drawn


@dataclass
class FrameMark:
    """One frame drawn as an axis triad: its scoped name (as ``frames --json`` names
    it), kind (link, joint, frame, model), pose in the root frame, and the link it rides
    on (None when it rides on none: a static model's frame, the world)."""
    name: str
    kind: str
    pose: Pose
    link: str | None


@dataclass
class ShapeMesh:
    """A visual or collision of a link: ``vertices`` in the shape's own frame, posed by
    ``pose`` (root frame). A shape that cannot be drawn (a mesh that does not resolve or
    read, a heightmap) has ``missing`` set to the reason, and ``vertices`` is then the
    polyline of a marker box (``faces`` empty)."""
    link: str
    role: str            # "visual" or "collision"
    label: str
    pose: Pose
    vertices: np.ndarray
    faces: np.ndarray
    colour: str
    opacity: float
    missing: str | None = None


@dataclass
class JointMark:
    """A joint: its frame's pose in the root frame, its first axis in the root frame
    (None without one), its range (the one ``urdf-sdf diff`` samples) and its links."""
    name: str
    type: str
    parent: str
    child: str
    pose: Pose
    axis: tuple[float, float, float] | None
    lower: float
    upper: float

    @property
    def movable(self) -> bool:
        return self.type in MOVABLE and self.axis is not None


@dataclass
class Side:
    """One description on the page."""
    label: str
    tree: KinematicTree
    frames: list[FrameMark] = field(default_factory=list)
    shapes: list[ShapeMesh] = field(default_factory=list)
    joints: list[JointMark] = field(default_factory=list)
    links: dict[str, Pose] = field(default_factory=dict)
    colour: str | None = None   # one colour for everything (the sides of a diff page)
    _index: dict[tuple[str, str], FrameMark] | None = field(default=None, repr=False,
                                                            compare=False)

    def frame(self, kind: str, name: str) -> FrameMark | None:
        """The frame of that kind and scoped name (an index made on first use)."""
        if self._index is None or len(self._index) != len(self.frames):
            self._index = {(f.kind, f.name): f for f in self.frames}
        return self._index.get((kind, name))

    def subtree(self, link: str) -> set[str]:
        """``link`` and every link below it in the kinematic tree."""
        found: set[str] = set()
        stack = [link]
        while stack:
            name = stack.pop()
            if name in found:
                continue
            found.add(name)
            stack.extend(j.child for j in self.tree.children.get(name, ()))
        return found

    def moved(self, transform: Pose) -> Side:
        """This side with every pose premultiplied by ``transform`` (the alignment of
        the second description of a diff page)."""
        joints = [JointMark(j.name, j.type, j.parent, j.child, transform * j.pose,
                            None if j.axis is None else rotate(transform.rotation, j.axis),
                            j.lower, j.upper) for j in self.joints]
        return Side(self.label, self.tree,
                    [FrameMark(f.name, f.kind, transform * f.pose, f.link) for f in self.frames],
                    [ShapeMesh(s.link, s.role, s.label, transform * s.pose, s.vertices, s.faces,
                               s.colour, s.opacity, s.missing) for s in self.shapes],
                    joints, {n: transform * p for n, p in self.links.items()}, self.colour)


@dataclass
class Highlight:
    """A difference as the page marks it: where (A's pose of the thing it names, else
    B's, else the root frame), and the gap between the two sides' poses of it on the
    page (distance in metres, angle in degrees; None when one side lacks it)."""
    difference: Difference
    position: tuple[float, float, float]
    distance: float | None
    angle: float | None

    @property
    def text(self) -> str:
        text = self.difference.format()
        if self.distance is not None:
            text += f" (on the page: {self.distance:.4g} m apart, {self.angle:.4g}° turned)"
        return text


@dataclass
class Scene:
    """What a page shows: one side, or two overlaid (then ``highlights`` holds one entry
    per difference ``urdf-sdf diff`` reports, in its order); ``diagnostics`` holds the
    warnings met on the way (meshes that cannot be drawn)."""
    sides: list[Side]
    highlights: list[Highlight] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


def build_scene(result: LoadResult, label: str, context: Context | None = None) -> Scene:
    """The scene of one loaded, valid description."""
    diagnostics = Diagnostics()
    side = build_side(result, label, context or result.context or Context(), diagnostics)
    return Scene([side], [], diagnostics)


def build_side(result: LoadResult, label: str, context: Context,
               diagnostics: Diagnostics) -> Side:
    """One description's side of the page (its meshes' warnings into ``diagnostics``)."""
    graph = result.graph
    if graph is None:
        raise ValueError(f"{label}: a description that did not load has no scene")
    report = frames_report(result)
    vertices = {v.scoped_name: v for v in graph.vertices if v.scope is not None}
    frames = []
    for section, kind in SECTIONS:
        for name, values in report[section].items():
            pose = Pose(tuple(values[:3]), tuple(values[3:]))
            frames.append(FrameMark(name, kind, pose, _riding_on(graph, vertices[name])))
    side = Side(label, build_tree(result), frames)
    side.links = {f.name: f.pose for f in frames if f.kind == "link"}
    joint_poses = {f.name: f.pose for f in frames if f.kind == "joint"}
    side.joints = [_joint_mark(joint, joint_poses[joint.name]) for joint in side.tree.joints
                   if joint.name in joint_poses]
    meshes: dict[tuple[str, tuple[float, ...]], Mesh | NotDrawn] = {}
    for name, pose in side.links.items():
        link = vertices[name].element
        for role, shapes in (("visual", link.visuals), ("collision", link.collisions)):
            for index, shape in enumerate(shapes):
                drawn = _shape_mesh(result, context, name, pose, role, index, shape, meshes,
                                    diagnostics)
                if drawn is not None:
                    side.shapes.append(drawn)
    return side


def _riding_on(graph: FrameGraph, vertex: Vertex) -> str | None:
    sink = graph.attached_link.get(vertex.id)
    if sink is None or graph.vertices[sink].kind is not Kind.LINK:
        return None
    return graph.vertices[sink].scoped_name


def _joint_mark(joint: KinematicJoint, pose: Pose) -> JointMark:
    """The mark of ``joint``, whose frame is at ``pose`` in the root frame."""
    axis = rotate(pose.rotation, joint.axes[0]) if joint.axes else None
    lower, upper = joint_range(joint)
    return JointMark(joint.name, joint.type, joint.parent, joint.child, pose, axis, lower, upper)


@dataclass(frozen=True)
class NotDrawn:
    """Why a shape cannot be drawn: the warning's code and message; ``owner`` the package
    or model not found (its warning is given once, at its first shape)."""
    code: Code
    message: str
    owner: tuple[str, str] | None = None


Mesh = tuple[np.ndarray, np.ndarray]  # (vertices (N, 3), faces (M, 3))


def _shape_mesh(result: LoadResult, context: Context, link: str, link_pose: Pose, role: str,
                index: int, shape: Shape, meshes: dict[tuple[str, tuple[float, ...]],
                                                       Mesh | NotDrawn],
                diagnostics: Diagnostics) -> ShapeMesh | None:
    geometry = shape.geometry
    if geometry is None or geometry.kind == "empty":
        return None
    local = result.pose_in_link(link, shape.pose) or IDENTITY
    label = f"{link} {role} {shape.name or index}"
    colour, opacity = _colour(shape, role)
    made = _geometry_mesh(result, context, geometry, meshes)
    if isinstance(made, NotDrawn):
        where = geometry.source if geometry.source.line is not None else shape.source
        if made.owner is None or not any(made.message in d.message for d in diagnostics):
            diagnostics.warning_at(made.code, f"{label}: {made.message}; drawn as a marker "
                                   "box" + (" (so is every shape naming it)"
                                            if made.owner is not None else ""), where)
        size = np.asarray(geometry.scale or (1.0, 1.0, 1.0), dtype=float) * MISSING_MARKER
        return ShapeMesh(link, role, label, link_pose * local, wire_box(np.abs(size)),
                         np.zeros((0, 3), dtype=np.int64), colour, opacity, made.message)
    vertices, faces = made
    return ShapeMesh(link, role, label, link_pose * local, vertices, faces, colour, opacity)


def _geometry_mesh(result: LoadResult, context: Context, geometry: Geometry,
                   meshes: dict[tuple[str, tuple[float, ...]], Mesh | NotDrawn]
                   ) -> Mesh | NotDrawn:
    """``(vertices, faces)``, or why it cannot be drawn. Mesh files are read once per
    (path, scale) in ``meshes``."""
    if geometry.kind != "mesh":
        made = primitive(geometry)
        return made if made is not None else \
            NotDrawn(Code.MESH_UNREADABLE, f"a {geometry.kind} without its sizes is not drawn")
    uri = (geometry.uri or "").strip()
    resource = resolve_read(Resource(uri, "mesh", geometry.source), result, context)
    if resource.path is None:
        if resource.missing_owner is not None:  # one warning for all its shapes
            return NotDrawn(Code.MESH_UNRESOLVED, f"{resource.problem}",
                            resource.missing_owner)
        return NotDrawn(resource.problem_code or Code.MESH_UNRESOLVED,
                        f"mesh [{shown(uri)}] does not resolve: {resource.problem}")
    key = (str(resource.path), tuple(geometry.scale or ()))
    if key not in meshes:
        try:
            meshes[key] = read_mesh(resource.path, geometry.scale, resource.real)
        except MeshError as exc:
            meshes[key] = NotDrawn(exc.code, f"mesh [{shown(uri)}] ({resource.path}): {exc}")
    return meshes[key]


def _colour(shape: Shape, role: str) -> tuple[str, float]:
    """A visual's material colour (else grey); collisions orange and see-through."""
    if role == "collision":
        return COLLISION_COLOUR, 0.35
    material = shape.material
    if material is not None and material.color is not None:
        r, g, b, a = (min(1.0, max(0.0, float(v))) for v in material.color)
        return f"rgb({round(r * 255)},{round(g * 255)},{round(b * 255)})", a or 1.0
    return VISUAL_COLOUR, 1.0


def tree_edges(side: Side) -> list[tuple[JointMark, Pose, Pose]]:
    """The kinematic tree as (joint, parent link pose, child link pose), one per joint
    (a joint to the world starts at the root frame)."""
    edges = []
    for joint in side.joints:
        start = side.links.get(joint.parent, IDENTITY) if joint.parent != WORLD else IDENTITY
        end = side.links.get(joint.child)
        if end is not None:
            edges.append((joint, start, end))
    return edges
