"""Loading, legacy semantics, resolution and safety of the frame-graph core.

Each test takes every diagnostic its input causes (the ``diagnostics_checked`` fixture):
an error that appears or vanishes, or a new warning, is a change of behaviour.
"""
import math
from pathlib import Path

import pytest

from urdf_sdf import Code, load, load_string
from urdf_sdf.core.base.pose import Pose, pose_gap

FIXTURES = Path(__file__).parents[1] / "fixtures" / "core"


def close(pose, xyz, rpy=(0, 0, 0), tol=1e-12):
    return pose_gap(pose, Pose.from_rpy(xyz, rpy)) < tol


# ---- XML safety ---------------------------------------------------------------------

def test_billion_laughs_is_refused_with_a_diagnostic(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "xml_billion_laughs.sdf"))
    assert not result.ok
    diagnostics_checked.take_error(Code.XML_UNSAFE)


def test_external_entity_is_never_read(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "xml_external_entity.sdf"))
    assert not result.ok
    diagnostics_checked.take_error(Code.XML_UNSAFE)
    everything = repr(result.diagnostics) + repr(result.document)
    assert "XXE-SECRET" not in everything


def test_malformed_xml_reports_its_line(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "xml_malformed_mismatched_tag.sdf"))
    assert not result.ok
    diagnostic = diagnostics_checked.take_error(Code.FILE_READ)
    assert diagnostic.line == 5
    assert diagnostic.file.endswith("xml_malformed_mismatched_tag.sdf")


def test_missing_file_is_a_diagnostic_not_an_exception(tmp_path, diagnostics_checked):
    result = diagnostics_checked.watch(load(tmp_path / "nope.sdf"))
    assert not result.ok
    assert diagnostics_checked.take_error(Code.FILE_READ).file == str(tmp_path / "nope.sdf")


# ---- legacy versions ------------------------------------------------------------------

def test_sdf_1_4_axis_is_expressed_in_the_parent_model_frame(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "sdf_1_4_axis_in_parent_model_frame.sdf"))
    assert result.ok
    # Joint J sits on B, rotated 90 degrees about z: model x is joint -y.
    axis = result.axis_in_joint_frame("J")
    assert max(abs(a - b) for a, b in zip(axis, (0, -1, 0))) < 1e-12


def test_sdf_1_6_use_parent_model_frame_only_where_asked(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "sdf_1_6_use_parent_model_frame.sdf"))
    assert result.ok
    model_frame_axis = result.axis_in_joint_frame("J_model_frame")
    joint_frame_axis = result.axis_in_joint_frame("J_joint_frame")
    assert max(abs(a - b) for a, b in zip(model_frame_axis, (0, -1, 0))) < 1e-12
    assert joint_frame_axis == (1.0, 0.0, 0.0)


def test_sdf_1_6_pose_frame_attribute_means_relative_to(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "sdf_1_6_pose_frame_attribute.sdf"))
    assert result.ok
    assert close(result.pose("B"), (1, 2, 0))


def test_sdf_1_6_joint_sharing_a_link_name_is_renamed(diagnostics_checked):
    result = diagnostics_checked.watch(
        load(FIXTURES / "sdf_1_6_joint_named_like_link_is_renamed.sdf"))
    assert result.ok
    renamed = diagnostics_checked.take_warning(Code.NAME_RENAMED)
    assert renamed.line == 9 and "[attachment_joint]" in renamed.message, renamed.format()
    assert close(result.pose("attachment_joint"), (0, 2, 3))


def test_sdf_1_9_joint_sharing_a_link_name_is_a_duplicate(diagnostics_checked):
    diagnostics_checked.watch(load(FIXTURES / "sdf_1_9_joint_named_like_link_is_duplicate.sdf"))
    assert diagnostics_checked.take_error(Code.DUPLICATE_NAME).line == 7


# ---- resolution -----------------------------------------------------------------------

def test_joint_pose_defaults_to_the_child_frame(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "joint_pose_default_relative_to_child.sdf"))
    assert result.ok
    # C is at x=1 yawed 90 degrees; the joint is 1 along C's y, i.e. -1 along model x.
    assert close(result.pose("J"), (0, 0, 0), (0, 0, math.pi / 2), tol=1e-12)


def test_placement_frame_puts_the_named_frame_on_the_pose(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "nested_model_placement_frame.sdf"))
    assert result.ok, result.diagnostics
    assert close(result.pose("tool::mount"), (1, 2, 3))
    assert close(result.pose("tool::mount", "target"), (0, 0, 0))
    assert result.attached_link("tool::mount") == "tool::body"


def test_joint_between_nested_models_and_attached_links(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "joint_between_nested_models.sdf"))
    assert result.ok, result.diagnostics
    assert close(result.pose("gripper::body"), (0, 0, 1))
    assert result.attached_link("arm::gripper_mount") == "arm::body"
    assert result.attached_link("weld") == "gripper::body"
    assert result.attached_link("gripper") == "gripper::body"


def deep_chain(n):
    links = ['<link name="L0"/>']
    links += [f'<link name="L{i}"><pose relative_to="L{i - 1}">1 0 0 0 0 0.001</pose></link>'
              for i in range(1, n)]
    return f'<sdf version="1.9"><model name="chain">{"".join(links)}</model></sdf>'


def test_ten_thousand_deep_relative_to_chain_resolves_without_recursion(diagnostics_checked):
    n = 10_000
    result = diagnostics_checked.watch(load_string(deep_chain(n)))
    assert result.ok
    last = result.pose(f"L{n - 1}")
    # Composing n-1 steps of (1 m forward, 0.001 rad yaw) traces a circle arc.
    yaw = 0.001 * (n - 1)
    assert abs(last.rpy()[2] - math.atan2(math.sin(yaw), math.cos(yaw))) < 1e-9
    radius = 1 / (2 * math.sin(0.0005))
    chord = abs(2 * radius * math.sin(yaw / 2))
    assert abs(math.hypot(*last.position[:2]) - chord) < 1e-6


def test_relative_to_cycle_is_reported_not_looped(diagnostics_checked):
    text = ('<sdf version="1.9"><model name="m"><link name="A"><pose relative_to="B"/></link>'
            '<link name="B"><pose relative_to="A"/></link></model></sdf>')
    result = diagnostics_checked.watch(load_string(text))
    cycle = diagnostics_checked.take_error(Code.POSE_RELATIVE_TO_CYCLE)
    assert "A -> B -> A" in cycle.message, cycle.format()
    assert result.pose("A") is None


@pytest.mark.parametrize("version", ["1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10",
                                     "1.11", "1.12"])
def test_every_supported_version_loads(version, diagnostics_checked):
    text = (f'<sdf version="{version}"><model name="m"><link name="a"/><link name="b">'
            '<pose>1 2 3 0 0 0</pose></link><joint name="j" type="revolute"><parent>a</parent>'
            '<child>b</child><axis><xyz>0 0 1</xyz></axis></joint></model></sdf>')
    result = diagnostics_checked.watch(load_string(text))
    assert result.ok
    assert close(result.pose("j"), (1, 2, 3))


def test_newer_version_is_refused(diagnostics_checked):
    diagnostics_checked.watch(
        load_string('<sdf version="1.13"><model name="m"><link name="a"/></model></sdf>'))
    refused = diagnostics_checked.take_error(Code.VERSION_UNSUPPORTED)
    assert "1.13" in refused.message, refused.format()
