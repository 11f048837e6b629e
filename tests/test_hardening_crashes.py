"""Issue 12, crashes that were tracebacks: a link-child pose relative_to naming no frame
(scoped or not) is POSE_RELATIVE_TO_INVALID at the pose's line; ``graph`` of a file
without a model says why; ``print`` output is well-formed whatever prefixes the input
forgot to declare; numbers follow the XML-schema double syntax (no ``1_0``)."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from typer.testing import CliRunner

from tests.support import TIMEOUT, examples
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.core.read.numbers import matches_number_form, parse_double, parse_doubles

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
runner = CliRunner()


def test_a_scoped_inertial_relative_to_resolves(diagnostics_checked):
    result = diagnostics_checked.watch(load(HOSTILE / "inertial_pose_relative_to_scoped.sdf.xml"))
    assert result.ok
    assert result.pose_in_link("base", result.document.model.links[0].inertial.pose) is not None


def test_an_unknown_scoped_relative_to_is_invalid_at_the_pose(diagnostics_checked):
    result = diagnostics_checked.watch(
        load(HOSTILE / "inertial_pose_relative_to_unknown_scoped.sdf.xml"))
    assert not result.ok
    diagnostic = diagnostics_checked.take_error(Code.POSE_RELATIVE_TO_INVALID)
    assert diagnostic.line == 9 and "m::nothere" in diagnostic.message


@pytest.mark.parametrize("app, args", [(umbrella, ["check"]), (umbrella, ["frames"]),
                                       (sdf2urdf, []), (umbrella, ["diff", "SELF"])])
def test_commands_report_instead_of_crashing(app, args):
    path = str(HOSTILE / "inertial_pose_relative_to_unknown_scoped.sdf.xml")
    result = runner.invoke(app, [path if a == "SELF" else a for a in args] + [path])
    assert result.exit_code == (3 if args[:1] == ["diff"] else 1)  # diff: cannot be compared
    assert "INTERNAL_ERROR" not in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("tag", ["visual", "collision"])
def test_a_visual_or_collision_relative_to_is_checked(tag, diagnostics_checked):
    text = ('<sdf version="1.9"><model name="m"><link name="a">'
            f'<{tag} name="s"><pose relative_to="nowhere"/>'
            '<geometry><box><size>1 1 1</size></box></geometry>'
            f'</{tag}></link></model></sdf>')
    result = diagnostics_checked.watch(load_string(text, "m.sdf"))
    assert diagnostics_checked.take_error(Code.POSE_RELATIVE_TO_INVALID)
    assert not result.ok


def test_graph_of_a_file_without_a_model_says_why():
    result = runner.invoke(umbrella, ["graph", str(HOSTILE / "actor_only.sdf.xml")])
    assert result.exit_code == 1
    assert "error[ELEMENT_MISSING]" in result.stderr and result.stdout == ""


def test_print_declares_prefixes_the_input_forgot():
    hostile = HOSTILE / "undeclared_namespace_prefix.sdf.xml"
    result = runner.invoke(umbrella, ["print", str(hostile)])
    assert result.exit_code == 0
    root = etree.fromstring(result.stdout_bytes)  # well-formed
    assert root.nsmap["my_ns"] == "urn:urdf-sdf:undeclared:my_ns"
    assert root.find(".//{urn:urdf-sdf:undeclared:my_ns}custom_sensor") is not None
    assert "namespace prefix [my_ns] is used but never declared" in result.stderr


@pytest.mark.parametrize("text, value", [("1", 1.0), ("-0", -0.0), (" 1.5 ", 1.5), ("5.", 5.0),
                                         (".5", 0.5), ("+2E+3", 2000.0), ("1e308", 1e308)])
def test_xml_schema_doubles_are_read(text, value):
    assert parse_double(text) == value


@pytest.mark.parametrize("text", ["1_0", "nan", "NaN", "inf", "1e400", "0x10", "1,5", "", "1 2",
                                  "١", "1e", "e1", "."])
def test_other_numbers_are_not(text):
    assert parse_double(text) is None


def test_infinity_only_where_allowed():
    assert parse_double("-INF", allow_infinite=True) == float("-inf")
    assert parse_double("infinity", allow_infinite=True) == float("inf")
    assert parse_double("nan", allow_infinite=True) is None
    assert parse_doubles("1 2 1_0") is None and parse_doubles("1 2 3") == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("urdf", [
    '<robot name="r"><link name="a"><inertial><mass value="1_0"/></inertial></link></robot>',
    '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="fixed">'
    '<parent link="a"/><child link="b"/><origin xyz="1_0 0 0"/></joint></robot>',
])
def test_urdf_refuses_python_only_numbers(urdf):
    result = load_string(urdf, "r.urdf")
    assert not result.ok
    assert any(d.code is Code.ATTRIBUTE_INVALID and "1_0" in d.message
               for d in result.diagnostics)


def test_sdf_refuses_python_only_numbers():
    text = ('<sdf version="1.9"><model name="m"><link name="a"><inertial><mass>1_0</mass>'
            '</inertial></link></model></sdf>')
    result = load_string(text, "m.sdf")
    assert not result.ok
    assert any(d.code is Code.ELEMENT_INVALID and "1_0" in d.message for d in result.diagnostics)


def test_an_overflowing_inertia_determinant_prints_no_numpy_warning(tmp_path):
    """A tensor whose determinant overflows (products of 1e200) is judged with inf, as
    libsdformat does, and numpy's RuntimeWarning is not shown to the user."""
    urdf = tmp_path / "huge_inertia.urdf"
    urdf.write_text('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia '
                    'ixx="1e200" ixy="1e150" ixz="0" iyy="1e200" iyz="0" izz="1e200"/>'
                    '</inertial></link></robot>')
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf", str(urdf)],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "Traceback" not in done.stderr, done.stderr


NUMBER_ALPHABET = "0123456789eE.+- \t\r\n\f\v_xiInNfa,\u0661\xa0"


@settings(max_examples=examples(3000), deadline=None)
@given(st.text(NUMBER_ALPHABET, max_size=24) | st.lists(
    st.floats(allow_nan=False, allow_infinity=False).map(repr), max_size=4).map(" ".join))
def test_number_lists_are_read_exactly_as_the_xml_schema_form(text):
    """parse_doubles' quick path (float() on a text of number characters) agrees with the
    regular expression that defines the form, on near-misses of every kind."""
    values = parse_doubles(text)
    if not matches_number_form(text):
        assert values is None
    else:
        expected = [float(token) for token in text.split()]
        finite = all(math.isfinite(v) for v in expected)
        assert values == (expected if finite else None)
