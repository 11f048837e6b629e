"""URDF elements from ``core.base.model`` values: the serialisation ``sdf2urdf`` uses.

Pure writing: ``sdf2urdf`` decides which pose an ``<origin>`` holds (a copied text or a
computed pose), which name an element gets and what is kept elsewhere; these functions
make the elements of what they are given, as ``core.write.text`` nodes, and
:func:`robot_document` is the document a robot is written into (``core.write.document``).
Copied numbers keep their text; computed ones are written with
``core.write.common.number_text`` (shortest round trip, no negative zero).
"""
from __future__ import annotations

from copy import deepcopy

from lxml import etree

from urdf_sdf.core.base.custom import markup
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.base.model import Geometry, Inertial, Material, PoseSpec
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.read.prefixes import declare_undeclared_prefixes, has_undeclared_prefixes
from urdf_sdf.core.write.common import NumberTexts, document_bytes, number_text, numbers_text
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.text import Node

PRIMITIVES = ("box", "cylinder", "sphere", "mesh")


def robot_document(name: str, streamed: bool = True,
                   namespaces: dict[str, str] | None = None) -> Document:
    """``<robot name=...>``, its children to be written through the document
    (``streamed=False``: for its tree, to merge with others), declaring ``namespaces``
    (prefix -> URI: those of the robot's own attributes)."""
    robot = etree.Element("robot", name=name, nsmap=namespaces)
    return Document(robot, robot, depth=1, serialise=to_bytes, prepare=ready_to_serialise,
                    streamed=streamed)


def close_robot(document: Document, file: str | None, diagnostics: Diagnostics) -> None:
    """The robot's last step before its bytes: a prefix the input used without declaring
    it gets a declaration (``core.read.prefixes.declare_undeclared_prefixes``), unused
    declarations go."""
    declare_undeclared_prefixes(document.root, file, diagnostics)
    etree.cleanup_namespaces(document.root)


def split_pose_text(spec: PoseSpec | None) -> dict[str, str] | None:
    """``{"xyz": ..., "rpy": ...}`` texts of a copyable pose, or None for the identity.

    A ``urdf:origin`` attribute (written by urdf2sdf) names the only attribute the
    URDF origin had, and only that one is given back.
    """
    if spec is None:
        return None
    tokens = spec.text.split()
    if len(tokens) != 6:
        return None
    texts = {"xyz": " ".join(tokens[:3]), "rpy": " ".join(tokens[3:])}
    if not spec.markup:  # most poses: nothing urdf2sdf kept of the URDF's attributes
        return texts
    for name in texts:
        raw = markup(spec, name)
        if raw is not None and raw.split() == texts[name].split():
            texts[name] = raw  # the URDF attribute's exact text, spacing included
    only = markup(spec, "origin")
    if only in texts:
        return {only: texts[only]}
    return texts


def copied_origin(spec: PoseSpec | None) -> Node | None:
    """``<origin>`` with the pose's text; None for an identity pose without text."""
    texts = split_pose_text(spec)
    return None if texts is None else ("origin", texts, [])


def computed_origin(pose: Pose) -> Node | None:
    """A computed ``<origin>`` with shortest round-trip numbers; None for the identity."""
    if pose.position == (0.0, 0.0, 0.0) and pose.rotation == (1.0, 0.0, 0.0, 0.0):
        return None
    rpy = pose.rpy()
    return ("origin", {"xyz": numbers_text(pose.position), "rpy": numbers_text(rpy)}, [])


def inertial_value_nodes(inertial: Inertial, texts: NumberTexts) -> list[Node]:
    """``<mass>`` and ``<inertia>`` of an ``<inertial>`` (its origin comes before); the
    numbers' texts from ``texts`` (:func:`number_text`, once per value)."""
    return [("mass", {"value": texts[inertial.mass]}, []),
            ("inertia", {"ixx": texts[inertial.ixx], "ixy": texts[inertial.ixy],
                         "ixz": texts[inertial.ixz], "iyy": texts[inertial.iyy],
                         "iyz": texts[inertial.iyz], "izz": texts[inertial.izz]}, [])]


def geometry_node(geometry: Geometry, mesh_uri: str) -> Node:
    """``<geometry>`` of a primitive (URDF's defaults for missing sizes) or a mesh."""
    texts = geometry.texts
    shape: Node
    if geometry.kind == "box":
        shape = ("box", {"size": texts.get("size", "1 1 1")}, [])
    elif geometry.kind == "cylinder":
        shape = ("cylinder", {"radius": texts.get("radius", "1"),
                              "length": texts.get("length", "1")}, [])
    elif geometry.kind == "sphere":
        shape = ("sphere", {"radius": texts.get("radius", "1")}, [])
    else:
        attributes = {"filename": mesh_uri}
        if "scale" in texts:
            attributes["scale"] = texts["scale"]
        shape = ("mesh", attributes, [])
    return ("geometry", {}, [shape])


def material_node(material: Material, name: str) -> Node:
    """``<material name=...>`` with its colour (the SDF text when it is four numbers) and
    texture; only the name for a reference to a robot-level material."""
    children: list[Node] = []
    if markup(material, "reference") != "true":
        if material.color is not None:
            rgba = material.color_text if material.color_text and \
                len(material.color_text.split()) == 4 else numbers_text(material.color)
            children.append(("color", {"rgba": rgba}, []))
        if material.texture is not None:
            children.append(("texture", {"filename": material.texture}, []))
    return ("material", {"name": name}, children)


def dynamics_node(dynamics) -> Node | None:
    """``<dynamics>`` with the damping and friction that are set (source text kept)."""
    if dynamics is None or (dynamics.damping is None and dynamics.friction is None):
        return None
    attributes = {k: dynamics.texts.get(k, number_text(v)) for k, v in
                  (("damping", dynamics.damping), ("friction", dynamics.friction))
                  if v is not None}
    return ("dynamics", attributes, [])


def mimic_node(joint_name: str, mimic) -> Node:
    """``<mimic>`` of joint ``joint_name`` (its URDF name), source text kept."""
    return ("mimic", {"joint": joint_name,
                      "multiplier": mimic.texts.get("multiplier", number_text(mimic.multiplier)),
                      "offset": mimic.texts.get("offset", number_text(mimic.offset))}, [])


def copy_element(el):
    """A copy of an SDF element without the source's unused namespace declarations."""
    copy = deepcopy(el)
    copy.tail = None
    etree.cleanup_namespaces(copy)
    return copy


def to_bytes(robot) -> bytes:
    """The document's bytes: UTF-8 declaration, two-space indentation."""
    etree.indent(robot, space="  ")
    return document_bytes(robot, pretty_print=True)


def ready_to_serialise(robot) -> bool:
    """A tree holding a batch of the robot's children (``core.write.stream``) as
    ``sdf2urdf`` leaves the whole tree: no unused namespace declarations. False (stream
    no more) when a name with an undeclared prefix needs a declaration on ``<robot>``,
    which only the whole tree can get."""
    if has_undeclared_prefixes(robot):
        return False
    etree.cleanup_namespaces(robot)
    return True
