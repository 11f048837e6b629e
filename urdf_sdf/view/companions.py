"""The files a mesh file itself names (a glTF's ``.bin`` buffers, an OBJ's material
library, texture images), as trimesh asks for them while it reads the mesh.

trimesh reads them through a *resolver*; its own one reads any path, or any path below
the mesh's folder with no bound on size and with no check that it is a regular file.
:class:`CompanionFiles` is the one ``urdf-sdf view`` hands it instead: a name is read
only when it is relative, resolves (after symlinks) inside the mesh's own folder, is a
regular file, and fits in what is left of the byte budget the mesh and its companions
share (:data:`urdf_sdf.view.meshes.MAX_MESH_BYTES`). Anything else reads as a
missing file, which trimesh reports as an unreadable mesh; nothing is ever written.
"""
from __future__ import annotations

import os
from pathlib import Path

from trimesh.resolvers import Resolver

from urdf_sdf.core.base.path_components import is_within
from urdf_sdf.core.read.mesh_files import MeshFileError, read_capped


class CompanionFiles(Resolver):
    """Files below ``folder`` (its real path), read while ``budget[0]`` bytes are left
    (a one-item list, shared with a :meth:`namespaced` resolver)."""

    def __init__(self, folder: str | Path, budget: list[int]):
        self.folder = os.path.realpath(folder)
        self.budget = budget

    def get(self, name: str) -> bytes:
        path = self.inside(name)
        if path is None:
            raise FileNotFoundError(f"{name}: not a file beside the mesh")
        try:
            data = read_capped(path, max(0, self.budget[0]))
        except MeshFileError as exc:
            raise FileNotFoundError(f"{name}: {exc}") from exc
        self.budget[0] -= len(data)
        return data

    def inside(self, name: str) -> str | None:
        """The real path ``name`` names inside the folder, or None."""
        name = (name or "").strip()
        if not name or "\0" in name or os.path.isabs(name) or "://" in name:
            return None
        path = os.path.realpath(os.path.join(self.folder, name))
        return path if path != self.folder and is_within(path, self.folder) else None

    def write(self, name: str, data) -> None:
        raise PermissionError("a mesh's companion files are never written")

    def namespaced(self, namespace: str) -> CompanionFiles:
        inner = self.inside(namespace)
        if inner is None:
            raise FileNotFoundError(f"{namespace}: not a folder beside the mesh")
        return CompanionFiles(inner, self.budget)

    def keys(self):
        return iter(())
