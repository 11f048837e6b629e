#!/usr/bin/env python3
"""Benchmark every command, as a user runs it, against two floors.

For the generated URDF robots (``generate_urdf.py``: ``chain`` and ``wide``, 1,000 and
10,000 links; 100,000 with ``--large``), each command runs in its own subprocess and is
measured by ``os.wait4``: CPU time (user + sys, the process and the children it waited
for) and peak resident memory (``ru_maxrss``):

- ``urdf2sdf FILE.urdf -o FILE.sdf`` (and with ``--relative``), ``sdf2urdf FILE.sdf -o
  back.urdf``, ``urdf-sdf check FILE.urdf``, ``urdf-sdf print|frames --json|graph
  FILE.sdf``, ``urdf-sdf diff FILE.urdf FILE.sdf``;
- the lxml floor: lxml's own parse and write of the same input file, in a subprocess
  (``x lxml``: how many times that CPU time the command takes);
- libsdformat 12 (``build/sdf_reference`` loading the same input; ``x sdformat``), when
  built; a size where it takes over 60 s is skipped;
- ``growth``: the CPU time over the same command's at the previous size (x10 links: about
  x10 means linear).

Then the small-file row (``samples/pendulum.urdf``: wall time, the median of several runs,
against libsdformat's), and the batch speed-up: 200 small files converted by ``run_batch``
with ``jobs=2`` against ``jobs=1`` (wall time), and the same for 20 files of 1,000 links.

    python bench/bench_all.py                 # 1k and 10k links, a few minutes
    python bench/bench_all.py --large         # also 100k links (tens of minutes)
    python bench/bench_all.py --json results.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402  (bench/common.py)
import generate_urdf  # noqa: E402  (bench/generate_urdf.py)

BIN = Path(sys.executable).parent
REFERENCE = Path(os.environ.get("SDF_REFERENCE") or common.ROOT / "build" / "sdf_reference")
REFERENCE_LIMIT_S = 60.0
SMALL = common.ROOT / "samples" / "pendulum.urdf"
LXML_FLOOR = ("import sys\nfrom lxml import etree\n"
              "etree.parse(sys.argv[1]).write(sys.argv[2])")
BATCH_FILES = 200


def tool(name: str) -> str:
    """The console script next to this interpreter (the project's venv), else on PATH."""
    local = BIN / name
    return str(local) if local.exists() else (shutil.which(name) or name)


# A fresh, small process that runs the command (stdout and stderr to /dev/null) and
# prints its resource use as JSON: the command's peak RSS is then its own (a process
# started from this one, by fork or vfork, would count this one's memory in its peak).
LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
actions = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
           (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=actions)
_, status, usage = os.wait4(pid, 0)
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024,
                  "wall": time.perf_counter() - start,
                  "code": os.waitstatus_to_exitcode(status)}))
"""


def measure_rusage(cmd: list[str], timeout: float) -> dict:
    """Run ``cmd`` through :data:`LAUNCHER`: its CPU seconds (user + sys, with the
    children it waited for), peak RSS (MB), wall seconds and exit code."""
    program = cmd[0] if os.sep in cmd[0] else (shutil.which(cmd[0]) or cmd[0])
    proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, program, *cmd[1:]],
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return {"failure": f"timeout after {timeout:g} s"}
    return json.loads(out)


def commands(urdf: Path, sdf: Path, scratch: Path) -> dict[str, tuple[list[str], Path]]:
    """Each command's line and its input file (for the floors)."""
    main = tool("urdf-sdf")
    return {"urdf2sdf": ([tool("urdf2sdf"), str(urdf), "-o", str(sdf)], urdf),
            "urdf2sdf -r": ([tool("urdf2sdf"), str(urdf), "--relative",
                             "-o", str(scratch / "relative.sdf")], urdf),
            "sdf2urdf": ([tool("sdf2urdf"), str(sdf), "-o", str(scratch / "back.urdf")], sdf),
            "check": ([main, "check", str(urdf)], urdf),
            "print": ([main, "print", str(sdf), "-o", str(scratch / "printed.sdf")], sdf),
            "frames": ([main, "frames", "--json", str(sdf)], sdf),
            "graph": ([main, "graph", str(sdf), "-o", str(scratch / "graph.dot")], sdf),
            "diff": ([main, "diff", str(urdf), str(sdf)], urdf)}


def floors(path: Path, scratch: Path, timeout: float, cache: dict) -> dict:
    """The lxml and libsdformat CPU seconds on ``path`` (each measured once)."""
    if path not in cache:
        lxml = measure_rusage([sys.executable, "-c", LXML_FLOOR, str(path),
                               str(scratch / "lxml.out")], timeout)
        reference = {}
        if REFERENCE.exists():
            reference = measure_rusage([str(REFERENCE), str(path)], REFERENCE_LIMIT_S)
        cache[path] = {"lxml": lxml.get("cpu"), "sdformat": reference.get("cpu")}
    return cache[path]


def run_sizes(kinds, sizes, out_dir: Path, timeout: float) -> list[dict]:
    rows, cache = [], {}
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        for kind in kinds:
            previous: dict[str, float] = {}
            for n in sizes:
                [urdf] = generate_urdf.generate(out_dir, [kind], [n])
                sdf = scratch / f"{kind}_{n}.sdf"
                for name, (cmd, source) in commands(urdf, sdf, scratch).items():
                    result = measure_rusage(cmd, timeout)
                    floor = floors(source, scratch, timeout, cache)
                    row = {"kind": kind, "links": n, "command": name, **result, **floor}
                    if "cpu" in result and name in previous:
                        row["growth"] = result["cpu"] / previous[name]
                    previous[name] = result.get("cpu", float("nan"))
                    rows.append(row)
                    print_row(row, flush=True)
    return rows


def small_file(repeat: int, timeout: float) -> list[dict]:
    """Wall time on samples/pendulum.urdf (median of ``repeat``), and libsdformat's."""
    rows = []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        sdf = scratch / "pendulum.sdf"
        lines = commands(SMALL, sdf, scratch)
        measure_rusage(lines["urdf2sdf"][0], timeout)  # the SDF the others read
        reference = None
        if REFERENCE.exists():
            reference = statistics.median(measure_rusage([str(REFERENCE), str(SMALL)],
                                                         timeout)["wall"]
                                          for _ in range(repeat))
        for name, (cmd, _) in lines.items():
            wall = statistics.median(measure_rusage(cmd, timeout)["wall"]
                                     for _ in range(repeat))
            rows.append({"command": name, "wall": wall, "sdformat_wall": reference})
    return rows


def batch_speedup(files: int, timeout: float, samples: list[Path] | None = None) -> dict:
    """Wall time of converting ``files`` URDF files (copies of ``samples``, by default the
    small ones of samples/) with jobs=1 and jobs=2."""
    samples = samples or sorted((common.ROOT / "samples").glob("*.urdf"))
    with tempfile.TemporaryDirectory() as scratch_name:
        tree = Path(scratch_name) / "tree"
        for i in range(files):
            folder = tree / f"d{i % 10}"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(samples[i % len(samples)], folder / f"robot_{i}.urdf")
        result = {"files": files}
        for jobs in (1, 2):
            out = Path(scratch_name) / f"out{jobs}"
            cmd = [sys.executable, __file__, "--batch-worker", str(tree), str(out), str(jobs)]
            result[f"jobs{jobs}"] = measure_rusage(cmd, timeout)
        result["speedup"] = result["jobs1"]["wall"] / result["jobs2"]["wall"]
    return result


def parallel_ceiling() -> float:
    """The speed-up two CPU-bound processes get on this machine right now (2.0 on two free
    cores; less when other work shares them): what the batch speed-up can reach."""
    cmd = [sys.executable, "-c", "sum(range(4 * 10 ** 7))"]
    start = time.perf_counter()
    for _ in range(2):
        subprocess.run(cmd, check=True)
    middle = time.perf_counter()
    procs = [subprocess.Popen(cmd) for _ in range(2)]
    for proc in procs:
        proc.wait()
    return (middle - start) / (time.perf_counter() - middle)


def batch_worker(tree: str, out: str, jobs: str) -> int:
    """``urdf2sdf TREE -o OUT`` through run_batch with ``jobs`` (until the CLI has -j)."""
    from urdf_sdf.core.cli import urdf2sdf
    from urdf_sdf.core.cli.batch import FileConverter, run_batch
    from urdf_sdf.core.cli.options import short_lived_process
    from urdf_sdf.core.context import Context

    short_lived_process()
    items = urdf2sdf.discover(Path(tree), Path(out))
    convert = FileConverter(urdf2sdf.convert_file,
                            {"options": urdf2sdf.Options(), "mappings": {},
                             "context": Context()})
    return run_batch(items, Path(out), convert, prog="urdf2sdf", quiet=True, jobs=int(jobs))


def ratio(value, floor) -> str:
    return f"{value / floor:8.1f}" if value and floor else f"{'-':>8}"


def print_header() -> None:
    print(f"{'robot':<14}{'command':<13}{'cpu s':>8}{'rss MB':>8}{'x lxml':>8}"
          f"{'growth':>8}{'x sdformat':>11}")


def print_row(row: dict, flush: bool = False) -> None:
    robot = f"{row['kind']}_{row['links']}"
    if "failure" in row:
        print(f"{robot:<14}{row['command']:<13}  {row['failure']}", flush=flush)
        return
    growth = f"{row['growth']:8.1f}" if "growth" in row else f"{'':8}"
    print(f"{robot:<14}{row['command']:<13}{row['cpu']:8.2f}{row['rss_mb']:8.0f}"
          f"{ratio(row['cpu'], row['lxml'])}{growth}{ratio(row['cpu'], row['sdformat']):>11}",
          flush=flush)


def print_batch(what: str, batch: dict) -> None:
    print(f"batch of {what}, wall s: jobs=1 {batch['jobs1']['wall']:.2f}, jobs=2 "
          f"{batch['jobs2']['wall']:.2f}: speed-up x{batch['speedup']:.2f}")


def machine() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), "")
    except OSError:
        pass
    return (f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores "
            f"{model}, Python {platform.python_version()}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large", action="store_true", help="also 100,000 links")
    parser.add_argument("--kinds", nargs="+", choices=generate_urdf.KINDS,
                        default=list(generate_urdf.KINDS))
    parser.add_argument("--repeat", type=int, default=5, help="runs of the small-file row")
    parser.add_argument("--batch-files", type=int, default=BATCH_FILES)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per command")
    parser.add_argument("--out", type=Path, default=common.OUT)
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--batch-worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.batch_worker:
        return batch_worker(*args.batch_worker)
    sizes = [1000, 10000] + ([100000] if args.large else [])
    print(machine())
    print_header()
    rows = run_sizes(args.kinds, sizes, args.out, args.timeout)
    small = small_file(args.repeat, args.timeout)
    print(f"\nsmall file ({SMALL.relative_to(common.ROOT)}), wall s (median of {args.repeat}):")
    for row in small:
        reference = row["sdformat_wall"]
        versus = f"  x{row['wall'] / reference:.1f} libsdformat ({reference:.3f} s)" \
            if reference else ""
        print(f"  {row['command']:<13}{row['wall']:7.3f}{versus}")
    print()
    batch = batch_speedup(args.batch_files, args.timeout)
    print_batch(f"{batch['files']} small files", batch)
    [robot] = generate_urdf.generate(args.out, ["wide"], [1000])
    large = batch_speedup(BATCH_FILES // 10, args.timeout, [robot])
    print_batch(f"{large['files']} files of 1,000 links", large)
    ceiling = parallel_ceiling()
    print(f"(two CPU-bound processes get x{ceiling:.2f} on this machine now)")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "sizes": rows, "small": small,
                                         "batch": batch, "batch_large": large,
                                         "parallel_ceiling": ceiling}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
