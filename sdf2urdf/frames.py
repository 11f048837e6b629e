"""An SDF model's explicit frames in a URDF, which has no frames: each becomes a massless
link on a fixed joint to the frame it is attached to (when that one becomes a link too)
or to its link; Drake's URDF ``<frame>`` extension (which urdf2sdf marked) is given back
as it was written. A frame attached to no link, or named like a link, is left out with
``FRAME_DROPPED``, as every frame is under ``--drop-frames``.

Where each frame sits (its ``<origin>``) is the converter's to say (copied text or a
computed pose, ``sdf2urdf.convert``); this module says what the frame becomes."""
from __future__ import annotations

from collections.abc import Callable, Iterator

from urdf_sdf.core.base.custom import custom_children, plain_copy, qname
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.write.text import Node
from urdf_sdf.sdf2urdf.attributes import frame_given_back, given_back
from urdf_sdf.sdf2urdf.restore import carried_copies


def scoped_frames(graph, prefix: str) -> Iterator[tuple]:
    """``(vertex, name)`` of each explicit frame of the model whose names start with
    ``prefix``, named without it."""
    for vertex in graph.vertices:
        if vertex.kind is Kind.FRAME and vertex.scope is not None and \
                vertex.scoped_name.startswith(prefix):
            yield vertex, vertex.scoped_name[len(prefix):]


def warn_dropped_frames(graph, prefix: str, warn: Callable) -> None:
    """``--drop-frames``: each frame named as left out."""
    for vertex, name in scoped_frames(graph, prefix):
        warn(Code.FRAME_DROPPED, f"frame [{name}] dropped (--drop-frames)", vertex.source)


def unplaceable(name: str, parent: int | None, link_names: set[str]) -> str | None:
    """Why frame ``name`` (attached to vertex ``parent``, None for no link) cannot be
    written: a URDF link needs a link to hang from and a name no link has."""
    if parent is None:
        return f"frame [{name}] is not attached to a link; it is left out"
    if name in link_names:
        return f"frame [{name}] has the name of a link; it is left out"
    return None


def frame_nodes(xml, name: str, parent_name: str, origin: dict, urdf_name: Callable,
                warn: Callable) -> list[Node]:
    """What frame ``name`` (its SDF element ``xml``, attached to ``parent_name``, at
    ``origin``'s ``xyz``/``rpy``) becomes: Drake's ``<frame>`` as written, or a massless
    link (with the zero-mass inertial urdf2sdf kept and what it carried) on a fixed joint
    (named as urdf2sdf named it, else NAME_joint). ``urdf_name``: a scoped name as the URDF
    writes it."""
    if xml is not None and xml.get(qname("element")) == "frame":
        return [given_back(("frame", {"name": urdf_name(name), "link": urdf_name(parent_name),
                                      **origin}, []), xml, warn)]
    kept = [plain_copy(el) for el in custom_children(xml, "inertial")] + carried_copies(xml)
    joint_name = (xml.get(qname("joint")) if xml is not None else None) or \
        f"{urdf_name(name)}_joint"
    joint_children: list[Node] = [("origin", origin, [])] if origin else []
    joint_children += [("parent", {"link": urdf_name(parent_name)}, []),
                       ("child", {"link": urdf_name(name)}, [])]
    joint = ("joint", {"name": joint_name, "type": "fixed"}, joint_children)
    return list(frame_given_back(("link", {"name": urdf_name(name)}, kept), joint, xml, warn))
