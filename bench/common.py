"""What the benchmark scripts share: the generated models (:class:`Family`, written by
``generate.py`` and ``generate_urdf.py``), running one measurement in its own subprocess
(:func:`run_worker`), and the frame of the library benchmarks (``bench_frames.py``,
``bench_urdf2sdf.py``: :func:`library_parser`, :func:`generated`, :func:`measured`,
:func:`fastest`, :func:`traced`, :func:`report`).

The library benchmarks time the library's functions in-process, as a program that imports
``urdf_sdf`` (a ROS node, a notebook) runs them: Python's cycle collector on, since the
library leaves the process alone. The console scripts turn it off for their short-lived
process (``urdf_sdf/cli/process.py``); ``bench_all.py`` times them as users run them.
Turning the collector off here would give a figure neither kind of user sees."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"


DEFAULT_SIZES = (1000, 10000, 100000)


@dataclass(frozen=True)
class Family:
    """The models one generator script writes (``generate.py``: SDFormat, ``generate_urdf.py``:
    URDF): the text of each kind for ``n`` links (deterministic), as ``KIND_N.SUFFIX``."""
    description: str
    generators: dict[str, Callable[[int], str]]
    suffix: str
    sizes: tuple[int, ...] = DEFAULT_SIZES

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self.generators)

    def path_for(self, out_dir: Path, kind: str, n: int) -> Path:
        return out_dir / f"{kind}_{n}.{self.suffix}"

    def generate(self, out_dir: Path, kinds=None, sizes=None) -> list[Path]:
        """Write every (kind, size) model into ``out_dir`` (atomically; by default every
        kind at the default sizes); returns the paths, kind-major."""
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = []
        for kind in kinds or self.kinds:
            for n in sizes or self.sizes:
                path = self.path_for(out_dir, kind, n)
                tmp = path.with_suffix(f".{self.suffix}.tmp")
                tmp.write_text(self.generators[kind](n), encoding="utf-8")
                tmp.replace(path)
                paths.append(path)
        return paths

    def main(self, argv=None) -> int:
        """The generator script's command line: --sizes, --kinds, --out."""
        parser = argparse.ArgumentParser(description=self.description)
        parser.add_argument("--sizes", type=int, nargs="+", default=list(self.sizes))
        parser.add_argument("--kinds", nargs="+", choices=self.kinds, default=list(self.kinds))
        parser.add_argument("--out", type=Path, default=OUT)
        args = parser.parse_args(argv)
        if any(n < 1 for n in args.sizes):
            parser.error("sizes must be >= 1")
        for path in self.generate(args.out, args.kinds, args.sizes):
            print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
        return 0


def run_worker(cmd: list[str], timeout: float) -> dict:
    """Run one measurement subprocess; its last stdout line is a JSON object."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"failure": f"timeout after {timeout:g} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"failure": f"exit {proc.returncode}: {tail[:160]}"}
    return json.loads(lines[-1])


def mb(value_bytes: float) -> str:
    return f"{value_bytes / 1e6:8.1f}"


MEASURED = ("in-process library calls, Python's cycle collector on (as a program importing "
            "urdf_sdf runs them; the console scripts run with it off: bench_all.py)")


def library_parser(description: str, family: Family) -> argparse.ArgumentParser:
    """The command line of a library benchmark over ``family``'s models: what to measure
    (--sizes, --kinds, --repeat, --timeout, --no-memory, --out, --json) and, hidden, the
    worker's (--worker FILE, --mode time|memory)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(family.sizes))
    parser.add_argument("--kinds", nargs="+", choices=family.kinds, default=list(family.kinds))
    parser.add_argument("--repeat", type=int, default=1, help="timing runs per file (min kept)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per timing run")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON here")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=("time", "memory"), default="time",
                        help=argparse.SUPPRESS)
    return parser


def generated(script: str, family: Family, out_dir: Path, kinds, sizes) -> list[Path]:
    """``family``'s models written by ``bench/SCRIPT`` into ``out_dir``; their paths,
    kind-major. In a subprocess: a child's ru_maxrss starts from its parent's peak
    (fork/vfork share the parent's memory until exec), so this process must stay small."""
    print(f"generating into {out_dir} ...", file=sys.stderr)
    subprocess.run([sys.executable, str(Path(__file__).resolve().parent / script), "--out",
                    str(out_dir), "--kinds", *kinds, "--sizes", *map(str, sizes)],
                   check=True, stdout=subprocess.DEVNULL)
    return [family.path_for(out_dir, kind, n) for kind in kinds for n in sizes]


def measured(mode: str, stages: tuple[str, str], first: Callable[[], Any],
             second: Callable[[Any], Any]) -> tuple[dict, Any, Any]:
    """In a worker: ``first()``, then ``second`` of its result, measured. Returns the
    columns (the wall time of each, named by ``stages``, and ``total_s``; the peak resident
    set before and after, ``rss_base_kb`` and ``rss_kb``; with ``mode`` ``memory``, the
    ``tracemalloc`` peak of both, ``traced_peak_bytes``) and the two results."""
    import resource
    import tracemalloc

    rss_base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if mode == "memory":
        tracemalloc.start()
    t0 = time.perf_counter()
    result = first()
    t1 = time.perf_counter()
    then = second(result)
    t2 = time.perf_counter()
    columns = {stages[0]: t1 - t0, stages[1]: t2 - t1, "total_s": t2 - t0,
               "rss_base_kb": rss_base,
               "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}
    if mode == "memory":
        columns["traced_peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return columns, result, then


def fastest(runs: list[dict]) -> dict:
    """The timing run that took the least ``total_s`` of those that did not fail, with the
    highest peak resident set of them; ``{"failure": ...}`` (the first's) when all failed."""
    good = [r for r in runs if "failure" not in r]
    if not good:
        return {"failure": runs[0]["failure"]}
    return {**min(good, key=lambda r: r["total_s"]), "rss_kb": max(r["rss_kb"] for r in good)}


def traced(run: dict) -> dict:
    """A row's columns from its ``tracemalloc`` run: the peak, and why the run failed when
    it did."""
    columns = {"traced_peak_bytes": run.get("traced_peak_bytes")}
    if "failure" in run:
        columns["memory_failure"] = run["failure"]
    return columns


def report(rows: list[dict], print_table: Callable[[list[dict]], None],
           json_path: Path | None) -> None:
    """The machine, what was measured (:data:`MEASURED`), the table; the rows as JSON at
    ``json_path`` too."""
    print(f"python {sys.version.split()[0]} on {os.uname().machine}, {os.cpu_count()} CPUs; "
          f"{MEASURED}")
    print_table(rows)
    if json_path:
        json_path.write_text(json.dumps(rows, indent=1))
