"""Custom model parsers: the Python counterpart of the composition proposal's
interface API (section 1.5).

A parser is registered on the ``Context`` and called for an ``<include>`` whose
file is not ``.sdf``/``.world`` (for ``.urdf`` before our own URDF reader)::

    def parse_toml(include: NestedInclude, errors: list) -> InterfaceModel | None

It returns ``None`` to let the next parser try (the latest registered goes
first), or an :class:`InterfaceModel`: a name, a canonical link, links posed in
the model frame, frames attached to links or ``__model__``, nested interface
models. A ``model_in_canonical_link`` the parser states (X_LcM) must be the inverse of
its canonical link's pose, or the include is refused (MODEL_CANONICAL_LINK_INVALID).
These join the frame graph like any model: they can be referenced,
posed against and jointed to. Errors the parser appends (strings or
``(code, message)``) become diagnostics at the include's file:line. After the
graph is resolved, each model's ``reposture`` callback receives a
:class:`ResolvedModel` to read its resolved poses.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import MODEL_FRAME, WORLD, Frame, Link, Model, PoseSpec
from urdf_sdf.core.base.pose import IDENTITY, Pose, pose_gap
from urdf_sdf.core.compose.rules import STANDARD_INCLUDE_CHILDREN
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.read import sdf as reader
from urdf_sdf.core.read.version import NEWEST_VERSION


@dataclass
class NestedInclude:
    uri: str
    resolved_file_name: str
    local_model_name: str
    absolute_model_name: str
    is_static: bool
    # Children of <include> the parser may read: its custom (namespaced or unknown) ones.
    virtual_custom_elements: list = field(default_factory=list)


@dataclass
class InterfaceFrame:
    name: str
    attached_to: str = MODEL_FRAME
    pose_in_attached_to: Pose = IDENTITY


@dataclass
class InterfaceLink:
    name: str
    pose_in_model: Pose = IDENTITY


@dataclass
class InterfaceModel:
    name: str
    canonical_link: str
    # The model frame in the canonical link's frame (X_LcM). Links are given in the model
    # frame, so it is implied by the canonical link's pose; when a parser states it too
    # (the proposal's constructor takes it), the two must agree or the include is refused.
    model_in_canonical_link: Pose | None = None
    links: list[InterfaceLink] = field(default_factory=list)
    frames: list[InterfaceFrame] = field(default_factory=list)
    models: list[InterfaceModel] = field(default_factory=list)
    reposture: Callable[[ResolvedModel], None] | None = None


@dataclass
class ResolvedModel:
    """What a reposture callback can ask: resolved poses of its own model's frames."""
    result: Any
    scoped_name: str

    def model_pose_in_world(self) -> Pose | None:
        return self.result.pose(self.scoped_name)

    def frame_pose(self, frame: str, relative_to: str = WORLD) -> Pose | None:
        """A frame of this model (its local name) relative to ``world`` (the root frame)
        or to another frame of the model."""
        base = "" if relative_to == WORLD else f"{self.scoped_name}::{relative_to}"
        return self.result.pose(f"{self.scoped_name}::{frame}", base)


def custom_children(el) -> list:
    return [c for c in el if isinstance(c.tag, str) and
            (c.tag.startswith("{") or ":" in c.tag or c.tag not in STANDARD_INCLUDE_CHILDREN)]


def run_custom_parsers(uri: str, path: str, el, state, parent, sub) -> Model | None:
    """Ask the registered parsers, latest first, for the model of this include."""
    local = reader.child_text(el, "name") or ""
    static_el = reader.child(el, "static")
    absolute = "::".join([n for n in state.model_path if n] + ([local] if local else []))
    include = NestedInclude(uri, path, local, absolute,
                            bool(static_el is not None and reader.read_bool(static_el, state)),
                            custom_children(el))
    for parser in reversed(state.context.model_parsers):
        errors: list = []
        interface = parser(include, errors)
        for error in errors:
            code, message = error if isinstance(error, tuple) else (Code.ELEMENT_INVALID, error)
            sub.error_at(code, f"custom parser for [{uri}]: {message}", state.src(el))
        if errors:
            return None
        if interface is not None:
            bad = find_scoped_name(interface)
            if bad is not None:
                sub.error_at(Code.RESERVED_NAME, f"custom parser for [{uri}] returned the model "
                             f"name [{bad}], which contains '::'", state.src(el))
                return None
            contradiction = canonical_pose_contradiction(interface)
            if contradiction is not None:
                sub.error_at(Code.MODEL_CANONICAL_LINK_INVALID,
                             f"custom parser for [{uri}]: {contradiction}", state.src(el))
                return None
            return interface_to_model(interface, state.src(el), path)
    return None


def find_scoped_name(interface: InterfaceModel) -> str | None:
    """The first interface model name (itself or nested) that contains '::'."""
    stack = [interface]
    while stack:
        current = stack.pop()
        if "::" in current.name:
            return current.name
        stack.extend(current.models)
    return None


# Largest gap (metres or radians) between the canonical link pose a parser states twice.
POSE_AGREEMENT = 1e-9


def canonical_pose_contradiction(interface: InterfaceModel) -> str | None:
    """Why the model's ``model_in_canonical_link`` (X_LcM) contradicts its canonical link's
    pose in the model frame (X_MLc: X_LcM must be its inverse), for it or a nested model;
    None when they agree. A canonical link that is not among the links is left to the frame
    graph (MODEL_CANONICAL_LINK_INVALID at the include)."""
    stack = [interface]
    while stack:
        current = stack.pop()
        stack.extend(current.models)
        canonical = next((link for link in current.links
                          if link.name == current.canonical_link), None)
        stated = current.model_in_canonical_link
        if canonical is None or stated is None:
            continue
        gap = pose_gap(stated, canonical.pose_in_model.inverse())
        if gap > POSE_AGREEMENT:
            return (f"model [{current.name}]'s model_in_canonical_link {_pose_text(stated)} "
                    f"contradicts its canonical link [{canonical.name}] posed at "
                    f"{_pose_text(canonical.pose_in_model)} in the model frame (the model frame "
                    f"in the link is the inverse of that; they differ by {gap:.3g})")
    return None


def _pose_text(pose: Pose) -> str:
    return "[" + " ".join(f"{v + 0.0:.6g}" for v in (*pose.position, *pose.rpy())) + "]"  # no -0


def interface_to_model(interface: InterfaceModel, source, path: str) -> Model:
    """An interface model as a core model: its links, frames and nested models."""
    model = Model(name=interface.name, canonical_link=interface.canonical_link or None,
                  source=source, version=NEWEST_VERSION, included_from=path, interface=interface)
    for link in interface.links:
        model.links.append(Link(name=link.name, pose=PoseSpec(link.pose_in_model, None,
                                                              source=source),
                                source=source))
    for frame in interface.frames:
        attached = None if frame.attached_to in ("", MODEL_FRAME) else frame.attached_to
        model.frames.append(Frame(name=frame.name, attached_to=attached,
                                  pose=PoseSpec(frame.pose_in_attached_to, attached,
                                                source=source), source=source))
    for nested in interface.models:
        model.models.append(interface_to_model(nested, source, path))
    return model


def call_repostures(result) -> None:
    """After resolution: hand each custom model its resolved poses."""
    graph = result.graph
    if graph is None:
        return
    for vertex in graph.vertices:
        if vertex.kind is Kind.MODEL:
            interface = getattr(vertex.element, "interface", None)
            if interface is not None and interface.reposture is not None:
                interface.reposture(ResolvedModel(result, vertex.scoped_name))
