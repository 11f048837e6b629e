"""Command-line ergonomics shared by ``urdf2sdf``, ``sdf2urdf`` and ``urdf-sdf``:

* ``-`` reads standard input and ``-o -`` writes standard output, so pipes work;
* diagnostics read like a compiler's: ``file:line[:col]: severity[CODE]: message`` with the
  source line and a caret under it, colour only on a terminal (never when captured);
* ``--quiet`` (errors only), ``--json`` (one object on stdout), ``--version``;
* ``*.xacro`` inputs expanded with the xacro package when asked (``--xacro``,
  ``--xacro-arg name:=value``), and a clear ``error[XACRO_UNAVAILABLE]`` (exit 1) when it
  is missing (the sandbox's rules: tests/test_xacro_security.py).

typer's runner for everything, real subprocesses for the pipes.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import FakeTerminal, xacro_module
from urdf_sdf.cli.inputs import xacro_available
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.render import SourceLines, emit, render, use_color
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = HERE / "fixtures" / "cli"
PENDULUM = FIXTURES / "pendulum.urdf"
WARNING_URDF = FIXTURES / "massless_link_warning.urdf"
DUPLICATE_URDF = FIXTURES / "duplicate_link.urdf"
DUPLICATE_SDF = FIXTURES / "duplicate_link.sdf"
MALFORMED_URDF = FIXTURES / "urdf_package" / "urdf" / "broken" / "bad.urdf"
XACRO_ARM = FIXTURES / "two_link_arm.urdf.xacro"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
HEAD = re.compile(r"^(?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?: "
                  r"(?P<severity>warning|error)\[(?P<code>[A-Z_0-9]+)\]: (?P<message>.+)$")
runner = CliRunner()


def invoke(app, *args, input: bytes | None = None, env: dict | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input, env=env)


def python(module: str, *args) -> list[str]:
    return [sys.executable, "-m", module, *[str(a) for a in args]]


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return subprocess.run(cmd, capture_output=True, cwd=ROOT, env=env, **kwargs)


@pytest.fixture
def xacro_package():
    """The xacro package, installed with the ``test`` extra. Skipped only when genuinely
    unavailable outside CI; under CI (``$CI`` set) a missing package is a failure."""
    return xacro_module()


@pytest.fixture
def no_xacro(monkeypatch):
    """Make ``import xacro`` fail, as when the optional extra is not installed."""
    monkeypatch.setitem(sys.modules, "xacro", None)


# ---- standard input and output -----------------------------------------------------------

def test_urdf2sdf_reads_stdin_and_writes_the_same_bytes_as_for_the_file():
    from_file = invoke(urdf2sdf, PENDULUM, "--relative")
    from_stdin = invoke(urdf2sdf, "-", "--relative", input=PENDULUM.read_bytes())
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_stdin.stderr
    assert from_stdin.stdout_bytes == from_file.stdout_bytes
    assert from_stdin.stdout_bytes.startswith(b"<?xml")


def test_dash_output_is_stdout(tmp_path):
    result = invoke(urdf2sdf, PENDULUM, "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes == invoke(urdf2sdf, PENDULUM).stdout_bytes
    assert not (Path.cwd() / "-").exists()


def test_sdf2urdf_reads_stdin():
    sdf = invoke(urdf2sdf, PENDULUM).stdout_bytes
    result = invoke(sdf2urdf, "-", input=sdf)
    assert result.exit_code == 0, result.stderr
    assert b'<robot name="pendulum">' in result.stdout_bytes


def test_stdin_diagnostics_name_stdin_and_show_the_line_read():
    result = invoke(sdf2urdf, "-", input=DUPLICATE_SDF.read_bytes())
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("<stdin>:5: error[DUPLICATE_NAME]: ")
    assert lines[1] == ' 5 |     <link name="a"/>'


def test_check_frames_and_diff_accept_stdin(tmp_path):
    data = PENDULUM.read_bytes()
    check = invoke(umbrella, "check", "-", input=data)
    assert check.exit_code == 0 and check.stdout == "<stdin>: valid\n"
    bad = invoke(umbrella, "check", "-", input=DUPLICATE_URDF.read_bytes())
    assert bad.exit_code == 1
    assert bad.stdout.startswith("<stdin>:5: error[DUPLICATE_NAME]")

    frames = invoke(umbrella, "frames", "-", "--json", input=data)
    assert frames.exit_code == 0
    assert json.loads(frames.stdout) == json.loads(
        invoke(umbrella, "frames", PENDULUM, "--json").stdout)

    sdf = tmp_path / "pendulum.sdf"
    sdf.write_bytes(invoke(urdf2sdf, PENDULUM).stdout_bytes)
    diff = invoke(umbrella, "diff", sdf, "-", input=data)
    assert diff.exit_code == 0, diff.stdout
    assert diff.stdout.strip() == f"{sdf} and <stdin> are equivalent"


def test_diff_reads_stdin_once_only():
    result = invoke(umbrella, "diff", "-", "-", input=PENDULUM.read_bytes())
    assert result.exit_code == 2
    assert "standard input" in result.stderr


def test_empty_stdin_is_an_error_not_a_traceback():
    result = invoke(urdf2sdf, "-", input=b"")
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "<stdin>" in result.stderr and "error[" in result.stderr


def test_pipe_cat_into_urdf2sdf_gives_the_bytes_of_the_file():
    """``cat robot.urdf | urdf2sdf - --relative`` == ``urdf2sdf robot.urdf --relative``."""
    direct = run(python("urdf_sdf.cli", "urdf2sdf", PENDULUM, "--relative"))
    assert direct.returncode == 0, direct.stderr
    cat = subprocess.Popen(["cat", str(PENDULUM)], stdout=subprocess.PIPE)
    piped = run(python("urdf_sdf.cli", "urdf2sdf", "-", "--relative"), stdin=cat.stdout)
    cat.stdout.close()
    assert cat.wait() == 0
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == direct.stdout
    assert piped.stderr == b""


def test_pipe_urdf2sdf_into_sdf2urdf_into_diff():
    """``urdf2sdf robot.urdf | sdf2urdf - | urdf-sdf diff robot.urdf -``: three processes,
    the round trip is equivalent to the original."""
    first = subprocess.Popen(python("urdf_sdf.cli", "urdf2sdf", PENDULUM), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=ROOT)
    second = subprocess.Popen(python("urdf_sdf.cli", "sdf2urdf", "-"), stdin=first.stdout,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first.stdout.close()
    third = run(python("urdf_sdf.cli.main", "diff", PENDULUM, "-"), stdin=second.stdout)
    second.stdout.close()
    assert first.wait() == 0, first.stderr.read()
    assert second.wait() == 0, second.stderr.read()
    assert third.returncode == 0, third.stdout + third.stderr
    assert third.stdout.decode().strip() == f"{PENDULUM} and <stdin> are equivalent"


# ---- compiler-style diagnostics ----------------------------------------------------------

def test_error_shows_the_source_line_and_a_caret_at_its_first_character():
    result = invoke(urdf2sdf, DUPLICATE_URDF)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        f"{DUPLICATE_URDF}:5: error[DUPLICATE_NAME]: link with name[base] already exists",
        ' 5 |   <link name="base"/>',
        "   |   ^",
    ]


def test_a_known_column_is_in_the_location_and_under_the_caret():
    result = invoke(urdf2sdf, MALFORMED_URDF)
    assert result.exit_code == 1
    head, source, caret = result.stderr.splitlines()[:3]
    match = HEAD.match(head)
    assert match and match["file"] == str(MALFORMED_URDF), head
    assert (match["line"], match["column"], match["code"]) == ("4", "9", "FILE_READ")
    assert source == " 4 | </robot>"
    assert caret.index("^") - caret.index("|") - 2 == 9 - 1  # column 9, 1-based
    assert caret == "   |         ^"


def test_tabs_are_expanded_so_the_caret_lines_up():
    result = invoke(umbrella, "check", DUPLICATE_SDF)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{DUPLICATE_SDF}:5: error[DUPLICATE_NAME]")
    assert lines[1] == ' 5 |     <link name="a"/>'
    assert lines[2] == "   |     ^"


def test_every_diagnostic_head_is_file_line_code():
    result = invoke(urdf2sdf, WARNING_URDF)
    assert result.exit_code == 0
    heads = [line for line in result.stderr.splitlines() if not line.startswith(" ")]
    snippets = [line for line in result.stderr.splitlines() if line.startswith(" ")]
    assert heads and all(HEAD.match(line) for line in heads), result.stderr
    assert len(snippets) == 2 * len(heads)
    assert heads[0].startswith(f"{WARNING_URDF}:6: warning[LINK_MASSLESS_MOVING]: link [ghost]")


def test_a_diagnostic_without_a_readable_source_is_one_line():
    diagnostic = Diagnostic(Code.FILE_READ, Severity.ERROR, "cannot read file", "/no/such.urdf", 3)
    assert render(diagnostic, SourceLines()) == diagnostic.format()
    without_line = Diagnostic(Code.FILE_READ, Severity.ERROR, "boom", str(PENDULUM))
    assert render(without_line, SourceLines()) == f"{PENDULUM}: error[FILE_READ]: boom"


def test_format_keeps_file_line_and_adds_the_column_only_when_known():
    base = Diagnostic(Code.DUPLICATE_NAME, Severity.ERROR, "m", "a.sdf", 7)
    assert base.format() == "a.sdf:7: error[DUPLICATE_NAME]: m"
    assert Diagnostic(Code.DUPLICATE_NAME, Severity.ERROR, "m", "a.sdf", 7, 3).format() == \
        "a.sdf:7:3: error[DUPLICATE_NAME]: m"
    assert "column" not in base.to_json()


def test_no_colour_when_captured():
    for result in (invoke(urdf2sdf, WARNING_URDF), invoke(urdf2sdf, DUPLICATE_URDF),
                   invoke(umbrella, "check", DUPLICATE_SDF)):
        assert "\x1b" not in result.stdout + result.stderr
    proc = run(python("urdf_sdf.cli", "urdf2sdf", DUPLICATE_URDF))
    assert proc.returncode == 1
    assert b"\x1b" not in proc.stdout + proc.stderr
    assert proc.stderr.startswith(f"{DUPLICATE_URDF}:5: error[DUPLICATE_NAME]".encode())


def test_colour_on_a_terminal_unless_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    terminal = FakeTerminal()
    assert use_color(terminal)
    assert not use_color(open(os.devnull, "w"))
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(terminal)
    monkeypatch.setenv("NO_COLOR", "")  # empty: not set, per no-color.org
    assert use_color(terminal)

    sources = SourceLines()
    diagnostic = Diagnostic(Code.DUPLICATE_NAME, Severity.ERROR, "link with name[base] already "
                            "exists", str(DUPLICATE_URDF), 5)
    plain = render(diagnostic, sources, color=False)
    coloured = render(diagnostic, sources, color=True)
    assert "\x1b[" in coloured and ANSI.sub("", coloured) == plain
    emit([diagnostic], terminal, sources)
    assert "\x1b[1;31merror[DUPLICATE_NAME]:" in "".join(terminal.written)


# ---- --quiet, --json, --version ----------------------------------------------------------

def test_quiet_drops_warnings_and_keeps_errors():
    loud = invoke(urdf2sdf, WARNING_URDF)
    quiet = invoke(urdf2sdf, WARNING_URDF, "--quiet")
    assert "warning[" in loud.stderr
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout_bytes == loud.stdout_bytes
    errors = invoke(urdf2sdf, DUPLICATE_URDF, "-q")
    assert errors.exit_code == 1 and "error[DUPLICATE_NAME]" in errors.stderr
    static = HERE / "fixtures" / "sdf2urdf" / "static_model.sdf"
    assert "warning[" in invoke(sdf2urdf, static).stderr
    assert invoke(sdf2urdf, static, "--quiet").stderr == ""
    check = invoke(umbrella, "check", WARNING_URDF, "--quiet")
    assert check.exit_code == 0 and "warning[" not in check.stdout


def test_converter_json_to_stdout_holds_the_document():
    plain = invoke(urdf2sdf, WARNING_URDF)
    result = invoke(urdf2sdf, WARNING_URDF, "--json")
    assert result.exit_code == 0
    assert result.stderr == ""  # everything is in the JSON
    summary = json.loads(result.stdout)
    assert set(summary) == {"ok", "output", "diagnostics", "document"}
    assert summary["ok"] is True and summary["output"] is None
    assert summary["document"].encode() == plain.stdout_bytes
    [warning] = summary["diagnostics"]
    assert warning == {"code": "LINK_MASSLESS_MOVING", "severity": "warning",
                       "file": str(WARNING_URDF), "line": 6, "message": warning["message"]}
    assert json.loads(invoke(urdf2sdf, WARNING_URDF, "--json", "-q").stdout)["diagnostics"] == []


def test_converter_json_with_an_output_file(tmp_path):
    out = tmp_path / "robot.urdf"
    sdf = tmp_path / "robot.sdf"
    sdf.write_bytes(invoke(urdf2sdf, PENDULUM).stdout_bytes)
    result = invoke(sdf2urdf, sdf, "-o", out, "--json")
    assert result.exit_code == 0
    summary = json.loads(result.stdout)
    assert set(summary) == {"ok", "output", "diagnostics"}
    assert summary["ok"] is True and summary["output"] == str(out)
    assert out.read_bytes() == invoke(sdf2urdf, sdf).stdout_bytes


def test_converter_json_on_failure(tmp_path):
    out = tmp_path / "out.sdf"
    result = invoke(urdf2sdf, MALFORMED_URDF, "--json", "-o", out)
    assert result.exit_code == 1
    summary = json.loads(result.stdout)
    assert summary["ok"] is False and summary["output"] is None
    [error] = summary["diagnostics"]
    assert (error["code"], error["line"], error["column"]) == ("FILE_READ", 4, 9)
    assert not out.exists()
    stdout_mode = json.loads(invoke(urdf2sdf, MALFORMED_URDF, "--json").stdout)
    assert stdout_mode["document"] is None


def test_check_json():
    valid = invoke(umbrella, "check", PENDULUM, "--json")
    assert valid.exit_code == 0
    assert json.loads(valid.stdout) == {"ok": True, "file": str(PENDULUM), "valid": True,
                                        "diagnostics": [], "parity": None}
    invalid = invoke(umbrella, "check", DUPLICATE_SDF, "--json")
    assert invalid.exit_code == 1
    report = json.loads(invalid.stdout)
    assert report["ok"] is False and report["valid"] is False
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("DUPLICATE_NAME", 5)]


def test_check_json_with_urdf_parity():
    parity = HERE / "fixtures" / "parity"
    broken = invoke(umbrella, "check", "--urdf-parity", parity / "parity_joint_type.sdf",
                    "--json")
    assert broken.exit_code == 1
    report = json.loads(broken.stdout)
    assert report["valid"] is True and report["ok"] is False
    assert report["parity"]["holds"] is False
    assert {f["code"] for f in report["parity"]["findings"]} == {"URDF_PARITY_JOINT_TYPE"}
    sdf = invoke(urdf2sdf, PENDULUM, "--relative").stdout
    holds = invoke(umbrella, "check", "--urdf-parity", "-", "--json", input=sdf.encode())
    assert holds.exit_code == 0, holds.stdout
    report = json.loads(holds.stdout)
    assert report["ok"] is True and report["parity"] == {"model": "pendulum", "holds": True,
                                                         "findings": []}


@pytest.mark.parametrize("app, prog, args", [(urdf2sdf, "urdf2sdf", []),
                                             (sdf2urdf, "sdf2urdf", []),
                                             (umbrella, "urdf-sdf", [])])
def test_version(app, prog, args):
    result = invoke(app, *args, "--version")
    assert result.exit_code == 0
    assert result.stdout == f"{prog} {metadata.version('urdf-sdf')}\n"


@pytest.mark.parametrize("prog", ["urdf2sdf", "sdf2urdf", "urdf-sdf"])
def test_version_in_a_process(prog):
    proc = run(python("urdf_sdf.cli", prog, "--version"), text=True)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"{prog} {metadata.version('urdf-sdf')}"


# ---- xacro -------------------------------------------------------------------------------

def test_xacro_file_is_expanded_with_its_arguments(xacro_package):
    default = invoke(urdf2sdf, XACRO_ARM, "--xacro", "--relative")
    assert default.exit_code == 0, default.stderr
    assert b'<pose relative_to="base">0 0 0.5 0 0 0</pose>' in default.stdout_bytes
    longer = invoke(urdf2sdf, XACRO_ARM, "--xacro", "--relative", "--xacro-arg", "length:=0.75")
    assert longer.exit_code == 0, longer.stderr
    assert b'<pose relative_to="base">0 0 0.75 0 0 0</pose>' in longer.stdout_bytes
    assert b"0 0 0.375 0 0 0" in longer.stdout_bytes  # ${length / 2} in the macro


def test_xacro_file_converts_like_its_expansion_piped_in(xacro_package):
    expanded = xacro_package.process_file(str(XACRO_ARM), mappings={"length": "2"})
    piped = invoke(urdf2sdf, "-", input=expanded.toprettyxml(indent="  ").encode())
    direct = invoke(urdf2sdf, XACRO_ARM, "--xacro", "--xacro-arg", "length:=2")
    assert piped.exit_code == direct.exit_code == 0
    assert direct.stdout_bytes == piped.stdout_bytes


def test_xacro_in_a_process(xacro_package):
    proc = run(python("urdf_sdf.cli", "urdf2sdf", XACRO_ARM, "--xacro", "--xacro-arg",
                      "length:=1"))
    assert proc.returncode == 0, proc.stderr
    assert b'<model name="two_link_arm">' in proc.stdout


def test_diagnostics_of_an_expansion_name_the_xacro_file(xacro_package):
    source = FIXTURES / "expands_to_invalid.urdf.xacro"
    result = invoke(urdf2sdf, source, "--xacro")
    assert result.exit_code == 1
    head, snippet, caret = result.stderr.splitlines()[:3]
    assert head.startswith(f"{source}: error[JOINT_CHILD_LINK_INVALID]: ")  # no line: see below
    assert head.endswith("(at line 11 of the xacro-expanded document)")
    assert snippet == ' 11 |     <child link="wheel"/>'  # the expanded line
    report = json.loads(invoke(urdf2sdf, source, "--xacro", "--json").stdout)
    [error] = report["diagnostics"]
    assert error["file"] == str(source) and error["line"] is None
    assert error["expanded_line"] == 11


def test_xacro_errors_are_diagnostics(xacro_package):
    undefined = FIXTURES / "undefined_property.urdf.xacro"
    result = invoke(urdf2sdf, undefined, "--xacro")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{undefined}: error[XACRO_ERROR]: xacro: ")
    assert "width" in result.stderr and "Traceback" not in result.stderr
    malformed = FIXTURES / "malformed.urdf.xacro"
    result = invoke(urdf2sdf, malformed, "--xacro")
    assert result.exit_code == 1
    match = HEAD.match(result.stderr.splitlines()[0])
    assert match and match["code"] == "XACRO_ERROR" and match["line"] == "4"
    assert result.stderr.splitlines()[1] == " 4 | </robot>"


def test_missing_xacro_is_a_clear_error(no_xacro, tmp_path):
    out = tmp_path / "arm.sdf"
    result = invoke(urdf2sdf, XACRO_ARM, "--xacro", "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{XACRO_ARM}: error[XACRO_UNAVAILABLE]: ")
    assert "pip install xacro (urdf-sdf's [xacro] extra; in its clone: pip install " \
        "'.[xacro]')" in result.stderr
    assert not out.exists() and result.stdout_bytes == b""
    assert not xacro_available()


def test_missing_xacro_does_not_matter_for_plain_files(no_xacro):
    assert invoke(urdf2sdf, PENDULUM).exit_code == 0


def test_bad_xacro_arg_is_a_usage_error():
    result = invoke(urdf2sdf, XACRO_ARM, "--xacro-arg", "length=2")
    assert result.exit_code == 2
    assert "name:=value" in result.stderr


def test_a_xacro_file_declaring_entities_is_refused_before_expansion(tmp_path):
    """The core never expands XML entities; xacro's parser would, so such a file is refused
    (XML_UNSAFE) whether or not xacro is installed."""
    source = tmp_path / "bomb.urdf.xacro"
    source.write_text('<?xml version="1.0"?>\n<!DOCTYPE robot [\n  <!ENTITY a "aaaa">\n]>\n'
                      '<robot name="&a;"><link name="base"/></robot>\n')
    result = invoke(urdf2sdf, source, "--xacro")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{source}:3: error[XML_UNSAFE]: ")
    assert result.stdout_bytes == b""
