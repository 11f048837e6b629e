"""Loading without the XML (``Context.keep_xml`` off), as the commands that do not
convert load: each link and joint element is freed once read, so a large file's tree is
never whole beside its model. What is read must not change: the same diagnostics, frames,
joints and graph; only the ``xml`` of links, joints and what they hold is gone."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from urdf_sdf import Context, frames_report, load
from urdf_sdf.core.write.dot import frame_graph_dot, kinematic_tree_dot

SAMPLES = Path(__file__).parent.parent / "samples"
FIXTURES = Path(__file__).parent / "fixtures"
CASES = [SAMPLES / "arm6.urdf", SAMPLES / "arm6.sdf", SAMPLES / "diff_drive.sdf",
         FIXTURES / "urdf" / "urdf_every_element.urdf",
         FIXTURES / "urdf" / "urdf_duplicate_joint.urdf"]


def loaded(path: Path, keep_xml: bool):
    context = Context()
    context.keep_xml = keep_xml
    return load(path, context)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_without_the_xml_the_same_model_is_read(path):
    kept, dropped = loaded(path, True), loaded(path, False)
    assert [d.format() for d in dropped.diagnostics] == [d.format() for d in kept.diagnostics]
    assert json.dumps(frames_report(dropped)) == json.dumps(frames_report(kept))
    assert frame_graph_dot(dropped) == frame_graph_dot(kept)
    if kept.ok:
        assert kinematic_tree_dot(dropped) == kinematic_tree_dot(kept)
    model_kept, model_dropped = kept.document.model, dropped.document.model
    for a, b in zip(model_kept.joints, model_dropped.joints):
        assert (a.name, a.type, a.parent, a.child, a.pose.text, a.limit, a.dynamics) == \
            (b.name, b.type, b.parent, b.child, b.pose.text, b.limit, b.dynamics)


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_without_the_xml_links_and_joints_are_gone_from_the_tree(path):
    model = loaded(path, False).document.model
    assert all(link.xml is None and link.pose.xml is None for link in model.links)
    assert all(shape.xml is None for link in model.links for shape in link.visuals)
    assert all(joint.xml is None for joint in model.joints)
    assert model.xml is not None  # the model's own element stays, with its other children
    assert model.xml.find("link") is None and model.xml.find("joint") is None
    assert loaded(path, True).document.model.xml.find("link") is not None
