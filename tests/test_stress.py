"""A stress test: 100,000-link robots through every command, in bounded memory.

Runs only with ``URDF_SDF_STRESS=1`` (about ten minutes on two cores). The robots are
``bench/generate_urdf.py``'s (a 100,000-link chain and a 4-ary tree, every link with an
inertial, visuals, collisions and materials; the SDF is urdf2sdf's). Each command runs
as a user runs it, in a process of its own, started by a small launcher that reports the
command's own peak resident memory (``ru_maxrss`` of the process it waited for; a
process forked from this one would count this one's memory too). The test asserts that
every command succeeds, writes a well-formed output of the expected size, and stays
under its memory bound. It times nothing: the figures (peak memory, CPU seconds) are
printed for the record (``pytest -s``), the timing belongs to ``bench/bench_all.py``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LINKS = 100_000
KINDS = ("chain", "wide")
GIGABYTE = 1024 ** 3
# The peak resident memory every command must stay under at 100,000 links (the issue's
# target). diff too: it holds one model at a time and a digest of the other (1.2-1.45 GB
# where it held both models at once, 3.2 GB); BOUNDS would name a command with its own.
BOUND = 1.5 * GIGABYTE
BOUNDS: dict[str, float] = {}

pytestmark = pytest.mark.skipif(
    os.environ.get("URDF_SDF_STRESS") != "1",
    reason="the 100,000-link stress test runs with URDF_SDF_STRESS=1 (about ten minutes)")

# Runs argv[2:] with stdout to the file argv[1] ('-': none) and prints its exit code,
# peak RSS (bytes) and CPU seconds as JSON: a fresh, small process, so that the peak
# is the command's own.
LAUNCHER = """
import json, os, resource, sys
out = os.open(sys.argv[1] if sys.argv[1] != "-" else os.devnull,
              os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
actions = [(os.POSIX_SPAWN_DUP2, out, 1),
           (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ, file_actions=actions)
_, status, usage = os.wait4(pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "rss": usage.ru_maxrss * 1024,
                  "cpu": usage.ru_utime + usage.ru_stime}))
"""


def tool(name: str) -> str:
    return str(BIN / name)


def run(args: list[str], stdout: Path | None = None) -> dict:
    """Run a command; its exit code, peak RSS in bytes and CPU seconds."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, str(stdout or "-"), *args],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def count_tags(path: Path, tags: tuple[str, ...]) -> dict[str, int]:
    """How many elements of each tag a (large) XML file has, read as a stream: the file
    must be well-formed."""
    counts = dict.fromkeys(tags, 0)
    for _, el in etree.iterparse(str(path), events=("end",), huge_tree=True):
        if el.tag in counts:
            counts[el.tag] += 1
        el.clear(keep_tail=False)
    return counts


def generated_robot(kind: str, out: Path) -> Path:
    """The URDF robot of 100,000 links of this kind, generated in ``out`` (each kind on
    its own, so that CI can run the two kinds in two processes at once)."""
    subprocess.run([sys.executable, str(REPO / "bench" / "generate_urdf.py"), "--sizes",
                    str(LINKS), "--kinds", kind, "--out", str(out)], check=True,
                   capture_output=True)
    return out / f"{kind}_{LINKS}.urdf"


def within_bound(command: str, kind: str, result: dict) -> None:
    """The command succeeded under its memory bound (its figures printed)."""
    print(f"{kind:<6}{command:<14}{result['rss'] / 2 ** 20:8.0f} MB{result['cpu']:8.1f} s cpu")
    assert result["code"] == 0, f"{command} exited {result['code']}"
    bound = BOUNDS.get(command.split()[0], BOUND)
    assert result["rss"] < bound, \
        f"{command} peaked at {result['rss'] / 2 ** 20:.0f} MB (bound {bound / 2 ** 20:.0f} MB)"


@pytest.mark.parametrize("kind", KINDS)
def test_every_command_on_100000_links(kind, tmp_path):
    urdf = generated_robot(kind, tmp_path)
    sdf, relative = tmp_path / "robot.sdf", tmp_path / "relative.sdf"
    within_bound("urdf2sdf", kind, run([tool("urdf2sdf"), str(urdf), "-o", str(sdf)]))
    within_bound("urdf2sdf -r", kind, run([tool("urdf2sdf"), str(urdf), "--relative",
                                           "-o", str(relative)]))
    for path in (sdf, relative):
        counts = count_tags(path, ("link", "joint", "frame"))
        assert counts["link"] + counts["frame"] == LINKS and counts["joint"] > 0, counts

    back = tmp_path / "back.urdf"
    within_bound("sdf2urdf", kind, run([tool("sdf2urdf"), str(sdf), "-o", str(back)]))
    assert count_tags(back, ("link",))["link"] == LINKS

    main = tool("urdf-sdf")
    for robot in (urdf, sdf):
        within_bound(f"check {robot.suffix[1:]}", kind, run([main, "check", str(robot)]))

    printed = tmp_path / "printed.sdf"
    within_bound("print", kind, run([main, "print", str(sdf), "-o", str(printed)]))
    assert printed.read_bytes() == sdf.read_bytes()  # nothing to compose: printed as is

    frames = tmp_path / "frames.json"
    within_bound("frames", kind, run([main, "frames", "--json", str(sdf)], frames))
    report = json.loads(frames.read_text())
    assert len(report["links"]) + len(report["frames"]) == LINKS

    dot = tmp_path / "graph.dot"
    within_bound("graph", kind, run([main, "graph", str(sdf), "-o", str(dot)]))
    text = dot.read_text()
    assert text.startswith("digraph") and text.rstrip().endswith("}")

    within_bound("diff", kind, run([main, "diff", str(urdf), str(sdf)]))
