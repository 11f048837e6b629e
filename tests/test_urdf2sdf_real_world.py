"""URDF -> SDFormat on real-world URDFs (``urdf2sdf``): libsdformat's own test files
(``../shared/conformance/cases/libsdformat``) convert, the output puts every link, frame and
joint where URDF forward kinematics does, and the reference implementation reads it alike.

Without ``../shared`` these tests skip, except under CI (``$CI`` set), where they fail.
"""
from __future__ import annotations

import pytest

from tests.support import shared_dir
from tests.urdf2sdf_helpers import (
    CONFORMANCE,
    CONFORMANCE_PARTS,
    REAL_WORLD_FILES,
    check_fk,
    check_reference,
    convert,
    loadable_urdf_or_skip,
    real_world_cases,
)
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.loader import load

# The real-world URDFs (libsdformat's test files) that our reader accepts; fewer means
# the reader or the converter regressed, or the cases went missing.
MIN_REAL_WORLD_CONVERTED = 20


@pytest.mark.parametrize("urdf, variant, options", real_world_cases())
def test_real_world_poses_equal_urdf_forward_kinematics(urdf, variant, options):
    loadable_urdf_or_skip(urdf)
    check_fk(urdf, options)


def test_enough_real_world_urdfs_convert():
    """The real-world checks above must not skip their way to testing nothing."""
    shared_dir(*CONFORMANCE_PARTS)
    assert len(REAL_WORLD_FILES) >= MIN_REAL_WORLD_CONVERTED, \
        f"only {len(REAL_WORLD_FILES)} URDFs under {CONFORMANCE}"
    converted_ok = [p.name for p in REAL_WORLD_FILES
                    if load(p, Context()).ok and convert(p).ok]
    assert len(converted_ok) >= MIN_REAL_WORLD_CONVERTED, converted_ok


@pytest.mark.parametrize("urdf, variant, options", real_world_cases())
def test_real_world_reference_loads_output_and_agrees(urdf, variant, options, sdf_reference,
                                                      tmp_path):
    loadable_urdf_or_skip(urdf)
    check_reference(urdf, options, sdf_reference, tmp_path)
