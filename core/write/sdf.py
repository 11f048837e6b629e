"""SDFormat elements from ``core.model`` values: the serialisation ``urdf2sdf`` uses.

Pure writing: every function appends the SDF form of a value it is given and decides
nothing about what is converted where (that is ``urdf2sdf``'s policy). Numbers that
came from a source file are written as the source's text; computed numbers with
``core.write.common.number_text``.
"""
from __future__ import annotations

from urdf_sdf.core.custom import qname
from urdf_sdf.core.model import Geometry, Inertial, Material, Mimic, PoseSpec
from urdf_sdf.core.write.common import leaf, number_text, sub

INERTIA_KEYS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
PRIMITIVES = ("box", "cylinder", "sphere", "mesh")


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
    text = origin_text(pose)
    if not text and not keep_empty and relative_to is None:
        return None
    pose_el = sub(parent_el, "pose", text or None, relative_to=relative_to)
    present = [name for name, value in (("xyz", pose.xyz_text), ("rpy", pose.rpy_text))
               if value is not None]
    if text and len(present) == 1:
        pose_el.set(qname("origin"), present[0])
    for name, value in (("xyz", pose.xyz_text), ("rpy", pose.rpy_text)):
        if value is not None and value != " ".join(value.split()):
            pose_el.set(qname(name), value)  # spacing SDF's token list cannot keep
    return pose_el


def write_inertial(link_el, inertial: Inertial):
    """``<inertial>``: the origin's text as the pose, mass and inertia as their text (or,
    for a computed value without text, its shortest round-trip form)."""
    inertial_el = sub(link_el, "inertial")
    pose_from_origin(inertial_el, inertial.pose)
    texts = inertial.texts
    leaf(inertial_el, "mass", texts.get("mass") or repr(inertial.mass))
    inertia_el = sub(inertial_el, "inertia")
    for key in INERTIA_KEYS:
        leaf(inertia_el, key, texts.get(key) or number_text(getattr(inertial, key)))
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
    geometry_el = sub(shape_el, "geometry")
    texts = geometry.texts
    if geometry.kind == "box":
        sub(sub(geometry_el, "box"), "size", texts.get("size"))
    elif geometry.kind == "cylinder":
        cylinder = sub(geometry_el, "cylinder")
        sub(cylinder, "radius", texts.get("radius"))
        sub(cylinder, "length", texts.get("length"))
    elif geometry.kind == "sphere":
        sub(sub(geometry_el, "sphere"), "radius", texts.get("radius"))
    elif geometry.kind == "mesh":
        mesh = sub(geometry_el, "mesh")
        sub(mesh, "uri", mesh_uri)
        if "scale" in texts:
            sub(mesh, "scale", texts["scale"])
    else:
        return False
    return True


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
    axis_el = sub(joint_el, "axis")
    sub(axis_el, "xyz", xyz_text)
    limit = joint.limit
    if limit is not None or joint.type in ("revolute", "prismatic"):
        limit_el = sub(axis_el, "limit")
        texts = limit.texts if limit is not None else {}
        if joint.type in ("revolute", "prismatic"):
            sub(limit_el, "lower", texts.get("lower", "0"))
            sub(limit_el, "upper", texts.get("upper", "0"))
        for key in ("effort", "velocity"):
            if key in texts:
                sub(limit_el, key, texts[key])
    if joint.dynamics is not None:
        dynamics_el = sub(axis_el, "dynamics")
        for key in ("damping", "friction"):
            if key in joint.dynamics.texts:
                sub(dynamics_el, key, joint.dynamics.texts[key])
    return axis_el


def write_axis_mimic(axis_el, mimic: Mimic) -> None:
    """``//axis/mimic`` (SDFormat 1.11) with the URDF's multiplier and offset text."""
    mimic_el = sub(axis_el, "mimic", joint=mimic.joint, axis="axis")
    sub(mimic_el, "multiplier", mimic.texts.get("multiplier", "1"))
    sub(mimic_el, "offset", mimic.texts.get("offset", "0"))
