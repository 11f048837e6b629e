"""Build the frame graph of a document: name scopes, then edges.

Phase 2 (names) registers every model, link, joint and frame of a scope, checking
empty, reserved and duplicate names; below SDFormat 1.7 a joint or frame whose
name collides with a sibling of another kind is renamed (``_joint``,
``_frame``: ``core.read.version.legacy_name``) as libsdformat does, with a warning.

Phases 3 to 7 connect each vertex's ``attached_to`` and ``relative_to`` edges,
reporting every reference that names no frame of its scope.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import WORLD, Document, Frame, Joint, Link, Model, PoseSpec, World
from urdf_sdf.core.graph.frame_graph import (
    SCOPE_SEPARATOR,
    WORLD_SENTINEL,
    FrameGraph,
    Kind,
    Scope,
    Vertex,
)
from urdf_sdf.core.read.version import AXIS_FRAMES, FRAME_SEMANTICS, Version, legacy_name

# What a scope registers besides models: a link, joint or frame.
Named = Link | Joint | Frame

RESERVED_PATTERN = re.compile(r"^__.*__$")


def own_model_name_axis(joint: str, model: str) -> str:
    """The warning for an axis ``expressed_in`` its own model's name."""
    return (f"axis xyz of joint [{joint}] is expressed_in [{model}], the name of its own model: "
            "read as the model frame; libsdformat 13+ and Drake refuse it, write "
            "expressed_in=\"__model__\"")


class Builder:
    def __init__(self, diagnostics: Diagnostics):
        self.graph = FrameGraph()
        self.diagnostics = diagnostics
        # URDF names follow URDF's rules: '::', 'world' and '__x__' are ordinary there.
        self.urdf = False

    def error(self, code: Code, message: str, source) -> None:
        self.diagnostics.error_at(code, message, source)

    def warning(self, code: Code, message: str, source) -> None:
        self.diagnostics.warning_at(code, message, source)

    # ---- phase 2: scopes and names -------------------------------------------------

    def build(self, document: Document) -> FrameGraph:
        self.urdf = document.format == "urdf"
        if document.model is not None:
            model = document.model
            self.check_name(model.name, "model", model.source, model.version)
            owner = self.graph.add(Kind.MODEL, model.name, None, model, model.source,
                                   static=model.static)
            owner.scoped_name = ""
            self.graph.root = self.model_scope(owner, model, None, prefix="")
        elif document.world is not None:
            self.graph.root = self.world_scope(document.world)
        if self.graph.root is not None:
            self.connect_scope(self.graph.root)
        return self.graph

    def check_name(self, name: str, kind: str, source, version: Version) -> bool:
        """Names must be non-empty and not reserved. Before 1.5 (``version``: the file's) a
        link may be named ``world`` (the legacy spec then connects ``<parent>world</parent>``
        to it)."""
        if name == "":
            self.error(Code.ATTRIBUTE_INVALID, f"{kind} has an empty name", source)
            return False
        if self.urdf:
            return True
        if name == WORLD and kind == "link" and version < AXIS_FRAMES:
            self.warning(Code.WORLD_NAME_LEGACY, "a link named [world] is allowed in SDFormat 1.4 "
                         "but reserved from 1.5 on", source)
            return True
        if name == WORLD or RESERVED_PATTERN.match(name):
            self.error(Code.RESERVED_NAME, f"the {kind} name [{name}] is reserved", source)
            return False
        if SCOPE_SEPARATOR in name:
            self.error(Code.RESERVED_NAME, f"the {kind} name [{name}] contains '::', which is "
                       "reserved as the scope separator", source)
            return False
        return True

    def register(self, scope: Scope, vertex: Vertex, kind_label: str) -> bool:
        """Add a vertex's name to its scope, or report (or, before 1.7, fix) a clash."""
        name = vertex.name
        if name not in scope.names:
            scope.names[name] = vertex.id
            return True
        other = self.graph.vertices[scope.names[name]]
        where = "world" if scope.is_world else "model"
        owner = scope.owner.scoped_name or scope.owner.name
        legacy_rename = scope.version < FRAME_SEMANTICS and other.kind != vertex.kind and \
            vertex.kind in (Kind.JOINT, Kind.FRAME)
        if legacy_rename:
            new_name = legacy_name(name, vertex.kind.value, scope.names)
            self.warning(Code.NAME_RENAMED, f"{kind_label} [{name}] has the name of a sibling "
                         f"{other.kind.value} in {where} [{owner}]; renamed to [{new_name}] as "
                         "SDFormat < 1.7 allowed", vertex.source)
            vertex.name = new_name
            vertex.scoped_name = scope.prefix + new_name
            scope.names[new_name] = vertex.id
            return True
        self.error(Code.DUPLICATE_NAME, f"{kind_label} with name[{name}] in {where} [{owner}] "
                   f"has the same name as a sibling {other.kind.value}", vertex.source)
        # The duplicate was the last vertex added: drop it so that nothing refers to it.
        assert self.graph.vertices[-1] is vertex and scope.vertices[-1] == vertex.id
        self.graph.vertices.pop()
        scope.vertices.pop()
        return False

    def model_scope(self, owner: Vertex, model: Model, parent: Scope | None,
                    prefix: str) -> Scope:
        """The scope of ``owner``'s model: its nested models (each with its scope), links,
        joints and frames, registered in that order."""
        scope = Scope(owner, parent, False, prefix, model.version)
        owner.inner = scope
        self.add_models(scope, model.models, owner.static)
        self.add_entities(scope, Kind.LINK, model.links)
        self.add_entities(scope, Kind.JOINT, model.joints)
        self.add_entities(scope, Kind.FRAME, model.frames)
        return scope

    def world_scope(self, world: World) -> Scope:
        """The world's scope: its models (each with its scope), frames and joints, registered
        in that order."""
        owner = self.graph.add(Kind.WORLD, "world", None, world, world.source)
        owner.scoped_name = WORLD
        scope = Scope(owner, None, True, "", world.version)
        owner.inner = scope
        self.add_models(scope, world.models, False)
        self.add_entities(scope, Kind.FRAME, world.frames)
        self.add_entities(scope, Kind.JOINT, world.joints)
        return scope

    def add_models(self, scope: Scope, models: list[Model], static: bool) -> None:
        """Register ``models`` in ``scope`` and give each its own scope; a model inside a
        ``static`` one is static."""
        for model in models:
            if not self.check_name(model.name, "model", model.source, scope.version):
                continue
            vertex = self.graph.add(Kind.MODEL, model.name, scope, model, model.source,
                                    static=model.static or static)
            if self.register(scope, vertex, "model"):
                self.model_scope(vertex, model, scope, vertex.scoped_name + SCOPE_SEPARATOR)

    def add_entities(self, scope: Scope, kind: Kind, entities: Sequence[Named]) -> None:
        """Register the links, joints or frames ``entities`` (of ``kind``) in ``scope``."""
        label = kind.value
        for entity in entities:
            if self.check_name(entity.name, label, entity.source, scope.version):
                self.register(scope, self.graph.add(kind, entity.name, scope, entity,
                                                    entity.source), label)

    # ---- phases 3-7: edges -----------------------------------------------------------

    def connect_scope(self, scope: Scope) -> None:
        if scope.parent is None and not scope.is_world:
            self.connect_model(scope.owner, scope)
        for vid in list(scope.vertices):
            vertex = self.graph.vertices[vid]
            if vertex.kind is Kind.MODEL:
                if vertex.inner is not None:  # a model vertex owns the scope it is given
                    self.connect_model(vertex, vertex.inner)
                    self.connect_scope(vertex.inner)
            elif vertex.kind is Kind.LINK:
                self.connect_pose(vertex, scope, vertex.element.pose, scope.owner.id)
            elif vertex.kind is Kind.JOINT:
                self.connect_joint(vertex, scope)
            elif vertex.kind is Kind.FRAME:
                self.connect_frame(vertex, scope)

    def resolve_reference(self, scope: Scope, reference: str, attribute: str, vertex: Vertex,
                          code: Code) -> int | None:
        if reference == "__root__":
            self.error(Code.ATTRIBUTE_INVALID, f"'__root__' is reserved; it cannot be the value "
                       f"of {attribute} (in {vertex.kind.value} [{vertex.name}])", vertex.source)
            self.error(code, f"{attribute} name[__root__] specified by {vertex.kind.value} "
                       f"[{vertex.name}] names no frame", vertex.source)
            return None
        target = self.graph.lookup(scope, reference)
        if target is None:
            kinds = "model or frame" if scope.is_world else "nested model, link, joint or frame"
            self.error(code, f"{attribute} name[{reference}] specified by {vertex.kind.value} "
                       f"with name[{vertex.name}] does not match a {kinds} name in "
                       f"{self.scope_label(scope)}", vertex.source)
        return target

    def scope_label(self, scope: Scope) -> str:
        if scope.is_world:
            return f"world [{scope.owner.element.name}]"
        return f"model [{scope.owner.scoped_name or scope.owner.name}]"

    def connect_pose(self, vertex: Vertex, scope: Scope, pose: PoseSpec,
                     default: int | None) -> None:
        """relative_to edge: the pose's own frame (in ``scope``, the vertex's) if it names
        one, else ``default``."""
        vertex.pose = pose.value
        if pose.relative_to is None:
            vertex.relative_to = default
            return
        vertex.relative_to = self.resolve_reference(scope, pose.relative_to, "relative_to",
                                                    vertex, Code.POSE_RELATIVE_TO_INVALID)

    def connect_joint(self, vertex: Vertex, scope: Scope) -> None:
        joint: Joint = vertex.element
        child = None
        for role, value in (("parent", joint.parent), ("child", joint.child)):
            if value == "__root__":
                self.error(Code.RESERVED_NAME, f"the {role} name [__root__] of joint "
                           f"[{joint.name}] is reserved and not a valid frame", joint.source)
        legacy = scope.version < AXIS_FRAMES
        if joint.child == WORLD and legacy and WORLD not in scope.names:
            self.warning(Code.WORLD_NAME_LEGACY,
                         f"joint [{joint.name}] has [world] as its child, which "
                         "SDFormat 1.4 allowed (the world as a fixed frame) and later versions "
                         "forbid; its pose is not resolved", joint.source)
            vertex.attached_to = None
            vertex.parent = self.graph.lookup(scope, joint.parent)
            return
        if joint.child == WORLD and not (legacy and WORLD in scope.names):
            self.error(Code.JOINT_CHILD_LINK_INVALID, f"joint [{joint.name}] has [world] as its "
                       "child; world may only be a parent", joint.source)
        elif joint.child == vertex.name:
            self.error(Code.JOINT_CHILD_LINK_INVALID, f"joint [{joint.name}] names itself as "
                       "its child frame", joint.source)
            child = vertex.id
        elif joint.child:
            child = self.graph.lookup(scope, joint.child)
            if child is None:
                self.error(Code.JOINT_CHILD_LINK_INVALID, f"child frame with name[{joint.child}] "
                           f"specified by joint with name[{joint.name}] not found in "
                           f"{self.scope_label(scope)}", joint.source)
        if child is None:
            self.error(Code.FRAME_ATTACHED_TO_INVALID, f"joint [{joint.name}] is attached to "
                       "no frame because its child is invalid", joint.source)
            if joint.pose.relative_to is None:
                self.error(Code.POSE_RELATIVE_TO_INVALID, f"the pose of joint [{joint.name}] "
                           "is relative to its child frame, which is invalid", joint.source)
        vertex.attached_to = child
        if joint.parent == vertex.name:
            self.error(Code.JOINT_PARENT_LINK_INVALID, f"joint [{joint.name}] names itself as "
                       "its parent frame", joint.source)
            vertex.parent = vertex.id
        elif joint.parent == WORLD and not (legacy and WORLD in scope.names):
            vertex.parent = scope.owner.id if scope.is_world else WORLD_SENTINEL
        elif joint.parent:
            vertex.parent = self.graph.lookup(scope, joint.parent)
            if vertex.parent is None:
                self.error(Code.JOINT_PARENT_LINK_INVALID, f"parent frame with name"
                           f"[{joint.parent}] specified by joint with name[{joint.name}] not "
                           f"found in {self.scope_label(scope)}", joint.source)
                self.error(Code.FRAME_ATTACHED_TO_INVALID, f"the parent frame [{joint.parent}] "
                           f"of joint [{joint.name}] cannot be resolved to a link", joint.source)
        if joint.parent and joint.parent == joint.child:
            self.error(Code.JOINT_PARENT_SAME_AS_CHILD,
                       f"joint [{joint.name}] names [{joint.child}] as both parent and child",
                       joint.source)
        if joint.pose.relative_to is None:
            vertex.pose = joint.pose.value
            vertex.relative_to = child
        else:
            self.connect_pose(vertex, scope, joint.pose, child)
        for axis in joint.axes:
            self.check_axis_frame(scope, joint, axis)

    def check_axis_frame(self, scope, joint, axis) -> None:
        """``xyz/@expressed_in`` names a frame of the joint's scope. The enclosing model's own
        name is read as its model frame (the SDFormat 1.7 tutorial's example), with a
        warning: libsdformat from version 13 and Drake refuse it."""
        if axis.expressed_in is None or self.graph.lookup(scope, axis.expressed_in) is not None:
            return
        if self.graph.lookup_axis_frame(scope, axis.expressed_in) is not None:
            self.warning(Code.JOINT_AXIS_EXPRESSED_IN_INVALID,
                         own_model_name_axis(joint.name, axis.expressed_in), axis.source)
            return
        self.error(Code.JOINT_AXIS_EXPRESSED_IN_INVALID, f"axis xyz expressed_in frame "
                   f"[{axis.expressed_in}] of joint [{joint.name}] not found in "
                   f"{self.scope_label(scope)}", axis.source)
        self.error(Code.POSE_RELATIVE_TO_INVALID, f"frame [{axis.expressed_in}] named "
                   f"by an axis of joint [{joint.name}] does not exist", axis.source)

    def connect_frame(self, vertex: Vertex, scope: Scope) -> None:
        frame: Frame = vertex.element
        target: int | None = scope.owner.id
        if frame.attached_to is not None:
            target = self.resolve_reference(scope, frame.attached_to, "attached_to", vertex,
                                            Code.FRAME_ATTACHED_TO_INVALID)
        vertex.attached_to = target
        self.connect_pose(vertex, scope, frame.pose, target)

    def connect_model(self, vertex: Vertex, inner: Scope) -> None:
        """A model (``inner``: the scope it owns): canonical link, pose in the enclosing
        scope, placement frame.

        The top-level model (no enclosing scope) is the root frame: it has no
        relative_to edge.
        """
        model: Model = vertex.element
        if not model.links and not model.models:
            if vertex.static:
                pass
            elif model.version < AXIS_FRAMES:
                self.warning(Code.MODEL_WITHOUT_LINK, f"model [{model.name}] has no link; "
                             "SDFormat 1.5 and later require one", model.source)
            else:
                self.error(Code.MODEL_WITHOUT_LINK, f"model [{model.name}] must have at least "
                           "one link", model.source)
        elif not vertex.static:
            vertex.attached_to = self.canonical_link(vertex, inner)
        if vertex.scope is not None:
            self.connect_pose(vertex, vertex.scope, model.pose, vertex.scope.owner.id)
        if model.placement_frame is not None:
            vertex.placement = self.graph.lookup(inner, model.placement_frame)
            if vertex.placement is None:
                self.error(Code.MODEL_PLACEMENT_FRAME_INVALID, f"placement frame "
                           f"[{model.placement_frame}] of model [{model.name}] is not a frame of "
                           "that model", model.source)
                self.error(Code.POSE_RELATIVE_TO_INVALID, f"unable to find the placement frame "
                           f"[{model.placement_frame}] in model [{model.name}]", model.source)
                if vertex.scope is not None:
                    vertex.relative_to = None

    def canonical_link(self, vertex: Vertex, inner: Scope) -> int | None:
        """The canonical link: ``canonical_link`` if given, else the first link, else the
        canonical link of the first nested model that has one."""
        model: Model = vertex.element
        if model.canonical_link is not None:
            if model.canonical_link == "__root__":
                self.error(Code.ATTRIBUTE_INVALID, "'__root__' is reserved; it cannot be the "
                           f"canonical_link of model [{model.name}]", model.source)
            target = self.graph.lookup(inner, model.canonical_link)
            if target is None or self.graph.vertices[target].kind is not Kind.LINK:
                self.error(Code.MODEL_CANONICAL_LINK_INVALID, f"canonical_link with name"
                           f"[{model.canonical_link}] not found in model [{model.name}]",
                           model.source)
                return None
            return target
        return default_canonical_link(self.graph, vertex)


def default_canonical_link(graph: FrameGraph, vertex: Vertex) -> int | None:
    current: Vertex | None = vertex
    while current is not None and current.inner is not None:
        model: Model = current.element
        for link in model.links:
            vid = current.inner.names.get(link.name)
            if vid is not None and graph.vertices[vid].kind is Kind.LINK:
                return vid
        nxt = None
        for nested in model.models:
            vid = current.inner.names.get(nested.name)
            if vid is None:
                continue
            nested_vertex = graph.vertices[vid]
            if nested_vertex.static and not has_link(nested):
                return vid  # a static model is a sink of the attached_to graph
            if has_link(nested):
                if nested.canonical_link is not None and nested_vertex.inner is not None:
                    return graph.lookup(nested_vertex.inner, nested.canonical_link)
                nxt = nested_vertex
                break
        current = nxt
    return None


def has_link(model: Model) -> bool:
    stack = [model]
    while stack:
        m = stack.pop()
        if m.links:
            return True
        stack.extend(m.models)
    return False


def build_graph(document: Document, diagnostics: Diagnostics) -> FrameGraph:
    return Builder(diagnostics).build(document)
