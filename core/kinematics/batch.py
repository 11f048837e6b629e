"""Forward kinematics of a :class:`urdf_sdf.core.kinematics.tree.KinematicTree` over many
configurations at once, with numpy: every link's pose at every configuration of
``urdf-sdf diff`` together. Apart from :mod:`urdf_sdf.core.kinematics.tree` so that numpy is
imported only by what needs it (the converters use the kinematic tree, not this).

A link's pose is its parent link's times the joint's ``X_PJ``, the joint's motion at its
position ``q`` (a turn of ``q`` about the axis,
:func:`urdf_sdf.core.base.pose.quat_from_axis_angle`, or a slide of ``q`` along it; none for
other joint types or a joint without an axis) and ``X_JC``; walked depth first from the
root links and the world, the first path to reach a link wins; a link no root reaches
(on a kinematic loop) stays at its rest pose.

Poses are numpy arrays of positions ``(..., 3)`` and quaternions ``(..., 4)`` (w, x, y,
z). Composing and inverting them (:func:`batch_compose`, :func:`batch_inverse`,
:func:`batch_relative_rotation`) applies the formulas of :mod:`urdf_sdf.core.base.pose` to arrays
of components: there is no second copy of them. The one numpy-specific form is
:func:`compose_stacked`, the step of :func:`forward_compact` that computes a level of the
tree for every configuration in a dozen numpy calls (the formulas applied component by
component take five times as many, which is what a deep chain's narrow levels cost).

The contract: every pose :func:`forward_compact` gives agrees with the scalar definition
above composed with :class:`urdf_sdf.core.base.pose.Pose` (``forward`` in
``tests/reference_kinematics.py``) within :data:`FORWARD_TOLERANCE` (relative to the
tree's scale), as ``tests/core/diff/test_compare_linear.py`` checks; not bit for bit.
"""
from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from urdf_sdf.core.base.pose import IDENTITY, Pose, compose, invert, relative_rotation
from urdf_sdf.core.kinematics.tree import WORLD, KinematicJoint, KinematicTree

# Columns of pose arrays processed at once in the vectorised steps (bounds temporaries).
SLICE = 4096

# How far a pose of forward_compact may be from the scalar definition's at the same
# configuration: a quaternion component by this much, a position coordinate by this much
# times the tree's scale there (its largest position coordinate in magnitude, at least 1).
FORWARD_TOLERANCE = 1e-12


# compose_stacked: components reordered (y z x and z x y of a vector; the quaternion terms
# of quat_mul) and the sign quat_mul gives each term.
_YZX, _ZXY = [1, 2, 0], [2, 0, 1]
_TERMS = (([1, 0, 3, 2], (-1.0, 1.0, -1.0, 1.0)),    # ax * (bx, bw, bz, by)
          ([2, 3, 0, 1], (-1.0, 1.0, 1.0, -1.0)),    # ay * (by, bz, bw, bx)
          ([3, 2, 1, 0], (-1.0, -1.0, 1.0, 1.0)))    # az * (bz, by, bx, bw)

# The rows of the left pose (x y z, w, qx qy qz) that multiply the rows 3: of a
# right_operand, in order: w with its quaternion, (qy qz qx) with its position as z x y,
# (qz qx qy) with it as y z x, then qx, qy, qz with the three quaternion terms. Rows 1:10
# (w w w, qy qz qx, qz qx qy) are also those that multiply t, t as z x y and t as y z x.
_LEFT = np.array([3, 3, 3, 3, 5, 6, 4, 6, 4, 5] + [4] * 4 + [5] * 4 + [6] * 4, dtype=np.intp)
_T = np.array([0, 1, 2, 2, 0, 1, 1, 2, 0], dtype=np.intp)   # t, t as z x y, t as y z x


def right_operand(b: np.ndarray) -> np.ndarray:
    """What :func:`compose_stacked` needs of its right operand ``b`` (``(7, K, n)``), as
    one ``(25, K, n)`` array: its position, then what :data:`_LEFT` multiplies: its
    quaternion, its position as z x y and y z x, and its quaternion's three terms, signed.
    Made once for every column of a constant operand (a joint's ``X_PJ``, ``X_JC``) and
    sliced per level (one slice for all its parts)."""
    v, r = b[0:3], b[3:7]
    out = np.empty((25,) + b.shape[1:])
    out[0:3], out[3:7], out[7:10], out[10:13] = v, r, v[_ZXY], v[_YZX]
    for i, (order, signs) in enumerate(_TERMS):
        np.multiply(np.array(signs).reshape(4, 1, 1), r[order], out=out[13 + 4 * i:17 + 4 * i])
    return out


def compose_stacked(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``X_AB * X_BC`` (:func:`urdf_sdf.core.base.pose.compose`) of a ``(7, K, n)`` pose
    array (rows x y z, qw qx qy qz) and a :func:`right_operand` (``(25, K or 1, n)``),
    as a ``(7, K, n)`` array. The products of each stage are made in one numpy operation
    (the left pose's components repeated as :data:`_LEFT` says, times the right operand's
    rows), and each sum of a vector or quaternion in one operation: a dozen operations, for
    the narrow levels of a deep chain where each costs mostly its call. Held to
    :data:`FORWARD_TOLERANCE` of the scalar composition, not to its bits."""
    left = a.take(_LEFT, axis=0)  # the method: np.take's Python wrapper costs as much
    products = left * b[3:25]
    out = np.empty(a.shape)
    rotation = products[0:4] + products[10:14]
    rotation += products[14:18]
    np.add(rotation, products[18:22], out=out[3:7])
    t = products[4:7] - products[7:10]
    t *= 2
    turned = left[1:10] * t.take(_T, axis=0)
    np.add(a[0:3], (b[0:3] + turned[0:3]) + (turned[3:6] - turned[6:9]), out=out[0:3])
    return out


def split(positions: np.ndarray, rotations: np.ndarray) -> tuple[tuple, tuple]:
    """The component views of position ``(..., 3)`` and quaternion ``(..., 4)`` arrays:
    what the formulas of :mod:`urdf_sdf.core.base.pose` take."""
    return components(positions, 3), components(rotations, 4)


def components(array: np.ndarray, count: int) -> tuple:
    """The views of the ``count`` components along the last axis of ``array``."""
    return tuple(array[..., i] for i in range(count))


def batch_compose(pa: np.ndarray, qa: np.ndarray, pb: np.ndarray,
                  qb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``X_AB * X_BC`` (:func:`urdf_sdf.core.base.pose.compose`) over arrays of positions
    and quaternions."""
    position, rotation = compose(*split(pa, qa), *split(pb, qb))
    return np.stack(position, axis=-1), np.stack(rotation, axis=-1)


def batch_inverse(p: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``X_BA`` of ``X_AB`` (:func:`urdf_sdf.core.base.pose.invert`) over arrays."""
    position, rotation = invert(*split(p, q))
    return np.stack(position, axis=-1), np.stack(rotation, axis=-1)


def batch_relative_rotation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a^-1 b`` (:func:`urdf_sdf.core.base.pose.relative_rotation`) over arrays of
    quaternions ``(..., 4)``."""
    return np.stack(relative_rotation(components(a, 4), components(b, 4)), axis=-1)


@dataclass
class ForwardPlan:
    """How forward kinematics computes every link pose, as data: row ``i`` is
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
    """The plan of the forward kinematics of ``tree``: the walk of the module's definition
    (depth first, first visit wins), with rows in place of poses."""
    plan = ForwardPlan()
    depth: dict[int, int] = {}

    def base_row(pose: Pose) -> int:
        row = plan.size
        plan.size += 1
        plan.base[row] = pose
        depth[row] = 0
        return row

    def derived_row(parent: int, joint: KinematicJoint) -> int:
        row = plan.size
        plan.size += 1
        plan.parent[row], plan.joint[row] = parent, joint
        depth[row] = depth[parent] + 1
        return row

    stack = [(root, base_row(tree.link_poses[root])) for root in tree.roots]
    if WORLD in tree.children:
        stack.append((WORLD, base_row(IDENTITY)))
    while stack:
        name, row = stack.pop()
        if name in plan.rows:
            continue
        if name != WORLD:
            plan.rows[name] = row
        for joint in tree.children.get(name, []):
            stack.append((joint.child, derived_row(row, joint)))
    for name in tree.links:  # links on a kinematic loop no root reaches: at rest
        if name not in plan.rows:
            plan.rows[name] = base_row(tree.link_poses[name])
    by_depth: dict[int, list[int]] = {}
    for row in plan.parent:
        by_depth.setdefault(depth[row], []).append(row)
    plan.levels = [by_depth[d] for d in sorted(by_depth)]
    return plan


@dataclass
class CompactPlan:
    """A :class:`ForwardPlan` as arrays, holding nothing of the tree or the model it was
    made from: what :func:`forward_compact` needs. The joint columns (``names``,
    ``motions``, ``axes``, ``X_PJ``, ``X_JC``, ``parents``) are in the order of
    ``plan.parent``: ``derived[i]`` is the row joint column ``i`` computes."""
    size: int
    rows: dict[str, int]
    base_rows: list[int]
    base: np.ndarray          # (B, 7) rest poses of the base rows
    derived: list[int]
    parents: list[int]        # the row each derived row hangs from
    names: list[str]          # the joint of each derived row, for the configurations
    motions: list[int]        # MOTION_NONE, MOTION_SLIDE or MOTION_TURN
    axes: np.ndarray          # (J, 3) first axis of moving joints, zeros otherwise
    X_PJ: np.ndarray          # (J, 7)
    X_JC: np.ndarray          # (J, 7)
    levels: list[list[int]]


MOTION_NONE, MOTION_SLIDE, MOTION_TURN = 0, 1, 2


def motion_of(joint: KinematicJoint) -> int:
    """How a joint moves: a turn about its first axis, a slide along it, or not at all
    (a joint of another type or without an axis)."""
    if not joint.axes or joint.type not in ("revolute", "continuous", "prismatic"):
        return MOTION_NONE
    return MOTION_SLIDE if joint.type == "prismatic" else MOTION_TURN


def pose_rows_array(poses) -> np.ndarray:
    """``(n, 7)`` positions and quaternions of an iterable of poses (an empty ``(0, 7)``
    for none)."""
    flat = array("d")
    for pose in poses:
        flat.extend(pose.position)
        flat.extend(pose.rotation)
    return np.frombuffer(flat, dtype=float).reshape(-1, 7).copy()


def compact_plan(tree: KinematicTree, plan: ForwardPlan | None = None) -> CompactPlan:
    """``plan`` (default: :func:`forward_plan` of ``tree``) as a :class:`CompactPlan`."""
    plan = plan if plan is not None else forward_plan(tree)
    joints = [plan.joint[row] for row in plan.parent]
    axes = array("d")
    for joint in joints:
        axes.extend(joint.axes[0] if motion_of(joint) != MOTION_NONE else (0.0, 0.0, 0.0))
    return CompactPlan(
        size=plan.size, rows=plan.rows, base_rows=list(plan.base),
        base=pose_rows_array(plan.base.values()), derived=list(plan.parent),
        parents=list(plan.parent.values()), names=[j.name for j in joints],
        motions=[motion_of(j) for j in joints],
        axes=np.frombuffer(axes, dtype=float).reshape(-1, 3).copy(),
        X_PJ=pose_rows_array(j.X_PJ for j in joints),
        X_JC=pose_rows_array(j.X_JC for j in joints), levels=plan.levels)


def joint_motions(names: list[str], motions: list[int], axes: np.ndarray,
                  configurations: list[dict[str, float]]) -> np.ndarray:
    """Each joint's motion at ``q.get(joint.name, 0.0)`` for every configuration and joint
    column (``names``, ``motions`` and ``axes`` as in :class:`CompactPlan`), as a ``(7, K, J)``
    component table (:func:`urdf_sdf.core.base.pose.quat_from_axis_angle` for a turning
    joint, the axis times the position for a sliding one). The joint positions,
    sines and cosines are found once per joint name: the two sides of a diff share their
    names, so that halves the Python loops."""
    count = len(configurations)
    distinct = {name: None for name in names}
    values = np.array([[q.get(name, 0.0) for name in distinct] for q in configurations],
                      dtype=float).reshape(count, len(distinct))
    at = dict(zip(distinct, range(len(distinct))))
    column = np.array([at[name] for name in names], dtype=np.intp)
    table = np.zeros((7, count, len(names)))
    table[3] = 1.0
    sliding = [i for i, m in enumerate(motions) if m == MOTION_SLIDE]
    turning = [i for i, m in enumerate(motions) if m == MOTION_TURN]
    if sliding:
        table[0:3, :, sliding] = axes[sliding].T[:, None, :] * values[:, column[sliding]]
    if turning:
        turned = np.unique(column[turning])
        cosines, sines = half_angle_terms(values[:, turned])
        of_column = np.searchsorted(turned, column[turning])
        table[3, :, turning] = cosines[:, of_column].T
        table[4:7, :, turning] = axes[turning].T[:, None, :] * sines[:, of_column]
    return table


def half_angle_terms(angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``math.cos`` and ``math.sin`` of half of each angle, as arrays of its shape."""
    half = (angles / 2).ravel().tolist()
    return (np.fromiter(map(math.cos, half), float, len(half)).reshape(angles.shape),
            np.fromiter(map(math.sin, half), float, len(half)).reshape(angles.shape))


@dataclass
class _Columns:
    """The joint columns of several plans together, in the order they are computed: level
    by level (depth), so that a level is a contiguous run of columns."""
    names: list[str]
    motions: list[int]
    axes: np.ndarray          # (J, 3)
    X_PJ: np.ndarray          # (7, J)
    X_JC: np.ndarray          # (7, J)
    parents: np.ndarray       # the table row each column's parent pose is in
    targets: np.ndarray       # the table row each column computes
    levels: list[int]         # where each level's run of columns ends


def _columns(plans: list[CompactPlan], offsets: list[int]) -> _Columns:
    rows_at: dict[int, list[int]] = {}
    column: dict[int, int] = {}
    parents: list[int] = []
    names: list[str] = []
    motions: list[int] = []
    for plan, offset in zip(plans, offsets):
        for depth, level in enumerate(plan.levels):
            rows_at.setdefault(depth, []).extend(offset + row for row in level)
        for row, parent in zip(plan.derived, plan.parents):
            column[offset + row] = len(parents)
            parents.append(offset + parent)
        names.extend(plan.names)
        motions.extend(plan.motions)
    order: list[int] = []
    levels: list[int] = []
    for depth in sorted(rows_at):
        order.extend(column[row] for row in rows_at[depth])
        levels.append(len(order))
    at = np.array(order, dtype=np.intp)

    def stacked(arrays: list[np.ndarray], width: int) -> np.ndarray:
        return np.concatenate(arrays)[at] if arrays else np.zeros((0, width))
    return _Columns([names[c] for c in order], [motions[c] for c in order],
                    stacked([plan.axes for plan in plans], 3),
                    stacked([plan.X_PJ for plan in plans], 7).T,
                    stacked([plan.X_JC for plan in plans], 7).T,
                    np.array(parents, dtype=np.intp)[at],
                    np.array(sorted(column, key=column.__getitem__), dtype=np.intp)[at], levels)


def _runs(levels: list[int], width: int) -> list[tuple[int, int]]:
    """``(start, end)`` runs of columns: each within one level and one block of
    :data:`SLICE` columns, so that a level's temporaries stay small however wide it is."""
    cuts = sorted(set(levels) | set(range(0, levels[-1] if levels else 0, width)) - {0})
    return list(zip([0] + cuts[:-1], cuts))


def _oriented(array: np.ndarray, across: bool) -> np.ndarray:
    """``array`` (``(rows, K, n)``) with its last two axes swapped when ``across``: a level
    narrower than the configurations is computed as ``(rows, n, K)``, so that numpy's
    inner loops run over the configurations rather than over a handful of columns (a
    constant operand, ``(rows, 1, n)``, then broadcasts along the inner loop)."""
    return array.transpose(0, 2, 1) if across else array


def forward_compact(plans: list[CompactPlan],
                    configurations: list[dict[str, float]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every row of each plan at each configuration: positions ``(K, rows, 3)`` and
    quaternions ``(K, rows, 4)`` per plan (within :data:`FORWARD_TOLERANCE` of the
    scalar definition). Computed a level (depth) at a time on one
    ``(7, K, rows)`` table for all the plans: the cost of a level is mostly numpy's
    per-call overhead, so two deep chains (the two sides of a diff) cost about what one
    does. The joint motions are made a block of :data:`SLICE` columns at a time, and a
    wide level is computed in such blocks: beside the table, memory stays bounded."""
    offsets = list(accumulate([plan.size for plan in plans[:-1]], initial=0)) if plans else []
    size = sum(plan.size for plan in plans)
    table = np.zeros((7, len(configurations), size))
    for plan, offset in zip(plans, offsets):
        if plan.base_rows:
            rows = [offset + row for row in plan.base_rows]
            table[:, :, rows] = plan.base.T[:, None, :]
    columns = _columns(plans, offsets)
    X_PJ, X_JC = right_operand(columns.X_PJ[:, None]), right_operand(columns.X_JC[:, None])
    block = -1
    with np.errstate(all="ignore"):
        for start, end in _runs(columns.levels, SLICE):
            if start // SLICE != block:
                block = start // SLICE
                first, last = block * SLICE, (block + 1) * SLICE
                motion = right_operand(joint_motions(
                    columns.names[first:last], columns.motions[first:last],
                    columns.axes[first:last], configurations))
            across = end - start < len(configurations)
            pose = _oriented(table[:, :, columns.parents[start:end]], across)
            for operand in (X_PJ[:, :, start:end], motion[:, :, start - first:end - first],
                            X_JC[:, :, start:end]):
                pose = compose_stacked(pose, _oriented(operand, across))
            table[:, :, columns.targets[start:end]] = _oriented(pose, across)
    return [(table[:3, :, o:o + plan.size].transpose(1, 2, 0),
             table[3:, :, o:o + plan.size].transpose(1, 2, 0))
            for plan, o in zip(plans, offsets)]


def add_derived_rows(positions: np.ndarray, rotations: np.ndarray, sources: list[int],
                     poses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Append the rows ``row[sources[i]] * poses[i]`` (``poses``: ``(D, 7)``; see
    :class:`core.diff.digest.PoseRows`) to the table, a generation at a time (a derived
    row may derive from an earlier derived row)."""
    count, first = positions.shape[0], positions.shape[1]
    positions = np.concatenate([positions, np.zeros((count, len(sources), 3))], axis=1)
    rotations = np.concatenate([rotations, np.zeros((count, len(sources), 4))], axis=1)
    generation: dict[int, int] = {}
    by_generation: dict[int, list[int]] = {}
    for i, source in enumerate(sources):
        generation[first + i] = generation.get(source, 0) + 1
        by_generation.setdefault(generation[first + i], []).append(i)
    for level in sorted(by_generation):
        indices = by_generation[level]
        targets = [first + i for i in indices]
        rows = [sources[i] for i in indices]
        constant = poses[indices]
        positions[:, targets], rotations[:, targets] = sliced_compose(
            positions[:, rows], rotations[:, rows], constant[:, :3], constant[:, 3:])
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
