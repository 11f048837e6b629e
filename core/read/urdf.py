"""Read a URDF file into ``core.model`` with URDF's frame conventions.

A URDF joint's ``<origin>`` is its pose relative to the parent link, and the
child link's frame is the joint frame: so a joint becomes a pose ``relative_to``
its parent link and its child link a pose ``relative_to`` the joint. Every
origin keeps its ``xyz``/``rpy`` attribute text so that emitters can copy it.

A root link named ``world`` is URDF's convention for the fixed world: it becomes
no link, and its joints get ``world`` as parent and a pose relative to the model
frame (which coincides with the world frame).

URDF validation (duplicate names, missing links, a link with two parents,
several roots, loops, missing or unreadable attributes, limits with
lower > upper) is reported as diagnostics with file:line.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from lxml import etree

from urdf_sdf.core.context import Context
from urdf_sdf.core.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.inertia import inertia_problem, mass_problem
from urdf_sdf.core.model import (Axis, Document, Dynamics, Frame, Geometry, Inertial, Joint, Limit,
                                 Link, Material, Mimic, Model, PoseSpec, Shape, Source)
from urdf_sdf.core.pose import IDENTITY, Pose
from urdf_sdf.core.read.numbers import parse_double, parse_doubles
from urdf_sdf.core.read.sdf import ReadState
from urdf_sdf.core.read.sdf import read_shape as read_sdf_shape
from urdf_sdf.core.read.version import NEWEST_VERSION
from urdf_sdf.core.read.xmlio import parse_xml

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
ZERO3 = (0.0, 0.0, 0.0)
WORLD = "world"


# The children each URDF element may have; anything else is carried and warned about.
KNOWN_CHILDREN = {
    "robot": {"link", "joint", "material", "transmission", "gazebo", "frame"},
    "link": {"inertial", "visual", "collision"},
    "joint": {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
              "safety_controller"},
}


@dataclass
class UrdfState:
    file: str | None
    diagnostics: Diagnostics
    # (tag, where) -> the unknown elements found there, for one warning each.
    unknown: dict = field(default_factory=dict)

    def src(self, el) -> Source:
        return source_of(el, self.file)

    def error(self, code: Code, message: str, el) -> None:
        self.diagnostics.error_at(code, message, source_of(el, self.file))

    def warning(self, code: Code, message: str, el) -> None:
        self.diagnostics.warning_at(code, message, source_of(el, self.file))


def numbers(el, attribute: str, count: int, state: UrdfState, default: str | None = None,
            required: bool = False) -> list[float] | None:
    """The ``count`` finite numbers of ``el/@attribute``; a diagnostic when unreadable."""
    text = el.get(attribute)
    if text is None:
        if required:
            state.error(Code.ATTRIBUTE_MISSING, f"<{el.tag}> needs the attribute [{attribute}]",
                        el)
        if default is None:
            return None
        text = default
    values = parse_doubles(text) or []
    if len(values) != count:
        state.error(Code.ATTRIBUTE_INVALID, f"<{el.tag} {attribute}='{text}'> is not "
                    f"{count} finite number{'s' if count > 1 else ''}", el)
        return None
    return values


def number(el, attribute: str, state: UrdfState, default: float | None = None,
           required: bool = False) -> float | None:
    text = el.get(attribute)
    if text is None:
        if required:
            state.error(Code.ATTRIBUTE_MISSING, f"<{el.tag}> needs the attribute [{attribute}]",
                        el)
        return default
    value = parse_double(text)
    if value is not None:
        return value
    values = numbers(el, attribute, 1, state)  # reports the problem
    return values[0] if values else default


def read_origin(parent_el, state: UrdfState, relative_to: str | None) -> PoseSpec:
    origin = parent_el.find("origin")
    if origin is None:
        return PoseSpec(IDENTITY, relative_to, "", source=state.src(parent_el))
    return read_xyz_rpy(origin, state, relative_to)


def read_xyz_rpy(origin, state: UrdfState, relative_to: str | None) -> PoseSpec:
    """The pose an element's ``xyz`` and ``rpy`` attributes give (an ``<origin>``, or
    Drake's ``<frame>``), keeping their text."""
    xyz_text, rpy_text = origin.get("xyz"), origin.get("rpy")
    xyz = numbers(origin, "xyz", 3, state) if xyz_text is not None else None
    rpy = numbers(origin, "rpy", 3, state) if rpy_text is not None else None
    xyz, rpy = xyz or ZERO3, rpy or ZERO3
    return PoseSpec(Pose.from_rpy(tuple(xyz), tuple(rpy)), relative_to,
                    f"{xyz_text or '0 0 0'} {rpy_text or '0 0 0'}", source=state.src(origin),
                    xyz_text=xyz_text, rpy_text=rpy_text)


def read_urdf_string(data: bytes, file: str | None, diagnostics: Diagnostics) -> Document | None:
    root = parse_xml(data, file, diagnostics)
    if root is None:
        return None
    state = UrdfState(file, diagnostics)
    if root.tag != "robot":
        state.error(Code.FILE_READ, f"root element is <{root.tag}>, expected <robot>", root)
        return None
    if not check_xacro_expanded(root, state):
        return None
    name = root.get("name")
    if not name:
        state.error(Code.ATTRIBUTE_MISSING, "<robot> needs a name", root)
        name = "robot"
    model = Model(name=name, source=state.src(root), xml=root, version=(1, 11))
    for el in root.findall("material"):
        material = read_material(el, state, {})
        if material.name:
            model.materials[material.name] = material
    links = read_links(root, state, model)
    add_implicit_world(root, state, links)
    joints = read_joints(root, state, links)
    check_tree(root, state, links, joints)
    attach_frames(model, links, joints)
    model.frames = read_drake_frames(root, state, links)
    model.carried = carried_children(root, "robot", state, "the robot")
    report_carried(state)
    model.transmissions = root.findall("transmission")
    model.gazebo = root.findall("gazebo")
    read_gazebo_shapes(model.gazebo, links, state)
    return Document(version="1.11", model=model, file=file, format="urdf")


XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")


def check_xacro_expanded(root, state: UrdfState) -> bool:
    """A URDF still holding xacro markup (``xacro:`` elements, ``${...}`` or ``$(...)`` in
    an attribute) is an xacro file: reading it as URDF would silently lose what the
    macros make (wheels, sensors), so it is an error that says to run xacro."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if etree.QName(el).namespace in XACRO_NAMESPACES:
            what = f"the xacro element <xacro:{etree.QName(el).localname}>"
        else:
            found = next(((k, v) for k, v in el.attrib.items() if "${" in v or "$(" in v), None)
            if found is None:
                continue
            what = f"the xacro expression {found[0]}=\"{found[1]}\""
        state.error(Code.XACRO_NOT_EXPANDED, f"{what} is not expanded: this is a xacro "
                    "file; expand it first (xacro robot.urdf.xacro > robot.urdf, or give the "
                    "file a .xacro name and urdf2sdf expands it)", el)
        return False
    return True


def read_links(root, state: UrdfState, model: Model) -> dict[str, Link]:
    links: dict[str, Link] = {}
    for el in root.findall("link"):
        name = el.get("name")
        if not name:
            state.error(Code.ATTRIBUTE_MISSING, "<link> needs a name", el)
            continue
        if name in links:
            state.error(Code.DUPLICATE_NAME, f"link with name[{name}] already exists", el)
            continue
        link = Link(name=name, source=state.src(el), xml=el)
        inertial_el = el.find("inertial")
        if inertial_el is not None:
            link.inertial = read_inertial(inertial_el, state)
            check_inertia(name, link.inertial, inertial_el, state)
        link.carried = carried_children(el, "link", state, f"link [{name}]")
        link.visuals = [read_shape(v, state, model) for v in el.findall("visual")]
        link.collisions = [read_shape(c, state, model) for c in el.findall("collision")]
        links[name] = link
    return links


def check_inertia(name: str, inertial: Inertial, el, state: UrdfState) -> None:
    """A negative mass is an error. An inertia tensor that breaks libsdformat's rule is
    not (the URDF format has no such rule, and Drake and urdfdom read it): a warning says
    what libsdformat will make of the converted SDF."""
    problem = mass_problem(inertial)
    if problem:
        state.error(Code.LINK_INERTIA_INVALID, f"link [{name}] has invalid inertia: {problem}",
                    el)
        return
    problem = inertia_problem(inertial)
    if problem:
        state.warning(Code.LINK_INERTIA_INVALID, f"link [{name}] has an inertia that "
                      f"libsdformat refuses in SDFormat ({problem}); it is kept as written "
                      "(urdf2sdf --fix-inertia repairs it)", el)


def add_implicit_world(root, state: UrdfState, links: dict[str, Link]) -> None:
    """A joint whose parent is ``world`` with no ``<link name="world">`` declared: Drake
    reads that as the world (urdfdom wants the link declared); so do we, with a warning."""
    if WORLD in links:
        return
    for el in root.findall("joint"):
        parent = el.find("parent")
        if parent is not None and parent.get("link") == WORLD:
            state.warning(Code.WARNING, f"joint [{el.get('name')}] has the parent link [world], "
                          "which the robot does not declare: read as the world, as Drake does "
                          "(urdfdom needs <link name=\"world\"/>)", parent)
            links[WORLD] = Link(name=WORLD, source=state.src(parent))
            return


def carried_children(el, kind: str, state: UrdfState, where: str) -> list:
    """The children of ``el`` URDF does not define for a ``kind`` element (a typo like
    ``<orign>``, pybullet's ``<contact>``, a ``drake:`` element, the ``<sensor>``
    extension): recorded for one warning per tag and place, and returned, to be carried."""
    carried = [c for c in el if isinstance(c.tag, str) and c.tag not in KNOWN_CHILDREN[kind]]
    for child in carried:
        state.unknown.setdefault((child.tag, kind), []).append((child, where))
    return carried


def report_carried(state: UrdfState) -> None:
    for (tag, kind), found in state.unknown.items():
        places = sorted({where for _, where in found})
        shown = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
        state.warning(Code.WARNING, f"<{tag}> is not a URDF element of <{kind}> (in {shown}); "
                      "carried into the SDF as urdf: content, which sdf2urdf gives back",
                      found[0][0])


def read_drake_frames(root, state: UrdfState, links: dict[str, Link]) -> list[Frame]:
    """Drake's URDF extension ``<frame name link xyz rpy/>``: a frame fixed in a link, which
    becomes an SDF ``//frame`` (marked ``drake_frame`` for sdf2urdf)."""
    frames = []
    for el in root.findall("frame"):
        name, link = el.get("name"), el.get("link")
        if not name or link not in links:
            state.error(Code.FRAME_ATTACHED_TO_INVALID, f"<frame name='{name}'> needs a name "
                        f"and the link it is fixed in (link [{link}] is not a link)", el)
            continue
        frames.append(Frame(name=name, attached_to=link, pose=read_xyz_rpy(el, state, link),
                            source=state.src(el), xml=el))
    return frames


def read_inertial(el, state: UrdfState) -> Inertial:
    inertial = Inertial(source=state.src(el), pose=read_origin(el, state, None))
    mass = el.find("mass")
    if mass is None:
        state.error(Code.ELEMENT_MISSING, "<inertial> needs a <mass>", el)
    else:
        inertial.mass = number(mass, "value", state, 0.0, required=True)
        if mass.get("value") is not None:
            inertial.texts["mass"] = mass.get("value")
    inertia = el.find("inertia")
    if inertia is None:
        state.error(Code.ELEMENT_MISSING, "<inertial> needs an <inertia>", el)
    else:
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
            setattr(inertial, key, number(inertia, key, state, 0.0, required=True))
            if inertia.get(key) is not None:
                inertial.texts[key] = inertia.get(key)
    return inertial


def read_shape(el, state: UrdfState, model: Model) -> Shape:
    shape = Shape(name=el.get("name"), pose=read_origin(el, state, None), source=state.src(el),
                  xml=el)
    geometry = el.find("geometry")
    if geometry is None:
        state.error(Code.ELEMENT_MISSING, f"<{el.tag}> needs a <geometry>", el)
    else:
        shape.geometry = read_geometry(geometry, state)
    material = el.find("material")
    if material is not None:
        shape.material = read_material(material, state, model.materials)
    return shape


def read_geometry(el, state: UrdfState) -> Geometry | None:
    shapes = [c for c in el if isinstance(c.tag, str)]
    if not shapes:
        state.error(Code.ELEMENT_INVALID, "<geometry> needs exactly one shape", el)
        return None
    shape = shapes[0]
    if len(shapes) > 1:  # urdfdom and Drake read the first child too
        state.warning(Code.ELEMENT_INVALID, f"<geometry> holds <{shape.tag}> and also "
                      f"{', '.join(f'<{c.tag}>' for c in shapes[1:])}; only the first is read "
                      "(as urdfdom and Drake do)", shapes[1])
    geometry = Geometry(kind=shape.tag, source=state.src(shape), xml=shape,
                        texts={k: v for k, v in shape.attrib.items()})
    if shape.tag == "box":
        size = numbers(shape, "size", 3, state, required=True)
        geometry.size = tuple(size) if size else None
    elif shape.tag == "cylinder":
        geometry.radius = number(shape, "radius", state, required=True)
        geometry.length = number(shape, "length", state, required=True)
    elif shape.tag == "sphere":
        geometry.radius = number(shape, "radius", state, required=True)
    elif shape.tag == "mesh":
        geometry.uri = shape.get("filename")
        if not geometry.uri:
            state.error(Code.ATTRIBUTE_MISSING, "<mesh> needs a filename", shape)
        read_mesh_scale(shape, geometry, state)
    else:
        state.warning(Code.ELEMENT_INVALID, f"<geometry> shape <{shape.tag}> is not URDF", shape)
    return geometry


def read_mesh_scale(shape, geometry: Geometry, state: UrdfState) -> None:
    """``<mesh scale="x y z">``; more than three numbers (pybullet's racecar writes
    ``1 1 1 1``) are read as the first three with a warning, as urdfdom reads them."""
    tokens = (shape.get("scale") or "").split()
    if len(tokens) > 3:
        state.warning(Code.ATTRIBUTE_INVALID, f"<mesh scale='{shape.get('scale')}'> has "
                      f"{len(tokens)} values; the first three are the scale", shape)
        geometry.texts["scale"] = " ".join(tokens[:3])
        values = parse_doubles(geometry.texts["scale"])
        if values is not None:
            geometry.scale = tuple(values)
            return
    scale = numbers(shape, "scale", 3, state)
    geometry.scale = tuple(scale) if scale else None


def read_material(el, state: UrdfState, defined: dict[str, Material]) -> Material:
    material = Material(name=el.get("name"), source=state.src(el), xml=el)
    color = el.find("color")
    if color is not None:
        rgba = numbers(color, "rgba", 4, state, required=True)
        if rgba is not None:
            material.color = tuple(rgba)
            material.color_text = color.get("rgba")
    texture = el.find("texture")
    if texture is not None:
        material.texture = texture.get("filename")
    if color is None and texture is None and material.name:
        known = defined.get(material.name)
        if known is None:
            state.warning(Code.URDF_MATERIAL_UNDEFINED, f"material [{material.name}] is not "
                          "defined at robot level", el)
        else:
            material.color, material.color_text = known.color, known.color_text
            material.texture = known.texture
    return material


def read_joints(root, state: UrdfState, links: dict[str, Link]) -> dict[str, Joint]:
    joints: dict[str, Joint] = {}
    for el in root.findall("joint"):
        joint = read_joint(el, state, links)
        if joint is None:
            continue
        if joint.name in joints:
            state.error(Code.DUPLICATE_NAME, f"joint with name[{joint.name}] already exists", el)
            continue
        joints[joint.name] = joint
    return rename_joints_named_like_links(joints, links, state)


def rename_joints_named_like_links(joints: dict[str, Joint], links: dict[str, Link],
                                   state: UrdfState) -> dict[str, Joint]:
    """URDF keeps links and joints in separate namespaces; frames share one. A joint named
    like a link is renamed ``NAME_joint`` (its URDF name kept in ``urdf_name``, so the
    converters can give it back), and mimic references follow."""
    renamed: dict[str, str] = {}
    taken = set(links) | set(joints)
    for name, joint in joints.items():
        if name not in links:
            continue
        new, i = f"{name}_joint", 0
        while new in taken:
            new, i = f"{name}_joint{i}", i + 1
        taken.add(new)
        joint.urdf_name, joint.name = name, new
        renamed[name] = new
        state.diagnostics.warning_at(Code.NAME_RENAMED, f"joint [{name}] has the name of a "
                                     f"link; its frame is called [{new}] (the URDF name is kept "
                                     "for conversions back to URDF)", joint.source)
    if not renamed:
        return joints
    for joint in joints.values():
        if joint.mimic is not None and joint.mimic.joint in renamed:
            joint.mimic.joint = renamed[joint.mimic.joint]
    return {joint.name: joint for joint in joints.values()}


def read_joint(el, state: UrdfState, links: dict[str, Link]) -> Joint | None:
    name = el.get("name")
    if not name:
        state.error(Code.ATTRIBUTE_MISSING, "<joint> needs a name", el)
        return None
    joint_type = el.get("type")
    if joint_type not in JOINT_TYPES:
        state.error(Code.ATTRIBUTE_INVALID if joint_type else Code.ATTRIBUTE_MISSING,
                    f"joint [{name}] has type [{joint_type}], not one of {', '.join(JOINT_TYPES)}",
                    el)
        return None
    ends = {}
    for role, code in (("parent", Code.JOINT_PARENT_LINK_INVALID),
                       ("child", Code.JOINT_CHILD_LINK_INVALID)):
        end = el.find(role)
        link_name = end.get("link") if end is not None else None
        if not link_name:
            state.error(Code.ELEMENT_MISSING, f"joint [{name}] needs <{role} link='...'/>", el)
            return None
        if link_name not in links:
            state.error(code, f"{role} link [{link_name}] of joint [{name}] is not a link of the "
                        "robot", end)
            return None
        ends[role] = link_name
    joint = Joint(name=name, type=joint_type, parent=ends["parent"], child=ends["child"],
                  pose=read_origin(el, state, ends["parent"]), source=state.src(el), xml=el)
    axis_el = el.find("axis")
    if joint_type not in ("fixed", "floating"):
        xyz = numbers(axis_el, "xyz", 3, state, "1 0 0") if axis_el is not None else [1.0, 0, 0]
        xyz = xyz or [1.0, 0.0, 0.0]
        norm = math.sqrt(sum(v * v for v in xyz))
        if norm == 0:
            state.error(Code.ATTRIBUTE_INVALID, f"the axis of joint [{name}] has zero length",
                        axis_el)
            norm = 1.0
        joint.axes.append(Axis(tuple(v / norm for v in xyz), None,
                               axis_el.get("xyz") if axis_el is not None else None,
                               state.src(axis_el if axis_el is not None else el), axis_el))
    joint.limit = read_limit(el, joint, state)
    dynamics = el.find("dynamics")
    if dynamics is not None:
        joint.dynamics = Dynamics(number(dynamics, "damping", state, 0.0),
                                  number(dynamics, "friction", state, 0.0),
                                  dict(dynamics.attrib))
    mimic = el.find("mimic")
    if mimic is not None:
        if not mimic.get("joint"):
            state.error(Code.ATTRIBUTE_MISSING, f"<mimic> of joint [{name}] needs a joint", mimic)
        else:
            joint.mimic = Mimic(mimic.get("joint"), number(mimic, "multiplier", state, 1.0),
                                number(mimic, "offset", state, 0.0), dict(mimic.attrib))
    for tag, attributes in (("calibration", ("rising", "falling", "reference_position")),
                            ("safety_controller", ("soft_lower_limit", "soft_upper_limit",
                                                   "k_position", "k_velocity"))):
        extra = el.find(tag)
        if extra is not None:
            for attribute in attributes:
                number(extra, attribute, state)
            if tag == "safety_controller":
                number(extra, "k_velocity", state, required=True)
            joint.extras[tag] = extra
    joint.carried = carried_children(el, "joint", state, f"joint [{name}]")
    return joint


def read_limit(el, joint: Joint, state: UrdfState) -> Limit | None:
    limit_el = el.find("limit")
    if limit_el is None:
        if joint.type in ("revolute", "prismatic"):
            state.error(Code.ELEMENT_MISSING, f"{joint.type} joint [{joint.name}] needs a <limit>",
                        el)
        return None
    needs_all = joint.type in ("revolute", "prismatic")
    limit = Limit(number(limit_el, "lower", state, 0.0), number(limit_el, "upper", state, 0.0),
                  number(limit_el, "effort", state, None, required=needs_all),
                  number(limit_el, "velocity", state, None, required=needs_all),
                  dict(limit_el.attrib))
    if limit.lower is not None and limit.upper is not None and limit.lower > limit.upper \
            and needs_all:
        # urdfdom reads it, pybullet means "no limit", libsdformat swaps the two, Drake
        # refuses the joint: the readers disagree, so the numbers are kept as written.
        state.warning(Code.URDF_LIMIT_INVALID, f"joint [{joint.name}] has lower limit "
                      f"{limit.lower} above its upper limit {limit.upper}; kept as written "
                      "(pybullet reads it as no limit, libsdformat swaps the two, Drake "
                      "refuses the joint)", limit_el)
    return limit


def check_tree(root, state: UrdfState, links: dict[str, Link], joints: dict[str, Joint]) -> None:
    """Each link is the child of at most one joint, one root, no loops."""
    parent_joint: dict[str, Joint] = {}
    for joint in joints.values():
        if joint.child in parent_joint:
            first = parent_joint[joint.child]
            state.diagnostics.error_at(Code.URDF_MULTIPLE_PARENTS, f"link [{joint.child}] is the "
                                       f"child of joints [{first.name}] and [{joint.name}]; a "
                                       "URDF is a tree", joint.source)
            continue
        parent_joint[joint.child] = joint
    roots = [name for name in links if name not in parent_joint]
    if len(roots) > 1:
        state.error(Code.URDF_MULTIPLE_ROOTS, f"the robot has several root links "
                    f"({', '.join(roots)}); a URDF has exactly one", root)
    elif not roots and links:
        state.error(Code.URDF_NO_ROOT, "every link is the child of a joint: the joints form a "
                    "loop and there is no root link", root)
    if not links:
        state.error(Code.ELEMENT_MISSING, "the robot has no link", root)
    children: dict[str, list[str]] = {}
    for joint in parent_joint.values():
        children.setdefault(joint.parent, []).append(joint.child)
    reached: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in reached:
            continue
        reached.add(name)
        stack.extend(children.get(name, []))
    reported: set[str] = set()
    for name in links:
        if name in reached or name in reported:
            continue
        # Walk up the parents until a link repeats: its parent joint closes the loop.
        seen: list[str] = []
        current = name
        while current in parent_joint and current not in seen:
            seen.append(current)
            current = parent_joint[current].parent
        reported.update(seen)
        if current in seen:
            closing = parent_joint[current]
            loop = seen[seen.index(current):]
            state.diagnostics.error_at(Code.URDF_KINEMATIC_LOOP, f"joint [{closing.name}] closes "
                                       f"a kinematic loop through links [{', '.join(loop)}]",
                                       closing.source)


def attach_frames(model: Model, links: dict[str, Link], joints: dict[str, Joint]) -> None:
    """URDF frames as SDF relations: joint relative to parent link, child link at joint."""
    world_is_root = WORLD in links and not any(j.child == WORLD for j in joints.values())
    for joint in joints.values():
        links[joint.child].pose = PoseSpec(IDENTITY, joint.name, "",
                                           source=links[joint.child].source)
        if world_is_root and joint.parent == WORLD:
            joint.pose.relative_to = "__model__"
    model.links = [link for name, link in links.items() if not (world_is_root and name == WORLD)]
    model.joints = list(joints.values())


def read_gazebo_shapes(blocks, links: dict[str, Link], state: UrdfState) -> None:
    """Visuals and collisions in ``<gazebo reference="LINK">`` blocks (SDF syntax) are
    part of that link for Gazebo: read them as the link's, marked ``from_gazebo``."""
    sdf_state = ReadState(state.file, NEWEST_VERSION, state.diagnostics, Context())
    for block in blocks:
        link = links.get(block.get("reference") or "")
        if link is None:
            continue
        for el in block:
            # Only complete shapes: a block without <geometry> extends existing shapes.
            if el.tag in ("visual", "collision") and el.find("geometry") is not None:
                shape = read_sdf_shape(el, sdf_state)
                shape.from_gazebo = True
                (link.visuals if el.tag == "visual" else link.collisions).append(shape)
