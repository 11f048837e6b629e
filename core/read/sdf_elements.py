"""The elements of an SDFormat model read into ``core.base.model``: poses, links (inertials,
visuals, collisions, geometry, materials), joints (axes, limits) and frames.

Each element's children are looked up in one pass; numbers are parsed once per distinct
text (``ReadState.numbers``, a memo) and checked where they are read.
"""
from __future__ import annotations

import math
import sys

from urdf_sdf.core.base.custom import (
    FROM_GAZEBO,
    INERTIA_AS_WRITTEN,
    INERTIA_KEPT,
    PART_ATTRIBUTES,
    markup_of,
    qname,
)
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS, inertia_problem, mass_problem
from urdf_sdf.core.base.model import (
    MODEL_FRAME,
    Axis,
    Dynamics,
    Frame,
    Geometry,
    Inertial,
    Joint,
    Limit,
    Link,
    Material,
    Mimic,
    PoseSpec,
    Shape,
)
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.read.carried_attributes import own_attributes, part_attributes
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_state import (
    ReadState,
    child,
    parts_of,
    read_bool,
    read_double,
    read_vector3,
    required_name,
)
from urdf_sdf.core.read.version import AXIS_FRAMES, FRAME_SEMANTICS
from urdf_sdf.core.read.xmlio import first_children

SINGLE_AXIS_JOINTS = {"revolute", "prismatic", "continuous", "screw", "gearbox"}
AXIS_JOINTS = SINGLE_AXIS_JOINTS | {"universal", "revolute2"}
# A link's children whose names must be unique among their kind, in the order checked.
UNIQUE_NAMED = ("collision", "visual", "sensor", "light")
TEXTURE = qname("texture")
# What the model holds of a shape, a joint and a material, and the geometry it holds
# whole: any other content is what a converter copies as XML (``ReadState.extra_content``).
SHAPE_PARTS = ("pose", "geometry", "material")
JOINT_PARTS = ("parent", "child", "pose", "axis", "axis2")
PLAIN_MATERIAL = {"diffuse", "ambient", "specular", "emissive", TEXTURE}
PRIMITIVES = ("box", "cylinder", "sphere", "mesh")


# ---- poses ---------------------------------------------------------------------------

def read_pose(parent_el, state: ReadState) -> PoseSpec:
    """Read the ``<pose>`` child of ``parent_el`` (identity when absent)."""
    return pose_of(child(parent_el, "pose"), parent_el, state)


def pose_of(el, parent_el, state: ReadState) -> PoseSpec:
    """The pose ``el`` (``parent_el``'s ``<pose>``; None: the identity)."""
    if el is None:
        return PoseSpec(source=state.src(parent_el))
    return read_pose_element(el, state)


def read_pose_element(el, state: ReadState) -> PoseSpec:
    text = el.text or ""
    if el.attrib:
        return read_pose_value(el, pose_with_attributes(el, text, state), state)
    # Most poses: no attribute to read, six numbers.
    spec = PoseSpec(IDENTITY, None, text, False, "euler_rpy", state.src(el), xml=el)
    if not text or text.isspace():
        return spec
    numbers = state.poses.get(text) or state.poses.read(text)
    if numbers is not None and len(numbers) == 6:
        spec.value = Pose.from_float_rpy(numbers[:3], numbers[3:])
        return spec
    return read_pose_value(el, spec, state)


def read_pose_value(el, spec: PoseSpec, state: ReadState) -> PoseSpec:
    """``spec`` (of ``<pose>`` ``el``, its attributes read) with the value of its text."""
    text = spec.text
    rotation_format, degrees = spec.rotation_format, spec.degrees
    if not text or text.isspace():
        return spec
    numbers = state.poses.value(text)
    if rotation_format == "euler_rpy":
        if numbers is None or len(numbers) != 6:
            state.error(Code.ELEMENT_INVALID, f"<pose> value {text.strip()!r} is not six numbers "
                        "'x y z roll pitch yaw'", el)
            return spec
        rpy = numbers[3:]
        if degrees:
            rpy = [math.radians(a) for a in rpy]
        spec.value = Pose.from_rpy(numbers[:3], rpy)
    elif rotation_format == "quat_xyzw":
        if numbers is None or len(numbers) != 7:
            state.error(Code.ELEMENT_INVALID, f"<pose> value {text.strip()!r} is not seven numbers "
                        "'x y z qx qy qz qw'", el)
            return spec
        if degrees:
            state.error(Code.ELEMENT_INVALID, "<pose degrees='true'> cannot be combined with "
                        "rotation_format='quat_xyzw'", el)
        spec.value = Pose.from_quat_xyzw(numbers[:3], numbers[3:])
    else:
        state.error(Code.ATTRIBUTE_INVALID, f"<pose> rotation_format={rotation_format!r} is not "
                    "'euler_rpy' or 'quat_xyzw'", el)
    return spec


def pose_with_attributes(el, text: str, state: ReadState) -> PoseSpec:
    """The PoseSpec of ``<pose>`` ``el`` before its value: its attributes read."""
    relative_to = el.get("relative_to")
    legacy_frame = el.get("frame")
    if state.version < FRAME_SEMANTICS and legacy_frame is not None and relative_to is None:
        relative_to = legacy_frame
    if relative_to is not None:
        relative_to = relative_to.strip() or None
    degrees_attr = (el.get("degrees") or "false").strip().lower()
    degrees = degrees_attr in ("true", "1")
    if degrees_attr not in ("true", "1", "false", "0"):
        state.error(Code.ATTRIBUTE_INVALID, f"<pose> attribute degrees={degrees_attr!r} is not "
                    "a boolean", el)
    rotation_format = (el.get("rotation_format") or "euler_rpy").strip()
    return PoseSpec(IDENTITY, relative_to, text, degrees, rotation_format, state.src(el),
                    xml=el, markup=markup_of(el))


def check_content_poses(elements, state: ReadState) -> None:
    """Every ``<pose>`` inside ``elements`` (sensors and lights, which the model keeps as
    XML for the converters to copy), read as any other pose is: a value that is not six
    finite numbers (``inf``, ``nan``) is an error, not a pose copied into the output."""
    for el in elements:
        for pose_el in el.iter("pose"):
            read_pose_element(pose_el, state)


# ---- links ---------------------------------------------------------------------------

def read_link(el, state: ReadState) -> Link | None:
    name = required_name(el, state)
    if name is None:
        return None
    pose_el = inertial_el = None
    carries = False
    named: dict[str, list] = {tag: [] for tag in UNIQUE_NAMED}
    for c in el:  # one pass: the first pose and inertial, every shape, sensor and light
        tag = c.tag
        found = named.get(tag)
        if found is not None:
            found.append(c)
        elif tag == "pose":
            pose_el = c if pose_el is None else pose_el
        elif tag == "inertial":
            inertial_el = c if inertial_el is None else inertial_el
        elif isinstance(tag, str):
            state.extra_content += 1  # link physics flags, custom content
            carries = carries or tag == PART_ATTRIBUTES
    if named["sensor"] or named["light"]:
        state.extra_content += 1
        check_content_poses(named["sensor"] + named["light"], state)
    link = Link(name=name, pose=pose_of(pose_el, el, state), source=state.src(el), xml=el)
    carried_attributes(link, el, 1, carries)
    if inertial_el is not None:
        link.inertial = read_inertial(inertial_el, state)
        check_inertia(name, link.inertial, inertial_el, state)
    check_unique_names(el, named, state)
    link.visuals = [read_shape(c, state) for c in named["visual"]]
    link.collisions = [read_shape(c, state) for c in named["collision"]]
    return link


def check_unique_names(el, named: dict[str, list], state: ReadState) -> None:
    """Two children of link ``el`` of one kind (``named``: tag -> elements) may not share a
    name (an error, as in libsdformat). From SDFormat 1.7 "all named sibling elements must
    have unique names" (pose frame semantics proposal), so a visual named like a collision
    is a DUPLICATE_NAME warning too: a warning, not an error, because libsdformat 12 and
    Drake read such links (``--strict`` refuses)."""
    kind_of_name: dict[str, str] = {}
    for tag, elements in named.items():
        seen: set[str] = set()
        for c in elements:
            name = c.get("name")
            if name is None:
                continue
            if name in seen:
                state.error(Code.DUPLICATE_NAME, f"{tag} with name[{name}] already exists in "
                            f"<{tag_of(el)} name='{el.get('name')}'>", c)
            elif name in kind_of_name and state.version >= FRAME_SEMANTICS:
                state.warning(Code.DUPLICATE_NAME, f"{tag} [{name}] has the name of a "
                              f"{kind_of_name[name]} of <{tag_of(el)} name='{el.get('name')}'>: "
                              "from SDFormat 1.7 sibling elements have unique names "
                              "(libsdformat 12 reads it)", c)
            seen.add(name)
            kind_of_name.setdefault(name, tag)


def read_shape(el, state: ReadState) -> Shape:
    """A ``<visual>`` or ``<collision>``: name, pose, geometry and (visual) material."""
    parts, other = parts_of(el, SHAPE_PARTS, SHAPE_PARTS)
    if other:
        state.extra_content += 1  # surfaces, visual extras, custom content
    shape = Shape(name=el.get("name"), pose=pose_of(parts.get("pose"), el, state),
                  source=state.src(el), xml=el, markup=markup_of(el))
    geometry_el = parts.get("geometry")
    if geometry_el is not None:
        for kind in geometry_el:  # the first element child
            if isinstance(kind.tag, str):
                shape.geometry = read_geometry(kind, state)
                break
    if shape.geometry is None or shape.geometry.kind not in PRIMITIVES:
        state.extra_content += 1  # a shape sdf2urdf copies whole
    material_el = parts.get("material")
    if material_el is not None:
        shape.material = read_material(material_el, state)
    return shape


def read_geometry(el, state: ReadState) -> Geometry:
    texts, first = child_texts(el)
    kind = sys.intern(el.tag)
    geometry = Geometry(kind=kind, texts=texts, source=state.src(el), xml=el)
    if kind == "box" and "size" in first:
        geometry.size = read_vector3(first["size"], state)
    if "radius" in first:
        geometry.radius = read_double(first["radius"], state, 0.0)
    if "length" in first:
        geometry.length = read_double(first["length"], state, 0.0)
    if kind == "mesh":
        geometry.uri = texts.get("uri")
        if "scale" in first:
            geometry.scale = read_vector3(first["scale"], state)
    return geometry


def read_material(el, state: ReadState) -> Material:
    material = Material(name=el.get(qname("name")), source=state.src(el), xml=el,
                        markup=markup_of(el))
    parts, other = parts_of(el, ("diffuse", "ambient", TEXTURE), PLAIN_MATERIAL)
    if other:
        state.extra_content += 1  # scripts, shaders, PBR: a rich material is copied
    for tag in ("diffuse", "ambient"):
        color_el = parts.get(tag)
        if color_el is None:
            continue
        numbers = state.numbers.value(color_el.text or "")
        if numbers is not None and len(numbers) in (3, 4):
            material.color = numbers + ((1.0,) if len(numbers) == 3 else ())
            material.color_text = (color_el.text or "").strip()
            break
    texture = parts.get(TEXTURE)
    if texture is not None:
        material.texture = texture.get("filename")
    return material


INERTIAL_PARTS = ("pose", "mass", "inertia", INERTIA_AS_WRITTEN)


def read_inertial(el, state: ReadState) -> Inertial:
    """An ``<inertial>``. One holding a URDF's tensor as written (``<urdf:inertia>``,
    urdf2sdf's record of a repair) is content sdf2urdf copies: its link's element is kept."""
    parts = first_children(el, INERTIAL_PARTS)
    if INERTIA_AS_WRITTEN in parts:
        state.extra_content += 1
    inertial = Inertial(source=state.src(el), markup=markup_of(el))
    inertial.pose = pose_of(parts.get("pose"), el, state)
    inertial.mass = read_double(parts.get("mass"), state, 1.0)
    inertia = parts.get("inertia")
    if inertia is not None:
        moments = first_children(inertia, INERTIA_KEYS)
        get = moments.get
        inertial.ixx = read_double(get("ixx"), state, 1.0)
        inertial.ixy = read_double(get("ixy"), state, 0.0)
        inertial.ixz = read_double(get("ixz"), state, 0.0)
        inertial.iyy = read_double(get("iyy"), state, 1.0)
        inertial.iyz = read_double(get("iyz"), state, 0.0)
        inertial.izz = read_double(get("izz"), state, 1.0)
    return inertial


def check_inertia(name: str, inertial: Inertial, el, state: ReadState) -> None:
    """Link ``name``'s mass must be non-negative and its inertia tensor valid by
    libsdformat's rule. An
    inertial urdf2sdf marked ``urdf:inertia="invalid"`` holds a URDF's tensor kept as
    written (URDF allows it, and the conversion warned): a warning, not an error."""
    problem = mass_problem(inertial) or inertia_problem(inertial)
    if not problem:
        return
    message = f"link [{name}] has invalid inertia: {problem}"
    if el.get(INERTIA_KEPT) == "invalid" and not mass_problem(inertial):
        state.warning(Code.LINK_INERTIA_INVALID, message + " (kept from a URDF; libsdformat "
                      "refuses it)", el)
    else:
        state.error(Code.LINK_INERTIA_INVALID, message, el)


# ---- joints --------------------------------------------------------------------------

def read_joint(el, state: ReadState) -> Joint | None:
    name = required_name(el, state)
    if name is None:
        return None
    joint_type = el.get("type")
    if joint_type is None:
        state.error(Code.ATTRIBUTE_MISSING, f"joint [{name}] has no type attribute", el)
        joint_type = ""
    parts, other = parts_of(el, JOINT_PARTS, JOINT_PARTS)
    if other:
        state.extra_content += 1  # joint physics, sensors, custom content
        check_content_poses(el.iterchildren("sensor"), state)
    elif el.get(FROM_GAZEBO) is not None:
        state.extra_content += 1  # from a URDF <gazebo> block: a loop it closes is copied
    parent, child_el = parts.get("parent"), parts.get("child")
    parent_name = (parent.text or "").strip() if parent is not None else None
    child_name = (child_el.text or "").strip() if child_el is not None else None
    if parent_name is None:
        state.error(Code.ELEMENT_MISSING, f"joint [{name}] has no <parent>", el)
    if child_name is None:
        state.error(Code.ELEMENT_MISSING, f"joint [{name}] has no <child>", el)
    joint = Joint(name=name, type=joint_type.strip(), parent=parent_name or "",
                  child=child_name or "", pose=pose_of(parts.get("pose"), el, state),
                  source=state.src(el), xml=el, markup=markup_of(el))
    carried_attributes(joint, el, 2, other)
    for tag in ("axis", "axis2"):
        axis_el = parts.get(tag)
        if axis_el is not None:
            joint.axes.append(read_axis(axis_el, joint, state))
    if not joint.axes and joint.type in AXIS_JOINTS:
        joint.axes.append(Axis(source=state.src(el)))  # SDF's default axis: 0 0 1
    if joint.axes:
        first = joint.axes[0]
        joint.limit, joint.dynamics, joint.mimic = first.limit, first.dynamics, first.mimic
    return joint


def child_texts(el) -> tuple[dict[str, str], dict]:
    """The stripped text of each child by tag (the last of a tag wins), and the first
    child of each tag (one pass over the children)."""
    texts: dict[str, str] = {}
    first: dict = {}
    for c in el:
        tag = c.tag
        if isinstance(tag, str):
            tag = sys.intern(tag)
            texts[tag] = (c.text or "").strip()
            if tag not in first:
                first[tag] = c
    return texts, first


def read_axis(el, joint: Joint, state: ReadState) -> Axis:
    axis = Axis(source=state.src(el), xml=el)
    parts = first_children(el, ("limit", "dynamics", "mimic", "xyz", "use_parent_model_frame"))
    limit_el = parts.get("limit")
    if limit_el is not None:
        texts, bounds = child_texts(limit_el)
        get = bounds.get
        axis.limit = Limit(read_double(get("lower"), state, None, allow_infinite=True),
                           read_double(get("upper"), state, None, allow_infinite=True),
                           read_double(get("effort"), state, None, allow_infinite=True),
                           read_double(get("velocity"), state, None, allow_infinite=True),
                           texts=texts)
        if len(limit_el.attrib):
            axis.limit.attributes = own_attributes(limit_el) or None
    dynamics_el = parts.get("dynamics")
    if dynamics_el is not None:
        texts, first = child_texts(dynamics_el)
        axis.dynamics = Dynamics(read_double(first.get("damping"), state, None),
                                 read_double(first.get("friction"), state, None),
                                 texts=texts)
    mimic_el = parts.get("mimic")
    if mimic_el is not None and mimic_el.get("joint"):
        texts, first = child_texts(mimic_el)
        axis.mimic = Mimic(mimic_el.get("joint"),
                           read_double(first.get("multiplier"), state, 1.0),
                           read_double(first.get("offset"), state, 0.0),
                           texts=texts)
    xyz_el = parts.get("xyz")
    if xyz_el is not None:
        read_axis_xyz(axis, xyz_el, joint, state)
    if state.version < AXIS_FRAMES:
        axis.expressed_in = MODEL_FRAME
    elif state.version < FRAME_SEMANTICS:
        upmf = parts.get("use_parent_model_frame")
        if upmf is not None and read_bool(upmf, state):
            axis.expressed_in = MODEL_FRAME
    return axis


def read_axis_xyz(axis: Axis, xyz_el, joint: Joint, state: ReadState) -> None:
    """``<xyz>``: the unit axis, its text and the frame it is expressed in."""
    axis.xyz_text = xyz_el.text or ""
    vector = read_vector3(xyz_el, state)
    if vector is not None:
        norm = math.hypot(*vector)  # the squares of 1e200 would overflow
        if norm == 0:
            state.error(Code.ELEMENT_INVALID, f"the <xyz> axis of joint [{joint.name}] has "
                        "zero norm", xyz_el)
        else:
            x, y, z = vector
            axis.xyz = (x / norm, y / norm, z / norm)
    expressed_in = xyz_el.get("expressed_in")
    if expressed_in is not None and expressed_in.strip():
        axis.expressed_in = expressed_in.strip()


# ---- frames --------------------------------------------------------------------------

def read_frame(el, state: ReadState) -> Frame | None:
    name = required_name(el, state)
    if name is None:
        return None
    attached_to = el.get("attached_to")
    if attached_to is None and el.get("affixed_to") is not None:
        attached_to = el.get("affixed_to")
        state.warning(Code.ATTRIBUTE_DEPRECATED,
                      f"frame [{name}] uses affixed_to, the proposal's name for "
                      "attached_to; read as attached_to", el)
    if attached_to is not None:
        attached_to = attached_to.strip() or None
    frame = Frame(name=name, attached_to=attached_to, pose=read_pose(el, state),
                  source=state.src(el), xml=el)
    carried_attributes(frame, el, 2, len(el) > 0)
    return frame


def carried_attributes(value: Link | Joint | Frame, el, defined: int, parts: bool) -> None:
    """The URDF attributes link, joint or frame ``el`` carries (``core.read.carried_attributes``)
    onto its model ``value``: its own when it has more attributes than the ``defined``
    ones it usually has (the common case skips them), and those of its parts when
    ``parts`` says it may hold a ``<urdf:attributes>`` child."""
    if len(el.attrib) > defined:
        value.attributes = own_attributes(el) or None
    if parts:
        value.part_attributes = part_attributes(el) or None

