"""The journeys of a new user, run as they are typed: the installed console scripts in a
subprocess, from a temporary directory holding copies of the inputs (issue 27, items 6,
7, 8 and 10).

* ``urdf-sdf graph robot.urdf`` draws the kinematic tree, for every input;
* a converter given the format it writes refuses it, naming the other command;
* ``check`` ends every file with its line and several files with a total;
* messages name elements as the file writes them; an undeclared prefix's caret is under it;
* ``sdf2urdf`` says once that ``model://`` URIs stay, and which option rewrites them;
* ``--help`` is filled text without ``<bool>``;
* the install hints and the README's Install section name what exists: the clone, a
  wheel built from it (``pip wheel --no-deps .``, offline), the extras' packages;
* a conversion from Python is written with ``.write(path)``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SAMPLES = ROOT / "samples"
FIXTURES = HERE / "fixtures" / "journeys"
BIN = Path(sys.executable).parent
TIMEOUT = 120


def run(folder: Path, *command: str, columns: int = 100) -> subprocess.CompletedProcess:
    """``command`` as typed in ``folder`` (the console scripts of this environment)."""
    env = {**os.environ, "COLUMNS": str(columns), "PATH": f"{BIN}{os.pathsep}"
           f"{os.environ.get('PATH', '')}"}
    env.pop("NO_COLOR", None)
    return subprocess.run(list(command), cwd=folder, capture_output=True, text=True,
                          env=env, timeout=TIMEOUT, check=False)


@pytest.fixture
def here(tmp_path: Path) -> Path:
    """A working directory holding the samples a user would have."""
    for name in ("pendulum.urdf", "pendulum.sdf", "arm6.urdf"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


# ---- 6: the graph ---------------------------------------------------------------------

def test_graph_draws_the_kinematic_tree_by_default_for_urdf_and_sdf(here):
    for robot in ("pendulum.urdf", "pendulum.sdf"):
        graph = run(here, "urdf-sdf", "graph", robot)
        assert graph.returncode == 0, graph.stderr
        assert graph.stdout.startswith('digraph "kinematic_tree"')
    frames = run(here, "urdf-sdf", "graph", "pendulum.sdf", "--kind", "both")
    assert frames.returncode == 0 and 'digraph "kinematic_tree"' not in frames.stdout
    assert "tree (the default, for every input" in run(here, "urdf-sdf", "graph",
                                                        "--help").stdout


# ---- 7: small things ------------------------------------------------------------------

@pytest.mark.parametrize("command, robot, other", [("urdf2sdf", "pendulum.sdf", "sdf2urdf"),
                                                   ("sdf2urdf", "pendulum.urdf", "urdf2sdf")])
def test_a_converter_given_its_output_format_refuses_and_names_the_other(here, command,
                                                                         robot, other):
    result = run(here, command, robot, "-o", "out.xml")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{robot}: error[INPUT_FORMAT_WRONG]: ")
    assert f"{other} converts" in result.stderr
    assert not (here / "out.xml").exists()


def test_check_ends_each_file_with_its_line_and_several_with_a_total(here):
    (here / "broken.urdf").write_text('<robot name="r"><link name="a"/><link name="a"/>'
                                      "</robot>")
    result = run(here, "urdf-sdf", "check", "pendulum.urdf", "broken.urdf", "missing.sdf")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "pendulum.urdf: valid"
    assert "broken.urdf: invalid (1 error)" in lines
    assert "missing.sdf: invalid (1 error)" in lines
    assert lines[-1] == "1 of 3 files valid"
    alone = run(here, "urdf-sdf", "check", "pendulum.urdf")
    assert alone.stdout == "pendulum.urdf: valid\n"  # one file: no total


def test_messages_name_a_prefixed_element_as_the_file_writes_it(here):
    shutil.copy(FIXTURES / "urdf_prefixed_element_named_as_written.urdf", here / "r.urdf")
    result = run(here, "urdf-sdf", "check", "r.urdf")
    assert "<drake:shape>" in result.stdout and "{http://" not in result.stdout


def test_the_caret_of_an_undeclared_prefix_is_under_the_prefix(here):
    shutil.copy(FIXTURES / "xml_undeclared_prefix_pointed_at.urdf", here / "r.urdf")
    lines = run(here, "urdf-sdf", "check", "r.urdf").stdout.splitlines()
    assert lines[0] == ("r.urdf:4:6: warning[XML_RECOVERED]: XML: Namespace prefix drake on "
                        "rotor_inertia is not defined")
    assert lines[1] == " 4 |     <drake:rotor_inertia value=\"0.01\"/>"
    assert lines[2] == "   |      ^"


def test_sdf2urdf_says_once_that_model_uris_stay_and_how_to_rewrite_them(here):
    shutil.copy(HERE / "fixtures" / "codes" / "model_uri_kept.sdf", here / "meshy.sdf")
    kept = run(here, "sdf2urdf", "meshy.sdf", "-o", "meshy.urdf")
    assert kept.returncode == 0
    assert kept.stderr.count("MODEL_URI_KEPT") == 1
    assert "2 mesh URIs left as model://" in kept.stderr
    assert "--uri-scheme package" in kept.stderr
    rewritten = run(here, "sdf2urdf", "meshy.sdf", "--uri-scheme", "package")
    assert rewritten.returncode == 0 and "MODEL_URI_KEPT" not in rewritten.stderr
    assert 'filename="package://meshy/meshes/body.stl"' in rewritten.stdout


@pytest.mark.parametrize("command", [["urdf2sdf"], ["sdf2urdf"], ["urdf-sdf"],
                                     ["urdf-sdf", "check"], ["urdf-sdf", "graph"],
                                     ["urdf-sdf", "view"], ["urdf-sdf", "roundtrip"]])
def test_help_is_filled_text_without_bool(here, command):
    text = run(here, *command, "--help", columns=200).stdout
    options = text[text.index("Options:"):]
    assert "<bool>" not in text and "list[Path]" not in options and "<str>" not in options
    assert re.search(r"--strict +Treat warnings as errors", text) or command == ["urdf-sdf"]
    if command == ["urdf-sdf"]:  # a command's help on one line when the terminal is wide
        assert "message and the source line. Exit 0 when every file passes" in text


def test_the_view_example_writes_beside_the_user_not_over_the_docs():
    commands = [line.strip() for line in (ROOT / "docs" / "view.md").read_text().splitlines()
                if line.strip().startswith("urdf-sdf view")]
    assert commands and all("docs/" not in command for command in commands)


# ---- 8: install -----------------------------------------------------------------------

def extra(name: str) -> list[str]:
    """The packages of an extra, as pyproject.toml declares them (no version)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [re.split(r"[<>=!~ ]", package)[0]
            for package in declared["project"]["optional-dependencies"][name]]


def test_the_install_hints_name_the_extras_packages_not_a_package_index_entry():
    from urdf_sdf.cli.view import VIEW_HINT
    from urdf_sdf.cli.xacro_expand import XACRO_HINT
    for hint, name in ((XACRO_HINT, "xacro"), (VIEW_HINT, "view")):
        assert hint.startswith(f"pip install {' '.join(extra(name))} ")
        assert f"pip install '.[{name}]'" in hint and "urdf-sdf[" not in hint


def test_the_readme_installs_from_a_clone_or_a_wheel():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Install")
    install = readme[start:readme.index("\n## ", start + 1)]
    for shown in ("Python 3.10 or newer", "pipx install .", "pip install .",
                  "pip install '.[xacro]'", "pip install '.[view]'", "python -m build",
                  "pip wheel --no-deps", "<urdf-sdf repository URL>"):
        assert shown in install, shown
    assert "example.org" not in (ROOT / "docs" / "ci.md").read_text()


def test_a_wheel_builds_with_the_commands_and_the_data(tmp_path):
    """``pip wheel --no-deps .``, as the README shows (the build backend from the
    configured index; no network needed where it is a local one)."""
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    wheel, = tmp_path.glob("urdf_sdf-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    for command in ("urdf2sdf", "sdf2urdf", "urdf-sdf"):
        assert f"{command} = urdf_sdf.cli.quick:" in scripts
    assert "urdf_sdf/core/write/atomic.py" in names
    assert "urdf_sdf/schemas/check.schema.json" in names
    assert "urdf_sdf/core/base/sdformat_tree.json" in names


# ---- 10: the Python API ---------------------------------------------------------------

def test_a_conversion_is_written_from_python_with_write(here):
    script = ("import urdf_sdf\n"
              "sdf = urdf_sdf.to_sdf('pendulum.urdf', relative=True)\n"
              "print(sdf.write('pendulum.sdf').name)\n"
              "try:\n"
              "    urdf_sdf.to_urdf('arm6.urdf').write('arm6_again.urdf')\n"
              "except ValueError as exc:\n"
              "    print(exc)\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=here, capture_output=True,
                            text=True, timeout=TIMEOUT, check=False)
    assert result.returncode == 0, result.stderr
    written, refused = result.stdout.splitlines()
    assert written == "pendulum.sdf"
    cli = run(here, "urdf2sdf", "pendulum.urdf", "--relative")
    assert (here / "pendulum.sdf").read_text() == cli.stdout  # what urdf2sdf writes
    assert "INPUT_FORMAT_WRONG" in refused and not (here / "arm6_again.urdf").exists()
