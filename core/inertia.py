"""Physical validity of a rigid body's mass and inertia tensor, by libsdformat's rule, and
the smallest repair of a tensor that breaks it.

libsdformat (``ignition::math::MassMatrix3::IsValid``, what ``LINK_INERTIA_INVALID``
reports) accepts a non-negative mass and an inertia tensor that is near positive
semi-definite and whose principal moments obey the triangle inequality, each test
within ``epsilon = 10 * machine epsilon * trace / 2``: a tolerance relative to the
tensor's size, so a tiny tensor gets a tiny tolerance.
"""
from __future__ import annotations

import math
import sys
from dataclasses import replace

import numpy as np

from urdf_sdf.core.model import Inertial

# libsdformat's default tolerance factor (IGN_MASSMATRIX3_DEFAULT_TOLERANCE).
TOLERANCE_FACTOR = 10.0
INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


def epsilon(moments) -> float:
    """The tolerance of every test for moments (diagonal or principal) of this size."""
    return TOLERANCE_FACTOR * sys.float_info.epsilon * 0.5 * abs(sum(moments))


def tensor(inertial: Inertial) -> np.ndarray:
    return np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                     [inertial.ixy, inertial.iyy, inertial.iyz],
                     [inertial.ixz, inertial.iyz, inertial.izz]])


def mass_problem(inertial: Inertial) -> str | None:
    return f"mass {inertial.mass} is negative" if inertial.mass < 0 else None


def inertia_problem(inertial: Inertial) -> str | None:
    """Why libsdformat refuses the inertia tensor, or None when it accepts it."""
    diagonal = (inertial.ixx, inertial.iyy, inertial.izz)
    tolerance = epsilon(diagonal)
    minor = inertial.ixx * inertial.iyy - inertial.ixy * inertial.ixy  # x * x: inf, not an error
    near_positive = (inertial.ixx + tolerance >= 0 and minor + tolerance >= 0
                     and determinant(inertial) + tolerance >= 0)
    moments = principal_moments(inertial)
    if not near_positive:
        return f"the tensor is not positive semi-definite (principal moments {moments})"
    return moments_problem(moments)


def determinant(inertial: Inertial) -> float:
    """``numpy.linalg.det`` of the tensor, to the bit. numpy takes the sign and the sum of
    the logarithms of the diagonal of the tensor's LU factor, then the exponential; for a
    diagonal tensor (the common case) that factor is the tensor itself, and the same
    arithmetic is done here without the cost of an array."""
    if inertial.ixy != 0 or inertial.ixz != 0 or inertial.iyz != 0:
        return float(np.linalg.det(tensor(inertial)))
    sign, logarithm = 1.0, 0.0
    for moment in (inertial.ixx, inertial.iyy, inertial.izz):
        if moment == 0:
            return 0.0  # a zero pivot: numpy's sign 0 and logarithm -inf
        if moment < 0:
            sign, moment = -sign, -moment
        logarithm += math.log(moment)
    try:
        return sign * math.exp(logarithm)
    except OverflowError:
        return sign * math.inf


def principal_moments(inertial: Inertial) -> list[float]:
    """Ascending principal moments (the diagonal itself when there are no products)."""
    if inertial.ixy == 0 and inertial.ixz == 0 and inertial.iyz == 0:
        return sorted((inertial.ixx, inertial.iyy, inertial.izz))
    return sorted(np.linalg.eigvalsh(tensor(inertial)).tolist())


def moments_problem(moments: list[float]) -> str | None:
    """Ascending principal moments must be non-negative and obey the triangle inequality."""
    a, b, c = moments
    tolerance = epsilon(moments)
    if a + tolerance < 0:
        return f"principal moments {moments} include a negative value"
    if a + b + tolerance < c:
        return f"principal moments {moments} violate the triangle inequality"
    return None


def repaired(inertial: Inertial) -> Inertial | None:
    """The smallest documented repair of an inertia libsdformat refuses, or None when it
    needs none: the mass and the principal axes are kept; negative principal moments
    become 0, then the smallest moment is raised until the two smaller ones add up to the
    largest (the triangle inequality holds with equality). The products of inertia
    change only as the rotation back from the principal axes makes them."""
    if inertia_problem(inertial) is None:
        return None
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
