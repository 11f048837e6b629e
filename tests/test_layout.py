"""The source layout ``docs/architecture.md`` describes, checked on the source tree.

* One import name: the folders ``core/``, ``urdf2sdf/``, ``sdf2urdf/`` install as
  ``urdf_sdf.core``, ``urdf_sdf.urdf2sdf``, ``urdf_sdf.sdf2urdf``; nothing is importable as
  a bare ``core`` outside the repository, and importing every module of the package never
  imports one.
* No import cycle between our modules, no import of our own modules inside a function,
  the library part of ``core`` imports no converter package, no module over 600 lines.
* A name imported on first use goes through a ``Later({...})`` table
  (``core/base/lazy.py``), for optional or costly third-party modules: its entries count
  as imports for every rule here, the cycle check included.
* The console scripts reach each command's module through one ``CommandTable({...})``
  (``urdf_sdf/cli/quick.py``): its entries are imports of the module that declares it, for
  every check here.
"""
from __future__ import annotations

import ast
import fnmatch
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parent.parent
# Source folder -> the package it installs as.
PACKAGES = {"urdf_sdf": "urdf_sdf", "core": "urdf_sdf.core", "urdf2sdf": "urdf_sdf.urdf2sdf",
            "sdf2urdf": "urdf_sdf.sdf2urdf"}
CONVERTERS = ("urdf_sdf.urdf2sdf", "urdf_sdf.sdf2urdf")
LIBRARY = "urdf_sdf.core"
COMMAND_LINE = "urdf_sdf.cli"
MAX_LINES = 600


def source_modules() -> dict[str, Path]:
    """Every module of the source tree by its installed dotted name."""
    modules = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts))
            modules[name.removesuffix(".__init__")] = path
    return modules


MODULES = source_modules()


def own_module(name: str) -> str | None:
    """The module of ours that a dotted import names (its longest known prefix)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """``(module imported, line, inside a function)`` for each import of our modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    in_function = {id(node) for function in ast.walk(tree)
                   if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for node in ast.walk(function)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            # 'from pkg import mod' imports the module; 'from mod import name' the module.
            targets = [f"{base}.{alias.name}" if own_module(f"{base}.{alias.name}") ==
                       f"{base}.{alias.name}" else base for alias in node.names]
        else:
            continue
        for target in targets:
            module = own_module(target)
            if module is not None and module != name:
                found.append((module, node.lineno, id(node) in in_function))
    return found


def later_tables(path: Path) -> list[ast.Call]:
    """The ``Later(...)`` calls of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name) and node.func.id == "Later"]


def later_entries(path: Path) -> list[tuple[str, str, int]]:
    """``(module, attribute, line)`` of every entry of the module's ``Later`` tables
    (``literal_eval`` fails on a table that is not a literal: a test catches that)."""
    return [(module, attribute, call.lineno) for call in later_tables(path)
            for module, attribute in ast.literal_eval(call.args[0]).values()]


def command_table_entries(path: Path) -> list[tuple[str, str, int]]:
    """``(module, attribute, line)`` of every entry of the module's ``CommandTable``s."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(module, attribute, node.lineno) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "CommandTable"
            for module, attribute in ast.literal_eval(node.args[0]).values()]


# Imports, a command table's entries included.
GRAPH = {name: imports(name, path) + [(own_module(module), line, False)
                                      for module, _, line in command_table_entries(path)]
         for name, path in MODULES.items()}
# Imports plus the modules of ours that Later tables name: what the layering rules see.
USES = {name: found + [(own_module(module), line, False)
                       for module, _, line in later_entries(MODULES[name])
                       if own_module(module) not in (None, name)]
        for name, found in GRAPH.items()}


def test_pyproject_installs_every_package_under_one_name():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {package: folder for folder, package in PACKAGES.items()}
    source_packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    assert set(config["packages"]) == source_packages
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    for target in scripts.values():
        assert target.split(":")[0] in MODULES, target


def package_file(folder: str, path: Path) -> tuple[str, str]:
    """``(package, name within it)`` of a file: a file in a subfolder without
    ``__init__.py`` belongs to the package above it."""
    package_dir = path.parent
    while not (package_dir / "__init__.py").exists():
        package_dir = package_dir.parent
    parts = package_dir.relative_to(ROOT / folder).parts
    return ".".join((PACKAGES[folder], *parts)), path.relative_to(package_dir).as_posix()


def test_pyproject_ships_every_data_file_of_the_packages():
    """A file other than Python source in a package folder is read at run time (the
    SDFormat element tree): a non-editable install must carry it, so it is package data."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = config.get("package-data", {})
    data = [package_file(folder, path) for folder in PACKAGES
            for path in (ROOT / folder).rglob("*")
            if path.is_file() and path.suffix not in (".py", ".pyc")
            and "__pycache__" not in path.parts]
    unlisted = [(package, name) for package, name in data
                if not any(fnmatch.fnmatch(name, pattern)
                           for pattern in patterns.get(package, []))]
    assert not unlisted
    assert ("urdf_sdf.core.base", "sdformat_tree.json") in data
    assert ("urdf_sdf", "schemas/diff.schema.json") in data


def test_no_module_over_600_lines():
    long = [f"{path.relative_to(ROOT)} ({lines} lines)" for path in MODULES.values()
            if (lines := path.read_text(encoding="utf-8").count("\n")) > MAX_LINES]
    assert not long


def test_no_import_of_our_own_modules_inside_a_function():
    hidden = [f"{MODULES[name].relative_to(ROOT)}:{line} imports {target}"
              for name, found in GRAPH.items() for target, line, inner in found if inner]
    assert not hidden


def is_face(name: str) -> bool:
    """The face: ``urdf_sdf`` and its own modules (API, command line, view), not the
    subpackages installed from the top-level folders."""
    return not name.startswith((LIBRARY, *CONVERTERS))


def test_the_library_imports_no_converter_and_nothing_imports_the_face():
    upward = [f"{name} imports {target}" for name, found in USES.items()
              for target, _, _ in found
              if name.startswith(LIBRARY) and (target.startswith(CONVERTERS) or is_face(target))]
    assert not upward
    into_face = [f"{name} imports {target}" for name, found in USES.items()
                 for target, _, _ in found if not is_face(name) and is_face(target)]
    assert not into_face
    into_cli = [f"{name} imports {target}" for name, found in USES.items()
                for target, _, _ in found
                if target.startswith(COMMAND_LINE) and not name.startswith(COMMAND_LINE)]
    assert not into_cli


def cycles(edges: dict[str, set[str]]) -> list[str]:
    """The import cycles of a graph, each as ``a -> b -> a``."""
    state: dict[str, str] = {}
    found = []
    for start in edges:
        if start in state:
            continue
        stack = [(start, iter(sorted(edges[start])))]
        state[start] = "open"
        path = [start]
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = "done"
                stack.pop()
                path.pop()
            elif state.get(child) == "open":
                found.append(" -> ".join(path[path.index(child):] + [child]))
            elif child not in state:
                state[child] = "open"
                path.append(child)
                stack.append((child, iter(sorted(edges.get(child, ())))))
    return found


def test_no_import_cycle():
    """Imports, ``Later`` entries and the console scripts' command table alike: a cycle
    through a deferred name is a cycle."""
    assert not cycles({name: {target for target, _, _ in found}
                       for name, found in USES.items()})


def test_the_command_table_names_a_command_of_each_module():
    entries = command_table_entries(MODULES["urdf_sdf.cli.quick"])
    assert {module for module, _, _ in entries} >= {"urdf_sdf.cli.urdf2sdf_app",
                                                    "urdf_sdf.cli.sdf2urdf_app",
                                                    "urdf_sdf.cli.check"}
    assert all(module in MODULES for module, _, _ in entries)


def _python_elsewhere(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``code`` with the installed package, outside the repository."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_core_is_not_importable_outside_the_repository(tmp_path):
    for name in ("core", "urdf2sdf", "sdf2urdf"):
        done = _python_elsewhere(f"import {name}", tmp_path)
        assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, name
    done = _python_elsewhere("import urdf_sdf; print(urdf_sdf.__version__)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def test_importing_every_module_never_imports_a_bare_core(tmp_path):
    code = (
        "import importlib, pkgutil, sys\n"
        "names = []\n"
        "for top in ('urdf_sdf.core', 'urdf_sdf.urdf2sdf', 'urdf_sdf.sdf2urdf'):\n"
        "    package = importlib.import_module(top)\n"
        "    walked = pkgutil.walk_packages(package.__path__, top + '.')\n"
        "    names += [top] + [m.name for m in walked]\n"
        "face = importlib.import_module('urdf_sdf')\n"
        "names += [m.name for m in pkgutil.walk_packages(face.__path__, 'urdf_sdf.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "bare = sorted(m for m in sys.modules\n"
        "              if m.split('.')[0] in ('core', 'urdf2sdf', 'sdf2urdf'))\n"
        "print(len(names), bare)\n")
    done = _python_elsewhere(code, tmp_path)
    assert done.returncode == 0, done.stderr
    count, bare = done.stdout.split(" ", 1)
    assert int(count) >= len(MODULES) - 1  # every module but the package itself
    assert bare.strip() == "[]"


@pytest.mark.parametrize("name", sorted(n for n in ("Context", "load", "convert_urdf",
                                                    "convert_sdf", "diff_files",
                                                    "check_parity", "frames_report")))
def test_public_api_names(name):
    import urdf_sdf
    assert callable(getattr(urdf_sdf, name))
    assert name in urdf_sdf.__all__


def _checkout_copy(tmp_path: Path) -> Path:
    """A second checkout of the repository: its tracked files (links kept as links)."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                            check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    copy = tmp_path / "second-checkout"
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if name and (source.is_symlink() or source.is_file()) and not name.startswith("tests/"):
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                target.symlink_to(os.readlink(source))
            else:
                target.write_bytes(source.read_bytes())
    return copy


def _origin(module: str) -> str:
    return f"import importlib.util; print(importlib.util.find_spec({module!r}).origin)"


def test_a_second_checkout_imports_its_own_code(tmp_path):
    """Python run in a checkout's root (``python -m pytest`` there) imports that checkout's
    library and converters, never those of the installed package."""
    copy = _checkout_copy(tmp_path)
    for module in ("urdf_sdf.core.loader", "urdf_sdf.urdf2sdf.convert", "urdf_sdf.cli.quick"):
        done = _python_elsewhere(_origin(module), copy)
        assert done.returncode == 0, done.stderr
        assert Path(done.stdout.strip()).is_relative_to(copy), (module, done.stdout)


def test_an_editable_install_imports_the_checkout_from_anywhere(tmp_path):
    copy = _checkout_copy(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e",
                                str(copy)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for module in ("urdf_sdf", "urdf_sdf.core.loader", "urdf_sdf.cli.quick"):
        done = subprocess.run([str(python), "-c", _origin(module)], cwd=elsewhere,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert Path(done.stdout.strip()).is_relative_to(copy), (module, done.stdout)


# Our own modules still deferred, each the one door to an optional or costly dependency
# that a plain command must not pay for: the xacro sandbox (a subprocess runner), the
# diff family (numpy and the kinematics arrays), the view extra (plotly, trimesh), and
# the <gazebo> extension code (six modules and SDFormat's element tables: a URDF without
# <gazebo> blocks never loads them). They count as imports for every rule above;
# the list may only shrink: import the module at the top, and defer the third-party
# names it uses instead.
DEFERRED_OWN_MODULES = {
    ("urdf_sdf.cli.inputs", "urdf_sdf.cli.xacro_run"),
    ("urdf_sdf.cli.inspect_commands", "urdf_sdf.core.diff.compare"),
    ("urdf_sdf.cli.view", "urdf_sdf.view.overlay"),
    ("urdf_sdf.cli.view", "urdf_sdf.view.page"),
    ("urdf_sdf.cli.view", "urdf_sdf.view.scene"),
    ("urdf_sdf.cli.view", "urdf_sdf.view.snapshot"),
    ("urdf_sdf.urdf2sdf.convert", "urdf_sdf.urdf2sdf.gazebo"),
}


def test_later_tables_name_third_party_modules_and_no_new_module_of_ours():
    """``Later`` is for optional or costly third-party modules; our own modules are
    imported at the top of a module, where every tool sees them."""
    deferred = {(name, own_module(module)) for name in MODULES
                for module, _, _ in later_entries(MODULES[name]) if own_module(module)}
    assert deferred <= DEFERRED_OWN_MODULES, sorted(deferred - DEFERRED_OWN_MODULES)
    assert DEFERRED_OWN_MODULES <= deferred, "a deferral is gone: take it off the list"
