"""SDFormat -> URDF conversion policy.

URDF frames: a child link's frame *is* its joint frame, and a joint origin is the joint frame in
the parent link's (URDF) frame. For each link L with parent joint J, ``X_JL`` (L in J) is
generally not the identity in SDF; all that is written in L's frame (inertial, visuals,
collisions, frames attached to L) is re-expressed in J's frame by ``X_JL``, or, where the
URDF-parity checker found that the structure allows it, its ``xyz``/``rpy`` text copied.

Nested models are flattened with ``ToUrdf.separator`` between scope names; explicit frames
become a fixed joint and a massless link; custom ``urdf:`` elements written by urdf2sdf are
restored exactly. Joint types URDF lacks are errors, or with ``approximate`` documented
approximations with a warning each (``sdf2urdf.approximate``: the mass of inserted links, and
a model of several trees, refused or welded). A computed origin that is not finite (offsets
that overflow a double when composed) is a NUMBER_NOT_FINITE error, never a ``nan``.

A world's model keeps where the world places it (``sdf2urdf.world``): the URDF's ``world``
link is the SDF world. SDF content URDF cannot state goes to ``<gazebo>`` blocks
(``sdf2urdf.extras``), its poses written in the URDF frames (``sdf2urdf.carried_poses``);
attributes SDFormat does not define are carried or named (``sdf2urdf.attributes``).

The robot's children are made as ``core.write.text`` nodes (or copied elements) and handed in
order to ``core.write.urdf.robot_document``, which decides how they become bytes.
"""
from __future__ import annotations

import math

from lxml import etree

from urdf_sdf.core.base.custom import (
    custom_children,
    has_namespaced_children,
    markup,
    plain_copy,
)
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Source
from urdf_sdf.core.base.model import Inertial, Link, PoseSpec, Shape
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph import relative_pose
from urdf_sdf.core.inspect.parity import check_parity, frame_parent, is_lumped_joint_frame
from urdf_sdf.core.inspect.rules import document_mimic_targets
from urdf_sdf.core.kinematics.tree import (
    WORLD,
    KinematicJoint,
    KinematicTree,
    build_tree,
    joint_kind,
)
from urdf_sdf.core.read.numbers import NumberMemo, finite_numbers
from urdf_sdf.core.write.common import NumberTexts, numbers_text
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.text import Node
from urdf_sdf.core.write.urdf import (
    PRIMITIVES,
    close_robot,
    computed_origin,
    copied_origin,
    copy_element,
    dynamics_node,
    geometry_node,
    material_node,
    mimic_node,
    to_bytes,
)
from urdf_sdf.core.write.uris import relocated_material, relocated_textures, written_mesh_uri
from urdf_sdf.sdf2urdf.approximate import (
    APPROXIMABLE,
    approximated_chain,
    inserted_link_inertial,
    several_trees_refusal,
    welded_trees_note,
)
from urdf_sdf.sdf2urdf.attributes import (
    given_back,
    limit_xml,
    robot_document_of,
    shape_given_back,
    with_origin,
)
from urdf_sdf.sdf2urdf.carried_poses import pose_element
from urdf_sdf.sdf2urdf.extras import GazeboKeeper
from urdf_sdf.sdf2urdf.frames import frame_nodes, scoped_frames, unplaceable, warn_dropped_frames
from urdf_sdf.sdf2urdf.gazebo_links import gazebo_link_blocks
from urdf_sdf.sdf2urdf.inertia import urdf_inertial
from urdf_sdf.sdf2urdf.loops import gazebo_loop_blocks
from urdf_sdf.sdf2urdf.options import Conversion, ToUrdf
from urdf_sdf.sdf2urdf.restore import (
    carried_copies,
    gazebo_blocks,
    has_implicit_inertial,
    model_carried,
)
from urdf_sdf.sdf2urdf.world import ModelChoice, choose_models, kept_world_pose, merge_robots
from urdf_sdf.sdf2urdf.world_content import warn_world_content

NO_RATE_LIMIT = "1e+16"
URDF_JOINT_TYPES = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}


def convert_sdf(result, options: ToUrdf) -> Conversion:
    """Convert a loaded SDF model; the result's policy (``--strict``) decides errors."""
    conversion = _convert(result, options)
    conversion.diagnostics = result.policy.apply(conversion.diagnostics)
    conversion.read_from(result)
    return conversion


def _convert(result, options: ToUrdf) -> Conversion:
    diagnostics = Diagnostics(result.diagnostics)
    if not result.ok or result.graph is None:
        return Conversion(None, diagnostics)
    if result.document is not None and result.document.format == "urdf":
        diagnostics.error(Code.INPUT_FORMAT_WRONG, "the input is a URDF file, not an SDFormat "
                          "file: urdf2sdf converts URDF to SDFormat", result.document.file)
        return Conversion(None, diagnostics)
    document_mimic_targets(result.document, diagnostics)
    if diagnostics.has_errors:
        return Conversion(None, diagnostics)
    choices = choose_models(result, options, diagnostics)
    if choices is None:
        return Conversion(None, diagnostics)
    warn_world_content(result.document, diagnostics)
    writers = [UrdfWriter(result, choice, options, diagnostics) for choice in choices]
    if not choices[0].in_world:
        data = writers[0].write()
        if data is None or diagnostics.has_errors:
            return Conversion(None, diagnostics)
        return Conversion(data, diagnostics, origins_copied(writers))
    robots = [writer.robot() for writer in writers]
    if None in robots or diagnostics.has_errors:
        return Conversion(None, diagnostics)
    world = result.graph.root.owner
    root = merge_robots(world.element.name, robots, diagnostics, world.source,
                        result.document.file)
    return Conversion(to_bytes(root), diagnostics, origins_copied(writers))


def origins_copied(writers: list[UrdfWriter]) -> bool:
    """Whether every origin written is the SDF's text (parity, no world placement added)."""
    return all(w.parity.holds and not w.recomputed for w in writers)


class UrdfWriter:
    def __init__(self, result, choice: ModelChoice, options: ToUrdf, diagnostics: Diagnostics):
        self.result = result
        self.graph = result.graph
        self.scope = scope = choice.scope
        self.prefix = choice.prefix
        self.in_world = choice.in_world
        self.options = options
        self.diagnostics = diagnostics
        self.tree: KinematicTree = build_tree(result, scope)
        self.parity = check_parity(result, scope, self.tree)
        self.model_el = getattr(scope.owner.element, "xml", None)
        self.file = result.document.file
        # X_JL of each link: where the SDF link frame sits in its URDF frame (joint frame).
        self.urdf_frame: dict[str, Pose] = {}
        self.placement = choice.placement  # where a world puts the model frame
        if choice.placement is not None:  # the URDF's world is the SDF world
            self.urdf_frame[WORLD] = choice.placement
        self.link_names: set[str] = set()
        self.recomputed: set[str] = set()  # copyable origins computed all the same
        # The axis and rate limit texts read (every joint's "0 0 1", "10"), parsed once;
        # the texts of the inertias' numbers, written once per value.
        self.numbers = NumberMemo(finite_numbers)
        self.number_texts = NumberTexts()
        self.kept = GazeboKeeper(result, scope, self.name, diagnostics, self.file)

    def name(self, scoped: str) -> str:
        if scoped == WORLD and self.prefix:
            return scoped
        return self.prefix + scoped.replace("::", self.options.separator)

    def error(self, code: Code, message: str, source=None) -> None:
        self.diagnostics.error_at(code, message, source, self.file)

    def warn(self, code: Code, message: str, source=None) -> None:
        self.diagnostics.warning_at(code, message, source, self.file)

    def finite_origin(self, pose: Pose, source) -> Node | None:
        """:func:`computed_origin` of a computed pose; NUMBER_NOT_FINITE at ``source``, and
        no origin, when composing it overflowed (an origin is never ``nan``)."""
        if not pose.is_finite():
            self.error(Code.NUMBER_NOT_FINITE, "the computed origin is not a finite number "
                       f"({' '.join(repr(v) for v in pose.position)}): the offsets composed "
                       "to reach it overflow a double", source)
            return None
        return computed_origin(pose)

    # ---- structure --------------------------------------------------------------------

    def write(self) -> bytes | None:
        """The URDF document's bytes, or None when the model cannot be written."""
        out = robot_document_of(self.scope.owner.name, self.model_el)
        return out.to_bytes() if self.fill(out) else None

    def robot(self):
        """The whole ``<robot>`` element, or None (for merging several models' robots)."""
        out = robot_document_of(self.scope.owner.name, self.model_el, streamed=False)
        return out.to_tree() if self.fill(out) else None

    def fill(self, out: Document) -> bool:
        """Write the model's robot into ``out`` (``core.write.document``); False when the
        model cannot be written."""
        start = len(self.diagnostics)
        self.check_constraints()
        loop_blocks = gazebo_loop_blocks(self.tree, self.warn)  # before the tree's own loops
        loop_blocks += gazebo_link_blocks(self.tree, self.link_element, self.warn)
        if not self.check_structure():
            return False
        owner = self.scope.owner
        out.extend(relocated_textures(plain_copy(material), Source(self.file, material.sourceline),
                                      self.options.output_dir, self.diagnostics)
                   for material in custom_children(self.model_el, "material"))
        joints = self.urdf_joints(start)
        if joints is None:
            return False
        roots = self.free_roots(joints)
        if roots is None:
            return False
        world_link = any(j.parent == "world" for j in joints) or owner.static or bool(roots)
        if world_link:
            out.add(("link", {"name": "world"}, []))
        for joint in joints:
            self.urdf_frame[joint.child] = joint.X_JC
        for link_name in self.tree.links:
            self.write_link(out, link_name)
        if owner.static:
            self.write_static(out)
        for root in roots:
            self.write_world_joint(out, root)
        for joint in joints:
            self.write_joint(out, joint)
            self.kept.joint(out, joint)
            out.extend(gazebo_blocks(getattr(joint.element, "xml", None), self.name(joint.name)))
        out.extend(loop_blocks)
        if not self.options.drop_frames:
            self.write_frames(out)
        else:
            warn_dropped_frames(self.graph, self.scope.prefix, self.warn)
        out.extend(plain_copy(transmission)
                   for transmission in custom_children(self.model_el, "transmission"))
        out.extend(model_carried(self.model_el, self.warn))
        if not world_link and self.placement is not None:
            out.extend(self.world_pose_kept())
        self.kept.model(out, self.model_el)
        out.extend(gazebo_blocks(self.model_el, None))
        close_robot(out, self.file, self.diagnostics)
        return True

    def world_pose_kept(self) -> list:
        """A world's free model converted alone: where the world places its root link,
        which a URDF cannot state (``sdf2urdf.world.kept_world_pose``); nothing for the
        identity."""
        owner = self.scope.owner
        if self.placement is None or not self.tree.roots:
            return []
        root = self.tree.roots[0]
        pose = self.placement * self.tree.link_poses[root]
        if pose == IDENTITY or self.finite_origin(pose, owner.source) is None:
            return []
        return [kept_world_pose(owner.name, self.name(root), pose, self.diagnostics,
                                owner.source, self.file)]

    def check_constraints(self) -> None:
        """Gearbox joints couple two joints; URDF has no such thing."""
        for joint in self.tree.constraints:
            if self.options.approximate:
                self.warn(Code.JOINT_DROPPED, f"gearbox joint [{joint.name}] dropped "
                          "(--approximate): the coupling of its joints is lost",
                          joint.element.source)
            else:
                self.error(Code.URDF_PARITY_JOINT_TYPE, f"joint [{joint.name}] is of type "
                           "[gearbox], which URDF cannot express (--approximate drops it)",
                           joint.element.source)

    def check_structure(self) -> bool:
        tree = self.tree
        if not tree.links:
            self.error(Code.MODEL_WITHOUT_LINK, f"model [{self.scope.owner.name}] has no link; a "
                       "URDF needs at least one", self.scope.owner.source)
            return False
        loops = tree.loop_joints()
        for joint in loops:
            self.error(Code.URDF_KINEMATIC_LOOP, f"joint [{joint.name}] closes a kinematic loop "
                       f"(link [{joint.child}] already has a parent); URDF is a tree",
                       joint.element.source)
        return not loops

    def free_roots(self, joints: list[KinematicJoint]) -> list[str] | None:
        """Root links a non-static model welds to ``world`` under ``--approximate`` (several
        trees, or a free model merged with a world's others); otherwise refused, and None
        (``sdf2urdf.approximate``: a floating joint from world is placed by no consumer)."""
        roots = self.tree.roots
        if self.scope.owner.static or not roots:
            return []
        world_jointed = any(j.parent == "world" for j in joints)
        if len(roots) == 1 and not world_jointed and not self.in_world:
            return []
        name = self.scope.owner.name
        if not self.options.approximate:
            self.error(Code.URDF_SEVERAL_TREES,
                       several_trees_refusal(name, roots, world_jointed, self.in_world),
                       self.scope.owner.source)
            return None
        self.warn(Code.WORLD_JOINT_ADDED, welded_trees_note(name, roots, self.in_world),
                  self.scope.owner.source)
        return roots

    def urdf_joints(self, start: int) -> list[KinematicJoint] | None:
        """The tree's joints, with types URDF lacks refused or approximated; None when
        this model has an error so far (another model's do not stop this one's being
        reported under --all-models)."""
        joints = []
        for joint in self.tree.joints:
            if joint.type in URDF_JOINT_TYPES:
                joints.append(joint)
            elif self.options.approximate and joint.type in APPROXIMABLE:
                joints.extend(approximated_chain(joint, self.tree, self.warn))
            else:
                hint = " (--approximate maps it to URDF joints)" \
                    if joint.type in APPROXIMABLE else ""
                self.error(Code.URDF_PARITY_JOINT_TYPE, f"joint [{joint.name}] is of type "
                           f"[{joint.type}], which URDF cannot express{hint}",
                           joint.element.source)
        return None if self.diagnostics.has_errors_since(start) else joints

    # ---- links ------------------------------------------------------------------------

    def link_element(self, link_name: str) -> Link | None:
        vertex = self.graph.lookup(self.scope, link_name)
        if vertex is None:
            return None
        element = self.graph.vertices[vertex].element
        return element if isinstance(element, Link) else None

    def write_link(self, out: Document, link_name: str) -> None:
        """The link, then the ``<gazebo>`` blocks of what URDF cannot state of it."""
        children: list[Node] = []
        self.link_names.add(link_name)
        link = self.link_element(link_name)
        if link is None:  # a link made by an approximation
            out.add(("link", {"name": self.name(link_name)}, [inserted_link_inertial()]))
            return
        blocks: list = []
        X_UL = self.urdf_frame.get(link_name, IDENTITY)
        if not has_implicit_inertial(link):
            children.append(self.inertial(link, link_name, X_UL))
        for shape in link.visuals:
            self.write_shape(blocks, children, "visual", shape, link_name, X_UL)
        for shape in link.collisions:
            self.write_shape(blocks, children, "collision", shape, link_name, X_UL)
        carries = has_namespaced_children(link.xml)
        if carries:
            children += carried_copies(link.xml)
        out.add(given_back(("link", {"name": self.name(link_name)}, children), link.xml, self.warn))
        out.extend(blocks)
        self.kept.link(out, link, link_name, X_UL)
        if carries:
            out.extend(gazebo_blocks(link.xml, self.name(link_name)))

    def shape_pose(self, link_name: str, spec: PoseSpec) -> Pose:
        """A pose given in a link's element (relative to the link unless relative_to)."""
        return self.result.pose_in_link(self.scope.prefix + link_name, spec)

    def origin(self, X_UL: Pose, link_name: str, spec: PoseSpec) -> Node | None:
        """``<origin>`` of something posed in link ``link_name``: copied text when the
        link frame is the URDF frame and the pose is plain, else computed."""
        if X_UL == IDENTITY and spec.relative_to is None and is_plain(spec):
            return copied_origin(spec)
        return self.finite_origin(X_UL * self.shape_pose(link_name, spec), spec.source)

    def inertial(self, link: Link, link_name: str, X_UL: Pose) -> Node:
        """``<inertial>`` (``sdf2urdf.inertia``); for an SDF link without one, SDFormat's
        default (mass 1, unit inertia at the link origin), since URDF's default is no mass."""
        inertial = link.inertial or Inertial()
        return urdf_inertial(inertial, self.origin(X_UL, link_name, inertial.pose), link.xml,
                             link_name, self.number_texts, self.warn)

    def write_shape(self, blocks: list, children: list[Node], kind: str, shape: Shape,
                    link_name: str, X_UL: Pose) -> None:
        """A visual or collision (with what it carries) into ``children``, or a <gazebo>
        block into ``blocks``."""
        if shape.geometry is None or shape.geometry.kind not in PRIMITIVES:
            blocks.append(self.gazebo_shape_block(kind, shape, link_name, X_UL))
            return
        attributes = {}
        if markup(shape, "unnamed") != "true":
            attributes["name"] = markup(shape, "name") or shape.name or ""
        origin = self.origin(X_UL, link_name, shape.pose)
        parts = [] if origin is None else [origin]
        parts.append(geometry_node(shape.geometry, self.mesh_uri(shape.geometry)))
        if kind == "visual" and shape.material is not None:
            material = relocated_material(shape.material, self.options.output_dir,
                                          self.diagnostics)
            parts.append(material_node(material, material.name or
                                       f"{self.name(link_name)}_{shape.name}_material"))
        parts += carried_copies(shape.xml)
        children.append(shape_given_back((kind, attributes, parts), shape.xml, self.warn,
                                         f"{kind} [{shape.name}] of link [{link_name}]"))

    def gazebo_shape_block(self, kind: str, shape: Shape, link_name: str, X_UL: Pose):
        """Geometry URDF lacks (plane, heightmap, capsule...) travels as SDF in a
        ``<gazebo reference="LINK">`` block (returned), posed in the URDF link frame."""
        what = shape.geometry.kind if shape.geometry is not None else "no"
        self.warn(Code.CONTENT_KEPT_IN_GAZEBO,
                  f"{kind} [{shape.name}] of link [{link_name}] has {what} geometry, which URDF "
                  "cannot express; it is kept as SDF in a <gazebo> block", shape.source)
        block = etree.Element("gazebo", reference=self.name(link_name))
        copy = copy_element(shape.xml)
        for old in copy.findall("pose"):
            copy.remove(old)
        pose = X_UL * self.shape_pose(link_name, shape.pose)
        if pose != IDENTITY:
            copy.insert(0, pose_element(pose))
        block.append(copy)
        return block

    def mesh_uri(self, geometry) -> str:
        """The mesh URI as written: ``--uri-scheme package`` rewrites ``model://``; a
        relative path is made relative to the output's folder."""
        return written_mesh_uri(geometry.uri or "", self.options.uri_scheme, geometry.source,
                                self.options.output_dir, self.diagnostics)

    # ---- joints -----------------------------------------------------------------------

    def write_joint(self, out: Document, joint: KinematicJoint) -> None:
        if joint.vertex < 0:
            self.write_custom_joint(out, joint)
            return
        xml = joint.element.xml
        urdf_name = markup(joint.element, "name")
        name = self.prefix + urdf_name if urdf_name else self.name(joint.name)
        origin = self.joint_origin(joint)
        children: list[Node] = [] if origin is None else [origin]
        children += [("parent", {"link": self.name(joint.parent)}, []),
                     ("child", {"link": self.name(joint.child)}, [])]
        if joint.type != "fixed" and joint.axes:
            children.append(self.axis(joint))
        urdf_type = urdf_joint_type(joint)
        self.write_limits(children, joint, urdf_type)
        if has_namespaced_children(xml):  # what urdf2sdf kept of the URDF joint
            children += [plain_copy(custom) for tag in ("calibration", "safety_controller", "mimic")
                         for custom in custom_children(xml, tag)]
            children += carried_copies(xml)
        out.add(given_back(("joint", {"name": name, "type": urdf_type}, children), xml, self.warn))

    def joint_origin(self, joint: KinematicJoint) -> Node | None:
        """Origin = joint frame in the parent's URDF frame; copied text under parity."""
        X_UP = self.urdf_frame.get(joint.parent, IDENTITY)
        copied = self.copied_origin(joint.name, X_UP)
        return copied or self.finite_origin(X_UP * joint.X_PJ, joint.element.source)

    def copied_origin(self, name: str, X_UP: Pose) -> Node | None:
        """The ``<origin>`` of joint or frame ``name`` as the SDF's text, where the parity
        check allows it and its URDF parent frame is the SDF one; None to compute it (a
        copyable origin recomputed, under a world's placement, is no longer a copy)."""
        if name not in self.parity.copyable:
            return None
        if X_UP != IDENTITY:
            self.recomputed.add(name)
            return None
        return copied_origin(self.parity.copyable[name])

    def axis(self, joint: KinematicJoint) -> Node:
        """``<axis>``: the SDF text when it is this joint's axis, in the joint frame and of
        unit length; else the unit axis computed (an approximation's second axis, an axis
        expressed in another frame, a vector that was not normalised)."""
        axis = joint.axes[0]
        text = None
        for source in getattr(joint.element, "axes", [])[:1]:
            written = self.numbers.value(source.xyz_text or "")
            if source.expressed_in is None and written is not None and \
                    abs(math.fsum(v * v for v in written) - 1.0) <= 1e-12 and \
                    math.dist(written, axis) <= 1e-12:
                text = " ".join(source.xyz_text.split())
        return ("axis", {"xyz": text or numbers_text(axis)}, [])

    def write_limits(self, children: list[Node], joint: KinematicJoint, urdf_type: str) -> None:
        """A joint's ``<dynamics>``, ``<limit>`` and ``<mimic>``, appended to ``children``
        (``urdf_type``: :func:`urdf_joint_type` of ``joint``, found once by the caller)."""
        element = joint.element
        limit = getattr(element, "limit", None)
        dynamics = dynamics_node(getattr(element, "dynamics", None))
        if dynamics is not None:
            children.append(dynamics)
        if joint.type in ("revolute", "prismatic", "continuous") and (
                limit is not None or urdf_type != "continuous"):
            texts = limit.texts if limit is not None else {}
            attributes = {}
            if urdf_type != "continuous":
                attributes["lower"] = texts.get("lower", "-1e+16")
                attributes["upper"] = texts.get("upper", "1e+16")
            for key in ("effort", "velocity"):
                attributes[key] = self.rate_limit(joint, key, texts.get(key))
            children.append(given_back(("limit", attributes, []), limit_xml(element), self.warn))
        mimic = getattr(element, "mimic", None)
        if mimic is not None:
            children.append(mimic_node(self.name(mimic.joint), mimic))

    def rate_limit(self, joint: KinematicJoint, key: str, text: str | None) -> str:
        """URDF's required effort or velocity limit. SDF's "not enforced" (no element, or a
        negative value) becomes 1e+16: never negative (Drake aborts on it) nor 0 (a zero
        velocity limit locks the joint in Gazebo); urdfdom, libsdformat and Drake all read
        1e+16 as no limit, and none of them reads "inf"."""
        value = self.numbers.value(text or "")
        if text is not None and value is not None and len(value) == 1 and value[0] >= 0:
            return text
        said = "no" if text is None else f"the <{key}> {text}, that is no"
        self.warn(Code.JOINT_LIMIT_DEFAULTED, f"joint [{joint.name}] has {said} <{key}> limit; "
                  f"URDF requires one: written as {NO_RATE_LIMIT} (read as no limit by urdfdom, "
                  "libsdformat and Drake)", joint.element.source)
        return NO_RATE_LIMIT

    def write_custom_joint(self, out: Document, joint: KinematicJoint) -> None:
        """A <urdf:joint> restored; its origin follows the SDF poses (``with_origin``)."""
        X_UP = self.urdf_frame.get(joint.parent, IDENTITY)
        origin = self.copied_origin(joint.name, X_UP) or \
            self.finite_origin(X_UP * joint.X_PJ, joint.element.source)
        out.add(with_origin(plain_copy(joint.element.xml), origin))

    def write_static(self, out: Document) -> None:
        """A static model is fixed to the world: each root link (a building or a shelf may
        have several unconnected ones) is welded to ``world`` where it stands (in a world,
        where the world places the model; in a model file, the model frame is the world)."""
        roots = self.tree.roots
        for root in roots:
            self.write_world_joint(out, root)
        what = "its root link is welded to world by a fixed joint" if len(roots) == 1 else \
            f"its {len(roots)} root links are welded to world by fixed joints"
        self.warn(Code.WORLD_JOINT_ADDED,
                  f"model [{self.scope.owner.name}] is static: {what}", self.scope.owner.source)

    def write_world_joint(self, out: Document, root: str) -> None:
        """Root link ``root`` welded to ``world`` by a fixed joint, where it stands."""
        X_UW = self.urdf_frame.get(WORLD, IDENTITY)  # the model frame, or the SDF world's
        origin = self.finite_origin(X_UW * self.tree.link_poses[root], self.scope.owner.source)
        children = [] if origin is None else [origin]
        children += [("parent", {"link": "world"}, []), ("child", {"link": self.name(root)}, [])]
        out.add(("joint", {"name": f"{self.name(root)}_static_weld", "type": "fixed"}, children))

    # ---- frames -----------------------------------------------------------------------

    def write_frames(self, out: Document) -> None:
        """Each explicit frame, as :func:`~urdf_sdf.sdf2urdf.frames.frame_nodes` writes it."""
        for vertex, name in scoped_frames(self.graph, self.scope.prefix):
            if is_lumped_joint_frame(vertex):
                continue  # a lumped joint: its link's frame (urdf:joint) brings it back
            parent = frame_parent(self.graph, vertex)
            problem = unplaceable(name, parent, self.link_names)
            if problem is not None or parent is None:  # (None only with a problem)
                self.warn(Code.FRAME_DROPPED, str(problem), vertex.source)
                continue
            parent_name = self.graph.vertices[parent].scoped_name[len(self.scope.prefix):]
            origin = self.frame_origin(vertex, name, parent, parent_name)
            out.extend(frame_nodes(vertex.element.xml, name, parent_name, origin, self.name,
                                   self.warn))

    def frame_origin(self, vertex, name: str, parent: int, parent_name: str) -> dict:
        """The ``xyz``/``rpy`` of a frame in its URDF parent: copied text when the parity
        check allows it, else computed; empty for the identity."""
        X_UP = self.urdf_frame.get(parent_name, IDENTITY)  # frames sit at their link
        origin = self.copied_origin(name, X_UP)
        if origin is None:
            X_PF = relative_pose(self.graph, vertex.id, parent)
            assert X_PF is not None, "a loaded model's frames resolve"
            origin = self.finite_origin(X_UP * X_PF, vertex.source)
        return dict(origin[1]) if origin is not None else {}


def urdf_joint_type(joint: KinematicJoint) -> str:
    """The URDF type: an SDF revolute joint without position limits is continuous."""
    return "continuous" if joint_kind(joint) == "continuous" else joint.type


def is_plain(spec: PoseSpec) -> bool:
    return spec.rotation_format == "euler_rpy" and not spec.degrees
