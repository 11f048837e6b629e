"""``core.kinematics.tree``: a kinematic tree holds resolved poses only."""
from __future__ import annotations

import pytest

from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.kinematics.tree import build_tree
from urdf_sdf.core.loader import load_string

VALID = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <link name="arm"><pose relative_to="j">0 0 0 0 0 0</pose></link>
  <joint name="j" type="revolute"><pose relative_to="base">1 2 3 0 0 0</pose>
    <parent>base</parent><child>arm</child><axis><xyz>0 0 1</xyz></axis></joint>
</model></sdf>"""

# The link's pose and a frame's are relative_to each other: neither resolves.
CYCLE = """<sdf version="1.9"><model name="m">
  <link name="base"/>
  <link name="loose"><pose relative_to="f">1 0 0 0 0 0</pose></link>
  <frame name="f" attached_to="base"><pose relative_to="loose"/></frame>
</model></sdf>"""


def test_joint_and_rest_poses_are_resolved_poses():
    result = load_string(VALID, "valid.sdf")
    assert result.ok
    tree = build_tree(result)
    joint = tree.parent_joint["arm"]
    assert isinstance(joint.X_PJ, Pose) and joint.X_PJ.position == (1.0, 2.0, 3.0)
    assert joint.X_JC.position == (0.0, 0.0, 0.0)
    assert tree.link_poses["arm"].position == (1.0, 2.0, 3.0)


def test_a_pose_that_does_not_resolve_is_an_error_not_a_none():
    result = load_string(CYCLE, "cycle.sdf")
    assert not result.ok
    tree = build_tree(result)
    assert tree.link_poses["base"] == Pose()
    with pytest.raises(ValueError, match=r"pose of <link loose> does not resolve"):
        tree.link_poses["loose"]
