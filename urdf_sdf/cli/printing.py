"""The composed model as one self-contained SDFormat document (``urdf-sdf print``).

:func:`compose_xml` reads a file with the hardened parser and replaces every
``<include>`` of its models and worlds, recursively, by the ``<model>`` the include
names, with the include's overrides applied as ``core.compose`` applies them:

* ``<name>`` renames the model; ``<pose>`` replaces the model's pose, attributes
  and all (its ``relative_to`` is evaluated in the enclosing scope, which is
  where the inlined model now sits); ``<static>`` replaces ``//model/static``;
  ``<placement_frame>`` becomes ``//model/@placement_frame`` (SDFormat 1.8);
* ``<frame>``, ``<joint>`` and ``<plugin>`` children of the include are appended to
  the model (their names resolve in the included model's scope).

An included URDF is converted with ``urdf2sdf`` (``relative`` poses, which copy the
URDF's numbers) and its model inlined. ``<include merge="true">`` (SDFormat 1.9) is
a different rule and is printed as written: merge includes are expanded by the core
(``core.compose``) when the printed file is read. An include that a custom model
parser may claim (``Context.model_parsers``, a file that is not ``.sdf``/``.world``)
is kept too: such a model has no SDFormat text to inline. A kept include that
comes from an included file gets an absolute URI, since its file no longer sits
beside it.

Versions: the printed document keeps the including file's version. Content of an
older version is rewritten so that it means the same under the newer rules
(``//pose/@frame`` becomes ``@relative_to``, a ``use_parent_model_frame`` or 1.4
axis becomes ``xyz/@expressed_in="__model__"``, a joint or frame named like a
sibling of another kind is renamed as the legacy rules do), with a warning that
lists what changed. A 1.4 file cannot hold a newer model's axes (1.4 expresses
every axis in the model frame), so a 1.4 file that includes a newer one is itself
rewritten and printed with the newest version it includes, with a warning.

With ``preserve_includes`` nothing is inlined and no version rule applies: the
file is printed as read. Problems (a URI that names nothing, an include cycle, an
included file that is malformed) are diagnostics at the include's file:line,
never exceptions.
"""
from __future__ import annotations

import copy
import gc
import os
from dataclasses import dataclass, replace
from pathlib import Path

from lxml import etree

from urdf_sdf.core.compose.rules import (ADDED_CHILDREN, OVERRIDES, TOP_LEVEL,
                                         claimed_by_custom_parsers, is_merge)
from urdf_sdf.core.compose.uri import resolve_uri, shown
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.legacy import unflatten
from urdf_sdf.core.read.sdf import ReadState, child, child_text
from urdf_sdf.core.read.version import (Version, parse_version, sdf_root_version, supported_version,
                                        version_text)
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes
from urdf_sdf.core.write.common import declare_undeclared_prefixes, to_bytes
from urdf_sdf.core.write.stream import serialise_spent
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf
from urdf_sdf.urdf2sdf.convert import SUPPORTED_VERSIONS

AXES = ("axis", "axis2")
# Registration order of a scope's names (core.graph.build), which decides who is renamed.
MODEL_ORDER = ("model", "link", "joint", "frame")
WORLD_ORDER = ("model", "frame", "joint")
MODERN = (1, 7)      # //pose/@relative_to, xyz/@expressed_in, unique sibling names
AXIS_FRAME = (1, 5)  # 1.4 expresses every axis in the model frame
UNFLATTEN = (1, 8)   # 1.7 world models may be flattened (prefix::name)


def compose_xml(path: str | Path, context: Context, diagnostics: Diagnostics,
                preserve_includes: bool = False):
    """The lxml ``<sdf>`` root of ``path`` with its includes inlined, or None when the
    file cannot be read at all (the reason is in ``diagnostics``)."""
    file = str(path)
    data = read_bytes(file, diagnostics)
    root = parse_xml(data, file, diagnostics) if data is not None else None
    if root is None:
        return None
    if root.tag == "robot":
        converted = _convert_urdf(file, None, diagnostics)
        return None if converted is None else converted[0]
    version = _check_sdf_root(root, file, diagnostics)
    if version is None or preserve_includes:
        return root if version is not None else None
    flattener = _Flattener(context, diagnostics, os.path.realpath(file))
    printed = flattener.flatten(root, file, version, ())
    if printed != version:
        root.set("version", version_text(printed))
    _namespaces_to_root(root)
    return root


def print_document(path: str | Path, context: Context,
                   preserve_includes: bool = False) -> tuple[bytes | None, Diagnostics]:
    """``urdf-sdf print``: the composed document as bytes (None when the input is
    invalid) and every diagnostic. The file is also loaded by the core, so that what
    is printed has been validated the way ``urdf-sdf check`` validates."""
    # Loaded first, without its XML, and only its findings kept: the loaded model is gone
    # before the printed tree is made (its frame graph has cycles: collected now).
    loaded = load(path, replace(context, keep_xml=False)).diagnostics
    gc.collect()
    found = Diagnostics()
    if any(d.code is Code.INCLUDE_TOO_LARGE for d in loaded):  # an include bomb: not again
        return None, context.policy.apply(loaded)
    root = compose_xml(path, context, found, preserve_includes)
    diagnostics = Diagnostics()
    _extend_unique(diagnostics, found)
    _extend_unique(diagnostics, loaded)
    diagnostics = context.policy.apply(diagnostics)
    if root is None or diagnostics.has_errors:
        return None, diagnostics
    declare_undeclared_prefixes(root, str(path), diagnostics)
    if preserve_includes:  # printed as read: namespace declarations may repeat anywhere
        return to_bytes(root), diagnostics
    return serialise_spent(root, to_bytes), diagnostics


def _namespaces_to_root(root) -> None:
    """Declare the namespaces of inlined content (``urdf:`` from a converted URDF, a
    plugin's own) once, on ``<sdf>``, instead of on every inlined model."""
    nsmap: dict[str, str] = {}
    for el in root.iter():
        for prefix, uri in el.nsmap.items():
            if prefix is not None:
                nsmap.setdefault(prefix, uri)
    etree.cleanup_namespaces(root, top_nsmap=nsmap)


def _extend_unique(diagnostics: Diagnostics, more) -> None:
    """Add the findings of ``more`` that are not already there: the core and the
    flattener both check includes, and one problem is reported once."""
    seen = {(d.code, d.file, d.line) for d in diagnostics}
    for diagnostic in more:
        key = (diagnostic.code, diagnostic.file, diagnostic.line)
        if key not in seen:
            seen.add(key)
            diagnostics.append(diagnostic)


def _check_sdf_root(root, file: str, diagnostics: Diagnostics) -> Version | None:
    """The version of a printable ``<sdf>`` root: the core's check, and none for a version
    this reader does not support (print writes nothing it has not understood)."""
    version = sdf_root_version(root, file, diagnostics)
    if version is None or supported_version(root.get("version")) is None:
        return None
    return version


def _convert_urdf(path: str, version: Version | None, diagnostics: Diagnostics):
    """``(sdf root, version)`` of a URDF converted with relative poses (written for
    ``version`` when the converter can), or None; its findings join ``diagnostics``."""
    wanted = version_text(version) if version is not None and version >= MODERN else None
    if wanted not in SUPPORTED_VERSIONS:
        wanted = None
    conversion = convert_urdf(load(path, Context()), ToSdf(relative=True, sdf_version=wanted))
    diagnostics.extend(conversion.diagnostics)
    if not conversion.ok:
        return None
    root = parse_xml(conversion.xml, path, diagnostics)
    return None if root is None else (root, parse_version(conversion.version))


@dataclass
class _Inline:
    """One include about to be replaced: the element, what replaces it, its version."""
    include: object
    element: object
    version: Version
    file: str


@dataclass
class _Flattener:
    context: Context
    diagnostics: Diagnostics
    top: str  # realpath of the printed file: its kept includes stay as written

    def flatten(self, root, file: str, version: Version, stack: tuple[str, ...]) -> Version:
        """Inline the includes of ``root`` (read from ``file``); return the version its
        content is now written for."""
        state = ReadState(file, version, self.diagnostics, self.context, stack)
        inlines: list[_Inline] = []
        for include in list(_own_includes(root)):
            if is_merge(include):
                self._keep(include, file)
                continue
            found = self._include(include, state)
            if found is not None:
                inlines.append(found)
        printed = output_version(version, [i.version for i in inlines])
        names = {i.include: i.element.get("name") for i in inlines}
        notes = convert(root, version, printed, names)
        if notes:
            self.warn(f"SDFormat {version_text(version)} cannot hold the content of version "
                      f"{version_text(printed)} that it includes; rewritten as "
                      f"{version_text(printed)}: " + "; ".join(notes), file, root)
        for inline in inlines:
            self._replace(inline, printed, state)
        return printed

    def warn(self, message: str, file: str, el) -> None:
        self.diagnostics.warning_at(Code.WARNING, message, source_of(el, file))

    def _include(self, include, state: ReadState) -> _Inline | None:
        uri = child_text(include, "uri")
        if not uri:
            state.error(Code.ATTRIBUTE_MISSING, "<include> has no <uri>", include)
            return None
        path = resolve_uri(uri, state, include)
        if path is None:
            return None
        key = os.path.realpath(path)
        if key in state.include_stack or os.path.realpath(state.file) == key:
            state.error(Code.INCLUDE_CYCLE, f"<include> of [{shown(uri)}] includes a file that is "
                        "already being included (include cycle)", include)
            return None
        if len(state.include_stack) >= self.context.max_include_depth:
            state.error(Code.INCLUDE_CYCLE, f"<include> of [{shown(uri)}] nests includes more than "
                        f"{self.context.max_include_depth} deep", include)
            return None
        if claimed_by_custom_parsers(path, self.context):
            self.warn(f"<include> of [{shown(uri)}] is kept: a custom model parser may read "
                      "it, and "
                      "its model has no SDFormat text to inline", state.file, include)
            self._keep(include, state.file)
            return None
        stack = state.include_stack + (os.path.realpath(state.file),)
        return self._read(path, include, state, stack)

    def _read(self, path: str, include, state: ReadState, stack) -> _Inline | None:
        """The flattened top-level element of the included file (an SDFormat file's
        model, a URDF's converted model), or None with a diagnostic at the include."""
        data = read_bytes(path, self.diagnostics)
        root = parse_xml(data, path, self.diagnostics) if data is not None else None
        if root is None:
            state.error(Code.FILE_READ, f"included file [{path}] cannot be read", include)
            return None
        if root.tag == "sdf":
            return self._read_sdf(root, path, include, state, stack)
        if root.tag != "robot":
            state.error(Code.FILE_READ, f"included file [{path}] is neither SDFormat nor URDF "
                        f"(root element <{root.tag}>)", include)
            return None
        converted = _convert_urdf(path, state.version, self.diagnostics)
        if converted is None:
            state.error(Code.FILE_READ, f"included URDF [{path}] cannot be converted to "
                        "SDFormat", include)
            return None
        return _Inline(include, child(converted[0], "model"), converted[1], path)

    def _read_sdf(self, root, path: str, include, state: ReadState, stack) -> _Inline | None:
        version = supported_version(root.get("version"))
        if version is None:
            state.error(Code.VERSION_UNSUPPORTED, f"included file [{path}] has SDFormat version "
                        f"{root.get('version')!r}, which this reader cannot read", include)
            return None
        printed = self.flatten(root, path, version, stack)
        tops = [c for c in root if c.tag in TOP_LEVEL]
        models = [c for c in tops if c.tag == "model"]
        for other in tops[1:]:
            state.error(Code.ELEMENT_INCORRECT_TYPE, f"included file [{path}] has another "
                        f"top-level element <{other.tag}> besides its first", include)
        if not tops:
            state.error(Code.ELEMENT_MISSING, f"included file [{path}] has no top-level <model>",
                        include)
            return None
        return _Inline(include, (models or tops)[0], printed, path)

    def _replace(self, inline: _Inline, printed: Version, state: ReadState) -> None:
        notes = convert(inline.element, inline.version, printed, {})
        if notes:
            self.warn(f"included file [{inline.file}] is SDFormat {version_text(inline.version)};"
                      f" rewritten for {version_text(printed)}: " + "; ".join(notes),
                      state.file, inline.include)
        self._apply_overrides(inline.element, inline.include, state)
        inline.element.tail = inline.include.tail
        inline.include.getparent().replace(inline.include, inline.element)

    def _apply_overrides(self, element, include, state: ReadState) -> None:
        """What ``core.compose.apply_overrides`` and ``add_include_children`` do to the
        model, done to its XML."""
        name = child_text(include, "name")
        if name:
            element.set("name", name)
        pose = child(include, "pose")
        placement = child_text(include, "placement_frame")
        if placement:
            if pose is None:
                state.error(Code.MODEL_PLACEMENT_FRAME_INVALID, "<include> with "
                            f"<placement_frame> [{placement}] must also give a <pose>", include)
            element.set("placement_frame", placement)
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
                self.warn(f"<include> child <{c.tag}> has no place in the inlined "
                          f"<{element.tag}>; left out", state.file, c)

    def _keep(self, include, file: str) -> None:
        """A kept include from an included file: make a relative URI absolute."""
        uri_el = child(include, "uri")
        if os.path.realpath(file) == self.top or uri_el is None:
            return
        uri = (uri_el.text or "").strip()
        prefix = "file://" if uri.startswith("file://") else ""
        raw = uri[len(prefix):]
        if "://" in raw or not raw or os.path.isabs(raw):
            return
        candidate = Path(file).parent / raw
        if candidate.exists():
            uri_el.text = prefix + str(candidate.resolve())


def _own_includes(el):
    """The ``<include>`` elements of ``el``'s models and worlds, nested models too, and
    under ``<sdf>`` the first include when there is no model or world (it then stands
    for the document's model, as ``core.sdf_reader`` reads it)."""
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


def output_version(version: Version, included: list[Version]) -> Version:
    """The version a file's content is printed for: its own, except that a 1.4 file
    including newer models takes the newest (1.4 cannot express their axes)."""
    newer = [v for v in included if v >= AXIS_FRAME]
    if version < AXIS_FRAME and newer:
        return max(newer)
    return version


# ---- version rewriting ----------------------------------------------------------------

def convert(el, source: Version, target: Version, include_names: dict) -> list[str]:
    """Rewrite ``el``'s content, written for ``source``, so that it means the same when
    read as ``target``; return what changed (empty when nothing did).

    ``include_names`` gives the model name each not-yet-inlined ``<include>`` of
    ``el`` will bring, since those names take part in the legacy renaming rule."""
    notes: list[str] = []
    if source < AXIS_FRAME <= target:
        count = _axes_in_model_frame(el, target)
        if count:
            notes.append(f"{count} axis (1.4: in the model frame) now "
                         + ("xyz/@expressed_in='__model__'" if target >= MODERN
                            else "use_parent_model_frame=true"))
    if source < MODERN <= target:
        count = _pose_frame_to_relative_to(el)
        if count:
            notes.append(f"{count} //pose/@frame now @relative_to")
        count = _use_parent_model_frame(el)
        if count:
            notes.append(f"{count} use_parent_model_frame now xyz/@expressed_in='__model__'")
        notes.extend(_rename_collisions(el, include_names))
    if source >= MODERN > target:
        count = _strip_legacy(el)
        if count:
            notes.append(f"{count} //pose/@frame or use_parent_model_frame removed (ignored "
                         f"in {version_text(source)}, meaningful in {version_text(target)})")
    if source < UNFLATTEN <= target and el.tag == "sdf":
        for world in el.findall("world"):
            for model in world.findall("model"):
                unflatten(model)
    return notes


def _descendants(el, tag: str):
    """Elements ``tag`` under ``el``, not looking into plugins (their content is the
    plugin's own, not SDFormat's)."""
    for c in el:
        if not isinstance(c.tag, str) or c.tag == "plugin":
            continue
        if c.tag == tag:
            yield c
        yield from _descendants(c, tag)


def _joint_axes(el):
    for joint in _descendants(el, "joint"):
        for axis in joint:
            if axis.tag in AXES:
                yield axis


def _set_expressed_in_model(axis) -> None:
    xyz = child(axis, "xyz")
    if xyz is None:
        xyz = axis.makeelement("xyz", {})
        xyz.text = "0 0 1"  # SDFormat's default axis
        axis.insert(0, xyz)
    xyz.set("expressed_in", "__model__")


def _remove_children(el, tag: str) -> int:
    found = [c for c in el if c.tag == tag]
    for c in found:
        el.remove(c)
    return len(found)


def _axes_in_model_frame(el, target: Version) -> int:
    """SDFormat 1.4 expresses every joint axis in the model frame."""
    count = 0
    for axis in _joint_axes(el):
        _remove_children(axis, "use_parent_model_frame")
        if target >= MODERN:
            _set_expressed_in_model(axis)
        else:
            flag = axis.makeelement("use_parent_model_frame", {})
            flag.text = "true"
            axis.append(flag)
        count += 1
    return count


def _pose_frame_to_relative_to(el) -> int:
    count = 0
    for pose in _descendants(el, "pose"):
        frame = pose.attrib.pop("frame", None)
        if frame is None:
            continue
        count += 1
        if frame.strip() and pose.get("relative_to") is None:
            pose.set("relative_to", frame.strip())
    return count


def _use_parent_model_frame(el) -> int:
    """1.5 and 1.6: ``use_parent_model_frame`` true expresses the axis in the model frame."""
    count = 0
    for axis in _joint_axes(el):
        flag = child(axis, "use_parent_model_frame")
        if flag is None:
            continue
        if (flag.text or "").strip().lower() in ("true", "1"):
            _set_expressed_in_model(axis)
        _remove_children(axis, "use_parent_model_frame")
        count += 1
    return count


def _strip_legacy(el) -> int:
    """Newer content in an older document: drop what the older rules would read."""
    count = sum(_remove_children(axis, "use_parent_model_frame") for axis in _joint_axes(el))
    for pose in _descendants(el, "pose"):
        if pose.attrib.pop("frame", None) is not None:
            count += 1
    return count


def _rename_collisions(el, include_names: dict) -> list[str]:
    """Before 1.7 a joint or frame could share a sibling's name; the core renames it
    (``NAME_joint``, ``NAME_frame``, in its registration order). Do it in the text."""
    notes: list[str] = []
    for scope in _scopes(el):
        order = WORLD_ORDER if scope.tag == "world" else MODEL_ORDER
        names: dict[str, str] = {}
        for kind in order:
            for c in scope:
                name = _entity_name(c, kind, include_names)
                if name is None:
                    continue
                if name not in names:
                    names[name] = kind
                elif names[name] != kind and kind in ("joint", "frame"):
                    new = _free_name(name, "_" + kind, names)
                    c.set("name", new)
                    names[new] = kind
                    notes.append(f"{kind} [{name}] renamed [{new}] (named like a sibling "
                                 f"{names[name]})")
    return notes


def _scopes(el):
    """``el`` and every model or world under it that is a name scope."""
    if el.tag in ("model", "world"):
        yield el
    for c in el:
        if c.tag in ("model", "world"):
            yield from _scopes(c)


def _entity_name(c, kind: str, include_names: dict) -> str | None:
    if kind == "model" and c.tag == "include":
        return None if is_merge(c) else child_text(c, "name") or include_names.get(c)
    return c.get("name") if c.tag == kind else None


def _free_name(name: str, suffix: str, names: dict) -> str:
    new, i = name + suffix, 0
    while new in names:
        new, i = f"{name}{suffix}{i}", i + 1
    return new
