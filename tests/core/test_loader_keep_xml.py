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
from urdf_sdf.sdf2urdf.convert import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

SAMPLES = Path(__file__).parents[2] / "samples"
FIXTURES = Path(__file__).parents[1] / "fixtures"
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


@pytest.mark.parametrize("path", [p for p in CASES if p.suffix == ".sdf"], ids=lambda p: p.name)
def test_without_the_xml_sdf_links_and_joints_read_are_gone_from_the_tree(path):
    """What stays is what a converter copies (see the test below); the rest is freed and
    the model keeps no reference into it."""
    model = loaded(path, False).document.model
    freed = [link for link in model.links if link.xml is None]
    assert freed and all(link.pose.xml is None and all(shape.xml is None for shape in
                                                        link.visuals + link.collisions)
                         for link in freed)
    assert [el.get("name") for el in model.xml.findall("link")] == \
        [link.name for link in model.links if link.xml is not None]
    assert [el.get("name") for el in model.xml.findall("joint")] == \
        [joint.name for joint in model.joints if joint.xml is not None]
    assert loaded(path, True).document.model.xml.find("link") is not None


URDF_FEATURES = sorted((FIXTURES / "urdf2sdf" / "features").glob("*.urdf")) + \
    sorted((FIXTURES / "urdf2sdf" / "gazebo").glob("*.urdf"))


@pytest.mark.parametrize("path", URDF_FEATURES, ids=lambda p: p.name)
def test_urdf2sdf_without_the_xml_writes_the_same_sdf(path):
    """``urdf2sdf`` loads without the XML: the reader keeps the elements urdf2sdf copies
    (carried elements, calibration, floating and planar joints, mimic, zero-mass
    inertials of links that become frames, geometry URDF does not define)."""
    kept, dropped = loaded(path, True), loaded(path, False)
    for options in (ToSdf(), ToSdf(relative=True), ToSdf(sdf_version="1.9")):
        with_xml, without = convert_urdf(kept, options), convert_urdf(dropped, options)
        assert without.xml == with_xml.xml
        assert [d.format() for d in without.diagnostics] == \
            [d.format() for d in with_xml.diagnostics]


def test_a_urdf_link_or_joint_keeps_its_xml_only_when_the_model_does_not_hold_it():
    path = FIXTURES / "urdf" / "urdf_every_element.urdf"
    model = loaded(path, False).document.model
    whole = loaded(path, True).document.model
    kept_links = {link.name for link in model.links if link.xml is not None}
    kept_joints = {joint.name for joint in model.joints if joint.xml is not None}
    assert kept_links == {link.name for link in whole.links
                          if link.carried or (link.inertial and link.inertial.mass == 0)}
    assert kept_joints == {joint.name for joint in whole.joints
                           if joint.type in ("floating", "planar") or joint.extras
                           or joint.carried or joint.xml.find("mimic") is not None}
    assert kept_joints and len(kept_joints) < len(model.joints)
    # the robot's element holds the kept ones only: the others were freed
    assert len(model.xml.findall("link")) == len(kept_links)
    assert len(model.xml.findall("joint")) == len(kept_joints)


SDF_CASES = sorted((FIXTURES / "sdf2urdf").glob("**/*.sdf")) + \
    [SAMPLES / "arm6.sdf", SAMPLES / "diff_drive.sdf", SAMPLES / "pendulum.sdf"]


@pytest.mark.parametrize("path", SDF_CASES, ids=lambda p: p.name)
def test_sdf2urdf_without_the_xml_writes_the_same_urdf(path):
    """``sdf2urdf`` loads without the XML: the reader keeps the elements sdf2urdf copies
    (sensors, surfaces, rich materials, geometry URDF lacks, custom content) and holds
    the ``urdf:`` markup of the rest (``markup``)."""
    kept, dropped = loaded(path, True), loaded(path, False)
    for options in (ToUrdf(), ToUrdf(approximate=True), ToUrdf(drop_frames=True)):
        with_xml, without = convert_sdf(kept, options), convert_sdf(dropped, options)
        assert without.xml == with_xml.xml
        assert [d.format() for d in without.diagnostics] == \
            [d.format() for d in with_xml.diagnostics]


def test_an_sdf_link_keeps_its_xml_only_for_what_a_converter_copies(tmp_path):
    source = tmp_path / "m.sdf"
    source.write_text('<sdf version="1.9"><model name="m">'
                      '<link name="plain"><visual name="v"><geometry><box><size>1 1 1</size>'
                      '</box></geometry></visual></link>'
                      '<link name="sensing"><sensor name="s" type="imu"/></link>'
                      '<link name="rough"><collision name="c"><geometry><sphere><radius>1'
                      '</radius></sphere></geometry><surface/></collision></link>'
                      '<link name="flat"><visual name="p"><geometry><plane/></geometry></visual>'
                      '</link></model></sdf>')
    model = loaded(source, False).document.model
    assert {link.name for link in model.links if link.xml is not None} == \
        {"sensing", "rough", "flat"}
    assert [el.get("name") for el in model.xml.findall("link")] == ["sensing", "rough", "flat"]
