"""Shared pytest fixtures and hooks."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import settings

from tests import support
from tests.reference import ReferenceUnavailable, find_reference, run_reference
from tests.support import CheckedDiagnostics, examples, require, shared_dir

# A hypothesis test without its own budget runs a share of hypothesis's default outside CI
# (tests.support.examples); CI keeps the default.
settings.register_profile("local", max_examples=examples(settings.default.max_examples))
if not support.FULL:
    settings.load_profile("local")

# pytester runs the small inline test sessions that check the fixtures below.
pytest_plugins = ["pytester"]

CALL_FAILED = pytest.StashKey[bool]()


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "needs_shared(*parts): the case stands in for files of ../shared/PARTS "
                   "that are missing (tests.support.shared_cases)")
    config.addinivalue_line(
        "markers", "slow: minutes of wall time (a real browser); runs under CI or with "
                   "URDF_SDF_FULL=1, skips elsewhere")


def pytest_runtest_setup(item):
    """A ``slow`` test skips outside the full budgets (tests.support.FULL)."""
    if item.get_closest_marker("slow") is not None and not support.FULL:
        pytest.skip("slow (a real browser): runs under CI or with URDF_SDF_FULL=1")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item):
    """A ``needs_shared`` case fails (under CI) or skips before its body runs: the files it
    stands in for are missing. Raised here, it is the test's failure, not a setup error."""
    marker = item.get_closest_marker("needs_shared")
    if marker is not None:
        shared_dir(*marker.args)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember whether the test body failed (teardown checks need not pile on)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed


@pytest.fixture(scope="session")
def sdf_reference():
    """``run(path) -> dict``: the reference implementation's JSON for one file (cached).

    Skips when the reference binary is unavailable, except under CI (``$CI`` set),
    where a missing reference is a failure: CI must never skip the comparison silently.
    """
    ref, why = None, ""
    try:
        ref = find_reference()
    except ReferenceUnavailable as exc:
        why = str(exc)
    require(ref is not None, "the reference implementation (build/sdf_reference)", why)
    cache: dict[Path, dict] = {}

    def run(path) -> dict:
        key = Path(path).resolve()
        if key not in cache:
            cache[key] = run_reference(ref.binary, key)
        return copy.deepcopy(cache[key])  # a test cannot change what the next one sees

    run.binary = ref.binary
    return run


@pytest.fixture
def diagnostics_checked(request):
    """Diagnostics the test must take one by one: ``watch(result)`` registers a LoadResult's
    (or a Diagnostics list's) diagnostics, ``take_error(code)`` / ``take_warning(code)``
    remove one (failing when there is none), and the test fails at teardown when any
    diagnostic it watched was left untaken."""
    checked = CheckedDiagnostics()
    yield checked
    if checked.left and not request.node.stash.get(CALL_FAILED, False):
        pytest.fail(f"{len(checked.left)} diagnostics left unchecked (take_error or "
                    f"take_warning each):\n{checked.formatted()}", pytrace=False)
