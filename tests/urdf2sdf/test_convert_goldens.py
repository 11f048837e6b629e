"""URDF -> SDFormat goldens (``urdf2sdf``): one tiny URDF per feature, converted with
each option variant, is the golden beside it.

Fixtures live in ``tests/fixtures/urdf2sdf/features/``: one tiny URDF per feature, named
for it, with its goldens beside it: ``NAME.relative.sdf`` (``--relative``), ``NAME.sdf``
(the default, absolute poses) and, for a few, ``NAME.VARIANT.sdf`` for other options
(see ``EXTRA_VARIANTS`` in ``tests/urdf2sdf_helpers.py``). Numbers compare by value
(within 1e-12 relative), everything else as written.

Regenerate the goldens after an intended change of output with::

    UPDATE_GOLDENS=1 .venv/bin/python -m pytest -q tests/urdf2sdf/test_convert_goldens.py

or ``.venv/bin/python -m tests.urdf2sdf.test_convert_goldens``. Either writes only outputs that the
core loads without errors, and only where the output differs from the golden; then READ
every changed golden (``git diff``) before keeping it: a golden that encodes a bug is worse
than none.
"""
from __future__ import annotations

import os
import sys

import pytest

from tests.support import assert_xml_equivalent, xml_equivalent
from tests.urdf2sdf_helpers import (
    EXTRA_VARIANTS,
    FEATURE_FILES,
    FEATURES,
    HERE,
    VALID_OTHER_URDF_FILES,
    convert,
    converted,
    feature_cases,
    golden_path,
    load_output,
    variants_of,
)
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.loader import load_string

UPDATE = os.environ.get("UPDATE_GOLDENS", "").lower() not in ("", "0", "false", "no")


def test_every_feature_fixture_is_present():
    expected = {"joint_revolute_limit_dynamics", "joint_floating_free_link",
                "link_massless_leaf_fixed_becomes_frame", "material_robot_level_reference",
                "mesh_package_uri_scale", "world_parent_joint", "mimic_joint",
                "gimbal_lock_origin", "joint_continuous", "joint_prismatic",
                "joint_planar_custom_element", "joint_axis_default",
                "joint_calibration_safety_controller", "transmission",
                "link_massless_moving_joint_warning", "link_inertial_origin",
                "link_visual_collision_origin", "geometry_box_cylinder_sphere",
                "material_inline_color", "material_inline_texture",
                "pose_absolute_shortest_float", "origin_partial_attributes"}
    assert expected <= {p.stem for p in FEATURE_FILES}
    for stem in EXTRA_VARIANTS:
        assert (FEATURES / f"{stem}.urdf").is_file(), stem
    assert "urdf_every_element.urdf" in {p.name for p in VALID_OTHER_URDF_FILES}


@pytest.mark.parametrize("urdf, variant, options", feature_cases())
def test_golden(urdf, variant, options):
    """The output is the golden beside the fixture (numbers within 1e-12 relative)."""
    conversion = converted(urdf, options)
    golden = golden_path(urdf, variant)
    if UPDATE:
        load_output(conversion.xml, str(golden))  # never write an output the core rejects
        if not golden.exists() or not xml_equivalent(conversion.xml, golden):
            golden.write_bytes(conversion.xml)
        return
    assert golden.exists(), f"no golden {golden.name}; run with UPDATE_GOLDENS=1 and read it"
    assert_xml_equivalent(conversion.xml, golden)


def test_no_stray_goldens():
    """Every .sdf in the features folder belongs to a fixture and a variant."""
    known = {golden_path(urdf, variant).name
             for urdf in FEATURE_FILES for variant in variants_of(urdf)}
    stray = sorted(p.name for p in FEATURES.glob("*.sdf") if p.name not in known)
    assert not stray


# ---- regenerate goldens: python -m tests.urdf2sdf.test_convert_goldens -------------------------

def update_goldens() -> int:
    written = 0
    for urdf in FEATURE_FILES:
        for variant, options in variants_of(urdf).items():
            conversion = convert(urdf, **options)
            golden = golden_path(urdf, variant)
            if not conversion.ok:
                print(f"{golden.name}: conversion failed, not written", file=sys.stderr)
                continue
            if not load_string(conversion.xml, str(golden), Context()).ok:
                print(f"{golden.name}: the core rejects the output, not written",
                      file=sys.stderr)
                continue
            if not golden.exists() or not xml_equivalent(conversion.xml, golden):
                golden.write_bytes(conversion.xml)
                print(f"wrote {golden.relative_to(HERE.parent)}")
                written += 1
    return written


if __name__ == "__main__":
    update_goldens()
