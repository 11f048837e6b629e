"""Physical validity of a rigid body's mass and inertia tensor, by libsdformat's rule, and
the smallest repair of a tensor that breaks it.

libsdformat (``gz::math::MassMatrix3::IsValid``, what ``LINK_INERTIA_INVALID``
reports) accepts a non-negative mass and an inertia tensor that is near positive
semi-definite and whose principal moments obey the triangle inequality, each test
within ``epsilon = 10 * machine epsilon * trace / 2`` (``MassMatrix3::Epsilon``, the
default tolerance ``GZ_MASSMATRIX3_DEFAULT_TOLERANCE`` = 10): a tolerance relative to the
tensor's size, so a tiny tensor gets a tiny tolerance.

The principal moments are computed as libsdformat computes them
(:func:`libsdformat_moments`: ``MassMatrix3::PrincipalMoments``, Kronenburg's closed form,
products of inertia below 1e-6 of the largest diagonal moment taken as zero), not with
LAPACK: near a repeated moment the closed form is off by up to ``sqrt(machine epsilon)``
of the tensor's size, far more than the tolerance, and it is that computation which
decides whether Gazebo loads the link. Most tensors are decided without it, with the
same answer: a diagonal tensor (its principal moments are its diagonal) and a tensor that
Gershgorin's discs prove valid with a margin far above any rounding
(:func:`clearly_valid`).

:func:`repaired` is the smallest repair every consumer accepts: the smallest principal
moment raised until the triangle inequality holds by :data:`REPAIR_MARGIN` of the
largest moment (libsdformat by its closed form, Drake, and MuJoCo, whose ``A + B >= C``
has no tolerance and which refuses a moving body's moment below 1e-15). numpy (its
eigenvectors) is imported only when a tensor needs it (a
:class:`~urdf_sdf.core.base.lazy.Later` table of numpy's names), so a plain conversion
does not import it.
"""
from __future__ import annotations

import math
import sys
from dataclasses import replace

from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.base.model import Inertial

# libsdformat's default tolerance factor (GZ_MASSMATRIX3_DEFAULT_TOLERANCE).
TOLERANCE_FACTOR = 10.0
# MassMatrix3::PrincipalMoments: products of inertia within this fraction of the largest
# diagonal moment are taken as zero (the diagonal is returned as the principal moments).
DIAGONAL_TOLERANCE = 1e-6
# What a repair adds beyond the triangle inequality's equality, relative to the largest
# principal moment: far above the closed form's error near a repeated moment (about
# 1.5e-8, sqrt(machine epsilon)) and far below any physical meaning (a millionth).
REPAIR_MARGIN = 1e-6
INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
# The largest tensor value :func:`repaired` takes: its sums and rotations stay finite.
MAX_REPAIRABLE = 1e300
# clearly_valid's margin, relative to the tensor's size: the eigenvalues LAPACK computes
# are within a few machine epsilons (1e-16) of the exact ones, and the 2x2 minor's
# rounding is within sqrt(machine epsilon) (1e-8) of the smallest moment's square root.
CLEAR_MARGIN = 1e-6
# Beyond this size the determinant the numpy rule computes (a product of three moments)
# overflows and its answer is rounding's: such tensors are left to it, so that both ways
# of deciding always agree (no physical tensor comes near).
MAX_CLEAR_SIZE = 1e100

# numpy, imported when a tensor with products of inertia needs it.
_NUMPY = Later({"array": ("numpy", "array"), "linalg": ("numpy", "linalg"),
                "errstate": ("numpy", "errstate"), "maximum": ("numpy", "maximum"),
                "argsort": ("numpy", "argsort"), "diag": ("numpy", "diag")})


def epsilon(moments) -> float:
    """The tolerance of every test for moments (diagonal or principal) of this size."""
    return TOLERANCE_FACTOR * sys.float_info.epsilon * 0.5 * abs(sum(moments))


def mass_problem(inertial: Inertial) -> str | None:
    return f"mass {inertial.mass} is negative" if inertial.mass < 0 else None


def inertia_problem(inertial: Inertial) -> str | None:
    """Why libsdformat refuses the inertia tensor, or None when it accepts it."""
    xx, yy, zz = inertial.ixx, inertial.iyy, inertial.izz
    # Diagonal, its moments finite and non-negative (so is their sum, then; a NaN fails
    # >= 0): written out, since every link of a robot is checked (twice by urdf2sdf).
    if inertial.ixy == 0 and inertial.ixz == 0 and inertial.iyz == 0 and xx >= 0 and \
            yy >= 0 and zz >= 0 and math.isfinite(xx + yy + zz):
        # Near positive semi-definite: the diagonal, the 2x2 minor and the determinant
        # (products of non-negative numbers) are all >= 0. What is left is the triangle
        # inequality, within moments_problem's tolerance.
        moments = sorted((xx, yy, zz))
        a, b, c = moments
        if a + b + epsilon(moments) >= c:
            return None
        return moments_problem(moments)
    if clearly_valid(inertial):
        return None
    return tensor_problem(inertial)


def tensor(inertial: Inertial):
    """The 3x3 inertia matrix (a numpy array)."""
    return _NUMPY.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                         [inertial.ixy, inertial.iyy, inertial.iyz],
                         [inertial.ixz, inertial.iyz, inertial.izz]])


def tensor_problem(inertial: Inertial) -> str | None:
    """Why libsdformat refuses the inertia tensor, or None when it accepts it: the
    definition (:func:`inertia_problem` shortcuts it)."""
    diagonal = (inertial.ixx, inertial.iyy, inertial.izz)
    tolerance = epsilon(diagonal)
    minor = inertial.ixx * inertial.iyy - inertial.ixy * inertial.ixy  # x * x: inf, not an error
    with _NUMPY.errstate(all="ignore"):  # an overflowing determinant is inf: no warning printed
        determinant = float(_NUMPY.linalg.det(tensor(inertial)))
    near_positive = (inertial.ixx + tolerance >= 0 and minor + tolerance >= 0
                     and determinant + tolerance >= 0)
    moments = libsdformat_moments(inertial)
    if not near_positive:
        return f"the tensor is not positive semi-definite (principal moments {moments})"
    return moments_problem(moments)


def is_diagonal(inertial: Inertial) -> bool:
    return inertial.ixy == 0 and inertial.ixz == 0 and inertial.iyz == 0


def clearly_valid(inertial: Inertial) -> bool:
    """Whether Gershgorin's discs put every principal moment above ``CLEAR_MARGIN`` times
    the tensor's size and the largest one below the sum of the other two by as much:
    then the tensor is positive definite and obeys the triangle inequality so clearly
    that libsdformat's computation, whatever its rounding, accepts it."""
    values = (inertial.ixx, inertial.iyy, inertial.izz,
              inertial.ixy, inertial.ixz, inertial.iyz)
    if not all(math.isfinite(v) for v in values):
        return False
    xx, yy, zz, xy, xz, yz = values
    radii = (abs(xy) + abs(xz), abs(xy) + abs(yz), abs(xz) + abs(yz))
    diagonal = (xx, yy, zz)
    size = max(abs(d) + r for d, r in zip(diagonal, radii))
    margin = CLEAR_MARGIN * size
    smallest = min(d - r for d, r in zip(diagonal, radii))
    largest = max(d + r for d, r in zip(diagonal, radii))
    return math.isfinite(size) and size <= MAX_CLEAR_SIZE and smallest >= margin and \
        xx + yy + zz - 2 * largest >= margin


def principal_moments(inertial: Inertial) -> list[float]:
    """Ascending principal moments (the diagonal itself when there are no products)."""
    if is_diagonal(inertial):
        return sorted((inertial.ixx, inertial.iyy, inertial.izz))
    return sorted(_NUMPY.linalg.eigvalsh(tensor(inertial)).tolist())


def libsdformat_moments(inertial: Inertial) -> list[float]:
    """Ascending principal moments as libsdformat computes them
    (``MassMatrix3::PrincipalMoments``): the diagonal when every product of inertia is
    within :data:`DIAGONAL_TOLERANCE` of the largest diagonal moment, else the roots of
    the characteristic cubic in closed form (Kronenburg, arXiv:1306.6291)."""
    xx, yy, zz, xy, xz, yz = (float(v) for v in (inertial.ixx, inertial.iyy, inertial.izz,
                                                 inertial.ixy, inertial.ixz, inertial.iyz))
    tol = DIAGONAL_TOLERANCE * max(xx, yy, zz)
    if abs(xy) <= tol and abs(xz) <= tol and abs(yz) <= tol:
        return sorted((inertial.ixx, inertial.iyy, inertial.izz))  # as written
    b = xx + yy + zz
    c = xx * yy - xy * xy + xx * zz - xz * xz + yy * zz - yz * yz
    d = xx * yz * yz + yy * xz * xz + zz * xy * xy - xx * yy * zz - 2 * xy * xz * yz
    p = b * b - 3 * c
    # Products, not powers: a huge tensor makes inf (refused as not finite), never an
    # OverflowError; 0 for a p so small its power underflows.
    scale = p * math.sqrt(p) if p > 0 else 0.0
    if p < tol * tol or scale == 0:  # three equal moments
        return [b / 3.0] * 3
    q = 2 * b * b * b - 9 * b * c - 27 * d
    delta = math.acos(min(1.0, max(-1.0, 0.5 * q / scale)))
    root = 2 * math.sqrt(p)
    return sorted((b + root * math.cos(angle)) / 3.0
                  for angle in (delta / 3.0, (delta + 2 * math.pi) / 3.0,
                                (delta - 2 * math.pi) / 3.0))


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
    """The smallest repair of an inertia libsdformat refuses that every consumer accepts,
    or None when it needs none: the mass and the principal axes are kept; negative
    principal moments become 0; the two smaller moments are raised to at least
    :data:`REPAIR_MARGIN` of the largest (no moment is zero: MuJoCo refuses that on a
    moving body), then the smallest until the two smaller ones exceed the largest by that
    margin of it. The products of inertia change only as the rotation back from the
    principal axes makes them. Should libsdformat's computation (:func:`inertia_problem`)
    still refuse the result, the margin grows tenfold, a few times at most. A tensor near
    the largest float has no repair (it would not be finite): None too, which
    :func:`has_no_repair` tells apart."""
    if inertia_problem(inertial) is None or has_no_repair(inertial):
        return None
    moments, axes = _NUMPY.linalg.eigh(tensor(inertial))
    moments = _NUMPY.maximum(moments, 0.0)
    low, middle, high = (int(i) for i in _NUMPY.argsort(moments))
    margin = REPAIR_MARGIN
    result = inertial
    for _ in range(4):
        largest = float(moments[high])
        raised = moments.copy()
        floor = margin * largest
        raised[middle] = max(raised[middle], floor)
        raised[low] = max(raised[low], floor, largest + floor - raised[middle])
        result = _with_moments(inertial, axes, raised)
        if inertia_problem(result) is None:
            break
        margin *= 10
    return result


def has_no_repair(inertial: Inertial) -> bool:
    """Whether :func:`repaired` cannot repair ``inertial``: a value so large (or not
    finite) that the repaired tensor would overflow; libsdformat refuses it as written."""
    values = [abs(float(getattr(inertial, key))) for key in INERTIA_KEYS]
    return not all(math.isfinite(v) for v in values) or max(values) > MAX_REPAIRABLE


def _with_moments(inertial: Inertial, axes, moments) -> Inertial:
    """``inertial`` with principal ``moments`` about the principal ``axes`` (columns)."""
    fixed = axes @ _NUMPY.diag(moments) @ axes.T
    return replace(inertial, texts={k: v for k, v in inertial.texts.items()
                                    if k not in INERTIA_KEYS},
                   ixx=float(fixed[0, 0]), ixy=float(fixed[0, 1]), ixz=float(fixed[0, 2]),
                   iyy=float(fixed[1, 1]), iyz=float(fixed[1, 2]), izz=float(fixed[2, 2]))


def repair_text(inertial: Inertial, fixed: Inertial) -> str:
    """What :func:`repaired` did, with the size of the change: ``inertia repaired:
    principal moments A B C -> A' B' C' kg m^2 (a moment raised by D kg m^2, F% of the
    largest); mass and principal axes kept``."""
    before, after = principal_moments(inertial), principal_moments(fixed)
    # The moments are raised about the same axes: the largest raise is the largest
    # eigenvalue of the difference.
    change = float(max(abs(_NUMPY.linalg.eigvalsh(tensor(fixed) - tensor(inertial)))))
    share = change / after[2] * 100 if after[2] > 0 else 0.0
    return (f"inertia repaired: principal moments {_moments_text(before)} -> "
            f"{_moments_text(after)} kg m^2 (a moment raised by {change:.3g} kg m^2, "
            f"{share:.3g}% of the largest); mass and principal axes kept")


def _moments_text(moments) -> str:
    return " ".join(f"{m:.6g}" for m in moments)
