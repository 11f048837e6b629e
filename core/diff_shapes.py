"""``urdf-sdf diff``'s comparison of link geometry (``core.diff``): each visual and
collision of a link must have a counterpart of the same shape at the same pose.

Two meshes are the same when their files hold the same bytes: each URI is resolved as
every command resolves it (``core.resources``, with the search paths the description was
loaded with), so ``package://arm/meshes/base.stl`` and the copy a model directory names
``model://arm_robot/meshes/base.stl`` match. A URI that does not resolve is compared by
its text, ``model://`` and ``package://`` naming the same path.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from urdf_sdf.core.context import Context
from urdf_sdf.core.difference import Difference
from urdf_sdf.core.pose import pose_gap
from urdf_sdf.core.resources import Resource, base_folder, resolve_resource

HASH_CHUNK = 1 << 20


def shapes_in_root(digest, name: str, kind: str, poses) -> list[tuple]:
    """``(geometry kind, pose in the reference frame, signature)`` of each shape of a link
    of a ``core.diff_digest.Digest`` (``poses``: the link frames in the reference)."""
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
        resource = resolve_resource(Resource(uri, "mesh", geometry.source),
                                    base_folder(geometry.source, result),
                                    result.context or Context())
        keys[uri] = _digest(resource.path) if resource.path is not None else None
    return keys[uri] or resource_path(uri)


def _digest(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(HASH_CHUNK), b""):
                digest.update(chunk)
    except OSError:
        return None
    return "sha256:" + digest.hexdigest()


def geometry_signature(geometry, mesh: str) -> tuple:
    """What two shapes must share to be the same: kind, size, radius and length, mesh
    (:func:`mesh_key`), scale. Its first item is the geometry's kind."""
    numbers = tuple(v for v in (geometry.radius, geometry.length) if v is not None)
    return (geometry.kind, tuple(geometry.size or ()), numbers, mesh,
            tuple(geometry.scale or ()))


def compare_shapes(da, db, bodies, tol, out) -> None:
    """Each visual and collision of a link of two digests against the other side's of the
    same link (``bodies``: each side's link frames in the reference frame)."""
    pa, pb = bodies
    for name in sorted(set(da.links) & set(db.links)):
        for kind in ("visuals", "collisions"):
            sa, sb = shapes_in_root(da, name, kind, pa), shapes_in_root(db, name, kind, pb)
            if len(sa) != len(sb):
                out.append(Difference("geometry", name, f"{len(sa)} {kind} in A, {len(sb)} in B"))
                continue
            unmatched = list(sb)
            for i, (ga, xa, signature) in enumerate(sa):
                match = next((k for k, (_, xb, other) in enumerate(unmatched)
                              if same_geometry(signature, other, tol)
                              and pose_gap(xa, xb) <= tol), None)
                if match is None:
                    out.append(Difference("geometry", name, f"{kind}[{i}] ({ga}) of A has no "
                                          "counterpart with the same geometry and pose in B"))
                else:
                    unmatched.pop(match)


def same_geometry(a: tuple, b: tuple, tol: float) -> bool:
    if a[0] != b[0] or a[3] != b[3]:
        return False
    for va, vb in zip(a[1:3] + a[4:], b[1:3] + b[4:]):
        if len(va) != len(vb) or any(abs(x - y) > tol for x, y in zip(va, vb)):
            return False
    return True
