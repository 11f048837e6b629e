"""Shared pytest fixtures."""
from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

from tests.reference import ReferenceUnavailable, find_reference, run_reference


@pytest.fixture(scope="session")
def sdf_reference():
    """``run(path) -> dict``: the reference implementation's JSON for one file (cached).

    Skips when the reference binary is unavailable, except under CI (``$CI`` set),
    where a missing reference is a failure: CI must never skip the comparison silently.
    """
    try:
        ref = find_reference()
    except ReferenceUnavailable as exc:
        if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
            pytest.fail(f"CI is set but the reference implementation is unavailable: {exc}",
                        pytrace=False)
        pytest.skip(f"reference implementation unavailable: {exc}")
    cache: dict[Path, dict] = {}

    def run(path) -> dict:
        key = Path(path).resolve()
        if key not in cache:
            cache[key] = run_reference(ref.binary, key)
        return copy.deepcopy(cache[key])  # a test cannot change what the next one sees

    run.binary = ref.binary
    return run
