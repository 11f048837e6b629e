"""Value checks for scalar SDFormat elements (a small slice of the SDFormat schema).

libsdformat validates every element against its schema and refuses a file whose
``<linear>bad</linear>`` cannot be read. The frame-graph core needs only a few
elements, but a file with unreadable values is invalid all the same, so the
reader checks the value types of the common scalar elements listed here.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import MODEL_FRAME
from urdf_sdf.core.read.numbers import parse_doubles
from urdf_sdf.core.read.prefixes import tag_of

DOUBLE, VECTOR3, COLOR = "a number", "three numbers", "a colour"
BOOL, INT = "a boolean", "an integer"

# Keyed by (parent tag, tag) first, then by tag alone.
BY_PARENT: dict[tuple[str | None, str], str | None] = {
    ("world", "gravity"): VECTOR3,
    ("world", "magnetic_field"): VECTOR3,
    ("world", "wind"): None,
    ("link", "gravity"): BOOL,
    ("box", "size"): VECTOR3,
    ("mesh", "scale"): VECTOR3,
    ("velocity_decay", "linear"): DOUBLE,
    ("velocity_decay", "angular"): DOUBLE,
    ("inertial", "mass"): DOUBLE,
    ("scene", "ambient"): COLOR,
    ("scene", "background"): COLOR,
}
BY_TAG: dict[str, str | None] = {
    "ixx": DOUBLE, "ixy": DOUBLE, "ixz": DOUBLE, "iyy": DOUBLE, "iyz": DOUBLE, "izz": DOUBLE,
    "radius": DOUBLE, "length": DOUBLE, "mu": DOUBLE, "mu2": DOUBLE,
    "static": BOOL, "self_collide": BOOL, "kinematic": BOOL, "enable_wind": BOOL,
    "allow_auto_disable": BOOL,
}
for _tag in ("ambient", "diffuse", "specular", "emissive"):
    BY_PARENT[("material", _tag)] = COLOR
    BY_PARENT[("light", _tag)] = COLOR

SHADER_TYPES = {"pixel", "vertex", "normal_map_object_space", "normal_map_tangent_space"}


# Every tag a listed element may have: the tree is searched for these alone.
CHECKED_TAGS = tuple(sorted(set(BY_TAG) | {tag for _, tag in BY_PARENT}))
# The tags whose kind depends on the parent's tag.
TAGS_BY_PARENT = frozenset(tag for _, tag in BY_PARENT)


def value_problem(kind: str, text: str, numbers=parse_doubles) -> bool:
    """Whether ``text`` cannot be read as ``kind`` (``numbers``: how a text is parsed,
    e.g. ``ReadState.numbers.value``, which parses each distinct text once)."""
    if kind == BOOL:
        return text.strip().lower() not in ("true", "false", "1", "0")
    values = numbers(text)
    if values is None:  # not the XML-schema form, or not finite
        return True
    if kind == DOUBLE:
        return len(values) != 1
    if kind == INT:
        return len(values) != 1 or not values[0].is_integer()
    if kind == VECTOR3:
        return len(values) != 3
    if kind == COLOR:
        return len(values) not in (3, 4) or any(n < 0 or n > 1 for n in values)
    return False


def check_values(root, state) -> None:
    """Report every listed element whose text cannot be read as its type; the reader
    does not report such an element again (``state.reported``)."""
    check_materials(root, state)
    check_link_pose_frames(root, state)
    memo = state.numbers
    for el in root.iter(*CHECKED_TAGS):
        text = el.text
        if not text or len(el):
            continue
        tag = el.tag
        if tag in TAGS_BY_PARENT:
            parent = el.getparent()
            kind = BY_PARENT.get((parent.tag if parent is not None else None, tag),
                                 BY_TAG.get(tag))
        else:
            kind = BY_TAG[tag]
        if kind is None or text.isspace():
            continue
        if kind == DOUBLE:  # most of them: the inertia moments, radii and lengths
            values = memo.get(text)
            if values is None:
                values = memo.read(text)
            if values is not None and len(values) == 1:
                continue
        if value_problem(kind, text, memo.value):
            state.reported.add(el)
            state.error(Code.ELEMENT_INVALID,
                        f"<{tag_of(el)}> value {text.strip()!r} is not {kind}", el)


# Whether a document has what the two checks below look at (most have none of it): a
# walk by tag, which lxml filters in C; the XPaths //material/script and
# //link/*/pose[@relative_to] cost each a twentieth of reading a large model.

def has_script_or_shader(root) -> bool:
    return any(el.getparent().tag == "material" for el in root.iter("script", "shader"))


def has_link_pose_relative_to(root) -> bool:
    """Whether an element of a link (:data:`LINK_POSED`) has a ``<pose relative_to>``."""
    for pose in root.iter("pose"):
        if pose.get("relative_to") is not None:
            posed = pose.getparent()
            owner = posed.getparent()
            if owner is not None and owner.tag == "link" and posed.tag in LINK_POSED:
                return True
    return False


def check_materials(root, state) -> None:
    """A material script needs a uri and a name; a normal-map shader needs its map."""
    if not has_script_or_shader(root):
        return
    for material in root.iter("material"):
        script = material.find("script")
        if script is not None:
            for tag in ("uri", "name"):
                # '__default__' is libsdformat's placeholder for an unset value.
                found = [c for c in script.findall(tag)
                         if (c.text or "").strip() not in ("", "__default__")]
                if not found:
                    state.error(Code.ELEMENT_MISSING, f"material <script> has no <{tag}>", script)
        shader = material.find("shader")
        if shader is not None:
            shader_type = (shader.get("type") or "pixel").strip()
            if shader_type not in SHADER_TYPES:
                state.error(Code.ELEMENT_INVALID, f"material <shader type='{shader_type}'> is "
                            f"not one of {sorted(SHADER_TYPES)}", shader)
            elif shader_type.startswith("normal_map") and \
                    not (shader.findtext("normal_map") or "").strip():
                state.error(Code.ELEMENT_MISSING, f"material <shader type='{shader_type}'> has no "
                            "<normal_map>", shader)


# Elements of a link whose <pose relative_to> names a frame of the link's model scope.
LINK_POSED = ("visual", "collision", "inertial", "light", "sensor")


def check_link_pose_frames(root, state) -> None:
    """POSE_RELATIVE_TO_INVALID for a visual/collision/inertial/light/sensor pose whose
    ``relative_to`` names no frame of the enclosing model's scope (SDFormat: these
    poses are read in the link's scope). The frame graph has no vertex for them, so
    this is the only place the name is checked; a scope with an ``<include>`` is not
    checked (the names it brings are only known once it is read)."""
    if not has_link_pose_relative_to(root):
        return
    for model in root.iter("model"):
        names, complete = scope_names(model)
        if not complete:
            continue
        for link in model.iterchildren("link"):
            for posed in link.iterchildren(*LINK_POSED):
                pose = posed.find("pose")
                target = (pose.get("relative_to") or "").strip() if pose is not None else ""
                if target and target not in names:
                    state.error(Code.POSE_RELATIVE_TO_INVALID,
                                f"relative_to name [{target}] of the <{tag_of(posed)}> pose in "
                                "link "
                                f"[{link.get('name')}] names no frame of model "
                                f"[{model.get('name')}]", pose)


def scope_names(model) -> tuple[set[str], bool]:
    """The frame names a ``relative_to`` inside ``model`` may use (nested ones scoped,
    ``nested::link``), and whether the set is complete (no ``<include>`` anywhere in it)."""
    names = {MODEL_FRAME}
    complete = True
    for child in model:
        name = child.get("name") if isinstance(child.tag, str) else None
        if child.tag in ("link", "joint", "frame") and name:
            names.add(name)
        elif child.tag == "model" and name:
            names.add(name)
            inner, inner_complete = scope_names(child)
            names.update(f"{name}::{n}" for n in inner if n != MODEL_FRAME)
            complete = complete and inner_complete
        elif child.tag == "include":
            complete = False
    return names, complete
