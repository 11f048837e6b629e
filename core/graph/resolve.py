"""Resolve poses in the frame graph, memoised and iterative.

Each vertex's *local* pose is its pose relative to the model (or world) that
owns its scope; a vertex's pose relative to the root composes the local poses
of its scope owners. Every local pose is computed once, so resolving all frames
is linear in their number, whatever the depth of ``relative_to`` chains.
"""
from __future__ import annotations

from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.graph.frame_graph import FrameGraph, Kind
from urdf_sdf.core.graph.validate import down_path, relative_dependencies


def local_pose(graph: FrameGraph, vid: int) -> Pose | None:
    """Pose of vertex ``vid`` relative to its scope's owner, or None if unresolvable."""
    memo = graph.local_poses
    if vid in memo:
        return memo[vid]
    if vid in graph.relative_broken or graph.vertices[vid].scope is None:
        return IDENTITY if graph.vertices[vid].scope is None else None
    stack = [vid]
    while stack:
        top = stack[-1]
        if top in memo:
            stack.pop()
            continue
        vertex = graph.vertices[top]
        missing = [d for d in relative_dependencies(graph, vertex) if d not in memo]
        if missing:
            if any(d in graph.relative_broken for d in missing):
                return None
            stack.extend(missing)
            continue
        memo[top] = _compose_local(graph, top)
        stack.pop()
    return memo[vid]


def _product(graph: FrameGraph, chain: list[int]) -> Pose:
    pose = IDENTITY
    for vid in chain:
        pose = pose * graph.local_poses[vid]
    return pose


def _compose_local(graph: FrameGraph, vid: int) -> Pose:
    vertex = graph.vertices[vid]
    scope = vertex.scope
    target = vertex.relative_to
    # (the world is never composed, and validate marks a vertex without relative_to broken)
    assert scope is not None and target is not None
    base = IDENTITY if target == scope.owner.id else \
        _product(graph, down_path(graph, scope, target))
    edge = vertex.pose
    if vertex.kind is Kind.MODEL and vertex.placement is not None and vertex.placement != vid:
        placement = _product(graph, down_path(graph, vertex.inner, vertex.placement))
        edge = edge * placement.inverse()
    return base * edge


def root_pose(graph: FrameGraph, vid: int) -> Pose | None:
    """Pose of vertex ``vid`` relative to the root frame (top model or world)."""
    memo = graph.root_poses
    if vid in memo:
        return memo[vid]
    chain = []
    current = graph.vertices[vid]
    while current.scope is not None and current.id not in memo:
        chain.append(current.id)
        current = current.scope.owner
    pose = memo.get(current.id, IDENTITY)
    for step in reversed(chain):
        local = local_pose(graph, step)
        if local is None:
            return None
        pose = pose * local
        if graph.vertices[step].kind in (Kind.MODEL, Kind.WORLD):
            memo[step] = pose
    return pose


# Walking up from both frames to their nearest common relative_to ancestor costs the
# distance between them; beyond this many steps the root-relative poses are used.
NEAREST_ANCESTOR_STEPS = 64


def edge_pose(graph: FrameGraph, vid: int) -> Pose | None:
    """``X_TV``: vertex ``vid``'s pose relative to its relative_to target T."""
    vertex = graph.vertices[vid]
    if vertex.kind is Kind.MODEL and vertex.placement is not None and vertex.placement != vid:
        if local_pose(graph, vid) is None:
            return None
        placement = _product(graph, down_path(graph, vertex.inner, vertex.placement))
        return vertex.pose * placement.inverse()
    return vertex.pose


def relative_pose(graph: FrameGraph, frame: int, relative_to: int) -> Pose | None:
    """``X_RF``: the pose of ``frame`` relative to ``relative_to``.

    Composes the relative_to edges between the two frames and their nearest
    common ancestor, so that frames posed on one another resolve exactly (an
    identity chain gives exactly the identity); far-apart frames go through the
    root-relative poses.
    """
    if frame == relative_to:
        return IDENTITY
    if frame in graph.relative_broken or relative_to in graph.relative_broken:
        return None
    vertex = graph.vertices[frame]
    if vertex.relative_to == relative_to and vertex.scope is not None:
        return _one_edge(graph, frame)
    up_frame = {frame: IDENTITY}      # ancestor -> X_ancestor_frame
    up_base = {relative_to: IDENTITY}
    ends = [frame, relative_to]
    # Each side walks up in turn; where a walk meets the other, X_RF is
    # up_base[meeting].inverse() * up_frame[meeting].
    sides = ((up_frame, up_base), (up_base, up_frame))
    vertices = graph.vertices
    for _ in range(NEAREST_ANCESTOR_STEPS):
        for side in (0, 1):
            mine, theirs = sides[side]
            current = ends[side]
            if current in theirs:
                return up_base[current].inverse() * up_frame[current]
            vertex = vertices[current]
            target = vertex.relative_to
            if vertex.scope is None or target is None:
                continue
            edge = edge_pose(graph, current)
            if edge is None:
                return None
            mine[target] = edge * mine[current]
            ends[side] = target
            if target in theirs:
                return up_base[target].inverse() * up_frame[target]
    a = root_pose(graph, relative_to)
    b = root_pose(graph, frame)
    if a is None or b is None:
        return None
    return a.inverse() * b


# ``IDENTITY.inverse()``: the same bits (its zeros are negative), made once.
_INVERSE_IDENTITY = IDENTITY.inverse()


def _one_edge(graph: FrameGraph, frame: int) -> Pose | None:
    """:func:`relative_pose` of a frame relative to its own relative_to target (a URDF
    joint in its parent link, a child link in its joint) without the walk, as the walk
    composes it: ``IDENTITY.inverse() * (X_TV * IDENTITY)``. The products are kept, not
    ``X_TV`` alone, because they can change the sign of a zero, and with it a written
    angle (``atan2(-0.0, -1)`` is -pi, ``atan2(0.0, -1)`` pi): a pose resolves the same
    whichever way it is asked for."""
    edge = edge_pose(graph, frame)
    if edge is None:
        return None
    return _INVERSE_IDENTITY * (edge * IDENTITY)
