"""Physical validity of a rigid body's mass and inertia tensor."""
from __future__ import annotations

import numpy as np

from urdf_sdf.core.model import Inertial

TOLERANCE = 1e-6


def inertia_problem(inertial: Inertial) -> str | None:
    """Why the mass properties are not physical, or None when they are.

    Mirrors the rule libsdformat applies: mass non-negative, principal moments
    non-negative, and the triangle inequality between them.
    """
    if inertial.mass < 0:
        return f"mass {inertial.mass} is negative"
    if inertial.ixy == 0 and inertial.ixz == 0 and inertial.iyz == 0:
        return moments_problem(sorted((inertial.ixx, inertial.iyy, inertial.izz)))
    tensor = np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                       [inertial.ixy, inertial.iyy, inertial.iyz],
                       [inertial.ixz, inertial.iyz, inertial.izz]])
    return moments_problem(sorted(np.linalg.eigvalsh(tensor).tolist()))


def moments_problem(moments: list[float]) -> str | None:
    """Principal moments (ascending) must be non-negative and obey the triangle
    inequality, within a tolerance relative to their size."""
    a, b, c = moments
    scale = max(1.0, abs(a), abs(c))
    if a < -TOLERANCE * scale:
        return f"principal moments {moments} include a negative value"
    if a + b < c - TOLERANCE * scale:
        return f"principal moments {moments} violate the triangle inequality"
    return None
