"""``core.base.inertia``: libsdformat's principal moments and a repair every consumer
accepts.

The expected values are libsdformat 12's (``build/sdf_reference``) on the tensors of
``tests/fixtures/realworld/urdf_inertia_repaired_loads_in_libsdformat.urdf`` (HyQ, Go1 and
ANYmal's placeholder tensor, every entry 1e-6): LAPACK finds its principal moments
``0 0 3e-6`` exactly enough, libsdformat's closed form does not, and it is the closed form
that decides whether Gazebo loads the link.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.core.base.test_inertia_without_numpy import rotated as turned
from tests.support import examples
from urdf_sdf.core.base.inertia import (
    MAX_REPAIRABLE,
    REPAIR_MARGIN,
    has_no_repair,
    inertia_problem,
    libsdformat_moments,
    principal_moments,
    repaired,
)
from urdf_sdf.core.base.model import Inertial

# MuJoCo's smallest moment of a moving body (mjMINVAL).
MUJOCO_MINIMUM = 1e-15


def inertial(xx, yy, zz, xy=0.0, xz=0.0, yz=0.0) -> Inertial:
    return Inertial(mass=1.0, ixx=xx, iyy=yy, izz=zz, ixy=xy, ixz=xz, iyz=yz)


def test_the_closed_form_agrees_with_lapack_on_distinct_moments():
    value = turned([1.0, 2.0, 2.5], (0.3, 0.2, 0.1))
    assert np.allclose(libsdformat_moments(value), [1.0, 2.0, 2.5], rtol=1e-12, atol=0)
    assert inertia_problem(value) is None
    assert "triangle inequality" in inertia_problem(turned([1.0, 1.0, 2.1], (0.3, 0.2, 0.1)))


def test_small_products_are_taken_as_zero_as_libsdformat_does():
    # products below 1e-6 of the largest moment: the diagonal is the principal moments
    assert libsdformat_moments(inertial(1, 1, 2, 5e-7)) == [1, 1, 2]
    assert inertia_problem(inertial(1, 1, 2, 5e-7)) is None  # 1 + 1 >= 2, as libsdformat
    assert libsdformat_moments(inertial(1, 1, 1, 0, 0, 0)) == [1, 1, 1]


def test_the_placeholder_tensor_and_its_earlier_repair_are_refused():
    placeholder = inertial(1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6)
    assert "triangle inequality" in inertia_problem(placeholder)
    earlier = Inertial(mass=1e-6, ixx=2.9277947306699483e-06, ixy=-2.870036996984604e-07,
                       ixz=3.592089690285127e-07, iyy=1.8592089690285123e-06,
                       iyz=1.4277947306699476e-06, izz=1.2129963003015395e-06)
    a, b, c = libsdformat_moments(earlier)
    assert a + b < c - 1e-20  # libsdformat's reading: refused (LINK_INERTIA_INVALID)
    assert inertia_problem(earlier) is not None
    fixed = repaired(placeholder)
    assert inertia_problem(fixed) is None
    assert np.allclose(principal_moments(fixed), [3e-12, 3e-6, 3e-6], rtol=1e-6)


@settings(max_examples=examples(200), deadline=None)
@given(st.tuples(*[st.floats(-1.0, 1.0)] * 3), st.tuples(*[st.floats(-3.2, 3.2)] * 3),
       st.sampled_from([1e-9, 1e-6, 1.0, 1e3]))
def test_every_repair_is_accepted_by_libsdformat_and_mujoco(moments, angles, size):
    value = turned([m * size for m in moments], angles)
    fixed = repaired(value)
    if fixed is None:
        assert inertia_problem(value) is None
        return
    assert inertia_problem(fixed) is None  # libsdformat's closed form and tolerance
    a, b, c = principal_moments(fixed)
    assert a + b >= c  # MuJoCo: no tolerance
    # MuJoCo's absolute minimum: met where the margin of the largest moment reaches it
    # (above 1e-9 kg m^2; at exactly 1e-9 the rotation back rounds it a hair below).
    if c >= 1e-9 * (1 + 1e-6):
        assert a >= MUJOCO_MINIMUM
    assert c <= max(abs(m) for m in moments) * size * (1 + 2 * REPAIR_MARGIN) * 1.001


def test_a_huge_tensor_is_refused_never_an_overflow_error():
    """A mutated file's products of inertia near the largest double: the closed form gives
    no finite moments (refused), never an OverflowError of ``**``."""
    huge = Inertial(mass=1.0, ixx=1e200, iyy=1e200, izz=1e200, ixy=9e199, ixz=1e199,
                    iyz=1e199)
    moments = libsdformat_moments(huge)
    assert len(moments) == 3
    assert inertia_problem(huge) is not None or all(math.isfinite(m) for m in moments)


def test_a_tensor_near_the_largest_float_has_no_repair():
    huge = Inertial(mass=1, ixx=1.7976931348623157e308, iyy=0.001, izz=0.084)
    assert inertia_problem(huge) is not None
    assert has_no_repair(huge) and repaired(huge) is None
    largest = Inertial(mass=1, ixx=MAX_REPAIRABLE, iyy=1, izz=1)
    fixed = repaired(largest)
    assert not has_no_repair(largest) and fixed is not None
    assert inertia_problem(fixed) is None
