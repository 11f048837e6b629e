"""``urdf-sdf diff`` reports what it reported before its memory was bounded: the same
differences, in the same order, with the same messages, bit for bit.

``tests/fixtures/diff/unchanged.json`` holds the differences the diff of two models held
at once (every model, its kinematic tree and forward kinematics alive together) reported
on each case below: a model against a perturbed copy of itself (some numbers moved by
1e-3, some below the tolerance; a joint in nine made a mimic), both ways, for the
generated robots of the benchmarks, every sample and every urdf2sdf feature fixture, and a
URDF against its SDFormat. The command line must print them (text and ``--json``) as the
library returns them. Paths are written relative to the repository (``<ROOT>``).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import perturbed, with_mimics
from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.core.diff.difference import NOT_COMPARED
from urdf_sdf.core.loader import load, load_string

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "fixtures" / "diff" / "unchanged.json"
sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402  (bench/generate.py: SDFormat benchmark models)
import generate_urdf  # noqa: E402  (bench/generate_urdf.py: URDF benchmark robots)

runner = CliRunner()
GENERATED = {"chain": (generate_urdf.chain, "urdf"), "wide": (generate_urdf.wide, "urdf"),
             "deep": (generate.deep_chain, "sdf"), "wide_sdf": (generate.wide_tree, "sdf")}
PAIRS = [("arm6.urdf", "arm6.sdf"), ("diff_drive.urdf", "diff_drive.sdf"),
         ("pendulum.urdf", "pendulum.sdf")]


def sample_files() -> list[Path]:
    return sorted(p for folder in ("samples", "tests/fixtures/urdf2sdf/features")
                  for p in (ROOT / folder).rglob("*") if p.suffix in (".urdf", ".sdf"))


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def cases() -> dict[str, tuple]:
    """Case id -> (text of A, file name of A, text of B, file name of B); a file name is
    where the text is loaded from (includes and meshes resolve beside it)."""
    found = {}
    for kind, (generator, suffix) in GENERATED.items():
        text = generator(12)
        for seed, rate in ((2, 0.01), (3, 0.05)):
            found[f"{kind}-{seed}"] = (with_mimics(text), f"a.{suffix}",
                                       perturbed(text, seed, rate), f"b.{suffix}")
    for path in sample_files():
        text = path.read_text()
        found[relative(path)] = (text, str(path), perturbed(text, 5, 0.1),
                                 str(path.with_name("perturbed_" + path.name)))
    for urdf, sdf in PAIRS:
        a, b = ROOT / "samples" / urdf, ROOT / "samples" / sdf
        found[f"{urdf} vs {sdf}"] = (perturbed(a.read_text(), 6, 0.2), str(a), b.read_text(),
                                     str(b))
    return found


CASES = cases()


def differences(case: tuple) -> list[list[str]]:
    """The formatted differences of A against B and of B against A."""
    text_a, name_a, text_b, name_b = case
    loaded = [lambda: load_string(text_a.encode(), name_a, Context()),
              lambda: load_string(text_b.encode(), name_b, Context())]
    both_ways = []
    for first, second in ((0, 1), (1, 0)):
        found = diff_results(loaded[first](), loaded[second](), configurations=6, seed=first)
        both_ways.append([d.format().replace(str(ROOT), "<ROOT>") for d in found])
    return both_ways


def golden() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("case", sorted(CASES))
def test_differences_are_those_reported_before(case):
    assert differences(CASES[case]) == golden()[case]


def test_every_kind_of_difference_is_covered():
    """The goldens hold every kind of difference, not only pose gaps."""
    kinds = {line.split(" ", 1)[0] for found in golden().values() for way in found
             for line in way}
    assert {"links", "joints", "pose", "inertial", "geometry", "model"} <= kinds


@pytest.mark.parametrize("case", ["chain-3", "wide_sdf-2", "arm6.urdf vs arm6.sdf",
                                  "samples/arm6.sdf"])
def test_command_line_prints_the_same_differences(case, tmp_path):
    """``urdf-sdf diff`` (which loads one file at a time) prints, as text and as JSON, the
    differences the library finds with both files loaded."""
    text_a, name_a, text_b, name_b = CASES[case]
    a, b = tmp_path / ("a_" + Path(name_a).name), tmp_path / ("b_" + Path(name_b).name)
    a.write_text(text_a)
    b.write_text(text_b)
    found = diff_results(load(str(a), Context()), load(str(b), Context()))
    expected = [d.format() for d in found]
    printed = runner.invoke(app, ["diff", str(a), str(b), "--all"])
    not_compared = any(d.property == NOT_COMPARED for d in found)
    assert printed.exit_code == (3 if not_compared else 1 if expected else 0)
    lines = printed.stdout.splitlines()[:-1]
    assert sorted(line.strip() for line in lines) == sorted(expected)
    assert [line for line in lines if not line.startswith("  ")] == \
        [d.format() for d in found if d.role == "cause"]
    as_json = json.loads(runner.invoke(app, ["diff", str(a), str(b), "--json"]).stdout)
    assert [f"{d['kind']} {d['name']}: {d['message']}" for d in as_json["differences"]] == \
        expected


if __name__ == "__main__" and os.environ.get("WRITE_GOLDEN"):
    GOLDEN.write_text(json.dumps({case: differences(CASES[case]) for case in sorted(CASES)},
                                 indent=1) + "\n")
