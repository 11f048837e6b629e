"""Property: random SDFormat models convert to URDF, and the URDF is equivalent.

Random valid SDFormat model documents -- SDFormat 1.9 mostly, some 1.6 (nested models,
``use_parent_model_frame``) and some 1.4 (axes in the model frame) -- are converted by
``sdf2urdf``. The conversion must succeed, ``check_urdf`` must accept the URDF, the core
must load it, and ``core.diff.compare.diff_results(source, urdf)`` must find no difference at the
default tolerance (1e-9: names, joint types, parents, children, axes, limits, every named
frame's pose at the zero and at random configurations, inertials, visuals, collisions).

Three tests: ``ToUrdf()`` as it is; ``ToUrdf(separator="__")``, where the diff reads the
URDF's flattened names back as scoped names (``FlattenedNames``: the comparison is
``diff_results``' own, only the names are translated); and the latter on models of at
most 6 links, which reach the small corner cases more often.

What a generated 1.9 model holds:

* a random tree of 1 to 40 links over the top model and up to 4 nested models (nested
  in one another), every URDF-expressible joint type (fixed, revolute, continuous,
  prismatic) with axes in random directions, ``expressed_in`` another frame or
  ``__model__``, and limits with effort and velocity;
* joints in the scope that holds both links or an outer one, whose ``<parent>`` and
  ``<child>`` are links, explicit frames, other joints or nested-model frames attached to
  the right links, with ``::`` references into nested models;
* link, joint, frame and nested-model poses ``relative_to`` the model frame (implicitly
  or as ``__model__``), a link, a joint, a frame or a nested model or its content, in an
  order that can never make a ``relative_to`` cycle: every pose names only frames placed
  before it, and a joint placed before its child link (so that the child can be posed
  relative to it, as in URDF) names an explicit frame;
* in half the models the URDF style: joints placed before their child links and posed
  relative to their parent frames, child links posed relative to their joints (often at
  them), so that sdf2urdf's text-copying paths run too;
* explicit frames attached to the model frame, links, joints, frames or nested models;
* nested models posed relative to frames of the enclosing scope, with a ``canonical_link``
  attribute or the first link as canonical link;
* inertials with random poses (never ``relative_to``: libsdformat refuses it there), and
  box, cylinder and sphere visuals and collisions with random poses, sometimes
  ``relative_to`` a frame of the link's scope;
* a random pose of the top model itself;
* random angles, among them pitch at and within 1e-9..1e-6 of +-pi/2, roll and yaw at and
  near +-pi, quaternions (``rotation_format="quat_xyzw"``) and degrees.

The 1.6 models have no frames and no ``relative_to``; 1.4 models have no nested models.

Every discrete choice is drawn by Hypothesis (so it shrinks them); the numbers of each
element come from ``random.Random`` seeded with the example's seed and the element's name,
so that an element keeps its numbers while the shrinker removes others. The generator
asserts that the core loads every model it makes: a failure there is a generator bug.

The settings use no example database (a failure saved on one machine never changes what
CI runs), and under CI (``$CI`` set) the examples are derandomised so that a run is
reproducible; a failing example is printed as its SDF text.
"""
from __future__ import annotations

import math
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

import urdf_sdf.core.diff.compare as core_diff
from tests.support import (
    CHECK_URDF_HINT,
    IN_CI,
    check_urdf,
    examples,
    program,
    rpy_for,
    signed,
    tiny,
)
from urdf_sdf import load_string
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf

MAX_LINKS = 40
MAX_NESTED_MODELS = 4
MAX_FRAMES = 12
VERSIONS = ("1.9", "1.9", "1.9", "1.6", "1.6", "1.4")  # shrinks towards 1.9
JOINT_TYPES = ("fixed", "revolute", "continuous", "prismatic")
# How a <pose> is written and which angles it holds (shrinks towards "none").
POSE_KINDS = ("none", "identity", "xyz", "random", "gimbal_near", "gimbal_exact", "near_pi",
              "pi_exact", "gimbal_and_pi", "axis_aligned", "quat", "degrees")
POSE_KINDS_OLD = POSE_KINDS[:-2]   # quat_xyzw and degrees are SDFormat 1.9
GEOMETRIES = ("box", "cylinder", "sphere")


# ---- numbers ------------------------------------------------------------------------------

def num(value: float) -> str:
    """Shortest round-trip text: the file holds exactly the number the oracle uses."""
    return repr(float(value))


def nums(values) -> str:
    return " ".join(num(v) for v in values)


def xyz_for(kind: str, rng: random.Random) -> tuple[float, float, float]:
    if kind == "identity":
        return (0.0, 0.0, 0.0)
    return tuple(rng.choice([0.0, rng.uniform(-1, 1), rng.uniform(-1, 1)]) for _ in range(3))


def pose_xml(kind: str, relative_to: str | None, rng: random.Random) -> str:
    """A ``<pose>`` element of the given kind (nothing for "none" without relative_to)."""
    attributes = f' relative_to="{relative_to}"' if relative_to is not None else ""
    if kind == "none":
        return f"<pose{attributes}/>" if relative_to is not None else ""
    xyz = xyz_for(kind, rng)
    if kind == "quat":
        while True:
            q = [rng.gauss(0, 1) for _ in range(4)]
            norm = math.sqrt(sum(c * c for c in q))
            if norm > 1e-3:
                break
        if rng.random() < 0.7:
            q = [c / norm for c in q]   # else not normalised: the reader normalises
        return (f'<pose{attributes} rotation_format="quat_xyzw">{nums(xyz)} {nums(q)}'
                "</pose>")
    if kind == "degrees":
        rpy = rng.choice([(rng.uniform(-180, 180), rng.uniform(-90, 90), rng.uniform(-180, 180)),
                          (rng.uniform(-180, 180), signed(rng, 90.0), rng.uniform(-180, 180)),
                          (180.0, 0.0, signed(rng, 180.0 - tiny(rng))),
                          (45.0, signed(rng, 90 - tiny(rng)), 30.0)])
        return f'<pose{attributes} degrees="true">{nums(xyz)} {nums(rpy)}</pose>'
    rpy = rpy_for(kind, rng, zero_kinds=("identity", "xyz"))
    return f"<pose{attributes}>{nums(xyz)} {nums(rpy)}</pose>"


def axis_for(rng: random.Random) -> tuple[float, float, float]:
    choice = rng.random()
    if choice < 0.3:
        return rng.choice([(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, -1.0),
                           (-1.0, 0.0, 0.0)])
    if choice < 0.4:   # almost along an axis
        axis = [0.0, 0.0, 0.0]
        axis[rng.randrange(3)] = 1.0
        axis[rng.randrange(3)] += signed(rng, tiny(rng))
        return tuple(axis)
    while True:        # any direction, not normalised
        axis = tuple(rng.uniform(-2, 2) for _ in range(3))
        if math.hypot(*axis) > 1e-3:
            return axis


# ---- the model ----------------------------------------------------------------------------

@dataclass(eq=False)
class Scope:
    """A model's name scope: the top model (path ``()``) or a nested model."""
    path: tuple[str, ...]
    parent: Scope | None = None
    entity: Entity | None = None          # the nested model's own entity
    canonical: Entity | None = None       # its canonical link
    canonical_attribute: str | None = None  # canonical_link="..." (None: first link)
    members: list[Entity] = field(default_factory=list)

    def within(self, other: Scope) -> bool:
        """Is this scope ``other`` or nested in it (names here are visible from there)?"""
        scope: Scope | None = self
        while scope is not None:
            if scope is other:
                return True
            scope = scope.parent
        return False

    @property
    def depth(self) -> int:
        return len(self.path)


@dataclass(eq=False)
class Entity:
    kind: str                 # model, link, joint, frame
    name: str
    scope: Scope              # the scope the element is written in
    inner: Scope | None = None  # a model's own scope
    placed: bool = False
    pose_kind: str = "none"
    relative_to: str | None = None
    # links: (kind, relative_to) of the inertial, visuals and collisions
    inertial: tuple[str, bool] | None = None   # (pose kind, products of inertia)
    shapes: list[tuple[str, str, str, str | None]] = field(default_factory=list)
    # joints
    joint_type: str = ""
    parent_link: Entity | None = None
    child_link: Entity | None = None
    parent_ref: str = ""
    child_ref: str = ""
    expressed_in: str | None = None
    use_parent_model_frame: str | None = None
    limit: str = "none"
    # frames
    attached_to: str | None = None
    attached: Entity | None = None    # the link a frame is attached to

    @property
    def scoped_name(self) -> str:
        return "::".join(self.scope.path + (self.name,))

    def link(self) -> Entity:
        """The link this frame rides on (its attached_to chain's end)."""
        if self.kind == "link":
            return self
        if self.kind == "joint":
            return self.child_link
        if self.kind == "model":
            return self.inner.canonical
        return self.attached

    def ref(self, scope: Scope) -> str:
        """This frame's name as seen from ``scope`` (``nested::name`` downwards)."""
        assert self.scope.within(scope), (self.scoped_name, scope.path)
        return "::".join(self.scope.path[scope.depth:] + (self.name,))


@dataclass
class SdfModel:
    version: str
    seed: int
    top: Scope
    entities: list[Entity]
    separator: str | None     # ToUrdf.separator; None: ToUrdf() as it is
    shuffle: bool
    scopes: list[Scope]
    top_pose: str = "none"   # pose kind of the top model (a model frame posed in nothing)

    def __repr__(self) -> str:   # what Hypothesis prints for a falsifying example
        return f"SdfModel(separator={self.separator!r}, sdf=\n{self.sdf()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(repr(self))

    def rng(self, *key) -> random.Random:
        return random.Random("/".join(str(k) for k in (self.seed,) + key))

    @property
    def legacy(self) -> bool:
        return self.version != "1.9"

    def sdf(self) -> str:
        pose = pose_xml(self.top_pose, None, self.rng("random_model", "pose"))
        body = self.model_xml(self.top, "random_model", pose, "  ")
        return f'<?xml version="1.0"?>\n<sdf version="{self.version}">\n{body}</sdf>\n'

    def model_xml(self, scope: Scope, name: str, pose: str, indent: str) -> str:
        attributes = f' canonical_link="{scope.canonical_attribute}"' \
            if scope.canonical_attribute is not None else ""
        members = list(scope.members)
        if self.shuffle:
            self.rng("order", *scope.path).shuffle(members)
        if scope.canonical_attribute is None:
            # Without the attribute the canonical link is the first <link>.
            members.remove(scope.canonical)
            members.insert(0, scope.canonical)
        inner = indent + "  "
        lines = [f'{indent}<model name="{name}"{attributes}>\n']
        if pose:
            lines.append(f"{inner}{pose}\n")
        for entity in members:
            lines.append(self.entity_xml(entity, inner))
        lines.append(f"{indent}</model>\n")
        return "".join(lines)

    def pose(self, entity: Entity, *key) -> str:
        return pose_xml(entity.pose_kind, entity.relative_to,
                        self.rng(entity.scoped_name, "pose", *key))

    def entity_xml(self, entity: Entity, indent: str) -> str:
        if entity.kind == "model":
            return self.model_xml(entity.inner, entity.name, self.pose(entity), indent)
        if entity.kind == "link":
            return self.link_xml(entity, indent)
        if entity.kind == "joint":
            return self.joint_xml(entity, indent)
        attached = f' attached_to="{entity.attached_to}"' if entity.attached_to is not None else ""
        return f'{indent}<frame name="{entity.name}"{attached}>{self.pose(entity)}</frame>\n'

    def link_xml(self, link: Entity, indent: str) -> str:
        rng = self.rng(link.scoped_name, "content")
        body = [self.pose(link)]
        if link.inertial is not None:
            kind, spin = link.inertial
            mass = rng.uniform(0.1, 10.0)
            moments = principal_moments(mass, rng)
            tensor = rotated_tensor(moments, rng) if spin else diagonal(moments)
            names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
            inertia = "".join(f"<{k}>{num(v)}</{k}>" for k, v in zip(names, tensor))
            body.append(f"<inertial>{pose_xml(kind, None, rng)}<mass>{num(mass)}</mass>"
                        f"<inertia>{inertia}</inertia></inertial>")
        for i, (tag, geometry, kind, relative_to) in enumerate(link.shapes):
            shape_rng = self.rng(link.scoped_name, tag, i)
            body.append(f'<{tag} name="{tag}_{i}">{pose_xml(kind, relative_to, shape_rng)}'
                        f"<geometry>{geometry_xml(geometry, shape_rng)}</geometry></{tag}>")
        return f'{indent}<link name="{link.name}">{"".join(body)}</link>\n'

    def joint_xml(self, joint: Entity, indent: str) -> str:
        rng = self.rng(joint.scoped_name, "axis")
        body = [f"<parent>{joint.parent_ref}</parent><child>{joint.child_ref}</child>",
                self.pose(joint)]
        if joint.joint_type != "fixed":
            expressed = f' expressed_in="{joint.expressed_in}"' \
                if joint.expressed_in is not None else ""
            axis = f"<xyz{expressed}>{nums(axis_for(rng))}</xyz>"
            if joint.use_parent_model_frame is not None:
                axis += f"<use_parent_model_frame>{joint.use_parent_model_frame}" \
                        "</use_parent_model_frame>"
            if joint.limit != "none":
                limit = ""
                if joint.joint_type != "continuous":
                    lower, upper = sorted((rng.uniform(-3, 3), rng.uniform(-3, 3)))
                    limit += f"<lower>{num(lower)}</lower><upper>{num(upper)}</upper>"
                limit += (f"<effort>{num(rng.uniform(0.5, 100))}</effort>"
                          f"<velocity>{num(rng.uniform(0.1, 10))}</velocity>")
                axis += f"<limit>{limit}</limit>"
            body.append(f"<axis>{axis}</axis>")
        return (f'{indent}<joint name="{joint.name}" type="{joint.joint_type}">{"".join(body)}'
                "</joint>\n")


def principal_moments(mass: float, rng: random.Random) -> tuple[float, float, float]:
    """A solid box's moments: always physical (triangle inequality holds)."""
    a, b, c = (rng.uniform(0.05, 1.0) for _ in range(3))
    return (mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12,
            mass * (a * a + b * b) / 12)


def diagonal(moments) -> tuple[float, ...]:
    return (moments[0], 0.0, 0.0, moments[1], 0.0, moments[2])


def rotated_tensor(moments, rng: random.Random) -> tuple[float, ...]:
    """R diag(moments) R^T for a random rotation R: products of inertia."""
    import numpy as np
    from scipy.spatial.transform import Rotation
    r = Rotation.from_quat([rng.gauss(0, 1) for _ in range(4)]).as_matrix()
    t = r @ np.diag(moments) @ r.T
    return (t[0, 0], t[0, 1], t[0, 2], t[1, 1], t[1, 2], t[2, 2])


def geometry_xml(kind: str, rng: random.Random) -> str:
    if kind == "box":
        return f"<box><size>{nums(rng.uniform(0.01, 1) for _ in range(3))}</size></box>"
    if kind == "cylinder":
        return (f"<cylinder><radius>{num(rng.uniform(0.01, 0.5))}</radius>"
                f"<length>{num(rng.uniform(0.01, 1))}</length></cylinder>")
    return f"<sphere><radius>{num(rng.uniform(0.01, 0.5))}</radius></sphere>"


# ---- the generator ------------------------------------------------------------------------

def lowest_common_scope(a: Scope, b: Scope) -> Scope:
    while not b.within(a):
        a = a.parent
    return a


@st.composite
def sdf_models(draw, max_links: int = MAX_LINKS,
               separators: tuple[str | None, ...] = (None, "__")) -> SdfModel:
    seed = draw(st.integers(0, 2**32 - 1))
    version = draw(st.sampled_from(VERSIONS))
    modern = version == "1.9"
    separator = draw(st.sampled_from(separators))
    shuffle = draw(st.booleans())
    n = draw(st.integers(1, max_links))
    pose_kinds = POSE_KINDS if modern else POSE_KINDS_OLD

    def pick(items):
        """One of ``items`` (shrinks towards the first)."""
        return items[draw(st.integers(0, len(items) - 1))]

    # Scopes: the top model and nested models (not in 1.4), each with a link of its own.
    top = Scope(())
    scopes = [top]
    entities: list[Entity] = []
    nested = draw(st.integers(0, min(MAX_NESTED_MODELS, n - 1))) if version != "1.4" else 0
    for j in range(nested):
        parent = pick(scopes)
        model = Entity("model", f"model_{j + 1}", parent)
        model.inner = Scope(parent.path + (model.name,), parent, model)
        parent.members.append(model)
        scopes.append(model.inner)
        entities.append(model)
    links = []
    for i in range(n):
        scope = top if i == 0 else scopes[i] if i < len(scopes) else pick(scopes)
        link = Entity("link", f"link_{i}", scope)
        scope.members.append(link)
        links.append(link)
        entities.append(link)
    # Canonical links: the first <link> (written first), or canonical_link naming any link
    # of the model's subtree (nested ones with ::).
    for scope in scopes:
        own = [e for e in scope.members if e.kind == "link"]
        subtree = [link for link in links if link.scope.within(scope)]
        if modern and draw(st.booleans()) and draw(st.booleans()):
            scope.canonical = pick(subtree)
            scope.canonical_attribute = scope.canonical.ref(scope)
        else:
            scope.canonical = pick(own)

    # The kinematic tree: a random order of the links, each after the first with an earlier
    # parent; the joint lives where both links are visible (or further out).
    order = draw(st.permutations(range(n)))
    joints = []
    for position in range(1, n):
        child = links[order[position]]
        parent = links[order[draw(st.integers(0, position - 1))]]
        scope = lowest_common_scope(parent.scope, child.scope)
        for _ in range(draw(st.integers(0, scope.depth))):
            scope = scope.parent
        joint = Entity("joint", f"joint_{order[position]}", scope,
                       joint_type=draw(st.sampled_from(JOINT_TYPES)),
                       parent_link=parent, child_link=child)
        scope.members.append(joint)
        joints.append(joint)
        entities.append(joint)
    frames = []
    if modern:
        for i in range(draw(st.integers(0, min(MAX_FRAMES, n)))):
            scope = pick(scopes)
            frame = Entity("frame", f"frame_{i}", scope)
            scope.members.append(frame)
            frames.append(frame)
            entities.append(frame)

    # Place every element in an order in which each pose names only frames placed before
    # it (so relative_to can never cycle), and each attached_to / joint parent and child
    # names only placed frames (whose links are known).
    def scope_placed(scope: Scope) -> bool:
        return scope.entity is None or scope.entity.placed

    def visible(scope: Scope) -> list[Entity]:
        return [e for e in placed if e.scope.within(scope)]

    def choose_frame(scope: Scope, default_allowed: bool = True) -> str | None:
        """relative_to / attached_to: default, __model__, or a placed frame."""
        options = visible(scope)
        modes = (("default",) if default_allowed else ()) + ("model",) + \
            (("frame",) if options else ())
        mode = draw(st.sampled_from(modes))
        if mode == "default":
            return None
        if mode == "model":
            return "__model__"
        return pick(options).ref(scope)

    def resolve(scope: Scope, reference: str | None) -> Entity:
        """The link a frame reference rides on."""
        if reference is None or reference == "__model__":
            return scope.canonical
        for e in placed:
            if e.scope.within(scope) and e.ref(scope) == reference:
                return e.link()
        raise AssertionError(reference)

    # In the URDF style (1.9), joints come before their child links, posed relative to
    # their parent frames, and child links sit at (or relative to) their joints: the
    # structure under which sdf2urdf copies pose text.
    urdf_style = modern and draw(st.booleans())
    parent_joint = {joint.child_link: joint for joint in joints}
    placed: list[Entity] = []
    pending = list(entities)
    while pending:
        ready = []
        for e in pending:
            if not scope_placed(e.scope):
                continue
            if e.kind == "joint" and not (e.parent_link.placed and
                                          (modern or e.child_link.placed)):
                continue
            if urdf_style and e in parent_joint and not parent_joint[e].placed:
                continue
            ready.append(e)
        entity = pick(ready)
        pending.remove(entity)
        scope = entity.scope
        entity.pose_kind = draw(st.sampled_from(pose_kinds))
        joint = parent_joint.get(entity)
        if entity.kind == "link" and urdf_style and joint is not None and \
                joint.scope.within(scope) and draw(st.booleans()):
            # URDF's way: the link frame at its joint frame.
            entity.relative_to = joint.ref(scope)
            if draw(st.booleans()):
                entity.pose_kind = "none"
        elif entity.kind in ("model", "link"):
            if modern:
                entity.relative_to = choose_frame(scope)
        elif entity.kind == "frame":
            entity.attached_to = choose_frame(scope)
            entity.attached = resolve(scope, entity.attached_to)
            entity.relative_to = choose_frame(scope)
        else:
            parent, child = entity.parent_link, entity.child_link
            if modern:
                entity.parent_ref = pick([e for e in visible(scope)
                                          if e.link() is parent]).ref(scope)
                if child.placed:
                    entity.child_ref = pick([e for e in visible(scope)
                                             if e.link() is child]).ref(scope)
                    entity.relative_to = choose_frame(scope)
                else:
                    # Placed before its child link, which may then be posed relative to it;
                    # its pose must name a placed frame (its child would make a cycle).
                    entity.child_ref = child.ref(scope)
                    if urdf_style or draw(st.booleans()):
                        entity.relative_to = entity.parent_ref   # as a URDF joint origin
                    else:
                        entity.relative_to = choose_frame(scope, default_allowed=False)
            else:
                entity.parent_ref, entity.child_ref = parent.ref(scope), child.ref(scope)
        entity.placed = True
        placed.append(entity)

    # What needs no ordering: axes, limits, inertials, visuals and collisions.
    for joint in joints:
        if joint.joint_type == "fixed":
            continue
        if version == "1.9":
            mode = draw(st.sampled_from(("default", "model", "frame")))
            if mode == "model":
                joint.expressed_in = "__model__"
            elif mode == "frame":
                joint.expressed_in = pick(visible(joint.scope)).ref(joint.scope)
        elif version == "1.6":
            joint.use_parent_model_frame = draw(st.sampled_from((None, "true", "false")))
        if joint.joint_type == "continuous":
            joint.limit = draw(st.sampled_from(("limit", "none")))
        else:
            joint.limit = "limit"
    for link in links:
        if draw(st.booleans()):
            link.inertial = (draw(st.sampled_from(pose_kinds)), draw(st.booleans()))
        for tag in ("visual", "collision"):
            for _ in range(draw(st.integers(0, 2))):
                relative_to = None
                if modern and draw(st.booleans()):
                    relative_to = pick(["__model__"] + [e.ref(link.scope)
                                                        for e in visible(link.scope)])
                link.shapes.append((tag, draw(st.sampled_from(GEOMETRIES)),
                                    draw(st.sampled_from(pose_kinds)), relative_to))
    return SdfModel(version, seed, top, entities, separator, shuffle, scopes,
                    draw(st.sampled_from(pose_kinds)))


# ---- the property -------------------------------------------------------------------------

def errors(diagnostics) -> list[str]:
    return [d.format() for d in diagnostics if d.is_error]


def load_source(text: str):
    loaded = load_string(text, "random_model.sdf")
    assert loaded.ok, ("generator bug: the core rejects a generated model", errors(
        loaded.diagnostics))
    return loaded


class FlattenedNames(core_diff.Description):
    """The URDF side of a diff when nested models were flattened with ``separator``: the
    same description with URDF names (``model_1__link_3``) read as the SDF's scoped names
    (``model_1::link_3``), so that ``diff_results`` matches them. The mapping is one to
    one: generated names never hold the separator."""

    def __init__(self, result, separator: str):
        super().__init__(result)
        self.separator = separator
        scoped = self.scoped
        tree = self.tree
        tree.links = [scoped(name) for name in tree.links]
        tree.link_poses = {scoped(k): v for k, v in tree.link_poses.items()}
        tree.parent_joint = {scoped(k): v for k, v in tree.parent_joint.items()}
        tree.children = {scoped(k): v for k, v in tree.children.items()}
        for joint in tree.joints + tree.constraints:
            joint.name, joint.parent, joint.child = (scoped(joint.name), scoped(joint.parent),
                                                     scoped(joint.child))
        self.frames = {scoped(k): (scoped(link), pose) for k, (link, pose) in self.frames.items()}
        self.joints = {joint.name: joint for joint in tree.joints}
        self.result = _RenamedResult(result, self.urdf_name)

    def scoped(self, name: str) -> str:
        assert "::" not in name, f"separator {self.separator!r}, yet the URDF has {name!r}"
        return name.replace(self.separator, "::")

    def urdf_name(self, name: str) -> str:
        return name.replace("::", self.separator)

    def link(self, name: str):
        return super().link(self.urdf_name(name))


class _RenamedResult:
    def __init__(self, result, urdf_name):
        self._result, self._urdf_name = result, urdf_name
        self.document, self.graph = result.document, result.graph

    def pose_in_link(self, link: str, spec):
        return self._result.pose_in_link(self._urdf_name(link), spec)


def diff_flattened(source, urdf, separator: str) -> list:
    """``core.diff.compare.diff_results(source, urdf)`` with the URDF's flattened names read back
    as scoped names (the same comparison; only the names are translated)."""
    if separator == "::":
        return diff_results(source, urdf)
    original = core_diff.Description

    def description(result, model=None):
        return FlattenedNames(result, separator) if result is urdf else original(result, model)

    with mock.patch.object(core_diff, "Description", description):
        return diff_results(source, urdf)


def run_check_urdf(urdf: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random_model.urdf"
        path.write_bytes(urdf)
        done = check_urdf(path)
    assert done.returncode == 0 and "Successfully Parsed" in done.stdout, (
        f"check_urdf rejects the URDF:\n{done.stdout}\n{done.stderr}\n{urdf.decode()}")


def check_model(model: SdfModel) -> None:
    text = model.sdf()   # Hypothesis prints it (SdfModel.__repr__) for a failing example
    event(f"version {model.version}")
    event(f"nested models: {'yes' if len(model.scopes) > 1 else 'no'}")
    links = sum(e.kind == "link" for e in model.entities)
    event(f"links: {'1' if links == 1 else '2-9' if links < 10 else '10-40'}")
    load_source(text)

    options = ToUrdf() if model.separator is None else ToUrdf(separator=model.separator)
    conversion = convert_sdf(load_source(text), options)
    assert conversion.ok, errors(conversion.diagnostics)
    urdf = conversion.xml
    note(urdf.decode())
    run_check_urdf(urdf)
    target = load_string(urdf, "random_model.urdf")
    assert target.ok, ("the core cannot load the URDF it converted to",
                       errors(target.diagnostics))
    differences = diff_flattened(load_source(text), target, options.separator)
    assert not differences, "\n".join(d.format() for d in differences)


PROFILE = dict(database=None, derandomize=IN_CI, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module")
def check_urdf_installed() -> str:
    """Every random URDF must pass check_urdf: without it the tests skip (fail under CI)
    before Hypothesis generates anything. Module-scoped: Hypothesis reruns the body, not
    function-scoped fixtures."""
    return program("check_urdf", "the check_urdf program", CHECK_URDF_HINT)


@settings(max_examples=examples(100), **PROFILE)
@given(sdf_models(separators=(None,)))
def test_random_sdf_models_convert_with_default_options_to_an_equivalent_urdf(
        check_urdf_installed, model):
    check_model(model)


@settings(max_examples=examples(100), **PROFILE)
@given(sdf_models(separators=("__",)))
def test_random_sdf_models_flattened_with_a_separator_convert_to_an_equivalent_urdf(
        check_urdf_installed, model):
    check_model(model)


@settings(max_examples=examples(100), **PROFILE)
@given(sdf_models(max_links=6, separators=("__",)))
def test_small_random_sdf_models_convert_to_an_equivalent_urdf(check_urdf_installed, model):
    # Small models reach the corner cases (one link, a nested model whose only link is
    # the root, a frame on the only link) far more often than models of up to 40 links.
    check_model(model)
