"""Primitive shapes as triangle meshes: ``(vertices (N, 3), faces (M, 3))`` numpy arrays
in the shape's own frame, with SDFormat's conventions (a cylinder and a capsule along Z,
centred at the origin; a plane's normal given, its size in X and Y).

Tessellation is coarse on purpose: a page shows thousands of shapes, and 24 segments
round a cylinder read as round on screen.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from urdf_sdf.core.base.model import Geometry

SEGMENTS = 24   # around a cylinder, a capsule, a sphere
RINGS = 12      # from pole to pole of a sphere


def box(size: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """An axis-aligned box of edge lengths ``size`` centred at the origin."""
    half = np.asarray(size, dtype=float) / 2
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)],
                       dtype=float) * half
    faces = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5],   # -x, +x
                      [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],   # -y, +y
                      [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])  # -z, +z
    return corners, faces


def _rings(profile: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """A surface of revolution about Z through ``(radius, z)`` points, bottom to top;
    ends of radius 0 become single poles."""
    angles = np.linspace(0, 2 * math.pi, SEGMENTS, endpoint=False)
    vertices: list[tuple[float, float, float]] = []
    rows: list[list[int]] = []
    for radius, z in profile:
        start = len(vertices)
        if radius == 0:
            vertices.append((0.0, 0.0, z))
            rows.append([start] * SEGMENTS)
        else:
            vertices.extend((radius * math.cos(a), radius * math.sin(a), z) for a in angles)
            rows.append(list(range(start, start + SEGMENTS)))
    faces: list[tuple[int, int, int]] = []
    for lower, upper in zip(rows, rows[1:]):
        for i in range(SEGMENTS):
            j = (i + 1) % SEGMENTS
            if lower[i] != lower[j]:
                faces.append((lower[i], lower[j], upper[j]))
            if upper[i] != upper[j]:
                faces.append((lower[i], upper[j], upper[i]))
    return np.array(vertices, dtype=float), np.array(faces, dtype=np.int64).reshape(-1, 3)


def cylinder(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    half = length / 2
    return _rings([(0.0, -half), (radius, -half), (radius, half), (0.0, half)])


def sphere(radius: float) -> tuple[np.ndarray, np.ndarray]:
    return ellipsoid((radius, radius, radius))


def ellipsoid(radii: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """An ellipsoid of semi-axes ``radii``: a unit sphere scaled."""
    profile = [(math.sin(t), -math.cos(t)) for t in np.linspace(0, math.pi, RINGS + 1)]
    profile[0], profile[-1] = (0.0, -1.0), (0.0, 1.0)
    vertices, faces = _rings(profile)
    return vertices * np.asarray(radii, dtype=float), faces


def capsule(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """A cylinder of ``length`` between two half spheres (SDFormat's capsule)."""
    half = length / 2
    quarter = [t for t in np.linspace(0, math.pi / 2, RINGS // 2 + 1)]
    bottom = [(radius * math.sin(t), -half - radius * math.cos(t)) for t in quarter]
    top = [(radius * math.cos(t), half + radius * math.sin(t)) for t in quarter]
    bottom[0], top[-1] = (0.0, -half - radius), (0.0, half + radius)
    return _rings(bottom + top)


def plane(size: Sequence[float],
          normal: ArrayLike = (0.0, 0.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """A rectangle of ``size`` (X, Y) facing ``normal``: two triangles."""
    sx, sy = (float(v) / 2 for v in size)
    vertices = np.array([[-sx, -sy, 0], [sx, -sy, 0], [sx, sy, 0], [-sx, sy, 0]], dtype=float)
    return vertices @ _rotation_to(normal).T, np.array([[0, 1, 2], [0, 2, 3]])


def _rotation_to(normal: ArrayLike) -> np.ndarray:
    """A rotation matrix taking +Z to ``normal`` (the identity for a zero normal)."""
    n = np.asarray(normal, dtype=float)
    norm = np.linalg.norm(n)
    if norm == 0:
        return np.eye(3)
    n = n / norm
    z = np.array([0.0, 0.0, 1.0])
    v, c = np.cross(z, n), float(np.dot(z, n))
    if np.linalg.norm(v) < 1e-12:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1 + c)


def wire_box(size: ArrayLike) -> np.ndarray:
    """The 12 edges of a box as a polyline with NaN breaks: ``(K, 3)`` points, for the
    marker of a mesh that cannot be drawn."""
    corners, _ = box(size)
    edges = [(0, 1), (1, 3), (3, 2), (2, 0), (4, 5), (5, 7), (7, 6), (6, 4),
             (0, 4), (1, 5), (2, 6), (3, 7)]
    points = []
    for a, b in edges:
        points.extend([corners[a], corners[b], (math.nan,) * 3])
    return np.array(points, dtype=float)


def primitive(geometry: Geometry) -> tuple[np.ndarray, np.ndarray] | None:
    """The mesh of a :class:`~urdf_sdf.core.base.model.Geometry` that is a primitive, None
    for a mesh, a heightmap or a shape without the numbers it needs."""
    kind = geometry.kind
    radius, length = geometry.radius, geometry.length
    if kind == "box" and geometry.size:
        return box(geometry.size)
    if kind == "sphere" and radius is not None:
        return sphere(radius)
    if kind == "cylinder" and radius is not None and length is not None:
        return cylinder(radius, length)
    if kind == "capsule" and radius is not None and length is not None:
        return capsule(radius, length)
    radii = _numbers(geometry, "radii", 3)
    if kind == "ellipsoid" and radii is not None:
        return ellipsoid(radii)
    if kind == "plane":
        return plane(_numbers(geometry, "size", 2) or (1.0, 1.0),
                     _numbers(geometry, "normal", 3) or (0.0, 0.0, 1.0))
    return None


def _numbers(geometry: Geometry, tag: str, count: int) -> tuple[float, ...] | None:
    """``count`` numbers of the geometry's ``<tag>`` text (the reader keeps the text of
    the elements it has no field for: an ellipsoid's radii, a plane's size), or None."""
    text = geometry.texts.get(tag, "") if geometry.texts else ""
    try:
        values = tuple(float(v) for v in text.split())
    except ValueError:
        return None
    return values if len(values) == count and all(map(math.isfinite, values)) else None
