"""One difference ``urdf-sdf diff`` reports (``core.diff.compare``; its JSON is the schema's
``differences`` item), and how its amounts are written: every number with its unit (m, rad
with degrees beside, kg, kg m^2), rotations as roll, pitch, yaw in degrees beside the
quaternion, which is labelled ``(w x y z)``.

A difference is a *cause* (an edit of an element's own values, in the file's own terms:
``joint elbow: origin rpy 0 0 0 -> 0 0 0.6 rad (turned 34.4 deg)``) or *dependent* (it
follows from causes upstream in the tree: ``causes`` holds their places in the list
:mod:`core.diff.causes` returns)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from urdf_sdf.core.base.pose import Pose, relative_rotation, rpy_from_quat
from urdf_sdf.core.base.safe_text import escape

CAUSE = "cause"
DEPENDENT = "dependent"
# The property of a difference saying a file could not be compared at all (it does not load,
# or holds no model): ``urdf-sdf diff`` exits 3 then, not 1.
NOT_COMPARED = "not compared"


@dataclass(frozen=True)
class Difference:
    # links, joints, pose, inertial, geometry, model (what compares the two descriptions);
    # joint, link, frame (an element's own values: a cause)
    kind: str
    name: str
    message: str
    property: str = ""  # what differs: origin, axis, mass, limit effort, visuals...
    role: str = CAUSE
    causes: tuple[int, ...] = ()  # a dependent's causes: their places in the list

    def to_json(self) -> dict:
        data: dict = {"kind": self.kind, "name": self.name, "message": self.message,
                      "role": self.role}
        if self.property:
            data["property"] = self.property
        if self.role == DEPENDENT:
            data["causes"] = list(self.causes)
        return data

    def format(self) -> str:
        """``kind name: message``, one line: control characters escaped
        (:func:`urdf_sdf.core.base.safe_text.escape`)."""
        return f"{self.kind} {escape(self.name)}: {escape(self.message)}"


# Below this magnitude a number shown in a message is rounding noise of a pose's
# arithmetic (a cos(pi/2) of 6e-17) and is shown as 0; the comparison itself uses --tol.
SHOWN_ZERO = 1e-12


def shown(value: float) -> str:
    """A number as a message shows it: six digits, ``0`` for rounding noise and -0."""
    return "0" if abs(value) < SHOWN_ZERO else f"{value:.6g}"


def fmt(values) -> str:
    """Numbers as a difference's message writes them: ``[a, b, ...]``, six digits each."""
    return "[" + ", ".join(shown(v) for v in values) + "]"


def plain(values) -> str:
    """Numbers as a file writes them: ``a b c``, six digits each."""
    return " ".join(shown(v) for v in values)


def degrees(radians: float) -> str:
    return f"{math.degrees(radians):.3g} deg"


def angle_between(a: tuple, b: tuple) -> str:
    """The angle between two unit vectors (axes), in degrees."""
    cosine = max(-1.0, min(1.0, sum(p * q for p, q in zip(a, b))))
    return degrees(math.acos(cosine))


def turn(a: tuple, b: tuple) -> float:
    """The angle (rad) between two rotations (unit quaternions, w x y z)."""
    w, x, y, z = relative_rotation(a, b)
    return 2 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))


def pose_text(pose: Pose) -> str:
    """``xyz [..] m rpy [..] deg quaternion (w x y z) [..]``."""
    canonical = pose.canonical()
    rpy = [math.degrees(v) for v in rpy_from_quat(canonical.rotation)]
    return (f"xyz {fmt(canonical.position)} m rpy {fmt(rpy)} deg "
            f"quaternion (w x y z) {fmt(canonical.rotation)}")


def motion(a: Pose, b: Pose) -> str:
    """How far ``b`` is from ``a``: ``moved D m``, ``turned R rad (D deg)`` or both (what
    is rounding noise left out); ``differs`` for poses that are no numbers."""
    distance, angle = math.dist(a.position, b.position), turn(a.rotation, b.rotation)
    parts = []
    if not distance < SHOWN_ZERO:
        parts.append(f"moved {distance:.3g} m")
    if not angle < SHOWN_ZERO:
        parts.append(f"turned {angle:.3g} rad ({degrees(angle)})")
    return ", ".join(parts) or "differs"


def edit_text(term: str, a: Pose, b: Pose, tol: float) -> str:
    """An edited pose in a file's own terms (``term``: ``origin``, ``pose``...): the xyz
    part when it moved, the rpy part (radians, with the angle turned in degrees) when it
    turned."""
    parts = []
    distance = math.dist(a.position, b.position)
    if not distance <= tol:
        parts.append(f"{term} xyz {plain(a.position)} -> {plain(b.position)} m "
                     f"(moved {distance:.3g} m)")
    angle = turn(a.rotation, b.rotation)
    if not angle <= tol or not parts:
        parts.append(f"{term} rpy {plain(rpy_from_quat(a.rotation))} -> "
                     f"{plain(rpy_from_quat(b.rotation))} rad (turned {degrees(angle)})")
    return "; ".join(parts)
