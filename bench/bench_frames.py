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
What it times is the library called in-process, Python's cycle collector on, as a program
that imports ``urdf_sdf`` runs it (the console scripts turn the collector off:
``bench_all.py`` times them; see ``common.py``); the output says so above the table.

    python bench/bench_frames.py                       # everything
    python bench/bench_frames.py --sizes 1000 10000 --kinds deep --repeat 3
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402  (bench/common.py)
import generate  # noqa: E402  (bench/generate.py)


def _worker(path: str, mode: str) -> dict:
    """One measurement in this process; returns a JSON-able dict."""
    sys.path.insert(0, str(ROOT))
    from urdf_sdf import frames_report, load

    out, _, report = common.measured(mode, ("load_s", "resolve_s"), lambda: load(path),
                                     frames_report)
    out.update(
        ok=bool(report.get("ok")),
        errors=sorted({d["code"] for d in report.get("diagnostics", [])
                       if d.get("severity") == "error"})[:5],
        counts={k: len(report.get(k) or {}) for k in ("links", "joints", "frames")},
        unresolved=sum(v is None for k in ("links", "joints", "frames", "models")
                       for v in (report.get(k) or {}).values()))
    return out


def measure(path: Path, mode: str, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), "--mode", mode]
    return common.run_worker(cmd, timeout)


_mb = common.mb


def run(kinds, sizes, repeat: int, timeout: float, out_dir: Path, memory: bool) -> list[dict]:
    rows = []
    for path in common.generated("generate.py", generate.MODELS, out_dir, kinds, sizes):
        kind, n = path.stem.split("_")
        print(f"measuring {path.name} ...", file=sys.stderr)
        row = {"kind": kind, "n": int(n), "file": str(path), "bytes": path.stat().st_size,
               **common.fastest([measure(path, "time", timeout) for _ in range(repeat)])}
        if "failure" not in row and memory:
            row.update(common.traced(measure(path, "memory", timeout * 5)))
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
    args = common.library_parser(__doc__.split("\n\n")[0], generate.MODELS).parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.worker, args.mode)))
        return 0
    rows = run(args.kinds, args.sizes, max(1, args.repeat), args.timeout, args.out,
               not args.no_memory)
    common.report(rows, print_table, args.json)
    return 0 if all("failure" not in r and r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
