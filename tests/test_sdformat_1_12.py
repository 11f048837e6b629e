"""SDFormat 1.12 (libsdformat 15, gz-sim's test worlds): read, and written when asked.

1.12 changes only a world's ``<state>`` (``core.read.version``), which is not read, so a
1.12 file means what the same file declaring 1.11 means, and a model written for 1.12 is
the 1.11 one under another version number. The default output version does not move to
1.12 (``docs/urdf2sdf.md``).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from urdf_sdf import Context, diff, frames_report, load, load_string, to_sdf, to_urdf
from urdf_sdf.core.base.diagnostics import Code

FIXTURES = Path(__file__).parent / "fixtures"
WORLD_1_12 = FIXTURES / "core" / "sdf_1_12_gz_sim_world_with_state.sdf"
MIMIC = FIXTURES / "urdf2sdf" / "features" / "mimic_joint.urdf"


def test_a_gz_sim_world_declaring_1_12_reads_as_the_same_world_in_1_11():
    result = load(WORLD_1_12, Context())
    assert result.ok and not list(result.diagnostics), \
        [d.format() for d in result.diagnostics]
    assert [m.name for m in result.document.world.models] == ["ground_plane", "pendulum"]
    as_1_11 = load_string(WORLD_1_12.read_bytes().replace(b'version="1.12"', b'version="1.11"'),
                          str(WORLD_1_12), Context())
    assert frames_report(result) == frames_report(as_1_11)
    # the arm hangs 0.25 below the hinge, 0.1 above the model's origin at (1, 0, 0.5)
    assert result.pose("pendulum::arm").position == pytest.approx((1, 0, 0.35))


def test_a_version_after_1_12_is_still_refused():
    text = WORLD_1_12.read_bytes().replace(b'version="1.12"', b'version="1.13"')
    result = load_string(text, str(WORLD_1_12), Context())
    [refused] = [d for d in result.diagnostics if d.code is Code.VERSION_UNSUPPORTED]
    assert "(1.0 to 1.12)" in refused.message and refused.line == 6, refused.format()


def test_a_model_written_for_1_12_is_the_1_11_one_and_reads_back(tmp_path):
    written = to_sdf(str(MIMIC), sdf_version="1.12")
    assert written.ok and written.version == "1.12"
    root = etree.fromstring(written.xml)
    assert root.get("version") == "1.12"
    assert root.find("model/joint/axis/mimic") is not None  # //axis/mimic: 1.11 on
    as_1_11 = to_sdf(str(MIMIC), sdf_version="1.11")
    assert written.xml == as_1_11.xml.replace(b'version="1.11"', b'version="1.12"')
    sdf = tmp_path / "mimic_joint.sdf"
    sdf.write_bytes(written.xml)
    loaded = load(sdf, Context())
    assert loaded.ok and not loaded.diagnostics.has_errors, \
        [d.format() for d in loaded.diagnostics]
    assert diff(str(MIMIC), loaded) == []
    back = etree.fromstring(to_urdf(loaded).xml)
    assert [dict(m.attrib) for m in back.iter("mimic")] == \
        [dict(m.attrib) for m in etree.parse(str(MIMIC)).iter("mimic")]


def test_the_default_output_version_stays_the_lowest_that_expresses_the_model():
    assert to_sdf(str(MIMIC)).version == "1.11"
    assert to_sdf(str(FIXTURES / "urdf2sdf" / "features" / "joint_prismatic.urdf")).version \
        == "1.6"
