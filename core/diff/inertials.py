"""``urdf-sdf diff``'s comparison of inertials (``core.diff.compare``): each link's mass, centre of
mass and inertia tensor, the last two in the reference frame.

The links' inertials are carried into the reference frame together, as arrays
(:func:`inertials_in_root`): a link's inertial frame is its body frame times the
inertial's pose in the link (:func:`core.kinematics.batch.batch_compose`: ``Pose.__mul__``'s
formula over arrays), and its tensor ``R @ I @ R.T``, a stack of the same 3x3 products numpy
makes one at a time. :func:`inertial_in_root` is that for one link, as a pose.
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import NamedTuple

import numpy as np

from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.diff.difference import Difference, fmt
from urdf_sdf.core.kinematics.batch import batch_compose

# The entries of a symmetric tensor's 3x3 matrix among (ixx, ixy, ixz, iyy, iyz, izz).
_MATRIX = [0, 1, 2, 1, 3, 4, 2, 4, 5]


class Inertials(NamedTuple):
    """The inertials of some links of one digest in the reference frame, a row per link:
    masses as read, centres of mass ``(n, 3)`` and tensors ``(n, 3, 3)``."""
    masses: list[float]
    centres: np.ndarray
    tensors: np.ndarray


def compare_inertials(da, db, bodies, tol: float, out: list[Difference],
                      skip: AbstractSet[str] = frozenset()) -> None:
    """The inertials of the links of both digests (``bodies``: each side's link frames at
    the zero configuration in the reference, :class:`core.diff.digest.BodyFrames`), in
    the order of their names. A link with no element behind it on either side (made by an
    approximation) is not compared, nor a link of ``skip`` (a rigid group's:
    :mod:`core.diff.lumped`)."""
    names = [name for name in sorted(set(da.links) & set(db.links) - skip)
             if all([has_inertial(da, name, bodies[0]), has_inertial(db, name, bodies[1])])]
    ia, ib = inertials_in_root(da, names, bodies[0]), inertials_in_root(db, names, bodies[1])
    # Written as ``not <=`` throughout: a NaN (a value that is no number) differs.
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, quietly
        centre_differs = (~(np.abs(ia.centres - ib.centres).max(axis=1) <= tol)).tolist()
        tensor_differs = (~(np.abs(ia.tensors - ib.tensors).max(axis=(1, 2)) <= tol)).tolist()
    for i, name in enumerate(names):
        if not abs(ia.masses[i] - ib.masses[i]) <= tol:
            out.append(Difference("inertial", name, f"mass {ia.masses[i]!r} kg in A, "
                                  f"{ib.masses[i]!r} kg in B", "mass"))
        if centre_differs[i]:
            distance = float(np.linalg.norm(ia.centres[i] - ib.centres[i]))
            out.append(Difference("inertial", name, f"centre of mass {fmt(ia.centres[i])} m "
                                  f"in A, {fmt(ib.centres[i])} m in B (moved {distance:.3g} m; "
                                  "in the reference frame)", "centre of mass"))
        if tensor_differs[i]:
            largest = float(np.abs(ia.tensors[i] - ib.tensors[i]).max())
            out.append(Difference("inertial", name, f"inertia tensor differs by up to "
                                  f"{largest:.3g} kg m^2 (in the reference frame)", "inertia"))


def has_inertial(digest, name: str, poses) -> bool:
    """Whether a link has an element behind it, so an inertial (its own or its format's
    default); a link whose inertial frame does not resolve (which a loaded model does not
    have) fails as it always has, in :func:`inertial_in_root`."""
    contents = digest.contents
    row = contents.index.get(name)
    if row is None or not contents.has_element[row]:
        return False
    if row in contents.no_frame:
        inertial_in_root(digest, name, poses)
    return True


def inertials_in_root(digest, names: list[str], poses) -> Inertials:
    """The inertials of links ``names`` (each with an element behind it and an inertial
    frame), ``poses`` being the link frames in the reference frame."""
    contents = digest.contents
    rows = [contents.index[name] for name in names]
    bodies = [poses.rows[name] for name in names]
    local = contents.inertial_frames[rows]
    positions, rotations = batch_compose(poses.positions[bodies], poses.rotations[bodies],
                                         local[:, :3], local[:, 3:])
    rotation = rotation_matrices(rotations)
    tensor = contents.tensors[rows][:, _MATRIX].reshape(-1, 3, 3)
    return Inertials([contents.masses[row] for row in rows], positions,
                     rotation @ tensor @ rotation.transpose(0, 2, 1))


def inertial_in_root(digest, name: str, poses) -> tuple | None:
    """Mass, centre of mass and inertia tensor of a link in the reference frame (``poses``:
    the link frames in it); None for a link with no element behind it."""
    inertial = digest.contents.inertial(name)
    if inertial is None:
        return None
    mass, local, tensor = inertial
    frame = poses[name] * local
    rotation = rotation_matrix(frame)
    return mass, np.array(frame.position), rotation @ tensor @ rotation.T


def rotation_matrix(pose: Pose) -> np.ndarray:
    w, x, y, z = pose.rotation
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def rotation_matrices(rotations: np.ndarray) -> np.ndarray:
    """:func:`rotation_matrix` of each quaternion of ``rotations`` (``(n, 4)``), the same
    operations on each: ``(n, 3, 3)``."""
    w, x, y, z = (rotations[:, i] for i in range(4))
    return np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                     2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                     2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
                    axis=-1).reshape(-1, 3, 3)
