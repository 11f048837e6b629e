"""The conversion report (core.inspect.conversion_report): what it counts in the written
document and the input, how coded warnings are sorted, the verdict's order, its JSON."""
from __future__ import annotations

import jsonschema

from urdf_sdf import json_schema
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.inspect.changes import Category
from urdf_sdf.core.inspect.conversion_report import (
    Change,
    ConversionReport,
    Verdict,
    conversion_report,
    verdict_totals,
    written_counts,
)

SDF = b"""<sdf xmlns:urdf="urn:urdf-sdf:urdf" xmlns:drake="http://drake.mit.edu" version="1.11">
  <model name="m">
    <link name="a">
      <inertial urdf:implicit="true"><mass>0</mass></inertial>
      <visual name="v"/><collision name="c"/>
      <sensor name="s"><urdf:ignored/></sensor>
    </link>
    <link name="b" drake:flag="1" urdf:name="kept as markup"/>
    <joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>
    <frame name="tool" urdf:lumped="link"/>
    <joint name="loop" type="revolute" urdf:gazebo="true"/>
    <urdf:transmission name="t"><urdf:joint name="j"/></urdf:transmission>
    <drake:collision_filter_group name="g"/>
  </model>
</sdf>"""

URDF = b"""<robot name="r">
  <link name="a"><visual/><collision/></link>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <gazebo reference="a"><sensor name="s"/></gazebo>
  <gazebo><plugin name="p"/></gazebo>
</robot>"""


def warning(code: Code) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, "m", "f.urdf", 1)


def test_the_written_sdf_is_counted_by_kind_and_its_namespaced_content_as_carried():
    written = written_counts(SDF, "sdf")
    assert written.kinds == {"links": 2, "joints": 2, "frames": 1, "visuals": 1,
                             "collisions": 1, "sensors": 1}
    # urdf: attributes are the converters' markup; other namespaces' are content
    assert written.carried == {"@drake:flag": 1, "drake:collision_filter_group": 1,
                               "urdf:ignored": 1, "urdf:transmission": 1}
    assert (written.implicit_inertials, written.lumped_links, written.from_gazebo) == (1, 1, 1)


def test_a_urdf_s_gazebo_blocks_are_carried_and_not_counted_as_its_own_elements():
    written = written_counts(URDF, "urdf")
    assert written.kinds == {"links": 2, "joints": 1, "visuals": 1, "collisions": 1}
    assert written.carried == {"<gazebo>": 2}


def test_warnings_are_sorted_by_their_category_and_notes_are_left_out():
    report = conversion_report(None, [warning(Code.LINK_INERTIA_REPAIRED),
                                      warning(Code.LINK_INERTIA_REPAIRED),
                                      warning(Code.XML_REPAIRED)], URDF, "urdf")
    assert report.changes == [Change(Category.REPAIRED, "LINK_INERTIA_REPAIRED", 2,
                                     Code.LINK_INERTIA_REPAIRED)]
    assert report.verdict == "approximated: LINK_INERTIA_REPAIRED (2)"


def test_counted_changes_no_warning_states_are_in_the_report():
    report = conversion_report(None, [], SDF, "sdf")
    assert {(c.category, c.what, c.count) for c in report.changes} == {
        (Category.DEFAULTED, "links without <inertial>, written as mass 0", 1),
        (Category.APPROXIMATED, "links lumped into their parent by --lump-fixed", 1),
        (Category.APPROXIMATED, "links and joints of <gazebo> blocks, written as SDF ones "
                                "(as libsdformat reads them)", 1)}


def test_the_verdict_is_the_worst_change():
    def verdict(*categories, carried=None):
        report = ConversionReport("f", "urdf", "sdf", True, carried=carried or {})
        report.changes = [Change(c, c.value, 1) for c in categories]
        return report.verdict_kind, report.verdict

    assert verdict() == (Verdict.EXACT, "exact")
    assert verdict(carried={"urdf:x": 1}) == (Verdict.EXACT_WITH, "exact, with carried content")
    assert verdict(Category.DEFAULTED, Category.RESTORED) == (
        Verdict.EXACT_WITH, "exact, with carried content restored, defaults made explicit")
    assert verdict(Category.DEFAULTED, Category.REPAIRED)[0] is Verdict.APPROXIMATED
    assert verdict(Category.REPAIRED, Category.RENAMED) == (
        Verdict.CHANGED, "changed: renamed (1), repaired (1)")
    assert verdict(Category.DROPPED, Category.APPROXIMATED) == (
        Verdict.CHANGED, "changed: dropped (1), approximated (1)")


def test_an_error_or_nothing_written_is_refused():
    errors = [Diagnostic(Code.FILE_READ, Severity.ERROR, "m", "f"), warning(Code.NAME_RENAMED)]
    report = conversion_report(None, errors, None, "sdf")
    assert (report.verdict_kind, report.verdict) == (Verdict.REFUSED, "refused: FILE_READ")
    assert report.lines() == ["<stdin>: report: refused: FILE_READ"]
    written = conversion_report(None, [], URDF, "urdf")
    assert written.not_written([errors[0]]).verdict == "refused: FILE_READ"


def test_the_text_names_each_section_and_says_when_nothing_was_dropped():
    report = conversion_report(None, [warning(Code.CONTENT_KEPT_IN_GAZEBO)], URDF, "urdf")
    report.file = "robot.sdf"
    assert report.lines() == [
        "robot.sdf: report: exact, with carried content",
        "  converted: links 0 -> 2, joints 0 -> 1, visuals 0 -> 1, collisions 0 -> 1",
        "  carried (in the URDF): <gazebo> (2) [CONTENT_KEPT_IN_GAZEBO (1)]",
        "  dropped: nothing"]


def test_the_json_follows_the_conversion_schema():
    schema = json_schema("conversion")
    report = conversion_report(None, [warning(Code.FRAME_DROPPED)], SDF, "sdf")
    data = report.to_json()
    jsonschema.Draft202012Validator(schema).validate(
        {"ok": True, "output": None, "diagnostics": [], "document": "", "report": data})
    assert data["verdict"] == {"kind": "changed", "text": report.verdict}
    assert data["converted"]["links"] == {"read": 0, "written": 2}


def test_the_total_line_counts_the_verdicts():
    exact = ConversionReport("a", "urdf", "sdf", True)
    refused = ConversionReport("b", "urdf", "sdf", False)
    assert verdict_totals([exact, exact, refused]) == "reports: 3 files: 2 exact, 1 refused"
