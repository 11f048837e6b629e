"""What of an SDF world a URDF cannot hold, named in a warning each (never dropped silently).

A URDF is one robot: sdf2urdf converts a world's models (``sdf2urdf.world``). The world's
own content has no URDF counterpart and no ``<gazebo>`` form that urdf2sdf would give back
as world content (urdf2sdf writes a ``<model>``): its frames and joints, plugins, lights,
actors, physics, scene and every other world setting are left out with a
``WORLD_CONTENT_DROPPED`` warning naming them. Only the file's first world is read as the
world; each later one is left out whole with a ``WORLD_DROPPED`` warning naming its models.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code, Diagnostics

# What a world brings into a URDF: its models (an <include> brings one).
CONVERTED = {"model", "include"}


def warn_world_content(document, diagnostics: Diagnostics) -> None:
    """A warning for the first world's content a URDF cannot hold, one for each other world."""
    if not document.worlds:
        return
    world = document.worlds[0]
    left_out = left_out_content(world)
    if left_out:
        diagnostics.warning_at(Code.WORLD_CONTENT_DROPPED,
                               f"world [{world.name}]: a URDF holds no world, so what it "
                               f"states besides its models is left out: {'; '.join(left_out)}",
                               world.source, document.file)
    for other in document.worlds[1:]:
        models = ", ".join(model.name for model in other.models) or "none"
        diagnostics.warning_at(Code.WORLD_DROPPED,
                               f"world [{other.name}] is left out, with its models ({models}): "
                               f"sdf2urdf converts the file's first world, [{world.name}]",
                               other.source, document.file)


def left_out_content(world) -> list[str]:
    """What of ``world`` does not go into the URDF: per kind, in the order first written,
    ``"frame (spawn, dock)"`` or ``"physics"``."""
    names: dict[str, list[str]] = {}
    for frame in world.frames:
        names.setdefault("frame", []).append(frame.name)
    for joint in world.joints:
        names.setdefault("joint", []).append(joint.name)
    for el in world.xml if world.xml is not None else ():
        tag = el.tag
        if not isinstance(tag, str) or tag in CONVERTED or tag in ("frame", "joint"):
            continue
        kind = names.setdefault(tag, [])
        if el.get("name"):
            kind.append(el.get("name"))
    return [f"{kind} ({', '.join(found)})" if found else kind for kind, found in names.items()]
