"""``urdf-sdf diff`` compares inertials and shapes as arrays, with the results of its
per-link definition.

* :func:`core.diff.inertials.compare_inertials` and :func:`core.diff.shapes.compare_shapes`
  report what the per-link definitions below report (the implementation before the
  links were taken together), at every tolerance, NaN and infinity included, on
  perturbed generated robots and samples;
* :func:`core.diff.shapes.within_gap` only clears a pair of poses whose
  :func:`core.base.pose.pose_gap` is within the tolerance, near the bound too.
"""
from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.support import perturbed
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.pose import Pose, pose_gap, quat_from_rpy
from urdf_sdf.core.diff import compare as diff_module
from urdf_sdf.core.diff.difference import Difference, fmt
from urdf_sdf.core.diff.shapes import match_shapes, shapes_in_root, within_gap
from urdf_sdf.core.kinematics.batch import forward_compact
from urdf_sdf.core.loader import load_string

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402  (bench/generate.py: SDFormat benchmark models)
import generate_urdf  # noqa: E402  (bench/generate_urdf.py: URDF benchmark robots)

TOLERANCES = [0.0, 1e-300, 1e-12, 1e-9, 1e-3, 0.05, 1.0, math.inf, math.nan, -1.0]
SAMPLES = ["samples/arm6.urdf", "samples/arm6.sdf", "samples/diff_drive.sdf",
           "samples/pendulum.urdf", "samples/composition/arm_and_gripper.sdf"]


def inertials_by_definition(da, db, bodies, tol, out) -> None:
    """compare_inertials one link at a time, a pose and 3x3 arrays per link."""
    for name in sorted(set(da.links) & set(db.links)):
        ia, ib = (one_inertial(d, name, poses) for d, poses in ((da, bodies[0]), (db, bodies[1])))
        if ia is None or ib is None:
            continue
        # ``not <= tol``: a value that is no number (or a tolerance that is none) differs.
        if not abs(ia[0] - ib[0]) <= tol:
            out.append(Difference("inertial", name, f"mass {ia[0]!r} kg in A, {ib[0]!r} kg in B",
                                  "mass"))
        if not np.abs(ia[1] - ib[1]).max() <= tol:
            out.append(Difference("inertial", name, f"centre of mass {fmt(ia[1])} m in A, "
                                  f"{fmt(ib[1])} m in B (moved "
                                  f"{float(np.linalg.norm(ia[1] - ib[1])):.3g} m; in the "
                                  "reference frame)", "centre of mass"))
        if not np.abs(ia[2] - ib[2]).max() <= tol:
            out.append(Difference("inertial", name, "inertia tensor differs by up to "
                                  f"{float(np.abs(ia[2] - ib[2]).max()):.3g} kg m^2 (in the "
                                  "reference frame)", "inertia"))


def one_inertial(digest, name, poses):
    inertial = digest.contents.inertial(name)
    if inertial is None:
        return None
    mass, local, tensor = inertial
    frame = poses[name] * local
    w, x, y, z = frame.rotation
    rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    return mass, np.array(frame.position), rotation @ tensor @ rotation.T


def shapes_by_definition(da, db, bodies, tol, out) -> None:
    """compare_shapes with the search for a counterpart for every link."""
    for name in sorted(set(da.links) & set(db.links)):
        for kind in ("visuals", "collisions"):
            match_shapes(name, kind, shapes_in_root(da, name, kind, bodies[0]),
                         shapes_in_root(db, name, kind, bodies[1]), tol, out)


def digests_and_bodies(text_a: str, name_a: str, text_b: str, name_b: str):
    a = load_string(text_a.encode(), name_a, Context())
    b = load_string(text_b.encode(), name_b, Context())
    da, db = diff_module.describe(a), diff_module.describe(b)
    links = forward_compact([da.plan, db.plan], [{}])
    reference = diff_module.common_reference(da, db)
    bodies = (diff_module.reference_frames(da, links[0], reference[0])[0],
              diff_module.reference_frames(db, links[1], reference[1])[0])
    return da, db, bodies


def cases() -> list[tuple[str, str, str, str]]:
    found = []
    for generator, suffix in ((generate_urdf.chain, "urdf"), (generate_urdf.wide, "urdf"),
                              (generate.deep_chain, "sdf"), (generate.wide_tree, "sdf")):
        text = generator(60)
        found += [(text, f"a.{suffix}", perturbed(text, seed, rate), f"b.{suffix}")
                  for seed, rate in ((1, 0.0), (2, 0.05), (3, 0.5))]
    for sample in SAMPLES:
        path = ROOT / sample
        found.append((path.read_text(), str(path), perturbed(path.read_text(), 5, 0.3),
                      str(path.with_name("perturbed_" + path.name))))
    return found


@pytest.mark.parametrize("case", cases())
def test_inertials_and_shapes_report_what_the_definition_reports(case):
    da, db, bodies = digests_and_bodies(*case)
    reported_any = False
    for first, second, frames in ((da, db, bodies), (db, da, bodies[::-1])):
        for tol in TOLERANCES:
            for compare, definition in ((diff_module.compare_inertials, inertials_by_definition),
                                        (diff_module.compare_shapes, shapes_by_definition)):
                arrays: list = []
                one_by_one: list = []
                compare(first, second, frames, tol, arrays)
                definition(first, second, frames, tol, one_by_one)
                assert arrays == one_by_one, (compare.__name__, tol)
                reported_any = reported_any or bool(arrays)
    assert reported_any  # a tolerance of -1 finds every inertial different


def random_pose(rng: random.Random, scale: float) -> Pose:
    return Pose(tuple(rng.uniform(-scale, scale) for _ in range(3)),
                quat_from_rpy(*(rng.uniform(-scale, scale) for _ in range(3))))


def test_within_gap_clears_only_pairs_within_the_tolerance():
    rng = random.Random(7)
    checked = cleared = 0
    for tol in TOLERANCES + [1e-160, 1e-170, 3e-7]:
        pairs = []
        for _ in range(400):
            a = random_pose(rng, 1.0)
            step = rng.choice([0.0, 1e-300, 1e-170, 1e-12, 1e-9, 1e-7, 1e-3, 0.5]) \
                * rng.uniform(0.1, 2.0)
            pairs.append((a, a * random_pose(rng, step) if step else a))
        arrays = [np.array([getattr(p, field) for p in side]) for side in zip(*pairs)
                  for field in ("position", "rotation")]
        for (a, b), within in zip(pairs, within_gap(*arrays, tol).tolist()):
            checked += 1
            if within:
                cleared += 1
                assert pose_gap(a, b) <= tol, (a, b, tol)
    assert cleared > checked // 4  # the screen clears most pairs that are well within


def test_within_gap_never_clears_nan():
    nan = np.full((1, 3), math.nan)
    quaternion = np.array([[1.0, 0.0, 0.0, 0.0]])
    zero = np.zeros((1, 3))
    assert within_gap(nan, quaternion, zero, quaternion, math.inf).tolist() == [False]
    assert within_gap(zero, quaternion, zero, quaternion, math.nan).tolist() == [False]
    assert within_gap(zero, quaternion, zero, quaternion, 0.0).tolist() == [True]
