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
``core.custom``) and reported as a warning where it changes behaviour.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from core.custom import namespaced_copy, qname
from core.diagnostics import Code, Diagnostics
from core.loader import LoadResult
from core.model import Geometry, Joint, Link, Material, Model, PoseSpec, Shape
from core.pose import rotate
from core.sdf_writer import leaf, new_document, numbers_text, pose_text, sub, to_bytes

SUPPORTED_VERSIONS = ("1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11")
SDF_JOINT_TYPES = {"revolute", "prismatic", "continuous", "fixed"}
FREE_JOINT_TYPES = {"floating", "planar"}


@dataclass
class Options:
    relative: bool = False
    sdf_version: str | None = None
    lump_fixed: bool = False
    uri_scheme: str = "package"


@dataclass
class Conversion:
    xml: bytes | None
    version: str | None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)

    @property
    def ok(self) -> bool:
        return self.xml is not None and not self.diagnostics.has_errors


def version_key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


@dataclass
class Plan:
    """Decisions taken before writing: which links become frames, which version."""
    frame_links: dict[str, Joint]
    parent_joint: dict[str, Joint]
    version: str
    mimic_in_axis: bool


def convert_urdf(result: LoadResult, options: Options) -> Conversion:
    from core.gc_pause import gc_paused
    with gc_paused():
        return _convert(result, options)


def _convert(result: LoadResult, options: Options) -> Conversion:
    diagnostics = Diagnostics(result.diagnostics)
    if not result.ok or result.document is None:
        return Conversion(None, None, diagnostics)
    if result.document.format != "urdf":
        diagnostics.error(Code.FILE_READ, "the input is not a URDF file", result.document.file)
        return Conversion(None, None, diagnostics)
    model = result.document.model
    lumped_frames, lumped_elements = [], None
    if options.lump_fixed:
        from urdf2sdf.lump import lump_fixed_joints
        model, lumped_frames, lumped_elements = lump_fixed_joints(model, diagnostics)
    plan = make_plan(model, options, bool(lumped_frames), diagnostics)
    if plan is None:
        return Conversion(None, None, diagnostics)
    writer = Writer(model, result, options, plan, diagnostics)
    if lumped_elements is not None:  # a lumped link's name finds its surviving link
        writer.elements = lumped_elements
    root = writer.write(lumped_frames)
    return Conversion(to_bytes(root), plan.version, diagnostics)


def make_plan(model: Model, options: Options, has_lumped_frames: bool,
              diagnostics: Diagnostics) -> Plan | None:
    parent_joint = {joint.child: joint for joint in model.joints}
    parents = {joint.parent for joint in model.joints}
    referenced = gazebo_references(model)
    frame_links = {}
    for link in model.links:
        joint = parent_joint.get(link.name)
        if joint is None or not is_massless(link):
            continue
        if joint.type == "fixed":
            # A frame cannot be attached to the world from inside a model: a massless
            # leaf welded to world stays a link with its joint.
            leaf = link.name not in parents and link.name not in referenced and \
                joint.name not in referenced and joint.parent != "world"
            if leaf and not link.visuals and not link.collisions:
                frame_links[link.name] = joint
        if link.name not in frame_links and joint.type not in FREE_JOINT_TYPES:
            hint = " (--lump-fixed merges it into its parent)" if joint.type == "fixed" else ""
            diagnostics.warning(Code.WARNING, f"link [{link.name}] has no mass but hangs on "
                                f"{joint.type} joint [{joint.name}]; it stays a link, and SDF "
                                f"gives a link without <inertial> a mass of 1{hint}",
                                link.source.file, link.source.line)
    has_mimic = any(joint.mimic is not None for joint in model.joints)
    needed = "1.7" if (options.relative or frame_links or has_lumped_frames) else "1.6"
    if has_mimic and options.sdf_version is None:
        needed = "1.11"
    version = options.sdf_version or needed
    if version not in SUPPORTED_VERSIONS:
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"--sdf-version {version} is not one of "
                          f"{', '.join(SUPPORTED_VERSIONS)}", model.source.file)
        return None
    if version_key(version) < (1, 7) and options.relative:
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"--relative needs SDFormat 1.7 or later "
                          f"(//pose/@relative_to); --sdf-version {version} cannot express it",
                          model.source.file)
        return None
    if version_key(version) < (1, 7) and (frame_links or has_lumped_frames):
        what = "lumped links and joints" if has_lumped_frames else \
            "massless links on fixed joints"
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"{what} become //frame elements, which "
                          "need SDFormat 1.7 (//frame/@attached_to); "
                          f"--sdf-version {version} cannot express them", model.source.file)
        return None
    return Plan(frame_links, parent_joint, version, version_key(version) >= (1, 11))


def is_massless(link: Link) -> bool:
    return link.inertial is None or link.inertial.mass == 0



def gazebo_references(model: Model) -> set[str]:
    return {block.get("reference") for block in model.gazebo if block.get("reference")}


def pose_from_origin(parent_el, pose: PoseSpec, relative_to: str | None = None,
                     keep_empty: bool = False):
    """``<pose>`` with the URDF origin's text; ``urdf:origin`` lists the attributes the
    origin had when it lacked one, so that sdf2urdf writes back exactly the same."""
    text = origin_text(pose)
    if not text and not keep_empty and relative_to is None:
        return None
    pose_el = sub(parent_el, "pose", text or None, relative_to=relative_to)
    present = [name for name, value in (("xyz", pose.xyz_text), ("rpy", pose.rpy_text))
               if value is not None]
    if text and len(present) == 1:
        pose_el.set(qname("origin"), present[0])
    for name, value in (("xyz", pose.xyz_text), ("rpy", pose.rpy_text)):
        if value is not None and value != " ".join(value.split()):
            pose_el.set(qname(name), value)  # spacing SDF's token list cannot keep
    return pose_el


def origin_text(pose: PoseSpec) -> str:
    """``xyz rpy`` as written in the URDF (``0 0 0`` for an absent attribute), or ``""``
    when there was no ``<origin>``."""
    if pose.xyz_text is None and pose.rpy_text is None:
        return ""
    return f"{pose.xyz_text if pose.xyz_text is not None else '0 0 0'} " \
           f"{pose.rpy_text if pose.rpy_text is not None else '0 0 0'}"


class Writer:
    """Writes one SDF model from a URDF model following a :class:`Plan`."""

    def __init__(self, model: Model, result: LoadResult, options: Options, plan: Plan,
                 diagnostics: Diagnostics):
        self.model = model
        self.result = result
        self.options = options
        self.plan = plan
        self.diagnostics = diagnostics
        self.elements: dict[str, object] = {}

    def warn(self, message: str, source) -> None:
        self.diagnostics.warning(Code.WARNING, message, source.file, source.line)

    def write(self, lumped_frames):
        root = new_document(self.plan.version)
        model_el = sub(root, "model", name=self.model.name)
        for link in self.model.links:
            if link.name in self.plan.frame_links:
                continue
            self.elements[link.name] = self.write_link(model_el, link)
        for link in self.model.links:
            joint = self.plan.frame_links.get(link.name)
            if joint is not None:
                self.write_frame_link(model_el, link, joint)
        for frame in lumped_frames:
            model_el.append(frame)
        for joint in self.model.joints:
            if joint.child in self.plan.frame_links:
                continue
            if joint.type in FREE_JOINT_TYPES:
                self.write_free_joint(model_el, joint)
            else:
                self.elements[joint.name] = self.write_joint(model_el, joint)
        for material in self.model.materials.values():
            model_el.append(namespaced_copy(material.xml))
        for transmission in self.model.transmissions:
            model_el.append(namespaced_copy(transmission))
        if self.model.gazebo:
            from urdf2sdf.gazebo import apply_gazebo_extensions
            apply_gazebo_extensions(model_el, self.model.gazebo, self.elements, self.diagnostics,
                                    self.plan.version, self.model.source.file)
        return root

    # ---- poses ------------------------------------------------------------------------

    def computed_pose(self, name: str) -> str:
        pose = self.result.pose(name)
        return pose_text(pose)

    def write_link(self, model_el, link: Link):
        link_el = sub(model_el, "link", name=link.name)
        joint = self.plan.parent_joint.get(link.name)
        if joint is not None:
            if self.options.relative:
                if joint.type in FREE_JOINT_TYPES:
                    pose_from_origin(link_el, joint.pose, self.joint_parent_frame(joint))
                else:
                    sub(link_el, "pose", relative_to=joint.name)
            else:
                sub(link_el, "pose", self.computed_pose(link.name))
        if link.inertial is not None:
            self.write_inertial(link_el, link)
        for shape in link.collisions:
            if not shape.from_gazebo:  # <gazebo> content is copied by the gazebo step
                self.write_shape(link_el, "collision", shape, link)
        for shape in link.visuals:
            if not shape.from_gazebo:
                self.write_shape(link_el, "visual", shape, link)
        return link_el

    def joint_parent_frame(self, joint: Joint) -> str:
        """The frame a joint's pose is relative to: its parent link, or the model frame
        for URDF's ``world`` root link."""
        return "__model__" if joint.parent == "world" else joint.parent

    def write_frame_link(self, model_el, link: Link, joint: Joint) -> None:
        """A massless leaf on a fixed joint: a frame named after the link."""
        frame_el = sub(model_el, "frame", name=link.name, attached_to=joint.parent)
        frame_el.set(qname("joint"), joint.urdf_name or joint.name)
        inertial_xml = link.xml.find("inertial") if link.xml is not None else None
        if inertial_xml is not None:  # a zero-mass inertial, kept for sdf2urdf
            frame_el.append(namespaced_copy(inertial_xml))
        if self.options.relative:
            pose_from_origin(frame_el, joint.pose, self.joint_parent_frame(joint))
        else:
            sub(frame_el, "pose", self.computed_pose(link.name), relative_to="__model__")
        self.elements[link.name] = frame_el

    def write_inertial(self, link_el, link: Link) -> None:
        inertial = link.inertial
        inertial_el = sub(link_el, "inertial")
        pose_from_origin(inertial_el, inertial.pose)
        texts = inertial.texts
        leaf(inertial_el, "mass", texts.get("mass") or repr(inertial.mass))
        inertia_el = sub(inertial_el, "inertia")
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            leaf(inertia_el, key, texts.get(key) or repr(getattr(inertial, key)))

    def write_shape(self, link_el, kind: str, shape: Shape, link: Link) -> None:
        name = shape.name
        taken = {c.get("name") for c in link_el if c.tag == kind}
        explicit = {s.name for s in (link.visuals if kind == "visual" else link.collisions)
                    if s.name}
        if not name or name in taken:
            base = f"{link.name}_{kind}"
            name, i = base, 1
            while name in taken or name in explicit:
                name, i = f"{base}_{i}", i + 1
            if shape.name and shape.name in taken:
                self.warn(f"{kind} name [{shape.name}] repeats in link [{link.name}]; renamed "
                          f"[{name}]", shape.source)
        shape_el = sub(link_el, kind, name=name)
        if not shape.name:
            shape_el.set(qname("unnamed"), "true")
        elif shape.name != name:
            shape_el.set(qname("name"), shape.name)
        pose_from_origin(shape_el, shape.pose)
        if shape.geometry is not None:
            self.write_geometry(shape_el, shape.geometry)
        if kind == "visual" and shape.material is not None:
            self.write_material(shape_el, shape.material)

    def write_geometry(self, shape_el, geometry: Geometry) -> None:
        geometry_el = sub(shape_el, "geometry")
        texts = geometry.texts
        if geometry.kind == "box":
            sub(sub(geometry_el, "box"), "size", texts.get("size"))
        elif geometry.kind == "cylinder":
            cylinder = sub(geometry_el, "cylinder")
            sub(cylinder, "radius", texts.get("radius"))
            sub(cylinder, "length", texts.get("length"))
        elif geometry.kind == "sphere":
            sub(sub(geometry_el, "sphere"), "radius", texts.get("radius"))
        elif geometry.kind == "mesh":
            mesh = sub(geometry_el, "mesh")
            sub(mesh, "uri", self.mesh_uri(geometry.uri or ""))
            if "scale" in texts:
                sub(mesh, "scale", texts["scale"])
        else:
            geometry_el.append(namespaced_copy(geometry.xml))
            self.warn(f"geometry <{geometry.kind}> has no SDF counterpart; kept as a custom "
                      "element", geometry.source)

    def mesh_uri(self, uri: str) -> str:
        if self.options.uri_scheme == "model" and uri.startswith("package://"):
            return "model://" + uri[len("package://"):]
        return uri

    def write_material(self, shape_el, material: Material) -> None:
        """URDF rgba -> SDF ``<ambient>`` and ``<diffuse>`` (the same text in both);
        the material's name and texture travel as custom markup."""
        material_el = sub(shape_el, "material")
        if material.name:
            material_el.set(qname("name"), material.name)
        if material.xml is not None and material.xml.find("color") is None and \
                material.xml.find("texture") is None:
            material_el.set(qname("reference"), "true")
        if material.color_text is not None:
            sub(material_el, "ambient", material.color_text)
            sub(material_el, "diffuse", material.color_text)
        if material.texture is not None:
            texture = sub(material_el, qname("texture"))
            texture.set("filename", material.texture)

    # ---- joints -----------------------------------------------------------------------

    def write_joint(self, model_el, joint: Joint):
        joint_el = sub(model_el, "joint", name=joint.name, type=joint.type)
        if joint.urdf_name is not None:
            joint_el.set(qname("name"), joint.urdf_name)
        if self.options.relative:
            pose_from_origin(joint_el, joint.pose, self.joint_parent_frame(joint))
        sub(joint_el, "parent", joint.parent)
        sub(joint_el, "child", joint.child)
        if joint.type != "fixed" and joint.axes:
            self.write_axis(joint_el, joint)
        for extra in joint.extras.values():
            joint_el.append(namespaced_copy(extra))
        return joint_el

    def write_axis(self, joint_el, joint: Joint) -> None:
        axis = joint.axes[0]
        axis_el = sub(joint_el, "axis")
        if version_key(self.plan.version) < (1, 5):
            # SDFormat 1.4 reads the axis in the model frame: rotate it there.
            rotation = self.result.pose(joint.name).rotation
            sub(axis_el, "xyz", numbers_text(rotate(rotation, axis.xyz)))
        else:
            sub(axis_el, "xyz", axis.xyz_text if axis.xyz_text is not None else "1 0 0")
        limit = joint.limit
        if limit is not None or joint.type in ("revolute", "prismatic"):
            limit_el = sub(axis_el, "limit")
            texts = limit.texts if limit is not None else {}
            if joint.type in ("revolute", "prismatic"):
                sub(limit_el, "lower", texts.get("lower", "0"))
                sub(limit_el, "upper", texts.get("upper", "0"))
            for key in ("effort", "velocity"):
                if key in texts:
                    sub(limit_el, key, texts[key])
        if joint.dynamics is not None:
            dynamics_el = sub(axis_el, "dynamics")
            for key in ("damping", "friction"):
                if key in joint.dynamics.texts:
                    sub(dynamics_el, key, joint.dynamics.texts[key])
        if joint.mimic is not None:
            self.write_mimic(joint_el, axis_el, joint)

    def write_mimic(self, joint_el, axis_el, joint: Joint) -> None:
        mimic = joint.mimic
        if self.plan.mimic_in_axis:
            mimic_el = sub(axis_el, "mimic", joint=mimic.joint, axis="axis")
            sub(mimic_el, "multiplier", mimic.texts.get("multiplier", "1"))
            sub(mimic_el, "offset", mimic.texts.get("offset", "0"))
        else:
            mimic_xml = joint.xml.find("mimic")
            joint_el.append(namespaced_copy(mimic_xml))

    def write_free_joint(self, model_el, joint: Joint) -> None:
        """Floating and planar joints have no SDF counterpart: the child link is free
        and the joint travels as a custom element."""
        model_el.append(namespaced_copy(joint.xml))
        self.warn(f"{joint.type} joint [{joint.name}] has no SDFormat counterpart: its child "
                  f"link [{joint.child}] is a free body in the SDF and the joint is kept as "
                  "<urdf:joint> for sdf2urdf", joint.source)
