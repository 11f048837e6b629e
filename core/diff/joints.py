"""``urdf-sdf diff``'s comparison of joints (``core.diff.compare``): each side's joints by
name, their types and connections, first axes in the reference frame at the zero
configuration, limits, dynamics (none written is zero) and mimic relations, each amount
with its unit (of an angle for a revolute joint, of a length for a prismatic one)."""
from __future__ import annotations

import math

from urdf_sdf.core.base.pose import Pose, rotate
from urdf_sdf.core.diff.difference import Difference, angle_between, fmt
from urdf_sdf.core.diff.digest import NO_DYNAMICS, Digest, Dynamics
from urdf_sdf.core.diff.lumped import NO_LUMPS, Lumps
from urdf_sdf.core.kinematics.tree import joint_kind, unbounded


def compare_joints(da: Digest, db: Digest, frames, tol: float, out: list[Difference],
                   lumps: Lumps = NO_LUMPS) -> None:
    """``frames``: each side's :func:`core.diff.compare.reference_frames`. A joint of one
    side only is not a difference when it welds a root to the world and the other side is
    static, when it holds a free body (the other side's free root bodies), when it is a
    fixed joint holding a link that stands for a frame of the other side, or when it was
    lumped (``lumps``: :mod:`core.diff.lumped` looks for its frame). A joint's parent is
    compared as the link it was lumped into, if it was."""
    frame_links = (da.frame_made_links & db.frames) | (db.frame_made_links & da.frames)
    lumped = lumps.lumped_joints
    for label, mine, theirs in (("A", da, db), ("B", db, da)):
        for name, joint in sorted(mine.joints.items()):
            if name in theirs.joints or (joint.weld and theirs.static) or joint.free_body or \
                    (joint.type == "fixed" and joint.child in frame_links) or name in lumped:
                continue
            out.append(Difference("joints", name, f"only in {label}", "presence"))
    side_a, side_b = lumps.sides
    for name in sorted(set(da.joints) & set(db.joints)):
        ja, jb = da.joints[name], db.joints[name]
        if joint_kind(ja) != joint_kind(jb):
            out.append(Difference("joints", name, f"type {ja.type} in A, {jb.type} in B", "type"))
        if (side_a.kept_link(ja.parent), ja.child) != (side_b.kept_link(jb.parent), jb.child):
            out.append(Difference("joints", name, f"connects {ja.parent} -> {ja.child} in A, "
                                  f"{jb.parent} -> {jb.child} in B", "connection"))
        compare_axes(ja, jb, frames, tol, out)
        compare_limits(ja, jb, tol, out)


def axis_in_reference(poses, base: Pose, joint) -> tuple | None:
    """The joint's first axis in the reference frame at the zero configuration (``poses``:
    the link frames there, :class:`core.diff.digest.BodyFrames`)."""
    if not joint.axes:
        return None
    parent_pose = poses.get(joint.parent, base) if joint.parent != "world" else base
    joint_pose = parent_pose * joint.X_PJ
    return rotate(joint_pose.rotation, joint.axes[0])


def compare_axes(ja, jb, frames, tol, out) -> None:
    """``frames``: each side's :func:`core.diff.compare.reference_frames`, computed once for
    all joints."""
    if ja.type == "fixed":
        return
    (poses_a, base_a), (poses_b, base_b) = frames
    axis_a = axis_in_reference(poses_a, base_a, ja)
    axis_b = axis_in_reference(poses_b, base_b, jb)
    if (axis_a is None) != (axis_b is None):
        out.append(Difference("joints", ja.name, "has an axis on one side only", "axis"))
    elif axis_a is not None and axis_b is not None and \
            not math.dist(axis_a, axis_b) <= tol:  # NaN differs
        out.append(Difference("joints", ja.name, f"axis {fmt(axis_a)} in A, {fmt(axis_b)} in B "
                              "(unit vectors in the reference frame, "
                              f"{angle_between(axis_a, axis_b)} apart)", "axis"))


def limit_values(joint) -> dict[str, float | None]:
    limit = getattr(joint.element, "limit", None)
    if limit is None or joint.type not in ("revolute", "prismatic", "continuous"):
        return {}
    values = {"effort": limit.effort, "velocity": limit.velocity}
    if joint_kind(joint) != "continuous":
        values.update(lower=limit.lower, upper=limit.upper)
    return {key: unbounded(value, key) for key, value in values.items()}


def compare_limits(ja, jb, tol, out) -> None:
    la, lb = limit_values(ja), limit_values(jb)
    for key in sorted(set(la) | set(lb)):
        va, vb = la.get(key), lb.get(key)
        if va is None or vb is None or va == vb:
            continue
        if not abs(va - vb) <= tol:
            unit = limit_unit(ja, key)
            out.append(Difference("joints", ja.name, f"limit {key} {va!r}{unit} in A, "
                                  f"{vb!r}{unit} in B", f"limit {key}"))
    compare_dynamics(ja, jb, tol, out)
    mimic_a, mimic_b = mimic_of(ja), mimic_of(jb)
    if (mimic_a is None) != (mimic_b is None):
        out.append(Difference("joints", ja.name, "mimics another joint on one side only",
                              "mimic"))
    elif mimic_a is not None and mimic_key(mimic_a, tol) != mimic_key(mimic_b, tol):
        out.append(Difference("joints", ja.name, "mimic relation differs: "
                              f"{mimic_text(mimic_a)} in A, {mimic_text(mimic_b)} in B", "mimic"))


def compare_dynamics(ja, jb, tol, out) -> None:
    """Damping and friction of a moving joint (none written is 0, as a written 0)."""
    if ja.type == "fixed" or jb.type == "fixed":
        return
    da, db = dynamics_of(ja), dynamics_of(jb)
    for key in ("damping", "friction"):
        va, vb = getattr(da, key), getattr(db, key)
        if not abs(va - vb) <= tol:
            unit = limit_unit(ja, key)
            out.append(Difference("joints", ja.name, f"dynamics {key} {va!r}{unit} in A, "
                                  f"{vb!r}{unit} in B", f"dynamics {key}"))


def dynamics_of(joint) -> Dynamics:
    dynamics = getattr(joint.element, "dynamics", None)
    if dynamics is None:
        return NO_DYNAMICS
    return Dynamics(dynamics.damping or 0.0, dynamics.friction or 0.0)


def limit_unit(joint, key: str) -> str:
    """The unit of a limit of a joint: of an angle for a revolute joint, of a length for a
    prismatic one (damping and friction as the dynamics of each)."""
    linear = joint_kind(joint) == "prismatic"
    return {"lower": " m" if linear else " rad", "upper": " m" if linear else " rad",
            "velocity": " m/s" if linear else " rad/s",
            "effort": " N" if linear else " N m",
            "damping": " N s/m" if linear else " N m s/rad",
            "friction": " N" if linear else " N m"}.get(key, "")


def mimic_text(mimic) -> str:
    return f"{mimic.joint} x {mimic.multiplier!r} + {mimic.offset!r}"


def mimic_of(joint):
    """The joint's mimic relation; none for a fixed joint, which does not move (a mimic
    there means nothing to any consumer, and a round trip drops it)."""
    return None if joint.type == "fixed" else getattr(joint.element, "mimic", None)


def mimic_key(mimic, tol: float) -> tuple:
    """A mimic relation with its multiplier and offset rounded to multiples of ``tol``."""
    return mimic.joint, quantized(mimic.multiplier, tol), quantized(mimic.offset, tol)


def quantized(value: float, tol: float):
    """``round(value / tol)``; where that is no finite number (a huge value such as 1e308,
    an infinity, NaN, or a zero ``tol``) the value's own text, equal only to itself."""
    scaled = value / tol if tol else math.inf
    return round(scaled) if math.isfinite(scaled) else repr(value)
