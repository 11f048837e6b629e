"""The inertia check's determinant (core.inertia.determinant) is numpy's, to the bit:
whether a tensor is "near positive semi-definite" (libsdformat's rule) must not change
with how it is computed. A diagonal tensor is computed without an array."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from urdf_sdf.core.inertia import determinant, tensor
from urdf_sdf.core.model import Inertial

moments = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, 0.01, 5e-324]))


@settings(max_examples=3000, deadline=None)
@given(moments, moments, moments, st.booleans())
def test_the_determinant_is_numpys(ixx, iyy, izz, with_products):
    inertial = Inertial(ixx=ixx, iyy=iyy, izz=izz, ixy=0.5 if with_products else 0.0)
    with np.errstate(all="ignore"):  # numpy warns when the product overflows
        expected = float(np.linalg.det(tensor(inertial)))
        got = determinant(inertial)
    assert got == expected or (math.isnan(got) and math.isnan(expected))
