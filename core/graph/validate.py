"""Validate the frame graph: cycles, broken chains, and joints' resolved links.

Both walks are iterative with memoisation, so a 100,000-deep chain costs
100,000 steps and never touches Python's recursion limit.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import WORLD
from urdf_sdf.core.graph.frame_graph import WORLD_SENTINEL, FrameGraph, Kind, Vertex
from urdf_sdf.core.read.version import AXIS_FRAMES

UNSEEN, ACTIVE, DONE = 0, 1, 2


def is_attached_sink(vertex: Vertex) -> bool:
    return vertex.kind in (Kind.LINK, Kind.WORLD) or (vertex.kind is Kind.MODEL and vertex.static)


def is_legacy_world_child(vertex: Vertex) -> bool:
    """A 1.4 joint whose child is the world: allowed then, left out of the graph."""
    return vertex.kind is Kind.JOINT and vertex.element.child == WORLD and \
        vertex.scope is not None and vertex.scope.version < AXIS_FRAMES and \
        WORLD not in vertex.scope.names


def resolve_attached(graph: FrameGraph, diagnostics: Diagnostics) -> None:
    """Fill ``graph.attached_link`` (vertex -> link, world or static model it rides on)."""
    vertices = graph.vertices
    state = [UNSEEN] * len(vertices)
    for start in range(len(vertices)):
        if state[start] == DONE:
            continue
        path: list[int] = []
        current: int | None = start
        sink: int | None = None
        while True:
            if current is None:
                break
            if state[current] == DONE:
                sink = graph.attached_link.get(current)
                break
            if state[current] == ACTIVE:
                cycle = path[path.index(current):]
                names = " -> ".join(vertices[v].scoped_name for v in cycle + [current])
                diagnostics.error_at(Code.FRAME_ATTACHED_TO_CYCLE, f"attached_to cycle: {names}",
                                     vertices[current].source)
                break
            vertex = vertices[current]
            state[current] = ACTIVE
            path.append(current)
            if is_attached_sink(vertex):
                sink = current
                break
            current = vertex.attached_to
        for vid in path:
            state[vid] = DONE
            if sink is None:
                graph.attached_broken.add(vid)
            else:
                graph.attached_link[vid] = sink


def relative_dependencies(graph: FrameGraph, vertex: Vertex) -> list[int]:
    """Vertices whose local poses ``vertex``'s local pose is computed from."""
    deps: list[int] = []
    target = vertex.relative_to
    if target is not None and vertex.scope is not None and target != vertex.scope.owner.id:
        deps.extend(down_path(graph, vertex.scope, target))
    if vertex.kind is Kind.MODEL and vertex.placement is not None \
            and vertex.placement != vertex.id:
        deps.extend(down_path(graph, vertex.inner, vertex.placement))
    return deps


def down_path(graph: FrameGraph, scope, target: int) -> list[int]:
    """Vertices from ``scope`` down to ``target``: the nested models on the way, then it."""
    chain = [target]
    current = graph.vertices[target].scope
    while current is not None and current is not scope:
        chain.append(current.owner.id)
        current = current.owner.scope
    chain.reverse()
    return chain


def check_relative_cycles(graph: FrameGraph, diagnostics: Diagnostics) -> None:
    """Report relative_to cycles and mark every vertex whose pose cannot be resolved."""
    vertices = graph.vertices
    state = [UNSEEN] * len(vertices)
    broken = graph.relative_broken
    for start in range(len(vertices)):
        if state[start] != UNSEEN:
            continue
        stack: list[tuple[int, list[int], int]] = []
        push(graph, start, stack, state, broken)
        while stack:
            vid, deps, i = stack[-1]
            if i < len(deps):
                stack[-1] = (vid, deps, i + 1)
                dep = deps[i]
                if state[dep] == UNSEEN:
                    push(graph, dep, stack, state, broken)
                elif state[dep] == ACTIVE:
                    on_stack = [entry[0] for entry in stack]
                    cycle = on_stack[on_stack.index(dep):]
                    names = " -> ".join(vertices[v].scoped_name for v in cycle + [dep])
                    src = vertices[dep].source
                    diagnostics.error_at(Code.POSE_RELATIVE_TO_CYCLE,
                                         f"relative_to cycle: {names}", src)
                    broken.update(cycle)
                elif dep in broken:
                    broken.add(vid)
                continue
            stack.pop()
            state[vid] = DONE
            if deps and not broken.isdisjoint(deps):  # a dependency cannot be resolved
                broken.add(vid)


def push(graph: FrameGraph, vid: int, stack: list, state: list[int], broken: set[int]) -> None:
    vertex = graph.vertices[vid]
    state[vid] = ACTIVE
    if vertex.scope is not None and vertex.relative_to is None:
        broken.add(vid)
    if vertex.kind is Kind.MODEL and vertex.scope is not None and \
            vertex.element.placement_frame is not None and vertex.placement is None:
        broken.add(vid)
    stack.append((vid, relative_dependencies(graph, vertex), 0))


def check_joints(graph: FrameGraph, diagnostics: Diagnostics) -> None:
    """A joint's parent and child must resolve to different links; a child never to world."""
    for vertex in graph.vertices:
        if vertex.kind is not Kind.JOINT or is_legacy_world_child(vertex):
            continue
        joint = vertex.element
        child_link = graph.attached_link.get(vertex.attached_to) \
            if vertex.attached_to is not None else None
        if child_link is not None and graph.vertices[child_link].kind is Kind.WORLD:
            diagnostics.error_at(Code.JOINT_CHILD_LINK_INVALID, f"the child [{joint.child}] of "
                                 f"joint [{joint.name}] resolves to world, which cannot be a "
                                 "child", joint.source)
            continue
        if vertex.parent is None or child_link is None or joint.parent == joint.child:
            continue
        if vertex.parent == WORLD_SENTINEL:
            continue
        parent_link = graph.attached_link.get(vertex.parent)
        if parent_link is not None and parent_link == child_link:
            diagnostics.error_at(Code.JOINT_PARENT_SAME_AS_CHILD,
                                 f"joint [{joint.name}] has parent frame [{joint.parent}] and "
                                 f"child frame [{joint.child}] that both resolve to "
                                 f"[{graph.vertices[child_link].scoped_name}]; they must resolve "
                                 "to different links", joint.source)


def validate_graph(graph: FrameGraph, diagnostics: Diagnostics) -> None:
    resolve_attached(graph, diagnostics)
    check_relative_cycles(graph, diagnostics)
    check_joints(graph, diagnostics)
