"""``urdf-sdf diff`` in linear time, with the same results as its per-configuration definition.

* :func:`core.kinematics.batch.forward_compact` gives the poses the scalar definition
  (``tests/reference_kinematics.forward``) gives within
  :data:`core.kinematics.batch.FORWARD_TOLERANCE` (1e-12, relative to the
  tree's scale; not bit for bit), on generated trees and every sample, and the check
  catches a pose off by more;
* :func:`core.diff.compare.compare_all_poses` reports what the scalar definition
  (``tests/reference_kinematics.py``, the implementation before it was vectorised)
  reports: the same frames at the same configurations, the numbers to the digits
  printed, on perturbed generated robots;
* diff runs forward kinematics a bounded number of times, whatever the number of joints
  (it used to run it once per joint: quadratic);
* a digest keeps nothing of its model alive, and ``diff_loaded`` loads B only once A's
  model is gone;
* mimic multipliers and offsets of 1e308 do not crash; two files without a model are
  reported as such, once.
"""
from __future__ import annotations

import gc
import math
import random
import re
import sys
import weakref
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.reference_kinematics import (
    assert_forward_agrees,
    forward,
    forward_batch,
    forward_gaps,
    scalar_compare_poses,
)
from tests.support import perturbed, with_mimics
from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.model import Link
from urdf_sdf.core.diff import compare as diff_module
from urdf_sdf.core.diff.compare import Description, diff_results
from urdf_sdf.core.kinematics.batch import FORWARD_TOLERANCE, forward_plan
from urdf_sdf.core.kinematics.tree import KinematicTree, build_tree
from urdf_sdf.core.loader import load, load_string

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402  (bench/generate.py: SDFormat benchmark models)
import generate_urdf  # noqa: E402  (bench/generate_urdf.py: URDF benchmark robots)

runner = CliRunner()
GENERATED = [("chain", generate_urdf.chain, "urdf"), ("wide", generate_urdf.wide, "urdf"),
             ("deep", generate.deep_chain, "sdf"), ("wide_sdf", generate.wide_tree, "sdf")]


def random_configurations(tree: KinematicTree, count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [{}] + [{j.name: rng.uniform(-3, 3) for j in tree.joints} for _ in range(count)]


def assert_forward_batch_is_forward(result) -> None:
    tree = build_tree(result)
    plan = forward_plan(tree)
    configurations = random_configurations(tree, 3, 1)
    [(positions, rotations)] = forward_batch([(tree, plan)], configurations)
    assert_forward_agrees(tree, plan, configurations, positions, rotations)


@pytest.mark.parametrize("kind, generator, suffix", GENERATED)
def test_forward_batch_is_forward_within_the_tolerance(kind, generator, suffix):
    assert_forward_batch_is_forward(load_string(generator(300).encode(), f"g.{suffix}",
                                                Context()))


def test_the_tolerance_check_catches_a_pose_off_by_more():
    """A position off by ten times the bound, a quaternion component off by as much, or a
    NaN, fails the check; an error within the bound passes."""
    tree = build_tree(load_string(generate_urdf.chain(30).encode(), "c.urdf", Context()))
    plan = forward_plan(tree)
    configurations = random_configurations(tree, 1, 2)
    [(positions, rotations)] = forward_batch([(tree, plan)], configurations)
    row = plan.rows[tree.links[-1]]
    scale = max([1.0] + [abs(c) for pose in forward(tree, configurations[1]).values()
                         for c in pose.position])
    for table, axis, step in ((positions, 0, 10 * FORWARD_TOLERANCE * scale),
                              (rotations, 2, 10 * FORWARD_TOLERANCE), (positions, 1, math.nan)):
        moved = table.copy()
        moved[1, row, axis] += step
        pair = (moved, rotations) if table is positions else (positions, moved)
        with pytest.raises(AssertionError):
            assert_forward_agrees(tree, plan, configurations, *pair)
    moved = positions.copy()
    moved[1, row, 0] += 0.5 * FORWARD_TOLERANCE * scale
    assert max(gap for gap, _, _ in forward_gaps(tree, plan, configurations, moved,
                                                 rotations)) <= 1.0


def sample_files() -> list[Path]:
    return sorted(p for folder in ("samples", "tests/fixtures/urdf2sdf/features")
                  for p in (ROOT / folder).rglob("*") if p.suffix in (".urdf", ".sdf"))


def test_forward_batch_on_samples():
    for path in sample_files():
        result = load(str(path), Context())
        if result.ok and result.graph is not None and result.graph.root is not None \
                and not result.graph.root.is_world:
            assert_forward_batch_is_forward(result)


def test_two_trees_in_one_batch_are_each_their_own():
    results = [load_string(generate_urdf.chain(120).encode(), "a.urdf", Context()),
               load_string(generate_urdf.wide(90).encode(), "b.urdf", Context())]
    trees = [(tree, forward_plan(tree)) for tree in map(build_tree, results)]
    configurations = random_configurations(trees[0][0], 2, 3)
    together = forward_batch(trees, configurations)
    for (tree, plan), (positions, rotations) in zip(trees, together):
        [(alone_p, alone_q)] = forward_batch([(tree, plan)], configurations)
        assert (positions == alone_p).all() and (rotations == alone_q).all()


# ---- same differences as the per-configuration definition --------------------------------

def pose_differences_by_definition(a, b, configurations: int = 20, seed: int = 0) -> list[str]:
    """The pose differences of ``diff_results(a, b)`` by :func:`scalar_compare_poses`, on
    the configurations and reference the diff samples."""
    da, db = diff_module.describe(a), diff_module.describe(b)
    out: list = []
    scalar_compare_poses(Description(a), Description(b),
                         list(diff_module.configurations_for(da, db, configurations, seed)),
                         diff_module.common_reference(da, db), 1e-9, out)
    return sorted((d.format() for d in out), key=pose_name)


def pose_differences(a, b, configurations: int = 20, seed: int = 0) -> list[str]:
    """The pose differences of ``diff_results(a, b)``, by frame name (each frame is
    reported once; causes come before dependent differences in the list)."""
    return sorted((d.format() for d in diff_results(a, b, configurations=configurations,
                                                    seed=seed) if d.kind == "pose"),
                  key=pose_name)


def pose_name(line: str) -> str:
    return line.partition(": ")[0]


NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)")


def last_digit(text: str) -> float:
    """The value of one unit in the last digit of a printed number."""
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def assert_same_differences(vectorised: list[str], definition: list[str]) -> None:
    """The same messages: the same words, and each number the same to the digits printed
    (its last digit may round either way). A number below 1e-9 in magnitude is rounding
    noise around a zero, whose digits are nobody's."""
    assert len(vectorised) == len(definition), (vectorised, definition)
    for mine, theirs in zip(vectorised, definition):
        assert NUMBER.sub("#", mine) == NUMBER.sub("#", theirs), (mine, theirs)
        for x, y in zip(NUMBER.findall(mine), NUMBER.findall(theirs)):
            if x == y or "n" in x + y:  # nan and inf print alike or differ as words
                assert x == y, (mine, theirs)
                continue
            unit = max(last_digit(x.lstrip("-")), last_digit(y.lstrip("-")))
            assert abs(float(x) - float(y)) <= max(unit, 1e-9), (mine, theirs)


@pytest.mark.parametrize("kind, generator, suffix", GENERATED)
@pytest.mark.parametrize("seed, rate", [(1, 0.0), (2, 0.01), (3, 0.05)])
def test_vectorised_poses_report_what_the_definition_reports(kind, generator, suffix, seed,
                                                               rate):
    text = generator(150)
    a = load_string(with_mimics(text).encode(), f"a.{suffix}", Context())
    b = load_string(perturbed(text, seed, rate).encode(), f"b.{suffix}", Context())
    for first, second in ((a, b), (b, a)):
        vectorised = pose_differences(first, second, 6, seed)
        assert_same_differences(vectorised, pose_differences_by_definition(first, second, 6,
                                                                           seed))
    assert bool(vectorised) == bool(rate)


def test_a_urdf_and_its_sdf_under_the_definition():
    urdf = ROOT / "samples" / "arm6.urdf"
    sdf = ROOT / "samples" / "arm6.sdf"
    moved = load_string(perturbed(urdf.read_text(), 4, 0.3).encode(), "m.urdf", Context())
    for a, b in ((load(str(sdf)), moved), (moved, load(str(sdf)))):
        assert_same_differences(pose_differences(a, b), pose_differences_by_definition(a, b))


# ---- linear -----------------------------------------------------------------------------

@pytest.mark.parametrize("links", [40, 400])
def test_forward_kinematics_runs_a_bounded_number_of_times(links, monkeypatch):
    """One batch for both sides and every configuration (the rest poses are its first),
    whatever the number of joints (it was once per joint)."""
    calls = {"batch": 0}
    batch = diff_module.forward_compact

    def counted_batch(*args):
        calls["batch"] += 1
        return batch(*args)
    monkeypatch.setattr(diff_module, "forward_compact", counted_batch)
    robot = load_string(generate_urdf.chain(links).encode(), "c.urdf", Context())
    assert diff_results(robot, robot) == []
    assert calls == {"batch": 1}


# ---- one model at a time ----------------------------------------------------------------

def links_alive() -> int:
    """How many link elements of any model are alive."""
    gc.collect()
    return sum(type(item) is Link for item in gc.get_objects())


def test_a_digest_keeps_nothing_of_its_model_alive():
    links_before = links_alive()
    result = load_string(generate_urdf.chain(30).encode(), "c.urdf", Context())
    alive = [weakref.ref(part) for part in (result, result.graph)]
    digest = diff_module.describe(result)
    del result
    gc.collect()
    assert [part() for part in alive] == [None, None]
    assert links_alive() == links_before
    again = diff_module.unpack(diff_module.pack(digest))
    assert diff_module.compare_digests(digest, again) == []


@pytest.mark.parametrize("sample", ["arm6.urdf", "arm6.sdf", "composition/arm_and_gripper.sdf"])
def test_a_dismantled_graph_frees_its_model_without_the_cycle_collector(sample):
    """What ``diff_loaded`` does with a file it has digested: the graph dismantled, the
    result dropped, the whole model is freed by reference counting (a collection finds
    nothing left over; without ``dismantle`` it finds every object of the model)."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = load(ROOT / "samples" / sample, Context())
        assert result.ok
        result.graph.dismantle()
        del result
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()


def test_b_is_loaded_once_a_is_gone():
    text = generate_urdf.chain(30).encode()
    seen = {}

    def load_a():
        result = load_string(text, "a.urdf", Context())
        seen["a"] = [weakref.ref(part) for part in (result, result.graph)]
        return result

    def load_b():
        seen["a alive when B loads"] = any(part() is not None for part in seen["a"])
        return load_string(perturbed(text.decode(), 1, 0.05).encode(), "b.urdf", Context())
    differences = diff_module.diff_loaded(load_a, load_b)
    assert seen["a alive when B loads"] is False
    assert [d.format() for d in differences] == [
        d.format() for d in diff_results(load_string(text, "a.urdf", Context()), load_b())]
    assert any(d.kind == "pose" for d in differences)


def test_an_unloadable_a_is_reported_with_b():
    broken = load_string(b"<robot name='x'><link", "a.urdf", Context())
    empty = load_string(ACTOR_ONLY.encode(), "b.sdf", Context())
    together = diff_results(broken, empty)
    assert [d.format() for d in diff_module.diff_loaded(lambda: broken, lambda: empty)] == \
        [d.format() for d in together]
    assert [d.name for d in together] == ["A", "B"]


# ---- mimic values that overflow, files without a model ----------------------------------

MIMIC = """<?xml version="1.0"?>
<robot name="m">
  <link name="a"/><link name="b"/><link name="c"/>
  <joint name="j1" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="j1" multiplier="MULTIPLIER" offset="OFFSET"/></joint>
</robot>
"""


def mimic_file(tmp_path: Path, name: str, multiplier: str, offset: str) -> Path:
    path = tmp_path / name
    path.write_text(MIMIC.replace("MULTIPLIER", multiplier).replace("OFFSET", offset))
    return path


@pytest.mark.parametrize("multiplier, offset", [("1e308", "0"), ("1", "1e308"),
                                                ("1e308", "1e308"), ("-1e308", "0")])
def test_huge_mimic_values_do_not_crash(tmp_path, multiplier, offset):
    path = str(mimic_file(tmp_path, "m.urdf", multiplier, offset))
    result = runner.invoke(app, ["diff", path, path])
    assert result.exit_code == 0, result.output
    assert "equivalent" in result.stdout


def test_huge_mimic_values_are_still_compared(tmp_path):
    a = str(mimic_file(tmp_path, "a.urdf", "1e308", "0"))
    b = str(mimic_file(tmp_path, "b.urdf", "1e307", "0"))
    result = runner.invoke(app, ["diff", a, b])
    assert result.exit_code == 1
    assert "joints j2: mimic relation differs" in result.stdout


def test_ordinary_mimic_values_compare_as_before(tmp_path):
    a = str(mimic_file(tmp_path, "a.urdf", "2", "0.1"))
    same = str(mimic_file(tmp_path, "b.urdf", "2.0000000000001", "0.1"))
    other = str(mimic_file(tmp_path, "c.urdf", "2.5", "0.1"))
    assert runner.invoke(app, ["diff", a, same]).exit_code == 0
    assert "mimic relation differs" in runner.invoke(app, ["diff", a, other]).stdout


ACTOR_ONLY = """<?xml version="1.0"?>
<sdf version="1.9">
  <actor name="walker"><skin><filename>walk.dae</filename></skin></actor>
</sdf>
"""
WORLD_OF_ACTORS = """<?xml version="1.0"?>
<sdf version="1.9">
  <world name="w"><actor name="walker"><skin><filename>walk.dae</filename></skin></actor></world>
</sdf>
"""


@pytest.mark.parametrize("text", [ACTOR_ONLY, WORLD_OF_ACTORS])
def test_two_files_without_a_model_are_reported_once_not_equivalent(tmp_path, text):
    """Nothing to compare is said once, and is not "equivalent": a check such as
    ``assert not diff_files(a, b)`` must not pass on two files that lost their model."""
    path = tmp_path / "actor.sdf"
    path.write_text(text)
    result = runner.invoke(app, ["diff", str(path), str(path)])
    assert result.exit_code == 3  # not compared: no difference either
    assert result.stdout.splitlines()[-1].endswith("cannot be compared")
    assert result.stdout.splitlines()[0] == \
        "model A and B: each holds no model to compare: nothing was compared"
    assert len(diff_module.diff_files(str(path), str(path))) == 1


def test_one_file_without_a_model_names_that_file(tmp_path):
    path = tmp_path / "actor.sdf"
    path.write_text(WORLD_OF_ACTORS)
    result = runner.invoke(app, ["diff", str(ROOT / "samples" / "pendulum.sdf"), str(path)])
    assert result.exit_code == 3
    assert result.stdout.splitlines()[0] == "model B: holds no model to compare"
