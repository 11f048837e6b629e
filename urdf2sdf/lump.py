"""``--lump-fixed``: merge fixed-joint children into their parent, as Gazebo does.

libsdformat's URDF parser (``ReduceFixedJoints`` in ``parser_urdf.cc``) is the model:

* every link hanging on a ``fixed`` joint is merged into its parent, recursively, so a
  chain of fixed joints collapses into the first ancestor that survives. A joint keeps
  its link when a ``<gazebo reference="JOINT">`` block says
  ``<preserveFixedJoint>true</preserveFixedJoint>`` or
  ``<disableFixedJointLumping>true</disableFixedJointLumping>``, and a joint whose parent
  is ``world`` is never lumped (it anchors the model).
* the survivor's inertial becomes the lumped bodies' sum: total mass, mass-weighted
  centre of mass, each tensor rotated into the survivor's frame and moved to the new
  centre with the parallel axis theorem. Like libsdformat, the result keeps the
  orientation of the survivor's own inertial frame (identity when it had none) and
  writes the full tensor in it, rather than principal axes.
* visuals and collisions move to the survivor with their poses composed with the lumped
  link's pose, and are named the way Gazebo users see them (:func:`lumped_shape_name`).
* joints whose parent was lumped are re-parented to the survivor, their origin composed
  with the lumped link's pose.
* each lumped link and each lumped joint becomes a ``//frame`` attached to the survivor,
  its pose ``relative_to`` the survivor, so that every name of the URDF still resolves
  to its exact pose (libsdformat 12 drops those names).

Poses are composed from the URDF origins along the lumped chain (a URDF child link's
frame is its joint's frame); where nothing needs composing (a child of the survivor, a
shape or joint at the identity) the origin's text is copied, otherwise the computed pose
is written at round-trip precision. Inertia math is float64 numpy (``lump_inertia``). The input
model is
never changed: the result shares the untouched parts and replaces the rest.

The writer's element map becomes an :class:`ElementAliases`, so that ``<gazebo>`` blocks
naming a lumped link reach the surviving link.
"""
from __future__ import annotations

import copy
from dataclasses import replace

from lxml import etree

from urdf_sdf.core.base.custom import PREFIX, URDF_NS, qname
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.base.model import WORLD, Inertial, Joint, Link, Model, PoseSpec, Shape
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.write.common import number_text, numbers_text
from urdf_sdf.core.write.sdf import pose_node
from urdf_sdf.core.write.text import to_element
from urdf_sdf.urdf2sdf.lump_inertia import lumped_inertia

LUMP_INFIX = "_fixed_joint_lump__"
KEEP_TAGS = ("preserveFixedJoint", "disableFixedJointLumping")


class ElementAliases(dict):
    """The writer's ``name -> written element`` map, in which a lumped link's name finds
    the element of the link it was merged into, and a lumped joint's name its ``<frame>``
    (a joint's extensions have nowhere to go once the joint is gone).

    ``aliases`` maps each lumped link to its surviving link; ``shape_origins`` maps
    ``(surviving link, "visual" | "collision", shape name)`` to the link the shape came
    from, for extensions that target a lumped link's shapes.
    """

    def __init__(self, aliases: dict[str, str], shape_origins: dict[tuple[str, str, str], str]):
        super().__init__()
        self.aliases = aliases
        self.shape_origins = shape_origins

    def _key(self, name):
        if dict.__contains__(self, name):
            return name
        return self.aliases.get(name, name)

    def __getitem__(self, name):
        return dict.__getitem__(self, self._key(name))

    def __contains__(self, name):
        return dict.__contains__(self, self._key(name))

    def get(self, name, default=None):
        return dict.get(self, self._key(name), default)


def lump_fixed_joints(model: Model, diagnostics: Diagnostics
                      ) -> tuple[Model, list, ElementAliases | None]:
    """``(lumped model, <frame> elements, writer element map)``; ``model`` is not changed.

    Without a joint to lump, the model comes back as it is with no frames and no map.
    """
    lumped = lumpable_joints(model)
    if not lumped:
        return model, [], None
    survivors = surviving_links(lumped)
    groups = lump_groups(model, lumped, survivors)
    links_by_name = {link.name: link for link in model.links}
    poses = lumped_poses(groups, lumped)
    shape_origins: dict[tuple[str, str, str], str] = {}
    links = [merge_link(link, [links_by_name[n] for n in groups.get(link.name, [])], poses,
                        shape_origins)
             for link in model.links if link.name not in survivors]
    joints = [reparent_joint(joint, survivors, poses) for joint in model.joints
              if joint.child not in survivors]
    frames = lumped_frames(model, lumped, survivors, poses)
    report_dropped(model, lumped, diagnostics)
    elements = ElementAliases(survivors, shape_origins)
    for frame in frames:
        if frame.get(qname("lumped")) == "joint":
            elements[frame.get("name")] = frame
    return replace(model, links=links, joints=joints), frames, elements


# ---- which joints, which survivors --------------------------------------------------------

def lumpable_joints(model: Model) -> dict[str, Joint]:
    """``child link -> fixed joint`` for every fixed joint that is lumped."""
    kept = kept_fixed_joints(model.gazebo)
    return {joint.child: joint for joint in model.joints
            if joint.type == "fixed" and joint.parent != WORLD and joint.name not in kept}


def kept_fixed_joints(blocks) -> set[str]:
    """Joints a ``<gazebo>`` block keeps from lumping (preserveFixedJoint or
    disableFixedJointLumping set to true, yes or 1, as text or ``value`` attribute)."""
    kept = set()
    for block in blocks:
        reference = block.get("reference")
        if not reference:
            continue
        for child in block:
            if isinstance(child.tag, str) and child.tag in KEEP_TAGS and is_true(child):
                kept.add(reference)
    return kept


def is_true(el) -> bool:
    """libsdformat's reading of a boolean extension value."""
    text = el.get("value")
    if text is None:
        text = el.text or ""
    text = text.strip()
    return text.lower() in ("true", "yes") or text == "1"


def surviving_links(lumped: dict[str, Joint]) -> dict[str, str]:
    """``lumped link -> surviving link``: the first ancestor that is not lumped.

    Iterative with memoisation, so a chain of 100,000 fixed joints costs O(n) and no
    recursion depth.
    """
    survivors: dict[str, str] = {}
    for start in lumped:
        path = []
        name = start
        while name in lumped and name not in survivors and name not in path:
            path.append(name)
            name = lumped[name].parent
        root = survivors.get(name, name)
        for link in path:
            survivors[link] = root
    return survivors


def lump_groups(model: Model, lumped: dict[str, Joint],
                survivors: dict[str, str]) -> dict[str, list[str]]:
    """``surviving link -> lumped links`` in the order Gazebo merges them.

    libsdformat walks the tree depth first, pre-order, visiting the children of a link
    sorted by joint name (urdfdom keeps joints in a ``std::map``); that order numbers the
    lumped shapes, so it is kept to give the same names.
    """
    children: dict[str, list[tuple[str, str]]] = {}
    for child, joint in lumped.items():
        children.setdefault(joint.parent, []).append((joint.name, child))
    groups: dict[str, list[str]] = {}
    for link in model.links:
        if link.name in survivors or link.name not in children:
            continue
        order: list[str] = []
        stack = [child for _, child in sorted(children[link.name], reverse=True)]
        while stack:
            name = stack.pop()
            order.append(name)
            stack.extend(child for _, child in sorted(children.get(name, []), reverse=True))
        groups[link.name] = order
    return groups


def lumped_poses(groups: dict[str, list[str]], lumped: dict[str, Joint]) -> dict[str, PoseSpec]:
    """Pose of each lumped link (= its joint's frame) relative to its surviving link: the
    joint's origin, text and all, for a child of the survivor; composed further down.

    Groups are in pre-order, so a link's parent pose is known before the link's.
    """
    poses: dict[str, PoseSpec] = {}
    for order in groups.values():
        for name in order:
            joint = lumped[name]
            parent = poses.get(joint.parent)
            poses[name] = replace(joint.pose, relative_to=None) if parent is None else \
                compose(parent, joint.pose, None)
    return poses


# ---- links ------------------------------------------------------------------------------

def merge_link(link: Link, lumped: list[Link], poses: dict[str, PoseSpec],
               shape_origins: dict[tuple[str, str, str], str]) -> Link:
    """``link`` with the inertials, visuals and collisions of ``lumped`` merged in."""
    if not lumped:
        return link
    return replace(link,
                   inertial=merged_inertial(link, lumped, poses),
                   visuals=link.visuals + lumped_shapes(link, lumped, "visual", poses,
                                                        shape_origins),
                   collisions=link.collisions + lumped_shapes(link, lumped, "collision", poses,
                                                              shape_origins))


def lumped_shapes(link: Link, lumped: list[Link], kind: str, poses: dict[str, PoseSpec],
                  shape_origins: dict[tuple[str, str, str], str]) -> list[Shape]:
    """The ``kind`` shapes of the lumped links, re-expressed in ``link``'s frame.

    Shapes read from ``<gazebo>`` blocks (``from_gazebo``) are left to the gazebo step,
    which finds a lumped link's blocks through :class:`ElementAliases`; they take no
    number either, as the writer does not write them.
    """
    own = urdf_shapes(link, kind)
    taken = {shape.name for shape in own if shape.name}
    shapes = []
    index = len(own)
    for source in lumped:
        for shape in urdf_shapes(source, kind):
            name = unique_name(lumped_shape_name(link.name, source.name, shape.name, kind,
                                                 index), taken)
            taken.add(name)
            shape_origins[(link.name, kind, name)] = source.name
            pose = compose(poses[source.name], shape.pose, None)
            shapes.append(replace(shape, name=name, pose=pose))
            index += 1
    return shapes


def urdf_shapes(link: Link, kind: str) -> list[Shape]:
    return [shape for shape in getattr(link, kind + "s")
            if not getattr(shape, "from_gazebo", False)]


def lumped_shape_name(link: str, source: str, name: str | None, kind: str, index: int) -> str:
    """Gazebo's name for a shape lumped into ``link`` (libsdformat's CreateVisual and
    CreateCollision): the URDF name or, unnamed, the original link's name, then
    ``_visual``/``_collision``, then ``_INDEX`` for all but the link's first shape of that
    kind; prefixed with ``LINK_fixed_joint_lump__`` unless it already starts with
    ``link`` (libsdformat's test, kept so that the names match)."""
    base = f"{name or source}_{kind}"
    if index > 0:
        base = f"{base}_{index}"
    return base if base.startswith(link) else f"{link}{LUMP_INFIX}{base}"


def unique_name(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    i = 1
    while f"{name}_{i}" in taken:
        i += 1
    return f"{name}_{i}"


def compose(outer: PoseSpec, inner: PoseSpec, relative_to: str | None) -> PoseSpec:
    """``outer * inner``, ``relative_to`` the given frame. When one side is the identity
    the other is the result and keeps its text (a pose read from a file is written as
    it was); otherwise the result is computed."""
    if inner.value == IDENTITY:
        return replace(outer, relative_to=relative_to)
    if outer.value == IDENTITY:
        return replace(inner, relative_to=relative_to)
    return computed_spec(outer.value * inner.value, relative_to, inner.source)


def computed_spec(pose: Pose, relative_to: str | None, source) -> PoseSpec:
    """A PoseSpec for a computed pose, its ``xyz``/``rpy`` texts at round-trip precision
    (what the writer copies)."""
    xyz, rpy = numbers_text(pose.position), numbers_text(pose.rpy())
    return PoseSpec(pose, relative_to, f"{xyz} {rpy}", source=source, xyz_text=xyz,
                    rpy_text=rpy)


# ---- inertia ------------------------------------------------------------------------------

def merged_inertial(link: Link, lumped: list[Link],
                    poses: dict[str, PoseSpec]) -> Inertial | None:
    """The combined inertial of ``link`` and the lumped links, or ``link``'s own when no
    lumped link has one. Its frame keeps the orientation (and rpy text) of ``link``'s own
    inertial frame, identity without one; the tensor is written in that frame
    (:func:`urdf_sdf.urdf2sdf.lump_inertia.lumped_inertia`)."""
    bodies = [(source.inertial, poses[source.name].value) for source in lumped
              if source.inertial is not None]
    if not bodies:
        return link.inertial
    own = link.inertial
    if own is not None:
        bodies.insert(0, (own, IDENTITY))
    orientation = own.pose.value.rotation if own is not None else IDENTITY.rotation
    first, first_pose = bodies[0]
    mass, com, values = lumped_inertia(bodies, first_pose * first.pose.value, orientation)
    source = own.source if own is not None else link.source
    pose = computed_spec(Pose(com, orientation), None, source)
    if own is not None and own.pose.rpy_text is not None:
        pose = replace(pose, rpy_text=own.pose.rpy_text, text=f"{pose.xyz_text} "
                       f"{own.pose.rpy_text}")
    texts = {key: number_text(value) for key, value in values.items()}
    texts["mass"] = number_text(mass)
    return Inertial(mass=mass, pose=pose, ixx=values["ixx"], ixy=values["ixy"],
                    ixz=values["ixz"], iyy=values["iyy"], iyz=values["iyz"], izz=values["izz"],
                    texts=texts, source=source)


# ---- joints and frames ---------------------------------------------------------------------

def reparent_joint(joint: Joint, survivors: dict[str, str],
                   poses: dict[str, PoseSpec]) -> Joint:
    """``joint`` moved from a lumped parent link to its survivor (unchanged otherwise)."""
    survivor = survivors.get(joint.parent)
    if survivor is None:
        return joint
    pose = compose(poses[joint.parent], joint.pose, survivor)
    return replace(joint, parent=survivor, pose=pose,
                   xml=reparented_xml(joint.xml, survivor, pose))


def reparented_xml(el, parent: str, pose: PoseSpec):
    """A copy of the URDF ``<joint>`` with the new parent and origin: floating and planar
    joints travel as this XML, which must agree with the SDF around it."""
    if el is None:
        return None
    el = copy.deepcopy(el)
    parent_el = el.find("parent")
    if parent_el is not None:
        parent_el.set("link", parent)
    old = el.find("origin")
    index = el.index(old) if old is not None else len(el)
    if old is not None:
        el.remove(old)
    if pose.xyz_text is not None or pose.rpy_text is not None:
        origin = etree.Element("origin")
        for key, text in (("xyz", pose.xyz_text), ("rpy", pose.rpy_text)):
            if text is not None:
                origin.set(key, text)
        el.insert(index, origin)
    return el


def lumped_frames(model: Model, lumped: dict[str, Joint], survivors: dict[str, str],
                  poses: dict[str, PoseSpec]) -> list:
    """A ``<frame>`` for each lumped joint and link, in URDF link order, attached to the
    surviving link with the exact pose relative to it (in both pose styles): the joint's
    origin text when the survivor is the joint's parent, else the composed pose.

    ``urdf:lumped`` says which it was (``joint`` or ``link``) and a link's frame names its
    joint in ``urdf:joint``, as a massless leaf's frame does, for sdf2urdf.
    """
    frames = []
    for link in model.links:
        joint = lumped.get(link.name)
        if joint is None:
            continue
        survivor, spec = survivors[link.name], poses[link.name]
        frames.append(frame_element(joint.name, survivor, spec, "joint"))
        link_frame = frame_element(link.name, survivor, spec, "link")
        link_frame.set(qname("joint"), joint.name)
        frames.append(link_frame)
    return frames


def frame_element(name: str, survivor: str, pose: PoseSpec, what: str):
    frame = etree.Element("frame", nsmap={PREFIX: URDF_NS})
    frame.set("name", name)
    frame.set("attached_to", survivor)
    frame.set(qname("lumped"), what)
    to_element(pose_node(pose, relative_to=survivor), frame)
    return frame


# ---- what lumping loses -------------------------------------------------------------------

def report_dropped(model: Model, lumped: dict[str, Joint], diagnostics: Diagnostics) -> None:
    """Warn about what a lumped joint takes with it: its URDF-only elements, and
    transmissions or mimic joints that name it (they now name a frame)."""
    names = {joint.name for joint in lumped.values()}
    for joint in lumped.values():
        for tag in joint.extras:
            diagnostics.warning_at(Code.LUMPED_CONTENT_DROPPED, f"<{tag}> of fixed joint "
                                   f"[{joint.name}] is dropped: the joint is lumped",
                                   joint.source)
    for joint in model.joints:
        if joint.mimic is not None and joint.mimic.joint in names:
            diagnostics.warning_at(Code.LUMPED_NAME_REFERENCED, f"joint [{joint.name}] mimics "
                                   f"fixed joint [{joint.mimic.joint}], which is lumped into "
                                   "a frame", joint.source)
    for transmission in model.transmissions:
        for joint_el in transmission.findall("joint"):
            if joint_el.get("name") in names:
                diagnostics.warning_at(Code.LUMPED_NAME_REFERENCED, f"transmission "
                                       f"[{transmission.get('name')}] names fixed joint "
                                       f"[{joint_el.get('name')}], which is lumped into a frame",
                                       source_of(joint_el, model.source.file))
