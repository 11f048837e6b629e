"""Assertions for the tests of robot packages, with failure messages that list every
difference::

    from urdf_sdf.testing import assert_equivalent, assert_round_trip

    def test_the_sdf_matches_the_urdf():
        assert_equivalent("urdf/robot.urdf", "sdf/robot.sdf")

    def test_the_urdf_survives_a_round_trip():
        assert_round_trip("urdf/robot.urdf")

Installed as a pytest plugin (entry point ``pytest11``: ``urdf_sdf``), they are also
fixtures of the same names, so a test can take them as arguments without importing.
Equivalence is ``urdf-sdf diff``'s (kinematics at sampled configurations, frames,
inertials, geometry); a round trip is :func:`urdf_sdf.round_trip_check.round_trip`'s.
"""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.core.diff.report import diff_report, summary
from urdf_sdf.round_trip_check import round_trip

__tracebackhide__ = True  # pytest shows the caller's line, not these helpers'


def assert_equivalent(a: str | Path, b: str | Path, tol: float = 1e-9,
                      context: Context | None = None) -> None:
    """Fail, listing the differences (each cause, then what follows from it, as
    ``urdf-sdf diff --all``), unless ``a`` and ``b`` describe the same robot."""
    __tracebackhide__ = True
    differences = diff_files(str(a), str(b), tol=tol, context=context)
    if differences:
        lines = [f"{a} and {b} are not equivalent ({summary(differences)}):"]
        lines += [f"  {line}" for line in diff_report(differences, show_all=True)]
        raise AssertionError("\n".join(lines))


def assert_round_trip(path: str | Path, context: Context | None = None) -> None:
    """Fail, saying which step failed or listing the differences, unless ``path`` survives
    conversion to the other format and back."""
    __tracebackhide__ = True
    trip = round_trip(path, context)
    if not trip.ok:
        raise AssertionError(trip.report())
