"""Mesh files as triangle meshes for the page: read with trimesh (STL, OBJ, glTF, GLB;
COLLADA through pycollada), scaled, and thinned above :data:`MAX_FACES`.

The mesh a URI names is found by :func:`urdf_sdf.core.inspect.resources.resolve_resource`, as
every other command finds it. What is read of it, and how:

* only a regular file, opened non-blocking (:mod:`urdf_sdf.core.read.mesh_files`), of at most
  :data:`MAX_MESH_BYTES` (256 MiB), judged by its size on the opened file before a byte
  is read: a larger one (a 200 GB sparse file as well) is not read at all and is drawn
  as a marker box with the warning ``MESH_TOO_LARGE``;
* its format is judged by its content (:func:`urdf_sdf.core.inspect.resources.mesh_format_of`);
* a COLLADA file goes through our hardened XML parser first (:mod:`.collada`): one with
  a DTD that declares entities is refused with ``XML_UNSAFE``;
* the files the mesh names itself (glTF buffers, OBJ material libraries, textures) are
  read only from the mesh's own folder, as regular files, within the same byte budget
  (:mod:`.companions`).

A mesh that does not resolve or does not read gives ``None`` and the reason, with its
code; the scene draws a marker instead and the command warns.
"""
from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import trimesh

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.inspect.resources import mesh_format_of
from urdf_sdf.core.read.mesh_files import (
    MeshFileError,
    MeshFileTooLarge,
    describe_size,
    read_capped,
)
from urdf_sdf.view.collada import ColladaRefused, safe_collada
from urdf_sdf.view.companions import CompanionFiles

# Faces of one mesh on the page: more are thinned by vertex clustering. A page holds
# the whole robot's triangles (and again per slider step for the links that move), so
# a scanned 500,000-face part would otherwise make a page of hundreds of megabytes.
MAX_FACES = 20_000
# Bytes of one mesh file and the files it names, together: a larger mesh is not read
# (reading takes about twice its size in memory before it is thinned).
MAX_MESH_BYTES = 256 * 2 ** 20


class MeshError(Exception):
    """A mesh file that cannot be drawn; the message says why, ``code`` with which
    diagnostic code (MESH_UNREADABLE, MESH_TOO_LARGE, XML_UNSAFE)."""

    def __init__(self, message: str, code: Code = Code.MESH_UNREADABLE):
        super().__init__(message)
        self.code = code


def read_mesh(path: Path, scale=None, real: str | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(vertices, faces)`` of the mesh file at ``path``, scaled by ``scale`` and
    thinned to at most about :data:`MAX_FACES` faces; ``real``: its real path, checked
    where it may be read, opened with no link followed. Raises :class:`MeshError`."""
    try:
        data = read_capped(real or path, MAX_MESH_BYTES, resolved=real is not None)
    except MeshFileTooLarge as exc:
        raise MeshError(f"not read: {exc.size:,} bytes, more than the "
                        f"{describe_size(exc.limit)} view reads of a mesh",
                        Code.MESH_TOO_LARGE) from exc
    except MeshFileError as exc:
        raise MeshError(f"cannot be read: {exc}") from exc
    kind = mesh_format_of(data, len(data))
    if kind is None:
        raise MeshError("not a mesh file this tool reads (STL, OBJ, COLLADA, glTF, GLB; "
                        "judged by content)")
    if kind == "dae":
        try:
            data = safe_collada(data, str(path))
        except ColladaRefused as exc:
            raise MeshError(f"COLLADA file refused: {exc}", exc.code) from exc
    companions = CompanionFiles(path.parent, [MAX_MESH_BYTES - len(data)])
    try:
        loaded = trimesh.load(io.BytesIO(data), file_type=kind, resolver=companions,
                              force="mesh", process=False)
    except Exception as exc:  # trimesh raises whatever its readers raise on a bad file
        raise MeshError(f"cannot be read as {kind.upper()}: "
                        f"{' '.join(str(exc).split()) or type(exc).__name__}") from exc
    vertices = np.asarray(getattr(loaded, "vertices", ()), dtype=float).reshape(-1, 3)
    faces = np.asarray(getattr(loaded, "faces", ()), dtype=np.int64).reshape(-1, 3)
    if len(faces) == 0 or not np.isfinite(vertices).all():
        raise MeshError(f"holds no triangles to draw ({kind.upper()})")
    if scale is not None:
        vertices = vertices * np.asarray(scale, dtype=float)
    return thinned(vertices, faces, MAX_FACES)


def thinned(vertices: np.ndarray, faces: np.ndarray,
            limit: int) -> tuple[np.ndarray, np.ndarray]:
    """At most about ``limit`` faces: vertices merged on a grid (vertex clustering),
    the grid made finer until the result fits. Good enough for a picture, with no
    compiled dependency; a mesh within the limit is returned as it is."""
    if len(faces) <= limit:
        return vertices, faces
    extent = float(np.ptp(vertices, axis=0).max()) or 1.0
    cells = max(2, int(math.sqrt(limit / 2)))
    merged = _clustered(vertices, faces, extent / cells)
    while len(merged[1]) > limit and cells > 2:  # too fine: coarser
        cells = max(2, cells // 2)
        merged = _clustered(vertices, faces, extent / cells)
    for _ in range(8):  # as fine as fits
        finer = _clustered(vertices, faces, extent / (int(cells * 1.3) + 1))
        if len(finer[1]) > limit:
            break
        merged, cells = finer, int(cells * 1.3) + 1
    return merged


def _clustered(vertices: np.ndarray, faces: np.ndarray,
               cell: float) -> tuple[np.ndarray, np.ndarray]:
    keys = np.floor((vertices - vertices.min(axis=0)) / cell).astype(np.int64)
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    sums = np.zeros((len(first), 3))
    np.add.at(sums, inverse, vertices)
    centres = sums / np.bincount(inverse, minlength=len(first))[:, None]
    remapped = inverse[faces]
    keep = (remapped[:, 0] != remapped[:, 1]) & (remapped[:, 1] != remapped[:, 2]) & \
        (remapped[:, 0] != remapped[:, 2])
    rows = remapped[keep]
    _, once = np.unique(np.sort(rows, axis=1), axis=0, return_index=True)
    return centres, rows[np.sort(once)]  # each triangle once, its winding kept
