"""The pytest plugin (entry point ``pytest11``: ``urdf_sdf``): fixtures
``assert_equivalent`` and ``assert_round_trip`` (see :mod:`urdf_sdf.testing`).

pytest loads this module in every session of an environment where urdf-sdf is installed,
so it imports nothing heavy: the assertions are looked up through the package's lazy
table when a test first asks for them.
"""
from __future__ import annotations

import pytest

import urdf_sdf


@pytest.fixture
def assert_equivalent():
    """``assert_equivalent(a, b, tol=1e-9)``: fails listing the differences."""
    return urdf_sdf.assert_equivalent


@pytest.fixture
def assert_round_trip():
    """``assert_round_trip(path)``: fails naming the failed step or the differences."""
    return urdf_sdf.assert_round_trip
