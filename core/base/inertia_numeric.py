"""The numpy half of :mod:`urdf_sdf.core.base.inertia`: libsdformat's test of an inertia tensor
(determinant and principal moments by LAPACK, as ``ignition::math::MassMatrix3`` computes
them) and the repair of a refused tensor. :mod:`urdf_sdf.core.base.inertia` decides the
common tensors without it and comes here, through a :class:`~urdf_sdf.core.base.lazy.Later`
table, for the others, so that numpy is imported only when one needs it.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from urdf_sdf.core.base.inertia import INERTIA_KEYS, epsilon, inertia_problem, moments_problem
from urdf_sdf.core.base.model import Inertial


def tensor(inertial: Inertial) -> np.ndarray:
    return np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                     [inertial.ixy, inertial.iyy, inertial.iyz],
                     [inertial.ixz, inertial.iyz, inertial.izz]])


def tensor_problem(inertial: Inertial) -> str | None:
    """Why libsdformat refuses the inertia tensor, or None when it accepts it: the
    definition (:func:`urdf_sdf.core.base.inertia.inertia_problem` shortcuts it)."""
    diagonal = (inertial.ixx, inertial.iyy, inertial.izz)
    tolerance = epsilon(diagonal)
    minor = inertial.ixx * inertial.iyy - inertial.ixy * inertial.ixy  # x * x: inf, not an error
    with np.errstate(all="ignore"):  # an overflowing determinant is inf: no warning printed
        determinant = float(np.linalg.det(tensor(inertial)))
    near_positive = (inertial.ixx + tolerance >= 0 and minor + tolerance >= 0
                     and determinant + tolerance >= 0)
    moments = principal_moments(inertial)
    if not near_positive:
        return f"the tensor is not positive semi-definite (principal moments {moments})"
    return moments_problem(moments)


def principal_moments(inertial: Inertial) -> list[float]:
    """Ascending principal moments (the diagonal itself when there are no products)."""
    if inertial.ixy == 0 and inertial.ixz == 0 and inertial.iyz == 0:
        return sorted((inertial.ixx, inertial.iyy, inertial.izz))
    return sorted(np.linalg.eigvalsh(tensor(inertial)).tolist())


def repaired(inertial: Inertial) -> Inertial:
    """The repair of a tensor libsdformat refuses (see :func:`urdf_sdf.core.base.inertia.repaired`)."""
    moments, axes = np.linalg.eigh(tensor(inertial))
    moments = np.maximum(moments, 0.0)
    order = np.argsort(moments)
    a, b, c = moments[order]
    moments[order[0]] = max(a, c - b)
    fixed = axes @ np.diag(moments) @ axes.T
    values = {"ixx": fixed[0, 0], "ixy": fixed[0, 1], "ixz": fixed[0, 2],
              "iyy": fixed[1, 1], "iyz": fixed[1, 2], "izz": fixed[2, 2]}
    result = replace(inertial, texts={k: v for k, v in inertial.texts.items()
                                      if k not in INERTIA_KEYS},
                     **{k: float(v) for k, v in values.items()})
    if inertia_problem(result) is not None:  # rounding on the way back: raise a little more
        moments[order[0]] += epsilon(moments) * 4
        fixed = axes @ np.diag(moments) @ axes.T
        result = replace(result, ixx=float(fixed[0, 0]), iyy=float(fixed[1, 1]),
                         izz=float(fixed[2, 2]))
    return result
