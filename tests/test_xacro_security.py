"""xacro expansion is asked for, and harmless (issue 24, item 1).

* A ``*.xacro`` FILE is expanded only with ``--xacro``: without it every command says
  ``XACRO_NOT_EXPANDED`` and a batch skips ``*.urdf.xacro`` files (a hostile file in a
  pull request runs nothing).
* With ``--xacro`` the expansion runs in a limited child process whose evaluator has no
  route to modules or builtins: the reduced reproducers of ``tests/fixtures/xacro`` (a
  ``__globals__`` climb to ``os.system``, an ``exec`` through ``$(eval)``, ``$(env)``,
  includes and ``load_yaml`` leaving the package, a symbolic link out of it, an included
  DTD) are refused with ``XACRO_UNSAFE`` (``XML_UNSAFE`` for the DTD) at their line, and
  the command they try never runs. Under plain xacro the same escapes do run (checked
  here too, so that the refusals are not vacuous).
* A normal robot (macros, properties, math, ``$(find)`` of its own package, ``load_yaml``
  inside it, ``$(arg)``, ``$(eval)``) expands as plain xacro expands it.
* The evaluator, fed random expressions (hypothesis), returns a value or raises, and never
  calls a function outside its whitelist.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.support import examples, xacro_module
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.xacro_evaluator import MAX_INT_BITS, SAFE_BUILTINS, Evaluator, Refused, safe_math
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.cli.xacro_files import FileRefused, Files
from urdf_sdf.cli.xacro_run import expand_in_sandbox
from urdf_sdf.core.base.diagnostics import Code, Diagnostics

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "xacro"
PACKAGE = "robot_pkg"
MARKER = "xacro_escape_ran"  # what the escapes create in their working directory
SECRET = "URDF_SDF_XACRO_SECRET"
SCRIPTS = Path(sys.executable).parent
runner = CliRunner()


@pytest.fixture
def xacro_package():
    """The xacro package (the test extra installs it): skipped without it, a failure
    under CI."""
    return xacro_module()


@pytest.fixture
def tree(tmp_path, xacro_package) -> Path:
    """A copy of tests/fixtures/xacro (the package and the files beside it)."""
    copy = tmp_path / "xacro"
    shutil.copytree(FIXTURES, copy, symlinks=True)
    return copy


def robot(tree: Path, name: str) -> Path:
    return tree / PACKAGE / "urdf" / f"{name}.urdf.xacro"


def no_marker(tree: Path) -> bool:
    """No escape ran: no marker anywhere under the tree, nor in this process's cwd."""
    return not list(tree.rglob(MARKER)) and not Path(MARKER).exists()


def console(script: str, *args, cwd: Path, env: dict | None = None):
    """A console script as a user runs it (the quick path, a process of its own)."""
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update(env or {})
    return subprocess.run([str(SCRIPTS / script), *map(str, args)], cwd=cwd, check=False,
                          capture_output=True, text=True, env=environment, timeout=300)


def first_error(stderr: str) -> tuple[str, str | None, str]:
    """``(file, line, code)`` of the first diagnostic line."""
    match = re.match(r"^(?P<file>.+?)(?::(?P<line>\d+))?(?::\d+)?: error\[(?P<code>\w+)\]",
                     stderr)
    assert match, stderr
    return match["file"], match["line"], match["code"]


# ---- the reproducers are real: plain xacro runs them ------------------------------------

@pytest.mark.parametrize("name", ["xacro_refuses_python_escape", "xacro_refuses_eval_escape"])
def test_the_escapes_run_commands_under_plain_xacro(tree, name):
    """The fixtures are working exploits of xacro's own evaluator (run here in a child
    process of the test, in the tree's copy): so the refusals below refuse something."""
    source = robot(tree, name)
    code = "import sys, xacro\ntry:\n    xacro.process_file(sys.argv[1])\nexcept Exception:\n" \
           "    pass\n"
    subprocess.run([sys.executable, "-c", code, str(source)], cwd=tree, timeout=120,
                   capture_output=True, check=False)
    assert (tree / MARKER).exists()


# ---- expansion is asked for -------------------------------------------------------------

def test_xacro_refuses_python_escape_without_xacro_by_not_expanding(tree):
    source = robot(tree, "xacro_refuses_python_escape")
    result = console("urdf2sdf", source, cwd=tree)
    assert result.returncode == 1
    assert first_error(result.stderr) == (str(source), None, "XACRO_NOT_EXPANDED")
    assert "pass --xacro" in result.stderr and result.stdout == ""
    assert no_marker(tree)


def test_xacro_arg_alone_does_not_expand(tree):
    source = robot(tree, "xacro_benign_robot")
    result = console("urdf2sdf", source, "--xacro-arg", "prefix:=x", cwd=tree)
    assert result.returncode == 1 and "error[XACRO_NOT_EXPANDED]" in result.stderr


COMMANDS = {
    "urdf2sdf": (urdf2sdf, []),
    "sdf2urdf": (sdf2urdf, []),
    "check": (umbrella, ["check"]),
    "frames": (umbrella, ["frames"]),
    "graph": (umbrella, ["graph"]),
    "diff": (umbrella, ["diff", str(FIXTURES.parent / "cli" / "pendulum.urdf")]),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_expansion_without_xacro(tree, command, monkeypatch):
    app, head = COMMANDS[command]
    source = robot(tree, "xacro_refuses_python_escape")
    monkeypatch.chdir(tree)
    refused = 3 if command == "diff" else 1  # diff: a file that does not load, not compared
    result = runner.invoke(app, [*head, str(source)])
    assert result.exit_code == refused, result.output
    assert "error[XACRO_NOT_EXPANDED]" in result.output + result.stderr
    assert no_marker(tree)
    expanded = runner.invoke(app, [*head, str(source), "--xacro"])
    assert expanded.exit_code == refused
    assert "error[XACRO_UNSAFE]" in expanded.output + expanded.stderr
    assert no_marker(tree)


def test_view_refuses_expansion_without_xacro(tree, tmp_path):
    pytest.importorskip("plotly")
    source = robot(tree, "xacro_refuses_python_escape")
    page = tmp_path / "page.html"
    result = runner.invoke(umbrella, ["view", str(source), "-o", str(page)])
    assert result.exit_code == 1 and "error[XACRO_NOT_EXPANDED]" in result.stderr
    assert not page.exists() and no_marker(tree)


def test_batch_does_not_expand_xacro_files_without_xacro(tree, tmp_path):
    out = tmp_path / "out"
    result = console("urdf2sdf", tree / PACKAGE, "-o", out, cwd=tree)
    assert result.returncode == 0, result.stdout + result.stderr
    skipped = [line for line in result.stdout.splitlines() if "not expanded" in line]
    assert len(skipped) == len(list((tree / PACKAGE).rglob("*.urdf.xacro"))) == 10
    assert all("only with --xacro" in line for line in skipped)
    assert not out.exists() or not list(out.rglob("*.sdf"))
    assert no_marker(tree)


def test_batch_with_xacro_expands_in_the_sandbox(tree, tmp_path):
    out = tmp_path / "out"
    result = console("urdf2sdf", tree / PACKAGE, "-o", out, "--xacro", "-j", "1", cwd=tree)
    assert result.returncode == 1  # the hostile files fail
    assert (out / "urdf" / "xacro_benign_robot.sdf").is_file()
    assert "xacro_refuses_python_escape.urdf.xacro:6: error[XACRO_UNSAFE]" in result.stderr
    assert "xacro_refuses_eval_escape.urdf.xacro:6: error[XACRO_UNSAFE]" in result.stderr
    assert no_marker(tree)


# ---- with --xacro: each escape refused at its line ----------------------------------------

@pytest.mark.parametrize("name, line, words", [
    ("xacro_refuses_python_escape", "6", "Lambda is not allowed"),
    ("xacro_refuses_eval_escape", "6", "builtin exec is not allowed"),
    ("xacro_refuses_include_of_etc_passwd", "4", "outside the input's package"),
    ("xacro_refuses_include_outside_package", "5", "outside the input's package"),
    ("xacro_refuses_load_yaml_outside_package", "4", "outside the input's package"),
    ("xacro_refuses_env_without_xacro_env", "5", "--xacro-env"),
    ("xacro_refuses_optenv_without_xacro_env", "5", "--xacro-env"),
])
def test_xacro_refuses_escapes_at_their_line(tree, name, line, words):
    source = robot(tree, name)
    result = console("urdf2sdf", source, "--xacro", cwd=tree, env={SECRET: "hunter2"})
    assert result.returncode == 1 and result.stdout == ""
    assert first_error(result.stderr) == (str(source), line, "XACRO_UNSAFE")
    assert words in result.stderr.splitlines()[0]
    assert "hunter2" not in result.stderr and "root:" not in result.stderr
    assert "Traceback" not in result.stderr
    assert no_marker(tree)


def test_xacro_refuses_include_through_a_symlink_leaving_the_package(tree):
    (tree / PACKAGE / "urdf" / "parts" / "leak.xacro").symlink_to(tree / "outside.xacro")
    source = robot(tree, "xacro_refuses_symlink_leaving_package")
    result = console("urdf2sdf", source, "--xacro", cwd=tree)
    assert result.returncode == 1
    assert first_error(result.stderr) == (str(source), "5", "XACRO_UNSAFE")
    assert "outside the input's package" in result.stderr


def test_xacro_reads_nothing_through_a_folder_swapped_for_a_link_after_its_check(tmp_path,
                                                                                  monkeypatch):
    """A folder of the package replaced by a link out of it between the check of a path
    and its opening: the file is refused, the one outside never read."""
    (tmp_path / "pkg" / "parts").mkdir(parents=True)
    (tmp_path / "pkg" / "parts" / "arm.xacro").write_text("<robot/>")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "arm.xacro").write_text("<secret/>")
    files = Files(str(tmp_path / "pkg" / "robot.urdf.xacro"), [], None, 1 << 20)
    checked = files.check

    def checked_then_swapped(path, needle=None):
        real = checked(path, needle)
        os.rename(tmp_path / "pkg" / "parts", tmp_path / "parts.moved")
        (tmp_path / "pkg" / "parts").symlink_to(tmp_path / "outside")
        return real

    monkeypatch.setattr(files, "check", checked_then_swapped)
    with pytest.raises(FileRefused, match="a symbolic link on its path"):
        files.read_file(str(tmp_path / "pkg" / "parts" / "arm.xacro"))
    assert files.read == {}


def test_xacro_refuses_an_include_that_is_not_a_regular_file(tree):
    os.mkfifo(tree / PACKAGE / "urdf" / "parts" / "leak.xacro")
    source = robot(tree, "xacro_refuses_symlink_leaving_package")
    result = console("urdf2sdf", source, "--xacro", cwd=tree)  # would block on a FIFO
    assert result.returncode == 1
    assert first_error(result.stderr) == (str(source), "5", "XACRO_UNSAFE")
    assert "not a regular file" in result.stderr


def test_xacro_refuses_an_included_dtd(tree):
    source = robot(tree, "xacro_refuses_included_dtd")
    result = console("urdf2sdf", source, "--xacro", cwd=tree)
    assert result.returncode == 1
    included = tree / PACKAGE / "urdf" / "parts" / "with_dtd.xacro"
    assert first_error(result.stderr) == (str(included), "3", "XML_UNSAFE")
    assert "root:" not in result.stderr


def test_xacro_path_allows_a_directory_outside_the_package(tree):
    """The positive control of the include refusals: the same files, allowed."""
    allowed = XacroOptions(True, paths=(str(tree),))
    for name, link in (("xacro_refuses_include_outside_package", b'<link name="outside"/>'),
                       ("xacro_refuses_load_yaml_outside_package",
                        b'<link name="outside_secret"/>')):
        diagnostics = Diagnostics()
        document = expand_in_sandbox(robot(tree, name), allowed, diagnostics)
        assert not diagnostics and document is not None and link in document
    result = console("urdf2sdf", robot(tree, "xacro_refuses_include_outside_package"),
                     "--xacro", "--xacro-path", tree, cwd=tree)
    assert "XACRO_UNSAFE" not in result.stderr and "outside" in result.stderr  # two roots


def test_xacro_env_lets_env_and_optenv_read_the_environment(tree):
    source = robot(tree, "xacro_refuses_env_without_xacro_env")
    result = console("urdf2sdf", source, "--xacro", "--xacro-env", cwd=tree,
                     env={SECRET: "from_the_environment"})
    assert result.returncode == 0, result.stderr
    assert '<link name="from_the_environment">' in result.stdout
    optional = robot(tree, "xacro_refuses_optenv_without_xacro_env")
    result = console("urdf2sdf", optional, "--xacro", "--xacro-env", cwd=tree,
                     env={SECRET: "set"})
    assert result.returncode == 0, result.stderr
    assert '<link name="a_set">' in result.stdout and '"b_fallback"' in result.stdout


# ---- a normal robot expands as plain xacro expands it ---------------------------------------

def _without_comments(document: bytes) -> bytes:
    return re.sub(rb"<!--.*?-->\s*", b"", document, flags=re.DOTALL)


def test_benign_xacro_expands_as_plain_xacro_does(tree, xacro_package, monkeypatch):
    from xacro import substitution_args  # plain xacro finds packages through ament

    source = robot(tree, "xacro_benign_robot")
    monkeypatch.setattr(substitution_args, "_eval_find", lambda name: str(tree / PACKAGE))
    plain = xacro_package.process_file(str(source), mappings={"prefix": "rover2"})
    expected = plain.toprettyxml(indent="  ", encoding="utf-8")
    diagnostics = Diagnostics()
    ours = expand_in_sandbox(source, XacroOptions(True, {"prefix": "rover2"}), diagnostics)
    assert not diagnostics and ours is not None
    assert _without_comments(ours) == _without_comments(expected)
    assert b'<link name="rover2_mast_6"/>' in ours and b'radius="0.12"' in ours


def test_benign_xacro_converts_with_xacro(tree):
    source = robot(tree, "xacro_benign_robot")
    result = console("urdf2sdf", source, "--xacro", "--xacro-arg", "prefix:=arm", cwd=tree)
    assert result.returncode == 0, result.stderr
    for name in ("base", "left_wheel", "right_wheel"):
        assert f'<link name="{name}">' in result.stdout
    assert "arm_mast_6" in result.stdout  # $(arg) and $(eval)
    check = console("urdf-sdf", "check", source, "--xacro", cwd=tree)
    assert check.returncode == 0 and check.stdout.strip().endswith("valid")


def test_find_searches_the_environment_only_with_xacro_env(tree):
    source = tree / PACKAGE / "urdf" / "finds_elsewhere.urdf.xacro"
    source.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                      '  <xacro:include filename="$(find other_pkg)/x.xacro"/>\n</robot>\n')
    result = console("urdf2sdf", source, "--xacro", cwd=tree,
                     env={"ROS_PACKAGE_PATH": str(tree)})
    assert result.returncode == 1 and "error[XACRO_ERROR]" in result.stderr
    assert "--xacro-path" in result.stderr and "--xacro-env" in result.stderr
    other = tree / "workspace" / "other_pkg"
    other.mkdir(parents=True)
    (other / "package.xml").write_text("<package><name>other_pkg</name></package>\n")
    (other / "x.xacro").write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro">'
                                   '<link name="from_other_pkg"/></robot>\n')
    for allowing in (["--xacro-env"], ["--xacro-path", tree / "workspace"]):
        found = console("urdf2sdf", source, "--xacro", *allowing, cwd=tree,
                        env={"ROS_PACKAGE_PATH": str(tree / "workspace")})
        assert found.returncode == 0, found.stderr
        assert '<link name="from_other_pkg">' in found.stdout


# ---- the child process ---------------------------------------------------------------------

def test_the_sandbox_process_can_write_no_file(tmp_path):
    code = ("from urdf_sdf.cli.xacro_sandbox import limit_resources\n"
            "limit_resources()\n"
            "try:\n    with open('written', 'w') as file:\n        file.write('x' * 10)\n"
            "        file.flush()\nexcept OSError as e:\n    print('refused', e.errno)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout.startswith("refused")
    assert not (tmp_path / "written").exists() or (tmp_path / "written").stat().st_size == 0


def test_the_sandbox_process_can_start_no_process(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("RLIMIT_NPROC does not hold for root")
    code = ("import os\nfrom urdf_sdf.cli.xacro_sandbox import limit_resources\n"
            "limit_resources()\n"
            "try:\n    pid = os.fork()\nexcept OSError:\n    print('refused')\nelse:\n"
            "    os._exit(0) if pid == 0 else print('forked')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout.strip() == "refused"


def test_an_expansion_that_runs_too_long_is_stopped(tree):
    """An exponential macro (each level calls the next twice, 2**40 links) would run
    for ever: the wall-clock limit stops it (here 3 s; the CPU limit is the backstop)."""
    levels = "\n".join(
        f'  <xacro:macro name="m{i}"><xacro:m{i + 1}/><xacro:m{i + 1}/></xacro:macro>'
        for i in range(40))
    source = tree / PACKAGE / "urdf" / "grows.urdf.xacro"
    source.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                      f'{levels}\n  <xacro:macro name="m40"><link name="l"/></xacro:macro>\n'
                      '  <xacro:m0/>\n</robot>\n')
    diagnostics = Diagnostics()
    assert expand_in_sandbox(source, XacroOptions(True), diagnostics, timeout=3) is None
    [error] = diagnostics
    assert error.code is Code.XACRO_ERROR and "longer than 3 s" in error.message


def test_the_sandbox_answers_in_json_and_reads_nothing_from_the_terminal(tree):
    """The child's protocol, as a user of `python -m` would see it: one JSON request in,
    one JSON answer out, run with an empty environment."""
    request = {"input": str(robot(tree, "xacro_refuses_env_without_xacro_env")),
               "args": {}, "paths": [], "environment": None, "max_bytes": 1 << 20}
    done = subprocess.run([sys.executable, "-I", "-m", "urdf_sdf.cli.xacro_sandbox"],
                          input=json.dumps(request).encode(), capture_output=True, env={},
                          cwd=tree, timeout=120, check=False)
    answer = json.loads(done.stdout)
    assert answer["error"]["code"] == "XACRO_UNSAFE" and answer["error"]["line"] == 5


# ---- the evaluator ---------------------------------------------------------------------------

class _Namespace(dict):
    """A namespace as xacro's (attribute access is item lookup)."""


def _evaluator_and_symbols(trap):
    math = safe_math()
    symbols = {**SAFE_BUILTINS, **math, "math": _Namespace(math), "x": 3, "name": "arm",
               "items": [1, 2, 3], "table": {"a": 1}, "trap": trap,
               "xacro": _Namespace({"trap": trap, "value": 2})}
    allowed = [*SAFE_BUILTINS.values(), *(f for f in math.values() if callable(f))]
    return Evaluator(allowed, (_Namespace,)), symbols


@pytest.mark.parametrize("expression, value", [
    ("1 + 2 * x", 7), ("math.pi / 2 == radians(90)", True), ("name.upper() + '_link'", "ARM_link"),
    ("[i * 2 for i in range(5) if i % 2]", [2, 6]), ("max(items)", 3), ("min(1, 2)", 1),
    ("sum(i for i in range(10))", 45), ("f'{x:.2f}'", "3.00"), ("'%s_%d' % (name, x)", "arm_3"),
    ("table['a']", 1), ("list(map(float, '1 2'.split()))", [1.0, 2.0]),
    ("x if x > 2 else -x", 3), ("xacro.value ** 10", 1024), ("sum(range(10**5))", 4999950000),
    ("sorted(items, reverse=True)", [3, 2, 1]),
])
def test_the_evaluator_computes_what_xacro_files_compute(expression, value):
    evaluator, symbols = _evaluator_and_symbols(lambda *a: None)
    assert evaluator.evaluate(expression, symbols) == value


@pytest.mark.parametrize("expression", [
    "9**9**9", "'a' * 10**9", "1 << 10**9", "[x for x in range(10**9)]", "range(10**12)",
    "'%999999999d' % 1", "f'{x:>999999999}'", "().__class__", "name.__class__.__mro__",
    "name.format(x)", "'{0.__class__}'.format(1)", "(lambda: 1)()", "trap()",
    "xacro.trap()", "max(items, key=trap)", "list(map(trap, items))", "open('/etc/passwd')",
    "exec('1')", "__import__('os')", "(y := 1)", "[a for a in range(1000) for b in range(1000)]",
    "-" * 5000 + "1", "x.real", "table.keys.__self__", "lcm(*range(1, 10**5))",
    "math.factorial(10**6)",
    "[sum(range(10**5)) for i in range(100)]",
])
def test_the_evaluator_refuses(expression):
    calls: list = []
    evaluator, symbols = _evaluator_and_symbols(lambda *a, **k: calls.append(a))
    with pytest.raises(Refused):
        evaluator.evaluate(expression, symbols)
    assert calls == []


def test_the_evaluator_bounds_integers():
    evaluator, symbols = _evaluator_and_symbols(lambda *a: None)
    assert evaluator.evaluate("2 ** 100", symbols) == 2 ** 100
    with pytest.raises(Refused):
        evaluator.evaluate(f"2 ** {MAX_INT_BITS + 1}", symbols)


NAMES = ["x", "name", "items", "table", "trap", "xacro", "math", "pi", "sin", "len", "str",
         "range", "list", "map", "max", "sorted", "open", "exec", "eval", "getattr", "type",
         "vars", "__import__", "__builtins__", "__class__", "load_yaml", "os"]
ATTRIBUTES = ["__globals__", "__class__", "__subclasses__", "__dict__", "__init__", "_x",
              "format", "upper", "split", "join", "trap", "value", "pi", "system", "mro",
              "func_globals", "gi_frame", "f_globals", "keys", "items"]
TOKENS = NAMES + ATTRIBUTES + ["(", ")", "[", "]", ".", ",", ":", "+", "*", "**", "%", "if",
                               "else", "for", "in", "lambda", "'a'", "0", "1", "9", "{", "}",
                               "not", "and", "or", "==", "f'{x}'", "=", ":="]


def _expressions():
    leaf = st.sampled_from(NAMES) | st.integers(-5, 99).map(str) | \
        st.sampled_from(["'a'", "'%s'", "''", "'x y'"])
    return st.recursive(leaf, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(ATTRIBUTES)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, st.lists(inner, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(["+", "*", "**", "%", "and", "or", "<<", "=="]),
                  inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]} for x in {t[1]}]"),
        inner.map(lambda e: f"(lambda y: {e})(1)"),
    ), max_leaves=8)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_expressions(), st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join),
                 st.text(max_size=40)))
def test_random_expressions_never_escape(expression):
    calls: list = []
    evaluator, symbols = _evaluator_and_symbols(lambda *a, **k: calls.append(a))
    try:
        value = evaluator.evaluate(expression, symbols)
    except Refused:
        pass
    except (SyntaxError, NameError, TypeError, ValueError, KeyError, IndexError,
            ZeroDivisionError, OverflowError, AttributeError, RecursionError,
            MemoryError):
        pass  # an allowed expression that fails, as in Python: XACRO_ERROR
    else:
        assert not isinstance(value, (types.ModuleType, types.FrameType, types.CodeType))
        assert not (callable(value) and not evaluator.allows_call(value)
                    and value is not symbols["trap"])
    assert calls == []


@pytest.mark.parametrize("name", ["/etc", "../..", "..", "a/../../b"])
def test_find_takes_a_package_name_never_a_path(tree, name):
    """``$(find /etc)`` or ``$(find ../..)`` with --xacro-env: refused, never a folder
    files are read from (a ROS_PACKAGE_PATH or AMENT_PREFIX_PATH entry joined with a path
    would leave it)."""
    source = tree / PACKAGE / "urdf" / "finds_a_path.urdf.xacro"
    source.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                      f'  <xacro:property name="s" value="${{load_yaml(\'$(find {name})/'
                      'passwd\')}"/>\n  <link name="${s}"/>\n</robot>\n')
    result = console("urdf2sdf", source, "--xacro", "--xacro-env", cwd=tree,
                     env={"ROS_PACKAGE_PATH": str(tree), "AMENT_PREFIX_PATH": "/opt"})
    assert result.returncode == 1 and "error[XACRO_UNSAFE]" in result.stderr
    assert "root:" not in result.stdout + result.stderr


def test_find_never_follows_a_package_linked_out_of_its_search_path(tree):
    """A package folder in a ROS_PACKAGE_PATH entry that is a symbolic link to ``/`` is
    not a package ``$(find)`` gives (a pull request can add such a link to a workspace)."""
    workspace = tree / "workspace"
    workspace.mkdir()
    (workspace / "evil").symlink_to("/")
    source = tree / PACKAGE / "urdf" / "finds_a_link.urdf.xacro"
    source.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                      '  <xacro:property name="s" value="${load_yaml(\'$(find evil)/etc/'
                      'passwd\')}"/>\n  <link name="${s}"/>\n</robot>\n')
    result = console("urdf2sdf", source, "--xacro", "--xacro-env", cwd=tree,
                     env={"ROS_PACKAGE_PATH": str(workspace)})
    assert result.returncode == 1, result.stdout
    assert "root:" not in result.stdout + result.stderr


# ---- an output never replaces a file the expansion read -----------------------------------

@pytest.mark.parametrize("command", [("urdf-sdf", "expand"), ("urdf2sdf", "--xacro")])
def test_an_output_never_replaces_a_file_the_expansion_included(tree, command):
    """``-o`` naming the xacro file the input includes: OUTPUT_IS_INPUT, the file
    intact (it was overwritten with the expansion)."""
    source = robot(tree, "xacro_benign_robot")
    part = tree / PACKAGE / "urdf" / "parts" / "wheel.xacro"
    before = part.read_bytes()
    script, option = command
    arguments = [option, source] if script == "urdf-sdf" else [source, option]
    result = console(script, *arguments, "-o", part, cwd=tree)
    assert result.returncode == 1, result.stderr
    assert first_error(result.stderr)[2] == "OUTPUT_IS_INPUT"
    assert part.read_bytes() == before
