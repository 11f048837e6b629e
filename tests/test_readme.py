"""The documentation's examples are run and their output checked, and its links followed.

The documentation is ``README.md`` (the front page) and ``docs/*.md``. Every ```console
block is a session: lines starting with ``$ `` are commands run in a shell from the
repository root (the installed console scripts must be on PATH, as after the README's
install command), one after the other; the lines after a command, up to the next command,
are its expected output (stdout and stderr together). A line ``...`` stands for any number
of lines. Every ```python block of the README and of ``docs/python.md`` runs as written.
The README's first two lines are checked too: they are the set-up commands a new user
types. Every relative link resolves, to a heading where it names one, and every page of
``docs/`` is linked from the README.
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
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
RUNNABLE_PYTHON = [README, ROOT / "docs" / "python.md"]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)
PYTHON = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
FENCED = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
# What the examples must show, at least once each: the commands a user meets first.
COMMANDS = ("urdf2sdf", "sdf2urdf", "urdf-sdf check", "urdf-sdf diff", "urdf-sdf roundtrip",
            "urdf-sdf frames", "urdf-sdf graph", "urdf-sdf print", "urdf-sdf expand")
MAX_README_LINES = 150


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for every command of one console block."""
    found: list[tuple[str, list[str]]] = []
    command: str | None = None
    expected: list[str] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            if command is not None:
                found.append((command, expected))
            command, expected = line[2:], []
        elif command is not None:
            expected.append(line)
    if command is not None:
        found.append((command, expected))
    return found


def blocks() -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """(``page:line``, its sessions) for every console block of the documentation."""
    found = []
    for page in DOCS:
        text = page.read_text()
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{name(page)}:{line}", sessions(match.group(1))))
    return found


BLOCKS = blocks()


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


def test_readme_starts_with_the_two_setup_commands():
    lines = [line.strip() for line in README.read_text().splitlines() if line.strip()]
    assert lines[1].startswith("pip install . &&") and "urdf2sdf" in lines[1]
    assert lines[2] == "pip install '.[test]' && python -m pytest -q"


def test_readme_is_a_short_front_page_with_a_tour():
    assert README.read_text().count("\n") <= MAX_README_LINES
    tour = [commands for where, commands in BLOCKS if where.startswith("README.md:")]
    assert sum(len(commands) for commands in tour) >= 5, "the README's tour is gone"


def test_the_examples_show_every_command():
    commands = [command for _, found in BLOCKS for command, _ in found]
    shown = [c for c in COMMANDS if any(re.search(rf"(^|\| ){re.escape(c)}\b", command)
                                        for command in commands)]
    assert shown == list(COMMANDS)
    assert len(commands) >= 20, "the documentation should show the commands with their output"


def heading_anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    anchors = set()
    for line in FENCED.sub("", page.read_text()).splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


def links(page: Path) -> list[tuple[Path, str]]:
    """(target file, anchor or '') of every relative link of a page (code blocks left out)."""
    text = FENCED.sub("", page.read_text())
    found = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        found.append(((page.parent / path).resolve() if path else page, anchor))
    return found


@pytest.mark.parametrize("page", DOCS, ids=name)
def test_every_link_resolves(page):
    broken = []
    for target, anchor in links(page):
        if not target.exists():
            broken.append(f"{target.relative_to(ROOT)} (missing)")
        elif anchor and anchor not in heading_anchors(target):
            broken.append(f"{target.relative_to(ROOT)}#{anchor} (no such heading)")
    assert not broken


def test_every_page_of_docs_is_linked_from_the_readme():
    linked = {target for target, _ in links(README)}
    assert not [name(page) for page in DOCS[1:] if page not in linked]


@pytest.fixture(scope="module", autouse=True)
def fresh_build_folder():
    """The sessions are a fresh clone's: what an earlier run of them wrote under the
    ignored ``build/demo`` is removed first (``--model-dir``/``--package-dir`` never
    replace an earlier output without ``--force``)."""
    shutil.rmtree(ROOT / "build" / "demo", ignore_errors=True)


@pytest.mark.parametrize("where, commands", BLOCKS, ids=[where for where, _ in BLOCKS])
def test_documented_example(where, commands):
    """One console block, its commands run in order (a later one may read what an earlier
    one wrote)."""
    for command, expected in commands:
        if shutil.which(command.split()[0], path=environment()["PATH"]) is None:
            pytest.fail(f"{command.split()[0]} is not installed: install the project first")
        proc = subprocess.run(command, shell=True, cwd=ROOT, env=environment(),
                              capture_output=True, text=True, timeout=120, check=False)
        actual = (proc.stdout + proc.stderr).splitlines()
        assert matches(expected, actual), (f"{where}\n$ {command}\n--- expected\n"
                                           + "\n".join(expected) + "\n--- actual\n"
                                           + "\n".join(actual))


def python_blocks() -> list[tuple[str, str]]:
    found = []
    for page in RUNNABLE_PYTHON:
        text = page.read_text()
        for match in PYTHON.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{name(page)}:{line}", match.group(1)))
    return found


def test_the_python_api_example_is_there():
    assert any("from urdf_sdf import load, frames_report" in code for _, code in python_blocks())


@pytest.mark.parametrize("where, code", python_blocks(), ids=[w for w, _ in python_blocks()])
def test_python_example_runs(where, code):
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)
        exec(compile(code, where, "exec"), {})
    finally:
        os.chdir(cwd)
