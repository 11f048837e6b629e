#!/usr/bin/env python3
"""Benchmark: ``urdf2sdf`` of a URDF with N ``<gazebo reference>`` blocks for one link.

Each block adds a sensor, an unnamed visual (renamed), a collision, a value of every
collision (``<mu1>``, the same each time), a link value and content kept as
``<urdf:gazebo>`` to the same link: the pattern that was quadratic while each block scanned
the link's children (``urdf2sdf/gazebo_index.py``) and merged its value into every
collision again. Each size runs in its own subprocess;
the last lines give the time ratio between sizes (about x2 for twice the blocks means
linear).

    python bench/bench_gazebo.py                      # 10,000 to 80,000 blocks
    python bench/bench_gazebo.py --sizes 20000 40000 --repeat 3
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import common  # noqa: E402  (bench/common.py)

DEFAULT_SIZES = (10000, 20000, 40000, 80000)


def blocks_for_one_link(count: int) -> str:
    blocks = "\n".join(
        f'<gazebo reference="base"><sensor name="s{i}" type="imu"><pose>0 0 {i} 0 0 0</pose>'
        f'</sensor><visual><geometry><box><size>1 1 1</size></box></geometry></visual>'
        f'<collision><geometry><sphere><radius>1</radius></sphere></geometry></collision>'
        f'<mu1>0.5</mu1><selfCollide>{"true" if i % 2 else "false"}</selfCollide>'
        f'<unknown{i % 5}/></gazebo>'
        for i in range(count))
    return (f'<robot name="r"><link name="base"><visual name="base_visual"><geometry>'
            f'<box size="1 1 1"/></geometry></visual></link>\n{blocks}\n</robot>\n')


def _worker(path: str) -> dict:
    from urdf_sdf import load
    from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

    start = time.perf_counter()
    result = load(path)
    loaded = time.perf_counter()
    conversion = convert_urdf(result, ToSdf())
    done = time.perf_counter()
    return {"ok": conversion.ok, "load_s": loaded - start, "conv_s": done - loaded}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (min kept)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--out", type=Path, default=common.OUT)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.worker)))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in sorted(args.sizes):
        path = args.out / f"gazebo_blocks_{n}.urdf"
        path.write_text(blocks_for_one_link(n), encoding="utf-8")
        runs = [common.run_worker([sys.executable, __file__, "--worker", str(path)],
                                  args.timeout) for _ in range(max(1, args.repeat))]
        good = [r for r in runs if "failure" not in r]
        row = min(good, key=lambda r: r["conv_s"]) if good else runs[0]
        rows.append((n, row))
        if "failure" in row:
            print(f"{n:>8} blocks  {row['failure']}")
        else:
            print(f"{n:>8} blocks  load {row['load_s']:7.2f} s  convert {row['conv_s']:7.2f} s"
                  f"  ok {'yes' if row['ok'] else 'NO'}")
    timed = [(n, r) for n, r in rows if "failure" not in r]
    for (a, ra), (b, rb) in itertools.pairwise(timed):
        print(f"{a} -> {b} blocks: convert time x{rb['conv_s'] / ra['conv_s']:.1f} "
              f"(x{b / a:.0f} blocks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
