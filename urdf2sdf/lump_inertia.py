"""The inertia arithmetic of ``--lump-fixed`` (float64 numpy): the bodies of a lumped
group summed into one inertial (bodies far apart can overflow it: the values are then not
finite, and ``urdf2sdf.convert`` reports NUMBER_NOT_FINITE). numpy is imported when
inertias are first lumped (a :class:`~urdf_sdf.core.base.lazy.Later` table): a
conversion without ``--lump-fixed`` never loads it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from urdf_sdf.core.base.inertia import INERTIA_KEYS
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.base.pose import Pose

if TYPE_CHECKING:
    from numpy import ndarray

_NUMPY = Later({"array": ("numpy", "array"), "dot": ("numpy", "dot"),
                "errstate": ("numpy", "errstate"), "eye": ("numpy", "eye"),
                "float64": ("numpy", "float64"), "outer": ("numpy", "outer"),
                "zeros": ("numpy", "zeros")})



def lumped_inertia(bodies: list[tuple[Inertial, Pose]], default_com: Pose, orientation
                   ) -> tuple[float, tuple[float, float, float], dict[str, float]]:
    """``(total mass, centre of mass, tensor values by INERTIA_KEYS)`` of ``bodies``, the
    tensor about the centre of mass written in a frame of ``orientation`` (a unit
    quaternion ``(w, x, y, z)`` in the survivor's frame)."""
    mass, com, tensor = combine_inertia(bodies, default_com)
    rotation = rotation_matrix(orientation)
    with _NUMPY.errstate(over="ignore", invalid="ignore"):
        tensor = rotation.T @ tensor @ rotation
    values = dict(zip(INERTIA_KEYS, (float(tensor[i, j]) for i, j in
                                     ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)))))
    x, y, z = (float(v) for v in com)
    return mass, (x, y, z), values


def combine_inertia(bodies: list[tuple[Inertial, Pose]], default_com: Pose
                    ) -> tuple[float, ndarray, ndarray]:
    """Total mass, centre of mass and inertia tensor about it, in the survivor's frame.

    Each body is ``(inertial, X_SL)``: its inertial frame in the survivor S is
    ``X_SL * X_LI``. The tensor is rotated into S (``R I R^T``) and moved to the
    common centre with the parallel axis theorem ``m (|d|^2 E - d d^T)``. With zero
    total mass the centre is undefined and ``default_com`` stands in.
    """
    with _NUMPY.errstate(over="ignore", invalid="ignore"):  # a NaN is reported by the caller
        return _combine(bodies, default_com)


def _combine(bodies: list[tuple[Inertial, Pose]], default_com: Pose
             ) -> tuple[float, ndarray, ndarray]:
    masses, centres, tensors = [], [], []
    for inertial, link_pose in bodies:
        frame = link_pose * inertial.pose.value
        rotation = rotation_matrix(frame.rotation)
        masses.append(float(inertial.mass))
        centres.append(_NUMPY.array(frame.position, dtype=_NUMPY.float64))
        tensors.append(rotation @ inertia_matrix(inertial) @ rotation.T)
    total: float = sum(masses)
    if total != 0:
        com = sum((m * c for m, c in zip(masses, centres)), _NUMPY.zeros(3)) / total
    else:
        com = _NUMPY.array(default_com.position, dtype=_NUMPY.float64)
    tensor = _NUMPY.zeros((3, 3))
    for m, c, inertia in zip(masses, centres, tensors):
        d = c - com
        tensor += inertia + m * (_NUMPY.dot(d, d) * _NUMPY.eye(3) - _NUMPY.outer(d, d))
    return total, com, (tensor + tensor.T) / 2


def inertia_matrix(inertial: Inertial) -> ndarray:
    return _NUMPY.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                     [inertial.ixy, inertial.iyy, inertial.iyz],
                     [inertial.ixz, inertial.iyz, inertial.izz]], dtype=_NUMPY.float64)


def rotation_matrix(q) -> ndarray:
    """Rotation matrix of unit quaternion ``(w, x, y, z)``."""
    w, x, y, z = q
    return _NUMPY.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]],
                    dtype=_NUMPY.float64)
