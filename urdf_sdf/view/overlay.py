"""The scene of ``urdf-sdf view A B``: both descriptions overlaid in two colours, and
one highlight per difference ``urdf-sdf diff`` reports
(:func:`urdf_sdf.core.diff.compare.diff_results`,
the same call with the same arguments, so the page shows exactly what the command
prints).

The highlights are :class:`~urdf_sdf.view.scene.Highlight` values (the scene's plain
data). The second description is aligned on the first as ``urdf-sdf diff`` compares them: at
the first root link of A that B also has (else at the two model frames).
"""
from __future__ import annotations

import math

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.base.pose import IDENTITY, Pose, quat_mul
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.core.diff.difference import Difference
from urdf_sdf.core.loader import LoadResult
from urdf_sdf.view.scene import Highlight, Scene, Side, build_side

COLOURS = ("#1f77b4", "#ff7f0e")  # A blue, B orange
HIGHLIGHT_COLOUR = "#d62728"


def diff_scene(a: LoadResult, b: LoadResult, labels: tuple[str, str], tol: float = 1e-9,
               configurations: int = 20, seed: int = 0,
               context: Context | None = None) -> Scene:
    """The overlay of two loaded, valid descriptions."""
    diagnostics = Diagnostics()
    side_a = build_side(a, labels[0], context or a.context or Context(), diagnostics)
    side_b = build_side(b, labels[1], context or b.context or Context(), diagnostics)
    side_b = side_b.moved(alignment(side_a, side_b))
    side_a.colour, side_b.colour = COLOURS
    differences = diff_results(a, b, tol, configurations, seed)
    return Scene([side_a, side_b], [highlight(d, side_a, side_b) for d in differences],
                 diagnostics)


def alignment(side_a: Side, side_b: Side) -> Pose:
    """The transform putting B's common root link on A's (``urdf-sdf diff``'s reference:
    the first root link of A that B has), else the identity."""
    for root in side_a.tree.roots:
        if root in side_b.links and root in side_a.links:
            return side_a.links[root] * side_b.links[root].inverse()
    return IDENTITY


def highlight(difference: Difference, side_a: Side, side_b: Side) -> Highlight:
    name = difference.name
    kinds = ("joint",) if difference.kind == "joints" else ("link", "frame", "joint")
    if name.startswith("joint ") and difference.kind == "pose":
        name, kinds = name[len("joint "):], ("joint",)
    pose_a, pose_b = _find(side_a, kinds, name), _find(side_b, kinds, name)
    where = pose_a or pose_b
    if where is None:
        return Highlight(difference, (0.0, 0.0, 0.0), None, None)
    if pose_a is None or pose_b is None:
        return Highlight(difference, where.position, None, None)
    return Highlight(difference, where.position, math.dist(pose_a.position, pose_b.position),
                     math.degrees(_angle(pose_a, pose_b)))


def _find(side: Side, kinds: tuple[str, ...], name: str) -> Pose | None:
    for kind in kinds:
        mark = side.frame(kind, name)
        if mark is not None:
            return mark.pose
    return None


def _angle(a: Pose, b: Pose) -> float:
    aw, ax, ay, az = a.rotation
    w, x, y, z = quat_mul((aw, -ax, -ay, -az), b.rotation)
    return 2 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))
