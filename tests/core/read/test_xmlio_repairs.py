"""Lenient reading where every robot tool is lenient: urdfdom, libsdformat and Drake (all
TinyXML2) read a declaration with version 0.0, blank lines before the declaration and
'--' inside a comment. We read them too, each with an ``XML_REPAIRED`` warning at its
line, and every line of the document keeps its number. Anything else that is malformed
stays an error."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "xml"


@pytest.mark.parametrize("name, line, words", [
    ("xml_declaration_version_0_0.urdf", 1, "version '0.0' read as '1.0'"),
    ("xml_blank_lines_before_declaration.urdf", 3, "before the XML declaration"),
    ("xml_double_hyphen_in_comment.urdf", 3, "'--' inside an XML comment"),
])
def test_tolerated_slip_is_read_with_a_warning(name, line, words):
    result = load(FIXTURES / name)
    repairs = [d for d in result.diagnostics if d.code is Code.XML_REPAIRED]
    assert len(repairs) == 1 and not repairs[0].is_error
    assert repairs[0].line == line and words in repairs[0].message
    assert result.document is not None


def test_repairs_keep_line_numbers():
    """The joint's child names no link: the error is on the <child> line of the file as
    written (line 9), though two blank lines before the declaration were removed."""
    result = load(FIXTURES / "xml_blank_lines_before_declaration.urdf")
    errors = [d for d in result.diagnostics if d.is_error]
    assert errors and all(d.line == 9 for d in errors), [d.format() for d in errors]


def test_repair_never_hides_a_malformed_document():
    result = load(FIXTURES / "xml_repair_never_hides_a_malformed_document.urdf")
    assert not result.ok
    assert any(d.code is Code.FILE_READ and "malformed XML" in d.message
               for d in result.diagnostics)


def test_an_undeclared_prefix_is_pointed_at_not_the_end_of_its_tag(tmp_path):
    """libxml2 reports the column after the start tag; the caret goes under the prefix."""
    robot = tmp_path / "robot.urdf"
    robot.write_text('<robot name="r">\n  <link name="a">\n    <drake:foo value="1"/>\n'
                     '  </link>\n  <joint name="j" type="fixed" drake:acceleration="3">'
                     '<parent link="a"/><child link="a"/></joint>\n</robot>\n')
    recovered = [d for d in load(robot).diagnostics if d.code is Code.XML_RECOVERED]
    assert [(d.line, d.column) for d in recovered] == [(3, 6)]
    assert recovered[0].message == "XML: Namespace prefix drake on foo is not defined"
