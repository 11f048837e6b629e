"""Mesh and texture URIs as the written file sees them.

A relative path (``meshes/base.stl``) is relative to the folder of the file that holds
it. Written into an output in another folder, it must change to point at the same file
from there: :func:`relocated`. URIs with a scheme (``package://``, ``model://``,
``file://``) and absolute paths mean the same from anywhere.
"""
from __future__ import annotations

import os

from urdf_sdf.core.base.diagnostics import Code

NOT_A_FILE = ("", "-", "<stdin>", "<input>")


def is_relative_path(uri: str) -> bool:
    return bool(uri) and "://" not in uri and not os.path.isabs(uri)


def relocated(uri: str, source_file: str | None, output_dir: str | None) -> str:
    """``uri`` (from ``source_file``) as seen from ``output_dir``; unchanged when it is not
    a relative path, or when the source or the output folder is not known."""
    if not is_relative_path(uri) or output_dir is None or source_file in NOT_A_FILE \
            or source_file is None:
        return uri
    source_dir = os.path.dirname(os.path.abspath(source_file))
    target = os.path.normpath(os.path.join(source_dir, uri))
    moved = os.path.relpath(target, os.path.abspath(output_dir))
    return moved.replace(os.sep, "/")


def relocated_mesh(uri: str, source, output_dir: str | None, diagnostics) -> str:
    """:func:`relocated` for a mesh read at ``source`` (a ``Source``); a path that cannot be
    expressed from the output's folder (another drive) is kept, with a warning."""
    try:
        return relocated(uri, source.file, output_dir)
    except ValueError:
        diagnostics.warning_at(Code.MESH_URI_NOT_RELATIVE,
                               f"mesh [{uri}] cannot be given relative to the "
                               f"output's folder [{output_dir}]; written as it is", source)
        return uri
