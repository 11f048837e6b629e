"""Phase 1: read an SDFormat document (versions 1.0 to 1.12) into ``core.base.model``.

Version differences (``core.read.version``) are normalised here, the way libsdformat's
conversion files do, so that later phases see one semantics:

* 1.4 and older: every joint axis is expressed in the parent model frame
  (``expressed_in="__model__"``);
* 1.5 and 1.6: ``//pose/@frame`` means ``relative_to``, and
  ``use_parent_model_frame`` true means ``expressed_in="__model__"``;
* below 1.7, sibling names of different kinds may collide: the graph builder
  renames the joint or frame as libsdformat does;
* below 1.8, a world's models may be flattened (``prefix::name``): they are nested
  again before they are read.

The reader checks values (numbers, poses, required attributes) and reports
bad ones; it never raises on bad input. It knows nothing of files other than the one
it reads: an ``<include>`` is handed to ``ReadState.include_reader`` (composition,
``core.compose.include.read_include``, set by the loader).
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import Document, Joint, Link, Model, World
from urdf_sdf.core.read import values
from urdf_sdf.core.read.carried_attributes import own_attributes
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_elements import (
    check_content_poses,
    read_frame,
    read_joint,
    read_link,
    read_pose,
    read_pose_element,
)
from urdf_sdf.core.read.sdf_state import (
    ReadState,
    child,
    child_text,
    children,
    read_bool,
    required_name,
)
from urdf_sdf.core.read.version import (
    NESTED_WORLD_MODELS,
    NEWEST_VERSION,
    sdf_root_version,
    unflatten,
)
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes

# A model child whose element is freed once read.
Entity = TypeVar("Entity", Link, Joint)

# Names other modules read through this one (composition, the URDF reader).
__all__ = ["ReadState", "child", "child_text", "read_bool", "read_frame", "read_joint",
           "read_model", "read_pose_element", "read_root_include", "read_sdf_file",
           "read_sdf_root", "read_sdf_string"]


def read_sdf_file(path: str | Path, context: Context, diagnostics: Diagnostics,
                  include_stack: tuple[str, ...] = (),
                  include_reader: Callable | None = None) -> Document | None:
    file = str(path)
    data = read_bytes(path, diagnostics)
    if data is None:
        return None
    return read_sdf_string(data, file, context, diagnostics, include_stack, include_reader)


def read_sdf_string(data: bytes | str, file: str | None, context: Context,
                    diagnostics: Diagnostics, include_stack: tuple[str, ...] = (),
                    include_reader: Callable | None = None) -> Document | None:
    root = parse_xml(data, file, diagnostics)
    if root is None:
        return None
    return read_sdf_root(root, file, context, diagnostics, include_stack, include_reader)


def read_sdf_root(root, file: str | None, context: Context, diagnostics: Diagnostics,
                  include_stack: tuple[str, ...] = (),
                  include_reader: Callable | None = None) -> Document | None:
    """The document of a parsed SDFormat file (``root``: its root element)."""
    version = sdf_root_version(root, file, diagnostics)
    if version is None:
        return None
    # An unsupported version was reported; the file is read with the newest semantics so
    # that its other problems are found too (as libsdformat does).
    version = min(version, NEWEST_VERSION)
    state = ReadState(file, version, diagnostics, context, include_stack,
                      include_reader=include_reader)
    return read_root(root, state, root.get("version").strip())


def read_root(root, state: ReadState, version_text: str) -> Document:
    doc = Document(version=version_text, file=state.file)
    values.check_values(root, state)
    models = children(root, "model")
    worlds = children(root, "world")
    others = [c for c in root if isinstance(c.tag, str) and c.tag in ("light", "actor")]
    if len(models) + len(others) > 1 and not (len(models) > 1 and not others):
        extra = (models + others)[1]
        state.error(Code.ELEMENT_INCORRECT_TYPE, f"the root <sdf> holds another top-level "
                    f"<{tag_of(extra)}> besides its first model, actor or light; only one is "
                    "allowed",
                    extra)
    if len(models) > 1:
        names = [m.get("name") for m in models]
        duplicate = len(set(names)) < len(names)
        state.error(Code.DUPLICATE_NAME if duplicate else Code.ELEMENT_INCORRECT_TYPE,
                    "the root <sdf> may hold only one <model>" +
                    (f" (and model name [{names[0]}] is repeated)" if duplicate else "") +
                    "; only the first is read", models[1])
    if models and worlds:
        state.error(Code.ELEMENT_INCORRECT_TYPE, "the root <sdf> holds both a <model> and a "
                    "<world>; only one kind of root is allowed", worlds[0])
    check_content_poses(others, state)
    includes = children(root, "include")
    if models:
        doc.model = read_model(models[0], state, top_level=True)
    elif includes and not worlds:
        doc.model = read_root_include(includes[0], state)
    seen_worlds: set[str] = set()
    for el in worlds:
        world = read_world(el, state)
        if world is None:
            continue
        if world.name in seen_worlds:
            state.error(Code.DUPLICATE_NAME, f"world with name[{world.name}] already exists; "
                        "each world must have a unique name", el)
            continue
        seen_worlds.add(world.name)
        doc.worlds.append(world)
    if not models and not worlds and not others and not includes:
        state.warning(Code.ELEMENT_MISSING, "the <sdf> element holds no <model> or <world>", root)
    return doc


def read_root_include(el, state: ReadState) -> Model | None:
    """An ``<include>`` directly under ``<sdf>`` stands for the model it includes."""
    holder = Model(name="__root_include__", version=state.version)
    state.read_include(el, holder)
    return holder.models[0] if holder.models else None


def read_model(el, state: ReadState, top_level: bool = False) -> Model | None:
    name = required_name(el, state)
    if name is None:
        return None
    model = Model(name=name, source=state.src(el), xml=el, version=state.version)
    if len(el.attrib) > 1:
        model.attributes = own_attributes(el) or None
    model.pose = read_pose(el, state)
    if top_level and model.pose.relative_to is not None:
        state.error(Code.ATTRIBUTE_INVALID, "the pose of the top-level model "
                    f"[{name}] must not have a relative_to attribute (found "
                    f"relative_to='{model.pose.relative_to}')", child(el, "pose"))
        model.pose.relative_to = None
    canonical = el.get("canonical_link")
    model.canonical_link = canonical.strip() if canonical and canonical.strip() else None
    placement = el.get("placement_frame")
    model.placement_frame = placement.strip() if placement and placement.strip() else None
    model.static = read_bool(child(el, "static"), state)
    state.model_path.append(name)
    try:
        read_model_children(el, model, state)
    finally:
        state.model_path.pop()
    return model


def read_model_children(el, model: Model, state: ReadState) -> None:
    for c in el:
        tag = c.tag
        if tag == "link":
            read_and_release(el, c, read_link, model.links, state)
        elif tag == "joint":
            read_and_release(el, c, read_joint, model.joints, state)
        else:
            read_scope_child(c, tag, model, state)


def read_and_release(parent, el, reader: Callable[[Any, ReadState], Entity | None],
                     read: list[Entity], state: ReadState) -> None:
    """Read link or joint ``el`` of model element ``parent`` with ``reader`` into ``read``,
    then free its element (:func:`release`)."""
    extra = state.extra_content
    value = reader(el, state)
    if value is not None:
        read.append(value)
    release(parent, el, value, state.extra_content != extra, state)


def read_scope_child(el, tag, scope: Model | World, state: ReadState) -> None:
    """What a model and a world both hold: a frame, a nested model, a joint (a model's
    joints are read with its links, to free their elements) or an include."""
    if tag == "frame":
        frame = read_frame(el, state)
        if frame is not None:
            scope.frames.append(frame)
    elif tag == "model":
        model = read_model(el, state)
        if model is not None:
            scope.models.append(model)
    elif tag == "joint":
        joint = read_joint(el, state)
        if joint is not None:
            scope.joints.append(joint)
    elif tag == "include":
        state.read_include(el, scope)


def release(parent, el, value: Link | Joint | None, holds_extra: bool,
            state: ReadState) -> None:
    """Without ``Context.keep_xml``: a link or joint element whose content the model
    holds is freed, and the model keeps no reference into it; one holding content a
    converter copies as XML (``ReadState.extra_content``) keeps its element and XML."""
    if state.consumer.keep_xml or holds_extra or carries_attributes(el):
        return
    if value is not None:
        forget_xml(value)
    state.consumer.done(parent, el)


def carries_attributes(el) -> bool:
    """Whether a link or joint element (or a joint's ``axis/limit``) has an attribute
    beyond its name and type: custom content a converter copies, or one it names as lost
    (``sdf2urdf.attributes``)."""
    if len(el.attrib) > (2 if el.tag == "joint" else 1):
        return True
    limit = el.find("axis/limit") if el.tag == "joint" else None
    return limit is not None and len(limit.attrib) > 0


def forget_xml(value: Link | Joint) -> None:
    """Drop a link's or joint's references into its element (theirs and their parts')."""
    value.xml = value.pose.xml = None
    if isinstance(value, Joint):
        for axis in value.axes:
            axis.xml = None
        return
    if value.inertial is not None:
        value.inertial.pose.xml = None
    for shape in value.visuals + value.collisions:
        shape.xml = shape.pose.xml = None
        if shape.geometry is not None:
            shape.geometry.xml = None
        if shape.material is not None:
            shape.material.xml = None


def read_world(el, state: ReadState) -> World | None:
    name = required_name(el, state)
    if name is None:
        return None
    world = World(name=name, source=state.src(el), xml=el, version=state.version)
    for c in el:
        tag = c.tag
        if tag == "light":
            check_content_poses((c,), state)
            continue
        if tag == "model" and state.version < NESTED_WORLD_MODELS:
            unflatten(c)
        read_scope_child(c, tag, world, state)
    return world
