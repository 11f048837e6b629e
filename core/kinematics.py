"""The kinematic tree of a loaded model: links, joints, and forward kinematics.

Built from the frame graph, so it is the same for SDFormat and URDF input: a
joint connects the link its parent frame is attached to with the link its
child frame is attached to; ``X_PJ`` is the joint frame in the parent link frame
and ``X_JC`` the child link frame in the joint frame (identity for URDF).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from urdf_sdf.core.custom import custom_joints
from urdf_sdf.core.diagnostics import source_of
from urdf_sdf.core.graph import Kind, relative_pose, root_pose
from urdf_sdf.core.graph.frame_graph import WORLD_SENTINEL
from urdf_sdf.core.pose import IDENTITY, Pose, quat_from_axis_angle

WORLD = "world"


@dataclass(slots=True)
class KinematicJoint:
    name: str
    type: str
    parent: str          # scoped link name, or "world"
    child: str
    X_PJ: Pose
    X_JC: Pose
    axes: list[tuple[float, float, float]]
    element: object
    vertex: int

    def motion(self, q: float) -> Pose:
        """Joint frame motion ``X_JpJc(q)`` for one-degree-of-freedom joints."""
        if not self.axes or self.type not in ("revolute", "continuous", "prismatic"):
            return IDENTITY
        axis = self.axes[0]
        if self.type == "prismatic":
            return Pose((axis[0] * q, axis[1] * q, axis[2] * q))
        return Pose((0.0, 0.0, 0.0), quat_from_axis_angle(axis, q))


@dataclass
class KinematicTree:
    links: list[str] = field(default_factory=list)
    joints: list[KinematicJoint] = field(default_factory=list)
    link_poses: dict[str, Pose] = field(default_factory=dict)     # zero configuration
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

    def forward(self, q: dict[str, float] | None = None) -> dict[str, Pose]:
        """Every link's pose relative to the root frame at configuration ``q``
        (joint name -> position; missing joints at zero)."""
        q = q or {}
        poses: dict[str, Pose] = {}
        stack = [(root, self.link_poses[root]) for root in self.roots]
        if WORLD in self.children:
            stack.append((WORLD, IDENTITY))
        while stack:
            name, pose = stack.pop()
            if name in poses:
                continue
            if name != WORLD:
                poses[name] = pose
            for joint in self.children.get(name, []):
                child = pose * joint.X_PJ * joint.motion(q.get(joint.name, 0.0)) * joint.X_JC
                stack.append((joint.child, child))
        for name in self.links:  # links on a kinematic loop no root reaches: at rest
            poses.setdefault(name, self.link_poses[name])
        return poses


def build_tree(result, scope=None) -> KinematicTree:
    """The kinematic tree of the model owning ``scope`` (default: the root scope) in
    ``result`` (a valid ``core.loader.LoadResult``). Names are scoped from that model;
    poses are relative to its frame."""
    graph = result.graph
    scope = scope if scope is not None else graph.root
    view = _ScopeView(graph, scope)
    tree = KinematicTree()
    vertices = graph.vertices
    for vertex in view.members(Kind.LINK):
        name = view.name(vertex.id)
        tree.links.append(name)
        tree.link_poses[name] = view.pose(vertex.id)
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


def add_custom_joints(tree: KinematicTree, view: "_ScopeView", scope) -> None:
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
    """What a ``<urdf:joint>`` provides where a core.model.Joint would be."""
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
            return root_pose(self.graph, vid)
        return relative_pose(self.graph, vid, self.base)


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
        X_PJ = relative_pose(graph, vertex.id, parent_link)
    X_JC = relative_pose(graph, child_link, vertex.id)
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


def joint_kind(joint: KinematicJoint) -> str:
    """The joint type, a revolute joint without position limits counted as continuous."""
    if joint.type == "revolute":
        limit = getattr(joint.element, "limit", None)
        lower = unbounded(limit.lower if limit is not None else None, "lower")
        upper = unbounded(limit.upper if limit is not None else None, "upper")
        if lower in (None, -math.inf) and upper in (None, math.inf):
            return "continuous"
    return joint.type


# ---- forward kinematics over many configurations at once -----------------------------------
#
# ``urdf-sdf diff`` evaluates every frame at 21 configurations. The helpers below do what
# :meth:`KinematicTree.forward` does for all of them at once, with numpy arrays of
# positions ``(..., 3)`` and quaternions ``(..., 4)`` (w, x, y, z). Every array operation
# repeats, element by element and in the same order, the float arithmetic of
# ``core.pose`` (``Pose.__mul__``, ``Pose.inverse``, ``quat_from_axis_angle``; sines and
# cosines from ``math``), so the results are bit for bit those of the scalar code: the
# messages built from them stay the same, down to the sign of a zero.

# Columns of pose arrays processed at once in the vectorised steps (bounds temporaries).
SLICE = 4096


def compose_components(a, b) -> tuple:
    """``X_AB * X_BC`` (``Pose.__mul__``) on poses given as seven arrays (or numbers)
    ``(x, y, z, qw, qx, qy, qz)`` that broadcast together: ``core.pose.rotate`` and
    ``core.pose.quat_mul`` written out term for term. Component arrays, rather than one
    array with a last axis of 7, keep every operation a plain elementwise one: no
    gathering, the fewest numpy calls for the short arrays of a deep chain's levels."""
    px, py, pz, aw, ax, ay, az = a
    vx, vy, vz, bw, bx, by, bz = b
    tx = 2 * (ay * vz - az * vy)
    ty = 2 * (az * vx - ax * vz)
    tz = 2 * (ax * vy - ay * vx)
    return (px + (vx + aw * tx + (ay * tz - az * ty)),
            py + (vy + aw * ty + (az * tx - ax * tz)),
            pz + (vz + aw * tz + (ax * ty - ay * tx)),
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def inverse_components(a) -> tuple:
    """``Pose.inverse`` on seven component arrays."""
    px, py, pz, w, x, y, z = a
    x, y, z = -x, -y, -z
    tx = 2 * (y * pz - z * py)
    ty = 2 * (z * px - x * pz)
    tz = 2 * (x * py - y * px)
    return (-(px + w * tx + (y * tz - z * ty)), -(py + w * ty + (z * tx - x * tz)),
            -(pz + w * tz + (x * ty - y * tx)), w, x, y, z)


def quat_mul_components(a, b) -> tuple:
    """``core.pose.quat_mul`` on four component arrays."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def split(positions: np.ndarray, rotations: np.ndarray) -> tuple:
    """The seven component views of position ``(..., 3)`` and quaternion ``(..., 4)``
    arrays."""
    return tuple(positions[..., i] for i in range(3)) + \
        tuple(rotations[..., i] for i in range(4))


def batch_compose(pa: np.ndarray, qa: np.ndarray, pb: np.ndarray,
                  qb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``X_AB * X_BC`` (``Pose.__mul__``) over arrays of positions and quaternions."""
    out = compose_components(split(pa, qa), split(pb, qb))
    return np.stack(out[:3], axis=-1), np.stack(out[3:], axis=-1)


def batch_inverse(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``Pose.inverse`` over arrays."""
    out = inverse_components(split(p, q))
    return np.stack(out[:3], axis=-1), np.stack(out[3:], axis=-1)


def batch_quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``core.pose.quat_mul`` over arrays of quaternions."""
    parts = quat_mul_components(tuple(a[..., i] for i in range(4)),
                                tuple(b[..., i] for i in range(4)))
    return np.stack(parts, axis=-1)


def pose_arrays(poses: list[Pose]) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(n, 3)`` and quaternions ``(n, 4)`` of a list of poses."""
    positions = np.array([p.position for p in poses], dtype=float).reshape(len(poses), 3)
    rotations = np.array([p.rotation for p in poses], dtype=float).reshape(len(poses), 4)
    return positions, rotations


@dataclass
class ForwardPlan:
    """How :meth:`KinematicTree.forward` computes every link pose, as data: row ``i`` is
    either a base pose (a root link's rest pose, the world's identity, a link no root
    reaches at rest) or ``row[parent[i]] * X_PJ * motion(q) * X_JC`` of ``joint[i]``.
    ``levels`` lists the derived rows by depth, so that each level can be computed at once
    for every configuration; ``rows`` maps each link to its row."""
    base: dict[int, Pose] = field(default_factory=dict)
    parent: dict[int, int] = field(default_factory=dict)
    joint: dict[int, KinematicJoint] = field(default_factory=dict)
    levels: list[list[int]] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    size: int = 0


def forward_plan(tree: KinematicTree) -> ForwardPlan:
    """The plan of ``tree.forward``: the same walk (depth first, first visit wins), with
    rows in place of poses."""
    plan = ForwardPlan()
    depth: dict[int, int] = {}

    def new_row(parent: int | None, joint: KinematicJoint | None, pose: Pose | None) -> int:
        row = plan.size
        plan.size += 1
        if parent is None:
            plan.base[row] = pose
            depth[row] = 0
        else:
            plan.parent[row], plan.joint[row] = parent, joint
            depth[row] = depth[parent] + 1
        return row

    stack = [(root, new_row(None, None, tree.link_poses[root])) for root in tree.roots]
    if WORLD in tree.children:
        stack.append((WORLD, new_row(None, None, IDENTITY)))
    while stack:
        name, row = stack.pop()
        if name in plan.rows:
            continue
        if name != WORLD:
            plan.rows[name] = row
        for joint in tree.children.get(name, []):
            stack.append((joint.child, new_row(row, joint, None)))
    for name in tree.links:  # links on a kinematic loop no root reaches: at rest
        if name not in plan.rows:
            plan.rows[name] = new_row(None, None, tree.link_poses[name])
    by_depth: dict[int, list[int]] = {}
    for row in plan.parent:
        by_depth.setdefault(depth[row], []).append(row)
    plan.levels = [by_depth[d] for d in sorted(by_depth)]
    return plan


def joint_motions(joints: list[KinematicJoint],
                  configurations: list[dict[str, float]]) -> np.ndarray:
    """``joint.motion(q.get(joint.name, 0.0))`` for every configuration and joint, as a
    ``(7, K, J)`` component table. Sines and cosines come from ``math``, as in
    ``quat_from_axis_angle`` (numpy's may differ in the last bit)."""
    count = len(configurations)
    values = np.array([[q.get(j.name, 0.0) for j in joints] for q in configurations],
                      dtype=float).reshape(count, len(joints))
    table = np.zeros((7, count, len(joints)))
    table[3] = 1.0
    moving = [i for i, j in enumerate(joints)
              if j.axes and j.type in ("revolute", "continuous", "prismatic")]
    sliding = [i for i in moving if joints[i].type == "prismatic"]
    turning = [i for i in moving if joints[i].type != "prismatic"]
    for indices, offset in ((sliding, 0), (turning, 4)):
        if not indices:
            continue
        axes = np.array([joints[i].axes[0] for i in indices], dtype=float).T[:, None, :]
        if offset == 0:
            table[0:3, :, indices] = axes * values[:, indices]
            continue
        half = (values[:, indices] / 2).ravel().tolist()
        table[3, :, indices] = np.array([math.cos(h) for h in half]).reshape(count, -1).T
        sines = np.array([math.sin(h) for h in half]).reshape(count, -1)
        table[4:7, :, indices] = axes * sines
    return table


def forward_batch(trees: list[tuple[KinematicTree, ForwardPlan]],
                  configurations: list[dict[str, float]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every row of each ``(tree, plan)`` at each configuration: positions ``(K, rows, 3)``
    and quaternions ``(K, rows, 4)`` per tree, bit for bit the poses ``tree.forward(q)``
    gives. Computed a level (depth) at a time on one ``(7, K, rows)`` table for all the
    trees: the cost of a level is mostly numpy's per-call overhead, so two deep chains
    (the two sides of a diff) cost about what one does."""
    offsets, joints, parents, rows_at = [], [], [], {}
    size = 0
    for tree, plan in trees:
        offsets.append(size)
        for depth, level in enumerate(plan.levels):
            rows_at.setdefault(depth, []).extend(size + row for row in level)
        for row in plan.parent:
            joints.append(plan.joint[row])
            parents.append(size + plan.parent[row])
        size += plan.size
    table = np.zeros((7, len(configurations), size))
    for (tree, plan), offset in zip(trees, offsets):
        if plan.base:
            rows = [offset + row for row in plan.base]
            table[:, :, rows] = np.concatenate(pose_arrays(list(plan.base.values())),
                                               axis=-1).T[:, None, :]
    derived_rows = [offset + row for (tree, plan), offset in zip(trees, offsets)
                    for row in plan.parent]
    column = {row: i for i, row in enumerate(derived_rows)}
    motion = joint_motions(joints, configurations)
    X_PJ = np.concatenate(pose_arrays([j.X_PJ for j in joints]), axis=-1).T    # (7, J)
    X_JC = np.concatenate(pose_arrays([j.X_JC for j in joints]), axis=-1).T
    with np.errstate(all="ignore"):
        for depth in sorted(rows_at):
            level = rows_at[depth]
            cols = [column[row] for row in level]
            pose = compose_components(table[:, :, [parents[c] for c in cols]], X_PJ[:, cols])
            pose = compose_components(pose, motion[:, :, cols])
            table[:, :, level] = compose_components(pose, X_JC[:, cols])
    return [(table[:3, :, o:o + plan.size].transpose(1, 2, 0),
             table[3:, :, o:o + plan.size].transpose(1, 2, 0))
            for (tree, plan), o in zip(trees, offsets)]


def add_derived_rows(positions: np.ndarray, rotations: np.ndarray,
                     derived: list[tuple]) -> tuple[np.ndarray, np.ndarray]:
    """Append the rows ``row[source] * pose`` of ``derived`` (see
    :meth:`core.diff.Description.pose_rows`) to the table, a generation at a time (a derived row may
    derive from an earlier derived row)."""
    count, first = positions.shape[0], positions.shape[1]
    positions = np.concatenate([positions, np.zeros((count, len(derived), 3))], axis=1)
    rotations = np.concatenate([rotations, np.zeros((count, len(derived), 4))], axis=1)
    generation: dict[int, int] = {}
    by_generation: dict[int, list[int]] = {}
    for i, (source, _) in enumerate(derived):
        generation[first + i] = generation.get(source, 0) + 1
        by_generation.setdefault(generation[first + i], []).append(i)
    for level in sorted(by_generation):
        indices = by_generation[level]
        sources = [derived[i][0] for i in indices]
        targets = [first + i for i in indices]
        const_p, const_q = pose_arrays([derived[i][1] for i in indices])
        positions[:, targets], rotations[:, targets] = sliced_compose(
            positions[:, sources], rotations[:, sources], const_p, const_q)
    return positions, rotations


def sliced_compose(pa, qa, pb, qb) -> tuple[np.ndarray, np.ndarray]:
    """:func:`batch_compose` over the second-to-last axis in slices of
    :data:`SLICE` columns, so that its temporaries stay small. An operand whose axis has
    length 1 (one pose for every column) is broadcast."""
    width = max(a.shape[-2] for a in (pa, qa, pb, qb))
    shape = np.broadcast_shapes(pa.shape[:-2], qa.shape[:-2], pb.shape[:-2], qb.shape[:-2])
    out_p, out_q = np.empty(shape + (width, 3)), np.empty(shape + (width, 4))
    with np.errstate(all="ignore"):
        for start in range(0, width, SLICE):
            part = [a if a.shape[-2] == 1 else a[..., start:start + SLICE, :]
                    for a in (pa, qa, pb, qb)]
            out_p[..., start:start + SLICE, :], out_q[..., start:start + SLICE, :] = \
                batch_compose(*part)
    return out_p, out_q
