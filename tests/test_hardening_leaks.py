"""Issue 12, diagnostics never leak other files: a source line is shown under a diagnostic
only for the user's own input (a FILE argument, standard input, a xacro expansion) and for
files that parse as XML; never binary text, and never more than MAX_LINE characters."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tests.compose_helpers import including
from tests.support import TIMEOUT
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.render import MAX_LINE, SourceLines, render
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
runner = CliRunner()
SECRET = "TOP-SECRET-PASSWORD"


def test_an_included_non_xml_file_is_never_shown(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET}\nline two\n")
    result = runner.invoke(umbrella, ["check", str(including(tmp_path, str(secret)))])
    assert result.exit_code == 1
    assert f"{secret}:1:" in result.stdout  # the diagnostic is there...
    assert SECRET not in result.stdout + result.stderr  # ...its line is not


def test_proc_self_environ_is_never_shown(tmp_path):
    environ = Path("/proc/self/environ")
    if not environ.exists():
        return
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "check",
                           str(including(tmp_path, str(environ)))], capture_output=True,
                          env={**os.environ, "URDF_SDF_LEAK_CANARY": SECRET}, timeout=TIMEOUT)
    assert done.returncode == 1
    assert b"error[" in done.stdout
    assert SECRET.encode() not in done.stdout + done.stderr


def test_etc_shadow_is_never_shown():
    for app, args in ((umbrella, ["check"]), (sdf2urdf, [])):
        result = runner.invoke(app, args + [str(HOSTILE / "include_etc_shadow.sdf.xml")])
        assert result.exit_code == 1
        assert "root:" not in result.stdout + result.stderr


def test_an_included_xml_file_is_shown(tmp_path):
    (tmp_path / "part.sdf").write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n'
                                       '  <model name="part">\n    <link name="a"/>\n'
                                       '    <joint name="j" type="fixed"><parent>a</parent>'
                                       '<child>nowhere</child></joint>\n  </model>\n</sdf>\n')
    result = runner.invoke(umbrella, ["check", str(including(tmp_path, "part.sdf"))])
    assert result.exit_code == 1
    assert "<child>nowhere</child>" in result.stdout


def test_the_users_own_malformed_file_is_shown(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_text('<robot name="r">\n  <link name="base">\n</robot>\n')
    result = runner.invoke(umbrella, ["check", str(source)])
    assert result.exit_code == 1
    assert " | </robot>" in result.stdout


def test_a_binary_input_is_never_shown(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_bytes(b"<robot name='r'>\x00\x01\x02 BINARY-PAYLOAD\n</robot>\n")
    result = runner.invoke(umbrella, ["check", str(source)])
    assert result.exit_code == 1
    assert "BINARY-PAYLOAD" not in result.stdout


def test_an_undecodable_input_is_never_shown(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_bytes(b"<robot name='r'>\xff\xfe\xfa UNDECODABLE\n")
    result = runner.invoke(umbrella, ["check", str(source)])
    assert result.exit_code == 1
    assert "UNDECODABLE" not in result.stdout


def test_a_long_line_is_cut(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_text('<robot name="r"><link name="' + "x" * 5000 + '"/><joint/></robot>\n')
    sources = SourceLines()
    sources.trust(str(source))
    diagnostic = Diagnostic(Code.URDF_ELEMENT_UNKNOWN, Severity.WARNING, "w", str(source), 1, 4000)
    shown = render(diagnostic, sources).splitlines()
    assert len(shown) == 3
    assert max(len(line) for line in shown) < MAX_LINE + 40
    assert shown[1].endswith("[...]")


def test_lines_are_counted_as_xml_counts_them(tmp_path):
    """A form feed or U+2028 does not end a line for lxml, so it must not for us."""
    source = tmp_path / "robot.urdf"
    source.write_bytes('<robot name="r">\f\u2028\n<link/>\r\n<x/>\n</robot>'.encode("utf-8"))
    sources = SourceLines()
    sources.trust(str(source))  # not well-formed (a form feed): shown as the user's own
    assert sources.line(str(source), 3) == "<x/>"


def test_an_included_file_swapped_after_loading_shows_nothing_outside(tmp_path):
    """An included file with an error, swapped for a link to an XML file outside the
    input's package once loaded: the excerpt under its diagnostic is not that file's."""
    from urdf_sdf.cli.inputs import load_input
    from urdf_sdf.core.base.context import Context
    (tmp_path / "robot").mkdir()
    part = tmp_path / "robot" / "part.sdf"
    part.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="part">\n'
                    '    <link name="a"/>\n    <joint name="j" type="fixed"><parent>a</parent>'
                    '<child>nowhere</child></joint>\n  </model>\n</sdf>\n')
    outside = tmp_path / "outside.xml"
    outside.write_text("<a>\n<b/>\n<c/>\n<d/>\n" + f"<s>{SECRET}</s>\n" + "</a>\n")
    sources = SourceLines()
    result = load_input(including(tmp_path / "robot", "part.sdf"), Context(), sources)
    error = next(d for d in result.diagnostics if d.file == str(part) and d.line == 5)
    part.unlink()
    part.symlink_to(outside)
    assert f"{part}:5:" in render(error, sources) and SECRET not in render(error, sources)
