"""Blank text between elements is not kept when a file is parsed (core.read.xmlio): it is
a third of a large SDFormat tree's memory, and every writer indents its output afresh.
Except next to a CDATA section, whose text the parser would merge with it: such a file
keeps its blank text, so that ``urdf-sdf print`` gives its text back as written."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import Context
from urdf_sdf.cli.printing import print_document
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.read.xmlio import keeps_blank_text, parse_xml

INDENTED = b"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m">
    <link name="a">
      <pose> 1 2 3 0 0 0 </pose>
    </link>
  </model>
</sdf>
"""


def test_blank_text_between_elements_is_dropped_and_leaf_text_kept():
    root = parse_xml(INDENTED, "m.sdf", Diagnostics())
    model = root[0]
    assert root.text is None and model.text is None and model[0].tail is None
    assert model[0][0].text == " 1 2 3 0 0 0 "  # an element's own text is never blank text


def test_a_cdata_section_or_an_encoding_the_search_cannot_see_keeps_blank_text():
    assert not keeps_blank_text(INDENTED)
    assert keeps_blank_text(INDENTED.replace(b"<link", b"<![CDATA[x]]><link"))
    assert keeps_blank_text(INDENTED.decode().replace('"1.0"?', '"1.0" encoding="utf-16"?')
                            .encode("utf-16"))
    assert not keeps_blank_text(b"\xef\xbb\xbf" + INDENTED)  # a UTF-8 byte order mark


def test_printed_text_next_to_a_cdata_section_is_kept_as_written(tmp_path: Path):
    """libsdformat's inertial_stats.sdf has a comment, blank text and a CDATA section in
    ``<sdf>``: the blank text before the section is part of the printed text."""
    source = tmp_path / "cdata.sdf"
    source.write_bytes(b'<?xml version="1.0"?>\n<sdf version="1.9">\n  <!-- about -->\n'
                       b'  <![CDATA[\n  notes\n  ]]>\n  <model name="m">\n'
                       b'    <link name="a"/>\n  </model>\n</sdf>\n')
    data, diagnostics = print_document(source, Context())
    assert not diagnostics
    assert data == (b"<?xml version='1.0' encoding='utf-8'?>\n<sdf version=\"1.9\">\n"
                    b"  <!-- about -->\n  \n  notes\n  \n  <model name=\"m\">\n"
                    b"    <link name=\"a\"/>\n  </model>\n</sdf>\n")
