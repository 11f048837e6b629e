"""Attributes SDFormat does not define that an SDF ``<visual>`` or ``<collision>`` has, on
itself or on an element below it, and where the URDF shape made from it holds them: read
by sdf2urdf (which carries them, ``sdf2urdf.attributes``) and by ``urdf-sdf diff``
(``core.diff.attributes``).

A shape whose geometry URDF states (a box, cylinder, sphere or mesh) becomes a URDF
``<visual>`` or ``<collision>``; what it says is walked element by element
(:data:`WALKED`). A namespaced attribute (``drake:foo``, ``custom:test``) of the shape goes
on the URDF shape, one of its ``<pose>`` on the ``<origin>``, of its ``<geometry>``, the
``<box>`` in it or a visual's ``<material>`` on the URDF element of that name
(:data:`URDF_ELEMENT`). An element whose value URDF writes as an attribute (a box's
``<size>``, a mesh's ``<uri>``, a material's ``<diffuse>``) has no URDF element to hold
one: its attributes are dropped. So is an attribute in no namespace that SDFormat does
not define (libsdformat ignores it), wherever it is.

Not walked: content sdf2urdf keeps as SDF in a ``<gazebo>`` block (a shape of other
geometry, a collision's ``<surface>``, a visual's ``<transparency>``...), whose copy keeps
its attributes; elements of other namespaces (``<drake:proximity_properties>``); and
``urdf:`` attributes, urdf2sdf's own markup.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.read.carried_attributes import SDF_DEFINED
from urdf_sdf.core.read.prefixes import namespaced
from urdf_sdf.core.read.sdf_elements import PRIMITIVES

# The children walked below each element of a URDF-stated shape.
WALKED = {
    "visual": ("pose", "geometry", "material"),
    "collision": ("pose", "geometry"),
    "geometry": PRIMITIVES,
    "box": ("size",),
    "cylinder": ("radius", "length"),
    "sphere": ("radius",),
    "mesh": ("uri", "scale"),
    "material": ("ambient", "diffuse", "specular", "emissive"),
}
# The URDF element that states a walked SDF element (the others' values are attributes).
URDF_ELEMENT = {"pose": "origin", "geometry": "geometry", "box": "box",
                "cylinder": "cylinder", "sphere": "sphere", "mesh": "mesh",
                "material": "material"}
_NONE: frozenset[str] = frozenset()
_URDF = f"{{{URDF_NS}}}"


@dataclass
class ShapeAttributes:
    """What :func:`shape_attributes` found: ``placed``, the namespaced attributes (by
    ``{uri}local`` name) of each URDF element by its path in the URDF shape (``""``: the
    shape, ``geometry/box``); ``dropped``, ``(SDF element, attribute name as written,
    its path in the SDF shape)`` of each the URDF has no place for."""
    placed: dict[str, dict[str, str]] = field(default_factory=dict)
    dropped: list[tuple[Any, str, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.placed or self.dropped)


def shape_attributes(shape_el) -> ShapeAttributes:
    """The attributes of SDF visual or collision ``shape_el`` (None-safe) and of the
    elements below it that SDFormat does not define (see the module)."""
    found = ShapeAttributes()
    if shape_el is not None and has_attributes(shape_el):
        walk(shape_el, "", "", found)
    return found


def has_attributes(shape_el) -> bool:
    """Whether an element of ``shape_el``'s tree has an attribute, the shape's ``name`` and
    urdf2sdf's markup aside: most shapes have none, found without walking them."""
    for name in shape_el.keys():
        if name != "name" and not name.startswith(_URDF):
            return True
    for el in islice(shape_el.iter(), 1, None):
        for name in el.keys():
            if not name.startswith(_URDF):
                return True
    return False


def walk(el, path: str, urdf_path: str | None, found: ShapeAttributes) -> None:
    """Add the attributes of ``el`` (at ``path`` in the SDF shape; ``urdf_path``: its URDF
    element's path, None when it has none) and of the walked elements below it."""
    tag = el.tag
    if el.attrib:
        defined = SDF_DEFINED.get(tag, _NONE)
        for name, value in el.items():
            if name in defined or name.startswith(_URDF):
                continue
            qualified = namespaced(name)
            if qualified is not None and urdf_path is not None:
                found.placed.setdefault(urdf_path, {})[qualified] = value
            else:
                found.dropped.append((el, name, path))
    walked = WALKED.get(tag)
    if walked is None:
        return
    for child in el.iterchildren(*walked):
        step = child.tag
        urdf_step = URDF_ELEMENT.get(step) if urdf_path is not None else None
        walk(child, f"{path}/{step}" if path else step, joined(urdf_path, urdf_step), found)


def joined(path: str | None, step: str | None) -> str | None:
    """``path/step`` (either alone when the other is ``""``, the shape); None when either
    is None."""
    if path is None or step is None:
        return None
    return f"{path}/{step}" if path and step else path or step


def link_shape_parts(link) -> dict[str, dict[str, str]]:
    """The namespaced attributes of the URDF-stated shapes of SDF link ``link`` (a model
    value), by the path of their element in the URDF link sdf2urdf writes
    (``visual[1]/geometry/box``, the n-th URDF visual: shapes of other geometry go to a
    ``<gazebo>`` block, and are not counted); those the URDF has no place for at their
    SDF path (``visual[1]/geometry/box/size``), so that ``diff`` sees them lost."""
    parts: dict[str, dict[str, str]] = {}
    for kind, shapes in (("visual", link.visuals), ("collision", link.collisions)):
        count = 0
        for shape in shapes:
            if shape.geometry is None or shape.geometry.kind not in PRIMITIVES:
                continue
            count += 1
            found = shape_attributes(shape.xml)
            if not found:
                continue
            where = f"{kind}[{count}]"
            for path, attributes in found.placed.items():
                parts[joined(where, path) or where] = attributes
            for el, name, path in found.dropped:
                qualified = namespaced(name)
                if qualified is not None:
                    parts.setdefault(joined(where, path) or where, {})[qualified] = el.get(name)
    return parts
