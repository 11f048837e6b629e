"""The console scripts' plain path (``urdf_sdf/cli/quick.py``, ``urdf_sdf/cli/declare.py``)
reads a command line as the typer app built from the same declaration reads it, faster.

* The typer app has exactly the options each command declares, of the same kind (flag,
  one value, repeatable), with the same defaults.
* Every command line the plain parser accepts gets the same parameters from the typer
  app (examples, then generated command lines); what it does not accept (``--help``, a
  usage error, an unusual spelling) it leaves to typer.
* End to end, a console script gives what the typer app gives: output, diagnostics, exit
  code and written files, for plain conversions, JSON, stdin, batches and ``--version``.
* A plain conversion imports no numpy, scipy, typer or process pool, and ``--version``
  no converter (behaviour, not timing: the timing is bench/bench_all.py's small-file row).
"""
from __future__ import annotations

import enum
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import examples
from urdf_sdf.cli import quick
from urdf_sdf.cli.declare import parse, version_line

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cli"
GROUP = typer.main.get_command(quick.app_of("urdf-sdf"))
COMMANDS = {"urdf2sdf": (quick.COMMANDS["urdf2sdf"],
                         typer.main.get_command(quick.app_of("urdf2sdf"))),
            "sdf2urdf": (quick.COMMANDS["sdf2urdf"],
                         typer.main.get_command(quick.app_of("sdf2urdf"))),
            "urdf-sdf": (quick.URDF_SDF, GROUP),
            **{f"urdf-sdf {name}": (quick.COMMANDS[name], GROUP.commands[name])
               for name in quick.SUBCOMMANDS}}
NUMERIC_OR_HEAVY = ("numpy", "scipy", "typer", "click", "rich", "pydantic", "hypothesis",
                    "multiprocessing", "concurrent", "importlib.metadata")
# Light, but worth 1-3 ms each of a small file's start-up, and needed only on some paths
# (a batch in workers, a large file, JSON output, a table lookup).
START_UP_COSTLY = ("secrets", "hashlib", "ctypes", "pickle", "importlib.resources", "json")


def typer_params(command, prog: str, argv: list[str]) -> dict:
    """What the typer app's command function receives for ``argv`` (raises on a usage
    error or an eager exit such as --version)."""
    params = dict(command.make_context(prog, list(argv)).params)
    params.pop("version", None)  # the eager option's value is its callback's result
    return {name: normalised(value) for name, value in params.items()}


def normalised(value):
    if isinstance(value, (list, tuple)):
        return [normalised(v) for v in value] or None  # an absent repeatable option
    return value


def quick_params(command, argv: list[str]) -> dict | None:
    params = parse(command, argv)
    if params is None:
        return None
    params.pop("version", None)
    return {name: normalised(value) for name, value in params.items()}


# ---- the typer apps are built from the declarations ------------------------------------

@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_the_typer_app_has_the_declared_options_exactly(prog):
    declared, command = COMMANDS[prog]
    options = {}
    arguments = []
    for param in command.params:
        if param.param_type_name == "argument":
            arguments.append((param.name, param.multiple or param.nargs == -1))
            continue
        if param.name == "help":
            continue
        kind = "flag" if param.is_flag else "repeated" if param.multiple else "value"
        options[param.name] = (tuple(param.opts + param.secondary_opts), kind, param.default)
    assert options == {o.name: (o.flags, "flag" if o.is_flag else
                                "repeated" if o.repeated else "value", o.default)
                       for o in declared.options}
    assert arguments == [(a.name, a.many) for a in declared.arguments]
    if declared.name is not None:
        assert command.name == declared.name


def test_the_subcommands_are_listed_in_the_declared_order():
    assert list(GROUP.commands) == list(quick.SUBCOMMANDS)


def test_version_line_is_what_the_apps_print(capsys):
    for prog, (_, command) in COMMANDS.items():
        if prog.startswith("urdf-sdf "):
            continue  # a subcommand has no --version
        with pytest.raises(typer.Exit) as exited:
            command.make_context(prog, ["--version"])
        assert exited.value.exit_code == 0
        assert capsys.readouterr().out == version_line(prog) + "\n"


# ---- what the quick parser accepts, typer reads the same way --------------------------------

ACCEPTED = {
    "urdf2sdf": [
        ["robot.urdf"],
        ["-"],
        ["robot.urdf", "-o", "out.sdf"],
        ["-o", "out.sdf", "robot.urdf", "--relative", "--json"],
        ["robot.urdf", "--output=out.sdf", "-q", "--strict"],
        ["robot.urdf", "-o", "-", "--sdf-version", "1.9", "--uri-scheme", "model"],
        ["robot.urdf.xacro", "--xacro-arg", "a:=1", "--xacro-arg=b:=2", "--lump-fixed"],
        ["robot.urdf.xacro", "--xacro", "--xacro-env", "--xacro-path", "ws", "--xacro-path=x"],
        ["tree", "-o", "out", "-j", "2", "--fix-inertia", "--quiet"],
        ["tree", "-o", "out", "--jobs=0"],
    ],
    "sdf2urdf": [
        ["robot.sdf"],
        ["world.sdf", "--model", "arm", "--separator", "__", "-o", "arm.urdf"],
        ["robot.sdf", "-p", "models", "--path", "more", "--path=most", "--drop-frames"],
        ["robot.sdf", "--approximate", "--uri-scheme", "package", "--json", "-j", "1"],
    ],
    "urdf-sdf check": [
        ["robot.urdf"],
        ["a.urdf", "b.sdf", "--json"],
        ["-", "--urdf-parity", "--model", "arm"],
        ["robot.urdf", "-p", "models", "--path=more", "--package-path", "ws", "--meshes", "-q",
         "--strict"],
    ],
    "urdf-sdf frames": [
        ["robot.urdf"],
        ["world.sdf", "--model", "arm", "--json", "-q", "--strict"],
        ["-", "-p", "models", "--path=more"],
        ["robot.urdf.xacro", "--xacro", "--xacro-arg", "a:=1", "--xacro-path", "ws"],
    ],
    "urdf-sdf graph": [
        ["robot.urdf"],
        ["robot.sdf", "--kind", "TREE", "-o", "g.svg", "-q", "--strict"],
        ["-", "-k", "Attached_To", "--output=g.dot", "-p", "models"],
    ],
    "urdf-sdf diff": [
        ["a.urdf", "b.sdf"],
        ["a.urdf", "--tol", "1e-6", "b.sdf", "--configurations", "5", "--seed=3", "--json"],
        ["-", "b.sdf", "--model", "arm", "--strict", "-p", "models", "--tol=1e300"],
    ],
    "urdf-sdf print": [
        ["robot.sdf"],
        ["robot.sdf", "-o", "out.sdf", "--preserve-includes", "--strict"],
        ["--output=out.sdf", "robot.urdf", "-p", "models"],
    ],
}
DECLINED = {
    "urdf2sdf": [
        [], ["--help"], ["robot.urdf", "--help"], ["robot.urdf", "-h"],
        ["a.urdf", "b.urdf"], ["robot.urdf", "--"], ["--", "robot.urdf"],
        ["robot.urdf", "-o"], ["robot.urdf", "-o", "a", "-o", "b"],
        ["robot.urdf", "--relative", "--relative"], ["robot.urdf", "--relative=1"],
        ["robot.urdf", "-qo", "out.sdf"], ["robot.urdf", "-oout.sdf"], ["robot.urdf", "-o=x"],
        ["robot.urdf", "--out", "x"], ["robot.urdf", "--no-relative"], ["robot.urdf", "-j", "x"],
        ["robot.urdf", "-j", "-1"], ["robot.urdf", "-j", "+2"], ["robot.urdf", "-j", "٣"],
        ["robot.urdf", "-o", ""], ["robot.urdf", "--output="], ["robot.urdf", "-o", "-x"],
        [""], ["-robot.urdf"], ["robot.urdf", "--version", "--help"],
    ],
    "urdf-sdf": [["check", "robot.urdf"], ["check", "--version"], ["--version", "check"], [],
                 ["--help"]],
    "urdf-sdf check": [[], ["--help"], ["robot.urdf", "--version"], ["robot.urdf", "--model"],
                       ["robot.urdf", "--bogus"], ["robot.urdf", "--json", "--json"],
                       ["robot.urdf", "--model", "a", "--model", "b"]],
    "urdf-sdf frames": [[], ["a.sdf", "b.sdf"], ["robot.urdf", "--version"],
                        ["robot.urdf", "-o", "x"], ["robot.urdf", "--model"]],
    "urdf-sdf graph": [[], ["robot.sdf", "--kind", "x"], ["robot.sdf", "-k", "tre"],
                       ["robot.sdf", "--kind=both", "-k", "tree"], ["robot.sdf", "--json"]],
    "urdf-sdf diff": [[], ["a.urdf"], ["a.urdf", "b.sdf", "c.sdf"], ["a", "b", "--tol", "x"],
                      ["a", "b", "--tol", "-1"], ["a", "b", "--tol", "inf"],
                      ["a", "b", "--tol=-inf"], ["a", "b", "--tol", "nan"],
                      ["a", "b", "--seed", "1.5"], ["a", "b", "-q"],
                      ["a", "b", "--configurations"]],
    "urdf-sdf print": [[], ["a.sdf", "b.sdf"], ["robot.sdf", "--json"], ["robot.sdf", "-q"],
                       ["robot.sdf", "-o"], ["robot.sdf", "--help"]],
}


@pytest.mark.parametrize("prog, argv", [(p, a) for p, cases in ACCEPTED.items() for a in cases])
def test_accepted_command_lines_mean_what_they_mean_to_typer(prog, argv):
    declared, command = COMMANDS[prog]
    assert quick_params(declared, argv) == typer_params(command, prog, argv)


@pytest.mark.parametrize("prog, argv", [(p, a) for p, cases in DECLINED.items() for a in cases])
def test_anything_else_is_left_to_typer(prog, argv):
    assert parse(COMMANDS[prog][0], argv) is None


@pytest.mark.parametrize("prog", ["urdf2sdf", "sdf2urdf", "urdf-sdf"])
def test_version_is_answered_as_typer_answers_it(prog):
    declared, _ = COMMANDS[prog]
    assert parse(declared, ["--version"])["version"] is True
    if declared.arguments:  # eager: before FILE is looked at, wherever it stands
        assert parse(declared, ["robot", "--version"])["version"] is True


def test_shell_completion_is_left_to_typer(monkeypatch):
    monkeypatch.setenv("_URDF2SDF_COMPLETE", "bash_complete")
    assert parse(quick.COMMANDS["urdf2sdf"], ["robot.urdf"]) is None


VALUES = ["robot.urdf", "out", "-", "2", "0", "-1", "x", "", "a:=1", "=x", "1.9", "package",
          "model", "::", "--relative", "-q", "x y", "é"]
NOISE = ["--", "-x", "--bogus", "-qo", "--help", "-h", "-o=x", "-j2", "--relative=1"]


def pieces(declared):
    """Pieces of a command line: an option with or without its value, ``--opt=value``,
    a FILE, or noise; mostly what a user types, now and then what typer must refuse."""
    # (no NUL: a command line cannot hold one)
    value = st.sampled_from(VALUES) | st.text(st.characters(blacklist_characters="\x00"),
                                              max_size=3)
    # Values a typed option takes (most others are refused): a choice, as listed or in
    # capitals; a number.
    choices = [choice.value for o in declared.options
               if isinstance(o.kind, type) and issubclass(o.kind, enum.Enum) for choice in o.kind]
    if choices:
        value = value | st.sampled_from(choices + [choice.upper() for choice in choices])
    if any(o.kind in (int, float) for o in declared.options):
        value = value | st.sampled_from(["1", "20", "0.5", "1e-6", "1e300", "inf"])
    takes_value = sorted(f for o in declared.options if not o.is_flag for f in o.flags)
    flag = st.sampled_from(sorted(f for o in declared.options if o.is_flag
                                  for f in o.flags)).map(lambda f: [f])
    if not takes_value:
        return flag | st.sampled_from(NOISE).map(lambda n: [n])
    separate = st.tuples(st.sampled_from(takes_value), value).map(list)
    joined = st.tuples(st.sampled_from([o for o in takes_value if o.startswith("--")]),
                       value).map(lambda p: [f"{p[0]}={p[1]}"])
    odd = st.one_of(st.sampled_from(NOISE).map(lambda n: [n]),
                    st.sampled_from(takes_value).map(lambda o: [o]),
                    st.sampled_from(["robot.urdf", "-", "a b.sdf", "dir/"]).map(lambda f: [f]))
    return st.one_of(flag, separate, separate, joined, odd)


@pytest.mark.parametrize("prog", sorted(COMMANDS))
def test_generated_command_lines_the_quick_parser_accepts_mean_the_same(prog):
    declared, command = COMMANDS[prog]
    accepted = []

    @settings(max_examples=examples(400), deadline=None, derandomize=True)
    @given(st.lists(pieces(declared), max_size=4), st.sampled_from(["robot.urdf", "-", "a b"]),
           st.lists(pieces(declared), max_size=3))
    def check(before, file, after):
        files = [file, "b.sdf"][:len(declared.arguments)] if declared.arguments else []
        argv = [token for part in before for token in part] + files + \
            [token for part in after for token in part]
        mine = quick_params(declared, argv)
        if mine is None or parse(declared, argv).get("version"):
            return  # left to typer (or --version, checked above)
        accepted.append(argv)
        assert mine == typer_params(command, prog, argv), argv

    check()
    # the property was exercised (on one generated command line in 20, as with CI's budget)
    assert not declared.arguments or len(accepted) > examples(400) // 20


# ---- end to end: the console script gives what the typer app gives ----------------------

QUICK = "import sys; sys.argv[0] = {prog!r}; from urdf_sdf.cli.quick import {entry}; {entry}()"
# The same entry, with no plain path: the typer app reads the whole command line.
TYPER = ("import sys; sys.argv[0] = {prog!r}; from urdf_sdf.cli.quick import run; "
         "run({prog!r}, None, [])")


def run_both(prog: str, argv: list[str], tmp_path: Path, stdin: bytes | None = None):
    """(exit code, stdout, stderr, files written) of the console script and of the typer
    app, each run in a fresh directory (``out/``) of its own, with the same arguments."""
    results = []
    for name, code in (("quick", QUICK), ("typer", TYPER)):
        work = tmp_path / name
        work.mkdir()
        program = code.format(prog=prog, entry=prog.replace("-", "_"))
        env = dict(os.environ, NO_COLOR="1")
        done = subprocess.run([sys.executable, "-c", program, *argv], cwd=work, env=env,
                              input=stdin, capture_output=True, timeout=120)
        written = {str(p.relative_to(work)): p.read_bytes()
                   for p in sorted(work.rglob("*")) if p.is_file()}
        results.append((done.returncode, done.stdout, done.stderr, written))
    return results


CASES = [
    ("urdf2sdf", [str(SAMPLES / "pendulum.urdf")]),
    ("urdf2sdf", [str(SAMPLES / "arm6.urdf"), "-o", "out/arm6.sdf", "--relative"]),
    ("urdf2sdf", [str(SAMPLES / "diff_drive.urdf"), "--json", "--sdf-version", "1.9"]),
    ("urdf2sdf", [str(FIXTURES / "massless_link_warning.urdf")]),
    ("urdf2sdf", [str(FIXTURES / "massless_link_warning.urdf"), "-q"]),
    ("urdf2sdf", [str(FIXTURES / "massless_link_warning.urdf"), "--strict", "-o", "o.sdf"]),
    ("urdf2sdf", [str(FIXTURES / "duplicate_link.urdf"), "--json"]),
    ("urdf2sdf", [str(SAMPLES / "arm6.urdf"), "--lump-fixed", "--fix-inertia",
                  "--uri-scheme", "model"]),
    ("urdf2sdf", [str(SAMPLES / "pendulum.urdf"), "--uri-scheme", "nope"]),  # usage error
    ("urdf2sdf", [str(SAMPLES / "pendulum.urdf"), "--xacro-arg", "broken"]),  # usage error
    ("urdf2sdf", [str(ROOT / "nowhere.urdf")]),
    ("urdf2sdf", [str(SAMPLES), "-o", "out", "-j", "1"]),
    ("urdf2sdf", [str(SAMPLES), "-o", "out", "--json", "-j", "2"]),
    ("urdf2sdf", [str(SAMPLES)]),  # usage error: a directory needs -o
    ("urdf2sdf", ["--version"]),
    ("urdf2sdf", [str(SAMPLES / "pendulum.urdf"), "--model-dir", "out/pendulum"]),
    ("urdf2sdf", [str(SAMPLES / "pendulum.urdf"), "--model-dir", "out/m", "-o", "x"]),  # usage
    ("sdf2urdf", [str(SAMPLES / "pendulum.sdf")]),
    ("sdf2urdf", [str(SAMPLES / "diff_drive.sdf"), "-o", "out/dd.urdf", "-p", str(SAMPLES)]),
    ("sdf2urdf", [str(SAMPLES / "arm6.sdf"), "--json", "--drop-frames", "--approximate"]),
    ("sdf2urdf", [str(SAMPLES), "-o", "out", "-q"]),
    ("sdf2urdf", ["--version"]),
    ("sdf2urdf", [str(SAMPLES / "pendulum.sdf"), "--package-dir", "out/pendulum"]),
    ("sdf2urdf", [str(SAMPLES / "pendulum.sdf"), "--package-dir", "out/Bad Name"]),  # usage
    ("sdf2urdf", [str(SAMPLES / "pendulum.sdf"), "--model", "a", "--all-models"]),  # usage
    ("urdf-sdf", ["roundtrip", str(SAMPLES / "pendulum.urdf"), str(SAMPLES / "arm6.sdf")]),
    ("urdf-sdf", ["roundtrip", str(FIXTURES / "duplicate_link.urdf"), "-q"]),
    ("urdf-sdf", ["--version"]),
    ("urdf-sdf", ["check", str(SAMPLES / "pendulum.urdf")]),
    ("urdf-sdf", ["check", str(SAMPLES / "pendulum.urdf"), str(SAMPLES / "arm6.sdf"), "--json"]),
    ("urdf-sdf", ["check", str(SAMPLES / "arm6.sdf"), "--urdf-parity", "-p", str(SAMPLES)]),
    ("urdf-sdf", ["check", str(FIXTURES / "massless_link_warning.urdf"), "--strict"]),
    ("urdf-sdf", ["check", str(FIXTURES / "duplicate_link.urdf"), "-q"]),
    ("urdf-sdf", ["check", str(ROOT / "nowhere.urdf"), str(SAMPLES / "pendulum.sdf")]),
    ("urdf-sdf", ["check", "-", "-"]),  # usage error
    ("urdf-sdf", ["check", str(SAMPLES / "pendulum.sdf"), str(SAMPLES / "arm6.sdf"),
                  "--model", "arm"]),  # usage error
    ("urdf-sdf", ["frames", str(SAMPLES / "pendulum.urdf")]),
    ("urdf-sdf", ["frames", str(SAMPLES / "arm6.sdf"), "--json"]),
    ("urdf-sdf", ["frames", str(FIXTURES / "massless_link_warning.urdf"), "--strict"]),
    ("urdf-sdf", ["frames", str(SAMPLES / "arm6.sdf"), "--model", "nope"]),
    ("urdf-sdf", ["frames", str(ROOT / "nowhere.urdf")]),
    ("urdf-sdf", ["graph", str(SAMPLES / "pendulum.urdf")]),
    ("urdf-sdf", ["graph", str(SAMPLES / "arm6.sdf"), "--kind", "Tree", "-o", "out/g.dot"]),
    ("urdf-sdf", ["graph", str(SAMPLES / "arm6.sdf"), "-k", "x"]),  # usage error
    ("urdf-sdf", ["graph", str(SAMPLES / "arm6.sdf"), "-o", "out/g.txt"]),
    ("urdf-sdf", ["graph", str(FIXTURES / "duplicate_link.urdf"), "-q"]),
    ("urdf-sdf", ["diff", str(SAMPLES / "pendulum.urdf"), str(SAMPLES / "pendulum.sdf")]),
    ("urdf-sdf", ["diff", str(SAMPLES / "arm6.urdf"), str(SAMPLES / "pendulum.sdf"), "--json",
                  "--configurations", "3", "--seed", "7", "--tol", "1e-6"]),
    ("urdf-sdf", ["diff", str(SAMPLES / "arm6.urdf"), str(SAMPLES / "arm6.sdf"), "--strict"]),
    ("urdf-sdf", ["diff", "-", "-"]),  # usage error
    ("urdf-sdf", ["diff", str(SAMPLES / "arm6.urdf"), str(ROOT / "nowhere.sdf")]),
    ("urdf-sdf", ["print", str(SAMPLES / "diff_drive.sdf")]),
    ("urdf-sdf", ["print", str(SAMPLES / "pendulum.urdf"), "-o", "out/p.sdf"]),
    ("urdf-sdf", ["print", str(FIXTURES / "duplicate_link.urdf")]),
    ("urdf-sdf", ["print", str(SAMPLES / "arm6.sdf"), "-o", str(SAMPLES / "arm6.sdf")]),
    ("urdf-sdf", ["print", str(ROOT / "nowhere.sdf")]),
]


@pytest.mark.parametrize("prog, argv", CASES, ids=[" ".join([p, *(Path(a).name for a in argv)])
                                                   for p, argv in CASES])
def test_console_script_gives_what_the_typer_app_gives(prog, argv, tmp_path):
    script, app = run_both(prog, argv, tmp_path)
    assert script[0] == app[0]
    assert script[1].replace(b"/quick/", b"/typer/") == app[1]
    assert script[2].replace(b"/quick/", b"/typer/") == app[2]
    assert script[3] == app[3]


def test_standard_input_gives_what_the_typer_app_gives(tmp_path):
    data = (SAMPLES / "pendulum.urdf").read_bytes()
    script, app = run_both("urdf2sdf", ["-", "--relative"], tmp_path, stdin=data)
    assert script == app and script[0] == 0 and b"<sdf" in script[1]


# ---- what a plain command imports -------------------------------------------------------

IMPORTS = """
import sys
sys.argv = [{prog!r}, *{argv!r}]
from urdf_sdf.cli import quick
try:
    quick.{entry}()
except SystemExit as exc:
    code = exc.code
sys.stdout.flush()
modules = sorted(sys.modules)
import json
sys.stderr.write(json.dumps({{"code": code, "modules": modules}}))
"""


def imported(prog: str, argv: list[str], tmp_path: Path) -> tuple[int, set[str]]:
    program = IMPORTS.format(prog=prog, argv=argv, entry=prog.replace("-", "_"))
    done = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    report = json.loads(done.stderr.splitlines()[-1])
    return report["code"], set(report["modules"])


def heavy(modules: set[str], names=NUMERIC_OR_HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in names))


@pytest.mark.parametrize("prog, source", [("urdf2sdf", "pendulum.urdf"),
                                          ("urdf2sdf", "arm6.urdf"),
                                          ("sdf2urdf", "pendulum.sdf"),
                                          ("sdf2urdf", "diff_drive.sdf")])
def test_a_plain_conversion_imports_nothing_numeric_nor_typer(prog, source, tmp_path):
    code, modules = imported(prog, [str(SAMPLES / source), "-o", str(tmp_path / "out")],
                             tmp_path)
    assert code == 0 and (tmp_path / "out").stat().st_size > 0
    assert heavy(modules) == []
    assert heavy(modules, START_UP_COSTLY) == []
    # No source here is a URDF with <gazebo> blocks: none needs their code or SDFormat's table.
    assert heavy(modules, ("urdf_sdf.urdf2sdf.gazebo", "urdf_sdf.core.base.sdformat_tree")) == []
    # Nor the other direction's converter, nor model directories and packages (a route).
    other = "urdf_sdf.sdf2urdf" if prog == "urdf2sdf" else "urdf_sdf.urdf2sdf"
    assert heavy(modules, (other, "urdf_sdf.cli.packaging")) == []


def test_python_m_runs_a_console_script_by_name():
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf", "--version"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, version_line("urdf2sdf") + "\n")
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sd"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "urdf2sdf" in done.stderr


def test_version_imports_no_converter(tmp_path):
    for prog in ("urdf2sdf", "sdf2urdf", "urdf-sdf"):
        code, modules = imported(prog, ["--version"], tmp_path)
        assert code == 0
        assert not [m for m in modules if m.startswith(("urdf_sdf.urdf2sdf", "urdf_sdf.sdf2urdf",
                                                        "urdf_sdf.core.loader", "lxml"))]
        assert heavy(modules) == []


@pytest.mark.parametrize("argv", [["check", str(SAMPLES / "pendulum.urdf")],
                                  ["frames", str(SAMPLES / "pendulum.urdf")],
                                  ["print", str(SAMPLES / "arm6.sdf")],
                                  ["graph", str(SAMPLES / "arm6.sdf")]])
def test_an_inspecting_command_imports_nothing_numeric_nor_typer(argv, tmp_path):
    code, modules = imported("urdf-sdf", argv, tmp_path)
    assert code == 0
    assert heavy(modules) == []
    assert heavy(modules, START_UP_COSTLY) == []


def test_diff_imports_numpy_but_not_typer(tmp_path):
    code, modules = imported("urdf-sdf", ["diff", str(SAMPLES / "arm6.urdf"),
                                          str(SAMPLES / "arm6.urdf")], tmp_path)
    assert code == 0
    assert "numpy" in modules  # forward kinematics over the sampled configurations
    assert heavy(modules, ("typer", "click", "rich", "multiprocessing")) == []
