"""Read a URDF file into ``core.base.model`` with URDF's frame conventions.

A URDF joint's ``<origin>`` is its pose relative to the parent link, and the
child link's frame is the joint frame: so a joint becomes a pose ``relative_to``
its parent link and its child link a pose ``relative_to`` the joint. Every
origin keeps its ``xyz``/``rpy`` attribute text so that emitters can copy it.

A root link named ``world`` is URDF's convention for the fixed world: it becomes
no link, and its joints get ``world`` as parent and a pose relative to the model
frame (which coincides with the world frame).

A name with a namespace prefix the file never declares (Drake's
``<drake:collision_filter_group>``, read leniently as every URDF reader does) gets the
prefix declared (``core.read.prefixes``), with a warning.

URDF validation (duplicate names, missing links, a link with two parents,
several roots, loops, missing or unreadable attributes, limits with
lower > upper) is reported as diagnostics with file:line.
"""
from __future__ import annotations

import math

from lxml import etree

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import (
    MODEL_FRAME,
    WORLD,
    Axis,
    Document,
    Dynamics,
    Frame,
    Joint,
    Link,
    Mimic,
    Model,
    PoseSpec,
)
from urdf_sdf.core.base.pose import IDENTITY
from urdf_sdf.core.read.consume import Consumer
from urdf_sdf.core.read.prefixes import (
    declare_undeclared_prefixes,
    ignore_default_namespace,
    prefixed_name,
    tag_of,
)
from urdf_sdf.core.read.sdf_elements import check_content_poses
from urdf_sdf.core.read.sdf_elements import read_shape as read_sdf_shape
from urdf_sdf.core.read.sdf_state import ReadState
from urdf_sdf.core.read.urdf_attributes import (
    CARRIED,
    CARRIED_PARTS,
    WORLD_FATE,
    name_robot_part_attributes,
    unknown_attributes,
    unknown_part_attributes,
)
from urdf_sdf.core.read.urdf_elements import (
    UrdfState,
    attribute_number,
    carry,
    check_inertia,
    interned_attributes,
    number,
    read_inertial,
    read_limit,
    read_material,
    read_origin,
    read_shape,
    read_xyz_rpy,
    text_numbers,
)
from urdf_sdf.core.read.urdf_transmissions import check_transmissions
from urdf_sdf.core.read.urdf_world import add_implicit_world, world_link_content
from urdf_sdf.core.read.version import NEWEST_VERSION, version_text
from urdf_sdf.core.read.xmlio import detect_encoding, parse_xml

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")


# The children each URDF element may have; anything else is carried and warned about.
KNOWN_CHILDREN = {
    "robot": {"link", "joint", "material", "transmission", "gazebo", "frame"},
    "link": {"inertial", "visual", "collision"},
    "joint": {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
              "safety_controller"},
}
JOINT_PARTS = ("origin", "parent", "child", "axis", "limit", "dynamics", "mimic",
               "calibration", "safety_controller")
# The numbers of a joint's <calibration> and <safety_controller> (checked, kept as XML).
JOINT_EXTRAS = (("calibration", ("rising", "falling", "reference_position")),
                ("safety_controller", ("soft_lower_limit", "soft_upper_limit", "k_position")))


def read_urdf_string(data: bytes, file: str | None, diagnostics: Diagnostics) -> Document | None:
    root = parse_xml(data, file, diagnostics)
    return read_urdf_root(root, file, diagnostics) if root is not None else None


def read_urdf_root(root, file: str | None, diagnostics: Diagnostics,
                   keep_xml: bool = True, xacro_free: bool = False) -> Document | None:
    """The document of a parsed URDF (``root``: its root element); without ``keep_xml``,
    the links and joints keep no XML and their elements are freed once read
    (``Context.keep_xml``). ``xacro_free``: the file's bytes hold no xacro markup
    (:func:`bytes_free_of_xacro`), so the tree is not searched for it."""
    state = UrdfState(file, diagnostics, consumer=Consumer(keep_xml))
    ignore_default_namespace(root, file, diagnostics)
    if root.tag != "robot":
        state.error(Code.FILE_READ, f"root element is <{tag_of(root)}>, expected <robot>", root)
        return None
    if not xacro_free and not check_xacro_expanded(root, state):
        return None
    if was_recovered(diagnostics):  # only a lenient parse keeps an undeclared prefix
        declare_undeclared_prefixes(root, file, diagnostics)
    name = root.get("name")
    if not name:
        state.error(Code.ATTRIBUTE_MISSING, name_missing("robot", name), root)
        name = "robot"
    model = Model(name=name, source=state.src(root), xml=root, version=NEWEST_VERSION)
    model.attributes = unknown_attributes(root, "robot", state, "the robot")
    parts = robot_children(root, state)
    name_robot_part_attributes(parts, state)
    for el in parts["material"]:
        material = read_material(el, state, {})
        if material.name:
            model.materials[material.name] = material
    links = read_links(root, parts["link"], state, model)
    add_implicit_world(root, parts["joint"], state, links)
    joints = read_joints(root, parts["joint"], state, links)
    check_tree(root, state, links, joints)
    world_link_content(links, joints, state)
    attach_frames(model, links, joints)
    model.frames = read_drake_frames(parts["frame"], state, links)
    model.carried = carry(parts["carried"], "robot", state, "the robot")
    report_carried(state)
    model.transmissions = parts["transmission"]
    check_transmissions(model.transmissions, joints, state)
    model.gazebo = parts["gazebo"]
    read_gazebo_shapes(model.gazebo, links, state)
    return Document(version=version_text(model.version), model=model, file=file, format="urdf")


def was_recovered(diagnostics: Diagnostics) -> bool:
    """Whether the file was parsed in recovery mode (``core.read.xmlio``): then a name may
    keep a prefix no declaration gave (``drake:collision_filter_group``), which the tree
    gets declared (``core.read.prefixes``) before anything copies it."""
    return any(d.code is Code.XML_RECOVERED for d in diagnostics)


def name_missing(tag: str, name: str | None) -> str:
    """Why ``<tag name=name>`` has no name: none given, or an empty one."""
    return f"<{tag}> needs a name" if name is None else f"<{tag}> has an empty name (name=\"\")"


def robot_children(root, state: UrdfState) -> dict[str, list]:
    """The robot's children by tag, in document order (one pass), and under ``carried``
    the ones URDF does not define."""
    parts: dict[str, list] = {tag: [] for tag in KNOWN_CHILDREN["robot"]}
    carried = []
    for child in root:
        found = parts.get(child.tag)
        if found is not None:
            found.append(child)
        elif isinstance(child.tag, str):
            carried.append(child)
    parts["carried"] = carried
    return parts


XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")
XACRO_ELEMENTS = tuple(f"{{{namespace}}}*" for namespace in XACRO_NAMESPACES)
_DOLLAR_ATTRIBUTE = etree.XPath("boolean(//@*[contains(., '$')])")


def bytes_free_of_xacro(data: bytes) -> bool:
    """Whether a file's bytes alone show it holds no xacro markup: in UTF-8 (or ASCII), no
    ``xacro`` (so no xacro namespace), no ``$`` and no character reference that could make
    one. The common case, found at memory-search speed; otherwise the tree is searched
    (:func:`check_xacro_expanded`: its XPath over every attribute is a tenth of a large
    robot's reading time)."""
    if detect_encoding(data).lower().replace("_", "-") not in ("utf-8", "utf8", "utf-8-sig",
                                                               "ascii", "us-ascii"):
        return False
    return b"$" not in data and b"xacro" not in data and b"&#" not in data


def check_xacro_expanded(root, state: UrdfState) -> bool:
    """A URDF still holding xacro markup (``xacro:`` elements, ``${...}`` or ``$(...)`` in
    an attribute) is an xacro file: reading it as URDF would silently lose what the
    macros make (wheels, sensors), so it is an error that says to run xacro."""
    if next(root.iter(*XACRO_ELEMENTS), None) is None and not _DOLLAR_ATTRIBUTE(root):
        return True  # the common case, found without a Python loop over the elements
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
                    "file a .xacro name and pass --xacro)", el)
        return False
    return True


def read_links(root, elements: list, state: UrdfState, model: Model) -> dict[str, Link]:
    links: dict[str, Link] = {}
    keep_xml = state.consumer.keep_xml
    for i, el in enumerate(elements):
        elements[i] = None  # no reference may keep a consumed element alive
        name = el.get("name")
        if not name:
            state.error(Code.ATTRIBUTE_MISSING, name_missing("link", name), el)
        elif name in links:
            state.error(Code.DUPLICATE_NAME, f"link with name[{name}] already exists", el)
        else:
            link = links[name] = read_link(el, name, state, model)
            if keep_xml or needs_its_xml(link):
                continue
            forget_link_xml(link)
        state.consumer.done(root, el)
    return links


def read_link(el, name: str, state: UrdfState, model: Model) -> Link:
    """A link's parts from one pass over its children: the first ``<inertial>``, every
    visual and collision, and what URDF does not define (carried)."""
    link = Link(name=name, source=state.src(el), xml=el)
    own, parts = (WORLD_FATE, WORLD_FATE) if name == WORLD else (CARRIED, CARRIED_PARTS)
    link.attributes = unknown_attributes(el, "link", state, f"link [{name}]", own)
    link.part_attributes = unknown_part_attributes(el, "link", state, f"link [{name}]", parts)
    inertial_el, visuals, collisions, carried = None, [], [], []
    for child in el:
        tag = child.tag
        if tag == "visual":
            visuals.append(child)
        elif tag == "collision":
            collisions.append(child)
        elif tag == "inertial":
            inertial_el = child if inertial_el is None else inertial_el
        elif isinstance(tag, str):
            carried.append(child)
    if inertial_el is not None:
        link.inertial = read_inertial(inertial_el, state)
        if name != WORLD:  # the world's is dropped (world_link_content), never checked
            check_inertia(name, link.inertial, inertial_el, state)
    if carried:
        link.carried = carry(carried, "link", state, f"link [{name}]")
    materials = model.materials
    if visuals:
        link.visuals = [read_shape(v, state, materials, name) for v in visuals]
    if collisions:
        link.collisions = [read_shape(c, state, materials, name) for c in collisions]
    return link


# What urdf2sdf copies from a URDF as XML (core.base.custom.namespaced_copy): these keep
# their element when the XML is not kept (``Context.keep_xml``); the model holds the rest.
GEOMETRY_KINDS = ("box", "cylinder", "sphere", "mesh")
FREE_JOINT_TYPES = ("floating", "planar")


def needs_its_xml(link: Link) -> bool:
    """A link whose element holds what its model does not: carried elements (its own or
    its shapes'), a geometry URDF does not define, a zero-mass inertial (a massless link
    may become a frame, which carries it)."""
    return bool(link.carried) or (link.inertial is not None and link.inertial.mass == 0) \
        or has_other_geometry(link.visuals) or has_other_geometry(link.collisions) \
        or any(shape.carried for shape in (*link.visuals, *link.collisions))


def has_other_geometry(shapes: list) -> bool:
    """Whether a shape has a geometry URDF does not define."""
    for shape in shapes:
        if shape.geometry is not None and shape.geometry.kind not in GEOMETRY_KINDS:
            return True
    return False


def joint_needs_its_xml(joint: Joint, has_mimic: bool) -> bool:
    """A joint copied whole (floating, planar) or in part (mimic, calibration,
    safety_controller, carried elements; ``has_mimic``: its element has a ``<mimic>``)."""
    return joint.type in FREE_JOINT_TYPES or bool(joint.carried) or bool(joint.extras) \
        or has_mimic


def forget_link_xml(link: Link) -> None:
    for shapes in (link.visuals, link.collisions):
        for shape in shapes:
            shape.xml = None
            if shape.geometry is not None:
                shape.geometry.xml = None
            if shape.material is not None:
                shape.material.xml = None
    link.xml = None


def report_carried(state: UrdfState) -> None:
    for (tag, kind), found in state.unknown.items():
        places = sorted({where for _, where in found})
        shown = ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")
        first = found[0][0]
        state.warning(Code.URDF_ELEMENT_UNKNOWN,
                      f"<{prefixed_name(tag, first)}> is not a URDF element of <{kind}> "
                      f"(in {shown}); carried into the SDF as urdf: content, which sdf2urdf "
                      "gives back", first)


def read_drake_frames(elements: list, state: UrdfState, links: dict[str, Link]) -> list[Frame]:
    """Drake's URDF extension ``<frame name link xyz rpy/>``: a frame fixed in a link, which
    becomes an SDF ``//frame`` (marked ``drake_frame`` for sdf2urdf)."""
    frames = []
    for el in elements:
        name, link = el.get("name"), el.get("link")
        if not name or link not in links:
            state.error(Code.FRAME_ATTACHED_TO_INVALID, f"<frame name='{name}'> needs a name "
                        f"and the link it is fixed in (link [{link}] is not a link)", el)
            continue
        frames.append(Frame(name=name, attached_to=link, pose=read_xyz_rpy(el, state, link),
                            source=state.src(el), xml=el,
                            attributes=unknown_attributes(el, "frame", state,
                                                          f"frame [{name}]")))
    return frames


def read_joints(root, elements: list, state: UrdfState,
                links: dict[str, Link]) -> dict[str, Joint]:
    joints: dict[str, Joint] = {}
    keep_xml = state.consumer.keep_xml
    for i, el in enumerate(elements):
        elements[i] = None  # no reference may keep a consumed element alive
        parts, carried = joint_children(el)
        joint = read_joint(el, parts, carried, state, links)
        if joint is not None and joint.name in joints:
            state.error(Code.DUPLICATE_NAME, f"joint with name[{joint.name}] already exists", el)
        elif joint is not None:
            joints[joint.name] = joint
            if keep_xml or joint_needs_its_xml(joint, "mimic" in parts):
                continue
            joint.xml = None
            for axis in joint.axes:
                axis.xml = None
        state.consumer.done(root, el)
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


def read_joint(el, parts: dict, carried: list, state: UrdfState,
               links: dict[str, Link]) -> Joint | None:
    """The joint ``el`` (``parts``, ``carried``: its children, :func:`joint_children`)."""
    name = el.get("name")
    if not name:
        state.error(Code.ATTRIBUTE_MISSING, name_missing("joint", name), el)
        return None
    joint_type = el.get("type")
    if joint_type not in JOINT_TYPES:
        state.error(Code.ATTRIBUTE_INVALID if joint_type else Code.ATTRIBUTE_MISSING,
                    f"joint [{name}] has type [{joint_type}], not one of {', '.join(JOINT_TYPES)}",
                    el)
        return None
    parent = joint_end(parts, "parent", Code.JOINT_PARENT_LINK_INVALID, name, el, state, links)
    if parent is None:
        return None
    child = joint_end(parts, "child", Code.JOINT_CHILD_LINK_INVALID, name, el, state, links)
    if child is None:
        return None
    joint = Joint(name=name, type=joint_type, parent=parent, child=child,
                  pose=read_origin(parts.get("origin"), el, state, parent),
                  source=state.src(el), xml=el)
    joint.attributes = unknown_attributes(el, "joint", state, f"joint [{name}]")
    joint.part_attributes = unknown_part_attributes(el, "joint", state, f"joint [{name}]")
    if joint_type != "fixed" and joint_type != "floating":
        joint.axes.append(read_axis(parts.get("axis"), name, el, state))
    joint.limit = read_limit(parts.get("limit"), joint, el, state)
    dynamics = parts.get("dynamics")
    if dynamics is not None:
        texts = interned_attributes(dynamics)
        joint.dynamics = Dynamics(
            attribute_number(texts.get("damping"), dynamics, "damping", state, 0.0),
            attribute_number(texts.get("friction"), dynamics, "friction", state, 0.0), texts)
    mimic = parts.get("mimic")
    if mimic is not None and joint_type == "fixed":
        state.warning(Code.URDF_MIMIC_ON_FIXED_JOINT, f"fixed joint [{name}] has a <mimic>, "
                      "which means nothing for a joint that does not move (Drake refuses "
                      "it): ignored, and urdf2sdf drops it", mimic)
    elif mimic is not None:
        read_mimic(mimic, joint, state)
    if "calibration" in parts or "safety_controller" in parts:
        read_joint_extras(parts, joint, state)
    joint.carried = carry(carried, "joint", state, f"joint [{name}]") if carried else carried
    return joint


def read_mimic(mimic, joint: Joint, state: UrdfState) -> None:
    """``<mimic joint multiplier offset>`` (its attributes taken once)."""
    texts = interned_attributes(mimic)
    if not texts.get("joint"):
        state.error(Code.ATTRIBUTE_MISSING, f"<mimic> of joint [{joint.name}] needs a joint",
                    mimic)
        return
    joint.mimic = Mimic(texts["joint"],
                        attribute_number(texts.get("multiplier"), mimic, "multiplier", state, 1.0),
                        attribute_number(texts.get("offset"), mimic, "offset", state, 0.0), texts)


def read_joint_extras(parts: dict, joint: Joint, state: UrdfState) -> None:
    """``<calibration>`` and ``<safety_controller>``: their numbers checked, their XML
    kept."""
    for tag, attributes in JOINT_EXTRAS:
        extra = parts.get(tag)
        if extra is not None:
            for attribute in attributes:
                number(extra, attribute, state)
            if tag == "safety_controller":
                number(extra, "k_velocity", state, required=True)
            joint.extras[tag] = extra


def joint_children(el) -> tuple[dict, list]:
    """The first child of each tag a joint may have, and the children URDF does not
    define (one pass)."""
    parts: dict = {}
    carried = []
    for child in el:
        tag = child.tag
        if tag in JOINT_PARTS:
            if tag not in parts:
                parts[tag] = child
        elif isinstance(tag, str):
            carried.append(child)
    return parts, carried


def joint_end(parts: dict, role: str, code: Code, name: str, el, state: UrdfState,
              links: dict[str, Link]) -> str | None:
    """The link a joint's ``<parent>`` or ``<child>`` names; None, with a diagnostic, when
    there is none or it is not a link of the robot."""
    end = parts.get(role)
    link_name = end.get("link") if end is not None else None
    if not link_name:
        state.error(Code.ELEMENT_MISSING, f"joint [{name}] needs <{role} link='...'/>", el)
        return None
    if link_name not in links:
        state.error(code, f"{role} link [{link_name}] of joint [{name}] is not a link of the "
                    "robot", end)
        return None
    return link_name


def read_axis(axis_el, name: str, el, state: UrdfState) -> Axis:
    """The unit axis of a moving joint (URDF's default: x)."""
    if axis_el is None:
        return Axis((1.0, 0.0, 0.0), None, None, state.src(el), None)
    xyz_text = axis_el.get("xyz")
    xyz = text_numbers(xyz_text if xyz_text is not None else "1 0 0", axis_el, "xyz", 3, state)
    x, y, z = xyz or (1.0, 0.0, 0.0)
    norm = math.hypot(x, y, z)  # the squares of 1e200 would overflow
    if norm == 0:
        state.error(Code.ATTRIBUTE_INVALID, f"the axis of joint [{name}] has zero length",
                    axis_el)
        norm = 1.0
    return Axis((x / norm, y / norm, z / norm), None, xyz_text, state.src(axis_el), axis_el)


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
            joint.pose.relative_to = MODEL_FRAME
    model.links = [link for name, link in links.items() if not (world_is_root and name == WORLD)]
    model.joints = list(joints.values())


def read_gazebo_shapes(blocks, links: dict[str, Link], state: UrdfState) -> None:
    """Visuals and collisions in ``<gazebo reference="LINK">`` blocks (SDF syntax) are
    part of that link for Gazebo: read them as the link's, marked ``from_gazebo``. The
    poses of the blocks' sensors and lights are read as every pose is (``inf`` is an
    error), as urdf2sdf copies them into the SDF."""
    if not blocks:
        return
    sdf_state = ReadState(state.file, NEWEST_VERSION, state.diagnostics, Context())
    for block in blocks:
        check_content_poses(block.iter("sensor", "light"), sdf_state)
        link = links.get(block.get("reference") or "")
        if link is None:
            continue
        for el in block:
            # Only complete shapes: a block without <geometry> extends existing shapes.
            if el.tag in ("visual", "collision") and el.find("geometry") is not None:
                shape = read_sdf_shape(el, sdf_state)
                shape.from_gazebo = True
                (link.visuals if el.tag == "visual" else link.collisions).append(shape)
