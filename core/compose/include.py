"""``//include`` in the model: find the included file, read it, apply the include's
overrides. Finding and opening the file is :mod:`core.compose.included`, which the XML
composition behind ``urdf-sdf print`` (``core.compose.inline``) shares.

URIs: a path relative to the including file, an absolute path, ``file://``,
``model://NAME/...`` and bare model names searched in ``Context.model_paths``,
and ``package://PKG/...`` searched in ``Context.package_paths`` (ROS_PACKAGE_PATH
workspaces) and the ``share`` folders of ``Context.ament_prefixes``. A model
directory is read through its ``model.config``, choosing the newest SDFormat
version this reader supports.

What is included: an SDFormat file's top-level model, a URDF (read with our
URDF reader and nested as a model), or whatever a custom model parser registered
in the context returns (``core.compose.interface``). Include cycles are an error, never
a hang; so is an include bomb: what includes bring to one model is bounded, counted as
they are read (``core.compose.budget``). ``merge="true"`` (SDFormat 1.9) puts the
included model's content into the enclosing model or world, with a frame
``_merged__NAME__model__`` standing for the included model's frame.
"""
from __future__ import annotations

import copy

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import MODEL_FRAME, WORLD, Document, Frame, Model, PoseSpec, World
from urdf_sdf.core.compose import included
from urdf_sdf.core.compose.budget import budget_of
from urdf_sdf.core.compose.included import Located
from urdf_sdf.core.compose.interface import run_custom_parsers
from urdf_sdf.core.compose.rules import claimed_by_custom_parsers, is_merge
from urdf_sdf.core.graph import build_graph, relative_pose, validate_graph
from urdf_sdf.core.graph.build import own_model_name_axis
from urdf_sdf.core.read import sdf as reader
from urdf_sdf.core.read import values
from urdf_sdf.core.read.urdf import read_urdf_root
from urdf_sdf.core.read.version import version_text


def read_include(el, state, parent: Model | World) -> None:
    """Read one ``<include>`` and add what it brings to ``parent``."""
    located = included.locate_include(el, state)
    if located is None:
        return
    sub = Diagnostics()
    model = read_included_model(located, el, state, sub, parent)
    included.report_included(located, el, state, sub)  # findings inside keep their file:line
    if model is None:
        return
    was_static = model.static
    own_name_axes_to_model_frame(model, state)
    apply_overrides(model, el, state)
    if was_static and not model.static:
        state.error(Code.ELEMENT_INVALID, f"<include><static>false</static> cannot make the "
                    f"static model [{model.name}] non-static", el)
    add_include_children(model, el, state)
    if is_merge(el):
        merge_into(parent, model, el, state)
    else:
        parent.models.append(model)


def read_included_model(located: Located, el, state, sub: Diagnostics,
                        parent) -> Model | None:
    """The model a located include file holds: custom parsers first (never for .sdf or
    .world files), then SDFormat or URDF."""
    if claimed_by_custom_parsers(located.path, state.context):
        model = run_custom_parsers(located.uri, located.path, el, state, parent, sub)
        if model is not None or sub.has_errors:
            return model
    root = included.open_included(located, el, state, sub)
    if root is None:
        return None
    if root.tag == "robot":
        return read_included_urdf(root, located.path, sub)
    return read_included_sdf(root, located, el, state, sub)


def read_included_sdf(root, located: Located, el, state, sub: Diagnostics) -> Model | None:
    path = located.path
    version = included.included_version(root, path, el, state)
    if version is None:
        return None
    inner = reader.ReadState(path, version, sub, state.context, located.stack,
                             list(state.model_path) + [reader.child_text(el, "name") or ""],
                             include_reader=read_include, include_budget=budget_of(state))
    values.check_values(root, inner)
    tops = included.top_level_elements(root, path, el, state)
    models = [c for c in tops if c.tag == "model"]
    if tops and not models:
        return None  # a light or an actor: no frames to add
    root_includes = [c for c in root if c.tag == "include"]
    if not models and root_includes:
        return reader.read_root_include(root_includes[0], inner)
    if not models:
        included.no_top_level_model(path, el, state)
        return None
    model = reader.read_model(models[0], inner, top_level=True)
    if model is not None:
        model.included_from = path
    return model


def read_included_urdf(root, path: str, sub: Diagnostics) -> Model | None:
    """A URDF included from SDFormat becomes a nested model, read by our URDF reader."""
    document = read_urdf_root(root, path, sub)
    if document is None or document.model is None:
        return None
    model = document.model
    model.included_from = path
    return model


def own_name_axes_to_model_frame(model: Model, state) -> None:
    """An axis ``expressed_in`` the included model's own name means its model frame
    (``FrameGraph.lookup_axis_frame``, with the same warning); it is said as ``__model__``
    before the include renames the model or merges it into its parent, where the old name
    would name nothing."""
    siblings = (model.links, model.joints, model.frames, model.models)
    if any(model.name == e.name for group in siblings for e in group):
        return
    for joint in model.joints:
        for axis in joint.axes:
            if axis.expressed_in == model.name:
                state.diagnostics.warning_at(Code.JOINT_AXIS_EXPRESSED_IN_INVALID,
                                             own_model_name_axis(joint.name, model.name),
                                             axis.source)
                axis.expressed_in = MODEL_FRAME


def apply_overrides(model: Model, el, state) -> None:
    """``//include/name``, ``pose`` (its relative_to read in the enclosing scope),
    ``static`` and ``placement_frame`` (which needs a pose)."""

    name = reader.child_text(el, "name")
    if name:
        model.name = name
    pose_el = reader.child(el, "pose")
    placement = included.placement_frame(el, state)
    if placement:
        model.placement_frame = placement
    if pose_el is not None:
        model.pose = reader.read_pose_element(pose_el, state)
    static_el = reader.child(el, "static")
    if static_el is not None:
        model.static = reader.read_bool(static_el, state)
    model.source = state.src(el)


def add_include_children(model: Model, el, state) -> None:
    """``//include/frame`` and ``//include/joint`` join the included model (their names
    resolve in its scope); ``//include/plugin`` is kept on its XML."""

    for child in el:
        if child.tag == "frame":
            frame = reader.read_frame(child, state)
            if frame is not None:
                model.frames.append(frame)
        elif child.tag == "joint":
            joint = reader.read_joint(child, state)
            if joint is not None:
                model.joints.append(joint)


def merged_frame_name(model: Model) -> str:
    return f"_merged__{model.name}__model__"


def merge_into(parent: Model | World, model: Model, el, state) -> None:
    """``<include merge="true">``: the included model's entities join ``parent``.

    The included model frame becomes the frame ``_merged__NAME__model__``, attached
    to the model's canonical link (or first nested model) and placed by the
    include's pose; everything that was relative to or attached to ``__model__``
    (explicitly or by default) now refers to that frame.
    """
    proxy = merged_frame_name(model)
    if model.placement_frame is not None and \
            not place_merged_model(model, model.placement_frame, el, state):
        return
    if isinstance(parent, World) and model.links:
        state.error(Code.ELEMENT_INVALID, f"<include merge='true'> of model [{model.name}] into "
                    "a world: a world cannot hold links", el)
        return
    anchor = model.canonical_link or (model.links[0].name if model.links else None) or \
        (model.models[0].name if model.models else None)
    pose = model.pose
    if pose.relative_to is None:  # the include's pose is in the enclosing scope's frame
        pose.relative_to = WORLD if isinstance(parent, World) else MODEL_FRAME
    parent.frames.append(Frame(name=proxy, attached_to=anchor, pose=pose,
                               source=state.src(el), xml=None))
    retarget_model_frame(model, proxy)
    if isinstance(parent, World):
        parent.models.extend(model.models)
    else:
        parent.links.extend(model.links)
        parent.models.extend(model.models)
    parent.frames.extend(model.frames)
    parent.joints.extend(model.joints)


def place_merged_model(model: Model, placement_frame: str, el, state) -> bool:
    """With a placement frame, the merged model frame's pose is the include pose times
    the inverse of the placement frame's pose in the model, resolved on the included
    model alone (it is self-contained)."""
    alone = copy.deepcopy(model)
    alone.pose = PoseSpec()
    alone.placement_frame = None
    findings = Diagnostics()
    graph = build_graph(Document(version=version_text(model.version), model=alone), findings)
    validate_graph(graph, findings)
    root = graph.root
    frame = graph.lookup(root, placement_frame) if root is not None else None
    placement = relative_pose(graph, frame, root.owner.id) \
        if frame is not None and root is not None else None
    if placement is None:
        state.error(Code.MODEL_PLACEMENT_FRAME_INVALID, f"placement frame "
                    f"[{placement_frame}] of merged model [{model.name}] is not a frame "
                    "of that model", el)
        return False
    model.pose.value = model.pose.value * placement.inverse()
    model.placement_frame = None
    return True


def retarget_model_frame(model: Model, proxy: str) -> None:
    """Point every default or ``__model__`` reference of ``model``'s entities at ``proxy``."""
    def retarget(pose: PoseSpec, default_is_model: bool) -> None:
        if pose.relative_to == MODEL_FRAME or (pose.relative_to is None and default_is_model):
            pose.relative_to = proxy

    for link in model.links:
        retarget(link.pose, True)
        for shape in link.visuals + link.collisions:
            retarget(shape.pose, False)
    for nested in model.models:
        retarget(nested.pose, True)
    for frame in model.frames:
        if frame.attached_to in (None, MODEL_FRAME):
            if frame.pose.relative_to is None:
                frame.pose.relative_to = proxy
            frame.attached_to = proxy
        retarget(frame.pose, False)
    for joint in model.joints:
        retarget(joint.pose, False)
        joint.parent = proxy if joint.parent == MODEL_FRAME else joint.parent
        joint.child = proxy if joint.child == MODEL_FRAME else joint.child
        for axis in joint.axes:
            if axis.expressed_in == MODEL_FRAME:
                axis.expressed_in = proxy
