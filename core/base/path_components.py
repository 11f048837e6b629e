"""Paths as text: whether one lies within another (:func:`is_within`, the one test of
every confinement: includes, copies, xacro reads, a mesh's companion files), the input's
own package or model directory (:func:`own_directory`, the root both the includes a
file may read and the files a model directory may copy start from), and which
names may be one component of a path we write: the one rule that output folder names
taken from inputs (``urdf_sdf.cli.path_names``) and the places of copied files
(``core.write.bundle``) share.

A component is never empty, ``.`` or ``..``, and holds no path separator (``/``, ``\\``),
no control character (NUL, ESC...) and no byte that is not UTF-8 (a lone surrogate, as
``os.fsdecode`` gives it): such a name could climb out of the folder it is joined to,
forge a terminal line when shown, or not be written at all where the name becomes text
(a ``model://NAME`` URI, ``model.config``, a JSON report).
"""
from __future__ import annotations

import os
import unicodedata
from pathlib import Path

SEPARATORS = ("/", "\\")
# Files that make a folder a package or model directory: the input's own root.
ROOT_MARKERS = ("package.xml", "model.config")
MARKER_SEARCH_DEPTH = 6  # folders above the input searched for a root marker


def is_within(path: str, root: str) -> bool:
    """Whether the normalised path ``path`` is ``root`` or lies below it (text only: the
    caller resolves symlinks or ``..`` first, as its rule wants)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def own_directory(input_file: str | None) -> str | None:
    """The real path of the package or model directory holding ``input_file`` (the
    nearest folder above it with a package.xml or model.config, within
    MARKER_SEARCH_DEPTH), else the input's folder; None for standard input."""
    if input_file in (None, "", "-", "<stdin>", "<input>"):
        return None
    folder = Path(os.path.realpath(input_file)).parent
    for candidate in [folder, *folder.parents][:MARKER_SEARCH_DEPTH]:
        if any(os.path.isfile(candidate / marker) for marker in ROOT_MARKERS):
            return str(candidate)
    return str(folder)


def component_problem(name: str) -> str | None:
    """Why ``name`` may not be a path component as it is, or None."""
    if name in ("", ".", ".."):
        return "is empty, '.' or '..'" if name else "is empty"
    if any(sep in name for sep in SEPARATORS):
        return "holds a path separator"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "holds a control character"
    if any(unicodedata.category(c) == "Cs" for c in name):
        return "is not UTF-8 text"
    return None


# Characters never kept in a component: controls (Cc) and undecodable bytes (Cs).
_UNSAFE_CATEGORIES = ("Cc", "Cs")


def without_unsafe_characters(name: str) -> str:
    """``name`` with each separator, control character and byte that is not UTF-8
    replaced by ``_``."""
    return "".join("_" if c in SEPARATORS or unicodedata.category(c) in _UNSAFE_CATEGORIES
                   else c for c in name)
