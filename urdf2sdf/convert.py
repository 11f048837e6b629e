"""URDF -> SDFormat conversion policy.

Two pose styles:

* ``relative`` (``--relative``): each joint's pose is ``relative_to`` its parent
  link and each child link sits at its joint (``<pose relative_to="JOINT"/>``),
  with every ``xyz``/``rpy`` copied from the URDF text: the SDF mirrors the URDF
  line for line. Needs SDFormat 1.7.
* absolute (default): every link pose resolved to the model frame by the core
  and written with shortest round-trip precision; joint poses are the identity
  relative to their child link, as URDF's child frame is the joint frame.

What SDF cannot express is kept in the ``urdf`` custom namespace (see
``core.base.custom``; attributes URDF does not define: ``urdf2sdf.attributes``; an inertia
libsdformat refuses, repaired, as written: ``urdf2sdf.inertia``) and reported as a warning
where it changes behaviour.

The model's children are made as ``core.write.text`` nodes (or copied elements) and
handed in order to ``core.write.sdf.model_document``, which decides how they become
bytes; those the ``<gazebo>`` blocks change (:func:`gazebo_edits`) are asked for as
elements, and the blocks are applied to them once everything is written.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from urdf_sdf.core.base.custom import namespaced_copy, qname
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.base.model import MODEL_FRAME, WORLD, Joint, Link, Model, Shape
from urdf_sdf.core.base.pose import rotate
from urdf_sdf.core.inspect.rules import is_massless, massless_moving, mimic_targets
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.core.read.version import (
    AXIS_FRAMES,
    AXIS_MIMIC,
    FRAME_SEMANTICS,
    PLAIN_WRITTEN,
    WRITTEN_VERSIONS,
    Version,
    version_text,
    written_version,
)
from urdf_sdf.core.write.common import numbers_text, pose_text
from urdf_sdf.core.write.result import Converted
from urdf_sdf.core.write.sdf import (
    axis_mimic_node,
    axis_node,
    geometry_node,
    massless_inertial_node,
    material_node,
    model_document,
    pose_node,
)
from urdf_sdf.core.write.text import Node
from urdf_sdf.core.write.uris import relocated_material, relocated_textures, written_mesh_uri
from urdf_sdf.urdf2sdf.attributes import (
    carried_namespaces,
    frame_joint_parts,
    part_attribute_nodes,
    sdf_attributes,
)
from urdf_sdf.urdf2sdf.inertia import link_inertial
from urdf_sdf.urdf2sdf.lump import lump_fixed_joints
from urdf_sdf.urdf2sdf.names import check_padded_names
from urdf_sdf.urdf2sdf.scopes import (
    has_scoped_names,
    leaves_scope,
    nest_scopes,
    nesting_refused,
    nesting_version,
)
from urdf_sdf.urdf2sdf.target import mimic_carried, mimic_in_axis, version_ceiling

# <gazebo> blocks are applied (and checked against SDFormat's element table) only when the
# URDF has some: a run without them does not import that code.
_GAZEBO = Later({"apply_gazebo_extensions": ("urdf_sdf.urdf2sdf.gazebo",
                                             "apply_gazebo_extensions")})

CARRIED, NAME, UNNAMED = qname("carried"), qname("name"), qname("unnamed")
SDF_JOINT_TYPES = {"revolute", "prismatic", "continuous", "fixed"}
FREE_JOINT_TYPES = {"floating", "planar"}


@dataclass
class ToSdf:
    relative: bool = False
    sdf_version: str | None = None
    lump_fixed: bool = False
    uri_scheme: str = "package"
    # The folder the output is written to: relative mesh paths are rewritten to still
    # point at the same files from there (None: standard output, paths kept).
    output_dir: str | None = None
    # Repair inertia tensors libsdformat refuses (core.base.inertia.repaired) instead of
    # copying them as written (--keep-inertia).
    fix_inertia: bool = True
    # The Gazebo release the output must load in (core.read.version.GAZEBO_VERSIONS;
    # None: the default, urdf2sdf.target).
    gazebo: str | None = None


@dataclass
class Conversion(Converted):
    xml: bytes | None
    version: str | None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    # The URDF read (core.base.model.Document), for the report (Converted.report).
    source: Any = field(default=None, repr=False, compare=False)
    target_format: ClassVar[str] = "sdf"


def lumped_inertials_finite(model: Model, diagnostics: Diagnostics) -> bool:
    """Whether every inertial of ``model`` (after ``--lump-fixed``) holds finite numbers;
    NUMBER_NOT_FINITE at each that does not (bodies far apart: the parallel axis theorem's
    squared distances overflow)."""
    finite = True
    for link in model.links:
        inertial = link.inertial
        if inertial is None:
            continue
        values = (inertial.mass, inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy,
                  inertial.iyz, inertial.izz)
        if all(map(math.isfinite, values)) and inertial.pose.value.is_finite():
            continue
        finite = False
        diagnostics.error_at(Code.NUMBER_NOT_FINITE, f"link [{link.name}]: the inertial that "
                             "--lump-fixed combines from the links fixed to it is not a finite "
                             "number (the links are too far apart for a double)",
                             inertial.source)
    return finite


@dataclass
class Plan:
    """Decisions taken before writing: which links become frames, which version."""
    frame_links: dict[str, Joint]
    parent_joint: dict[str, Joint]
    version: str
    # The version as numbers (asked for each shape and axis).
    number: Version
    mimic_in_axis: bool
    nested_scopes: bool = False  # names with '::' become nested models (urdf2sdf.scopes)


def convert_urdf(result: LoadResult, options: ToSdf) -> Conversion:
    """Convert a loaded URDF; the result's policy (``--strict``) decides what is an error."""
    conversion = _convert(result, options)
    conversion.diagnostics = result.policy.apply(conversion.diagnostics)
    conversion.read_from(result)
    return conversion


def _convert(result: LoadResult, options: ToSdf) -> Conversion:
    diagnostics = Diagnostics(result.diagnostics)
    if not result.ok or result.document is None:
        return Conversion(None, None, diagnostics)
    model = result.document.model
    if result.document.format != "urdf":
        diagnostics.error(Code.INPUT_FORMAT_WRONG, "the input is an SDFormat file, not a URDF "
                          "file: sdf2urdf converts SDFormat to URDF", result.document.file)
        return Conversion(None, None, diagnostics)
    if model is None:
        diagnostics.error(Code.FILE_READ, "the input is not a URDF file", result.document.file)
        return Conversion(None, None, diagnostics)
    mimic_targets(model, diagnostics)
    if diagnostics.has_errors:
        return Conversion(None, None, diagnostics)
    lumped_frames: list = []
    lumped_elements = None
    if options.lump_fixed:
        model, lumped_frames, lumped_elements = lump_fixed_joints(model, diagnostics)
        if not lumped_inertials_finite(model, diagnostics):
            return Conversion(None, None, diagnostics)
    if not check_padded_names(model, diagnostics):
        return Conversion(None, None, diagnostics)
    plan = make_plan(model, options, bool(lumped_frames), diagnostics)
    if plan is None:
        return Conversion(None, None, diagnostics)
    writer = Writer(model, result, options, plan, diagnostics)
    if lumped_elements is not None:  # a lumped link's name finds its surviving link
        writer.elements = lumped_elements
    xml = writer.write(lumped_frames)
    if plan.nested_scopes:
        return Conversion(nest_scopes(xml, result, diagnostics), plan.version, diagnostics)
    return Conversion(xml, plan.version, diagnostics)


def make_plan(model: Model, options: ToSdf, has_lumped_frames: bool,
              diagnostics: Diagnostics) -> Plan | None:
    parent_joint = {joint.child: joint for joint in model.joints}
    frame_links = massless_frame_links(model, parent_joint)
    massless_moving(model, diagnostics)
    has_mimic = any(joint.mimic is not None for joint in model.joints)
    needed = FRAME_SEMANTICS if (options.relative or frame_links or has_lumped_frames) \
        else PLAIN_WRITTEN
    ceiling = version_ceiling(options.gazebo, options.sdf_version, model.source.file,
                              diagnostics)
    if ceiling is None:
        return None
    if has_mimic and options.sdf_version is None and \
            mimic_in_axis(model, options.gazebo, ceiling, diagnostics):
        needed = AXIS_MIMIC
    nested_scopes = has_scoped_names(model)
    if nested_scopes:
        needed = nesting_version(needed)
    version = options.sdf_version or version_text(needed)
    number = written_version(version)
    if number is None:
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"--sdf-version {version} is not one of "
                          f"{', '.join(WRITTEN_VERSIONS)}", model.source.file)
        return None
    if number < FRAME_SEMANTICS and options.relative:
        diagnostics.error(Code.VERSION_UNSUPPORTED, "--relative needs SDFormat "
                          f"{version_text(FRAME_SEMANTICS)} or later "
                          f"(//pose/@relative_to); --sdf-version {version} cannot express it",
                          model.source.file)
        return None
    if number < FRAME_SEMANTICS and (frame_links or has_lumped_frames):
        what = "lumped links and joints" if has_lumped_frames else \
            "massless links on fixed joints"
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"{what} become //frame elements, which "
                          f"need SDFormat {version_text(FRAME_SEMANTICS)} (//frame/@attached_to); "
                          f"--sdf-version {version} cannot express them", model.source.file)
        return None
    if nested_scopes and nesting_refused(number, model, diagnostics):
        return None
    mimic_carried(model, options.gazebo, options.sdf_version, number, diagnostics)
    return Plan(frame_links, parent_joint, version, number, number >= AXIS_MIMIC, nested_scopes)


def frames_parents_first(links: list[Link], frame_links: dict[str, Joint]) -> list[Link]:
    """The links written as frames, in the URDF's order except that a frame comes after
    the frame it is attached to: Drake places a frame whose ``attached_to`` names a frame
    written later at the wrong pose (libsdformat does not mind the order)."""
    by_name = {link.name: link for link in links}
    order: list[Link] = []
    placed: set[str] = set()
    for link in links:
        chain = []
        name = link.name
        while name in frame_links and name not in placed:
            placed.add(name)
            chain.append(by_name[name])
            name = frame_links[name].parent
        order.extend(reversed(chain))
    return order


def massless_frame_links(model: Model, parent_joint: dict[str, Joint]) -> dict[str, Joint]:
    """The links that become ``//frame``s, each with its joint: massless, shapeless links on
    fixed joints whose whole subtree is such links (sensor mounts, ``tool0``, chains of
    dummy links). Not a link welded to ``world`` (a frame cannot attach to the world
    from inside a model), nor one a ``<gazebo>`` block references, nor one whose scope
    (``arm::`` of ``arm::tool``: ``urdf2sdf.scopes``) its parent is outside."""
    referenced = gazebo_references(model)
    children: dict[str, list[str]] = {}
    for joint in model.joints:
        children.setdefault(joint.parent, []).append(joint.child)

    def could_be_frame(link: Link) -> bool:
        joint = parent_joint.get(link.name)
        return joint is not None and joint.type == "fixed" and joint.parent != "world" \
            and is_massless(link) and not link.visuals and not link.collisions \
            and link.name not in referenced and joint.name not in referenced \
            and not leaves_scope(link.name, joint.parent)

    frame_links: dict[str, Joint] = {}
    for link in reversed(tree_order(model, children)):  # children before their parents
        if could_be_frame(link) and all(c in frame_links for c in children.get(link.name, ())):
            frame_links[link.name] = parent_joint[link.name]
    return frame_links


def tree_order(model: Model, children: dict[str, list[str]]) -> list[Link]:
    """The model's links, each after its parent (breadth first from the roots: links
    whose parent is not a link of the model, such as URDF's ``world``)."""
    links = {link.name: link for link in model.links}
    has_parent = {child for parent, names in children.items() if parent in links
                  for child in names}
    order = [link for link in model.links if link.name not in has_parent]
    for link in order:  # grows while it is walked
        order.extend(links[c] for c in children.get(link.name, ()) if c in links)
    return order


def carried_node(elements) -> Node:
    """URDF elements this project does not read, carried as SDF custom content in one
    ``<urdf:carried>`` (a container without a name: libsdformat 14 wants the names of a
    model's children unique, custom ones included, and a URDF ``<sensor>`` may share its
    name with a frame)."""
    return (CARRIED, {}, [namespaced_copy(el) for el in elements])


def gazebo_references(model: Model) -> set[str]:
    return {block.get("reference") for block in model.gazebo if block.get("reference")}


# The model children a <gazebo> block without reference may extend by name.
MODEL_CHILDREN_BY_NAME = ("link", "joint", "frame")


def gazebo_edits(model: Model, aliases: dict[str, str]) -> set[str]:
    """The names of the written model children that ``<gazebo>`` blocks change or look
    at (``urdf2sdf.gazebo``): each block's reference (a lumped link's through ``aliases``
    to the link it was merged into; an unresolved one is explained from the frames and
    ``<urdf:joint>``s of that name), and each link, joint or frame that a block without
    reference extends (merged by tag and name)."""
    names = gazebo_references(model)
    names |= {aliases[name] for name in names if name in aliases}
    for block in model.gazebo:
        if not block.get("reference"):
            names.update(child.get("name") for child in block
                         if child.tag in MODEL_CHILDREN_BY_NAME and child.get("name"))
    return names


class Writer:
    """Writes one SDF model from a URDF model following a :class:`Plan`."""

    def __init__(self, model: Model, result: LoadResult, options: ToSdf, plan: Plan,
                 diagnostics: Diagnostics):
        self.model = model
        self.result = result
        self.options = options
        self.plan = plan
        self.diagnostics = diagnostics
        # The written elements the <gazebo> blocks change, by name (with --lump-fixed an
        # urdf2sdf.lump.ElementAliases, which also finds a lumped link's survivor).
        self.elements: dict[str, object] = {}
        # The document written (held whole until the <gazebo> blocks are applied), and
        # the names of its children the blocks change or look at.
        self.out = model_document(plan.version, model.name, streamed=not model.gazebo,
                                  namespaces=carried_namespaces(model))
        self.out.container.attrib.update(sdf_attributes(model.attributes))
        self.edited: set[str] = set()

    def warn(self, code: Code, message: str, source) -> None:
        self.diagnostics.warning_at(code, message, source)

    def write(self, lumped_frames) -> bytes:
        """The SDF document's bytes: the model's children written in order into a
        ``core.write.document``, then the ``<gazebo>`` blocks applied to those they name."""
        out = self.out
        self.edited = gazebo_edits(self.model, getattr(self.elements, "aliases", {}))
        for link in self.model.links:
            if link.name not in self.plan.frame_links:
                self.put(self.link_node(link), link.name)
        for link in frames_parents_first(self.model.links, self.plan.frame_links):
            joint = self.plan.frame_links[link.name]
            self.put(self.frame_link_node(link, joint), link.name, joint.urdf_name or joint.name)
        for frame in lumped_frames:
            out.add(frame)
        for frame in self.model.frames:
            self.put(self.drake_frame_node(frame), frame.name, named=False)
        for joint in self.model.joints:
            if joint.child in self.plan.frame_links:
                continue
            if joint.type in FREE_JOINT_TYPES:
                self.put(self.free_joint(joint), joint.name, named=False)
            else:
                self.put(self.joint_node(joint), joint.name)
        for material in self.model.materials.values():
            out.add(relocated_textures(namespaced_copy(material.xml), material.source,
                                       self.options.output_dir, self.diagnostics))
        for transmission in self.model.transmissions:
            out.add(namespaced_copy(transmission))
        if self.model.carried:
            out.add(carried_node(self.model.carried))
        if self.model.gazebo:
            _GAZEBO.apply_gazebo_extensions(out.container, self.model.gazebo, self.elements,
                                            self.diagnostics, self.plan.number,
                                            self.model.source.file)
        return out.to_bytes()

    def put(self, child, name: str, *names: str, named: bool = True) -> None:
        """Write a model child called ``name`` (or ``names``). One the ``<gazebo>`` blocks
        change or look at (:func:`gazebo_edits`) is an element, which the blocks find by
        ``name`` when ``named`` (links, joints and the frames of massless links)."""
        edited = self.edited
        if not edited or (name not in edited and not any(other in edited for other in names)):
            self.out.add(child)
        elif named:
            self.elements[name] = self.out.add_element(child)
        else:
            self.out.add_element(child)

    # ---- poses ------------------------------------------------------------------------

    def computed_pose(self, name: str) -> str:
        pose = self.result.pose(name)
        assert pose is not None, "every link and joint of a loaded model has a pose"
        return pose_text(pose)

    def link_node(self, link: Link) -> Node:
        children: list = []
        joint = self.plan.parent_joint.get(link.name)
        if joint is not None:
            if self.options.relative:
                if joint.type in FREE_JOINT_TYPES:
                    children.append(pose_node(joint.pose, self.joint_parent_frame(joint)))
                else:
                    children.append(("pose", {"relative_to": joint.name}, []))
            else:
                children.append(("pose", {}, self.computed_pose(link.name)))
        children.append(link_inertial(link, self.options.fix_inertia, self.diagnostics)
                        if link.inertial is not None else massless_inertial_node())
        taken: dict[str, set[str]] = {"collision": set(), "visual": set()}  # names written
        for kind, shapes in (("collision", link.collisions), ("visual", link.visuals)):
            for shape in shapes:
                if not shape.from_gazebo:  # <gazebo> content is copied by the gazebo step
                    children.append(self.shape_node(kind, shape, link, taken))
        if link.carried:
            children.append(carried_node(link.carried))
        if link.part_attributes:
            children += part_attribute_nodes(link.part_attributes)
        return ("link", {"name": link.name, **sdf_attributes(link.attributes)}, children)

    def joint_parent_frame(self, joint: Joint) -> str:
        """The frame a joint's pose is relative to: its parent link, or the model frame
        for URDF's ``world`` root link."""
        return MODEL_FRAME if joint.parent == WORLD else joint.parent

    def frame_link_node(self, link: Link, joint: Joint) -> Node:
        """A massless link on a fixed joint (with a massless subtree): a frame named after
        the link, attached to the joint's parent (a link or another such frame)."""
        children: list = []
        inertial_xml = link.xml.find("inertial") if link.xml is not None else None
        if inertial_xml is not None:  # a zero-mass inertial, kept for sdf2urdf
            children.append(namespaced_copy(inertial_xml))
        children.append(self.frame_pose(link.name, joint.pose, self.joint_parent_frame(joint)))
        if link.carried or joint.carried:
            children.append(carried_node(link.carried + joint.carried))
        children += part_attribute_nodes(link.part_attributes)
        children += part_attribute_nodes(frame_joint_parts(joint))
        return ("frame", {"name": link.name, "attached_to": joint.parent,
                          **sdf_attributes(link.attributes),
                          qname("joint"): joint.urdf_name or joint.name},
                [child for child in children if child is not None])

    def frame_pose(self, name: str, pose, relative_to: str) -> Node | None:
        """A frame's ``<pose>``: the URDF text relative to ``relative_to`` (``--relative``),
        else computed in the model frame."""
        if self.options.relative:
            return pose_node(pose, relative_to)
        return ("pose", {"relative_to": MODEL_FRAME}, self.computed_pose(name))

    def shape_node(self, kind: str, shape: Shape, link: Link,
                   taken: dict[str, set[str]]) -> Node:
        """A visual or collision of ``link``. Its URDF name is kept unless SDFormat forbids
        it: a name repeated within a kind, and from 1.7 a visual named like a collision
        (sibling names are unique); the renamed shape carries ``urdf:name`` so sdf2urdf
        gives it back. ``taken``: the names of the link's shapes written so far, by kind."""
        name = shape.name
        kinds = ("visual", "collision") if self.plan.number >= FRAME_SEMANTICS else (kind,)
        in_use = taken[kind] if len(kinds) == 1 else taken["visual"] | taken["collision"]
        if not name or name in in_use:
            explicit = {s.name for s in (link.visuals if kind == "visual" else link.collisions)
                        if s.name}
            base = f"{name}_{kind}" if name and name not in taken[kind] else f"{link.name}_{kind}"
            name, i = base, 1
            while name in in_use or name in explicit:
                name, i = f"{base}_{i}", i + 1
            if shape.name and shape.name in in_use:
                rule = "" if len(kinds) == 1 else \
                    " (from SDFormat 1.7 a visual and a collision have different names)"
                self.warn(Code.NAME_RENAMED,
                          f"{kind} name [{shape.name}] repeats in link [{link.name}]{rule}; "
                          f"renamed [{name}]", shape.source)
        taken[kind].add(name)
        attributes = {"name": name}
        if not shape.name:
            attributes[UNNAMED] = "true"
        elif shape.name != name:
            attributes[NAME] = shape.name
        parts: list = []
        pose = pose_node(shape.pose)
        if pose is not None:
            parts.append(pose)
        geometry = shape.geometry
        if geometry is not None:
            tree = geometry_node(geometry, self.mesh_uri(geometry))
            if tree is None:
                tree = ("geometry", {}, [namespaced_copy(geometry.xml)])
                self.warn(Code.GEOMETRY_KEPT_AS_CUSTOM,
                          f"geometry <{geometry.kind}> has no SDF counterpart; kept as a "
                          "custom element", geometry.source)
            parts.append(tree)
        if kind == "visual" and shape.material is not None:
            parts.append(material_node(relocated_material(
                shape.material, self.options.output_dir, self.diagnostics)))
        if shape.carried:
            parts.append(carried_node(shape.carried))
        return (kind, attributes, parts)

    def mesh_uri(self, geometry) -> str:
        """The mesh URI as written: ``--uri-scheme model`` rewrites ``package://``; a
        relative path is made relative to the output's folder."""
        scheme = "model" if self.options.uri_scheme == "model" else None  # package: as written
        return written_mesh_uri(geometry.uri or "", scheme, geometry.source,
                                self.options.output_dir, self.diagnostics)

    # ---- joints -----------------------------------------------------------------------

    def joint_node(self, joint: Joint) -> Node:
        attributes = {"name": joint.name, "type": joint.type, **sdf_attributes(joint.attributes)}
        if joint.urdf_name is not None:
            attributes[NAME] = joint.urdf_name
        children: list = []
        if self.options.relative:
            children.append(pose_node(joint.pose, self.joint_parent_frame(joint)))
        children.append(("parent", {}, joint.parent))
        children.append(("child", {}, joint.child))
        if joint.type != "fixed" and joint.axes:
            self.write_axis(children, joint)
        children.extend(namespaced_copy(extra) for extra in joint.extras.values())
        if joint.carried:
            children.append(carried_node(joint.carried))
        if joint.part_attributes:
            children += part_attribute_nodes(joint.part_attributes)
        return ("joint", attributes, children)

    def drake_frame_node(self, frame) -> Node:
        """Drake's URDF ``<frame>``: an SDF frame fixed in its link (``urdf:element``
        tells sdf2urdf to give back the ``<frame>`` element)."""
        attributes = {"name": frame.name}
        if frame.attached_to is not None:
            attributes["attached_to"] = frame.attached_to
        attributes[qname("element")] = "frame"
        attributes.update(sdf_attributes(frame.attributes))
        pose = self.frame_pose(frame.name, frame.pose, frame.attached_to)
        return ("frame", attributes, [] if pose is None else [pose])

    def write_axis(self, children: list, joint: Joint) -> None:
        """The joint's ``<axis>`` appended to ``children`` (its joint's), and its mimic:
        in the axis from SDFormat 1.11, else a ``<urdf:mimic>`` after it."""
        axis = joint.axes[0]
        if self.plan.number < AXIS_FRAMES:
            # SDFormat 1.4 reads the axis in the model frame: rotate it there.
            pose = self.result.pose(joint.name)
            assert pose is not None, "every joint of a loaded model has a pose"
            xyz_text = numbers_text(rotate(pose.rotation, axis.xyz))
        else:
            xyz_text = axis.xyz_text if axis.xyz_text is not None else "1 0 0"
        limit = joint.limit
        node = axis_node(xyz_text, joint, sdf_attributes(limit.attributes if limit else None))
        children.append(node)
        if joint.mimic is None:
            return
        if self.plan.mimic_in_axis:
            node[2].append(axis_mimic_node(joint.mimic))
        else:
            children.append(namespaced_copy(joint.xml.find("mimic")))  # below SDFormat 1.11

    def free_joint(self, joint: Joint):
        """Floating and planar joints have no SDF counterpart: the child link is free
        and the joint travels as a custom element (returned)."""
        self.warn(Code.JOINT_FREE_BODY,
                  f"{joint.type} joint [{joint.name}] has no SDFormat counterpart: its child "
                  f"link [{joint.child}] is a free body in the SDF and the joint is kept as "
                  "<urdf:joint> for sdf2urdf", joint.source)
        return namespaced_copy(joint.xml)
