"""Which models of a file sdf2urdf converts, and a world's models merged into one URDF.

A file with one model converts that model. A world converts the model ``--model`` names,
its only model, or with ``--all-models`` every model, into one URDF whose root is the
world: each model's links and joints are named ``MODEL::NAME`` (the separator of
``--separator``), and each model's root links hang from ``world`` where the world places
them (fixed joints for a static model; a free model is refused, or welded under
``--approximate``: ``sdf2urdf.approximate``).
A model of a world, converted alone, keeps the world's placement wherever the URDF has a
``world`` link (a static model, a joint to the world): that link is the SDF world.
"""
from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph import Kind, Scope, relative_pose
from urdf_sdf.sdf2urdf.carried_poses import pose_element


@dataclass
class ModelChoice:
    """One model to write: its scope, the prefix of its URDF names, where a world places
    its model frame (None for a model file: its model frame is the URDF's ``world``), and
    whether it is merged with the world's other models (``--all-models``)."""
    scope: Scope
    prefix: str = ""
    placement: Pose | None = None
    in_world: bool = False


def choose_models(result, options, diagnostics: Diagnostics) -> list[ModelChoice] | None:
    """The models to convert: the root model, one model of a world, or all of them."""
    graph = result.graph
    root = graph.root
    file = result.document.file
    if root is None:
        diagnostics.error(Code.ELEMENT_MISSING, "the file holds no model to convert", file)
        return None
    if not root.is_world:
        if options.model not in (None, root.owner.name):
            diagnostics.error_at(Code.ELEMENT_MISSING, f"--model {options.model}: the file's "
                                 f"model is [{root.owner.name}]", root.owner.source, file)
            return None
        return [ModelChoice(root)]
    models = [graph.vertices[v] for v in root.vertices if graph.vertices[v].kind is Kind.MODEL]
    if options.all_models:
        return all_models(result, models, options, diagnostics)
    if options.model is not None:
        chosen = [m for m in models if m.name == options.model]
        if not chosen:
            diagnostics.error_at(Code.ELEMENT_MISSING, f"--model {options.model}: the world has "
                                 f"no such model (it has "
                                 f"{', '.join(m.name for m in models) or 'none'})",
                                 root.owner.source, file)
            return None
        return [placed(graph, chosen[0])]
    if len(models) != 1:
        what = "no model" if not models else \
            f"{len(models)} models ({', '.join(m.name for m in models)}); choose one with " \
            "--model, or --all-models for one URDF of them all"
        diagnostics.error_at(Code.ELEMENT_MISSING, f"the world holds {what}",
                             root.owner.source, file)
        return None
    return [placed(graph, models[0])]


def placed(graph, model) -> ModelChoice:
    """A world's model (its vertex) converted alone, with where the world places it."""
    return ModelChoice(model.inner, placement=relative_pose(graph, model.id, graph.root.owner.id)
                       or IDENTITY)


def kept_world_pose(model: str, root: str, pose: Pose, diagnostics: Diagnostics, source,
                    file) -> object:
    """The ``<gazebo><pose>`` block of a world's free model converted alone: ``pose`` is
    where the world places its root link ``root``, which a URDF cannot state (a free root
    link is at the URDF's origin for urdfdom and Drake; a floating joint from ``world`` is
    placed by neither Drake nor libsdformat 12). libsdformat and Gazebo read the block as
    the model's pose, urdf2sdf gives it back as the SDF model's ``<pose>``."""
    block = etree.Element("gazebo")
    block.append(pose_element(pose))
    diagnostics.warning_at(Code.MODEL_POSE_KEPT_IN_GAZEBO, f"model [{model}] is free in its world "
                           f"and a URDF has no world pose for its root link [{root}]: where the "
                           f"world places it ({block[0].text}) is kept as <gazebo><pose> "
                           "(Gazebo and libsdformat place the model there, urdf2sdf gives it "
                           "back; Drake and urdfdom put the root link at the origin)",
                           source, file)
    return block


def all_models(result, models, options, diagnostics: Diagnostics) -> list[ModelChoice] | None:
    """Every model of the world, placed where the world puts it."""
    graph = result.graph
    root = graph.root
    if not models:
        diagnostics.error_at(Code.ELEMENT_MISSING, "the world holds no model",
                             root.owner.source, result.document.file)
        return None
    # A world of one model is converted as that model alone (names still prefixed): a lone
    # free model keeps its world pose in <gazebo><pose>, as without --all-models, where a
    # floating joint from world would be placed by neither Drake nor libsdformat 12.
    merged = len(models) > 1
    return [ModelChoice(m.inner, f"{m.name}{options.separator}",
                        relative_pose(graph, m.id, root.owner.id) or IDENTITY, merged)
            for m in models]


def merge_robots(name: str, robots: list, diagnostics: Diagnostics, source, file) -> object:
    """One ``<robot>`` of the models' robots: one ``world`` link first, each robot-level
    ``<material>`` once (a different one of the same name is left out, with a warning)."""
    merged = etree.Element("robot", name=name)
    etree.SubElement(merged, "link", name="world")
    materials: dict[str, bytes] = {}
    for robot in robots:
        for child in robot:
            if child.tag == "link" and child.get("name") == "world":
                continue
            if child.tag == "material" and child.get("name") is not None:
                text = etree.tostring(child)
                seen = materials.setdefault(child.get("name"), text)
                if seen is not text:
                    if seen != text:
                        diagnostics.warning_at(
                            Code.MATERIAL_NAME_CONFLICT, f"material [{child.get('name')}] of model "
                            f"[{robot.get('name')}] differs from the one of that name already "
                            "written; the first is kept", source, file)
                    continue
            merged.append(child)
    return merged
