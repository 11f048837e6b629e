"""URDF elements from ``core.model`` values: the serialisation ``sdf2urdf`` uses.

Pure writing: ``sdf2urdf`` decides which pose an ``<origin>`` holds (a copied text or a
computed pose), which name an element gets and what is kept elsewhere; these functions
write what they are given. Copied numbers keep their text; computed ones are written
with ``core.write.common.number_text`` (shortest round trip, no negative zero).
"""
from __future__ import annotations

from copy import deepcopy

from lxml import etree

from urdf_sdf.core.custom import markup
from urdf_sdf.core.model import Geometry, Inertial, Material, PoseSpec
from urdf_sdf.core.pose import Pose
from urdf_sdf.core.write.common import (document_bytes, has_undeclared_prefixes, number_text,
                                       numbers_text)

INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
PRIMITIVES = ("box", "cylinder", "sphere", "mesh")


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
    for name in texts:
        raw = markup(spec, name)
        if raw is not None and raw.split() == texts[name].split():
            texts[name] = raw  # the URDF attribute's exact text, spacing included
    only = markup(spec, "origin")
    if only in texts:
        return {only: texts[only]}
    return texts


def copied_origin(parent_el, spec: PoseSpec | None) -> None:
    """``<origin>`` with the pose's text; nothing for an identity pose without text."""
    texts = split_pose_text(spec)
    if texts is not None:
        etree.SubElement(parent_el, "origin", **texts)


def computed_origin(parent_el, pose: Pose) -> None:
    """A computed ``<origin>`` with shortest round-trip numbers; none for the identity."""
    if pose.position == (0.0, 0.0, 0.0) and pose.rotation == (1.0, 0.0, 0.0, 0.0):
        return
    rpy = pose.rpy()
    etree.SubElement(parent_el, "origin", xyz=numbers_text(pose.position), rpy=numbers_text(rpy))


def write_inertial_values(inertial_el, inertial: Inertial) -> None:
    """``<mass>`` and ``<inertia>`` of an ``<inertial>`` (its origin written before)."""
    etree.SubElement(inertial_el, "mass", value=number_text(inertial.mass))
    etree.SubElement(inertial_el, "inertia", **{
        key: number_text(getattr(inertial, key)) for key in INERTIA_KEYS})


def write_geometry(shape_el, geometry: Geometry, mesh_uri: str) -> None:
    """``<geometry>`` of a primitive (URDF's defaults for missing sizes) or a mesh."""
    geometry_el = etree.SubElement(shape_el, "geometry")
    texts = geometry.texts
    if geometry.kind == "box":
        etree.SubElement(geometry_el, "box", size=texts.get("size", "1 1 1"))
    elif geometry.kind == "cylinder":
        etree.SubElement(geometry_el, "cylinder", radius=texts.get("radius", "1"),
                         length=texts.get("length", "1"))
    elif geometry.kind == "sphere":
        etree.SubElement(geometry_el, "sphere", radius=texts.get("radius", "1"))
    else:
        mesh = etree.SubElement(geometry_el, "mesh", filename=mesh_uri)
        if "scale" in texts:
            mesh.set("scale", texts["scale"])


def write_material(shape_el, material: Material, name: str) -> None:
    """``<material name=...>`` with its colour (the SDF text when it is four numbers) and
    texture; only the name for a reference to a robot-level material."""
    material_el = etree.SubElement(shape_el, "material", name=name)
    if markup(material, "reference") == "true":
        return
    if material.color is not None:
        etree.SubElement(material_el, "color",
                         rgba=material.color_text if material.color_text and
                         len(material.color_text.split()) == 4 else numbers_text(material.color))
    if material.texture is not None:
        etree.SubElement(material_el, "texture", filename=material.texture)


def write_dynamics(joint_el, dynamics) -> None:
    """``<dynamics>`` with the damping and friction that are set (source text kept)."""
    if dynamics is None or (dynamics.damping is None and dynamics.friction is None):
        return
    attributes = {k: dynamics.texts.get(k, number_text(v)) for k, v in
                  (("damping", dynamics.damping), ("friction", dynamics.friction))
                  if v is not None}
    etree.SubElement(joint_el, "dynamics", **attributes)


def write_mimic(joint_el, joint_name: str, mimic) -> None:
    """``<mimic>`` of joint ``joint_name`` (its URDF name), source text kept."""
    etree.SubElement(joint_el, "mimic", joint=joint_name,
                     multiplier=mimic.texts.get("multiplier", number_text(mimic.multiplier)),
                     offset=mimic.texts.get("offset", number_text(mimic.offset)))


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
