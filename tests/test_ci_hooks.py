"""What packaging pipelines and CI use: the pre-commit hooks (``.pre-commit-hooks.yaml``),
``urdf-sdf roundtrip``, and the pytest plugin (``assert_equivalent``,
``assert_round_trip``) with failure messages that list the differences."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml

from tests.support import require
from urdf_sdf import round_trip
from urdf_sdf.testing import assert_equivalent, assert_round_trip

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
BAD_URDF = ROOT / "tests" / "fixtures" / "urdf" / "urdf_duplicate_link.urdf"
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())


def hook(hook_id: str) -> dict:
    return next(h for h in HOOKS if h["id"] == hook_id)


def run_hook(hook_id: str, files: list[Path], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run a hook's entry as pre-commit does: the entry, its args, then the matching file
    names."""
    entry = shlex.split(hook(hook_id)["entry"])
    beside_python = Path(sys.executable).parent / entry[0]  # the venv running the tests
    program = str(beside_python) if beside_python.exists() else shutil.which(entry[0])
    assert program, f"{entry[0]} is not installed"
    pattern = re.compile(hook(hook_id)["files"])
    names = [str(f) for f in files if pattern.search(str(f))]
    return subprocess.run([program, *entry[1:], *hook(hook_id).get("args", []), *names],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


# ---- the hooks ---------------------------------------------------------------------------------

def test_hooks_are_the_two_the_docs_document():
    assert [h["id"] for h in HOOKS] == ["urdf-sdf-check", "urdf-sdf-roundtrip"]
    scripts = {e.name for e in metadata.entry_points(group="console_scripts")}
    for entry in HOOKS:
        assert entry["language"] == "python"
        assert shlex.split(entry["entry"])[0] in scripts
    guide = (ROOT / "docs" / "ci.md").read_text()
    assert "urdf-sdf-check" in guide and "urdf-sdf-roundtrip" in guide


def test_hook_file_patterns_pick_robot_descriptions():
    check = re.compile(hook("urdf-sdf-check")["files"])
    roundtrip = re.compile(hook("urdf-sdf-roundtrip")["files"])
    for name in ("r.urdf", "m.sdf", "w.world"):
        assert check.search(name), name
    assert roundtrip.search("r.urdf") and not roundtrip.search("m.sdf")
    assert not check.search("README.md") and not roundtrip.search("r.urdf.xacro")
    # a hook runs on files from pull requests: xacro files are expanded only when the
    # repository asks for it (args: [--xacro]), never by default
    assert not check.search("r.urdf.xacro") and "--xacro" not in hook("urdf-sdf-check")["entry"]


def test_check_hook_passes_the_samples_and_fails_on_a_bad_file():
    samples = sorted(SAMPLES.glob("*.urdf")) + sorted(SAMPLES.glob("*.sdf"))
    good = run_hook("urdf-sdf-check", samples)
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.count(": valid") == len(samples)
    bad = run_hook("urdf-sdf-check", [SAMPLES / "pendulum.urdf", BAD_URDF])
    assert bad.returncode == 1
    assert "error[DUPLICATE_NAME]" in bad.stdout and "pendulum.urdf: valid" in bad.stdout


@pytest.mark.parametrize("hook_id", ["urdf-sdf-check", "urdf-sdf-roundtrip"])
def test_a_committed_file_named_like_an_option_is_read_as_a_file(tmp_path, hook_id):
    """pre-commit appends the file names after the hook's args: ``--help.urdf`` is a file
    to check, not an option (it was "No such option", exit 2)."""
    names = [Path("--help.urdf"), Path("-o.urdf"), Path("--out=x.urdf"), Path("-.urdf")]
    for name in names:
        shutil.copy(SAMPLES / "pendulum.urdf", tmp_path / name)
    result = run_hook(hook_id, names, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(names)} of {len(names)} files" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(str(n) for n in names)


def test_roundtrip_hook_passes_the_sample_urdfs_and_fails_on_a_bad_file():
    good = run_hook("urdf-sdf-roundtrip", sorted(SAMPLES.glob("*.urdf")))
    assert good.returncode == 0, good.stdout + good.stderr
    assert "survive" in good.stdout  # --quiet: only the summary line
    bad = run_hook("urdf-sdf-roundtrip", [SAMPLES / "arm6.urdf", BAD_URDF])
    assert bad.returncode == 3  # the bad file does not load: no round trip changed it
    assert "urdf_duplicate_link.urdf: does not load" in bad.stdout
    assert "1 of 2 files survive the round trip" in bad.stdout


# ---- round trips -------------------------------------------------------------------------------

def test_round_trip_names_the_pipeline_and_what_changed():
    assert round_trip(SAMPLES / "arm6.urdf").report() == \
        f"{SAMPLES / 'arm6.urdf'} survives urdf2sdf | sdf2urdf"
    trip = round_trip(SAMPLES / "pendulum.sdf")
    # URDF has no link frame apart from its joint frame: the SDF's pendulum link frame,
    # 0.5 below its joint, comes back at the joint (everything in it re-expressed), and the
    # link is compared at its joint frame, as `urdf-sdf diff SDF URDF` compares it.
    assert trip.ok and trip.steps == ["sdf2urdf", "urdf2sdf"], trip.report()
    assert trip.report() == f"{SAMPLES / 'pendulum.sdf'} survives sdf2urdf | urdf2sdf"


# ---- the pytest plugin -------------------------------------------------------------------------

def test_assert_equivalent_lists_the_differences():
    assert_equivalent(SAMPLES / "arm6.urdf", SAMPLES / "arm6.sdf")
    with pytest.raises(AssertionError) as failure:
        assert_equivalent(SAMPLES / "pendulum.urdf", SAMPLES / "arm6.urdf")
    message = str(failure.value)
    assert message.startswith(f"{SAMPLES / 'pendulum.urdf'} and {SAMPLES / 'arm6.urdf'} are "
                              "not equivalent (")
    assert "\n  links " in message


def test_assert_round_trip_says_which_step_failed():
    assert_round_trip(SAMPLES / "diff_drive.urdf")
    with pytest.raises(AssertionError, match=r"does not load:\n  .*DUPLICATE_NAME"):
        assert_round_trip(BAD_URDF)


def test_plugin_fixtures_reach_a_package_test_session(pytester):
    """A ROS package's test file uses the fixtures without importing anything."""
    pytester.makepyfile(f"""
        def test_equivalent(assert_equivalent):
            assert_equivalent({str(SAMPLES / 'arm6.urdf')!r}, {str(SAMPLES / 'arm6.sdf')!r})

        def test_round_trip(assert_round_trip):
            assert_round_trip({str(SAMPLES / 'pendulum.urdf')!r})

        def test_not_equivalent(assert_equivalent):
            assert_equivalent({str(SAMPLES / 'pendulum.urdf')!r}, {str(SAMPLES / 'arm6.urdf')!r})
        """)
    plugins = {e.name: e.value for e in metadata.entry_points(group="pytest11")}
    assert plugins.get("urdf_sdf") == "urdf_sdf.pytest_plugin"  # loaded by pytest itself
    outcome = pytester.runpytest()
    outcome.assert_outcomes(passed=2, failed=1)
    outcome.stdout.fnmatch_lines(["*are not equivalent (* causes*):*", "*  links *"])


def test_hooks_run_under_pre_commit_try_repo(tmp_path):
    """The hooks as pre-commit runs them: `pre-commit try-repo` on this repository (its
    working tree, committed or not) in a temporary git repository, installing the package
    into pre-commit's own environment."""
    program = Path(sys.executable).parent / "pre-commit"
    require(program.exists() or shutil.which("pre-commit") is not None, "pre-commit",
            "pip install pre-commit (in the test extra)")
    program = str(program) if program.exists() else shutil.which("pre-commit")
    require((ROOT / ".git").exists(), "the repository's git metadata",
            "pre-commit try-repo reads a git clone of this repository, not a copy of its files")
    repo = tmp_path / "robots"
    repo.mkdir()
    for name in ("pendulum.urdf", "arm6.urdf", "arm6.sdf"):
        shutil.copy(SAMPLES / name, repo / name)
    shutil.copy(BAD_URDF, repo / "broken.urdf")
    git = ["git", "-c", "user.email=ci@example.org", "-c", "user.name=ci"]
    for command in (["init", "-q"], ["add", "."], ["commit", "-qm", "robots"]):
        subprocess.run(git + command, cwd=repo, check=True, capture_output=True)
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}

    def try_repo(*files: str) -> subprocess.CompletedProcess:
        return subprocess.run([program, "try-repo", str(ROOT), "--files", *files], cwd=repo,
                              env=env, capture_output=True, text=True, timeout=900)

    run = try_repo("pendulum.urdf", "arm6.urdf", "arm6.sdf", "broken.urdf")
    assert run.returncode == 1, run.stdout + run.stderr
    assert re.search(r"urdf-sdf check\.+Failed", run.stdout), run.stdout
    assert re.search(r"urdf-sdf roundtrip\.+Failed", run.stdout), run.stdout
    assert "broken.urdf:4: error[DUPLICATE_NAME]" in run.stdout
    assert "pendulum.urdf: valid" in run.stdout and "arm6.sdf: valid" in run.stdout
    assert "3 of 4 files survive" not in run.stdout  # the .sdf is not a roundtrip file
    assert "2 of 3 files survive the round trip" in run.stdout
