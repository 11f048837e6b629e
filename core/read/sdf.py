"""Phase 1: read an SDFormat document (versions 1.0 to 1.11) into ``core.model``.

Version differences are normalised here, the way libsdformat's conversion files
do, so that later phases see one semantics:

* 1.4 and older: every joint axis is expressed in the parent model frame
  (``expressed_in="__model__"``);
* 1.5 and 1.6: ``//pose/@frame`` means ``relative_to``, and
  ``use_parent_model_frame`` true means ``expressed_in="__model__"``;
* below 1.7, sibling names of different kinds may collide: the graph builder
  renames the joint or frame as libsdformat does.

The reader checks values (numbers, poses, required attributes) and reports
bad ones; it never raises on bad input. It knows nothing of files other than the one
it reads: an ``<include>`` is handed to ``ReadState.include_reader`` (composition,
``core.compose.include.read_include``, set by the loader).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from urdf_sdf.core.context import Context
from urdf_sdf.core.custom import qname
from urdf_sdf.core.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.inertia import inertia_problem, mass_problem
from urdf_sdf.core.model import (Axis, Document, Dynamics, Frame, Geometry, Inertial, Joint, Limit,
                                 Link, Material, Mimic, Model, PoseSpec, Shape, Source, World)
from urdf_sdf.core.pose import IDENTITY, Pose
from urdf_sdf.core.read import values
from urdf_sdf.core.read.consume import Consumer
from urdf_sdf.core.read.legacy import unflatten
from urdf_sdf.core.read.version import NEWEST_VERSION, sdf_root_version
from urdf_sdf.core.read.numbers import parse_double, parse_doubles
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes

SINGLE_AXIS_JOINTS = {"revolute", "prismatic", "continuous", "screw", "gearbox"}


@dataclass
class ReadState:
    """What every reader function needs: where we are and where findings go."""
    file: str | None
    version: tuple[int, int]
    diagnostics: Diagnostics
    context: Context
    include_stack: tuple[str, ...] = ()
    # Names of the models being read, outermost first (for absolute model names).
    model_path: list[str] = field(default_factory=list)
    # Reads an <include> into the model or world being read: composition's
    # read_include(el, state, parent), given by the loader.
    include_reader: Callable[[Any, "ReadState", Any], None] | None = None
    # Deletes the link and joint elements once read when the XML is not kept.
    consumer: Consumer | None = None

    def __post_init__(self) -> None:
        if self.consumer is None:
            self.consumer = Consumer(self.context.keep_xml)

    def src(self, el) -> Source:
        return source_of(el, self.file)

    def error(self, code: Code, message: str, el=None) -> None:
        self.diagnostics.error_at(code, message, source_of(el, self.file))

    def warning(self, code: Code, message: str, el=None) -> None:
        self.diagnostics.warning_at(code, message, source_of(el, self.file))

    def read_include(self, el, parent) -> None:
        """Add what ``<include>`` ``el`` brings to ``parent`` (a Model or World)."""
        if self.include_reader is None:
            self.error(Code.ELEMENT_INVALID, "<include> is not read here: this reader was "
                       "called without composition (use core.loader.load)", el)
            return
        self.include_reader(el, self, parent)


def children(el, tag: str):
    return [c for c in el if c.tag == tag]


def child(el, tag: str):
    for c in el:
        if c.tag == tag:
            return c
    return None


def child_text(el, tag: str) -> str | None:
    c = child(el, tag)
    if c is None:
        return None
    return (c.text or "").strip()


def read_sdf_file(path: str | Path, context: Context, diagnostics: Diagnostics,
                  include_stack: tuple[str, ...] = (),
                  include_reader: Callable | None = None) -> Document | None:
    file = str(path)
    data = read_bytes(path, diagnostics)
    if data is None:
        return None
    return read_sdf_string(data, file, context, diagnostics, include_stack, include_reader)


def read_sdf_string(data: bytes | str, file: str | None, context: Context,
                    diagnostics: Diagnostics, include_stack: tuple[str, ...] = (),
                    include_reader: Callable | None = None) -> Document | None:
    root = parse_xml(data, file, diagnostics)
    if root is None:
        return None
    return read_sdf_root(root, file, context, diagnostics, include_stack, include_reader)


def read_sdf_root(root, file: str | None, context: Context, diagnostics: Diagnostics,
                  include_stack: tuple[str, ...] = (),
                  include_reader: Callable | None = None) -> Document | None:
    """The document of a parsed SDFormat file (``root``: its root element)."""
    version = sdf_root_version(root, file, diagnostics)
    if version is None:
        return None
    # An unsupported version was reported; the file is read with the newest semantics so
    # that its other problems are found too (as libsdformat does).
    version = min(version, NEWEST_VERSION)
    state = ReadState(file, version, diagnostics, context, include_stack,
                      include_reader=include_reader)
    return read_root(root, state, root.get("version").strip())


def read_root(root, state: ReadState, version_text: str) -> Document:
    doc = Document(version=version_text, file=state.file)
    values.check_values(root, state)
    models = children(root, "model")
    worlds = children(root, "world")
    others = [c for c in root if isinstance(c.tag, str) and c.tag in ("light", "actor")]
    if len(models) + len(others) > 1 and not (len(models) > 1 and not others):
        extra = (models + others)[1]
        state.error(Code.ELEMENT_INCORRECT_TYPE, f"the root <sdf> holds another top-level "
                    f"<{extra.tag}> besides its first model, actor or light; only one is allowed",
                    extra)
    if len(models) > 1:
        names = [m.get("name") for m in models]
        duplicate = len(set(names)) < len(names)
        state.error(Code.DUPLICATE_NAME if duplicate else Code.ELEMENT_INCORRECT_TYPE,
                    "the root <sdf> may hold only one <model>" +
                    (f" (and model name [{names[0]}] is repeated)" if duplicate else "") +
                    "; only the first is read", models[1])
    if models and worlds:
        state.error(Code.ELEMENT_INCORRECT_TYPE, "the root <sdf> holds both a <model> and a "
                    "<world>; only one kind of root is allowed", worlds[0])
    includes = children(root, "include")
    if models:
        doc.model = read_model(models[0], state, top_level=True)
    elif includes and not worlds:
        doc.model = read_root_include(includes[0], state)
    seen_worlds: set[str] = set()
    for el in worlds:
        world = read_world(el, state)
        if world is None:
            continue
        if world.name in seen_worlds:
            state.error(Code.DUPLICATE_NAME, f"world with name[{world.name}] already exists; "
                        "each world must have a unique name", el)
            continue
        seen_worlds.add(world.name)
        doc.worlds.append(world)
    if not models and not worlds and not others and not includes:
        state.warning(Code.ELEMENT_MISSING, "the <sdf> element holds no <model> or <world>", root)
    return doc


def read_root_include(el, state: ReadState) -> Model | None:
    """An ``<include>`` directly under ``<sdf>`` stands for the model it includes."""
    holder = Model(name="__root_include__")
    state.read_include(el, holder)
    return holder.models[0] if holder.models else None


def required_name(el, state: ReadState) -> str | None:
    name = el.get("name")
    if name is None:
        state.error(Code.ATTRIBUTE_MISSING,
                    f"required attribute [name] in element <{el.tag}> is not specified", el)
        return None
    return name


def read_bool(el, state: ReadState, default: bool = False) -> bool:
    if el is None:
        return default
    text = (el.text or "").strip().lower()
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    state.error(Code.ELEMENT_INVALID, f"<{el.tag}> value {text!r} is not a boolean", el)
    return default


def read_pose(parent_el, state: ReadState) -> PoseSpec:
    """Read the ``<pose>`` child of ``parent_el`` (identity when absent)."""
    el = child(parent_el, "pose")
    if el is None:
        return PoseSpec(source=state.src(parent_el))
    return read_pose_element(el, state)


def read_pose_element(el, state: ReadState) -> PoseSpec:
    relative_to = el.get("relative_to")
    legacy_frame = el.get("frame")
    if state.version < (1, 7) and legacy_frame is not None and relative_to is None:
        relative_to = legacy_frame
    if relative_to is not None:
        relative_to = relative_to.strip() or None
    text = el.text or ""
    degrees_attr = (el.get("degrees") or "false").strip().lower()
    degrees = degrees_attr in ("true", "1")
    if degrees_attr not in ("true", "1", "false", "0"):
        state.error(Code.ATTRIBUTE_INVALID, f"<pose> attribute degrees={degrees_attr!r} is not "
                    "a boolean", el)
    rotation_format = (el.get("rotation_format") or "euler_rpy").strip()
    spec = PoseSpec(IDENTITY, relative_to, text, degrees, rotation_format, state.src(el),
                    xml=state.consumer.xml(el))
    tokens = text.split()
    if not tokens:
        return spec
    numbers = _floats(tokens)
    if rotation_format == "euler_rpy":
        if numbers is None or len(numbers) != 6:
            state.error(Code.ELEMENT_INVALID, f"<pose> value {text.strip()!r} is not six numbers "
                        "'x y z roll pitch yaw'", el)
            return spec
        rpy = numbers[3:]
        if degrees:
            rpy = [math.radians(a) for a in rpy]
        spec.value = Pose.from_rpy(tuple(numbers[:3]), tuple(rpy))
    elif rotation_format == "quat_xyzw":
        if numbers is None or len(numbers) != 7:
            state.error(Code.ELEMENT_INVALID, f"<pose> value {text.strip()!r} is not seven numbers "
                        "'x y z qx qy qz qw'", el)
            return spec
        if degrees:
            state.error(Code.ELEMENT_INVALID, "<pose degrees='true'> cannot be combined with "
                        "rotation_format='quat_xyzw'", el)
        spec.value = Pose.from_quat_xyzw(tuple(numbers[:3]), tuple(numbers[3:]))
    else:
        state.error(Code.ATTRIBUTE_INVALID, f"<pose> rotation_format={rotation_format!r} is not "
                    "'euler_rpy' or 'quat_xyzw'", el)
    return spec


def _floats(tokens: list[str]) -> list[float] | None:
    """Finite numbers in the XML-schema form (``core.read.numbers``), or None."""
    return parse_doubles(" ".join(tokens))


def read_vector3(el, state: ReadState) -> tuple[float, float, float] | None:
    numbers = _floats((el.text or "").split())
    if numbers is None or len(numbers) != 3:
        state.error(Code.ELEMENT_INVALID, f"<{el.tag}> value {(el.text or '').strip()!r} is not "
                    "three numbers", el)
        return None
    return (numbers[0], numbers[1], numbers[2])


def read_double(el, state: ReadState, default: float, allow_infinite: bool = False) -> float:
    if el is None:
        return default
    if allow_infinite:
        value = parse_double(el.text or "", allow_infinite=True)
        if value is not None:
            return value
    numbers = _floats((el.text or "").split())
    if numbers is None or len(numbers) != 1:
        state.error(Code.ELEMENT_INVALID, f"<{el.tag}> value {(el.text or '').strip()!r} is not "
                    "a number", el)
        return default
    return numbers[0]


def read_model(el, state: ReadState, top_level: bool = False) -> Model | None:
    name = required_name(el, state)
    if name is None:
        return None
    model = Model(name=name, source=state.src(el), xml=el, version=state.version)
    model.pose = read_pose(el, state)
    if top_level and model.pose.relative_to is not None:
        state.error(Code.ATTRIBUTE_INVALID, "the pose of the top-level model "
                    f"[{name}] must not have a relative_to attribute (found "
                    f"relative_to='{model.pose.relative_to}')", child(el, "pose"))
        model.pose.relative_to = None
    canonical = el.get("canonical_link")
    model.canonical_link = canonical.strip() if canonical and canonical.strip() else None
    placement = el.get("placement_frame")
    model.placement_frame = placement.strip() if placement and placement.strip() else None
    model.static = read_bool(child(el, "static"), state)
    state.model_path.append(name)
    try:
        read_model_children(el, model, state)
    finally:
        state.model_path.pop()
    return model


def read_model_children(el, model: Model, state: ReadState) -> None:
    for c in el:
        tag = c.tag
        if tag == "link":
            link = read_link(c, state)
            if link is not None:
                model.links.append(link)
            state.consumer.done(el, c)
        elif tag == "joint":
            joint = read_joint(c, state)
            if joint is not None:
                model.joints.append(joint)
            state.consumer.done(el, c)
        elif tag == "frame":
            frame = read_frame(c, state)
            if frame is not None:
                model.frames.append(frame)
        elif tag == "model":
            nested = read_model(c, state)
            if nested is not None:
                model.models.append(nested)
        elif tag == "include":
            state.read_include(c, model)


def read_link(el, state: ReadState) -> Link | None:
    name = required_name(el, state)
    if name is None:
        return None
    link = Link(name=name, pose=read_pose(el, state), source=state.src(el),
                xml=state.consumer.xml(el))
    inertial_el = child(el, "inertial")
    if inertial_el is not None:
        link.inertial = read_inertial(inertial_el, state)
        check_inertia(link, inertial_el, state)
    check_unique_children(el, ("collision", "visual", "sensor", "light"), state)
    link.visuals = [read_shape(c, state) for c in children(el, "visual")]
    link.collisions = [read_shape(c, state) for c in children(el, "collision")]
    return link


def read_shape(el, state: ReadState) -> Shape:
    """A ``<visual>`` or ``<collision>``: name, pose, geometry and (visual) material."""
    shape = Shape(name=el.get("name"), pose=read_pose(el, state), source=state.src(el),
                  xml=state.consumer.xml(el))
    geometry_el = child(el, "geometry")
    if geometry_el is not None:
        shapes = [c for c in geometry_el if isinstance(c.tag, str)]
        if shapes:
            shape.geometry = read_geometry(shapes[0], state)
    material_el = child(el, "material")
    if material_el is not None:
        shape.material = read_material(material_el, state)
    return shape


def read_geometry(el, state: ReadState) -> Geometry:
    texts = {c.tag: (c.text or "").strip() for c in el if isinstance(c.tag, str)}
    geometry = Geometry(kind=el.tag, texts=texts, source=state.src(el), xml=state.consumer.xml(el))
    if el.tag == "box" and child(el, "size") is not None:
        geometry.size = read_vector3(child(el, "size"), state)
    if child(el, "radius") is not None:
        geometry.radius = read_double(child(el, "radius"), state, 0.0)
    if child(el, "length") is not None:
        geometry.length = read_double(child(el, "length"), state, 0.0)
    if el.tag == "mesh":
        geometry.uri = texts.get("uri")
        if child(el, "scale") is not None:
            geometry.scale = read_vector3(child(el, "scale"), state)
    return geometry


def read_material(el, state: ReadState) -> Material:
    material = Material(name=el.get(qname("name")), source=state.src(el),
                        xml=state.consumer.xml(el))
    for tag in ("diffuse", "ambient"):
        color_el = child(el, tag)
        if color_el is None:
            continue
        numbers = _floats((color_el.text or "").split())
        if numbers is not None and len(numbers) in (3, 4):
            material.color = tuple(numbers) + ((1.0,) if len(numbers) == 3 else ())
            material.color_text = (color_el.text or "").strip()
            break
    texture = child(el, qname("texture"))
    if texture is not None:
        material.texture = texture.get("filename")
    return material


def read_inertial(el, state: ReadState) -> Inertial:
    inertial = Inertial(source=state.src(el))
    inertial.pose = read_pose(el, state)
    inertial.mass = read_double(child(el, "mass"), state, 1.0)
    inertia = child(el, "inertia")
    if inertia is not None:
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            default = 1.0 if key in ("ixx", "iyy", "izz") else 0.0
            setattr(inertial, key, read_double(child(inertia, key), state, default))
    return inertial


def check_inertia(link: Link, el, state: ReadState) -> None:
    """Mass must be non-negative and the inertia tensor valid by libsdformat's rule. An
    inertial urdf2sdf marked ``urdf:inertia="invalid"`` holds a URDF's tensor kept as
    written (URDF allows it, and the conversion warned): a warning, not an error."""
    problem = mass_problem(link.inertial) or inertia_problem(link.inertial)
    if not problem:
        return
    message = f"link [{link.name}] has invalid inertia: {problem}"
    if el.get(qname("inertia")) == "invalid" and not mass_problem(link.inertial):
        state.warning(Code.LINK_INERTIA_INVALID, message + " (kept from a URDF; libsdformat "
                      "refuses it)", el)
    else:
        state.error(Code.LINK_INERTIA_INVALID, message, el)


def check_unique_children(el, tags: tuple[str, ...], state: ReadState) -> None:
    for tag in tags:
        seen: set[str] = set()
        for c in children(el, tag):
            name = c.get("name")
            if name is None:
                continue
            if name in seen:
                state.error(Code.DUPLICATE_NAME, f"{tag} with name[{name}] already exists in "
                            f"<{el.tag} name='{el.get('name')}'>", c)
            seen.add(name)


def read_joint(el, state: ReadState) -> Joint | None:
    name = required_name(el, state)
    if name is None:
        return None
    joint_type = el.get("type")
    if joint_type is None:
        state.error(Code.ATTRIBUTE_MISSING, f"joint [{name}] has no type attribute", el)
        joint_type = ""
    parent = child_text(el, "parent")
    child_name = child_text(el, "child")
    if parent is None:
        state.error(Code.ELEMENT_MISSING, f"joint [{name}] has no <parent>", el)
    if child_name is None:
        state.error(Code.ELEMENT_MISSING, f"joint [{name}] has no <child>", el)
    joint = Joint(name=name, type=joint_type.strip(), parent=parent or "", child=child_name or "",
                  pose=read_pose(el, state), source=state.src(el), xml=state.consumer.xml(el))
    for tag in ("axis", "axis2"):
        axis_el = child(el, tag)
        if axis_el is not None:
            joint.axes.append(read_axis(axis_el, joint, state))
    if not joint.axes and joint.type in SINGLE_AXIS_JOINTS | {"universal", "revolute2"}:
        joint.axes.append(Axis(source=state.src(el)))  # SDF's default axis: 0 0 1
    if joint.axes:
        first = joint.axes[0]
        joint.limit, joint.dynamics, joint.mimic = first.limit, first.dynamics, first.mimic
    return joint


def read_axis(el, joint: Joint, state: ReadState) -> Axis:
    axis = Axis(source=state.src(el), xml=state.consumer.xml(el))
    limit_el = child(el, "limit")
    if limit_el is not None:
        axis.limit = Limit(*(read_double(child(limit_el, key), state, None, allow_infinite=True)
                             for key in ("lower", "upper", "effort", "velocity")),
                           texts={c.tag: (c.text or "").strip() for c in limit_el
                                  if isinstance(c.tag, str)})
    dynamics_el = child(el, "dynamics")
    if dynamics_el is not None:
        axis.dynamics = Dynamics(read_double(child(dynamics_el, "damping"), state, None),
                                 read_double(child(dynamics_el, "friction"), state, None),
                                 texts={c.tag: (c.text or "").strip() for c in dynamics_el
                                        if isinstance(c.tag, str)})
    mimic_el = child(el, "mimic")
    if mimic_el is not None and mimic_el.get("joint"):
        axis.mimic = Mimic(mimic_el.get("joint"),
                           read_double(child(mimic_el, "multiplier"), state, 1.0),
                           read_double(child(mimic_el, "offset"), state, 0.0),
                           texts={c.tag: (c.text or "").strip() for c in mimic_el
                                  if isinstance(c.tag, str)})
    xyz_el = child(el, "xyz")
    if xyz_el is not None:
        axis.xyz_text = xyz_el.text or ""
        vector = read_vector3(xyz_el, state)
        if vector is not None:
            norm = math.sqrt(sum(v * v for v in vector))
            if norm == 0:
                state.error(Code.ELEMENT_INVALID, f"the <xyz> axis of joint [{joint.name}] has "
                            "zero norm", xyz_el)
            else:
                axis.xyz = tuple(v / norm for v in vector)
        expressed_in = xyz_el.get("expressed_in")
        if expressed_in is not None and expressed_in.strip():
            axis.expressed_in = expressed_in.strip()
    if state.version < (1, 5):
        axis.expressed_in = "__model__"
    elif state.version < (1, 7):
        upmf = child(el, "use_parent_model_frame")
        if upmf is not None and read_bool(upmf, state):
            axis.expressed_in = "__model__"
    return axis


def read_frame(el, state: ReadState) -> Frame | None:
    name = required_name(el, state)
    if name is None:
        return None
    attached_to = el.get("attached_to")
    if attached_to is None and el.get("affixed_to") is not None:
        attached_to = el.get("affixed_to")
        state.warning(Code.WARNING, f"frame [{name}] uses affixed_to, the proposal's name for "
                      "attached_to; read as attached_to", el)
    if attached_to is not None:
        attached_to = attached_to.strip() or None
    return Frame(name=name, attached_to=attached_to, pose=read_pose(el, state),
                 source=state.src(el), xml=el)


def read_world(el, state: ReadState) -> World | None:
    name = required_name(el, state)
    if name is None:
        return None
    world = World(name=name, source=state.src(el), xml=el, version=state.version)
    for c in el:
        tag = c.tag
        if tag == "model":
            if state.version < (1, 8):
                unflatten(c)
            model = read_model(c, state)
            if model is not None:
                world.models.append(model)
        elif tag == "frame":
            frame = read_frame(c, state)
            if frame is not None:
                world.frames.append(frame)
        elif tag == "joint":
            joint = read_joint(c, state)
            if joint is not None:
                world.joints.append(joint)
        elif tag == "include":
            state.read_include(c, world)
    return world
