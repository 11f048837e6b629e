"""``urdf-sdf graph``'s images are written as every output is: a picture Graphviz draws is
taken from its standard output and written to a regular file atomically, to a device,
FIFO, descriptor or standard output directly (Graphviz never opens the destination:
``-o graph.png`` linked to ``/dev/fd/5 5>>log`` appends to log, as DOT text does)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import TIMEOUT, graphviz_dot, written_at_each_destination

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "samples" / "pendulum.urdf"


def graph_to(destination: str, fds: tuple[int, ...]) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "urdf_sdf.cli", "urdf-sdf", "graph", str(SAMPLE), "-o",
               destination]
    return subprocess.run(command, capture_output=True, pass_fds=fds, timeout=TIMEOUT,
                          check=False)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"),
                                           (".dot", b"digraph")])
def test_graph_is_written_at_every_kind_of_destination(tmp_path, suffix, magic):
    if suffix != ".dot":
        graphviz_dot()
    got = written_at_each_destination(graph_to, tmp_path, f"graph{suffix}", through_link=True)
    picture = got.pop("file")
    assert picture.startswith(magic)
    assert got.pop("appended") == b"before\n" + picture
    assert got == dict.fromkeys(["pipe", "fifo", "stdout", "link"], picture)
