"""``urdf-sdf diff``'s comparison of link geometry (``core.diff.compare``): each visual and
collision of a link must have a counterpart of the same shape at the same pose.

Two meshes are the same when their files hold the same bytes: each URI is resolved as
every command resolves it (``core.inspect.resources``, with the search paths the description was
loaded with), so ``package://arm/meshes/base.stl`` and the copy a model directory names
``model://arm_robot/meshes/base.stl`` match. A URI that does not resolve is compared by
its text, ``model://`` and ``package://`` naming the same path.

A mesh file is hashed whole up to :data:`MAX_HASHED_BYTES` (64 MiB), read as a regular
file only (:mod:`core.read.mesh_files`: a FIFO or device is never read, and then compared by
its URI). A larger one is compared by its size and three samples of :data:`SAMPLE_BYTES`
(1 MiB: its start, middle and end), so that a 200 GB sparse file costs three short
reads; two such meshes that agree are the same for ``diff``, and the description gets a
``MESH_SAMPLED`` warning (``Description.notes``) saying the comparison was sampled.
"""
from __future__ import annotations

from collections.abc import Set as AbstractSet

import numpy as np

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.pose import pose_gap
from urdf_sdf.core.compose.uri import shown
from urdf_sdf.core.diff.difference import Difference
from urdf_sdf.core.inspect.resources import Resource, resolve_read
from urdf_sdf.core.kinematics.batch import batch_compose, batch_relative_rotation
from urdf_sdf.core.read.mesh_files import SAMPLES, MeshFileError, describe_size, file_digest

# A mesh file larger than this is compared by its size and samples, not hashed whole.
MAX_HASHED_BYTES = 64 * 2 ** 20
SAMPLE_BYTES = 1 << 20
KINDS = ("visuals", "collisions")


def shapes_in_root(digest, name: str, kind: str, poses) -> list[tuple]:
    """``(geometry kind, pose in the reference frame, signature)`` of each shape of a link
    of a ``core.diff.digest.Digest`` (``poses``: the link frames in the reference)."""
    return [(signature[0], poses[name] * local, signature)
            for local, signature in digest.contents.shapes(name, kind)]


def resource_path(uri: str) -> str:
    """``model://pkg/x`` and ``package://pkg/x`` name the same file in the two worlds."""
    for scheme in ("model://", "package://"):
        if uri.startswith(scheme):
            return uri[len(scheme):]
    return uri


def mesh_key(description, geometry) -> str:
    """What identifies a mesh: the digest of the file its URI resolves to, else the URI's
    path. Digests are kept per description (``description.mesh_keys``)."""
    uri = (geometry.uri or "").strip()
    if geometry.kind != "mesh" or not uri:
        return resource_path(uri)
    keys = description.mesh_keys
    if uri not in keys:
        result = description.result
        resource = resolve_read(Resource(uri, "mesh", geometry.source), result,
                                result.context or Context())
        keys[uri] = _digest(resource, uri, geometry, description) \
            if resource.path is not None else None
    return keys[uri] or resource_path(uri)


def _digest(resource: Resource, uri: str, geometry, description) -> str | None:
    """The digest of the mesh file ``resource`` resolved to (None when it is not read); a
    sampled one adds a ``MESH_SAMPLED`` warning to ``description.notes``."""
    try:
        opened, resolved = resource.opened()
        digest, sampled = file_digest(opened, MAX_HASHED_BYTES, SAMPLE_BYTES, resolved)
    except MeshFileError:
        return None
    if sampled:
        description.notes.append(Diagnostic(
            Code.MESH_SAMPLED, Severity.WARNING,
            f"mesh [{shown(uri)}] ({resource.path}) is larger than "
            f"{describe_size(MAX_HASHED_BYTES)}: compared by its size and {SAMPLES} samples of "
            f"{describe_size(SAMPLE_BYTES)} (start, middle, end), not byte for byte",
            geometry.source.file, geometry.source.line))
    return digest


# A mesh's scale when none is written (URDF and SDFormat alike): ``scale="1 1 1"`` written
# and no scale are the same mesh.
DEFAULT_SCALE = (1.0, 1.0, 1.0)


def geometry_signature(geometry, mesh: str) -> tuple:
    """What two shapes must share to be the same: kind, size, radius and length, mesh
    (:func:`mesh_key`), scale (a mesh's default scale written out when absent). Its first
    item is the geometry's kind."""
    numbers = tuple(v for v in (geometry.radius, geometry.length) if v is not None)
    scale = geometry.scale if geometry.scale is not None or geometry.kind != "mesh" \
        else DEFAULT_SCALE
    return (geometry.kind, tuple(geometry.size or ()), numbers, mesh, tuple(scale or ()))


def signature_change(a: tuple, b: tuple, tol: float) -> str:
    """What differs between two geometry signatures (:func:`geometry_signature`), in a
    file's terms with units (``box size 0.2 0.2 0.1 -> 0.3 0.2 0.1 m``); empty when
    :func:`same_geometry`."""
    if same_geometry(a, b, tol):
        return ""
    if a[0] != b[0]:
        return f"geometry {a[0]} -> {b[0]}"
    parts = []
    if a[3] != b[3]:
        parts.append("mesh file differs")
    for label, unit, va, vb in (("size", " m", a[1], b[1]), ("radius, length", " m", a[2], b[2]),
                                ("scale", "", a[4], b[4])):
        if len(va) != len(vb) or any(not abs(x - y) <= tol for x, y in zip(va, vb)):
            parts.append(f"{label} {' '.join(f'{x:.6g}' for x in va)} -> "
                         f"{' '.join(f'{y:.6g}' for y in vb)}{unit}")
    return "; ".join(parts)


def compare_shapes(da, db, bodies, tol, out, skip: AbstractSet[str] = frozenset()) -> None:
    """Each visual and collision of a link of two digests against the other side's of the
    same link (``bodies``: each side's link frames in the reference frame), but for the
    links of ``skip`` (a rigid group's: :mod:`core.diff.lumped`).

    A link whose shapes :func:`alike_in_order` finds each the same as the other side's in
    the same place passes without the search for a counterpart, which would pair them so."""
    pa, pb = bodies
    names = sorted(set(da.links) & set(db.links) - skip)
    alike = {kind: alike_in_order(da, db, names, kind, bodies, tol) for kind in KINDS}
    for at, name in enumerate(names):
        for kind in KINDS:
            if alike[kind][at]:
                continue
            match_shapes(name, kind, shapes_in_root(da, name, kind, pa),
                         shapes_in_root(db, name, kind, pb), tol, out)


def match_shapes(name: str, kind: str, sa: list[tuple], sb: list[tuple], tol: float,
                 out: list[Difference]) -> None:
    """Each of a link's shapes of ``kind`` in A (``sa``, from :func:`shapes_in_root`)
    against a counterpart among B's (``sb``): the first one left of the same geometry
    within ``tol``."""
    if len(sa) != len(sb):
        out.append(Difference("geometry", name, f"{len(sa)} {kind} in A, {len(sb)} in B",
                              f"{kind} count"))
        return
    unmatched = list(sb)
    for i, (ga, xa, signature) in enumerate(sa):
        match = next((k for k, (_, xb, other) in enumerate(unmatched)
                      if same_geometry(signature, other, tol)
                      and pose_gap(xa, xb) <= tol), None)
        if match is None:
            out.append(Difference("geometry", name, f"{kind}[{i}] ({ga}) of A has no "
                                  "counterpart with the same geometry and pose in B", kind))
        else:
            unmatched.pop(match)


def alike_in_order(da, db, names: list[str], kind: str, bodies, tol: float) -> list[bool]:
    """Per link of ``names``: whether it has as many shapes of ``kind`` on both sides, each
    of the same geometry as the other side's in the same place, at a pose in the
    reference frame that :func:`within_gap` finds certainly within ``tol`` of it."""
    spans = [shape_spans(digest, names, kind) for digest in (da, db)]
    alike = [end_a - start_a == end_b - start_b
             for (start_a, end_a), (start_b, end_b) in zip(*spans)]
    rows: tuple[list[int], list[int]] = ([], [])
    links: tuple[list[int], list[int]] = ([], [])   # each shape's link frame row
    owners: list[int] = []
    for at, name in enumerate(names):
        if not alike[at]:
            continue
        for side in (0, 1):
            start, end = spans[side][at]
            rows[side].extend(range(start, end))
            links[side].extend([bodies[side].rows[name]] * (end - start))
        owners.extend([at] * (spans[0][at][1] - spans[0][at][0]))
    pa, qa = shape_poses(da, rows[0], links[0], bodies[0])
    pb, qb = shape_poses(db, rows[1], links[1], bodies[1])
    within = within_gap(pa, qa, pb, qb, tol).tolist()
    signatures = (da.contents.signatures, db.contents.signatures)
    unposed = (da.contents.no_shape_frame, db.contents.no_shape_frame)
    for k, (row_a, row_b, owner) in enumerate(zip(*rows, owners)):
        if not within[k] or row_a in unposed[0] or row_b in unposed[1] or \
                not same_geometry(signatures[0][row_a], signatures[1][row_b], tol):
            alike[owner] = False
    return alike


def shape_spans(digest, names: list[str], kind: str) -> list[tuple[int, int]]:
    """The rows of each link's shapes of ``kind`` (none for a link not in the digest)."""
    contents = digest.contents
    spans = contents.shape_spans[kind]
    rows = [contents.index.get(name) for name in names]
    return [(0, 0) if row is None else (spans[2 * row], spans[2 * row + 1]) for row in rows]


def shape_poses(digest, rows: list[int], links: list[int],
                frames) -> tuple[np.ndarray, np.ndarray]:
    """The poses in the reference frame of the shapes ``rows`` of a digest, as position and
    quaternion arrays: the frame of its link (row ``links[i]`` of ``frames``, the link
    frames in the reference) times the shape's pose in the link."""
    local = digest.contents.shape_frames[rows]
    return batch_compose(frames.positions[links], frames.rotations[links], local[:, :3],
                         local[:, 3:])


def within_gap(pa, qa, pb, qb, tol: float) -> np.ndarray:
    """Per pair of poses, whether :func:`core.base.pose.pose_gap` is certainly within ``tol``:
    its distance is at most sqrt(3) times the largest coordinate difference, and its angle
    ``2 atan2(|v|, |w|)`` at most ``2 sqrt(3) max(|v_i|) / |w|``; both bounds are asked to
    be below ``tol`` with a margin far wider than rounding (NaN is never within)."""
    with np.errstate(all="ignore"):
        position = np.abs(pa - pb).max(axis=-1)
        relative = batch_relative_rotation(qa, qb)
        turn = np.abs(relative[:, 1:]).max(axis=-1)
        return (2 * position <= tol) & (4 * turn <= tol * np.abs(relative[:, 0]))


def same_geometry(a: tuple, b: tuple, tol: float) -> bool:
    if tol >= 0 and a == b:  # each difference is zero (or NaN, inf - inf): none over tol
        return True
    if a[0] != b[0] or a[3] != b[3]:
        return False
    for va, vb in zip(a[1:3] + a[4:], b[1:3] + b[4:]):
        if len(va) != len(vb) or any(abs(x - y) > tol for x, y in zip(va, vb)):
            return False
    return True
