"""URDF parity: can this SDF model become a URDF by copying ``xyz``/``rpy`` text?

A model has parity when it is a kinematic tree whose poses form URDF-style
chains (the pose frame semantics proposal, "Parity with URDF"):

* every joint pose is ``relative_to`` its parent link, directly or through
  frames, with at most one non-identity pose on the way (whose text becomes the
  URDF ``<origin>``); what a frame is attached to does not change zero-configuration
  poses, so it does not matter here;
* every child link sits at its joint: identity poses all the way to the joint;
* the root link sits at the model frame; axes are in the joint frame;
* explicit frames are posed relative to the link they are attached to, the same
  way, so that each can become a fixed joint with copied text;
* no nested models, and only joint types URDF has.

Each rule has a stable code (``URDF_PARITY_*``) and the report names every
element that breaks one, and why. ``copyable`` records, per joint and frame, the
pose whose text can be copied (or ``None`` for the identity), so that ``sdf2urdf``
copies text wherever the structure allows, also when parity fails elsewhere.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from urdf_sdf.core.base.custom import qname
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import WORLD, PoseSpec
from urdf_sdf.core.graph import Kind, Vertex
from urdf_sdf.core.kinematics.tree import KinematicTree, build_tree

URDF_JOINT_TYPES = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}

RULES = {
    Code.URDF_PARITY_NESTED_MODEL: "URDF has no nested models: a nested model's links can only "
                                   "be flattened with computed poses.",
    Code.URDF_PARITY_JOINT_TYPE: "The joint type has no URDF counterpart (ball, universal, "
                                 "screw, gearbox, revolute2).",
    Code.URDF_PARITY_NOT_A_TREE: "URDF kinematics is a tree: one root link, each link the child "
                                 "of at most one joint, no loops.",
    Code.URDF_PARITY_JOINT_POSE: "A URDF joint origin is the joint frame in its parent link: "
                                 "the joint pose must be relative_to the parent link, directly "
                                 "or through frames, with at most one non-identity pose on the "
                                 "way.",
    Code.URDF_PARITY_CHILD_LINK_POSE: "A URDF child link frame is its joint frame: the link "
                                      "pose must be the identity relative_to its joint "
                                      "(directly or through identity frames).",
    Code.URDF_PARITY_ROOT_LINK_POSE: "The URDF root link frame is the robot frame: the root "
                                     "link must sit at the model frame.",
    Code.URDF_PARITY_AXIS_FRAME: "A URDF axis is expressed in the joint frame: "
                                 "xyz/@expressed_in must be empty (or the joint itself).",
    Code.URDF_PARITY_FRAME_POSE: "A frame becomes a fixed joint whose origin is the frame in "
                                 "its attached link (or in the frame it is attached to, which "
                                 "becomes a link too): its pose must be relative_to that link "
                                 "or frame (directly or through frames), with at most one "
                                 "non-identity pose on the way.",
}


def is_identity(spec: PoseSpec) -> bool:
    value = spec.value
    return value.position == (0.0, 0.0, 0.0) and value.rotation == (1.0, 0.0, 0.0, 0.0)


def is_text_copyable(spec: PoseSpec) -> bool:
    """Six Euler numbers in radians: the text splits into URDF xyz and rpy."""
    return spec.rotation_format == "euler_rpy" and not spec.degrees and \
        len(spec.text.split()) in (0, 6)


@dataclass
class ParityReport:
    model: str
    # joint or frame name -> the single pose whose text is its URDF origin (None: identity).
    copyable: dict[str, PoseSpec | None] = field(default_factory=dict)
    # The broken rules as recorded: (code, source, message). A converter asks only
    # whether parity holds, and a model written in one frame breaks a rule per joint
    # and link: the diagnostics are made when someone reads them (``findings``).
    broken: list[tuple] = field(default_factory=list)

    @property
    def holds(self) -> bool:
        return not self.broken

    @functools.cached_property
    def findings(self) -> Diagnostics:
        """The broken rules as error diagnostics, in the order they were found."""
        findings = Diagnostics()
        for code, source, message in self.broken:
            findings.error_at(code, message, source)
        return findings

    def add(self, code: Code, where, message: str) -> None:
        """Record a broken rule; ``where`` is a vertex, an element with a source, or None."""
        self.broken.append((code, getattr(where, "source", where), message))


def check_parity(result, scope=None, tree: KinematicTree | None = None) -> ParityReport:
    """Check URDF parity of the model owning ``scope`` (default: the root model);
    ``tree``: its kinematic tree when the caller has built it (one per conversion)."""
    graph = result.graph
    scope = scope if scope is not None else graph.root
    owner = scope.owner
    report = ParityReport(owner.scoped_name or owner.name)
    for vid in scope.vertices:
        vertex = graph.vertices[vid]
        if vertex.kind is Kind.MODEL:
            report.add(Code.URDF_PARITY_NESTED_MODEL, vertex, f"nested model [{vertex.name}]: "
                       + RULES[Code.URDF_PARITY_NESTED_MODEL])
    tree = tree if tree is not None else build_tree(result, scope)
    check_tree_shape(tree, report, owner)
    child_at_joint = {}
    for joint in tree.joints:
        if joint.vertex < 0:
            continue  # a <urdf:joint>: checked by check_custom_joint
        vertex = graph.vertices[joint.vertex]
        if joint.type not in URDF_JOINT_TYPES:
            report.add(Code.URDF_PARITY_JOINT_TYPE, vertex, f"joint [{joint.name}] is of type "
                       f"[{joint.type}]: " + RULES[Code.URDF_PARITY_JOINT_TYPE])
        child = graph.lookup(scope, joint.child)
        if child is not None and identity_chain_to(graph, graph.vertices[child], joint.vertex):
            child_at_joint[joint.child] = joint.vertex
    for joint in tree.joints:
        if joint.vertex < 0:
            check_custom_joint(graph, scope, joint, child_at_joint, report)
            continue
        check_joint(graph, scope, joint, child_at_joint, report)
        check_child_link(graph, scope, joint, child_at_joint, report)
    for name in tree.roots:
        vid = graph.lookup(scope, name)
        vertex = graph.vertices[vid] if vid is not None else None
        if vertex is not None and not identity_chain_to(graph, vertex, scope.owner.id):
            report.add(Code.URDF_PARITY_ROOT_LINK_POSE, vertex, f"root link [{name}] is not at the "
                       "model frame: " + RULES[Code.URDF_PARITY_ROOT_LINK_POSE])
    for vid in scope.vertices:
        vertex = graph.vertices[vid]
        if vertex.kind is Kind.FRAME:
            check_frame(graph, scope, vertex, child_at_joint, report)
    return report


def check_tree_shape(tree, report: ParityReport, owner: Vertex) -> None:
    roots = tree.roots
    if len(roots) > 1:
        report.add(Code.URDF_PARITY_NOT_A_TREE, owner, f"model [{owner.name}] has several root "
                   f"links ({', '.join(roots)}): " + RULES[Code.URDF_PARITY_NOT_A_TREE])
    for joint in tree.loop_joints():
        report.add(Code.URDF_PARITY_NOT_A_TREE, joint.element, f"joint [{joint.name}] closes a "
                   "kinematic loop: " + RULES[Code.URDF_PARITY_NOT_A_TREE])


def pose_spec(vertex: Vertex) -> PoseSpec | None:
    return getattr(vertex.element, "pose", None)


def relative_chain(graph, vertex: Vertex, stop: set[int], through):
    """Follow relative_to edges from ``vertex`` until a vertex in ``stop``.

    Every vertex passed on the way must satisfy ``through``. Returns the pose
    specs met (vertex's own first), or None when the chain leaves the allowed path.
    """
    specs: list[PoseSpec] = []
    current = vertex
    seen = set()
    while current.id not in stop:
        if current.id in seen or current.relative_to is None or current.id != vertex.id \
                and not through(current):
            return None
        seen.add(current.id)
        spec = pose_spec(current)
        if spec is None:
            return None
        specs.append(spec)
        current = graph.vertices[current.relative_to]
    return specs


def single_pose(specs: list[PoseSpec]) -> tuple[bool, PoseSpec | None]:
    """Whether at most one spec is non-identity and copyable; and the spec whose text is
    the origin (the moving one, else the first written one, e.g. ``0 0 0 0 0 0``)."""
    moving = [s for s in specs if not is_identity(s)]
    if len(moving) > 1 or any(not is_text_copyable(s) for s in moving):
        return False, None
    if moving:
        return True, moving[0]
    written = [s for s in specs if s.text.split() and is_text_copyable(s)]
    return True, (written[0] if written else None)


def why_not_copyable(specs: list[PoseSpec] | None, relative_to: str, parent: str) -> str:
    """The reason a chain gives no URDF origin text."""
    if specs is None:
        return f"is relative to {relative_to}, not to its parent link [{parent}]"
    units = [s for s in specs if not is_identity(s) and not is_text_copyable(s)]
    if units:
        spec = units[0]
        what = "degrees" if spec.degrees else f"rotation_format {spec.rotation_format}"
        return f"is written in {what}, which a URDF origin (radians rpy) cannot copy"
    return "passes through more than one non-identity pose on the way to its parent link " \
           f"[{parent}]"


def passes_on(vertex: Vertex) -> bool:
    """What a URDF-style pose chain may pass through: frames, and (nested) model frames."""
    return vertex.kind in (Kind.FRAME, Kind.MODEL)


def identity_chain_to(graph, vertex: Vertex, target: int) -> bool:
    specs = relative_chain(graph, vertex, {target}, passes_on)
    return specs is not None and all(is_identity(s) for s in specs)


def link_equivalents(graph, scope, link_vid: int, child_at_joint: dict) -> set[int]:
    """The link and the joint it sits at with an identity pose: the same frame."""
    name = graph.vertices[link_vid].scoped_name[len(scope.prefix):]
    equivalent = {link_vid}
    if name in child_at_joint:
        equivalent.add(child_at_joint[name])
    return equivalent


def check_joint(graph, scope, joint, child_at_joint: dict, report: ParityReport) -> None:
    vertex = graph.vertices[joint.vertex]
    if joint.parent == WORLD:
        targets = {scope.owner.id}
    else:
        targets = link_equivalents(graph, scope, graph.lookup(scope, joint.parent),
                                   child_at_joint)
    specs = relative_chain(graph, vertex, targets, passes_on)
    ok, spec = single_pose(specs) if specs is not None else (False, None)
    if ok:
        report.copyable[joint.name] = spec
    else:
        relative_to = vertex.element.pose.relative_to or f"its child [{joint.child}] (default)"
        report.add(Code.URDF_PARITY_JOINT_POSE, vertex, f"joint [{joint.name}] pose "
                   f"{why_not_copyable(specs, relative_to, joint.parent)}: "
                   + RULES[Code.URDF_PARITY_JOINT_POSE])
    for axis in getattr(vertex.element, "axes", []):
        if axis.expressed_in not in (None, vertex.name):
            report.add(Code.URDF_PARITY_AXIS_FRAME, axis.source, f"an axis of joint "
                       f"[{joint.name}] is expressed in [{axis.expressed_in}]: "
                       + RULES[Code.URDF_PARITY_AXIS_FRAME])


def check_custom_joint(graph, scope, joint, child_at_joint: dict, report: ParityReport) -> None:
    """A ``<urdf:joint>``'s free child link must be posed relative to the parent link."""
    child = graph.lookup(scope, joint.child)
    if joint.parent == WORLD:
        targets = {scope.owner.id}
    else:
        targets = link_equivalents(graph, scope, graph.lookup(scope, joint.parent),
                                   child_at_joint)
    specs = relative_chain(graph, graph.vertices[child], targets, passes_on)
    ok, spec = single_pose(specs) if specs is not None else (False, None)
    if ok:
        report.copyable[joint.name] = spec
    else:
        report.add(Code.URDF_PARITY_JOINT_POSE, graph.vertices[child], f"link [{joint.child}] of "
                   f"{joint.type} joint [{joint.name}] is not posed relative to its parent link "
                   f"[{joint.parent}]: " + RULES[Code.URDF_PARITY_JOINT_POSE])


def check_child_link(graph, scope, joint, child_at_joint: dict, report: ParityReport) -> None:
    if joint.child not in child_at_joint:
        vertex = graph.vertices[graph.lookup(scope, joint.child)]
        report.add(Code.URDF_PARITY_CHILD_LINK_POSE, vertex, f"link [{joint.child}] does not "
                   f"sit at its joint [{joint.name}]: " + RULES[Code.URDF_PARITY_CHILD_LINK_POSE])


def is_lumped_joint_frame(vertex: Vertex) -> bool:
    """A frame urdf2sdf --lump-fixed made of a lumped joint (its link's frame brings the
    joint back in URDF, so it is no URDF link of its own)."""
    xml = getattr(vertex.element, "xml", None)
    return xml is not None and xml.get(qname("lumped")) == "joint"


def frame_parent(graph, vertex: Vertex) -> int | None:
    """Where a frame hangs in URDF, where it becomes a massless link on a fixed joint: the
    frame it is attached to when that frame becomes such a link too (a chain of dummy
    links stays a chain), else its attached link; None when no link carries it."""
    link = graph.attached_link.get(vertex.id)
    if link is None or graph.vertices[link].kind is not Kind.LINK:
        return None
    target, seen = vertex.attached_to, set()
    while target is not None and target not in seen:
        seen.add(target)
        candidate = graph.vertices[target]
        if candidate.kind is not Kind.FRAME:
            break
        if not is_lumped_joint_frame(candidate):
            return target
        target = candidate.attached_to
    return link


def check_frame(graph, scope, vertex: Vertex, child_at_joint: dict,
                report: ParityReport) -> None:
    parent = frame_parent(graph, vertex)
    if parent is None:
        return
    if graph.vertices[parent].kind is Kind.LINK:
        targets = link_equivalents(graph, scope, parent, child_at_joint)
    else:
        targets = {parent}
    specs = relative_chain(graph, vertex, targets, passes_on)
    ok, spec = single_pose(specs) if specs is not None else (False, None)
    if ok:
        report.copyable[vertex.scoped_name[len(scope.prefix):]] = spec
    else:
        what = "link" if graph.vertices[parent].kind is Kind.LINK else "parent frame"
        report.add(Code.URDF_PARITY_FRAME_POSE, vertex, f"frame [{vertex.name}] is not posed "
                   f"relative to its {what} [{graph.vertices[parent].scoped_name}]: "
                   + RULES[Code.URDF_PARITY_FRAME_POSE])
