#!/usr/bin/env python3
"""Benchmark: URDF -> SDFormat (``convert_urdf(load(path), ToSdf(relative))``) on
generated robots.

For every robot from ``generate_urdf.py`` (revolute chain and 4-ary tree, 1,000 / 10,000 /
100,000 links by default) and both pose styles (``--relative`` and absolute), this runs,
each in its own subprocess so that peak memory is per run:

- timing runs (``--repeat``, the fastest is kept): wall time of ``load`` (read + frame
  graph + validation) and of ``convert_urdf`` (plan + build the SDF tree + serialise;
  the document's serialisation, ``Document.to_bytes``, is also timed alone), and
  ``ru_maxrss``;
- one ``tracemalloc`` run: peak of Python allocations during load + convert.

One run per robot and style also checks the result, after measuring: the conversion is
ok, the SDF loads without errors, holds N links and frames, and a sample of links has
the same pose (within 1e-9) in the URDF and in the SDF.

Prints a table and the 1k -> 10k and 10k -> 100k time ratios: about 10 means linear.
The target is the 10,000-link robot in under 1.5 s. What it times is the library called
in-process, Python's cycle collector on, as a program that imports ``urdf_sdf`` runs it
(``urdf2sdf`` turns the collector off: ``bench_all.py`` times the command; see
``common.py``); the output says so above the table.

    python bench/bench_urdf2sdf.py                     # everything, a few minutes
    python bench/bench_urdf2sdf.py --sizes 1000 10000 --kinds wide --styles relative
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402  (bench/common.py)
import generate_urdf  # noqa: E402  (bench/generate_urdf.py)

STYLES = ("relative", "absolute")
TARGET_LINKS, TARGET_S = 10000, 1.5


def _check(result, conversion, n: int) -> dict:
    """After measuring: is the SDF valid and does it keep the URDF's poses?"""
    from urdf_sdf import load_string
    from urdf_sdf.core.base.pose import pose_gap

    if not conversion.ok:
        return {"ok": False, "errors": sorted({d.code.value for d in conversion.diagnostics
                                               if d.is_error})[:5]}
    sdf = load_string(conversion.xml, "bench.sdf")
    model = sdf.document.model if sdf.document is not None else None
    count = len(model.links) + len(model.frames) if model is not None else 0
    names = [link.name for link in result.document.model.links]
    sample = names[:: max(1, len(names) // 200)] + names[-1:]
    worst = 0.0
    for name in sample:
        a, b = result.pose(name), sdf.pose(name)
        worst = max(worst, pose_gap(a, b) if a is not None and b is not None else float("inf"))
    return {"ok": sdf.ok and count == n and worst <= 1e-9,
            "errors": sorted({d.code.value for d in sdf.diagnostics if d.is_error})[:5],
            "sdf_links": len(model.links) if model is not None else 0,
            "sdf_frames": len(model.frames) if model is not None else 0,
            "pose_gap": worst}


def _worker(path: str, style: str, mode: str, check: bool) -> dict:
    """One measurement in this process; returns a JSON-able dict."""
    sys.path.insert(0, str(ROOT))
    from urdf_sdf import load
    from urdf_sdf.core.write.document import Document
    from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

    serialise = [0.0]
    to_bytes = Document.to_bytes

    def timed_to_bytes(document):  # time the document's serialisation inside convert_urdf
        t = time.perf_counter()
        try:
            return to_bytes(document)
        finally:
            serialise[0] += time.perf_counter() - t

    Document.to_bytes = timed_to_bytes
    options = ToSdf(relative=style == "relative")
    out, result, conversion = common.measured(mode, ("load_s", "convert_s"),
                                              lambda: load(path),
                                              lambda loaded: convert_urdf(loaded, options))
    out.update(serialise_s=serialise[0], out_bytes=len(conversion.xml or b""),
               warnings=sum(not d.is_error for d in conversion.diagnostics))
    if check:
        n = int(Path(path).stem.split("_")[1])
        out["check"] = _check(result, conversion, n)
    return out


def measure(path: Path, style: str, mode: str, check: bool, timeout: float) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path),
           "--style", style, "--mode", mode] + (["--check"] if check else [])
    return common.run_worker(cmd, timeout)


_mb = common.mb


def run(kinds, sizes, styles, repeat: int, timeout: float, out_dir: Path,
        memory: bool) -> list[dict]:
    rows = []
    for path in common.generated("generate_urdf.py", generate_urdf.MODELS, out_dir, kinds,
                                 sizes):
        kind, n = path.stem.split("_")
        for style in styles:
            print(f"measuring {path.name} ({style}) ...", file=sys.stderr)
            # The check runs once, after the measurements of its run: in the tracemalloc
            # run, or in the first timing run when there is none.
            runs = [measure(path, style, "time", i == 0 and not memory, timeout)
                    for i in range(repeat)]
            row = {"kind": kind, "n": int(n), "style": style, "file": str(path),
                   "bytes": path.stat().st_size, **common.fastest(runs)}
            if "failure" not in row:
                row["check"] = runs[0].get("check")
                if memory:
                    mem = measure(path, style, "memory", True, timeout * 5)
                    row.update(common.traced(mem), check=mem.get("check"))
            rows.append(row)
    return rows


def print_table(rows: list[dict]) -> None:
    head = (f"{'robot':<13}{'style':<9}{'links':>7}{'in MB':>7}{'out MB':>7}{'ok':>4}"
            f"{'load s':>8}{'conv s':>8}{'(ser s)':>8}{'total s':>8}{'us/link':>8}"
            f"{'traced MB':>10}{'maxrss MB':>10}{'(base)':>7}")
    print(head)
    print("-" * len(head))
    for r in rows:
        start = f"{r['kind'] + '_' + str(r['n']):<13}{r['style']:<9}{r['n']:>7}" \
                f"{r['bytes'] / 1e6:>7.1f}"
        if "failure" in r:
            print(f"{start}  FAILED: {r['failure']}")
            continue
        check = r.get("check") or {}
        ok = "yes" if check.get("ok") else "NO" if check else "-"
        traced = r.get("traced_peak_bytes")
        print(f"{start}{r['out_bytes'] / 1e6:>7.1f}{ok:>4}{r['load_s']:>8.3f}"
              f"{r['convert_s']:>8.3f}{r['serialise_s']:>8.3f}{r['total_s']:>8.3f}"
              f"{r['total_s'] / r['n'] * 1e6:>8.1f}"
              f"{_mb(traced) if traced is not None else '      -':>10}"
              f"{r['rss_kb'] / 1024:>10.1f}{r['rss_base_kb'] / 1024:>7.1f}")
        notes = []
        if check and not check.get("ok"):
            notes.append(f"check: errors {check.get('errors')}, links {check.get('sdf_links')}"
                         f" + frames {check.get('sdf_frames')}, pose gap "
                         f"{check.get('pose_gap')}")
        if r.get("memory_failure"):
            notes.append(f"tracemalloc run failed: {r['memory_failure']}")
        if notes:
            print(" " * 13 + "  ! " + "; ".join(notes))
    print()
    by = {(r["kind"], r["style"], r["n"]): r for r in rows if "failure" not in r}
    for kind, style in dict.fromkeys((r["kind"], r["style"]) for r in rows):
        sizes = sorted(n for k, s, n in by if (k, s) == (kind, style))
        for a, b in zip(sizes, sizes[1:]):
            ra, rb = by[kind, style, a], by[kind, style, b]
            print(f"{kind} {style}: {a} -> {b} links: time x{rb['total_s'] / ra['total_s']:.1f}"
                  f" (load x{rb['load_s'] / ra['load_s']:.1f}, "
                  f"convert x{rb['convert_s'] / ra['convert_s']:.1f}); links x{b / a:g}")
    for (kind, style, n), r in by.items():
        if n == TARGET_LINKS:
            verdict = "met" if r["total_s"] < TARGET_S else "MISSED"
            print(f"target {TARGET_LINKS} links < {TARGET_S} s: {kind} {style} "
                  f"{r['total_s']:.2f} s, {verdict}")


def main(argv=None) -> int:
    parser = common.library_parser(__doc__.split("\n\n")[0], generate_urdf.MODELS)
    parser.add_argument("--styles", nargs="+", choices=STYLES, default=list(STYLES))
    parser.add_argument("--style", choices=STYLES, default="relative", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.worker, args.style, args.mode, args.check)))
        return 0
    rows = run(args.kinds, args.sizes, args.styles, max(1, args.repeat), args.timeout,
               args.out, not args.no_memory)
    common.report(rows, print_table, args.json)
    ok = all("failure" not in r and (r.get("check") or {}).get("ok") for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
