#!/usr/bin/env python3
"""Benchmark every command, as a user runs it, against two floors.

For the generated URDF robots (``generate_urdf.py``: ``chain`` and ``wide``, 1,000 and
10,000 links; 100,000 with ``--large``), each command runs in its own subprocess and is
measured by ``os.wait4``: CPU time (user + sys, the process and the children it waited
for) and peak resident memory (``ru_maxrss``), the run of three (``--runs``) that took the
least CPU (other work on a shared machine only ever adds to it), the commands and the
floors of a robot taking turns, one run of each per round:

- ``urdf2sdf FILE.urdf -o FILE.sdf`` (and with ``--relative``), ``sdf2urdf FILE.sdf -o
  back.urdf``, ``urdf-sdf check [--physics] FILE.urdf``, ``urdf-sdf print|frames --json|graph
  FILE.sdf``, ``urdf-sdf diff FILE.urdf FILE.sdf``;
- the lxml floor: lxml's own parse and write of the same input file, in a subprocess
  (``x lxml``: how many times that CPU time the command takes);
- libsdformat 12 (``build/sdf_reference`` loading the same input; ``x sdformat``), when
  built; a size where it takes over 60 s is skipped;
- ``growth``: the CPU time over the same command's at the previous size (x10 links: about
  x10 means linear).

Then the small-file row (``samples/pendulum.urdf``, and ``urdf2sdf --version``: wall and
CPU time, the median of 20 runs taking turns, against libsdformat's wall time; run with
Python's bytecode cache, as an installed package is), and the batch speed-up: 200 small
files (copies of ``samples/*.urdf``, 1.7-11 kB) converted by ``urdf2sdf DIR -o OUT -j 2``
against ``-j 1`` (wall time, the median of 3 runs taking turns), the same for 200 robots
the size of the real-world corpus's median one (:data:`MEDIAN_ROBOT_LINKS`), and for 20
files of 1,000 links. The speed-ups are
bounded by the one two CPU-bound processes get on the machine at the time (measured last)
and by the command's start-up (``urdf2sdf`` on an empty folder), which no worker shares:
each row gives the bound the two make (Amdahl's law).

    python bench/bench_all.py                 # 1k and 10k links, a few minutes
    python bench/bench_all.py --large         # also 100k links (tens of minutes)
    python bench/bench_all.py --json results.json
    python bench/bench_all.py --no-sizes      # the small-file and batch rows only
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
# The links of the median robot of ../shared/realworld's corpus: among its 1,197 URDF
# files, the 120 of five links or more (the rest are single objects of pybullet's, 0.9 kB
# at the median) have 21.5 links at the median (11 and 43 at the quartiles) and 22 kB.
MEDIAN_ROBOT_LINKS = 22


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


def least_cpu(measured: list[dict]) -> dict:
    """The run (:func:`measure_rusage`) that took the least CPU: on a shared machine
    other work only ever adds to a command's time."""
    finished = [m for m in measured if "cpu" in m]
    return min(finished, key=lambda m: m["cpu"]) if finished else measured[0]


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
            "check --physics": ([main, "check", "--physics", str(urdf)], urdf),
            "print": ([main, "print", str(sdf), "-o", str(scratch / "printed.sdf")], sdf),
            "frames": ([main, "frames", "--json", str(sdf)], sdf),
            "graph": ([main, "graph", str(sdf), "-o", str(scratch / "graph.dot")], sdf),
            "diff": ([main, "diff", str(urdf), str(sdf)], urdf)}


def taking_turns(lines: dict[str, tuple[list[str], Path]], scratch: Path, timeout: float,
                 runs: int) -> tuple[dict[str, dict], dict[Path, dict]]:
    """Each command's least-CPU run, and each input's floors (lxml: its least-CPU run;
    libsdformat: once), from ``runs`` rounds in each of which every command and every
    lxml floor runs once, in turn: a slow spell of a shared machine then weighs on one run
    of several commands, which the other rounds make up for, rather than on every run of
    one command."""
    sources = list(dict.fromkeys(source for _, source in lines.values()))
    measured: dict[str, list[dict]] = {name: [] for name in lines}
    lxml: dict[Path, list[dict]] = {source: [] for source in sources}
    for _ in range(runs):
        for name, (cmd, _) in lines.items():
            measured[name].append(measure_rusage(cmd, timeout))
        for source in sources:  # after the commands: the first writes the SDF
            lxml[source].append(measure_rusage([sys.executable, "-c", LXML_FLOOR, str(source),
                                                str(scratch / "lxml.out")], timeout))
    floor = {}
    for source in sources:
        reference = {}
        if REFERENCE.exists():
            reference = measure_rusage([str(REFERENCE), str(source)], REFERENCE_LIMIT_S)
        floor[source] = {"lxml": least_cpu(lxml[source]).get("cpu"),
                         "sdformat": reference.get("cpu")}
    return {name: least_cpu(runs_of) for name, runs_of in measured.items()}, floor


def run_sizes(kinds, sizes, out_dir: Path, timeout: float, runs: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        for kind in kinds:
            previous: dict[str, float] = {}
            for n in sizes:
                [urdf] = generate_urdf.generate(out_dir, [kind], [n])
                sdf = scratch / f"{kind}_{n}.sdf"
                lines = commands(urdf, sdf, scratch)
                results, floors = taking_turns(lines, scratch, timeout, runs)
                for name, (_, source) in lines.items():
                    result = results[name]
                    row = {"kind": kind, "links": n, "command": name, **result,
                           **floors[source]}
                    if "cpu" in result and name in previous:
                        row["growth"] = result["cpu"] / previous[name]
                    previous[name] = result.get("cpu", float("nan"))
                    rows.append(row)
                    print_row(row, flush=True)
    return rows


def command_env() -> dict:
    """The environment of the measured commands, with Python's bytecode cache on as in an
    installed package: PYTHONDONTWRITEBYTECODE (set in some shells and CI images) would
    make every run compile every module, most of a small file's time."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure_short(cmd: list[str]) -> dict:
    """Wall and CPU seconds (user + sys) of a short command, reaped by a blocking
    ``os.wait4``: no polling step in a 50 ms wall time."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=common.ROOT, env=command_env())
    _, status, usage = os.wait4(proc.pid, 0)
    return {"wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
            "code": os.waitstatus_to_exitcode(status)}


def small_file(repeat: int, timeout: float) -> list[dict]:
    """Wall and CPU time on samples/pendulum.urdf (the median of ``repeat`` runs, every
    command and libsdformat taking turns, so that other work on the machine weighs on
    each alike), and ``urdf2sdf --version``; libsdformat's wall time for the ratio."""
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        sdf = scratch / "pendulum.sdf"
        lines = {name: cmd for name, (cmd, _) in commands(SMALL, sdf, scratch).items()}
        lines["--version"] = [tool("urdf2sdf"), "--version"]
        if REFERENCE.exists():
            lines["sdformat"] = [str(REFERENCE), str(SMALL)]
        for cmd in lines.values():  # the SDF the others read; the bytecode caches
            measure_short(cmd)
        runs: dict[str, list[dict]] = {name: [] for name in lines}
        for _ in range(repeat):
            for name, cmd in lines.items():
                runs[name].append(measure_short(cmd))
    medians = {name: {key: statistics.median(run[key] for run in measured)
                      for key in ("wall", "cpu")} for name, measured in runs.items()}
    reference = medians.pop("sdformat", {}).get("wall")
    return [{"command": name, **median, "sdformat_wall": reference}
            for name, median in medians.items()]


def batch_speedup(files: int, timeout: float, samples: list[Path] | None = None,
                  repeat: int = 3) -> dict:
    """Wall time of ``urdf2sdf TREE -o OUT -j 1`` and ``-j 2`` on ``files`` URDF files
    (copies of ``samples``, by default the small ones of samples/), the median of
    ``repeat`` runs taking turns."""
    samples = samples or sorted((common.ROOT / "samples").glob("*.urdf"))
    with tempfile.TemporaryDirectory() as scratch_name:
        tree = Path(scratch_name) / "tree"
        for i in range(files):
            folder = tree / f"d{i % 10}"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(samples[i % len(samples)], folder / f"robot_{i}.urdf")
        empty = Path(scratch_name) / "empty"
        empty.mkdir()
        runs: dict[int, list[dict]] = {0: [], 1: [], 2: []}
        for turn in range(repeat):
            for jobs in ((0, 1, 2) if turn % 2 == 0 else (2, 1, 0)):
                out = Path(scratch_name) / f"out{jobs}"
                shutil.rmtree(out, ignore_errors=True)
                source = tree if jobs else empty  # 0: the start-up alone
                cmd = [tool("urdf2sdf"), str(source), "-o", str(out), "-j", str(jobs or 1),
                       "-q"]
                runs[jobs].append(measure_short(cmd))
    result = {"files": files}
    for jobs, measured in runs.items():
        result[f"jobs{jobs}"] = {key: statistics.median(run[key] for run in measured)
                                 for key in ("wall", "cpu")}
    result["startup"] = result.pop("jobs0")["wall"]
    result["speedup"] = result["jobs1"]["wall"] / result["jobs2"]["wall"]
    return result


def speedup_bound(batch: dict, ceiling: float) -> float:
    """The most ``-j 2`` can gain over ``-j 1`` when all but the start-up (the command on
    an empty folder, which no worker shares) runs ``ceiling`` times faster (Amdahl)."""
    serial, whole = batch["startup"], batch["jobs1"]["wall"]
    return whole / (serial + (whole - serial) / ceiling)


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


def print_batch(what: str, batch: dict, ceiling: float) -> None:
    print(f"batch of {what}, wall s: jobs=1 {batch['jobs1']['wall']:.2f}, jobs=2 "
          f"{batch['jobs2']['wall']:.2f}: speed-up x{batch['speedup']:.2f} (start-up "
          f"{batch['startup']:.3f} s; Amdahl at the ceiling below: "
          f"x{speedup_bound(batch, ceiling):.2f})")


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
    parser.add_argument("--no-sizes", action="store_true",
                        help="only the small-file and batch rows")
    parser.add_argument("--kinds", nargs="+", choices=generate_urdf.KINDS,
                        default=list(generate_urdf.KINDS))
    parser.add_argument("--repeat", type=int, default=20, help="runs of the small-file row")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each command and floor of the size rows (the least CPU "
                             "is kept)")
    parser.add_argument("--batch-files", type=int, default=BATCH_FILES)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per command")
    parser.add_argument("--out", type=Path, default=common.OUT)
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    args = parser.parse_args(argv)
    sizes = [1000, 10000] + ([100000] if args.large else [])
    print(machine())
    print_header()
    rows = [] if args.no_sizes else run_sizes(args.kinds, sizes, args.out, args.timeout,
                                              args.runs)
    small = small_file(args.repeat, args.timeout)
    print(f"\nsmall file ({SMALL.relative_to(common.ROOT)}), median of {args.repeat}:")
    for row in small:
        reference = row["sdformat_wall"]
        versus = f"  x{row['wall'] / reference:.1f} libsdformat ({reference:.3f} s)" \
            if reference else ""
        print(f"  {row['command']:<13}{row['wall']:7.3f} s wall{row['cpu']:7.3f} s cpu{versus}")
    print()
    batch = batch_speedup(args.batch_files, args.timeout)
    [median_robot] = generate_urdf.generate(args.out, ["wide"], [MEDIAN_ROBOT_LINKS])
    robots = batch_speedup(args.batch_files, args.timeout, [median_robot])
    [robot] = generate_urdf.generate(args.out, ["wide"], [1000])
    large = batch_speedup(BATCH_FILES // 10, args.timeout, [robot])
    ceiling = parallel_ceiling()
    print_batch(f"{batch['files']} small files", batch, ceiling)
    print_batch(f"{robots['files']} robots of {MEDIAN_ROBOT_LINKS} links "
                f"({median_robot.stat().st_size / 1000:.0f} kB)", robots, ceiling)
    print_batch(f"{large['files']} files of 1,000 links", large, ceiling)
    print(f"(two CPU-bound processes get x{ceiling:.2f} on this machine now; Amdahl: that "
          "speed-up on all but the start-up)")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "sizes": rows, "small": small,
                                         "batch": batch, "batch_robots": robots,
                                         "batch_large": large,
                                         "parallel_ceiling": ceiling}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
