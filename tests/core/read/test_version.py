"""``core.read.version``: the one place that knows SDFormat versions.

What the reader and the graph make of an older file, and what :func:`rewrite` writes for
a newer one, must agree: the rewritten text, read under the newer rules, has the same
names, poses and axes as the original read under its own.
"""
from __future__ import annotations

import pytest
from lxml import etree

from urdf_sdf import Context, frames_report, load_string
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.read.version import (
    AXIS_FRAMES,
    AXIS_MIMIC,
    FRAME_SEMANTICS,
    NESTED_WORLD_MODELS,
    NEWEST_VERSION,
    PLAIN_WRITTEN,
    WRITTEN_VERSIONS,
    legacy_name,
    parse_version,
    printed_version,
    rewrite,
    supported_version,
    version_text,
    written_version,
)

LEGACY_1_6 = b"""<sdf version="1.6">
  <model name="m">
    <link name="a"/>
    <link name="b"><pose frame="a">0 0 1 0 0 0</pose></link>
    <joint name="a" type="revolute">
      <parent>a</parent><child>b</child>
      <axis><xyz>1 0 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis>
    </joint>
    <frame name="a"><pose frame="b">1 0 0 0 0 0</pose></frame>
  </model>
</sdf>"""

LEGACY_1_4 = b"""<sdf version="1.4">
  <model name="m">
    <link name="a"/>
    <link name="b"><pose>0 0 1 0 0 1.5707963267948966</pose></link>
    <joint name="j" type="revolute">
      <parent>a</parent><child>b</child><axis><xyz>1 0 0</xyz></axis>
    </joint>
  </model>
</sdf>"""


def test_versions_parse_and_print():
    assert parse_version(" 1.10 ") == (1, 10)
    assert parse_version("1") is None and parse_version(None) is None
    assert supported_version("1.0") == (1, 0) and supported_version(" 1.12 ") == (1, 12)
    assert supported_version("1.13") is None and supported_version("2.0") is None
    assert version_text((1, 9)) == "1.9"
    assert AXIS_FRAMES < FRAME_SEMANTICS < NESTED_WORLD_MODELS < AXIS_MIMIC <= NEWEST_VERSION


def test_written_versions_are_1_4_to_the_newest_spelt_as_written():
    assert WRITTEN_VERSIONS == ("1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11",
                                "1.12")
    assert written_version("1.12") == (1, 12) and written_version("1.4") == (1, 4)
    assert written_version(version_text(PLAIN_WRITTEN)) == (1, 6)
    # what <sdf version=...> would not spell as the version: refused, not normalised
    for text in ("1.3", "1.13", " 1.7", "1.07", "1", None):
        assert written_version(text) is None, text


def test_legacy_name_is_the_first_free_suffixed_name():
    assert legacy_name("a", "joint", {"a"}) == "a_joint"
    assert legacy_name("a", "frame", {"a", "a_frame", "a_frame0"}) == "a_frame1"


def test_a_1_4_file_including_newer_models_takes_the_newest_version():
    assert printed_version((1, 4), [(1, 6), (1, 8)]) == (1, 8)
    assert printed_version((1, 4), [(1, 4)]) == (1, 4)
    assert printed_version((1, 6), [(1, 8)]) == (1, 6)


def test_the_graph_renames_a_legacy_collision_with_legacy_name():
    result = load_string(LEGACY_1_6, context=Context())
    renamed = [d for d in result.diagnostics if d.code is Code.NAME_RENAMED]
    assert len(renamed) == 2, [d.format() for d in result.diagnostics]
    model = result.document.model
    assert [j.name for j in model.joints] == ["a"]  # the model keeps the written name
    assert {"a_joint", "a_frame"} <= set(frames_report(result)["joints"]) | \
        set(frames_report(result)["frames"])


@pytest.mark.parametrize("text", [LEGACY_1_6, LEGACY_1_4])
def test_rewritten_content_means_the_same_under_the_newer_rules(text):
    original = load_string(text, context=Context())
    root = etree.fromstring(text)
    source = parse_version(root.get("version"))
    notes = rewrite(root, source, (1, 8), lambda include: None)
    assert notes  # something changed, and the caller can say what
    root.set("version", "1.8")
    rewritten = load_string(etree.tostring(root), context=Context())
    assert not rewritten.diagnostics.has_errors, [d.format() for d in rewritten.diagnostics]
    assert not any(d.code is Code.NAME_RENAMED for d in rewritten.diagnostics)
    assert axes(rewritten) == axes(original)
    before, after = frames_report(original), frames_report(rewritten)
    for section in ("links", "joints", "frames"):
        assert before[section].keys() == after[section].keys()
        for name, entry in before[section].items():
            assert entry == pytest.approx(after[section][name], abs=1e-12), (section, name)


def axes(result) -> list:
    """Each joint axis's direction and the frame it is expressed in, as the reader read it."""
    return [(axis.xyz, axis.expressed_in) for joint in result.document.model.joints
            for axis in joint.axes]


def test_rewriting_newer_content_for_an_older_version_drops_what_it_would_misread():
    root = etree.fromstring(b'<model name="m"><link name="l"><pose frame="x">0 0 0 0 0 0</pose>'
                            b'</link><joint name="j" type="fixed"><axis><use_parent_model_frame>'
                            b'true</use_parent_model_frame></axis></joint></model>')
    notes = rewrite(root, (1, 8), (1, 6), lambda include: None)
    assert notes and root.find("link/pose").get("frame") is None
    assert root.find("joint/axis/use_parent_model_frame") is None


def test_an_included_models_name_takes_part_in_the_legacy_rename():
    root = etree.fromstring(b'<model name="m"><link name="l"/><include><uri>x.sdf</uri></include>'
                            b'<joint name="arm" type="fixed"><parent>l</parent><child>l</child>'
                            b'</joint></model>')
    rewrite(root, (1, 6), (1, 8), lambda include: "arm")
    assert root.find("joint").get("name") == "arm_joint"
