"""Rigid-transform math for poses: the one place the project declares it.

A :class:`Pose` is ``X_AB``: the pose of frame B relative to frame A, stored as a
position and a unit quaternion ``(w, x, y, z)``. Plain floats rather than numpy
arrays: composing millions of tiny transforms is faster in pure Python than
through numpy's per-call overhead, and the tests check these formulas against
``scipy.spatial.transform.Rotation``.

The formulas (:func:`compose`, :func:`invert`, :func:`rotate`, :func:`quat_mul`,
:func:`conjugate`, :func:`relative_rotation`) take their vectors and quaternions as
tuples of components and use nothing but arithmetic, so the same text serves a component
that is a float (:class:`Pose`) and one that is a numpy array of many poses
(``core.kinematics.batch``, ``core.diff``). This module imports no numpy.

Euler angles follow SDFormat and URDF: fixed axes, roll about X, then pitch about
Y, then yaw about Z (``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``).
"""
from __future__ import annotations

import math

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]  # (w, x, y, z): scalar first


class Pose:
    """``X_AB``, the pose of frame B in frame A: ``position`` ``(x, y, z)`` in metres and
    ``rotation``, a unit quaternion in the order ``(w, x, y, z)``, scalar first (as
    Drake and Eigen's constructor write it; scipy's ``Rotation.from_quat`` and ROS
    messages take ``(x, y, z, w)``: reorder before passing it to them).
    ``Pose((0, 0, 1), (0.7071068, 0, 0, 0.7071068))`` is 1 m up, turned 90 degrees about Z.

    Immutable by convention; a plain slotted class because poses are made by the
    million while resolving (a frozen dataclass is several times slower to build)."""
    __slots__ = ("position", "rotation")

    def __init__(self, position: Vec3 = (0.0, 0.0, 0.0),
                 rotation: Quat = (1.0, 0.0, 0.0, 0.0)):
        self.position = position
        self.rotation = rotation

    def __eq__(self, other) -> bool:
        return isinstance(other, Pose) and self.position == other.position and \
            self.rotation == other.rotation

    def __hash__(self) -> int:
        return hash((self.position, self.rotation))

    def __repr__(self) -> str:
        return f"Pose(position={self.position}, rotation={self.rotation})"

    @staticmethod
    def identity() -> Pose:
        return IDENTITY

    @staticmethod
    def from_rpy(xyz: Vec3, rpy: Vec3) -> Pose:
        x, y, z = xyz
        return Pose.from_float_rpy((float(x), float(y), float(z)), rpy)

    @staticmethod
    def from_float_rpy(xyz: tuple[float, float, float], rpy: Vec3) -> Pose:
        """:meth:`from_rpy` of a position that is a tuple of floats already, kept as it is
        (a reader makes one for every origin of a robot)."""
        roll, pitch, yaw = rpy
        if roll == pitch == yaw == 0:
            return Pose(xyz, (1.0, 0.0, 0.0, 0.0))
        return Pose(xyz, quat_from_rpy(roll, pitch, yaw))

    @staticmethod
    def from_quat_xyzw(xyz: Vec3, xyzw: tuple[float, float, float, float]) -> Pose:
        px, py, pz = xyz
        x, y, z, w = xyzw
        return Pose((float(px), float(py), float(pz)), normalize_quat((w, x, y, z)))

    def __mul__(self, other: Pose) -> Pose:
        """``X_AB * X_BC = X_AC`` (:func:`compose`)."""
        position, rotation = compose(self.position, self.rotation, other.position,
                                     other.rotation)
        return Pose(position, rotation)

    def inverse(self) -> Pose:
        """``X_BA`` of ``X_AB`` (:func:`invert`)."""
        position, rotation = invert(self.position, self.rotation)
        return Pose(position, rotation)

    def rpy(self) -> Vec3:
        return rpy_from_quat(self.rotation)

    def canonical(self) -> Pose:
        """Same pose with the quaternion's scalar part made non-negative."""
        w, x, y, z = self.rotation
        if w < 0:
            return Pose(self.position, (-w, -x, -y, -z))
        return self

    def is_finite(self) -> bool:
        """Whether the seven numbers are finite: a composition of poses whose offsets
        add up beyond the largest double gives infinities, and ``inf * 0`` NaN."""
        x, y, z = self.position
        w, qx, qy, qz = self.rotation
        isfinite = math.isfinite
        return isfinite(x) and isfinite(y) and isfinite(z) and isfinite(w) and \
            isfinite(qx) and isfinite(qy) and isfinite(qz)

    def as_list(self) -> list[float]:
        """``[x, y, z, qw, qx, qy, qz]`` with ``qw >= 0``, the conformance format."""
        pose = self.canonical()
        return [*pose.position, *pose.rotation]


IDENTITY = Pose()


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> Quat:
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (cr * cp * cy + sr * sp * sy,
            sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy)


def rpy_from_quat(q: Quat) -> Vec3:
    """Fixed-axis roll, pitch, yaw of a unit quaternion, accurate near gimbal lock.

    Yaw comes from ``atan2(r10, r00)``; then the yaw is removed
    (``R' = Rz(-yaw) R = Ry(pitch) Rx(roll)``) and pitch and roll are read from
    entries of ``R'`` that stay large. Whatever yaw's conditioning near
    pitch = +-90 degrees, the three angles then rebuild ``R`` to rounding error.
    """
    w, x, y, z = q
    r00 = 1 - 2 * (y * y + z * z)
    r01 = 2 * (x * y - w * z)
    r02 = 2 * (x * z + w * y)
    r10 = 2 * (x * y + w * z)
    r11 = 1 - 2 * (x * x + z * z)
    r12 = 2 * (y * z - w * x)
    r20 = 2 * (x * z - w * y)
    yaw = math.atan2(r10, r00) if math.hypot(r00, r10) > 1e-300 else 0.0
    cy, sy = math.cos(yaw), math.sin(yaw)
    # Rows of R' = Rz(-yaw) @ R that are needed.
    p00 = cy * r00 + sy * r10
    p11 = -sy * r01 + cy * r11
    p12 = -sy * r02 + cy * r12
    pitch = math.atan2(-r20, p00)
    roll = math.atan2(-p12, p11)
    return (roll, pitch, yaw)


def quat_from_axis_angle(axis: Vec3, angle: float) -> Quat:
    """Rotation by ``angle`` about unit vector ``axis``."""
    half = angle / 2
    s = math.sin(half)
    return (math.cos(half), axis[0] * s, axis[1] * s, axis[2] * s)


def normalize_quat(q: Quat) -> Quat:
    norm = math.hypot(*q)  # no overflow of the squares (1e200) nor underflow (1e-200)
    if norm == 0 or not math.isfinite(norm):
        return (1.0, 0.0, 0.0, 0.0)
    return tuple(c / norm for c in q)  # type: ignore[return-value]


def compose(position_a: Vec3, rotation_a: Quat, position_b: Vec3,
            rotation_b: Quat) -> tuple[Vec3, Quat]:
    """``X_AB * X_BC = X_AC`` of poses given as a position and a quaternion each: the
    position ``p_a + rotate(q_a, p_b)``, the rotation ``quat_mul(q_a, q_b)``. Components
    may be floats or numpy arrays that broadcast together."""
    x, y, z = rotate(rotation_a, position_b)
    ax, ay, az = position_a
    return (ax + x, ay + y, az + z), quat_mul(rotation_a, rotation_b)


def invert(position: Vec3, rotation: Quat) -> tuple[Vec3, Quat]:
    """``X_BA`` of ``X_AB`` given as a position and a unit quaternion: the conjugate
    quaternion, and the position turned by it and negated. Components may be floats or
    numpy arrays."""
    inverse = conjugate(rotation)
    px, py, pz = rotate(inverse, position)
    return (-px, -py, -pz), inverse


def conjugate(q: Quat) -> Quat:
    """The conjugate ``(w, -x, -y, -z)``: the inverse of a unit quaternion. Components
    may be floats or numpy arrays."""
    w, x, y, z = q
    return (w, -x, -y, -z)


def relative_rotation(a: Quat, b: Quat) -> Quat:
    """``a^-1 b``: the rotation from ``a`` to ``b`` (unit quaternions). Components may be
    floats or numpy arrays."""
    return quat_mul(conjugate(a), b)


def quat_mul(a: Quat, b: Quat) -> Quat:
    """Hamilton product ``a b`` (``a``'s rotation after ``b``'s); components may be floats
    or numpy arrays."""
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def rotate(q: Quat, v: Vec3) -> Vec3:
    """Rotate vector ``v`` by unit quaternion ``q``; components may be floats or numpy
    arrays."""
    w, x, y, z = q
    vx, vy, vz = v
    # t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
    tx = 2 * (y * vz - z * vy)
    ty = 2 * (z * vx - x * vz)
    tz = 2 * (x * vy - y * vx)
    return (vx + w * tx + (y * tz - z * ty),
            vy + w * ty + (z * tx - x * tz),
            vz + w * tz + (x * ty - y * tx))


def pose_gap(a: Pose, b: Pose) -> float:
    """Largest of the position distance and the rotation angle between two poses.

    The angle is ``2 atan2(|v|, |w|)`` of the relative quaternion, which stays
    accurate for tiny angles where ``acos`` of a dot product loses half the digits.
    """
    dp = math.dist(a.position, b.position)
    w, x, y, z = relative_rotation(a.rotation, b.rotation)
    angle = 2 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))
    return max(dp, angle)
