#!/usr/bin/env python3
"""Generate URDF benchmark robots of N links for ``urdf2sdf``.

Two shapes, both N links in all:

- ``chain``: a revolute chain (an arm with N joints). ``link_i`` hangs from the previous
  chain link by the revolute ``joint_i`` with a small random ``<origin>``. Every 50th link
  is instead a massless leaf on a fixed joint (a tool frame, which urdf2sdf turns into a
  ``//frame``) and the chain carries on from the link before it. Depth is about N.
- ``wide``: a 4-ary tree. ``link_i`` (i >= 1) hangs from ``link_{(i-1)//4}``; its joint is
  revolute, or every 7th continuous, every 11th prismatic, every 13th fixed (with mass).
  Every 10th leaf of the tree (a link without children) is a massless fixed leaf, the
  rest carry mass. Depth is about log4(N).

Every link but the massless leaves has an ``<inertial>`` (with an origin) and a
``<visual>`` (box, cylinder, sphere or mesh, some with a material), every other one a
``<collision>`` too. Origins hold random xyz and rpy. Output is deterministic for a seed.
Usage::

    python bench/generate_urdf.py --sizes 1000 10000 100000 --out bench/out
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (bench/common.py)

LEAF_EVERY = {"chain": 50, "wide": 10}


def _num(rng: random.Random, lo: float, hi: float) -> str:
    return f"{rng.uniform(lo, hi):.6g}"


def _origin(rng: random.Random, reach: float, turn: float) -> str:
    xyz = " ".join(_num(rng, -reach, reach) for _ in range(3))
    rpy = " ".join(_num(rng, -turn, turn) for _ in range(3))
    return f'<origin xyz="{xyz}" rpy="{rpy}"/>'


def _geometry(i: int) -> str:
    shape = i % 4
    if shape == 0:
        return '<geometry><box size="0.1 0.05 0.02"/></geometry>'
    if shape == 1:
        return '<geometry><cylinder radius="0.02" length="0.1"/></geometry>'
    if shape == 2:
        return '<geometry><sphere radius="0.03"/></geometry>'
    return ('<geometry><mesh filename="package://bench_robot/meshes/part.stl" '
            'scale="0.001 0.001 0.001"/></geometry>')


def _link(rng: random.Random, i: int, massless_leaf: bool) -> str:
    if massless_leaf:
        return f'  <link name="link_{i}"/>\n'
    material = '<material name="grey"/>' if i % 3 == 0 else ""
    collision = (f"<collision>{_origin(rng, 0.05, 0.0)}{_geometry(i + 1)}</collision>"
                 if i % 2 == 0 else "")
    return (f'  <link name="link_{i}"><inertial>{_origin(rng, 0.05, 0.0)}'
            f'<mass value="{_num(rng, 0.5, 2.0)}"/><inertia ixx="0.01" ixy="0" ixz="0" '
            'iyy="0.01" iyz="0" izz="0.01"/></inertial>'
            f"<visual>{_origin(rng, 0.05, 0.5)}{_geometry(i)}{material}</visual>"
            f"{collision}</link>\n")


def _joint(rng: random.Random, i: int, kind: str, parent: int, origin: str) -> str:
    axis = "" if kind == "fixed" else '<axis xyz="0 0 1"/>'
    limit = ""
    if kind in ("revolute", "prismatic"):
        limit = '<limit lower="-1.57" upper="1.57" effort="10" velocity="1"/>'
    elif kind == "continuous":
        limit = '<limit effort="10" velocity="1"/>'
    dynamics = '<dynamics damping="0.1" friction="0.01"/>' if kind != "fixed" else ""
    return (f'  <joint name="joint_{i}" type="{kind}">{origin}<parent link="link_{parent}"/>'
            f'<child link="link_{i}"/>{axis}{limit}{dynamics}</joint>\n')


def _head(name: str) -> list[str]:
    return ['<?xml version="1.0"?>\n', f'<robot name="{name}">\n',
            '  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>\n']


def chain(n: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    out = _head(f"chain_{n}") + [_link(rng, 0, False)]
    joints = []
    last = 0  # the last link of the chain proper (not a leaf)
    for i in range(1, n):
        if i % LEAF_EVERY["chain"] == 0:
            out.append(_link(rng, i, True))
            joints.append(_joint(rng, i, "fixed", last, _origin(rng, 0.1, 3.14)))
            continue
        out.append(_link(rng, i, False))
        # Small steps and turns keep the arm's reach modest over 100,000 links.
        origin = (f'<origin xyz="0.01 {_num(rng, -0.001, 0.001)} 0" '
                  f'rpy="{_num(rng, -0.01, 0.01)} {_num(rng, -0.01, 0.01)} '
                  f'{_num(rng, -0.01, 0.01)}"/>')
        joints.append(_joint(rng, i, "revolute", last, origin))
        last = i
    return "".join(out + joints + ["</robot>\n"])


def wide(n: int, seed: int = 4) -> str:
    rng = random.Random(seed)
    out = _head(f"wide_{n}")
    joints = []
    leaves = 0
    for i in range(n):
        is_leaf = 4 * i + 1 >= n  # no link_{4i+1}: no child
        massless = False
        if i > 0 and is_leaf:
            leaves += 1
            massless = leaves % LEAF_EVERY["wide"] == 0
        out.append(_link(rng, i, massless))
        if i == 0:
            continue
        kind = ("fixed" if massless or i % 13 == 0 else "prismatic" if i % 11 == 0
                else "continuous" if i % 7 == 0 else "revolute")
        joints.append(_joint(rng, i, kind, (i - 1) // 4, _origin(rng, 0.5, 3.14)))
    return "".join(out + joints + ["</robot>\n"])


MODELS = common.Family(__doc__.split("\n\n")[0], {"chain": chain, "wide": wide}, "urdf")
KINDS, DEFAULT_SIZES = MODELS.kinds, MODELS.sizes
generate, path_for = MODELS.generate, MODELS.path_for

if __name__ == "__main__":
    raise SystemExit(MODELS.main())
