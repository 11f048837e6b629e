"""SDFormat elements from ``core.model`` values: the serialisation ``urdf2sdf`` uses.

Pure writing: every function appends the SDF form of a value it is given and decides
nothing about what is converted where (that is ``urdf2sdf``'s policy). Numbers that
came from a source file are written as the source's text; computed numbers with
``core.write.common.number_text``.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.custom import qname
from urdf_sdf.core.model import Geometry, Inertial, Material, Mimic, PoseSpec
from urdf_sdf.core.write.common import leaf, number_text, sub

INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
PRIMITIVES = ("box", "cylinder", "sphere", "mesh")
ORIGIN, XYZ, RPY = qname("origin"), qname("xyz"), qname("rpy")
_SubElement = etree.SubElement


def origin_text(pose: PoseSpec) -> str:
    """``xyz rpy`` as written in the URDF (``0 0 0`` for an absent attribute), or ``""``
    when there was no ``<origin>``."""
    if pose.xyz_text is None and pose.rpy_text is None:
        return ""
    return f"{pose.xyz_text if pose.xyz_text is not None else '0 0 0'} " \
           f"{pose.rpy_text if pose.rpy_text is not None else '0 0 0'}"


def pose_from_origin(parent_el, pose: PoseSpec, relative_to: str | None = None,
                     keep_empty: bool = False):
    """``<pose>`` with the URDF origin's text; ``urdf:origin`` lists the attributes the
    origin had when it lacked one, so that sdf2urdf writes back exactly the same. No
    element for an absent origin (unless ``relative_to`` or ``keep_empty``)."""
    xyz, rpy = pose.xyz_text, pose.rpy_text
    if xyz is None and rpy is None and not keep_empty and relative_to is None:
        return None
    pose_el = _SubElement(parent_el, "pose") if relative_to is None else \
        _SubElement(parent_el, "pose", {"relative_to": relative_to})
    if xyz is not None or rpy is not None:
        pose_el.text = f"{xyz if xyz is not None else '0 0 0'} " \
                       f"{rpy if rpy is not None else '0 0 0'}"
        if xyz is None or rpy is None:
            pose_el.set(ORIGIN, "xyz" if rpy is None else "rpy")
    if xyz is not None and xyz != " ".join(xyz.split()):
        pose_el.set(XYZ, xyz)  # spacing SDF's token list cannot keep
    if rpy is not None and rpy != " ".join(rpy.split()):
        pose_el.set(RPY, rpy)
    return pose_el


def write_inertial(link_el, inertial: Inertial):
    """``<inertial>``: the origin's text as the pose, mass and inertia as their text (or,
    for a computed value without text, its shortest round-trip form)."""
    inertial_el = _SubElement(link_el, "inertial")
    pose_from_origin(inertial_el, inertial.pose)
    texts = inertial.texts
    _SubElement(inertial_el, "mass").text = texts.get("mass") or repr(inertial.mass)
    inertia_el = _SubElement(inertial_el, "inertia")
    for key in INERTIA_KEYS:
        _SubElement(inertia_el, key).text = texts.get(key) or number_text(getattr(inertial,
                                                                                   key))
    return inertial_el


def write_massless_inertial(link_el) -> None:
    """What a URDF link without ``<inertial>`` means, stated explicitly: mass 0 and a zero
    inertia (an SDF link without ``<inertial>`` would weigh 1 kg). ``urdf:implicit`` tells
    sdf2urdf that the URDF had no ``<inertial>`` element."""
    inertial_el = sub(link_el, "inertial")
    inertial_el.set(qname("implicit"), "true")
    leaf(inertial_el, "mass", "0")
    inertia_el = sub(inertial_el, "inertia")
    for key in INERTIA_KEYS:
        leaf(inertia_el, key, "0")


def write_geometry(shape_el, geometry: Geometry, mesh_uri: str) -> bool:
    """``<geometry>`` of a URDF primitive or mesh (``mesh_uri`` as given); False, with an
    empty ``<geometry>``, for a shape SDF has no element for."""
    geometry_el = _SubElement(shape_el, "geometry")
    texts = geometry.texts
    kind = geometry.kind
    if kind == "box":
        _text(_SubElement(_SubElement(geometry_el, "box"), "size"), texts.get("size"))
    elif kind == "cylinder":
        cylinder = _SubElement(geometry_el, "cylinder")
        _text(_SubElement(cylinder, "radius"), texts.get("radius"))
        _text(_SubElement(cylinder, "length"), texts.get("length"))
    elif kind == "sphere":
        _text(_SubElement(_SubElement(geometry_el, "sphere"), "radius"), texts.get("radius"))
    elif kind == "mesh":
        mesh = _SubElement(geometry_el, "mesh")
        _SubElement(mesh, "uri").text = mesh_uri
        if "scale" in texts:
            _SubElement(mesh, "scale").text = texts["scale"]
    else:
        return False
    return True


def _text(el, text: str | None) -> None:
    if text is not None:
        el.text = text


def write_material(shape_el, material: Material) -> None:
    """URDF rgba -> SDF ``<ambient>`` and ``<diffuse>`` (the same text in both); the
    material's name, a reference to a robot-level material and a texture travel as
    ``urdf:`` markup."""
    material_el = sub(shape_el, "material")
    if material.name:
        material_el.set(qname("name"), material.name)
    if material.reference:
        material_el.set(qname("reference"), "true")
    if material.color_text is not None:
        sub(material_el, "ambient", material.color_text)
        sub(material_el, "diffuse", material.color_text)
    if material.texture is not None:
        texture = sub(material_el, qname("texture"))
        texture.set("filename", material.texture)


def write_axis(joint_el, xyz_text: str, joint):
    """``<axis>`` with ``xyz_text``, the joint's limits (revolute and prismatic joints get
    URDF's default lower and upper of 0 when the URDF gave none) and dynamics."""
    axis_el = _SubElement(joint_el, "axis")
    _SubElement(axis_el, "xyz").text = xyz_text
    limit = joint.limit
    bounded = joint.type in ("revolute", "prismatic")
    if limit is not None or bounded:
        limit_el = _SubElement(axis_el, "limit")
        texts = limit.texts if limit is not None else {}
        if bounded:
            _SubElement(limit_el, "lower").text = texts.get("lower", "0")
            _SubElement(limit_el, "upper").text = texts.get("upper", "0")
        for key in ("effort", "velocity"):
            if key in texts:
                _SubElement(limit_el, key).text = texts[key]
    if joint.dynamics is not None:
        dynamics_el = _SubElement(axis_el, "dynamics")
        for key in ("damping", "friction"):
            if key in joint.dynamics.texts:
                _SubElement(dynamics_el, key).text = joint.dynamics.texts[key]
    return axis_el


def write_axis_mimic(axis_el, mimic: Mimic) -> None:
    """``//axis/mimic`` (SDFormat 1.11) with the URDF's multiplier and offset text."""
    mimic_el = sub(axis_el, "mimic", joint=mimic.joint, axis="axis")
    sub(mimic_el, "multiplier", mimic.texts.get("multiplier", "1"))
    sub(mimic_el, "offset", mimic.texts.get("offset", "0"))
