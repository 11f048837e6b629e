#!/usr/bin/env python3
"""A batch in worker processes against the same batch in one process, for one or more
installs taking turns: ``urdf2sdf TREE -o OUT -j 1`` and ``-j 2`` on a folder of small
files (copies of samples/*.urdf) and on a folder of 1,000-link robots.

    python bench/bench_batch.py                                  # this install
    python bench/bench_batch.py --bin /old/venv/bin --bin /new/venv/bin --repeat 7

Each row: the median wall and CPU time (user + sys of the command and its workers) of
``--repeat`` runs, the installs and job counts taking turns so that other work on the
machine weighs on each alike, and the CPU time per file. The difference between two
installs' ``-j 2`` CPU per file is what their process pools cost per file.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import common
import generate_urdf
from bench_all import measure_short

SMALL_FILES = 200
LARGE_FILES = 20
LARGE_LINKS = 1000


def make_tree(tree: Path, files: int, samples: list[Path]) -> Path:
    """``files`` copies of ``samples`` in ten folders under ``tree``."""
    for i in range(files):
        folder = tree / f"d{i % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(samples[i % len(samples)], folder / f"robot_{i}.urdf")
    return tree


def measure(bins: list[Path], tree: Path, scratch: Path, repeat: int) -> dict:
    """(bin, jobs) -> median wall and CPU seconds of converting ``tree``."""
    runs: dict[tuple[Path, int], list[dict]] = {(b, j): [] for b in bins for j in (1, 2)}
    order = list(runs)
    for turn in range(repeat):
        for key in (order if turn % 2 == 0 else order[::-1]):
            out = scratch / "out"
            shutil.rmtree(out, ignore_errors=True)
            bin_dir, jobs = key
            cmd = [str(bin_dir / "urdf2sdf"), str(tree), "-o", str(out), "-j", str(jobs), "-q"]
            result = measure_short(cmd)
            if result["code"] != 0:
                sys.exit(f"{' '.join(cmd)} exited {result['code']}")
            runs[key].append(result)
    return {key: {name: statistics.median(r[name] for r in measured)
                  for name in ("wall", "cpu")} for key, measured in runs.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", type=Path, action="append",
                        help="a folder holding urdf2sdf (repeat to compare installs; "
                             "default: the one next to this interpreter)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--small-files", type=int, default=SMALL_FILES)
    parser.add_argument("--large-files", type=int, default=LARGE_FILES)
    args = parser.parse_args(argv)
    bins = args.bin or [Path(sys.executable).parent]
    [robot] = generate_urdf.generate(common.OUT, ["wide"], [LARGE_LINKS])
    small = sorted((common.ROOT / "samples").glob("*.urdf"))
    batches = [(f"{args.small_files} small files", args.small_files, small),
               (f"{args.large_files} files of {LARGE_LINKS:,} links", args.large_files,
                [robot])]
    print(f"median of {args.repeat}; cpu = user + sys of the command and its workers")
    for what, files, samples in batches:
        with tempfile.TemporaryDirectory() as scratch_name:
            scratch = Path(scratch_name)
            tree = make_tree(scratch / "tree", files, samples)
            medians = measure(bins, tree, scratch, args.repeat)
        print(f"\n{what}:")
        for (bin_dir, jobs), median in medians.items():
            print(f"  {str(bin_dir):<40} -j {jobs}  {median['wall']:7.3f} s wall"
                  f"{median['cpu']:7.3f} s cpu  {1000 * median['cpu'] / files:6.2f} ms cpu/file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
