"""``relative_pose`` with ``first_steps`` (the kinematic tree's shared first compositions)
gives bit for bit what it gives alone, for every pair of frames of the fixtures."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.graph import relative_pose
from urdf_sdf.core.loader import load, load_string

FIXTURES = Path(__file__).parent / "fixtures"
SDF_FILES = sorted(p for folder in ("graph", "parity", "spec", "semantics", "sdf2urdf")
                   for p in (FIXTURES / folder).rglob("*.sdf"))[:300]

# Negative zeros: ``X * IDENTITY`` is not ``X`` in the sign of a zero, so what is shared
# must be the product, not the edge pose.
SIGNED_ZEROS = """<sdf version="1.9"><model name="m">
  <link name="a"><pose>-0 -0 -0 0 0 0</pose></link>
  <link name="b"><pose relative_to="a">0 0 0 0 -0 -3.141592653589793</pose></link>
  <frame name="f" attached_to="b"><pose relative_to="b">0 -0 0 3.141592653589793 -0 0</pose></frame>
  <joint name="j" type="revolute"><parent>a</parent><child>b</child>
    <pose relative_to="f">-0 -0 0 0 0 -3.141592653589793</pose><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""


def pose_bits(pose):
    return None if pose is None else repr((pose.position, pose.rotation))


def assert_shared_steps_change_nothing(graph) -> None:
    count = len(graph.vertices)
    first_steps: dict = {}
    for frame in range(count):
        for base in range(count):
            alone = relative_pose(graph, frame, base)
            shared = relative_pose(graph, frame, base, first_steps)
            assert pose_bits(shared) == pose_bits(alone), (frame, base)


@pytest.mark.parametrize("path", SDF_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_first_steps_change_no_pose_of_a_fixture(path):
    result = load(str(path), Context())
    if result.graph is None or result.graph.root is None or len(result.graph.vertices) > 60:
        pytest.skip("no graph, or too large for every pair")
    assert_shared_steps_change_nothing(result.graph)


def test_first_steps_keep_the_signs_of_zeros():
    result = load_string(SIGNED_ZEROS, "signed_zeros.sdf", Context())
    assert result.ok, result.diagnostics
    assert_shared_steps_change_nothing(result.graph)
