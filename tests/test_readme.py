"""The README's examples are run and their output checked.

Every ```console block is a session: lines starting with ``$ `` are commands run in
a shell from the repository root (the installed console scripts must be on PATH,
as after the README's install command); the lines after a command, up to the next
command, are its expected output (stdout and stderr together). A line ``...``
stands for any number of lines. The README's first two lines are checked too:
they are the set-up commands a new user types.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def sessions() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every command of every console block."""
    found = []
    for block in BLOCK.findall(README.read_text()):
        command, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, expected))
                command, expected = line[2:], []
            elif command is not None:
                expected.append(line)
        if command is not None:
            found.append((command, expected))
    return found


SESSIONS = sessions()


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line, with ``...`` matching any run of lines (trailing spaces ignored)."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == head and matches(rest, actual[1:])


def environment() -> dict:
    env = dict(os.environ, NO_COLOR="1", COLUMNS="100")
    scripts = Path(sys.executable).parent
    env["PATH"] = f"{scripts}{os.pathsep}{env.get('PATH', '')}"
    return env


def test_readme_has_examples():
    assert len(SESSIONS) >= 8, "the README should show every command with its output"


def test_readme_starts_with_the_two_setup_commands():
    lines = [line.strip() for line in README.read_text().splitlines() if line.strip()]
    assert lines[1].startswith("pip install . &&") and "urdf2sdf" in lines[1]
    assert lines[2] == "pip install '.[test]' && python -m pytest -q"


@pytest.fixture(scope="module", autouse=True)
def fresh_build_folder():
    """The sessions are a fresh clone's: what an earlier run of them wrote under the
    ignored ``build/demo`` is removed first (``--model-dir``/``--package-dir`` never
    replace an earlier output without ``--force``)."""
    shutil.rmtree(ROOT / "build" / "demo", ignore_errors=True)


@pytest.mark.parametrize("command, expected", SESSIONS, ids=[c for c, _ in SESSIONS])
def test_readme_example(command, expected, tmp_path):
    if shutil.which(command.split()[0], path=environment()["PATH"]) is None:
        pytest.fail(f"{command.split()[0]} is not installed: install the project first")
    proc = subprocess.run(command, shell=True, cwd=ROOT, env=environment(),
                          capture_output=True, text=True, timeout=120)
    actual = (proc.stdout + proc.stderr).splitlines()
    assert matches(expected, actual), (f"$ {command}\n--- expected\n" + "\n".join(expected)
                                       + "\n--- actual\n" + "\n".join(actual))


def test_readme_python_api_example_runs():
    """The Python API block (the one that loads the samples) runs as written."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    api = [b for b in blocks if "from urdf_sdf import load, frames_report" in b]
    assert api, "the README's Python API example is missing"
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        exec(compile(api[0], "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
