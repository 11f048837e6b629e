"""Every resolved pose is a finite number.

Each offset a file writes is finite (the readers refuse ``inf``, ``nan`` and ``1e400``),
but offsets add up as frames are composed: two joints 1e308 apart in a chain put the
second one beyond the largest double (an infinity), and a rotation of that gives NaN
(``inf * 0``). A pose like that is no pose: converted, it would be written as
``nan nan nan``; compared, it is equal to nothing, not even itself.

:func:`report_non_finite` reports ``NUMBER_NOT_FINITE`` at each element whose pose is not
a finite number where it is composed:

* a frame (link, joint, frame, model) relative to the root, at the first element of a
  chain whose own offset makes it overflow (the frames posed on it are not reported again);
* a joint in its parent link, its child link in it and in the parent link, a frame in the
  link it is attached to (what a kinematic tree and the converters compose);
* an inertial, visual or collision in its link and relative to the root.

Rotations keep lengths, so a composed position is at most the sum of the offsets composed:
when every offset of the file is small enough (:func:`may_overflow`, one pass over the
offsets as written), nothing can overflow and nothing is composed. Only a file with offsets
near the largest double pays for composing every pose.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph.frame_graph import FrameGraph, Kind, Vertex
from urdf_sdf.core.graph.resolve import relative_pose, root_pose
from urdf_sdf.core.graph.validate import relative_dependencies

# A bound on every composed position, far below the largest double (1.8e308): a file
# whose offsets, summed over every frame and element it has, stay below it cannot overflow.
SAFE_SUM = 1e300


def report_non_finite(graph: FrameGraph, diagnostics: Diagnostics) -> None:
    """``NUMBER_NOT_FINITE`` at each element whose composed pose is not a finite number
    (see the module's docstring)."""
    if not may_overflow(graph):
        return
    found = non_finite_vertices(graph)
    for vid in first_of_chains(graph, found):
        vertex = graph.vertices[vid]
        diagnostics.error_at(Code.NUMBER_NOT_FINITE, _message(vertex, root_pose(graph, vid)),
                             vertex.source)
    reported = set(found)
    for vid, what in _non_finite_in_links(graph):
        if vid not in reported:
            diagnostics.error_at(Code.NUMBER_NOT_FINITE, what, graph.vertices[vid].source)
    for spec, what in _non_finite_link_contents(graph):
        diagnostics.error_at(Code.NUMBER_NOT_FINITE, what, spec.source)


def may_overflow(graph: FrameGraph) -> bool:
    """Whether some composition of the graph's poses could overflow: the largest offset
    coordinate, times the number of offsets (each a vector of three), reaches
    :data:`SAFE_SUM`."""
    largest = 0.0
    count = 0
    for vertex in graph.vertices:
        largest = max(largest, _largest(vertex.pose))
        count += 1
        if vertex.kind is Kind.LINK:
            for _, spec in _link_contents(vertex.element):
                largest = max(largest, _largest(spec.value))
                count += 1
    return 4 * (count + 1) * largest >= SAFE_SUM


def non_finite_vertices(graph: FrameGraph) -> list[int]:
    """The vertices (in graph order) whose pose relative to the root is not finite."""
    found = []
    for vertex in graph.vertices:
        if vertex.scope is None:
            continue
        pose = root_pose(graph, vertex.id)
        if pose is not None and not pose.is_finite():
            found.append(vertex.id)
    return found


def first_of_chains(graph: FrameGraph, found: list[int]) -> list[int]:
    """Those of the vertices ``found`` whose own offset overflows: the frames their pose
    is composed from (relative_to chain, model) are finite."""
    non_finite = set(found)
    return [vid for vid in found
            if not any(dep in non_finite for dep in _posed_on(graph, graph.vertices[vid]))]


def _posed_on(graph: FrameGraph, vertex: Vertex) -> list[int]:
    """The vertices ``vertex``'s pose is composed from: its relative_to chain in its scope
    and the model owning that scope."""
    deps = relative_dependencies(graph, vertex)
    if vertex.scope is not None:
        deps.append(vertex.scope.owner.id)
    return deps


def _non_finite_in_links(graph: FrameGraph) -> Iterator[tuple[int, str]]:
    """``(vertex, message)`` for each joint whose pose in its parent link, or whose child
    link's pose in it or in the parent link, is not finite, and each frame whose pose in
    its link is not."""
    links = graph.attached_link
    for vertex in graph.vertices:
        for frame, base, what in _pairs_in_links(vertex, links):
            pose = relative_pose(graph, frame, base)
            if pose is not None and not pose.is_finite():
                yield vertex.id, (f"{vertex.kind.value} [{vertex.scoped_name}]: {what} is "
                                  f"not a finite number ({_numbers(pose)}): the offsets "
                                  "composed to reach it overflow a double")
                break


def _pairs_in_links(vertex: Vertex, links: dict[int, int]) -> list[tuple[int, int, str]]:
    """``(frame, relative to, what)``: the poses between frames that ``vertex`` (a joint
    or a frame) makes the converters compose."""
    vid = vertex.id
    if vertex.kind is Kind.FRAME and links.get(vid) is not None:
        return [(vid, links[vid], "the frame's pose in the link it is attached to")]
    if vertex.kind is not Kind.JOINT or vertex.attached_to is None:
        return []
    parent = links.get(vertex.parent) if vertex.parent is not None else None
    child = links.get(vertex.attached_to)
    pairs = []
    if parent is not None:
        pairs.append((vid, parent, "the joint's pose in its parent link"))
    if child is not None:
        pairs.append((child, vid, "its child link's pose in the joint frame"))
    if parent is not None and child is not None:
        pairs.append((child, parent, "its child link's pose in its parent link"))
    return pairs


def _link_contents(link) -> Iterator[tuple[str, Any]]:
    """``(label, pose spec)`` of what a link holds: its inertial, visuals, collisions."""
    if link.inertial is not None:
        yield "inertial", link.inertial.pose
    for kind, shapes in (("visual", link.visuals), ("collision", link.collisions)):
        for shape in shapes:
            yield f"{kind} [{shape.name}]", shape.pose


def _non_finite_link_contents(graph: FrameGraph) -> Iterator[tuple[Any, str]]:
    """``(pose spec, message)`` for each inertial, visual or collision of a link whose
    pose in the link (relative to the frame it names) or relative to the root is not
    finite."""
    for vertex in graph.vertices:
        if vertex.kind is not Kind.LINK or vertex.scope is None:
            continue
        link_pose = root_pose(graph, vertex.id)
        for label, spec in _link_contents(vertex.element):
            frame = graph.lookup(vertex.scope, spec.relative_to) if spec.relative_to else None
            base = relative_pose(graph, frame, vertex.id) if frame is not None else IDENTITY
            if base is None or link_pose is None:
                continue
            in_link = base * spec.value
            in_root = link_pose * in_link
            if not (in_link.is_finite() and in_root.is_finite()):
                shown = in_link if not in_link.is_finite() else in_root
                yield spec, (f"the pose of the {label} of link [{vertex.scoped_name}] is not "
                             f"a finite number ({_numbers(shown)}): the offsets composed to "
                             "reach it overflow a double")


def _largest(pose: Pose) -> float:
    x, y, z = pose.position
    return max(abs(x), abs(y), abs(z))


def _message(vertex: Vertex, pose: Pose | None) -> str:
    numbers = _numbers(pose) if pose is not None else "?"
    return (f"the pose of {vertex.kind.value} [{vertex.scoped_name}] relative to the "
            f"{'world' if _in_world(vertex) else 'model'} frame is not a finite number "
            f"({numbers}): the offsets composed to reach it overflow a double")


def _numbers(pose: Pose) -> str:
    return " ".join(repr(v) for v in pose.position)


def _in_world(vertex: Vertex) -> bool:
    scope = vertex.scope
    while scope is not None and scope.parent is not None:
        scope = scope.parent
    return scope is not None and scope.is_world
