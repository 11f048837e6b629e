"""SDF content URDF cannot state, kept as SDF in ``<gazebo>`` blocks by sdf2urdf: the form
Gazebo (and urdf2sdf) reads back. Which content that is, per element kind."""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.write.urdf import copy_element

LINK_EXTRAS = {"sensor", "light", "projector", "audio_source", "audio_sink", "battery",
               "particle_emitter", "self_collide", "gravity", "kinematic", "enable_wind",
               "velocity_decay", "must_be_base_link"}
COLLISION_EXTRAS = {"surface", "laser_retro", "max_contacts"}
VISUAL_EXTRAS = {"transparency", "cast_shadows", "laser_retro", "meta", "plugin",
                 "visibility_flags"}
MODEL_EXTRAS = {"plugin", "self_collide", "allow_auto_disable", "enable_wind", "gripper"}
JOINT_EXTRAS = {"physics", "sensor"}


def is_rich_material(el) -> bool:
    """A visual material with more than colours (scripts, shaders, PBR) for Gazebo."""
    return el.tag == "material" and any(c.tag in ("script", "shader", "pbr", "lighting")
                                        for c in el)


def link_extras(link_xml) -> list:
    """Copies of a link's SDF-only content: sensors, lights, link physics flags, and the
    collision surfaces and visual extras of each named shape (in a bare shape element)."""
    kept = [copy_element(c) for c in link_xml if c.tag in LINK_EXTRAS]
    for kind, tags in (("collision", COLLISION_EXTRAS), ("visual", VISUAL_EXTRAS)):
        for shape_el in link_xml.findall(kind):
            extras = [c for c in shape_el if c.tag in tags or is_rich_material(c)]
            if extras and shape_el.get("name"):
                shape_copy = etree.Element(kind, name=shape_el.get("name"))
                shape_copy.extend(copy_element(c) for c in extras)
                kept.append(shape_copy)
    return kept


def element_extras(xml, tags: set[str]) -> list:
    """Copies of the children of ``xml`` (a model or joint) whose tag is in ``tags``."""
    return [copy_element(c) for c in xml if isinstance(c.tag, str) and c.tag in tags]
