"""Reading never raises: random, mostly-broken SDFormat documents end in diagnostics."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from tests.support import examples
from urdf_sdf import frames_report, load_string

NAMES = st.sampled_from(["a", "b", "c", "world", "__model__", "__root__", "m::a", "m", "",
                         "x::y::z", "__x__"])
POSE_TEXT = st.sampled_from(["", "1 2 3 0 0 0", "1 2 3", "nan 0 0 0 0 0", "a b c d e f",
                             "0 0 0 0 0 0 1", "1e309 0 0 0 0 0"])
VERSIONS = st.sampled_from(["1.0", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.11", "1.12", "1.13",
                            "2.0", "x"])


@st.composite
def pose(draw):
    el = etree.Element("pose")
    el.text = draw(POSE_TEXT)
    if draw(st.booleans()):
        el.set("relative_to", draw(NAMES))
    if draw(st.booleans()):
        el.set("rotation_format", draw(st.sampled_from(["euler_rpy", "quat_xyzw", "bad"])))
    if draw(st.booleans()):
        el.set("degrees", draw(st.sampled_from(["true", "false", "maybe"])))
    return el


@st.composite
def entity(draw, depth):
    tag = draw(st.sampled_from(["link", "joint", "frame", "model", "include"] if depth < 2
                               else ["link", "joint", "frame"]))
    el = etree.Element(tag)
    if draw(st.booleans()) or tag != "include":
        el.set("name", draw(NAMES))
    if draw(st.booleans()):
        el.append(draw(pose()))
    if tag == "joint":
        el.set("type", draw(st.sampled_from(["revolute", "fixed", "ball", ""])))
        for part in ("parent", "child"):
            if draw(st.booleans()):
                etree.SubElement(el, part).text = draw(NAMES)
        if draw(st.booleans()):
            axis = etree.SubElement(el, "axis")
            xyz = etree.SubElement(axis, "xyz")
            xyz.text = draw(st.sampled_from(["0 0 1", "0 0 0", "1", "a b c"]))
            if draw(st.booleans()):
                xyz.set("expressed_in", draw(NAMES))
    elif tag == "frame" and draw(st.booleans()):
        el.set("attached_to", draw(NAMES))
    elif tag == "model":
        if draw(st.booleans()):
            el.set("canonical_link", draw(NAMES))
        if draw(st.booleans()):
            el.set("placement_frame", draw(NAMES))
        for child in draw(st.lists(entity(depth + 1), max_size=4)):
            el.append(child)
    elif tag == "include":
        etree.SubElement(el, "uri").text = draw(st.sampled_from(["missing", "", "file://x.sdf"]))
    return el


@st.composite
def document(draw):
    root = etree.Element("sdf")
    root.set("version", draw(VERSIONS))
    top = etree.SubElement(root, draw(st.sampled_from(["model", "world"])))
    top.set("name", draw(NAMES))
    for child in draw(st.lists(entity(0), max_size=8)):
        top.append(child)
    return etree.tostring(root)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_random_documents_end_in_diagnostics_not_exceptions(data):
    result = load_string(data, "random.sdf")
    report = frames_report(result)
    assert report["ok"] == result.ok
    if not result.ok:
        assert any(d.is_error for d in result.diagnostics)
