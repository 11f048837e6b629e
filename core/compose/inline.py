"""Composition as XML: a document with every ``<include>`` replaced by the model it names
(``urdf-sdf print``).

:func:`inline_includes` reads a file with the hardened parser and replaces every
``<include>`` of its models and worlds, recursively, by the ``<model>`` the include
names. Each include is found, refused and opened as the model composition does it
(``core.compose.included``: URI confinement, cycles, depth, the budget of included
documents and elements, the same messages). The include's overrides are applied as
``core.compose.include`` applies them to the model:

* ``<name>`` renames the model; ``<pose>`` replaces the model's pose, attributes
  and all (its ``relative_to`` is evaluated in the enclosing scope, which is
  where the inlined model now sits); ``<static>`` replaces ``//model/static``;
  ``<placement_frame>`` becomes ``//model/@placement_frame`` (SDFormat 1.8);
* ``<frame>``, ``<joint>`` and ``<plugin>`` children of the include are appended to
  the model (their names resolve in the included model's scope).

An included URDF is converted to SDFormat by the ``UrdfToSdf`` function the caller
passes (the library imports no converter) and its model inlined. ``<include
merge="true">`` (SDFormat 1.9) is a different rule and is kept as written: merge
includes are expanded by the model composition when the printed file is read. An
include that a custom model parser may claim (``Context.model_parsers``, a file that is
not ``.sdf``/``.world``) is kept too: such a model has no SDFormat text to inline. A
kept include that comes from an included file gets an absolute URI, since its file no
longer sits beside it.

Versions (``core.read.version``): the document keeps the including file's version.
Content of an older version is rewritten so that it means the same under the newer
rules, with a warning that lists what changed. A 1.4 file cannot hold a newer model's
axes, so a 1.4 file that includes a newer one is itself rewritten and printed with the
newest version it includes, with a warning.

With ``preserve_includes`` nothing is inlined and no version rule applies: the file is
returned as read. Problems are diagnostics at the include's file:line, never
exceptions.
"""
from __future__ import annotations

import copy
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.compose.budget import IncludeBudget
from urdf_sdf.core.compose.included import (
    Located,
    included_version,
    locate_include,
    no_top_level_model,
    open_included,
    placement_frame,
    report_included,
    top_level_elements,
)
from urdf_sdf.core.compose.rules import (
    ADDED_CHILDREN,
    OVERRIDES,
    claimed_by_custom_parsers,
    is_merge,
)
from urdf_sdf.core.compose.uri import shown
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_state import ReadState, child, child_text
from urdf_sdf.core.read.version import (
    Version,
    printed_version,
    rewrite,
    sdf_root_version,
    supported_version,
    version_text,
)
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes

# Converts the URDF file ``path`` to SDFormat, written for the version given when it can
# (None: the converter's choice): ``(sdf root, its version)``, or None with the reason
# in the diagnostics.
UrdfToSdf = Callable[[str, "Version | None", Diagnostics], "tuple[Any, Version] | None"]


def inline_includes(path: str | Path, context: Context, diagnostics: Diagnostics,
                    urdf_to_sdf: UrdfToSdf, preserve_includes: bool = False):
    """The lxml ``<sdf>`` root of ``path`` with its includes inlined (a URDF file:
    converted), or None when the file cannot be read at all (the reason is in
    ``diagnostics``)."""
    file = str(path)
    data = read_bytes(file, diagnostics)
    root = parse_xml(data, file, diagnostics) if data is not None else None
    if root is None:
        return None
    if root.tag == "robot":
        converted = urdf_to_sdf(file, None, diagnostics)
        return None if converted is None else converted[0]
    version = _printable_version(root, file, diagnostics)
    if version is None or preserve_includes:
        return root if version is not None else None
    inliner = _Inliner(context, diagnostics, urdf_to_sdf, os.path.realpath(file))
    printed = inliner.inline(root, file, version, ())
    if printed != version:
        root.set("version", version_text(printed))
    _namespaces_to_root(root)
    return root


def _printable_version(root, file: str, diagnostics: Diagnostics) -> Version | None:
    """The version of a printable ``<sdf>`` root: the reader's check, and none for a
    version this reader does not support (nothing is printed that was not understood)."""
    version = sdf_root_version(root, file, diagnostics)
    if version is None or supported_version(root.get("version")) is None:
        return None
    return version


def _namespaces_to_root(root) -> None:
    """Declare the namespaces of inlined content (``urdf:`` from a converted URDF, a
    plugin's own) once, on ``<sdf>``, instead of on every inlined model."""
    nsmap: dict[str, str] = {}
    for el in root.iter():
        for prefix, uri in el.nsmap.items():
            if prefix is not None:
                nsmap.setdefault(prefix, uri)
    etree.cleanup_namespaces(root, top_nsmap=nsmap)


@dataclass
class _Inline:
    """One include about to be replaced: the element, what replaces it, its version."""
    include: Any
    element: Any
    version: Version
    file: str


@dataclass
class _Inliner:
    context: Context
    diagnostics: Diagnostics
    urdf_to_sdf: UrdfToSdf
    top: str  # realpath of the printed file: its kept includes stay as written
    # What the includes have brought so far, shared by every file's read state.
    budget: IncludeBudget = field(default_factory=IncludeBudget)

    def inline(self, root, file: str, version: Version, stack: tuple[str, ...]) -> Version:
        """Inline the includes of ``root`` (read from ``file``); return the version its
        content is now written for."""
        state = ReadState(file, version, self.diagnostics, self.context, stack,
                          include_budget=self.budget)
        inlines: list[_Inline] = []
        for include in list(_own_includes(root)):
            if is_merge(include):
                self._keep(include, file)
                continue
            found = self._include(include, state)
            if found is not None:
                inlines.append(found)
        printed = printed_version(version, [i.version for i in inlines])
        inlined = {i.include: i.element.get("name") for i in inlines}
        notes = rewrite(root, version, printed, lambda include: _include_name(include, inlined))
        if notes:
            self.warn(Code.VERSION_REWRITTEN,
                      f"SDFormat {version_text(version)} cannot hold the content of version "
                      f"{version_text(printed)} that it includes; rewritten as "
                      f"{version_text(printed)}: " + "; ".join(notes), file, root)
        for inline in inlines:
            self._replace(inline, printed, state)
        return printed

    def warn(self, code: Code, message: str, file: str | None, el) -> None:
        self.diagnostics.warning_at(code, message, source_of(el, file))

    def _include(self, include, state: ReadState) -> _Inline | None:
        located = locate_include(include, state)
        if located is None:
            return None
        if claimed_by_custom_parsers(located.path, self.context):
            self.warn(Code.INCLUDE_KEPT,
                      f"<include> of [{shown(located.uri)}] is kept: a custom model parser "
                      "may read it, and its model has no SDFormat text to inline",
                      state.file, include)
            self._keep(include, state.file)
            return None
        sub = Diagnostics()
        root = open_included(located, include, state, sub)
        report_included(located, include, state, sub)
        if root is None:
            return None
        if root.tag == "sdf":
            return self._read_sdf(root, located, include, state)
        return self._read_urdf(located, include, state)

    def _read_urdf(self, located: Located, include, state: ReadState) -> _Inline | None:
        """The model of an included URDF, converted for the including file's version."""
        converted = self.urdf_to_sdf(located.path, state.version, self.diagnostics)
        if converted is None:
            state.error(Code.FILE_READ, f"included URDF [{located.path}] cannot be converted "
                        "to SDFormat", include)
            return None
        return _Inline(include, child(converted[0], "model"), converted[1], located.path)

    def _read_sdf(self, root, located: Located, include, state: ReadState) -> _Inline | None:
        """The top-level element of an included SDFormat file, its own includes inlined."""
        path = located.path
        version = included_version(root, path, include, state)
        if version is None:
            return None
        printed = self.inline(root, path, version, located.stack)
        tops = top_level_elements(root, path, include, state)
        if not tops:
            no_top_level_model(path, include, state)
            return None
        models = [c for c in tops if c.tag == "model"]
        return _Inline(include, (models or tops)[0], printed, path)

    def _replace(self, inline: _Inline, printed: Version, state: ReadState) -> None:
        notes = rewrite(inline.element, inline.version, printed,
                        lambda include: _include_name(include, {}))
        if notes:
            self.warn(Code.VERSION_REWRITTEN,
                      f"included file [{inline.file}] is SDFormat "
                      f"{version_text(inline.version)}; rewritten for {version_text(printed)}: "
                      + "; ".join(notes),
                      state.file, inline.include)
        self._apply_overrides(inline.element, inline.include, state)
        inline.element.tail = inline.include.tail
        inline.include.getparent().replace(inline.include, inline.element)

    def _apply_overrides(self, element, include, state: ReadState) -> None:
        """What ``core.compose.include.apply_overrides`` and ``add_include_children`` do
        to the model, done to its XML."""
        name = child_text(include, "name")
        if name:
            element.set("name", name)
        placement = placement_frame(include, state)
        if placement:
            element.set("placement_frame", placement)
        pose = child(include, "pose")
        if pose is not None:
            _set_child(element, copy.deepcopy(pose))
        static = child(include, "static")
        if static is not None:
            _set_child(element, copy.deepcopy(static))
        for c in list(include):
            if not isinstance(c.tag, str) or c.tag in OVERRIDES:
                continue
            if c.tag in ADDED_CHILDREN and element.tag == "model":
                element.append(c)
            else:
                self.warn(Code.INCLUDE_CHILD_DROPPED,
                          f"<include> child <{tag_of(c)}> has no place in the inlined "
                          f"<{tag_of(element)}>; left out", state.file, c)

    def _keep(self, include, file: str | None) -> None:
        """A kept include from an included file: make a relative URI absolute."""
        uri_el = child(include, "uri")
        if file is None or os.path.realpath(file) == self.top or uri_el is None:
            return
        uri = (uri_el.text or "").strip()
        prefix = "file://" if uri.startswith("file://") else ""
        raw = uri[len(prefix):]
        if "://" in raw or not raw or os.path.isabs(raw):
            return
        candidate = Path(file).parent / raw
        if candidate.exists():
            uri_el.text = prefix + str(candidate.resolve())


def _include_name(include, inlined: dict) -> str | None:
    """The model name ``include`` brings into its scope: its ``<name>``, else the name of
    the model it inlines (``inlined``: include -> model name); none for a merge include,
    whose content joins the scope instead."""
    if is_merge(include):
        return None
    return child_text(include, "name") or inlined.get(include)


def _own_includes(el):
    """The ``<include>`` elements of ``el``'s models and worlds, nested models too, and
    under ``<sdf>`` the first include when there is no model or world (it then stands
    for the document's model, as ``core.read.sdf`` reads it)."""
    if el.tag == "sdf":
        scopes = [c for c in el if c.tag in ("model", "world")]
        first = child(el, "include")
        if not scopes and first is not None:
            yield first
        for scope in scopes:
            yield from _own_includes(scope)
        return
    for c in el:
        if c.tag == "include":
            yield c
        elif c.tag == "model":
            yield from _own_includes(c)


def _set_child(element, new) -> None:
    """Replace ``element``'s child of the same tag with ``new`` (or add it first)."""
    old = child(element, new.tag)
    new.tail = None
    if old is not None:
        new.tail = old.tail
        element.replace(old, new)
    else:
        element.insert(0, new)
