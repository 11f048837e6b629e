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
from pathlib import Path

from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.path_components import component_problem, without_unsafe_characters
from urdf_sdf.core.base.safe_text import escape


def unsafe_reason(name: str) -> str | None:
    """Why ``name`` may not be a path component as it is, or None (the rule of
    :mod:`urdf_sdf.core.base.path_components`, and no leading ``-``: an option to a tool)."""
    problem = component_problem(name)
    if problem is None and name.startswith("-"):
        return "starts with '-'"
    return problem


def safe_name(name: str, fallback: str) -> str:
    """``name`` as a safe path component (``name`` itself when it is one)."""
    if unsafe_reason(name) is None:
        return name
    cleaned = re.sub(r"^[-.]+", lambda m: "_" * len(m.group(0)),
                     without_unsafe_characters(name))
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
    """``name`` for a message: control characters escaped (``\\x1b``,
    :func:`urdf_sdf.core.base.safe_text.escape`)."""
    return escape(name)


def safe_path(path: Path, fallback: str) -> Path:
    """``path`` (relative) with each component made safe (:func:`safe_name`)."""
    parts = [safe_name(part, fallback) for part in path.parts]
    return Path(*parts) if parts != list(path.parts) else path


def safe_outputs(items, fallback: str = "robot") -> None:
    """Give each batch item (``item.output``, a relative path) whose output holds an
    unsafe component a safe one, apart from every other output; one unsafe output always
    gets one new name (so that ``robot.urdf`` beside ``robot.urdf.xacro`` still meet)."""
    natural = {item.output for item in items if safe_path(item.output, fallback) == item.output}
    renamed: dict[Path, Path] = {}
    for item in items:
        if item.output in natural:
            continue
        if item.output not in renamed:
            new = safe_path(item.output, fallback)
            name = unique_name(new.name, {p.name for p in (*natural, *renamed.values())
                                          if p.parent == new.parent})
            renamed[item.output] = new.with_name(name)
        item.output = renamed[item.output]


def renamed_output(item, written: Path | None = None) -> list[Diagnostic]:
    """A NAME_RENAMED warning when :func:`safe_outputs` renamed ``item``'s output
    (written as ``written``, by default ``item.output``)."""
    unsafe = [(part, unsafe_reason(part)) for part in item.relative.parts
              if unsafe_reason(part) is not None]
    if not unsafe:
        return []
    part, problem = unsafe[0]
    return [Diagnostic(Code.NAME_RENAMED, Severity.WARNING,
                       f"the name [{shown_name(part)}] {problem}: the output is written as "
                       f"[{shown_name((written or item.output).as_posix())}]",
                       str(item.source))]
