"""The elements of a URDF link or joint (origins, inertials, shapes, geometry, materials,
limits), read into ``core.base.model`` values for ``core.read.urdf``.

Each element is read in one pass over its children (the first child of each tag is the
one URDF reads) and each number is parsed once, where it is read and checked; every
origin keeps its ``xyz``/``rpy`` attribute text so that emitters can copy it.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Literal, overload

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.inertia import INERTIA_KEYS, inertia_problem, mass_problem
from urdf_sdf.core.base.model import Geometry, Inertial, Limit, Material, PoseSpec, Shape, Source
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.read.consume import Consumer
from urdf_sdf.core.read.numbers import NumberMemo, finite_numbers, parse_doubles
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.urdf_attributes import unknown_attributes
from urdf_sdf.core.read.xmlio import first_children

ZERO3 = (0.0, 0.0, 0.0)
INERTIAL_PARTS = ("origin", "mass", "inertia")
MATERIAL_PARTS = ("color", "texture")
# ``Source(file, line)`` without the named tuple's ``__new__`` (a Python function): the
# same tuple, made three times faster; a large robot makes one for each of its elements.
_tuple_new = tuple.__new__
_intern = sys.intern


@dataclass
class UrdfState:
    file: str | None
    diagnostics: Diagnostics
    # (tag, where) -> the unknown elements found there, for one warning each.
    unknown: dict = field(default_factory=dict)
    # Deletes the link and joint elements once read when the XML is not kept.
    consumer: Consumer = field(default_factory=lambda: Consumer(True))
    # What each attribute text read as numbers parsed to (None: not a list of finite
    # numbers): robots repeat a few values (0, 0 0 0, 0.01, a joint limit) all over;
    # each distinct text is parsed once.
    numbers: NumberMemo = field(default_factory=lambda: NumberMemo(finite_numbers))

    def src(self, el) -> Source:
        return _tuple_new(Source, (self.file, el.sourceline))

    def error(self, code: Code, message: str, el) -> None:
        self.diagnostics.error_at(code, message, self.src(el))

    def warning(self, code: Code, message: str, el) -> None:
        self.diagnostics.warning_at(code, message, self.src(el))


def interned_attributes(el) -> dict[str, str]:
    """``el``'s attributes as a dict whose names are shared strings (lxml makes a new string
    for every name it returns; a large robot has hundreds of thousands of them)."""
    texts = {}
    for name, value in el.items():  # a loop: a comprehension is one more call, per element
        texts[_intern(name)] = value
    return texts


# ---- numbers -------------------------------------------------------------------------

@overload
def numbers(el, attribute: str, count: Literal[3], state: UrdfState, default: str | None = None,
            required: bool = False) -> tuple[float, float, float] | None:
    ...


@overload
def numbers(el, attribute: str, count: int, state: UrdfState, default: str | None = None,
            required: bool = False) -> tuple[float, ...] | None:
    ...


def numbers(el, attribute: str, count: int, state: UrdfState, default: str | None = None,
            required: bool = False) -> tuple[float, ...] | None:
    """The ``count`` finite numbers of ``el/@attribute``; a diagnostic when unreadable."""
    text = el.get(attribute)
    if text is None:
        if required:
            state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(el)}> needs the attribute [{attribute}]",
                        el)
        if default is None:
            return None
        text = default
    return text_numbers(text, el, attribute, count, state)


@overload
def text_numbers(text: str, el, attribute: str, count: Literal[3],
                 state: UrdfState) -> tuple[float, float, float] | None:
    ...


@overload
def text_numbers(text: str, el, attribute: str, count: Literal[4],
                 state: UrdfState) -> tuple[float, float, float, float] | None:
    ...


@overload
def text_numbers(text: str, el, attribute: str, count: int,
                 state: UrdfState) -> tuple[float, ...] | None:
    ...


def text_numbers(text: str, el, attribute: str, count: int,
                 state: UrdfState) -> tuple[float, ...] | None:
    """The ``count`` finite numbers ``text`` (``el/@attribute``); a diagnostic when
    unreadable."""
    values = state.numbers.value(text)
    if values is None or len(values) != count:
        state.error(Code.ATTRIBUTE_INVALID, f"<{tag_of(el)} {attribute}='{text}'> is not "
                    f"{count} finite number{'s' if count > 1 else ''}", el)
        return None
    return values


def number(el, attribute: str, state: UrdfState, default: float | None = None,
           required: bool = False) -> float | None:
    return attribute_number(el.get(attribute), el, attribute, state, default, required)


@overload
def attribute_number(text: str | None, el, attribute: str, state: UrdfState,
                     default: float, required: bool = False) -> float:
    ...


@overload
def attribute_number(text: str | None, el, attribute: str, state: UrdfState,
                     default: None = None, required: bool = False) -> float | None:
    ...


def attribute_number(text: str | None, el, attribute: str, state: UrdfState,
                     default: float | None = None, required: bool = False) -> float | None:
    """:func:`number` of the text of ``el/@attribute`` already read (None: no attribute):
    elements whose attributes are all kept read each text once."""
    if text is None:
        if required:
            state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(el)}> needs the attribute [{attribute}]",
                        el)
        return default
    values = state.numbers.get(text)
    if values is not None and len(values) == 1:
        return values[0]
    return text_number(text, el, attribute, state, default)


@overload
def text_number(text: str, el, attribute: str, state: UrdfState, default: float) -> float:
    ...


@overload
def text_number(text: str, el, attribute: str, state: UrdfState,
                default: None) -> float | None:
    ...


def text_number(text: str, el, attribute: str, state: UrdfState,
                default: float | None) -> float | None:
    """The one finite number ``text`` (``el/@attribute``), or ``default`` and a diagnostic."""
    values = state.numbers.get(text) or state.numbers.read(text)
    if values is not None and len(values) == 1:
        return values[0]
    text_numbers(text, el, attribute, 1, state)  # reports the problem
    return default


# ---- origins -------------------------------------------------------------------------

def read_origin(origin, parent_el, state: UrdfState, relative_to: str | None) -> PoseSpec:
    """The pose of ``parent_el``'s ``<origin>`` (``origin``; None when it has none)."""
    if origin is None:
        return PoseSpec(IDENTITY, relative_to, "", source=state.src(parent_el))
    return read_xyz_rpy(origin, state, relative_to)


def read_xyz_rpy(origin, state: UrdfState, relative_to: str | None) -> PoseSpec:
    """The pose an element's ``xyz`` and ``rpy`` attributes give (an ``<origin>``, or
    Drake's ``<frame>``), keeping their text."""
    xyz_text, rpy_text = origin.get("xyz"), origin.get("rpy")
    known = state.numbers
    xyz = rpy = ZERO3
    if xyz_text is not None:
        xyz = known.get(xyz_text) or known.read(xyz_text)
        if xyz is None or len(xyz) != 3:
            xyz = text_numbers(xyz_text, origin, "xyz", 3, state) or ZERO3
    if rpy_text is not None:
        rpy = known.get(rpy_text) or known.read(rpy_text)
        if rpy is None or len(rpy) != 3:
            rpy = text_numbers(rpy_text, origin, "rpy", 3, state) or ZERO3
    return PoseSpec(Pose.from_float_rpy(xyz, rpy), relative_to,
                    f"{xyz_text or '0 0 0'} {rpy_text or '0 0 0'}",
                    source=state.src(origin), xyz_text=xyz_text, rpy_text=rpy_text)


# ---- inertials -----------------------------------------------------------------------

def read_inertial(el, state: UrdfState) -> Inertial:
    parts = first_children(el, INERTIAL_PARTS)
    inertial = Inertial(source=state.src(el),
                        pose=read_origin(parts.get("origin"), el, state, None))
    mass = parts.get("mass")
    if mass is None:
        state.error(Code.ELEMENT_MISSING, "<inertial> needs a <mass>", el)
    else:
        inertial.mass = read_moment(mass.get("value"), mass, "value", "mass", inertial, state)
    inertia = parts.get("inertia")
    if inertia is None:
        read_missing_inertia(el, inertial, state)
    else:
        read_inertia(inertia, inertial, state)
    return inertial


def read_missing_inertia(el, inertial: Inertial, state: UrdfState) -> None:
    """An ``<inertial>`` without ``<inertia>``: urdfdom, libsdformat and Drake read its
    mass with a zero inertia tensor (a point mass); so do we, with a warning."""
    inertial.ixx = inertial.iyy = inertial.izz = 0.0
    state.warning(Code.URDF_INERTIA_MISSING, "<inertial> has no <inertia>: read as a point "
                  f"mass of {inertial.texts.get('mass', '0')} with a zero inertia tensor, as "
                  "urdfdom, libsdformat and Drake read it", el)


def read_inertia(inertia, inertial: Inertial, state: UrdfState) -> None:
    """The six moments of ``<inertia>`` (each as :func:`read_moment` reads a number; the
    attributes taken in one call, the loop written out: one for each link)."""
    attributes = dict(inertia.items())
    texts, known, values = inertial.texts, state.numbers, []
    for key in INERTIA_KEYS:
        text = attributes.get(key)
        if text is None:
            state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(inertia)}> needs the attribute [{key}]",
                        inertia)
            values.append(0.0)
            continue
        texts[key] = text
        value = known.get(text)
        values.append(value[0] if value is not None and len(value) == 1 else
                      text_number(text, inertia, key, state, 0.0))
    inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz, inertial.izz = values


def read_moment(text: str | None, el, attribute: str, key: str, inertial: Inertial,
                state: UrdfState) -> float:
    """A required number of an inertial (``text``: ``el/@attribute``; 0 when missing or
    unreadable), its text kept."""
    if text is None:
        state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(el)}> needs the attribute [{attribute}]", el)
        return 0.0
    inertial.texts[key] = text
    values = state.numbers.get(text)
    if values is not None and len(values) == 1:
        return values[0]
    return text_number(text, el, attribute, state, 0.0)


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
                      f"libsdformat refuses in SDFormat ({problem}); urdf2sdf repairs it "
                      "(--keep-inertia keeps it as written)", el)


# ---- shapes --------------------------------------------------------------------------

def carry(carried: list, kind: str, state: UrdfState, where: str) -> list:
    """The children of a ``kind`` element URDF does not define (a typo like ``<orign>``,
    pybullet's ``<contact>``, a ``drake:`` element, the ``<sensor>`` extension): recorded
    for one warning per tag and place, and returned, to be carried."""
    for child in carried:
        state.unknown.setdefault((child.tag, kind), []).append((child, where))
    return carried


def read_shape(el, state: UrdfState, materials: dict[str, Material], link_name: str) -> Shape:
    """A ``<visual>`` or ``<collision>`` of link ``link_name`` (``materials``: the
    robot-level ones); what URDF does not define in it (Drake's
    ``<drake:proximity_properties>``) is carried."""
    origin = geometry = material = None
    carried = []
    for child in el:  # the first of each (first_children, written out: one for each shape)
        tag = child.tag
        if tag == "origin":
            origin = child if origin is None else origin
        elif tag == "geometry":
            geometry = child if geometry is None else geometry
        elif tag == "material":
            material = child if material is None else material
        elif isinstance(tag, str):
            carried.append(child)
    shape = Shape(name=el.get("name"), pose=read_origin(origin, el, state, None),
                  source=state.src(el), xml=el)
    if carried:
        kind = tag_of(el)
        shape.carried = carry(carried, kind, state, shape_place(kind, el.get("name"), link_name))
    if geometry is None:
        state.error(Code.ELEMENT_MISSING, f"<{tag_of(el)}> needs a <geometry>", el)
    else:
        shape.geometry = read_geometry(geometry, state)
    if material is not None:
        shape.material = read_material(material, state, materials)
    return shape


def shape_place(kind: str, name: str | None, link_name: str) -> str:
    """How a message names a shape: ``collision [c] of link [a]``, or ``a collision of link
    [a]`` when it has no name."""
    return f"{kind} [{name}] of link [{link_name}]" if name else f"a {kind} of link [{link_name}]"


def read_geometry(el, state: UrdfState) -> Geometry | None:
    shapes = only_element(el) or [c for c in el if isinstance(c.tag, str)]
    if not shapes:
        state.error(Code.ELEMENT_INVALID, "<geometry> needs exactly one shape", el)
        return None
    shape = shapes[0]
    if len(shapes) > 1:  # urdfdom and Drake read the first child too
        state.warning(Code.ELEMENT_INVALID, f"<geometry> holds <{tag_of(shape)}> and also "
                      f"{', '.join(f'<{tag_of(c)}>' for c in shapes[1:])}; only the first is read "
                      "(as urdfdom and Drake do)", shapes[1])
    kind = sys.intern(shape.tag)
    texts = interned_attributes(shape)  # each number below read from these texts
    geometry = Geometry(kind=kind, source=state.src(shape), xml=shape, texts=texts)
    if kind == "box":
        size = texts.get("size")
        if size is None:
            state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(shape)}> needs the attribute [size]",
                        shape)
        else:
            geometry.size = text_numbers(size, shape, "size", 3, state)
    elif kind == "cylinder":
        geometry.radius = attribute_number(texts.get("radius"), shape, "radius", state,
                                           required=True)
        geometry.length = attribute_number(texts.get("length"), shape, "length", state,
                                           required=True)
    elif kind == "sphere":
        geometry.radius = attribute_number(texts.get("radius"), shape, "radius", state,
                                           required=True)
    elif kind == "mesh":
        geometry.uri = texts.get("filename")
        if not geometry.uri:
            state.error(Code.ATTRIBUTE_MISSING, "<mesh> needs a filename", shape)
        read_mesh_scale(shape, geometry, state)
    else:
        state.warning(Code.ELEMENT_INVALID, f"<geometry> shape <{tag_of(shape)}> is not URDF",
                      shape)
    return geometry


def only_element(el) -> list:
    """``[child]`` when ``el``'s one child is an element (the common case, found without a
    loop), else ``[]``."""
    if len(el) == 1:
        child = el[0]
        if isinstance(child.tag, str):
            return [child]
    return []


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
            x, y, z = values  # three tokens, each a number
            geometry.scale = (x, y, z)
            return
    scale = numbers(shape, "scale", 3, state)
    geometry.scale = scale if scale else None


def read_material(el, state: UrdfState, defined: dict[str, Material]) -> Material:
    material = Material(name=el.get("name"), source=state.src(el), xml=el)
    parts = first_children(el, MATERIAL_PARTS) if len(el) else {}
    color = parts.get("color")
    material.reference = len(parts) == 0
    if color is not None:
        rgba_text = color.get("rgba")
        if rgba_text is None:
            state.error(Code.ATTRIBUTE_MISSING, f"<{tag_of(color)}> needs the attribute [rgba]",
                        color)
        else:
            rgba = text_numbers(rgba_text, color, "rgba", 4, state)
            if rgba is not None:
                material.color, material.color_text = rgba, rgba_text
    texture = parts.get("texture")
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


# ---- joint limits --------------------------------------------------------------------

def read_limit(limit_el, joint, el, state: UrdfState) -> Limit | None:
    """``<limit>`` of ``joint`` (``limit_el``, None when the joint ``el`` has none)."""
    if limit_el is None:
        if joint.type in ("revolute", "prismatic"):
            state.error(Code.ELEMENT_MISSING, f"{joint.type} joint [{joint.name}] needs a <limit>",
                        el)
        return None
    needs_all = joint.type in ("revolute", "prismatic")
    texts = interned_attributes(limit_el)  # each number read from these texts
    limit = Limit(attribute_number(texts.get("lower"), limit_el, "lower", state, 0.0),
                  attribute_number(texts.get("upper"), limit_el, "upper", state, 0.0),
                  attribute_number(texts.get("effort"), limit_el, "effort", state, None,
                                   required=needs_all),
                  attribute_number(texts.get("velocity"), limit_el, "velocity", state, None,
                                   required=needs_all),
                  texts)
    limit.attributes = unknown_attributes(limit_el, "limit", state,
                                          f"the <limit> of joint [{joint.name}]")
    if limit.lower is not None and limit.upper is not None and limit.lower > limit.upper \
            and needs_all:
        # urdfdom reads it, pybullet means "no limit", libsdformat swaps the two, Drake
        # refuses the joint: the readers disagree, so the numbers are kept as written.
        state.warning(Code.URDF_LIMIT_INVALID, f"joint [{joint.name}] has lower limit "
                      f"{limit.lower} above its upper limit {limit.upper}; kept as written "
                      "(pybullet reads it as no limit, libsdformat swaps the two, Drake "
                      "refuses the joint)", limit_el)
    return limit
