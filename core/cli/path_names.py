"""Names taken from input files (a file's stem, a model's folder) that become path
components of an output: a batch's mirrored files, a model directory, a package.

A name that is empty, ``.`` or ``..``, holds ``/``, ``\\``, NUL or another control
character, or starts with ``-`` never becomes a path component as it is:
:func:`safe_name` gives it a safe form (each such character ``_``, a leading ``-`` or
``.`` run ``_``; nothing left: the fallback) and says so, and the caller warns
(NAME_RENAMED) and keeps the new names apart (:func:`unique_name`).
"""
from __future__ import annotations

import re
import unicodedata

SEPARATORS = ("/", "\\")


def unsafe_reason(name: str) -> str | None:
    """Why ``name`` may not be a path component as it is, or None."""
    if name in ("", ".", ".."):
        return "is empty, '.' or '..'" if name else "is empty"
    if any(sep in name for sep in SEPARATORS):
        return "holds a path separator"
    if any(unicodedata.category(c) == "Cc" for c in name):
        return "holds a control character"
    if name.startswith("-"):
        return "starts with '-'"
    return None


def safe_name(name: str, fallback: str) -> str:
    """``name`` as a safe path component (``name`` itself when it is one)."""
    if unsafe_reason(name) is None:
        return name
    cleaned = "".join("_" if c in SEPARATORS or unicodedata.category(c) == "Cc" else c
                      for c in name)
    cleaned = re.sub(r"^[-.]+", lambda m: "_" * len(m.group(0)), cleaned)
    return cleaned if cleaned.strip("_") else fallback


def unique_name(name: str, taken) -> str:
    """``name``, or ``name_2``, ``name_3``... the first not in ``taken``."""
    if name not in taken:
        return name
    stem, dot, suffix = name.partition(".") if not name.startswith(".") else (name, "", "")
    number = 2
    while f"{stem}_{number}{dot}{suffix}" in taken:
        number += 1
    return f"{stem}_{number}{dot}{suffix}"


def shown_name(name: str) -> str:
    """``name`` for a message: control characters escaped (``\\x1b``)."""
    return "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" and ord(c) < 256
                   else f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cc" else c
                   for c in name)
