"""``relative_pose`` of a frame relative to its own ``relative_to`` target (a URDF joint in
its parent link, a child link in its joint) skips the walk up the graph but gives, bit for
bit, what the walk's one step composes (``IDENTITY.inverse() * (X_TV * IDENTITY)``), not
``X_TV`` alone: the two can differ in the sign of a zero, and with it a written angle
(``atan2(-0.0, -1)`` is -pi, ``atan2(0.0, -1)`` pi)."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.pose import IDENTITY
from urdf_sdf.core.graph import relative_pose
from urdf_sdf.core.graph.resolve import edge_pose
from urdf_sdf.core.loader import load, load_string

FIXTURES = Path(__file__).parents[2] / "fixtures"
SDF_FILES = sorted(p for folder in ("graph", "parity", "spec", "semantics", "sdf2urdf")
                   for p in (FIXTURES / folder).rglob("*.sdf"))[:300]

# Negative zeros: ``X * IDENTITY`` is not ``X`` in the sign of a zero.
SIGNED_ZEROS = """<sdf version="1.9"><model name="m">
  <link name="a"><pose>-0 -0 -0 0 0 0</pose></link>
  <link name="b"><pose relative_to="a">0 0 0 0 -0 -3.141592653589793</pose></link>
  <frame name="f" attached_to="b"><pose relative_to="b">0 -0 0 3.141592653589793 -0 0</pose></frame>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child>
    <pose relative_to="f">-0 -0 0 0 0 -3.141592653589793</pose><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""


def pose_bits(pose):
    return None if pose is None else repr((pose.position, pose.rotation))


def one_edge_pairs(graph) -> list[int]:
    return [vertex.id for vertex in graph.vertices
            if vertex.scope is not None and vertex.relative_to is not None
            and vertex.id != vertex.relative_to and vertex.id not in graph.relative_broken
            and vertex.relative_to not in graph.relative_broken]


def assert_one_edge_is_the_walk(graph) -> int:
    """Checks every frame against its relative_to target; returns how many it checked."""
    frames = one_edge_pairs(graph)
    for frame in frames:
        edge = edge_pose(graph, frame)
        walk = None if edge is None else IDENTITY.inverse() * (edge * IDENTITY)
        assert pose_bits(relative_pose(graph, frame, graph.vertices[frame].relative_to)) == \
            pose_bits(walk), frame
    return len(frames)


@pytest.mark.parametrize("path", SDF_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_one_edge_is_the_walk_on_a_fixture(path):
    result = load(str(path), Context())
    if result.graph is None or result.graph.root is None:
        pytest.skip("no graph")
    assert_one_edge_is_the_walk(result.graph)


def test_one_edge_keeps_the_walks_signs_of_zeros():
    result = load_string(SIGNED_ZEROS, "signed_zeros.sdf", Context())
    assert result.ok, result.diagnostics
    assert assert_one_edge_is_the_walk(result.graph) >= 3
    graph = result.graph
    b = next(v.id for v in graph.vertices if v.name == "b")
    edge = edge_pose(graph, b)
    # The case that matters: the edge alone and the walk's product differ in a zero's sign.
    assert pose_bits(edge) != pose_bits(relative_pose(graph, b, graph.vertices[b].relative_to))
