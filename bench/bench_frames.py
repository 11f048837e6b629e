#!/usr/bin/env python3
"""Benchmark: load + resolve every frame (``frames_report(load(path))``) on generated models.

For every model from ``generate.py`` (wide tree and deep chain, 1,000 / 10,000 / 100,000
links by default) this runs, each in its own subprocess so that peak memory is per run:

- timing runs (``--repeat``, the fastest is kept): wall time of ``load`` and of
  ``frames_report``, and ``ru_maxrss`` (peak resident set, with the interpreter's and the
  imports' baseline reported beside it);
- one ``tracemalloc`` run: peak of Python allocations during load + resolve (tracemalloc
  slows Python down, so it never shares a run with timing).

Prints a table and the 1k -> 10k (and 10k -> 100k) time ratios: about 10 means linear.

    python bench/bench_frames.py                       # everything
    python bench/bench_frames.py --sizes 1000 10000 --kinds deep --repeat 3
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402  (bench/common.py)
import generate  # noqa: E402  (bench/generate.py)


def _worker(path: str, mode: str) -> dict:
    """One measurement in this process; returns a JSON-able dict."""
    import resource

    sys.path.insert(0, str(ROOT))
    from urdf_sdf import frames_report, load

    rss_base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if mode == "memory":
        import tracemalloc

        tracemalloc.start()
    t0 = time.perf_counter()
    result = load(path)
    t1 = time.perf_counter()
    report = frames_report(result)
    t2 = time.perf_counter()
    out = {"load_s": t1 - t0, "resolve_s": t2 - t1, "total_s": t2 - t0,
           "rss_base_kb": rss_base,
           "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           "ok": bool(report.get("ok")),
           "errors": sorted({d["code"] for d in report.get("diagnostics", [])
                             if d.get("severity") == "error"})[:5],
           "counts": {k: len(report.get(k) or {}) for k in ("links", "joints", "frames")},
           "unresolved": sum(v is None for k in ("links", "joints", "frames", "models")
                             for v in (report.get(k) or {}).values())}
    if mode == "memory":
        out["traced_peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return out


def measure(path: Path, mode: str, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), "--mode", mode]
    return common.run_worker(cmd, timeout)


_mb = common.mb


def run(kinds, sizes, repeat: int, timeout: float, out_dir: Path, memory: bool) -> list[dict]:
    rows = []
    print(f"generating into {out_dir} ...", file=sys.stderr)
    # In a subprocess: a child's ru_maxrss starts from its parent's peak (fork/vfork share
    # the parent's memory until exec), so this process must stay small.
    subprocess.run([sys.executable, str(HERE / "generate.py"), "--out", str(out_dir),
                    "--kinds", *kinds, "--sizes", *map(str, sizes)],
                   check=True, stdout=subprocess.DEVNULL)
    paths = [generate.path_for(out_dir, kind, n) for kind in kinds for n in sizes]
    for path in paths:
        kind, n = path.stem.split("_")
        print(f"measuring {path.name} ...", file=sys.stderr)
        runs = [measure(path, "time", timeout) for _ in range(repeat)]
        good = [r for r in runs if "failure" not in r]
        row = {"kind": kind, "n": int(n), "file": str(path), "bytes": path.stat().st_size}
        if not good:
            row["failure"] = runs[0]["failure"]
        else:
            row.update(min(good, key=lambda r: r["total_s"]))
            row["rss_kb"] = max(r["rss_kb"] for r in good)
            if memory:
                mem = measure(path, "memory", timeout * 5)
                row["traced_peak_bytes"] = mem.get("traced_peak_bytes")
                if "failure" in mem:
                    row["memory_failure"] = mem["failure"]
        rows.append(row)
    return rows


def print_table(rows: list[dict]) -> None:
    head = (f"{'model':<14}{'links':>8}{'file MB':>9}{'ok':>4}{'load s':>9}{'resolve s':>10}"
            f"{'total s':>9}{'us/link':>9}{'traced MB':>10}{'maxrss MB':>10}{'(base)':>8}")
    print(head)
    print("-" * len(head))
    for r in rows:
        name = f"{r['kind']}_{r['n']}"
        start = f"{name:<14}{r['n']:>8}{_mb(r['bytes']):>9}"
        if "failure" in r:
            print(f"{start}  FAILED: {r['failure']}")
            continue
        traced = r.get("traced_peak_bytes")
        print(f"{start}{'yes' if r['ok'] else 'NO':>4}{r['load_s']:>9.3f}{r['resolve_s']:>10.3f}"
              f"{r['total_s']:>9.3f}{r['total_s'] / r['n'] * 1e6:>9.1f}"
              f"{_mb(traced) if traced is not None else '      -':>10}"
              f"{r['rss_kb'] / 1024:>10.1f}{r['rss_base_kb'] / 1024:>8.1f}")
        notes = []
        if not r["ok"]:
            notes.append(f"errors {r['errors']}")
        if r["unresolved"]:
            notes.append(f"{r['unresolved']} unresolved poses")
        if r.get("memory_failure"):
            notes.append(f"tracemalloc run failed: {r['memory_failure']}")
        if notes:
            print(" " * 14 + "  ! " + "; ".join(notes))
    print()
    by = {(r["kind"], r["n"]): r for r in rows if "failure" not in r}
    for kind in dict.fromkeys(r["kind"] for r in rows):
        sizes = sorted(n for k, n in by if k == kind)
        for a, b in zip(sizes, sizes[1:]):
            ta, tb = by[kind, a]["total_s"], by[kind, b]["total_s"]
            print(f"{kind}: {a} -> {b} links: time x{tb / ta:.1f} "
                  f"(load x{by[kind, b]['load_s'] / by[kind, a]['load_s']:.1f}, "
                  f"resolve x{by[kind, b]['resolve_s'] / max(by[kind, a]['resolve_s'], 1e-9):.1f})"
                  f"; links x{b / a:g}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(generate.DEFAULT_SIZES))
    parser.add_argument("--kinds", nargs="+", choices=generate.KINDS,
                        default=list(generate.KINDS))
    parser.add_argument("--repeat", type=int, default=1, help="timing runs per file (min kept)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per timing run")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=("time", "memory"), default="time",
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.worker, args.mode)))
        return 0
    rows = run(args.kinds, args.sizes, max(1, args.repeat), args.timeout, args.out,
               not args.no_memory)
    print(f"python {sys.version.split()[0]} on {os.uname().machine}, {os.cpu_count()} CPUs")
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all("failure" not in r and r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
