"""The kinematic tree of a loaded model: links, joints and their rest poses.

Built from the frame graph, so it is the same for SDFormat and URDF input: a
joint connects the link its parent frame is attached to with the link its
child frame is attached to; ``X_PJ`` is the joint frame in the parent link frame
and ``X_JC`` the child link frame in the joint frame (identity for URDF). Forward
kinematics (over many configurations at once, with numpy) is
:mod:`urdf_sdf.core.kinematics.batch`.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Protocol

from urdf_sdf.core.base.custom import custom_joints
from urdf_sdf.core.base.diagnostics import source_of
from urdf_sdf.core.base.model import WORLD, Joint
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph import Kind, relative_pose, root_pose
from urdf_sdf.core.graph.frame_graph import WORLD_SENTINEL


@dataclass(slots=True)
class KinematicJoint:
    name: str
    type: str
    parent: str          # scoped link name, or "world"
    child: str
    X_PJ: Pose
    X_JC: Pose
    axes: list[tuple[float, float, float]]
    element: Joint | CustomJointElement  # the model's joint, or a <urdf:joint>'s stand-in
    vertex: int


@dataclass
class KinematicTree:
    links: list[str] = field(default_factory=list)
    joints: list[KinematicJoint] = field(default_factory=list)
    link_poses: MutableMapping[str, Pose] = field(default_factory=dict)  # zero configuration
    parent_joint: dict[str, KinematicJoint] = field(default_factory=dict)
    children: dict[str, list[KinematicJoint]] = field(default_factory=dict)
    extra_parents: list[KinematicJoint] = field(default_factory=list)
    # Joints that couple other joints (gearbox) rather than connect a link to a parent.
    constraints: list[KinematicJoint] = field(default_factory=list)

    @property
    def roots(self) -> list[str]:
        return [name for name in self.links if name not in self.parent_joint]

    def links_in_tree_order(self) -> list[str]:
        """Links each after its parent, breadth first from the roots (and the world's
        children); links on a loop without a root come last, in document order."""
        order = [name for name in self.roots]
        order += [j.child for j in self.children.get(WORLD, []) if j.child not in order]
        placed = set(order)
        for name in order:  # grows while it is walked
            for joint in self.children.get(name, []):
                if joint.child not in placed:
                    placed.add(joint.child)
                    order.append(joint.child)
        return order + [name for name in self.links if name not in placed]

    def loop_joints(self) -> list[KinematicJoint]:
        """Joints that close a kinematic loop: a second parent of a link, or a cycle."""
        closing = list(self.extra_parents)
        reached = set()
        stack = list(self.roots) + [WORLD]
        while stack:
            name = stack.pop()
            if name in reached:
                continue
            reached.add(name)
            stack.extend(j.child for j in self.children.get(name, []))
        seen_cycles: set[str] = set()
        for name in self.links:
            if name in reached or name in seen_cycles:
                continue
            path: list[str] = []
            current = name
            while current in self.parent_joint and current not in path:
                path.append(current)
                current = self.parent_joint[current].parent
            seen_cycles.update(path)
            if current in path:
                closing.append(self.parent_joint[current])
        return closing


class _Unresolved:
    """The mark of a rest pose not resolved yet."""
    __slots__ = ()


_UNRESOLVED = _Unresolved()


class RestPoses(MutableMapping):
    """Link name -> pose at the zero configuration, as a dict, each resolved in the frame
    graph (``resolve(vertex id)``) when first asked for: forward kinematics needs only the
    roots' and those of links no root reaches, and ``urdf-sdf diff`` of a deep chain would
    otherwise resolve every link's for nothing. Read it while the graph is whole."""

    def __init__(self, resolve: Callable[[int], Pose]):
        self._resolve = resolve
        self._poses: dict[str, Pose | _Unresolved] = {}
        self._vertices: dict[str, int] = {}

    def defer(self, name: str, vertex: int) -> None:
        """The pose of ``name`` is that of ``vertex``, resolved when asked for."""
        self._poses[name] = _UNRESOLVED
        self._vertices[name] = vertex

    def __getitem__(self, name: str) -> Pose:
        pose = self._poses[name]
        if isinstance(pose, _Unresolved):
            pose = self._poses[name] = self._resolve(self._vertices.pop(name))
        return pose

    def __setitem__(self, name: str, pose: Pose) -> None:
        self._poses[name] = pose
        self._vertices.pop(name, None)

    def __delitem__(self, name: str) -> None:
        del self._poses[name]
        self._vertices.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._poses

    def __iter__(self) -> Iterator[str]:
        return iter(self._poses)

    def __len__(self) -> int:
        return len(self._poses)


def build_tree(result, scope=None) -> KinematicTree:
    """The kinematic tree of the model owning ``scope`` (default: the root scope) in
    ``result`` (a valid ``core.loader.LoadResult``). Names are scoped from that model;
    poses are relative to its frame."""
    graph = result.graph
    scope = scope if scope is not None else graph.root
    view = _ScopeView(graph, scope)
    tree = KinematicTree()
    tree.link_poses = rest = RestPoses(view.pose)
    vertices = graph.vertices
    for vertex in view.members(Kind.LINK):
        name = view.name(vertex.id)
        tree.links.append(name)
        rest.defer(name, vertex.id)
    for vertex in view.members(Kind.JOINT):
        if vertex.attached_to is None:
            continue
        child_link = graph.attached_link.get(vertex.attached_to)
        if child_link is None or vertices[child_link].kind is not Kind.LINK:
            continue
        parent_link = _parent_link(graph, vertex)
        if parent_link is None:
            continue
        joint = _kinematic_joint(result, view, vertex, parent_link, child_link)
        if joint.type == "gearbox":
            tree.constraints.append(joint)
            continue
        tree.joints.append(joint)
        if joint.child in tree.parent_joint:
            tree.extra_parents.append(joint)
            continue
        tree.parent_joint[joint.child] = joint
        tree.children.setdefault(joint.parent, []).append(joint)
    add_custom_joints(tree, view, scope)
    return tree


def add_custom_joints(tree: KinematicTree, view: _ScopeView, scope) -> None:
    """``<urdf:joint>`` elements (floating and planar joints that urdf2sdf could not write
    as SDF joints) connect their free child link to its parent, at the pose it has."""
    model_xml = getattr(scope.owner.element, "xml", None)
    for custom in custom_joints(model_xml):
        parent, child = custom["parent"], custom["child"]
        if child not in tree.link_poses or child in tree.parent_joint or \
                (parent not in tree.link_poses and parent != WORLD):
            continue
        parent_pose = tree.link_poses.get(parent, IDENTITY)
        X_PJ = parent_pose.inverse() * tree.link_poses[child]
        axes = []
        if custom["axis"]:
            try:
                x, y, z = (float(v) for v in custom["axis"].split())
                norm = (x * x + y * y + z * z) ** 0.5
                axes = [(x / norm, y / norm, z / norm)] if norm else []
            except ValueError:
                axes = []
        element = CustomJointElement(custom["name"], custom["type"], custom["xml"])
        joint = KinematicJoint(custom["name"], custom["type"], parent, child, X_PJ, IDENTITY,
                               axes, element, -1)
        tree.joints.append(joint)
        tree.parent_joint[child] = joint
        tree.children.setdefault(parent, []).append(joint)


@dataclass
class CustomJointElement:
    """What a ``<urdf:joint>`` provides where a core.base.model.Joint would be."""
    name: str
    type: str
    xml: object

    @property
    def source(self):
        return source_of(self.xml, None)


class _ScopeView:
    """Vertices of one model's subtree, named and posed relative to that model."""

    def __init__(self, graph, scope):
        self.graph = graph
        self.scope = scope
        self.prefix = scope.prefix
        self.base = scope.owner.id

    def members(self, kind: Kind):
        for vertex in self.graph.vertices:
            if vertex.kind is kind and vertex.scope is not None and \
                    vertex.scoped_name.startswith(self.prefix):
                yield vertex

    def name(self, vid: int) -> str:
        return self.graph.vertices[vid].scoped_name[len(self.prefix):]

    def pose(self, vid: int) -> Pose:
        if self.scope.owner.scope is None:
            return resolved(self.graph, vid, root_pose(self.graph, vid))
        return resolved(self.graph, vid, relative_pose(self.graph, vid, self.base))


def resolved(graph, vid: int, pose: Pose | None) -> Pose:
    """``pose``, the pose of vertex ``vid`` that the graph resolved; ValueError when it did
    not (a tree is built only of a valid model, whose every pose resolves)."""
    if pose is None:
        raise ValueError(f"the pose of {graph.vertices[vid]!r} does not resolve: the model "
                         "is not valid")
    return pose


def _parent_link(graph, vertex) -> int | None:
    """The link vertex (or WORLD_SENTINEL for the world) a joint's parent frame rides on."""
    if vertex.parent in (None,):
        return None
    if vertex.parent == WORLD_SENTINEL:
        return WORLD_SENTINEL
    sink = graph.attached_link.get(vertex.parent)
    if sink is None:
        return None
    if graph.vertices[sink].kind is Kind.WORLD:
        return WORLD_SENTINEL
    if graph.vertices[sink].kind is not Kind.LINK:
        return None
    return sink


def _kinematic_joint(result, view: _ScopeView, vertex, parent_link: int,
                     child_link: int) -> KinematicJoint:
    graph = result.graph
    if parent_link == WORLD_SENTINEL:
        parent_name = WORLD
        X_PJ = view.pose(vertex.id)
    else:
        parent_name = view.name(parent_link)
        X_PJ = resolved(graph, vertex.id, relative_pose(graph, vertex.id, parent_link))
    X_JC = resolved(graph, child_link, relative_pose(graph, child_link, vertex.id))
    axes = [result.axis_in_joint_frame(vertex.scoped_name, i)
            for i in range(len(getattr(vertex.element, "axes", [])))]
    return KinematicJoint(view.name(vertex.id), vertex.element.type, parent_name,
                          view.name(child_link), X_PJ, X_JC,
                          [a for a in axes if a is not None], vertex.element, vertex.id)


# SDFormat's "no limit": position limits beyond +-1e16 and negative effort or velocity;
# sdf2urdf writes 1e+16 where URDF needs a number.
UNLIMITED = 1e16


def unbounded(value: float | None, key: str) -> float | None:
    """A limit as a number, every spelling of "no limit" as an infinity."""
    if value is None:
        return None
    if key in ("effort", "velocity") and (value < 0 or value >= UNLIMITED):
        return math.inf
    if key == "lower" and value <= -UNLIMITED:
        return -math.inf
    if key == "upper" and value >= UNLIMITED:
        return math.inf
    return value


class TypedJoint(Protocol):
    """What :func:`joint_kind` reads of a joint: a :class:`KinematicJoint`, or the digest
    ``core.diff`` keeps of one (its ``element`` has the joint's ``limit``, if any)."""

    @property
    def type(self) -> str:
        ...

    @property
    def element(self) -> object:
        ...


def joint_kind(joint: TypedJoint) -> str:
    """The joint type, a revolute joint without position limits counted as continuous."""
    if joint.type == "revolute":
        limit = getattr(joint.element, "limit", None)
        lower = unbounded(limit.lower if limit is not None else None, "lower")
        upper = unbounded(limit.upper if limit is not None else None, "upper")
        if lower in (None, -math.inf) and upper in (None, math.inf):
            return "continuous"
    return joint.type
