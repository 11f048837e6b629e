"""The rules of ``//include`` that composition and ``urdf-sdf print`` both follow."""
from __future__ import annotations

SDF_SUFFIXES = (".sdf", ".world")
# What an included SDFormat file may hold at its top level (one of them).
TOP_LEVEL = ("model", "actor", "light")
# Children of <include> that override the included model, and those that join it.
OVERRIDES = ("uri", "name", "pose", "static", "placement_frame")
ADDED_CHILDREN = ("frame", "joint", "plugin")
STANDARD_INCLUDE_CHILDREN = frozenset(OVERRIDES + ADDED_CHILDREN)


def is_merge(include) -> bool:
    """``<include merge="true">`` (SDFormat 1.9): the content joins the enclosing scope."""
    return (include.get("merge") or "").strip().lower() in ("true", "1")


def claimed_by_custom_parsers(path: str, context) -> bool:
    """Custom model parsers (``Context.model_parsers``) are asked first for any included
    file but ``.sdf``/``.world`` files."""
    return bool(context.model_parsers) and not path.endswith(SDF_SUFFIXES)
