"""``<gazebo>`` extension blocks: mapped into the SDF elements they refer to.

A URDF ``<gazebo reference="NAME">`` block extends the link or joint NAME; a block
without ``reference`` extends the robot (the SDF ``<model>``). The tags that
libsdformat's URDF parser knows (the gazebo_ros conventions) are mapped as it maps
them; anything else is SDF already and is copied into the element the block
references (once checked, see below), where blocks are merged in file order (a later
value replaces an earlier one, with a warning).

=====================  ==========  ===================================================
URDF tag               reference   SDF element
=====================  ==========  ===================================================
mu1, mu2, fdir1        link        every collision: surface/friction/ode/mu, mu2, fdir1
kp, kd, maxVel,        link        every collision: surface/contact/ode/kp, kd,
minDepth                           max_vel, min_depth
laserRetro,            link        every collision: laser_retro, max_contacts
maxContacts
material (text)        link        every visual: material/script/uri
                                   (file://media/materials/scripts/gazebo.material)
                                   and material/script/name; URDF colours stay
material (elements)    link        merged into every visual's <material>
visual, collision      link        with <geometry>: a new visual/collision of the
                                   link; without: children merged into the one it
                                   names, else into every visual (collision) of the
                                   link, as libsdformat does
selfCollide            link        self_collide
turnGravityOff         link        gravity (negated)
dampingFactor          link        velocity_decay/linear and velocity_decay/angular
stopCfm, stopErp       joint       physics/ode/limit/cfm, erp
fudgeFactor            joint       physics/ode/fudge_factor
provideFeedback        joint       physics/provide_feedback (and physics/ode/
                                   provide_feedback in SDFormat 1.4, which newer
                                   readers refuse once they convert a file up)
implicitSpringDamper,  joint       physics/ode/implicit_spring_damper and
cfmDamping                         physics/ode/cfm_damping
springReference,       joint       axis/dynamics/spring_reference, spring_stiffness
springStiffness                    (SDFormat 1.5+, joints with an axis)
preserveFixedJoint,    joint       kept as <urdf:gazebo> custom content: they only
disableFixedJoint-                 steer fixed-joint lumping
Lumping
static                 (none)      static
selfCollide            (none)      self_collide (SDFormat 1.5+; libsdformat drops it)
plugin                 any         the model (SDF has no link or joint plugins); its
                                   content is free, its attributes are checked
other SDF elements     any         copied into the referenced element, checked at
                                   every depth against SDFormat's element tree of
                                   the version written (see below)
=====================  ==========  ===================================================

Every element a block copies into the SDF (the block's SDF children, the children of
a ``<visual>``/``<collision>`` block, a ``<material>`` with elements, a plugin's
attributes) is checked against SDFormat's element tree of the version written
(``core.base.sdformat_tree``, derived from SDFormat's description files; a version newer
than those described is checked against the newest, 1.9): an element or attribute
SDFormat does not define where it lands, at any depth, would make an SDF that
libsdformat warns about and Drake refuses (a Gazebo-classic ``stopKd``, a typo,
``<sensor><imu><foo>``, ``<collision><surface><bogus>``, an element of a later version).
It is kept as ``<urdf:gazebo>`` custom content in the element the block references:
the block's child whole, or what is nested deeper inside shallow copies of its
ancestors (``urdf2sdf.gazebo_check``), with a ``GAZEBO_ELEMENT_UNDEFINED`` warning
naming its path and the version. ``sdf2urdf`` gives it back as a ``<gazebo>`` block of
the same reference, which converts to the same SDF. Legacy Gazebo-classic forms are
translated first (``urdf2sdf.gazebo_legacy``). A joint or link a block without reference adds to
the model is marked ``urdf:gazebo="true"`` (``core.base.custom.FROM_GAZEBO``): a joint that
closes a kinematic loop and a link no joint attaches, which URDF cannot state, go back to a
block in sdf2urdf (``sdf2urdf.loops``, ``sdf2urdf.gazebo_links``).

Nothing is dropped silently. What cannot be mapped (a tag meant for another kind of
element, an unreadable value, friction for a link without collisions, a reference
naming nothing written) is kept as ``<urdf:gazebo>`` custom content (see
``core.base.custom``) in the element it references, or on the model with the block's
``reference`` when that element does not exist (its plugins still go to the model),
and a warning names it with file:line.
"""
from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, field

from lxml import etree

from urdf_sdf.core.base.custom import FROM_GAZEBO, qname
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.base.sdformat_tree import VersionTree, is_namespaced, tree_for
from urdf_sdf.core.inspect.rules import unresolved_reference_reason
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.version import (
    AXIS_SPRINGS,
    ODE_FEEDBACK_DEPRECATED,
    Version,
    version_text,
)
from urdf_sdf.urdf2sdf.gazebo_check import checked_copy, wrapped_in, xml_path
from urdf_sdf.urdf2sdf.gazebo_index import ChildIndex
from urdf_sdf.urdf2sdf.gazebo_vocabulary import (
    COLLISION_VALUES,
    GAZEBO_MATERIAL_URI,
    JOINT_TAGS,
    JOINT_VALUES,
    LINK_TAGS,
    LINK_VALUES,
    LUMPING_TAGS,
    MODEL_VALUES,
    POSED_LINK_CHILDREN,
    SPRING_VALUES,
    VOCABULARY,
)
from urdf_sdf.urdf2sdf.gazebo_xml import (
    EXPECTED,
    check_value,
    clean_copy,
    content_text,
    custom_block,
    element_children,
    matching_child,
    merge,
    nest,
)


@dataclass
class Context:
    """What every step needs: the model being written, where warnings go, the version."""
    model_el: etree._Element
    diagnostics: Diagnostics
    version: Version
    file: str | None
    # With --lump-fixed: (surviving link, "visual" | "collision", shape name) -> the link
    # the shape came from (urdf2sdf.lump.ElementAliases.shape_origins).
    shape_origins: dict
    # With --lump-fixed: lumped link -> surviving link (ElementAliases.aliases).
    lumped_links: dict
    # SDFormat's element tree of the version written (core.base.sdformat_tree).
    tree: VersionTree
    # The children of the elements blocks write into, by tag and name (one pass each).
    children: ChildIndex
    # Link element -> (kind, lumped link, tag) -> (content, n): what the last block value
    # of that tag merged into the first n shapes (apply_to_shapes; apply_shape_blob forgets).
    applied: dict = field(default_factory=dict)

    def warn(self, code: Code, message: str, el) -> None:
        self.diagnostics.warning_at(code, message, source_of(el, self.file))


@dataclass
class Target:
    """The element a block extends; ``kept`` collects what goes into ``<urdf:gazebo>``."""
    kind: str  # model, link or joint
    el: etree._Element
    kept: list
    # The lumped link the block names when the link was merged into ``el`` (--lump-fixed).
    lumped: str | None = None

    @property
    def path(self) -> tuple[str, ...]:
        """Where the element sits below ``<sdf>``."""
        return ("model",) if self.kind == "model" else ("model", self.kind)

    @property
    def label(self) -> str:
        if self.kind == "model":
            return "the model"
        if self.lumped:
            return f"link [{self.lumped}] (lumped into [{self.el.get('name')}])"
        return f"{self.kind} [{self.el.get('name')}]"


def apply_gazebo_extensions(model_el, blocks, elements: dict, diagnostics: Diagnostics,
                            version: Version, file: str | None = None) -> None:
    """Apply the URDF ``<gazebo>`` ``blocks`` (in file order) to the SDF being written:
    ``model_el`` is its ``<model>``, ``elements`` the written link/joint/frame elements by
    name; ``version`` is the SDFormat version written; warnings go to ``diagnostics`` with
    ``file`` and the blocks' lines."""
    ctx = Context(model_el, diagnostics, version, file, getattr(elements, "shape_origins", {}),
                  getattr(elements, "aliases", {}), tree_for(version), ChildIndex())
    for block in blocks:
        apply_block(ctx, block, elements)


def apply_block(ctx: Context, block, elements: dict) -> None:
    reference = block.get("reference")
    warn_stray_content(ctx, block)
    if not reference:
        target = Target("model", ctx.model_el, [])
    else:
        el = elements.get(reference)
        if el is None or el.tag not in ("link", "joint"):
            keep_unresolved(ctx, block, reference, el)
            return
        target = Target(el.tag, el, [], reference if reference != el.get("name") else None)
    for child in element_children(block):
        apply_child(ctx, target, child)
    if target.kept:
        target.el.append(custom_block(target.kept))


def apply_child(ctx: Context, target: Target, child) -> None:
    """One child of a block: mapped, moved (plugins), copied, or kept as custom."""
    tag = child.tag
    if tag == "plugin":
        apply_plugin(ctx, target, child)
    elif target.kind == "link" and tag in LINK_TAGS:
        apply_link_tag(ctx, target, child)
    elif target.kind == "link" and tag in ("visual", "collision"):
        apply_shape_blob(ctx, target, child)
    elif target.kind == "joint" and tag in JOINT_TAGS:
        apply_joint_tag(ctx, target, child)
    elif target.kind == "model" and tag in MODEL_VALUES:
        apply_model_tag(ctx, target, child)
    elif tag in VOCABULARY:
        keep(ctx, target, child, Code.GAZEBO_TAG_MISPLACED, misplaced_reason(tag, target))
    elif is_namespaced(tag):
        keep(ctx, target, child, Code.GAZEBO_ELEMENT_UNDEFINED,
             f"{xml_path([child])} in the <gazebo> block for {target.label} is not SDFormat "
             f"content (namespace [{etree.QName(child).namespace}])")
    else:
        copy_sdf_content(ctx, target, child)


def apply_plugin(ctx: Context, target: Target, plugin) -> None:
    """Plugins always go to the model: SDFormat has no link or joint plugins, and a
    plugin names the links it acts on itself."""
    warn_lumped_names(ctx, plugin)
    copy = checked(ctx, target, plugin, ("model",))
    if copy is None:
        return
    ctx.model_el.append(copy)
    if target.kind != "model":
        ctx.warn(Code.GAZEBO_PLUGIN_MOVED, f"<plugin name='{plugin.get('name')}'> of the "
                 f"<gazebo> block for {target.label}: SDFormat has no {target.kind} plugins; "
                 "moved to the model", plugin)


def warn_lumped_names(ctx: Context, plugin) -> None:
    """A plugin parameter naming a lumped link (``<bodyName>``, ``<frameName>``...) names a
    frame now: libsdformat rewrites some of them to the surviving link and adjusts
    offsets; this converter does not guess a plugin's parameters, so it says so."""
    for el in plugin.iter():
        text = (el.text or "").strip() if isinstance(el.tag, str) else ""
        if el is not plugin and text in ctx.lumped_links:
            ctx.warn(Code.LUMPED_NAME_REFERENCED, f"<plugin name='{plugin.get('name')}'> "
                     f"parameter <{tag_of(el)}> names link [{text}], which --lump-fixed merged "
                     f"into link [{ctx.lumped_links[text]}]; the plugin is copied unchanged",
                     el)


def misplaced_reason(tag: str, target: Target) -> str:
    scopes = [name for name, tags in (("a link", LINK_TAGS), ("a joint", JOINT_TAGS),
                                      ("the model (a block without reference)", MODEL_VALUES))
              if tag in tags]
    if not scopes:
        return f"<{tag}> has no SDFormat counterpart (libsdformat ignores it)"
    return f"<{tag}> applies to {' or '.join(scopes)}, not to {target.label}"


def copy_sdf_content(ctx: Context, target: Target, child) -> None:
    """SDF content: merged into the target, once checked against SDFormat's element tree
    of the version written (``urdf2sdf.gazebo_check``): what SDFormat does not define
    there is kept as ``<urdf:gazebo>`` content instead, with a warning; a verbatim copy
    would make an SDF that libsdformat warns about and Drake refuses."""
    copy = checked(ctx, target, child, target.path)
    if copy is None:
        return
    if target.kind == "model" and copy.tag in ("joint", "link") and \
            matching_child(ctx.children, target.el, copy) is None:
        # a new joint or link: sdf2urdf gives back a loop it closes, a tree it starts
        copy.set(FROM_GAZEBO, "true")
    merge(ctx, target.el, placed_in_lumped_frame(target, copy), child)


def checked(ctx: Context, target: Target, child, parent_path: tuple[str, ...], outer=()):
    """``child`` checked for the SDF element at ``parent_path`` (``gazebo_check``): the
    copy to write, or None; what is not defined goes to ``target.kept``."""
    copy, kept, why = checked_copy(ctx, child, parent_path, target.label, outer)
    if why is not None:
        keep(ctx, target, wrapped_in(outer, clean_copy(child)) if outer else child,
             Code.GAZEBO_ELEMENT_UNDEFINED, why, child)
    elif kept is not None:
        target.kept.append(kept)
    return copy


# ---- links ------------------------------------------------------------------------------

def apply_link_tag(ctx: Context, target: Target, child) -> None:
    tag = child.tag
    if tag == "material":
        apply_material(ctx, target, child)
    elif tag == "dampingFactor":
        value = read_value(ctx, target, child, "number")
        if value is not None:
            decay = etree.Element("velocity_decay")
            for name in ("linear", "angular"):
                etree.SubElement(decay, name).text = value
            merge(ctx, target.el, decay, child)
    elif tag in LINK_VALUES:
        path, kind = LINK_VALUES[tag]
        value = read_value(ctx, target, child, kind)
        if value is not None:
            merge(ctx, target.el, nest(path, value), child)
    else:
        path, kind = COLLISION_VALUES[tag]
        apply_to_shapes(ctx, target, child, "collision", kind, lambda v: nest(path, v))


def apply_material(ctx: Context, target: Target, child) -> None:
    """``<material>Gazebo/Blue</material>``: a script of Gazebo's stock material file.
    With element children it is an SDF ``<material>``, merged as it is."""
    if element_children(child):
        copy = checked(ctx, target, child, (*target.path, "visual")) \
            if own_shapes(ctx, target, "visual") else clean_copy(child)
        if copy is not None:
            apply_to_shapes(ctx, target, child, "visual", None, lambda _: deepcopy(copy))
        return

    def script(name: str):
        material = etree.Element("material")
        script_el = etree.SubElement(material, "script")
        etree.SubElement(script_el, "uri").text = GAZEBO_MATERIAL_URI
        etree.SubElement(script_el, "name").text = name
        return material
    apply_to_shapes(ctx, target, child, "visual", "text", script)


def apply_to_shapes(ctx: Context, target: Target, child, kind: str, value_kind, build) -> None:
    """Merge ``build(value)`` into every ``kind`` (visual or collision) of the link."""
    shapes = own_shapes(ctx, target, kind)
    if not shapes:
        keep(ctx, target, child, Code.GAZEBO_TAG_MISPLACED,
             f"<{tag_of(child)}> sets {kind}s and {target.label} has none")
        return
    value = read_value(ctx, target, child, value_kind) if value_kind else ""
    if value is None:
        return
    content = content_text(build(value))
    applied = ctx.applied.setdefault(target.el, {})
    key = (kind, target.lumped, child.tag)
    for shape in shapes[already_applied(applied.get(key), content):]:
        merge(ctx, shape, build(value), child)
    applied[key] = (content, len(shapes))


def already_applied(last: tuple[str, int] | None, content: str) -> int:
    """How many of a link's shapes already hold ``content``, merged by the last block value
    of the same tag (``last``: its content and how many shapes it went into): merging it
    again changes nothing there, so only the shapes added since are merged. Without this,
    blocks that each add a shape and set a value of every shape cost their number squared."""
    if last is None or last[0] != content:
        return 0
    return last[1]


def apply_shape_blob(ctx: Context, target: Target, child) -> None:
    """``<visual>``/``<collision>`` with a ``<geometry>`` is one more shape of the link;
    without one its children extend the link's shapes (libsdformat's convention): the
    shape it names, or every shape of that kind."""
    kind = child.tag
    if child.find("geometry") is not None:
        add_shape(ctx, target, child)
        return
    ctx.applied.pop(target.el, None)  # this content may change what values were merged
    shapes = own_shapes(ctx, target, kind)
    name = child.get("name")
    named = [s for s in shapes if name is not None and s.get("name") == name]
    if not shapes:
        keep(ctx, target, child, Code.GAZEBO_TAG_MISPLACED, f"<{kind}> without <geometry> "
             f"extends the {kind}s of {target.label}, which has none")
        return
    if name is not None and not named:
        ctx.warn(Code.GAZEBO_SHAPE_UNMATCHED, f"<{kind} name='{name}'> in the <gazebo> block "
                 f"for {target.label} names no {kind} of the link; its content extends all "
                 f"{len(shapes)}", child)
    copies = [(grandchild, checked(ctx, target, grandchild, (*target.path, kind), (child,)))
              for grandchild in element_children(child)]
    for shape in named or shapes:
        for grandchild, copy in copies:
            if copy is not None:
                merge(ctx, shape, deepcopy(copy), grandchild)


def own_shapes(ctx: Context, target: Target, kind: str) -> list:
    """The link's visuals or collisions that the block's link owns: with --lump-fixed a
    surviving link also holds the shapes of the links lumped into it, and an extension
    applies to its own link's shapes only (as in libsdformat)."""
    owner = target.lumped or target.el.get("name")
    survivor = target.el.get("name")
    shapes = ctx.children.of_tag(target.el, kind)
    if not ctx.shape_origins:  # no --lump-fixed: every shape is the link's own
        return list(shapes)
    return [shape for shape in shapes
            if ctx.shape_origins.get((survivor, kind, shape.get("name")), survivor) == owner]


def placed_in_lumped_frame(target: Target, el):
    """``el`` (a sensor, light, shape... copied into a link) with its pose made relative
    to the lumped link's frame when the block's link was lumped into ``target``: its pose
    was written in that link's frame, which is now a ``<frame>`` of the model."""
    if target.lumped is None or el.tag not in POSED_LINK_CHILDREN:
        return el
    pose = el.find("pose")
    if pose is None:
        pose = etree.Element("pose")
        el.insert(0, pose)
    if not pose.get("relative_to"):
        pose.set("relative_to", target.lumped)
    return el


def add_shape(ctx: Context, target: Target, child) -> None:
    """A whole visual or collision from a block: one more shape of the link, renamed (with
    a warning) when it has no name or repeats one, as SDF names must be unique."""
    kind = child.tag
    name = child.get("name")
    shape = checked(ctx, target, child, target.path)
    if shape is None:
        return
    shape = placed_in_lumped_frame(target, shape)
    if not name or ctx.children.named(target.el, kind, name) is not None:
        new = ctx.children.free_name(target.el, kind, f"{target.el.get('name')}_{kind}")
        shape.set("name", new)
        what = f"repeats the name [{name}]" if name else "has no name"
        ctx.warn(Code.NAME_RENAMED, f"<{kind}> in the <gazebo> block for {target.label} "
                 f"{what}; named [{new}]", child)
    target.el.append(shape)


# ---- joints -----------------------------------------------------------------------------

def apply_joint_tag(ctx: Context, target: Target, child) -> None:
    tag = child.tag
    if tag in LUMPING_TAGS:
        apply_lumping_tag(ctx, target, child)
    elif tag in SPRING_VALUES:
        apply_spring(ctx, target, child)
    elif tag == "provideFeedback":
        value = read_value(ctx, target, child, "bool")
        if value is not None:
            merge(ctx, target.el, nest(("physics", "provide_feedback"), value), child)
            if ctx.version < ODE_FEEDBACK_DEPRECATED:  # libsdformat 14 refuses it after
                # converting a 1.5 or 1.6 file up to its own version
                merge(ctx, target.el, nest(("physics", "ode", "provide_feedback"), value), child)
    elif tag in ("implicitSpringDamper", "cfmDamping"):
        apply_implicit_spring_damper(ctx, target, child)
    else:
        path, kind = JOINT_VALUES[tag]
        value = read_value(ctx, target, child, kind)
        if value is not None:
            merge(ctx, target.el, nest(path, value), child)


def apply_implicit_spring_damper(ctx: Context, target: Target, child) -> None:
    """Both SDF names, as libsdformat writes them: simulators read either."""
    if child.tag == "cfmDamping":
        ctx.warn(Code.ELEMENT_DEPRECATED, f"<cfmDamping> of {target.label} is deprecated; "
                 "use <implicitSpringDamper>", child)
    value = read_value(ctx, target, child, "bool")
    if value is not None:
        for name in ("implicit_spring_damper", "cfm_damping"):
            merge(ctx, target.el, nest(("physics", "ode", name), value), child)


def apply_spring(ctx: Context, target: Target, child) -> None:
    if ctx.version < AXIS_SPRINGS:
        keep(ctx, target, child, Code.GAZEBO_ELEMENT_UNDEFINED, f"<{tag_of(child)}> needs "
             f"SDFormat {version_text(AXIS_SPRINGS)} "
             f"(//axis/dynamics/{SPRING_VALUES[child.tag]})")
        return
    if target.el.find("axis") is None:
        keep(ctx, target, child, Code.GAZEBO_TAG_MISPLACED, f"<{tag_of(child)}> sets a joint "
             f"axis and {target.el.get('type')} {target.label} has none")
        return
    value = read_value(ctx, target, child, "number")
    if value is not None:
        merge(ctx, target.el, nest(("axis", "dynamics", SPRING_VALUES[child.tag]), value), child)


def apply_lumping_tag(ctx: Context, target: Target, child) -> None:
    """Only fixed-joint lumping reads these; the joint stays a joint in the SDF, so they
    are kept for ``--lump-fixed`` and ``sdf2urdf``."""
    if read_value(ctx, target, child, "bool") is None:
        return
    if target.el.get("type") != "fixed":
        ctx.warn(Code.GAZEBO_TAG_MISPLACED, f"<{tag_of(child)}> only applies to fixed joints; "
                 f"{target.label} is {target.el.get('type')} (kept as <urdf:gazebo> content)",
                 child)
    target.kept.append(child)


# ---- the model --------------------------------------------------------------------------

def apply_model_tag(ctx: Context, target: Target, child) -> None:
    path, kind, since = MODEL_VALUES[child.tag]
    if ctx.version < since:
        keep(ctx, target, child, Code.GAZEBO_ELEMENT_UNDEFINED, f"<{tag_of(child)}> needs "
             f"SDFormat {version_text(since)} (//model/{path[-1]})")
        return
    value = read_value(ctx, target, child, kind)
    if value is not None:
        merge(ctx, target.el, nest(path, value), child)


def keep_unresolved(ctx: Context, block, reference: str, found) -> None:
    """A block whose reference names no written link or joint: its plugins go to the
    model (a plugin names what it acts on); the rest is kept as ``<urdf:gazebo>``."""
    children = element_children(block)
    plugins, rest = [], [c for c in children if c.tag != "plugin"]
    for plugin in (c for c in children if c.tag == "plugin"):
        warn_lumped_names(ctx, plugin)
        copy, _, why = checked_copy(ctx, plugin, ("model",), f"[{reference}]")
        if why is None:
            ctx.model_el.append(copy)
            plugins.append(plugin)
        else:
            ctx.warn(Code.GAZEBO_ELEMENT_UNDEFINED, f"{why}; kept as <urdf:gazebo> content",
                     plugin)
            rest.append(plugin)
    if rest:
        ctx.model_el.append(custom_block(rest, reference))
    names = ", ".join(f"[{p.get('name')}]" for p in plugins)
    done = [f"plugin {names} moved to the model"] if plugins else []
    done += [f"{'the rest' if plugins else 'its content'} kept on the model as <urdf:gazebo>"] \
        if rest else []
    ctx.warn(Code.GAZEBO_REFERENCE_UNRESOLVED, f"<gazebo reference='{reference}'>: "
             f"{unresolved_reason(ctx, reference, found)}"
             f"{'; ' + ', '.join(done) if done else ''}", block)


def unresolved_reason(ctx: Context, reference: str, found) -> str:
    if found is not None and found.tag == "frame":
        if found.get(qname("lumped")) == "joint":
            return (f"joint [{reference}] was lumped (--lump-fixed) into a <frame>, which "
                    "cannot hold content")
        return f"[{reference}] is written as a <frame>, which cannot hold content"
    for frame in ctx.model_el.iterchildren("frame"):
        if frame.get(qname("joint")) == reference:
            return (f"joint [{reference}] is not written: its massless child link became "
                    f"<frame name='{frame.get('name')}'>")
    for joint in ctx.model_el.iterchildren(qname("joint")):
        if joint.get("name") == reference:
            return (f"{joint.get('type')} joint [{reference}] has no SDFormat counterpart "
                    "(kept as <urdf:joint>)")
    return unresolved_reference_reason(reference)


# ---- values, merging, custom content ----------------------------------------------------

def read_value(ctx: Context, target: Target, child, kind: str) -> str | None:
    """The text of a scalar tag (libsdformat also reads a ``value`` attribute), checked
    against ``kind`` and normalised (booleans to true/false); None, with the tag kept and
    a warning, when it is not readable."""
    text = child.get("value")
    if text is None and not element_children(child):
        text = child.text
    text = " ".join(text.split()) if text is not None else ""
    value = check_value(text, kind)
    if value is None:
        keep(ctx, target, child, Code.GAZEBO_VALUE_INVALID,
             f"<{tag_of(child)}> value [{text}] is not {EXPECTED[kind]}")
    return value


def keep(ctx: Context, target: Target, child, code: Code, why: str, source=None) -> None:
    """``child`` kept whole as ``<urdf:gazebo>`` content, with a ``code`` warning at
    ``source`` (``child`` by default)."""
    ctx.warn(code, f"{why}; kept as <urdf:gazebo> content in {target.label}",
             child if source is None else source)
    target.kept.append(child)


def warn_stray_content(ctx: Context, block) -> None:
    """Text directly in a block, and attributes other than ``reference``, mean nothing
    to libsdformat: say so rather than lose them unnoticed."""
    texts = [t.strip() for t in [block.text, *(c.tail for c in block)] if t and t.strip()]
    attributes = [k for k in block.attrib if k != "reference"]
    if texts or attributes:
        what = [f"text [{' '.join(texts)}]"] if texts else []
        what += [f"attribute [{', '.join(attributes)}]"] if attributes else []
        ctx.warn(Code.GAZEBO_STRAY_CONTENT, f"<gazebo> block: {' and '.join(what)} ignored "
                 "(not part of the extension format)", block)
