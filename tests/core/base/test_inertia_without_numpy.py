"""``core.base.inertia`` decides common tensors without numpy, with libsdformat's answer.

libsdformat (``MassMatrix3::IsValid``) tests the tensor with its determinant and its
principal moments; ``tensor_problem`` computes them as libsdformat does (its determinant
with numpy, the moments in libsdformat's closed form). A
diagonal tensor (its principal moments are its diagonal) and a tensor that Gershgorin's
discs prove valid with a wide margin are decided in plain Python: for every tensor the
answer and the message must be the numpy rule's, near the boundary of the rule too.
"""
from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import examples
from urdf_sdf.core.base.inertia import (
    clearly_valid,
    inertia_problem,
    principal_moments,
    repaired,
    tensor_problem,
)
from urdf_sdf.core.base.model import Inertial

# numpy warns of the overflow in a determinant of huge or non-finite numbers
pytestmark = pytest.mark.filterwarnings("ignore:.*encountered in det:RuntimeWarning")


def inertial(xx, yy, zz, xy=0.0, xz=0.0, yz=0.0) -> Inertial:
    return Inertial(ixx=xx, iyy=yy, izz=zz, ixy=xy, ixz=xz, iyz=yz)


def rotated(moments, angles) -> Inertial:
    """The tensor with these principal moments, its axes turned by ``angles`` (rpy)."""
    r, p, y = angles
    rx = np.array([[1, 0, 0], [0, math.cos(r), -math.sin(r)], [0, math.sin(r), math.cos(r)]])
    ry = np.array([[math.cos(p), 0, math.sin(p)], [0, 1, 0], [-math.sin(p), 0, math.cos(p)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    turn = rz @ ry @ rx
    t = turn @ np.diag(moments) @ turn.T
    return inertial(t[0, 0], t[1, 1], t[2, 2], t[0, 1], t[0, 2], t[1, 2])


def outcome(function, value: Inertial) -> str:
    """What ``function(value)`` gives (repr: nan equals nan), or the exception it raises."""
    try:
        return repr(function(value))
    except Exception as exc:  # numpy refuses some non-finite tensors: so must we
        return type(exc).__name__


def agrees(value: Inertial) -> None:
    assert outcome(inertia_problem, value) == outcome(tensor_problem, value)


def test_examples_on_both_sides_of_the_rule():
    cases = [
        inertial(1, 1, 1), inertial(0, 0, 0), inertial(1, 2, 3), inertial(1, 1, 2),
        inertial(1, 1, 2 + 1e-15), inertial(1, 1, 2.1), inertial(-1e-20, 1, 1),
        inertial(-1, 2, 2), inertial(0.01, 0.02, 0.025, 1e-5, -2e-5, 3e-6),
        inertial(1, 1, 1e-4, 1e-9, 0, 0), inertial(1, 1, 2, 1e-3, 0, 0),
        inertial(1e-12, 2e-12, 2.5e-12, 1e-14), inertial(1e150, 1e150, 1e150, 1e149),
        inertial(math.inf, 1, 1), inertial(math.nan, 1, 1), inertial(1, 1, 1, math.nan),
        inertial(1, 1, 1, 2, 0, 0), inertial(-0.0, 0.0, 0.0),
        rotated([1.0, 2.0, 3.0], (0.3, 0.2, 0.1)), rotated([1.0, 2.0, 3.0 + 1e-14], (1, 2, 3)),
        rotated([0.0, 1.0, 1.0], (0.5, 0.5, 0.5)), rotated([-1e-9, 1.0, 1.0], (0.1, 0, 0)),
        # found by the property test below: the numpy rule's determinant overflows
        inertial(1.3409910213411795e+154, 1.3409910213411795e+154, 2.681564267760333e+154,
                 1.3407807929942597e+154),
    ]
    for value in cases:
        agrees(value)


def test_the_margin_is_used_where_it_can_be():
    assert clearly_valid(inertial(0.01, 0.02, 0.025, 1e-5, -2e-5, 3e-6))
    assert not clearly_valid(inertial(1, 1, 2, 1e-3, 0, 0))         # triangle: equality
    assert not clearly_valid(rotated([1e-9, 1.0, 1.0], (0.4, 0.1, 0.2)))  # near singular
    assert not clearly_valid(inertial(1, 1, 1, math.nan))


scale = st.sampled_from([1e-12, 1e-6, 1e-3, 1.0, 1e3, 1e9])
moment = st.floats(min_value=-0.1, max_value=3.0, allow_nan=False)
angle = st.floats(min_value=-math.pi, max_value=math.pi, allow_nan=False)


@settings(max_examples=examples(500), deadline=None)
@given(st.tuples(moment, moment, moment), st.tuples(angle, angle, angle), scale)
def test_turned_tensors_are_decided_as_numpy_decides_them(moments, angles, size):
    agrees(rotated([m * size for m in moments], angles))


@settings(max_examples=examples(300), deadline=None)
@given(st.tuples(moment, moment), st.floats(min_value=-1e-6, max_value=1e-6),
       st.tuples(angle, angle, angle), scale)
def test_tensors_at_the_triangle_inequality_are_decided_as_numpy_decides_them(
        moments, excess, angles, size):
    a, b = moments
    agrees(rotated([a * size, b * size, (a + b + excess) * size], angles))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=6,
                max_size=6))
def test_any_six_numbers_are_decided_as_numpy_decides_them(values):
    agrees(inertial(*values))


def test_repair_is_unchanged():
    value = inertial(1, 1, 3)
    fixed = repaired(value)
    assert inertia_problem(fixed) is None
    assert np.allclose(principal_moments(fixed), [1, 2, 3])  # the smallest raised to 3 - 1
    assert repaired(inertial(1, 2, 2.5)) is None


def test_a_valid_tensor_is_checked_without_importing_numpy():
    code = ("import sys\n"
            "from urdf_sdf.core.base.inertia import inertia_problem\n"
            "from urdf_sdf.core.base.model import Inertial\n"
            "print(inertia_problem(Inertial(ixx=0.01, iyy=0.02, izz=0.025, ixy=1e-5)),\n"
            "      inertia_problem(Inertial(ixx=1, iyy=1, izz=3)) is not None,\n"
            "      'numpy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["None", "True", "False"], done.stderr
