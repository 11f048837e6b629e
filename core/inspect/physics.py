"""The physics tier of ``check --physics``: what a simulator will choke on or get wrong
in a model that loads, each finding a warning with its own code, the element and its
file:line.

* ``PHYSICS_MASS_ZERO``: a link of mass 0 on a moving joint (SDFormat; a URDF's massless
  moving link is ``LINK_MASSLESS_MOVING``, which every ``check`` reports);
* ``PHYSICS_INERTIA_ZERO``: a link with mass whose inertia tensor is all zeros;
* ``PHYSICS_INERTIA_IMPLAUSIBLE``: a declared inertia whose trace is more than
  :data:`IMPLAUSIBLE_FACTOR` times above or below what the link's collision primitives
  imply for its mass (a tensor that is not positive definite or breaks the triangle
  inequality is ``LINK_INERTIA_INVALID``, which the reader reports for every ``check``
  by libsdformat's rule and tolerance, ``core.base.inertia``);
* ``PHYSICS_LIMIT_NEGATIVE``: a URDF limit with a negative velocity or effort (in
  SDFormat a negative value means "no limit");
* ``PHYSICS_AXIS_NOT_UNIT``: a joint axis written with a norm other than 1 (beyond
  :data:`AXIS_TOLERANCE`; a zero axis is refused by the reader);
* ``PHYSICS_MESH_SCALE_ZERO``: a mesh scaled by 0 along an axis;
* ``PHYSICS_EFFORT_TOO_LOW``: a joint whose effort limit cannot hold the links below it
  (and any payload) against gravity at the zero configuration;
* ``PHYSICS_MIMIC_CYCLE``: joints that mimic each other in a cycle.

Every rule visits each link and joint a bounded number of times: the tier is linear in
the model's size, and follows no reference chain without marking where it has been (a
loop of joints or of mimics ends).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import WORLD, Joint, Link
from urdf_sdf.core.base.pose import Pose, rotate
from urdf_sdf.core.inspect.rules import joint_mimics, scoped_models

# Standard gravity (m/s^2), along -z of the root frame (the world, or the top model).
GRAVITY = 9.80665
# A declared inertia further than this factor from what the collision shapes imply.
IMPLAUSIBLE_FACTOR = 100.0
# How far from 1 the norm of a written axis may be (texts rounded to 4 digits pass).
AXIS_TOLERANCE = 1e-3
# How far (m) a point mass must lie from its revolute axis to have inertia about it.
AXIS_OFFSET = 1e-6
# The torque or force gravity needs beyond the effort limit before it is a finding:
# relative, so that a limit sized exactly for the load passes.
EFFORT_TOLERANCE = 1e-6
MOVING_JOINT_TYPES = frozenset({"revolute", "continuous", "prismatic"})
# Joints that leave their child free in the plane or in space.
FREE_JOINT_TYPES = frozenset({"floating", "planar"})
PRIMITIVES = frozenset({"box", "cylinder", "sphere", "capsule"})


@dataclass(frozen=True)
class Entities:
    """A document's links and joints under their scoped names, and its source format."""
    links: dict[str, Link]
    joints: dict[str, Joint]
    # joint scoped name -> (scoped parent link, scoped child link)
    ends: dict[str, tuple[str, str]]
    source_format: str


def physics_findings(result, payloads: Mapping[str, float] | None = None) -> Diagnostics:
    """The physics tier's findings for a loaded document (``result``: a ``LoadResult``
    that loaded), with ``payloads`` (scoped link name -> kg) hung at those links' frames."""
    diagnostics = Diagnostics()
    document = result.document
    entities = document_entities(document)
    file = document.file
    payloads = dict(payloads or {})
    for name in payloads:
        if name not in entities.links:
            diagnostics.error(Code.ELEMENT_MISSING, f"--payload names link [{name}], which "
                              "is not a link of the model", file)
    if diagnostics:
        return diagnostics
    parents = {entities.ends[name][1]: name for name in entities.joints}
    loads = subtree_loads(result, entities, payloads)
    for name, link in entities.links.items():
        link_findings(result, name, link, parents.get(name), entities, loads, diagnostics)
    for joint in entities.joints.values():
        joint_findings(joint, entities.source_format, diagnostics)
    effort_findings(result, entities, loads, diagnostics)
    mimic_cycles(entities, diagnostics)
    return Diagnostics(d if d.file else replace(d, file=file) for d in diagnostics)


def document_entities(document) -> Entities:
    """The links and joints of the document's model (or of every model of its worlds)."""
    tops = [("", document.model)] if document.model is not None else \
        [(f"{model.name}::", model) for world in document.worlds for model in world.models]
    links: dict[str, Link] = {}
    joints: dict[str, Joint] = {}
    ends: dict[str, tuple[str, str]] = {}
    for top_prefix, top in tops:
        for prefix, model in scoped_models(top, top_prefix):
            links.update((prefix + link.name, link) for link in model.links)
            for joint in model.joints:
                joints[prefix + joint.name] = joint
                ends[prefix + joint.name] = (scoped(prefix, joint.parent),
                                             scoped(prefix, joint.child))
    return Entities(links, joints, ends, document.format)


def scoped(prefix: str, name: str) -> str:
    return name if name == WORLD else prefix + name


# ---- links ------------------------------------------------------------------------------

def link_findings(result, name: str, link: Link, parent: str | None, entities: Entities,
                  loads: Mapping[str, tuple[float, tuple]], diagnostics: Diagnostics) -> None:
    """The findings of one link (``parent``: the scoped name of the joint it hangs on).
    A link welded to its parent (a fixed joint, or another that does not move it) joins
    its parent's body in every consumer (Drake's composite bodies, Gazebo's fixed-joint
    reduction): its own tensor does not act alone and is not judged."""
    joint = entities.joints[parent] if parent is not None else None
    welded = joint is not None and joint.type not in MOVING_JOINT_TYPES | FREE_JOINT_TYPES
    if link.inertial is not None and not welded:
        alone = link.inertial is not None and loads.get(name, (0.0,))[0] <= link.inertial.mass
        inertial_findings(result, name, link, parent, entities, alone, diagnostics)
    mesh_scale_findings(name, link, diagnostics)


def inertial_findings(result, name: str, link: Link, parent: str | None,
                      entities: Entities, alone: bool, diagnostics: Diagnostics) -> None:
    """Mass 0 on a moving link (SDFormat's; a URDF's is ``LINK_MASSLESS_MOVING``), a zero
    tensor where it leaves the body without inertia (``alone``: no mass hangs below the
    link, which would give its joint inertia), or a tensor far from what the collision
    shapes imply."""
    inertial = link.inertial
    joint = entities.joints[parent] if parent is not None else None
    moving = joint is not None and joint.type in MOVING_JOINT_TYPES
    if inertial is None:
        return
    if inertial.mass == 0 and moving and entities.source_format != "urdf":
        diagnostics.warning_at(Code.PHYSICS_MASS_ZERO, f"link [{name}] has mass 0 but "
                               "moves on a joint (a simulator refuses or ignores a massless "
                               "moving body)", inertial.source)
    elif inertial.mass > 0 and inertia_is_zero(inertial):
        if alone and not point_mass_swings(result, name, link, parent, joint):
            diagnostics.warning_at(Code.PHYSICS_INERTIA_ZERO, f"link [{name}] has mass "
                                   f"{inertial.mass} kg and an all-zero inertia tensor, and "
                                   "nothing gives it inertia about the way it moves (a point "
                                   "mass free or on its own axis: a singular mass matrix)",
                                   inertial.source)
    elif inertial.mass > 0:
        implausible_inertia(result, name, link, diagnostics)


def mesh_scale_findings(name: str, link: Link, diagnostics: Diagnostics) -> None:
    for shape in (*link.visuals, *link.collisions):
        geometry = shape.geometry
        if geometry is not None and geometry.scale is not None and 0 in geometry.scale:
            diagnostics.warning_at(Code.PHYSICS_MESH_SCALE_ZERO, f"a mesh of link [{name}] "
                                   f"is scaled by {' '.join(map(str, geometry.scale))}: "
                                   "flat along an axis (no volume, no contact)",
                                   geometry.source)


def point_mass_swings(result, name: str, link: Link, parent: str | None, joint) -> bool:
    """Whether a point-mass link has inertia about its joint all the same: a revolute or
    continuous joint whose axis its centre of mass lies off (by more than
    :data:`AXIS_OFFSET`: a pendulum of a point mass), or a prismatic joint (which turns
    nothing). A free link, or one whose centre lies on its axis, has none."""
    if joint is None or parent is None or joint.type not in MOVING_JOINT_TYPES:
        return False
    if joint.type == "prismatic":
        return True
    frame, link_frame = result.pose(parent), result.pose(name)
    axis = result.axis_in_joint_frame(parent)
    if frame is None or link_frame is None or axis is None or link.inertial is None:
        return False
    local = result.pose_in_link(name, link.inertial.pose) or link.inertial.pose.value
    centre = point_in(link_frame, local.position)
    direction = rotate(frame.rotation, axis)
    lever = tuple(centre[i] - frame.position[i] for i in range(3))
    return math.hypot(*cross(direction, lever)) > AXIS_OFFSET


def inertia_is_zero(inertial) -> bool:
    return inertial.ixx == inertial.iyy == inertial.izz == inertial.ixy == \
        inertial.ixz == inertial.iyz == 0


def implausible_inertia(result, name: str, link: Link, diagnostics: Diagnostics) -> None:
    """``PHYSICS_INERTIA_IMPLAUSIBLE`` when every collision of the link is a primitive and
    the declared tensor's trace is :data:`IMPLAUSIBLE_FACTOR` from the trace the shapes
    imply (the link's mass spread over their volume, about their common centre)."""
    inertial = link.inertial
    implied = implied_trace(result, name, link)
    if implied is None or inertial is None:
        return
    declared = inertial.ixx + inertial.iyy + inertial.izz
    if implied > 0 and declared > 0 and \
            1 / IMPLAUSIBLE_FACTOR <= declared / implied <= IMPLAUSIBLE_FACTOR:
        return
    if implied == 0 and declared == 0:
        return
    diagnostics.warning_at(Code.PHYSICS_INERTIA_IMPLAUSIBLE, f"link [{name}] declares "
                           f"inertia of trace {declared:.3g} kg m², but its collision shapes "
                           f"with its mass of {inertial.mass} kg imply {implied:.3g} kg m² "
                           f"(more than {IMPLAUSIBLE_FACTOR:g}x apart)", inertial.source)


def implied_trace(result, name: str, link: Link) -> float | None:
    """The trace of the inertia the link's collision primitives imply for its mass,
    about their common centre of volume; None when a collision is not a primitive."""
    shapes = [(s, s.geometry) for s in link.collisions if s.geometry is not None]
    if not shapes or any(geometry.kind not in PRIMITIVES for _, geometry in shapes):
        return None
    parts = []
    for shape, geometry in shapes:
        volume, unit_trace = primitive_volume_trace(geometry)
        pose = result.pose_in_link(name, shape.pose) or shape.pose.value
        parts.append((volume, unit_trace, pose.position))
    total = sum(volume for volume, _, _ in parts)
    if not total > 0 or not math.isfinite(total):
        return None
    mass = link.inertial.mass if link.inertial is not None else 0.0
    centre = [sum(v * p[i] for v, _, p in parts) / total for i in range(3)]
    trace = 0.0
    for volume, unit_trace, position in parts:
        share = mass * volume / total
        offset = sum((position[i] - centre[i]) * (position[i] - centre[i]) for i in range(3))
        trace += share * (unit_trace + 2 * offset)  # parallel axes: the trace grows by 2md²
    return trace


def primitive_volume_trace(geometry) -> tuple[float, float]:
    """Volume of a primitive and the trace of its inertia per kg about its centre."""
    kind = geometry.kind
    if kind == "box":
        x, y, z = geometry.size or (0.0, 0.0, 0.0)
        return abs(x * y * z), (x * x + y * y + z * z) / 6  # 2 (x² + y² + z²) / 12
    radius = geometry.radius or 0.0
    length = geometry.length or 0.0
    if kind == "sphere":
        return 4 / 3 * math.pi * radius * radius * radius, 6 / 5 * radius * radius
    if kind == "cylinder":  # 2 (3r² + h²) / 12 + r² / 2
        return math.pi * radius * radius * length, radius * radius + length * length / 6
    # capsule: approximated by the cylinder of its whole length
    whole = length + 2 * radius
    return math.pi * radius * radius * length + 4 / 3 * math.pi * radius * radius * radius, \
        radius * radius + whole * whole / 6


# ---- joints -----------------------------------------------------------------------------

def joint_findings(joint: Joint, source_format: str, diagnostics: Diagnostics) -> None:
    limit = joint.limit
    if source_format == "urdf" and limit is not None:
        for key in ("velocity", "effort"):
            value = getattr(limit, key)
            if value is not None and value < 0:
                diagnostics.warning_at(Code.PHYSICS_LIMIT_NEGATIVE, f"joint [{joint.name}] "
                                       f"has a negative {key} limit ({value}): no motion a "
                                       "simulator can allow", joint.source)
    if joint.type == "fixed":
        return
    for axis in joint.axes:
        text = axis.xyz_text or ""
        norm = written_norm(text)
        if norm is not None and norm > 0 and abs(norm - 1) > AXIS_TOLERANCE:
            diagnostics.warning_at(Code.PHYSICS_AXIS_NOT_UNIT, f"the axis of joint "
                                   f"[{joint.name}] is written with norm {norm:.6g} "
                                   f"({text.strip()}): read as its unit vector, so "
                                   "limits and mimic factors act on the normalised axis",
                                   axis.source)


def written_norm(text: str | None) -> float | None:
    """The norm of an axis as written (None: no text, or not three numbers)."""
    if not text:
        return None
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        return None
    return math.hypot(*values) if len(values) == 3 else None


def effort_findings(result, entities: Entities, loads: Mapping[str, tuple[float, tuple]],
                    diagnostics: Diagnostics) -> None:
    """``PHYSICS_EFFORT_TOO_LOW`` for each moving joint whose effort limit (when stated
    and positive) is below the torque (force, for a prismatic joint) that gravity needs
    about (along) its axis to hold the links below it and their payloads, at the zero
    configuration. Each subtree's mass and first moment are summed once, children first."""
    for name, joint in entities.joints.items():
        effort = joint.limit.effort if joint.limit is not None else None
        if joint.type not in MOVING_JOINT_TYPES or effort is None or not effort > 0:
            continue
        child = entities.ends[name][1]
        load = loads.get(child)
        frame = result.pose(name)
        if load is None or frame is None or load[0] == 0:
            continue
        needed = holding_effort(joint, frame, load, result.axis_in_joint_frame(name))
        if needed > effort * (1 + EFFORT_TOLERANCE):
            unit = "N" if joint.type == "prismatic" else "N m"
            diagnostics.warning_at(Code.PHYSICS_EFFORT_TOO_LOW, f"joint [{joint.name}] "
                                   f"needs {needed:.4g} {unit} to hold the {load[0]:.4g} kg "
                                   f"below it against gravity at the zero configuration; "
                                   f"its effort limit is {effort:g} {unit}", joint.source)


def holding_effort(joint: Joint, frame: Pose, load: tuple[float, tuple], axis) -> float:
    """The torque about (or force along) the joint's axis that balances gravity on
    ``load`` (mass, first moment in the root frame)."""
    mass, moment = load
    if axis is None:
        return 0.0
    direction = rotate(frame.rotation, axis)
    weight = (0.0, 0.0, -GRAVITY * mass)
    if joint.type == "prismatic":
        return abs(dot(direction, weight))
    origin = frame.position
    lever = tuple(moment[i] / mass - origin[i] for i in range(3))
    return abs(dot(direction, cross(lever, weight)))


def subtree_loads(result, entities: Entities,
                  payloads: Mapping[str, float]) -> dict[str, tuple[float, tuple]]:
    """Per link, the mass of it and everything below it (payloads included) and their
    first moment (mass times centre of mass, root frame). Links are visited once each:
    a loop of joints ends."""
    children: dict[str, list[str]] = {}
    has_parent = set()
    for name in entities.joints:
        parent, child = entities.ends[name]
        if child not in has_parent and child != WORLD:
            children.setdefault(parent, []).append(child)
            has_parent.add(child)
    loads: dict[str, tuple[float, tuple]] = {}
    for link in post_order(children, [n for n in entities.links if n not in has_parent]):
        mass, moment = own_load(result, link, entities.links.get(link), payloads.get(link, 0),
                                 entities.source_format == "sdf")
        for child in children.get(link, ()):
            child_mass, child_moment = loads[child]
            mass += child_mass
            moment = tuple(moment[i] + child_moment[i] for i in range(3))
        loads[link] = (mass, moment)
    return loads


def post_order(children: Mapping[str, list[str]], roots: list[str]) -> Iterator[str]:
    """Links children first, each once (without recursion: a chain may be 100,000 deep)."""
    seen: set[str] = set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            link, done = stack.pop()
            if done:
                yield link
            elif link not in seen:
                seen.add(link)
                stack.append((link, True))
                stack.extend((c, False) for c in children.get(link, ()) if c not in seen)


def own_load(result, name: str, link: Link | None, payload: float,
             default_mass: bool) -> tuple[float, tuple]:
    """A link's own mass and first moment, with a payload at its frame's origin
    (``default_mass``: a link without ``<inertial>`` weighs 1 kg, as in SDFormat)."""
    if link is None:
        return 0.0, (0.0, 0.0, 0.0)
    frame = result.pose(name)
    if frame is None:
        return 0.0, (0.0, 0.0, 0.0)
    inertial = link.inertial
    mass = 0.0
    moment: tuple[float, ...] = (0.0, 0.0, 0.0)
    if inertial is not None and inertial.mass > 0:
        local = result.pose_in_link(name, inertial.pose) or inertial.pose.value
        centre = point_in(frame, local.position)
        mass = inertial.mass
        moment = tuple(mass * c for c in centre)
    elif inertial is None and default_mass:  # SDFormat's default inertial: 1 kg at the origin
        mass = 1.0
        moment = frame.position
    if payload:
        moment = tuple(moment[i] + payload * frame.position[i] for i in range(3))
        mass += payload
    return mass, moment


def point_in(frame: Pose, point) -> tuple[float, float, float]:
    """A point given in ``frame``, in the root frame."""
    x, y, z = rotate(frame.rotation, point)
    px, py, pz = frame.position
    return (px + x, py + y, pz + z)


def dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


# ---- mimics -----------------------------------------------------------------------------

def mimic_cycles(entities: Entities, diagnostics: Diagnostics) -> None:
    """``PHYSICS_MIMIC_CYCLE`` once per cycle of joints that mimic each other (each joint
    mimics at most one: following the references from every joint, each visited once,
    finds every cycle)."""
    follows: dict[str, tuple[str, Joint]] = {}
    for name, joint in entities.joints.items():
        prefix = name[:len(name) - len(joint.name)]
        for mimic, _ in joint_mimics(joint):
            follows[name] = (prefix + mimic.joint, joint)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in follows:
        path = []
        name = start
        while name in follows and name not in state:
            state[name] = 1
            path.append(name)
            name = follows[name][0]
        if state.get(name) == 1:  # came back to the current path: a cycle
            cycle = path[path.index(name):]
            joint = follows[cycle[0]][1]
            shown = " -> ".join(f"[{n}]" for n in (*cycle, cycle[0]))
            diagnostics.warning_at(Code.PHYSICS_MIMIC_CYCLE, f"joints mimic each other in a "
                                   f"cycle: {shown} (no joint of it is driven)", joint.source)
        for visited in path:
            state[visited] = 2
