"""Physical validity of a rigid body's mass and inertia tensor."""
from __future__ import annotations

import numpy as np

from core.model import Inertial

TOLERANCE = 1e-6


def inertia_problem(inertial: Inertial) -> str | None:
    """Why the mass properties are not physical, or None when they are.

    Mirrors the rule libsdformat applies: mass non-negative, principal moments
    non-negative, and the triangle inequality between them.
    """
    if inertial.mass < 0:
        return f"mass {inertial.mass} is negative"
    tensor = np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                       [inertial.ixy, inertial.iyy, inertial.iyz],
                       [inertial.ixz, inertial.iyz, inertial.izz]])
    moments = np.linalg.eigvalsh(tensor)
    scale = max(1.0, float(np.max(np.abs(moments))))
    if moments[0] < -TOLERANCE * scale:
        return f"principal moments {moments.tolist()} include a negative value"
    a, b, c = sorted(moments.tolist())
    if a + b < c - TOLERANCE * scale:
        return f"principal moments {[a, b, c]} violate the triangle inequality"
    return None
