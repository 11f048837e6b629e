"""Paths as text: whether one lies within another (:func:`is_within`, the one test of
every confinement: includes, copies, xacro reads, a mesh's companion files), and which
names may be one component of a path we write: the one rule that output folder names
taken from inputs (``urdf_sdf.cli.path_names``) and the places of copied files
(``core.write.bundle``) share.

A component is never empty, ``.`` or ``..``, and holds no path separator (``/``, ``\\``)
and no control character (NUL, ESC...): such a name could climb out of the folder it is
joined to, or forge a terminal line when shown.
"""
from __future__ import annotations

import os
import unicodedata

SEPARATORS = ("/", "\\")


def is_within(path: str, root: str) -> bool:
    """Whether the normalised path ``path`` is ``root`` or lies below it (text only: the
    caller resolves symlinks or ``..`` first, as its rule wants)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def component_problem(name: str) -> str | None:
    """Why ``name`` may not be a path component as it is, or None."""
    if name in ("", ".", ".."):
        return "is empty, '.' or '..'" if name else "is empty"
    if any(sep in name for sep in SEPARATORS):
        return "holds a path separator"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "holds a control character"
    return None


def without_unsafe_characters(name: str) -> str:
    """``name`` with each separator and control character replaced by ``_``."""
    return "".join("_" if c in SEPARATORS or unicodedata.category(c) == "Cc" else c
                   for c in name)
