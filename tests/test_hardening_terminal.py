"""Nothing a file holds or is named reaches the terminal raw (issue 24, item 4).

Every diagnostic, file name, source line and message the commands print has its control
characters escaped (``\\x1b``, ``\\n``, ``\\u202e``: :mod:`urdf_sdf.core.base.safe_text`): no
OSC 52 clipboard write, no cleared line, no forged "0 errors" line, no bidi override.
JSON outputs stay valid JSON, with the same characters as ``\\u`` escapes. The probe at
the end runs hostile names and contents through urdf2sdf, sdf2urdf, check and diff (one
file and a batch, with and without --json) and finds no such character in any output.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.support import examples
from urdf_sdf.cli.batch import BatchItem, Outcome, summary_table
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.render import SourceLines, print_json, render
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.safe_text import UNSAFE, escape

runner = CliRunner()
TIMEOUT = 60
UNSAFE_CHARACTERS = frozenset(map(chr, UNSAFE))
OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"        # writes "rm -rf ~" into the clipboard
FORGED = "\r\x1b[2K\nall good, 0 errors\n"  # rewrites the line, then forges one


def shown_unsafe(data: bytes | str) -> set[str]:
    """The unsafe characters of a command's output (a newline ends a line: allowed)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return {c for c in text if c in UNSAFE_CHARACTERS and c != "\n"}


# ---- the escape itself -------------------------------------------------------------------

def test_escape_shows_every_control_character_as_an_escape():
    assert escape("a\x1bb\x07c\x00d\x7fe") == "a\\x1bb\\x07c\\x00d\\x7fe"
    assert escape("\t\n\r") == "\\t\\n\\r"
    assert escape("\x9b2J\x85") == "\\x9b2J\\x85"
    assert escape("abc\u202edcba\u2066\u2069\u200f\u2028") == \
        "abc\\u202edcba\\u2066\\u2069\\u200f\\u2028"
    for character in UNSAFE_CHARACTERS:
        assert not shown_unsafe(escape(f"x{character}y")), repr(character)


def test_escape_keeps_printable_text_as_it_is():
    text = "robot_ünïcode/名前 C:\\path\\x1b (a backslash stays) «»"
    assert escape(text) == text


@given(st.text())
@settings(max_examples=examples(200))
def test_escape_leaves_nothing_unsafe(text):
    assert not shown_unsafe(escape(text))


# ---- where text is rendered --------------------------------------------------------------

def test_newline_in_a_message_cannot_forge_a_line():
    diagnostic = Diagnostic(Code.DUPLICATE_NAME, Severity.ERROR, f"link [a{FORGED}]",
                            f"robot{OSC52}.urdf", 3)
    line = diagnostic.format()
    assert "\n" not in line and not shown_unsafe(line)
    assert line == ("robot\\x1b]52;c;cm0gLXJmIH4K\\x07.urdf:3: error[DUPLICATE_NAME]: link "
                    "[a\\r\\x1b[2K\\nall good, 0 errors\\n]")


def test_snippet_is_escaped_and_the_caret_stays_under_its_column(tmp_path):
    source = tmp_path / "robot.urdf"
    source.write_bytes(b'<robot name="r">\n  <li\x1b[2Knk name="base">\n</robot>\n')
    sources = SourceLines()
    sources.trust(str(source))
    diagnostic = Diagnostic(Code.FILE_READ, Severity.ERROR, "malformed XML", str(source), 2, 10)
    _head, text, caret = render(diagnostic, sources).split("\n")
    assert text == ' 2 |   <li\\x1b[2Knk name="base">'
    # column 10 is "n" after the escape sequence: the caret points at it, past the escape
    assert text[caret.index("^")] == "n" and text[caret.index("^") - 1] == "K"


def test_batch_summary_escapes_names_and_reasons(tmp_path):
    name = Path(f"a{OSC52}.urdf")
    skipped = BatchItem(tmp_path / name, name, name, skip=f"a symlink to /x{FORGED}")
    failed = BatchItem(tmp_path / "b.urdf", Path(f"b{FORGED}.urdf"), Path("b.sdf"))
    error = Diagnostic(Code.FILE_READ, Severity.ERROR, f"bad{OSC52}", str(tmp_path / "b"), 1)
    table = summary_table([Outcome(skipped, "skipped"), Outcome(failed, "failed", [error])],
                          tmp_path / f"out{OSC52}")
    assert not shown_unsafe(table)
    assert "  a\\x1b]52;c;cm0gLXJmIH4K\\x07.urdf: a symlink to /x\\r" in table
    assert "all good" not in "\n".join(line for line in table.splitlines()
                                       if not line.startswith("  "))


def test_json_output_stays_valid_and_ascii(capsys):
    data = {"file": f"a{OSC52}\x7f\x9b\u202e", "message": FORGED}
    print_json(data)
    out = capsys.readouterr().out
    assert out.isascii() and not shown_unsafe(out)
    assert json.loads(out) == data


def test_console_script_escapes_a_hostile_file_name(tmp_path):
    """Through the console script's quick path, as a CI log would show it."""
    source = tmp_path / f"robot{OSC52}{FORGED.replace(chr(10), '')}.urdf"
    source.write_bytes(b'<robot name="r">\n  <link name="base">\x1b]0;pwned\x07\n</robot>\n')
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf", str(source)],
                          capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL,
                          check=False)
    assert done.returncode == 1
    assert b"robot\\x1b]52;c;cm0gLXJmIH4K\\x07" in done.stderr
    assert not shown_unsafe(done.stdout + done.stderr)


# ---- bytes that are not UTF-8 -------------------------------------------------------------

UNDECODABLE_ROBOT = (b'<robot name="r">\n  <link name="a"><visual><geometry>'
                     b'<mesh filename="../meshes/m.stl"/></geometry></visual></link>\n'
                     b'  <link name="b"/>\n</robot>\n')  # two roots: an error naming the file


def undecodable_tree(tmp_path: Path) -> tuple[bytes, bytes]:
    """A folder and a URDF named with bytes that are not UTF-8 (0xff, and 0x9b, a CSI on
    an 8-bit terminal), the URDF's mesh beside: (folder, file) as bytes."""
    folder = os.fsencode(tmp_path) + b"/d\xff\x9b"
    os.makedirs(folder + b"/urdf")
    os.makedirs(folder + b"/meshes")
    with open(folder + b"/meshes/m.stl", "wb") as mesh:
        mesh.write(b"solid m\nendsolid m\n")
    robot = folder + b"/urdf/r\xfe.urdf"
    with open(robot, "wb") as stream:
        stream.write(UNDECODABLE_ROBOT.replace(b'  <link name="b"/>\n', b""))
    with open(folder + b"/urdf/two\xfe.urdf", "wb") as stream:
        stream.write(UNDECODABLE_ROBOT)
    return folder, robot


TWO_ROOTS = b"FOLDER/urdf/two\xfe.urdf"
UNDECODABLE_RUNS = {  # command line (FOLDER, ROBOT, OUT stand for bytes) -> exit code
    "urdf2sdf --json": (["urdf2sdf", TWO_ROOTS, "--json"], 1),
    "urdf2sdf -o --json": (["urdf2sdf", "ROBOT", "-o", b"OUT/o\xfe.sdf", "--json"], 0),
    "urdf2sdf batch --json": (["urdf2sdf", "FOLDER/urdf", "-o", "OUT/batch", "--json"], 1),
    "urdf2sdf batch": (["urdf2sdf", "FOLDER/urdf", "-o", "OUT/batch2"], 1),
    "check": (["urdf-sdf", "check", TWO_ROOTS], 1),
    "check --json": (["urdf-sdf", "check", TWO_ROOTS, "--json"], 1),
    "frames": (["urdf-sdf", "frames", TWO_ROOTS], 1),
    "diff --json": (["urdf-sdf", "diff", "ROBOT", TWO_ROOTS, "--json"], 3),
    "--model-dir named so": (["urdf2sdf", "ROBOT", "--model-dir", b"OUT/m\xfe", "--json"], 2),
    "--model-dir batch": (["urdf2sdf", "FOLDER/urdf", "--model-dir", "OUT/models"], 1),
}


@pytest.mark.parametrize("case", sorted(UNDECODABLE_RUNS))
def test_bytes_that_are_not_utf_8_are_shown_as_escapes_in_text_and_json(tmp_path, case):
    """Every output is valid UTF-8 (stdout, stderr) and every JSON value encodes as UTF-8
    (no lone surrogate, which strict parsers refuse): the byte 0xff is shown as ``\\xff``
    on the terminal and in JSON alike."""
    folder, robot = undecodable_tree(tmp_path)
    out = os.fsencode(tmp_path) + b"/out"
    os.makedirs(out)
    argv, expected = UNDECODABLE_RUNS[case]
    places = {"FOLDER": folder, "ROBOT": robot, "OUT": out}
    command = [os.fsencode(sys.executable), b"-m", b"urdf_sdf.cli"]
    for arg in argv:
        arg = os.fsencode(arg)
        command.append(places.get(os.fsdecode(arg),
                                  arg.replace(b"FOLDER", folder).replace(b"OUT", out)))
    done = subprocess.run(command, capture_output=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == expected, done.stderr
    text = (done.stdout + done.stderr).decode("utf-8", "strict")
    assert "\\udc" not in text and "Traceback" not in text
    assert "\\xfe" in text
    if "--json" in argv:
        for line in done.stdout.splitlines():
            json.dumps(json.loads(line.decode("utf-8", "strict")),
                       ensure_ascii=False).encode("utf-8")


# ---- the probe ---------------------------------------------------------------------------

DANGEROUS = ["\x1b", "\x07", "\x9b", "\x85", "\x7f", "\u202e", "\u2066", "\u2028", "\r", "\n",
             "\t", "\x08", OSC52, "\x1b[2K", "\x1b[31m"]
# characters XML may hold in a name or text (no C0 but tab, newline, carriage return)
IN_XML = ["\x9b", "\x85", "\u202e", "\u2066", "\u2028", "\t", "&#13;", "&#10;", "&#x9b;"]
names = st.lists(st.one_of(st.sampled_from(DANGEROUS), st.text("abc_.-", max_size=3)),
                 min_size=1, max_size=5).map("".join)
xml_names = st.lists(st.one_of(st.sampled_from(IN_XML), st.text("abc", max_size=2)),
                     min_size=1, max_size=4).map(lambda parts: "l" + "".join(parts))


def urdf(link: str, twice: bool) -> bytes:
    links = f'<link name="{link}"/>' * (2 if twice else 1)
    return f'<robot name="{link}">\n  {links}\n</robot>\n'.encode()


def sdf(link: str, twice: bool) -> bytes:
    links = f'<link name="{link}"/>' * (2 if twice else 1)
    return (f'<sdf version="1.9">\n<model name="{link}">\n  {links}\n</model>\n</sdf>\n'
            ).encode()


def malformed(garbage: str) -> bytes:
    return f'<robot name="r">\n  <link name="a">{garbage}\n</robot>\n'.encode()


contents = st.one_of(
    st.builds(urdf, xml_names, st.booleans()),                 # diagnostics naming elements
    st.builds(malformed, st.lists(st.sampled_from(DANGEROUS), min_size=1).map("".join)),
    st.sampled_from([OSC52.encode() + b"\n", b"root:x:0:0\x1b[2K:\n", b"\x9b\x1b[31m<"]))


def run(app, *args) -> None:
    result = runner.invoke(app, [str(a) for a in args])
    # 3: diff or roundtrip of a file that does not load (not compared)
    assert result.exit_code in (0, 1, 3), (args, result.output, result.exception)
    assert not shown_unsafe(result.stdout_bytes), (args, result.stdout)
    assert not shown_unsafe(result.stderr_bytes), (args, result.stderr)
    if "--json" in args:  # one JSON document per line (check: one per file)
        for line in result.stdout.splitlines():
            json.loads(line)


@given(name=names, data=contents, sdf_link=xml_names, twice=st.booleans())
@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_probe_hostile_names_and_contents_never_reach_the_terminal(name, data, sdf_link, twice):
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        tree.mkdir()
        robot = tree / f"{name}.urdf"
        model = tree / f"{name}.sdf"
        robot.write_bytes(data)
        model.write_bytes(sdf(sdf_link, twice))
        out = Path(folder) / "out"
        out.mkdir()
        for json_flag in ((), ("--json",)):
            run(urdf2sdf, robot, "-o", out / "robot.sdf", *json_flag)
            run(sdf2urdf, model, "-o", out / "model.urdf", *json_flag)
            run(umbrella, "check", robot, model, *json_flag)
            run(umbrella, "diff", robot, model, *json_flag)
            run(urdf2sdf, tree, "-o", out / "batch_sdf", *json_flag)
            run(sdf2urdf, tree, "-o", out / "batch_urdf", *json_flag)


@pytest.mark.parametrize("command", ["frames", "print"])
def test_inspecting_commands_escape_names(tmp_path, command):
    source = tmp_path / f"r{OSC52}.urdf"
    source.write_bytes(urdf("l\u202e\x9bx", twice=False))
    result = runner.invoke(umbrella, [command, str(source)])
    assert not shown_unsafe(result.stderr_bytes)
    if command == "frames":
        assert not shown_unsafe(result.stdout_bytes)
        assert "l\\u202e\\x9bx" in result.stdout
