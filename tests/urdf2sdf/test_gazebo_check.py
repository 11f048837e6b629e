"""urdf2sdf: every element a ``<gazebo>`` block copies is checked, at every depth, against
SDFormat's element tree of the version written (``urdf2sdf/gazebo_check.py``).

The rule: "`<gazebo>` content must be valid in the SDF version written ... check every
copied element against the SDFormat element tree of that version: unknown ones get a
warning that names them." What SDFormat does not define where it lands is kept out of
the SDF proper as ``<urdf:gazebo>`` content of the element the block extends (inside
its ancestors), with one ``GAZEBO_ELEMENT_UNDEFINED`` warning naming its path, the
version and its line; ``sdf2urdf`` gives it back in a ``<gazebo>`` block, which converts
to the same SDF again.

The fixtures are ``fixtures/urdf2sdf/gazebo/`` goldens (``test_urdf2sdf_gazebo.py``
compares them, loads them in libsdformat and checks every element against SDFormat's
description files). libsdformat 12's default policy only logs an undefined *element*
(Drake, stricter, refuses it), but warns about an undefined *attribute* on stderr: the
SDF written must load without such a warning.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from tests.reference import reference_stderr
from tests.support import assert_xml_equivalent, sdformat_spec_dir
from tests.urdf2sdf.test_gazebo import SPEC_ROOT, Spec, fixture_version, undefined_elements
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.custom import qname
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.sdf2urdf.convert import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "urdf2sdf" / "gazebo"
UNDEFINED = Code.GAZEBO_ELEMENT_UNDEFINED

# Fixture -> (line, what the warning says) for each GAZEBO_ELEMENT_UNDEFINED, and where
# the kept content comes back in the URDF of the round trip.
CASES = {
    "gazebo_sensor_unknown_nested_element": (
        [(12, "<sensor name='imu_sensor'><imu><foo> in the <gazebo> block for link [base] "
              "is not an SDFormat 1.6 element of <imu>"),
         (15, "<sensor name='imu_sensor'><bogus> in the <gazebo> block for link [base] is "
              "not an SDFormat 1.6 element of <sensor>")],
        ["gazebo[@reference='base']/sensor[@name='imu_sensor']/imu/foo",
         "gazebo[@reference='base']/sensor[@name='imu_sensor']/bogus/deeper"]),
    "gazebo_collision_surface_unknown_element": (
        [(14, "<collision><surface><bogus> in the <gazebo> block for link [base] is not an "
              "SDFormat 1.6 element of <surface>"),
         (17, "<collision><notATag> in the <gazebo> block for link [base] is not an "
              "SDFormat 1.6 element of <collision>")],
        ["gazebo[@reference='base']/collision/surface/bogus",
         "gazebo[@reference='base']/collision/notATag"]),
    "gazebo_visual_material_unknown_element": (
        [(13, "<material><glow> in the <gazebo> block for link [base] is not an SDFormat "
              "1.6 element of <material>")],
        ["gazebo[@reference='base']/material/glow"]),
    "gazebo_element_attribute_undefined": (
        [(11, "attribute [fov] of <sensor name='camera'><camera name='head'> in the <gazebo> "
              "block for link [base]: not an SDFormat 1.6 attribute of <camera>"),
         (15, "attribute [range] of <sensor name='sonar'> in the <gazebo> block for link "
              "[base]: not an SDFormat 1.6 attribute of <sensor>"),
         (19, "<sensor name='empty'><imu><bogus> in the <gazebo> block for link [base] is not "
              "an SDFormat 1.6 element of <imu>")],
        ["gazebo[@reference='base']/sensor[@name='camera']/camera[@fov='wide']/horizontal_fov",
         "gazebo[@reference='base']/sensor[@range='2']/sonar/radius",
         "gazebo[@reference='base']/sensor[@name='empty']/imu/bogus"]),
    "gazebo_joint_force_torque_measure_direction_sdf_1_4": (
        [(17, "<sensor name='left_arm_ft'><force_torque><measure_direction> in the <gazebo> "
              "block for joint [l_arm_ft_sensor] needs SDFormat 1.5 (writing 1.4)")],
        ["gazebo[@reference='l_arm_ft_sensor']/sensor[@name='left_arm_ft']/force_torque/"
         "measure_direction"]),
    "gazebo_link_unknown_element_kept": (
        [(8, "<customThing> in the <gazebo> block for link [base] is not an SDFormat 1.6 "
             "element of <link>")],
        ["gazebo[@reference='base']/customThing/nested"]),
}
# The round trip gives back the kept content, and the SDF converted again is the same,
# but for what sdf2urdf reads into the URDF itself: a visual's material comes back as a
# named URDF material (urdf:name in the SDF written again).
SDF_CHANGES_ON_THE_WAY_BACK = {"gazebo_visual_material_unknown_element"}


def to_sdf(path: Path, version: str | None):
    conversion = convert_urdf(load(str(path), Context()), ToSdf(sdf_version=version))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    return conversion


@pytest.mark.parametrize("name", sorted(CASES))
def test_warning_names_the_element_the_version_and_the_line(name, diagnostics_checked):
    path = FIXTURES / f"{name}.urdf"
    conversion = diagnostics_checked.watch(to_sdf(path, fixture_version(name)))
    for line, text in CASES[name][0]:
        warning = diagnostics_checked.take_warning(UNDEFINED)
        assert (warning.file, warning.line) == (str(path), line)
        target = "joint [l_arm_ft_sensor]" if "joint [" in text else "link [base]"
        assert warning.message == f"{text}; kept as <urdf:gazebo> content in {target}"
    assert conversion.xml


@pytest.mark.parametrize("name", sorted(CASES))
def test_sdf_written_holds_only_what_sdformat_defines(name):
    conversion = to_sdf(FIXTURES / f"{name}.urdf", fixture_version(name))
    spec = Spec(sdformat_spec_dir(SPEC_ROOT, conversion.version))
    assert undefined_elements(conversion.xml, spec) == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_sdf_written_loads_in_libsdformat_without_an_undefined_warning(name, tmp_path,
                                                                      sdf_reference):
    out = tmp_path / f"{name}.sdf"
    out.write_bytes(to_sdf(FIXTURES / f"{name}.urdf", fixture_version(name)).xml)
    report = sdf_reference(out)
    assert report["ok"] and not report["diagnostics"], report["diagnostics"]
    assert "not defined in SDF" not in reference_stderr(sdf_reference.binary, out)


def test_libsdformat_warns_about_the_content_copied_unchecked(tmp_path, sdf_reference):
    """The two checks above are not vacuous: the block content of
    gazebo_element_attribute_undefined copied verbatim, as urdf2sdf did before, makes
    libsdformat warn about the attribute, and the description check find the element."""
    block = etree.parse(str(FIXTURES / "gazebo_element_attribute_undefined.urdf")).find(
        "gazebo")
    sdf = etree.fromstring(b"<sdf version='1.6'><model name='m'><link name='base'/>"
                           b"</model></sdf>")
    sdf.find("model/link").extend(block)
    out = tmp_path / "unchecked.sdf"
    out.write_bytes(etree.tostring(sdf))
    stderr = reference_stderr(sdf_reference.binary, out)
    assert "XML Attribute[fov] in element[camera] not defined in SDF" in stderr
    assert "XML Attribute[range] in element[sensor] not defined in SDF" in stderr
    spec = Spec(sdformat_spec_dir(SPEC_ROOT, "1.6"))
    assert undefined_elements(out.read_bytes(), spec) == ["sdf/model/link/sensor/imu/bogus"]


def round_trip(name: str, tmp_path: Path):
    """(first SDF, URDF given back, SDF of that URDF)."""
    version = fixture_version(name)
    first = to_sdf(FIXTURES / f"{name}.urdf", version)
    sdf = tmp_path / f"{name}.sdf"
    sdf.write_bytes(first.xml)
    back = convert_sdf(load(str(sdf), Context()), ToUrdf())
    assert back.ok, [d.format() for d in back.diagnostics]
    urdf = tmp_path / f"{name}.urdf"
    urdf.write_bytes(back.xml)
    return first, etree.fromstring(back.xml), to_sdf(urdf, version)


def kept_content(sdf_xml: bytes) -> list[bytes]:
    root = etree.fromstring(sdf_xml)
    return [etree.tostring(el, method="c14n") for el in root.iter(qname("gazebo"))]


@pytest.mark.parametrize("name", sorted(CASES))
def test_round_trip_gives_back_the_kept_content(name, tmp_path):
    """sdf2urdf gives the kept content back in a <gazebo> block of the same reference, at
    the same place below it; converted again, it is kept again, the same, with the same
    warnings, and the SDF is the same."""
    first, urdf, again = round_trip(name, tmp_path)
    for where in CASES[name][1]:
        assert urdf.find(where) is not None, where
    assert kept_content(again.xml) == kept_content(first.xml) != []
    assert [(d.code, d.message) for d in again.diagnostics if d.code is UNDEFINED] == \
        [(d.code, d.message) for d in first.diagnostics if d.code is UNDEFINED]
    if name not in SDF_CHANGES_ON_THE_WAY_BACK:
        assert_xml_equivalent(again.xml, first.xml)


@pytest.mark.parametrize("version", ["1.11", "1.12"])
def test_newer_version_than_described_names_the_version_checked(version, diagnostics_checked):
    """SDFormat 1.10 to 1.12 are checked against the newest described version (1.9), and
    the warning says so."""
    path = FIXTURES / "gazebo_sensor_unknown_nested_element.urdf"
    conversion = diagnostics_checked.watch(to_sdf(path, version))
    for _ in range(2):
        warning = diagnostics_checked.take_warning(UNDEFINED)
        assert f"is not an SDFormat 1.9 (the newest version described; writing {version}) " \
               "element of" in warning.message
    assert etree.fromstring(conversion.xml).find(".//sensor/imu/foo") is None


def test_plugin_content_is_never_checked(diagnostics_checked):
    """A plugin's content is free (copy_data), inside a sensor or on the model."""
    path = FIXTURES / "gazebo_sensor_unknown_nested_element.urdf"
    conversion = diagnostics_checked.watch(to_sdf(path, None))
    diagnostics_checked.take_warning(UNDEFINED)
    diagnostics_checked.take_warning(UNDEFINED)
    plugin = etree.fromstring(conversion.xml).find(".//sensor/plugin")
    assert plugin.findtext("anything/goes") == "here"


def test_namespaced_block_child_is_kept_as_custom_content(tmp_path, diagnostics_checked):
    """A block's child in a namespace of its own (PR2's Gazebo 0.x controllers) is custom
    content, not SDFormat's: kept with its block (a plain WARNING naming the namespace),
    and given back by the round trip, namespace and all."""
    name = "gazebo_namespaced_element_kept"
    path = FIXTURES / f"{name}.urdf"
    first, urdf, again = round_trip(name, tmp_path)
    diagnostics_checked.watch(first)
    warning = diagnostics_checked.take_warning(Code.GAZEBO_ELEMENT_UNDEFINED)
    assert warning.line == 9 and warning.file == str(path)
    assert warning.message == (
        "<controller:gazebo_ros_p3d name='p3d_base_controller'> in the <gazebo> block for the "
        "model is not SDFormat content (namespace "
        "[http://playerstage.sourceforge.net/gazebo/xmlschema/#controller]); kept as "
        "<urdf:gazebo> content in the model")
    namespace = "http://playerstage.sourceforge.net/gazebo/xmlschema/#controller"
    assert urdf.find(f"gazebo/{{{namespace}}}gazebo_ros_p3d/bodyName").text == "base_link"
    assert_xml_equivalent(again.xml, first.xml)


def test_an_element_left_empty_by_the_cut_does_not_replace_what_it_extends(
        diagnostics_checked):
    """A later block's <sensor name='s'> holding only an undefined element (and a comment)
    is not written: merged, the empty sensor would replace the one the first block made."""
    urdf = (b"<robot name='r'>\n<link name='base'/>\n"
            b"<gazebo reference='base'><sensor name='s' type='imu'>"
            b"<always_on>1</always_on></sensor></gazebo>\n"
            b"<gazebo reference='base'><sensor name='s' type='imu'><!-- note -->\n"
            b"<bogus/></sensor></gazebo>\n</robot>")
    conversion = convert_urdf(diagnostics_checked.watch(load_string(urdf, "r.urdf")), ToSdf())
    diagnostics_checked.watch(conversion)
    warning = diagnostics_checked.take_warning(UNDEFINED)
    assert (warning.line, warning.message.split(" in the")[0]) == (5, "<sensor name='s'><bogus>")
    link = etree.fromstring(conversion.xml).find("model/link")
    [sensor] = link.findall("sensor")
    assert sensor.findtext("always_on") == "1"
    kept = link.find(f"{qname('gazebo')}/{qname('sensor')}")
    assert kept.get("name") == "s" and kept.find(qname("bogus")) is not None
