"""SDFormat elements from ``core.base.model`` values: the serialisation ``urdf2sdf`` uses.

Pure writing: :func:`model_document` is the document a model is written into
(``core.write.document``), and every other function makes the SDF form of a value it is
given, as a ``core.write.text`` node, and decides nothing about what is converted where
(that is ``urdf2sdf``'s policy). Numbers that
came from a source file are written as the source's text; computed numbers with
``core.write.common.number_text``.
"""
from __future__ import annotations

from typing import overload

from lxml import etree

from urdf_sdf.core.base.custom import PREFIX, URDF_NS, qname
from urdf_sdf.core.base.inertia import INERTIA_KEYS
from urdf_sdf.core.base.model import Geometry, Inertial, Material, Mimic, PoseSpec
from urdf_sdf.core.write.common import new_document, number_text, to_bytes
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.text import Node

PRIMITIVES = ("box", "cylinder", "sphere", "mesh")
ORIGIN, XYZ, RPY = qname("origin"), qname("xyz"), qname("rpy")
IMPLICIT, TEXTURE = qname("implicit"), qname("texture")


def model_document(version: str, name: str, streamed: bool = True,
                   namespaces: dict[str, str] | None = None) -> Document:
    """``<sdf version=...><model name=...>`` (the ``urdf`` prefix declared, and
    ``namespaces``: prefix -> URI), the model's children to be written through the
    document (``streamed=False``: the tree is changed once they are written)."""
    root = new_document(version, namespaces=namespaces)
    prefixes = {URDF_NS: PREFIX}
    if namespaces:
        prefixes.update({uri: prefix for prefix, uri in namespaces.items()})
    return Document(root, etree.SubElement(root, "model", name=name), depth=2, serialise=to_bytes,
                    prefixes=prefixes, streamed=streamed)


@overload
def pose_node(pose: PoseSpec, relative_to: str, keep_empty: bool = False) -> Node:
    ...


@overload
def pose_node(pose: PoseSpec, relative_to: str | None = None,
              keep_empty: bool = False) -> Node | None:
    ...


def pose_node(pose: PoseSpec, relative_to: str | None = None,
              keep_empty: bool = False) -> Node | None:
    """``<pose>`` with the URDF origin's text; ``urdf:origin`` lists the attributes the
    origin had when it lacked one, so that sdf2urdf writes back exactly the same. None for
    an absent origin (unless ``relative_to`` or ``keep_empty``)."""
    xyz, rpy = pose.xyz_text, pose.rpy_text
    if xyz is None and rpy is None:
        if not keep_empty and relative_to is None:
            return None
        return ("pose", {} if relative_to is None else {"relative_to": relative_to}, [])
    attributes = {} if relative_to is None else {"relative_to": relative_to}
    text = f"{xyz if xyz is not None else '0 0 0'} {rpy if rpy is not None else '0 0 0'}"
    if xyz is None or rpy is None:
        attributes[ORIGIN] = "xyz" if rpy is None else "rpy"
    if xyz is not None and xyz != " ".join(xyz.split()):
        attributes[XYZ] = xyz  # spacing SDF's token list cannot keep
    if rpy is not None and rpy != " ".join(rpy.split()):
        attributes[RPY] = rpy
    return ("pose", attributes, text)


def inertial_node(inertial: Inertial) -> Node:
    """``<inertial>``: the origin's text as the pose, mass and inertia as their text (or,
    for a computed value without text, its shortest round-trip form)."""
    texts = inertial.texts
    pose = pose_node(inertial.pose)
    children = [] if pose is None else [pose]
    children.append(("mass", {}, texts.get("mass") or repr(inertial.mass)))
    moments: list[Node] = [(key, {}, texts.get(key) or number_text(getattr(inertial, key)))
               for key in INERTIA_KEYS]
    children.append(("inertia", {}, moments))
    return ("inertial", {}, children)


def massless_inertial_node() -> Node:
    """What a URDF link without ``<inertial>`` means, stated explicitly: mass 0 and a zero
    inertia (an SDF link without ``<inertial>`` would weigh 1 kg). ``urdf:implicit`` tells
    sdf2urdf that the URDF had no ``<inertial>`` element."""
    return ("inertial", {IMPLICIT: "true"},
            [("mass", {}, "0"), ("inertia", {}, [(key, {}, "0") for key in INERTIA_KEYS])])


def geometry_node(geometry: Geometry, mesh_uri: str) -> Node | None:
    """``<geometry>`` of a URDF primitive or mesh (``mesh_uri`` as given); None for a
    shape SDF has no element for."""
    texts = geometry.texts
    kind = geometry.kind
    shape: Node
    if kind == "box":
        shape = ("box", {}, _values(("size", texts.get("size"))))
    elif kind == "cylinder":
        shape = ("cylinder", {}, _values(("radius", texts.get("radius")),
                                        ("length", texts.get("length"))))
    elif kind == "sphere":
        shape = ("sphere", {}, _values(("radius", texts.get("radius"))))
    elif kind == "mesh":
        values: list[Node] = [("uri", {}, mesh_uri)]
        if "scale" in texts:
            values.append(("scale", {}, texts["scale"]))
        shape = ("mesh", {}, values)
    else:
        return None
    return ("geometry", {}, [shape])


def _values(*pairs: tuple[str, str | None]) -> list[Node]:
    """An element for each value that has a text (an empty one for one that has none)."""
    return [(tag, {}, text if text is not None else []) for tag, text in pairs]


def material_node(material: Material) -> Node:
    """URDF rgba -> SDF ``<ambient>`` and ``<diffuse>`` (the same text in both); the
    material's name, a reference to a robot-level material and a texture travel as
    ``urdf:`` markup."""
    attributes = {}
    if material.name:
        attributes[qname("name")] = material.name
    if material.reference:
        attributes[qname("reference")] = "true"
    children: list[Node] = []
    if material.color_text is not None:
        children += [("ambient", {}, material.color_text), ("diffuse", {}, material.color_text)]
    if material.texture is not None:
        children.append((TEXTURE, {"filename": material.texture}, []))
    return ("material", attributes, children)


def axis_node(xyz_text: str, joint, limit_attributes: dict[str, str] | None = None
              ) -> tuple[str, dict[str, str], list[Node]]:
    """``<axis>`` with ``xyz_text``, the joint's limits (revolute and prismatic joints get
    URDF's default lower and upper of 0 when the URDF gave none; ``limit_attributes``: the
    ``<limit>``'s attributes) and dynamics."""
    children: list[Node] = [("xyz", {}, xyz_text)]
    limit = joint.limit
    bounded = joint.type in ("revolute", "prismatic")
    if limit is not None or bounded:
        texts = limit.texts if limit is not None else {}
        bounds: list[Node] = [("lower", {}, texts.get("lower", "0")),
                  ("upper", {}, texts.get("upper", "0"))] if bounded else []
        bounds += [(key, {}, texts[key]) for key in ("effort", "velocity") if key in texts]
        children.append(("limit", limit_attributes or {}, bounds))
    if joint.dynamics is not None:
        texts = joint.dynamics.texts
        children.append(("dynamics", {}, [(key, {}, texts[key]) for key in ("damping", "friction")
                                          if key in texts]))
    return ("axis", {}, children)


def axis_mimic_node(mimic: Mimic) -> Node:
    """``//axis/mimic`` (SDFormat 1.11) with the URDF's multiplier and offset text."""
    return ("mimic", {"joint": mimic.joint, "axis": "axis"},
            [("multiplier", {}, mimic.texts.get("multiplier", "1")),
             ("offset", {}, mimic.texts.get("offset", "0"))])
