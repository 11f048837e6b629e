#!/usr/bin/env python3
"""Generate SDFormat 1.9 benchmark models of N links.

Two shapes:

- ``wide``: a 4-ary tree, as a URDF converted to SDF looks. Link ``link_i`` (i >= 1) hangs
  from ``link_{(i-1)//4}`` by the revolute joint ``joint_i``, whose pose is given
  ``relative_to`` the parent link; the child link's pose is ``relative_to`` its joint.
  Every 10th link carries a ``//frame`` attached to it, and every 20th link a second
  frame posed ``relative_to`` that frame. Depth is about log4(N).
- ``deep``: a chain whose ``relative_to`` graph is N deep. ``link_i``'s pose is
  ``relative_to="link_{i-1}"``, ``joint_i`` joins ``link_{i-1}`` to ``link_i`` (pose
  relative to its child, the default), and a frame ``tip`` sits on the last link.

Output is deterministic for a given seed. Usage::

    python bench/generate.py --sizes 1000 10000 100000 --out bench/out
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (bench/common.py)


def _num(rng: random.Random, lo: float, hi: float) -> str:
    return f"{rng.uniform(lo, hi):.6g}"


def _pose(rng: random.Random, reach: float, turn: float) -> str:
    return " ".join([_num(rng, -reach, reach) for _ in range(3)]
                    + [_num(rng, -turn, turn) for _ in range(3)])


def _inertial(rng: random.Random) -> str:
    return ("<inertial><pose>" + _pose(rng, 0.05, 0.0) + "</pose><mass>1</mass>"
            "<inertia><ixx>0.01</ixx><ixy>0</ixy><ixz>0</ixz><iyy>0.01</iyy><iyz>0</iyz>"
            "<izz>0.01</izz></inertia></inertial>")


def _revolute(name: str, parent: str, child: str, pose: str | None) -> str:
    pose_xml = f'<pose relative_to="{parent}">{pose}</pose>' if pose is not None else ""
    return (f'    <joint name="{name}" type="revolute">{pose_xml}<parent>{parent}</parent>'
            f"<child>{child}</child><axis><xyz>0 0 1</xyz><limit><lower>-1.57</lower>"
            "<upper>1.57</upper><effort>10</effort><velocity>1</velocity></limit></axis>"
            "</joint>\n")


def wide_tree(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    out = ['<?xml version="1.0"?>\n<sdf version="1.9">\n',
           f'  <model name="wide_{n}">\n',
           f"    <link name=\"link_0\">{_inertial(rng)}</link>\n"]
    frames = []
    for i in range(1, n):
        parent = f"link_{(i - 1) // 4}"
        out.append(_revolute(f"joint_{i}", parent, f"link_{i}", _pose(rng, 0.5, 3.14)))
        out.append(f'    <link name="link_{i}"><pose relative_to="joint_{i}">0 0 0 0 0 0</pose>'
                   f"{_inertial(rng)}</link>\n")
        if i % 10 == 0:
            frames.append(f'    <frame name="frame_{i}" attached_to="link_{i}">'
                          f"<pose>{_pose(rng, 0.2, 1.0)}</pose></frame>\n")
        if i % 20 == 0:
            frames.append(f'    <frame name="tool_{i}" attached_to="frame_{i}">'
                          f'<pose relative_to="frame_{i}">{_pose(rng, 0.1, 0.5)}</pose></frame>\n')
    out += frames
    out.append("  </model>\n</sdf>\n")
    return "".join(out)


def deep_chain(n: int, seed: int = 2) -> str:
    rng = random.Random(seed)
    out = ['<?xml version="1.0"?>\n<sdf version="1.9">\n',
           f'  <model name="deep_{n}">\n',
           f"    <link name=\"link_0\">{_inertial(rng)}</link>\n"]
    for i in range(1, n):
        # Small turns keep the chain's reach modest over 100,000 steps.
        out.append(f'    <link name="link_{i}"><pose relative_to="link_{i - 1}">'
                   f"0.01 {_num(rng, -0.001, 0.001)} 0 {_num(rng, -0.01, 0.01)} "
                   f"{_num(rng, -0.01, 0.01)} {_num(rng, -0.01, 0.01)}</pose>"
                   f"{_inertial(rng)}</link>\n")
        out.append(_revolute(f"joint_{i}", f"link_{i - 1}", f"link_{i}", None))
    out.append(f'    <frame name="tip" attached_to="link_{n - 1}"><pose>0 0 0.1 0 0 0</pose>'
               "</frame>\n")
    out.append("  </model>\n</sdf>\n")
    return "".join(out)


MODELS = common.Family(__doc__.split("\n\n")[0], {"wide": wide_tree, "deep": deep_chain}, "sdf")
KINDS, DEFAULT_SIZES = MODELS.kinds, MODELS.sizes
generate, path_for = MODELS.generate, MODELS.path_for

if __name__ == "__main__":
    raise SystemExit(MODELS.main())
