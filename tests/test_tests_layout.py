"""Where tests live: unit tests mirror the package, end-to-end tests sit at ``tests/``.

* A unit test of a module lives at the module's mirrored path: ``core/read/urdf.py`` is
  tested by ``tests/core/read/test_urdf.py``, ``urdf_sdf/cli/batch.py`` by
  ``tests/urdf_sdf/cli/test_batch.py``; more files for one module add a topic after its
  name (``tests/urdf_sdf/cli/test_batch_parallel.py``), a package is tested by
  ``test_<package>.py`` beside its folder (``tests/urdf_sdf/test_view.py``). Every test
  file under a mirrored folder names a module that exists, so a renamed module cannot
  leave its tests behind.
* ``tests/`` itself holds only the end-to-end tests (command-line journeys, round trips,
  fuzz and property tests, the browser, stress, corpus, conformance and hardening tests),
  each listed in :data:`END_TO_END` with what it runs: a new flat file is either placed
  at its mirrored path or listed there.
* A module with no mirrored test file is listed in :data:`NO_UNIT_TEST` (covered end to
  end only). The list only shrinks: a module that gains its test file leaves it.
* Every folder of tests is a package (``__init__.py``), so files of the same name in two
  folders (``tests/urdf2sdf/test_convert.py``, ``tests/sdf2urdf/test_convert.py``) are
  two modules.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_layout import MODULES, PACKAGES, ROOT

TESTS = ROOT / "tests"

# Each flat test file: what it runs end to end.
END_TO_END = {
    "test_attributes_property.py": "random unknown attributes through URDF -> SDF -> URDF "
                                   "(hypothesis)",
    "test_round_trip_rules.py": "roundtrip and the converters on loop joints and scoped names",
    "test_sdformat_1_12.py": "SDFormat 1.12 files read, written and compared",
    "test_ci_hooks.py": "pre-commit hooks, roundtrip and the pytest plugin as CI uses them",
    "test_cli.py": "the urdf-sdf command line through typer's runner and a subprocess",
    "test_cli_strict.py": "--strict on every command",
    "test_cli_ux.py": "pipes, colour and source lines shared by the three commands",
    "test_compose_cli.py": "composed models through frames, check, diff and sdf2urdf",
    "test_compose_samples.py": "the composition samples converted and compared",
    "test_conformance.py": "the shared conformance cases against the reference",
    "test_conversion_report.py": "--report's verdicts against diff: samples, fixtures, "
                                 "random trees (hypothesis)",
    "test_fuzz.py": "every command on mutated samples (hypothesis)",
    "test_hardening_crashes.py": "inputs that were tracebacks, through the commands",
    "test_hardening_leaks.py": "source lines of other files never shown, every command",
    "test_hardening_numbers.py": "overflowing numbers and sizes, every command",
    "test_hardening_paths.py": "paths never escape, includes and model directories",
    "test_hardening_streams.py": "outputs and standard streams, every command",
    "test_hardening_terminal.py": "nothing raw reaches the terminal, every command",
    "test_hardening_xml.py": "no DTD, entity or device read, every command",
    "test_journey_packages.py": "pip-installed description packages and xacro, as typed",
    "test_journeys.py": "a new user's journeys, typed: graph, wrong direction, check, help, "
                        "install, write",
    "test_layout.py": "the source layout: packages, imports, cycles",
    "test_never_raises.py": "random broken SDFormat documents end in diagnostics",
    "test_no_traceback.py": "inputs that once ended in a traceback, every command",
    "test_packaging_probe.py": "random input names through --model-dir / --package-dir",
    "test_packaging_security.py": "--model-dir / --package-dir under hostile input",
    "test_padded_names.py": "names with whitespace through both readers and converters",
    "test_readme.py": "the documentation's examples run",
    "test_real_robot_rules.py": "rules real robots need, on reduced fixtures",
    "test_realworld_corpus.py": "the real-robot corpus both ways",
    "test_reference_agreement.py": "frame resolution against libsdformat",
    "test_ros_package_build.py": "sdf2urdf --package-dir outputs built by colcon, found by ROS",
    "test_round_trip.py": "URDF -> SDFormat -> URDF round trips",
    "test_samples.py": "the robots in samples/",
    "test_sdf2urdf_property.py": "random SDFormat models to URDF (hypothesis)",
    "test_semantics_rules.py": "frame-semantics rules of the specification, on fixtures",
    "test_spec_fixtures.py": "every VALID and INVALID example of the specification",
    "test_stress.py": "100,000-link robots through every command",
    "test_support.py": "the suite's own machinery (tests/support.py, conftest.py)",
    "test_tests_layout.py": "where tests live (this file)",
    "test_urdf2sdf_property.py": "random URDF trees to SDFormat (hypothesis)",
    "test_urdf2sdf_real_world.py": "libsdformat's own URDF files converted",
    "test_urdf2sdf_reference.py": "urdf2sdf outputs loaded by the reference",
    "test_view_browser.py": "view pages in headless Chromium",
    "test_view_security.py": "hostile meshes through view, diff and model directories",
    "test_xacro_security.py": "xacro expansion asked for and sandboxed, every command",
}

# Modules without a mirrored test file: covered end to end only. Only shrinks.
NO_UNIT_TEST = {
    # tested through the converters (tests/core/read/test_urdf_rules.py,
    # tests/sdf2urdf/test_attributes.py, tests/sdf2urdf/test_world.py, test_round_trip_rules.py,
    # test_real_robot_rules.py)
    "urdf_sdf.sdf2urdf.loops", "urdf_sdf.sdf2urdf.world_content", "urdf_sdf.urdf2sdf.attributes",
    "urdf_sdf.urdf2sdf.gazebo_vocabulary", "urdf_sdf.urdf2sdf.scopes",
    "urdf_sdf.sdf2urdf.approximate",  # tests/test_real_robot_rules.py
    # urdf_sdf
    "urdf_sdf.pytest_plugin", "urdf_sdf.round_trip_check", "urdf_sdf.testing",
    # urdf_sdf.cli
    "urdf_sdf.cli.__main__", "urdf_sdf.cli.conversion",
    "urdf_sdf.cli.declare",
    "urdf_sdf.cli.inputs", "urdf_sdf.cli.inspect_commands", "urdf_sdf.cli.main",
    "urdf_sdf.cli.options", "urdf_sdf.cli.path_names",
    "urdf_sdf.cli.render", "urdf_sdf.cli.roundtrip", "urdf_sdf.cli.sdf2urdf_app",
    "urdf_sdf.cli.streams", "urdf_sdf.cli.typer_app", "urdf_sdf.cli.urdf2sdf_app",
    "urdf_sdf.cli.view", "urdf_sdf.cli.xacro_evaluator", "urdf_sdf.cli.xacro_expand",
    "urdf_sdf.cli.xacro_files", "urdf_sdf.cli.xacro_run",
    # urdf_sdf.view
    "urdf_sdf.view.collada", "urdf_sdf.view.companions", "urdf_sdf.view.controls",
    "urdf_sdf.view.meshes", "urdf_sdf.view.motion", "urdf_sdf.view.overlay",
    "urdf_sdf.view.page", "urdf_sdf.view.snapshot",
    "urdf_sdf.view.tessellate",
    # core.base
    "urdf_sdf.core.base.context", "urdf_sdf.core.base.custom", "urdf_sdf.core.base.model",
    "urdf_sdf.core.base.sdformat_tree_derive",
    # core.read
    "urdf_sdf.core.read.consume", "urdf_sdf.core.read.mesh_files",
    "urdf_sdf.core.read.numbers", "urdf_sdf.core.read.sdf_elements",
    "urdf_sdf.core.read.sdf_state", "urdf_sdf.core.read.urdf_elements",
    # core.compose
    "urdf_sdf.core.compose.budget", "urdf_sdf.core.compose.inline",
    "urdf_sdf.core.compose.rules",
    # core.graph
    "urdf_sdf.core.graph.build", "urdf_sdf.core.graph.finite",
    "urdf_sdf.core.graph.frame_graph", "urdf_sdf.core.graph.validate",
    # core.kinematics, core.inspect, core.diff
    "urdf_sdf.core.kinematics.batch",
    "urdf_sdf.core.inspect.report",
    "urdf_sdf.core.diff.digest", "urdf_sdf.core.diff.inertials",
    # core.write
    "urdf_sdf.core.write.bundle", "urdf_sdf.core.write.common",
    "urdf_sdf.core.write.ros_package",
    "urdf_sdf.core.write.sdf", "urdf_sdf.core.write.urdf",
    # urdf2sdf, sdf2urdf
    "urdf_sdf.urdf2sdf.gazebo_index", "urdf_sdf.urdf2sdf.gazebo_legacy",
    "urdf_sdf.urdf2sdf.gazebo_xml", "urdf_sdf.urdf2sdf.lump_inertia",
    "urdf_sdf.urdf2sdf.names",
    "urdf_sdf.sdf2urdf.extras", "urdf_sdf.sdf2urdf.options", "urdf_sdf.sdf2urdf.restore",
}


def mirrored_test_files() -> list[Path]:
    """Every test file under a folder that mirrors a source folder (``tests/core/...``)."""
    return sorted(path for folder in PACKAGES
                  for path in (TESTS / folder).rglob("test_*.py"))


def subject(test_file: Path) -> str | None:
    """The module a mirrored test file tests: its folder's package, then the longest
    ``_``-separated prefix of its name (after ``test_``) that names a module there."""
    relative = test_file.relative_to(TESTS)
    folder, *folders = relative.parent.parts
    package = ".".join((PACKAGES[folder], *folders))
    words = relative.stem.removeprefix("test_").split("_")
    for count in range(len(words), 0, -1):
        name = f"{package}.{'_'.join(words[:count])}"
        if name in MODULES:
            return name
    return None


MIRRORED = mirrored_test_files()
TESTED = {subject(path) for path in MIRRORED}


def test_the_suite_has_mirrored_unit_tests_and_flat_end_to_end_tests():
    assert len(MIRRORED) >= 40, MIRRORED
    assert len(list(TESTS.glob("test_*.py"))) >= 30


@pytest.mark.parametrize("test_file", MIRRORED, ids=lambda path: str(path.relative_to(TESTS)))
def test_a_mirrored_test_file_names_a_module_of_its_folder(test_file):
    assert subject(test_file) is not None, (
        f"{test_file.relative_to(ROOT)} names no module of "
        f"{test_file.parent.relative_to(TESTS)}: a test of core/read/urdf.py is "
        "tests/core/read/test_urdf.py or tests/core/read/test_urdf_<topic>.py")


def test_a_flat_test_file_is_an_end_to_end_test():
    flat = {path.name for path in TESTS.glob("test_*.py")}
    unlisted = sorted(flat - set(END_TO_END))
    assert not unlisted, (
        f"{unlisted} in tests/: a unit test of one module goes to the module's mirrored "
        "path (tests/core/read/test_urdf.py for core/read/urdf.py); an end-to-end test is "
        "listed in END_TO_END with what it runs")
    assert sorted(set(END_TO_END) - flat) == [], "END_TO_END lists files that are gone"


def test_every_module_has_a_mirrored_test_file_or_is_listed_as_covered_end_to_end():
    modules = {name for name, path in MODULES.items() if path.name != "__init__.py"}
    untested = sorted(modules - TESTED - NO_UNIT_TEST)
    assert not untested, (
        f"no mirrored test file for {untested}: add tests/<folder>/test_<module>.py")
    assert sorted(NO_UNIT_TEST & TESTED) == [], (
        "these modules have a mirrored test file now: remove them from NO_UNIT_TEST")
    assert sorted(NO_UNIT_TEST - set(MODULES)) == [], "NO_UNIT_TEST names modules that are gone"


def test_every_folder_of_tests_is_a_package():
    folders = {path.parent for path in TESTS.rglob("test_*.py")}
    assert TESTS in folders and len(folders) > 5
    missing = sorted(str(folder.relative_to(ROOT)) for folder in folders
                     if not (folder / "__init__.py").is_file())
    assert not missing, f"{missing} lack an __init__.py"
