"""SDF content URDF cannot state, kept as SDF in ``<gazebo>`` blocks by sdf2urdf: the form
Gazebo (and urdf2sdf) reads back. Which content that is, per element kind, and
:class:`GazeboKeeper`, which writes one model's blocks with a warning each.

A link's block references the link, a joint's the joint; the poses in them are written in
the URDF frame (``sdf2urdf.carried_poses``). The model's own content (plugins, model
flags) goes to a block without ``reference``, which extends the robot. A URDF has no nested
models: a nested model's plugins go to that robot-level block too (so the plugin now runs
for the whole robot, whose names the nested model's links and joints carry flattened),
with a warning; its model flags (``self_collide``, ``gripper``...) would apply to the
whole robot there, so they are left out with a ``NESTED_MODEL_CONTENT_DROPPED`` warning.
"""
from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import Link
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.urdf import copy_element
from urdf_sdf.sdf2urdf.carried_poses import CarriedPoses

# A link's frame: SDFormat 1.5 and 1.6 only (from 1.7 a model's frames are the graph's).
LINK_EXTRAS = {"sensor", "light", "projector", "audio_source", "audio_sink", "battery",
               "particle_emitter", "self_collide", "gravity", "kinematic", "enable_wind",
               "velocity_decay", "must_be_base_link", "frame"}
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


class GazeboKeeper:
    """The ``<gazebo>`` blocks of one model's SDF-only content (``scope``: the model's scope
    in ``result``'s frame graph; ``name``: a scoped name as the URDF writes it)."""

    def __init__(self, result, scope, name: Callable[[str], str], diagnostics: Diagnostics,
                 file: str | None):
        self.graph = result.graph
        self.scope = scope
        self.name = name
        self.diagnostics = diagnostics
        self.file = file
        self.poses = CarriedPoses(result, scope.version, diagnostics, file)

    def keep(self, out: Document, kept: list, what: str, source,
             reference: str | None = None) -> None:
        """``kept`` (SDF elements of ``what``) in a ``<gazebo>`` block, with a warning."""
        if kept:
            block = etree.Element("gazebo", {} if reference is None else {"reference": reference})
            block.extend(kept)
            out.add(block)
            self.diagnostics.warning_at(
                Code.CONTENT_KEPT_IN_GAZEBO, f"{what}: SDF content URDF cannot state ("
                f"{', '.join(sorted({c.tag for c in kept}))}) is kept in a <gazebo> block",
                source, self.file)

    def link(self, out: Document, link: Link, name: str, X_UL: Pose) -> None:
        """Link ``name``'s sensors, lights, physics flags and shape extras, posed in the URDF
        link frame, ``X_UL`` from the SDF link frame."""
        if link.xml is None:
            return
        kept = link_extras(link.xml)
        for el in kept:
            self.poses.place(el, self.scope.prefix + name, X_UL)
        self.keep(out, kept, f"link [{name}]", link.source, reference=self.name(name))

    def joint(self, out: Document, joint) -> None:
        """A joint's physics and sensors (posed in the joint frame, which the URDF keeps)."""
        xml = getattr(joint.element, "xml", None)
        if xml is None or joint.vertex < 0:
            return
        kept = element_extras(xml, JOINT_EXTRAS)
        for el in kept:
            self.poses.place(el, self.scope.prefix + joint.name, IDENTITY)
        self.keep(out, kept, f"joint [{joint.name}]", joint.element.source,
                  reference=self.name(joint.name))

    def model(self, out: Document, model_el) -> None:
        """The model's plugins and flags, then its nested models' plugins, in a block that
        extends the robot; the nested models' flags named in a warning."""
        if model_el is not None:
            self.keep(out, element_extras(model_el, MODEL_EXTRAS),
                      f"model [{self.scope.owner.name}]", self.scope.owner.source)
        for vertex in self.nested_models():
            xml = getattr(vertex.element, "xml", None)
            if xml is None:
                continue
            name = vertex.scoped_name[len(self.scope.prefix):]
            self.keep(out, element_extras(xml, {"plugin"}),
                      f"nested model [{name}] (a URDF has none: its plugins now extend the "
                      f"robot, where its links and joints are named {self.name(name + '::')}"
                      "NAME)", vertex.source)
            self.drop_nested_flags(name, xml, vertex.source)

    def nested_models(self) -> list:
        """The model vertices below this model's scope, at any depth, in graph order."""
        prefix = self.scope.prefix
        return [v for v in self.graph.vertices if v.kind is Kind.MODEL and v.scope is not None
                and v.scoped_name.startswith(prefix) and v.inner is not self.scope]

    def drop_nested_flags(self, name: str, xml, source) -> None:
        flags = [c.tag for c in xml if isinstance(c.tag, str) and c.tag in MODEL_EXTRAS
                 and c.tag != "plugin"]
        if flags:
            self.diagnostics.warning_at(
                Code.NESTED_MODEL_CONTENT_DROPPED, f"nested model [{name}]: its "
                f"{', '.join(flags)} left out (a URDF has no nested models, and in the robot's "
                "<gazebo> block they would apply to every link)", source, self.file)
