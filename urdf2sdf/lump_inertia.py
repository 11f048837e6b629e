"""The inertia arithmetic of ``--lump-fixed`` (float64 numpy): the bodies of a lumped
group summed into one inertial (bodies far apart can overflow it: the values are then not
finite, and ``urdf2sdf.convert`` reports NUMBER_NOT_FINITE). Apart from
:mod:`urdf_sdf.urdf2sdf.lump` so that numpy
is imported only when fixed joints are lumped (``lump`` reaches it through a
:class:`~urdf_sdf.core.base.lazy.Later` table).
"""
from __future__ import annotations

import numpy as np

from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.base.pose import Pose

INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


def lumped_inertia(bodies: list[tuple[Inertial, Pose]], default_com: Pose, orientation
                   ) -> tuple[float, tuple[float, float, float], dict[str, float]]:
    """``(total mass, centre of mass, tensor values by INERTIA_KEYS)`` of ``bodies``, the
    tensor about the centre of mass written in a frame of ``orientation`` (a unit
    quaternion ``(w, x, y, z)`` in the survivor's frame)."""
    mass, com, tensor = combine_inertia(bodies, default_com)
    rotation = rotation_matrix(orientation)
    with np.errstate(over="ignore", invalid="ignore"):
        tensor = rotation.T @ tensor @ rotation
    values = dict(zip(INERTIA_KEYS, (float(tensor[i, j]) for i, j in
                                     ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)))))
    x, y, z = (float(v) for v in com)
    return mass, (x, y, z), values


def combine_inertia(bodies: list[tuple[Inertial, Pose]], default_com: Pose
                    ) -> tuple[float, np.ndarray, np.ndarray]:
    """Total mass, centre of mass and inertia tensor about it, in the survivor's frame.

    Each body is ``(inertial, X_SL)``: its inertial frame in the survivor S is
    ``X_SL * X_LI``. The tensor is rotated into S (``R I R^T``) and moved to the
    common centre with the parallel axis theorem ``m (|d|^2 E - d d^T)``. With zero
    total mass the centre is undefined and ``default_com`` stands in.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # a NaN is reported by the caller
        return _combine(bodies, default_com)


def _combine(bodies: list[tuple[Inertial, Pose]], default_com: Pose
             ) -> tuple[float, np.ndarray, np.ndarray]:
    masses, centres, tensors = [], [], []
    for inertial, link_pose in bodies:
        frame = link_pose * inertial.pose.value
        rotation = rotation_matrix(frame.rotation)
        masses.append(float(inertial.mass))
        centres.append(np.array(frame.position, dtype=np.float64))
        tensors.append(rotation @ inertia_matrix(inertial) @ rotation.T)
    total: float = sum(masses)
    if total != 0:
        com = sum((m * c for m, c in zip(masses, centres)), np.zeros(3)) / total
    else:
        com = np.array(default_com.position, dtype=np.float64)
    tensor = np.zeros((3, 3))
    for m, c, inertia in zip(masses, centres, tensors):
        d = c - com
        tensor += inertia + m * (np.dot(d, d) * np.eye(3) - np.outer(d, d))
    return total, com, (tensor + tensor.T) / 2


def inertia_matrix(inertial: Inertial) -> np.ndarray:
    return np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                     [inertial.ixy, inertial.iyy, inertial.iyz],
                     [inertial.ixz, inertial.iyz, inertial.izz]], dtype=np.float64)


def rotation_matrix(q) -> np.ndarray:
    """Rotation matrix of unit quaternion ``(w, x, y, z)``."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]],
                    dtype=np.float64)
