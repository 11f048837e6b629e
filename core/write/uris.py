"""Mesh and texture URIs as the written file sees them (a robot-level material's texture
included: :func:`relocated_textures`).

A relative path (``meshes/base.stl``) is relative to the folder of the file that holds
it, and so is a relative ``file://`` URI (``file://meshes/base.stl``, as gym-ignition and
pybullet robots write them; urdfdom, libsdformat and Drake read it as that path). Written
into an output in another folder, either must change to point at the same file from
there, keeping its form: :func:`relocated`. Other URIs with a scheme (``package://``,
``model://``), absolute ``file:///`` URIs and absolute paths mean the same from anywhere.
"""
from __future__ import annotations

import os
from dataclasses import replace

from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import Material

NOT_A_FILE = ("", "-", "<stdin>", "<input>")
FILE_SCHEME = "file://"


def is_relative_path(uri: str) -> bool:
    return bool(uri) and "://" not in uri and not os.path.isabs(uri)


def split_file_scheme(uri: str) -> tuple[str, str]:
    """``uri`` as (``file://`` or "", the rest): the path a relative ``file://`` URI holds."""
    if uri.startswith(FILE_SCHEME):
        return FILE_SCHEME, uri[len(FILE_SCHEME):]
    return "", uri


def relocated(uri: str, source_file: str | None, output_dir: str | None) -> str:
    """``uri`` (from ``source_file``) as seen from ``output_dir``, in the same form (a plain
    path or ``file://``); unchanged when it is not relative, or when the source or the
    output folder is not known."""
    scheme, path = split_file_scheme(uri)
    if not is_relative_path(path) or output_dir is None or source_file in NOT_A_FILE \
            or source_file is None:
        return uri
    source_dir = os.path.dirname(os.path.abspath(source_file))
    target = os.path.normpath(os.path.join(source_dir, path))
    moved = os.path.relpath(target, os.path.abspath(output_dir))
    return scheme + moved.replace(os.sep, "/")


def relocated_file(uri: str, source, output_dir: str | None, diagnostics,
                   kind: str = "mesh") -> str:
    """:func:`relocated` for a mesh (or a texture: ``kind``) read at ``source`` (a
    ``Source``); a path that cannot be expressed from the output's folder (another drive; a
    folder name between them whose bytes are not UTF-8, which XML text cannot hold) is
    kept, with a warning."""
    try:
        moved = relocated(uri, source.file, output_dir)
        moved.encode("utf-8")
        return moved
    except ValueError as exc:
        why = "" if not isinstance(exc, UnicodeEncodeError) else \
            ": the path from there names a folder whose name is not UTF-8 text"
        diagnostics.warning_at(Code.MESH_URI_NOT_RELATIVE,
                               f"{kind} [{uri}] cannot be given relative to the "
                               f"output's folder [{output_dir}]{why}; written as it is",
                               source)
        return uri


# The package-style scheme a mesh URI is rewritten to (``--uri-scheme``), and the one it
# is rewritten from.
SCHEME_REWRITES = {"package": "model://", "model": "package://"}


def written_mesh_uri(uri: str, scheme: str | None, source, output_dir: str | None,
                     diagnostics) -> str:
    """A mesh URI as a converter writes it: rewritten to ``scheme`` when given (``package``:
    ``model://`` becomes ``package://``; ``model``: the other way), else
    :func:`relocated_file` (a relative path made relative to the output's folder)."""
    other = SCHEME_REWRITES.get(scheme or "")
    if other is not None and uri.startswith(other):
        return f"{scheme}://{uri[len(other):]}"
    return relocated_file(uri, source, output_dir, diagnostics)


def relocated_material(material: Material, output_dir: str | None, diagnostics) -> Material:
    """``material`` with its texture's file as the written file sees it (:func:`relocated`:
    a relative path made relative to the output's folder)."""
    if not material.texture:
        return material
    moved = relocated_file(material.texture, material.source, output_dir, diagnostics,
                           "texture")
    return material if moved == material.texture else replace(material, texture=moved)


def relocated_textures(copied, source, output_dir: str | None, diagnostics):
    """``copied`` (a copy of a robot-level ``<material>``, plain or in the ``urdf``
    namespace, read at ``source``) with each ``<texture filename>`` as the written file
    sees it; ``copied`` itself, changed in place."""
    for texture in copied.iter("texture", f"{{{URDF_NS}}}texture"):
        filename = texture.get("filename")
        if filename:
            texture.set("filename", relocated_file(filename, source, output_dir, diagnostics,
                                                   "texture"))
    return copied
