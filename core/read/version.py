"""SDFormat versions, in one place: which ones this project reads and writes, what changed
between them, and how content written for one version is rewritten to mean the same in
another.

Versions 1.0 to 1.12 are read (:data:`NEWEST_VERSION`; 1.0 to 1.3 with the 1.4 rules, as
libsdformat converts them) and 1.4 to 1.12 written (:data:`WRITTEN_VERSIONS`). What
changed, each constant naming the first version with the newer rule:

* :data:`AXIS_FRAMES` (1.5): up to 1.4 every joint axis is expressed in the model frame,
  a link may be named ``world``, a joint's child may be the world, and a model may have
  no link;
* :data:`PER_AXIS_IMU_NOISE`, :data:`AXIS_SPRINGS`, :data:`MODEL_SELF_COLLIDE` (1.5): the
  IMU's noise per axis, ``//axis/dynamics/spring_*``, ``//model/self_collide``; and
  ``//joint/physics/ode/provide_feedback`` deprecated (:data:`ODE_FEEDBACK_DEPRECATED`);
* :data:`FRAME_SEMANTICS` (1.7): ``//pose/@relative_to``, ``xyz/@expressed_in``,
  ``//frame/@attached_to`` and unique sibling names; before, ``//pose/@frame`` meant
  ``relative_to``, ``use_parent_model_frame`` true meant ``expressed_in="__model__"``,
  and a joint or frame named like a sibling of another kind was renamed
  (:func:`legacy_name`);
* :data:`NESTED_WORLD_MODELS` (1.8): before, a world's models may be flattened
  (``prefix::name`` entities), which :func:`unflatten` turns back into nested models;
* :data:`AXIS_MIMIC` (1.11): ``//joint/axis/mimic``;
* 1.12 changes only a world's ``<state>`` (its elements renamed ``model_state``,
  ``link_state``, ``joint_state``, ``light_state``; velocities, accelerations and wrenches
  split into linear and angular): nothing this project reads (``<state>`` is not read in
  any version) or writes, so a 1.12 file is read by the 1.11 rules and a model written
  for 1.12 is the 1.11 one under another version number.

The reader (``core.read.sdf``, ``core.read.sdf_elements``) applies these rules as it reads,
so that later phases see one semantics; the graph (``core.graph.build``,
``core.graph.validate``) applies the naming and 1.4 rules; XML composition
(``core.compose.inline``, behind ``urdf-sdf print``) rewrites the text of one version's
content for another (:func:`rewrite`, :func:`printed_version`); ``urdf2sdf`` writes
:data:`PLAIN_WRITTEN` unless the model needs a later rule.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.base.model import MODEL_FRAME
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_state import child

Version = tuple[int, int]

NEWEST_VERSION: Version = (1, 12)
AXIS_FRAMES: Version = (1, 5)
PER_AXIS_IMU_NOISE: Version = (1, 5)
AXIS_SPRINGS: Version = (1, 5)
MODEL_SELF_COLLIDE: Version = (1, 5)
ODE_FEEDBACK_DEPRECATED: Version = (1, 5)
FRAME_SEMANTICS: Version = (1, 7)
NESTED_WORLD_MODELS: Version = (1, 8)
SCOPE_CROSSING_JOINTS: Version = (1, 8)  # a joint's parent or child in a nested model
AXIS_MIMIC: Version = (1, 11)

# Writing: the oldest version a converter writes (1.0 to 1.3 are read by the 1.4 rules),
# and the version a conversion is written as when nothing in it needs a later rule (the
# newest without frame semantics, which every libsdformat from 6, Gazebo 9's, reads).
OLDEST_WRITTEN: Version = (1, 4)
PLAIN_WRITTEN: Version = (1, 6)

# The Gazebo releases a conversion may target (``--gazebo``) and the newest SDFormat
# version each one's libsdformat reads (sdformat12 to sdformat16; sources in
# docs/urdf2sdf.md). Each reads every older version too.
GAZEBO_VERSIONS: dict[str, Version] = {
    "fortress": (1, 9), "garden": (1, 10), "harmonic": (1, 11), "ionic": (1, 11),
    "jetty": (1, 12)}
# The target when none is named: Gazebo Harmonic, the long-term release of ROS 2 Jazzy
# (Fortress, Humble's, reached its end of life in September 2026).
DEFAULT_GAZEBO = "harmonic"
# The oldest target: content needing a newer version than it reads gets a note.
OLDEST_GAZEBO = "fortress"


def gazebo_readers(version: Version) -> str:
    """The Gazebo releases that read ``version`` (``"Harmonic, Ionic and Jetty"``)."""
    names = [name.capitalize() for name, newest in GAZEBO_VERSIONS.items()
             if newest >= version]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# The order in which the graph registers a scope's names (core.graph.build), which decides
# who the legacy rule renames.
MODEL_NAME_ORDER = ("model", "link", "joint", "frame")
WORLD_NAME_ORDER = ("model", "frame", "joint")
AXES = ("axis", "axis2")


def parse_version(text: str | None) -> Version | None:
    """``"1.9"`` -> ``(1, 9)``; None for anything that is not MAJOR.MINOR."""
    try:
        major, minor = (text or "").strip().split(".")
        return int(major), int(minor)
    except ValueError:
        return None


def supported_version(text: str | None) -> Version | None:
    """The version of ``<sdf version=TEXT>`` when this reader can read it, else None."""
    version = parse_version(text)
    return version if version is not None and version <= NEWEST_VERSION else None


def version_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


# The versions a converter writes, as ``--sdf-version`` spells them (1.4 ... 1.12).
WRITTEN_VERSIONS: tuple[str, ...] = tuple(
    version_text((OLDEST_WRITTEN[0], minor))
    for minor in range(OLDEST_WRITTEN[1], NEWEST_VERSION[1] + 1))


def written_version(text: str | None) -> Version | None:
    """The version ``--sdf-version TEXT`` asks to write, None when it is not one of
    :data:`WRITTEN_VERSIONS` (spelt exactly so: it becomes ``<sdf version=TEXT>``)."""
    return parse_version(text) if text in WRITTEN_VERSIONS else None


def sdf_root_version(root, file: str | None, diagnostics: Diagnostics) -> Version | None:
    """The version to read an ``<sdf>`` root with, reporting what is wrong with it.

    None (with an error) when the root is not ``<sdf>`` or has no version. A version this
    reader does not support is an error too, and the newest version is returned, so that a
    caller that reads on (as libsdformat does) finds the file's other problems; a caller
    that must not read on checks :func:`supported_version` itself.
    """
    if root.tag != "sdf":
        diagnostics.error_at(Code.FILE_READ, f"root element is <{tag_of(root)}>, expected <sdf> "
                             "(this is not an SDFormat file)", source_of(root, file))
        return None
    text = root.get("version")
    if text is None:
        diagnostics.error_at(Code.FILE_READ, "<sdf> has no version attribute",
                             source_of(root, file))
        return None
    version = supported_version(text)
    if version is None:
        diagnostics.error_at(Code.VERSION_UNSUPPORTED,
                             f"SDFormat version {text!r} is not one this reader supports "
                             f"(1.0 to {version_text(NEWEST_VERSION)})", source_of(root, file))
        return NEWEST_VERSION
    return version


def legacy_name(name: str, kind: str, taken) -> str:
    """Before 1.7: the name a joint or frame named like a sibling of another kind is
    renamed to (``NAME_joint``, ``NAME_frame``, then ``NAME_joint0``...), free in ``taken``."""
    suffix = "_" + kind
    new, i = name + suffix, 0
    while new in taken:
        new, i = f"{name}{suffix}{i}", i + 1
    return new


# ---- 1.7 worlds: flattened models ------------------------------------------------------

SEPARATOR = "::"
ENTITY_TAGS = ("frame", "link", "joint", "model", "gripper")
REFERENCE_ATTRIBUTES = ("relative_to", "attached_to", "expressed_in")
REFERENCE_ELEMENTS = ("parent", "child")


def unflatten(model_el) -> None:
    """Move every ``prefix::name`` entity of ``model_el`` into a nested model ``prefix``
    (a world model of a file older than :data:`NESTED_WORLD_MODELS`)."""
    groups: dict[str, list] = {}
    for el in list(model_el):
        if el.tag in ENTITY_TAGS and SEPARATOR in (el.get("name") or ""):
            prefix = el.get("name").split(SEPARATOR, 1)[0]
            groups.setdefault(prefix, []).append(el)
    for prefix, members in groups.items():
        nested = etree.Element("model", name=prefix)
        nested.sourceline = members[0].sourceline
        first = members[0]
        first.addprevious(nested)
        for el in members:
            el.set("name", el.get("name")[len(prefix) + len(SEPARATOR):])
            _strip_references(el, prefix + SEPARATOR)
            if el.tag == "frame" and el.get("name") == MODEL_FRAME:
                _model_frame_to_pose(nested, el)
                model_el.remove(el)
                continue
            nested.append(el)
        unflatten(nested)


def _strip_references(el, prefix: str) -> None:
    for node in el.iter():
        if not isinstance(node.tag, str):
            continue
        for attribute in REFERENCE_ATTRIBUTES:
            value = node.get(attribute)
            if value is not None and value.startswith(prefix):
                node.set(attribute, value[len(prefix):])
        if node.tag in REFERENCE_ELEMENTS and node.text and node.text.strip().startswith(prefix):
            node.text = node.text.strip()[len(prefix):]


def _model_frame_to_pose(nested, frame_el) -> None:
    """``prefix::__model__`` carried the nested model's pose and canonical link."""
    attached_to = frame_el.get("attached_to")
    if attached_to:
        nested.set("canonical_link", attached_to)
    pose = frame_el.find("pose")
    if pose is not None:
        nested.insert(0, pose)


# ---- rewriting content for another version ---------------------------------------------

def printed_version(version: Version, included: list[Version]) -> Version:
    """The version a file's content is written for once its includes are inlined: its
    own, except that a 1.4 file including newer models takes the newest (1.4 cannot
    express their axes)."""
    newer = [v for v in included if v >= AXIS_FRAMES]
    if version < AXIS_FRAMES and newer:
        return max(newer)
    return version


def rewrite(el, source: Version, target: Version,
            include_name: Callable[[Any], str | None]) -> list[str]:
    """Rewrite ``el``'s content, written for ``source``, so that it means the same when
    read as ``target``; return what changed (empty when nothing did).

    ``include_name`` gives the model name an ``<include>`` of ``el`` brings into its
    scope (none for a merge include), since those names take part in the legacy renaming
    rule."""
    notes: list[str] = []
    if source < AXIS_FRAMES <= target:
        count = _axes_in_model_frame(el, target)
        if count:
            notes.append(f"{count} axis (1.4: in the model frame) now "
                         + ("xyz/@expressed_in='__model__'" if target >= FRAME_SEMANTICS
                            else "use_parent_model_frame=true"))
    if source < FRAME_SEMANTICS <= target:
        count = _pose_frame_to_relative_to(el)
        if count:
            notes.append(f"{count} //pose/@frame now @relative_to")
        count = _use_parent_model_frame(el)
        if count:
            notes.append(f"{count} use_parent_model_frame now xyz/@expressed_in='__model__'")
        notes.extend(_rename_collisions(el, include_name))
    if source >= FRAME_SEMANTICS > target:
        count = _strip_legacy(el)
        if count:
            notes.append(f"{count} //pose/@frame or use_parent_model_frame removed (ignored "
                         f"in {version_text(source)}, meaningful in {version_text(target)})")
    if source < NESTED_WORLD_MODELS <= target and el.tag == "sdf":
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
    xyz.set("expressed_in", MODEL_FRAME)


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
        if target >= FRAME_SEMANTICS:
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


def _rename_collisions(el, include_name: Callable[[Any], str | None]) -> list[str]:
    """Before 1.7 a joint or frame could share a sibling's name; the graph renames it
    (:func:`legacy_name`, in its registration order). Do it in the text."""
    notes: list[str] = []
    for scope in _scopes(el):
        order = WORLD_NAME_ORDER if scope.tag == "world" else MODEL_NAME_ORDER
        names: dict[str, str] = {}
        for kind in order:
            for c in scope:
                name = _entity_name(c, kind, include_name)
                if name is None:
                    continue
                if name not in names:
                    names[name] = kind
                elif names[name] != kind and kind in ("joint", "frame"):
                    new = legacy_name(name, kind, names)
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


def _entity_name(c, kind: str, include_name: Callable[[Any], str | None]) -> str | None:
    if kind == "model" and c.tag == "include":
        return include_name(c)
    return c.get("name") if c.tag == kind else None
