"""The page's controls: the joint slider (plotly animation frames, one per joint
position, :mod:`.motion`), the joint picker (a dropdown showing one joint's slider) and
the show/hide buttons.

Frames resend the traces that move, so their number is bounded by :data:`MOTION_POINTS`
(points resent over all frames): the joints nearest the root first, the others left
out of the picker (the page's title says how many).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseTraceType

from urdf_sdf.core.base.pose import Pose
from urdf_sdf.view.motion import Motion, joint_motion, movable_joints
from urdf_sdf.view.scene import Scene, Side

MOTION_POINTS = 250_000     # points resent by all slider frames together, at most
GROUPS = ("visuals", "collisions", "frames", "names")  # what the show/hide buttons toggle


class SideTraces(Protocol):
    """What the slider needs of the traces of one side (``page._SideTraces``)."""
    side: Side
    per_link: bool  # one mesh trace per link (else one for all: every step resends it)

    def dynamic(self, moved: dict[str, Pose],
                links: frozenset[str]) -> list[tuple[int, BaseTraceType]]: ...


def motion_controls(scene: Scene, builders: Sequence[SideTraces]
                    ) -> tuple[list[go.Frame], list[dict[str, object]], str]:
    """Animation frames and one slider per joint (shown by the joint picker), within
    :data:`MOTION_POINTS`; and a note naming how many joints were left out."""
    names: list[str] = []
    for side in scene.sides:
        names += [j.name for j in movable_joints(side) if j.name not in names]
    frames: list[go.Frame] = []
    sliders: list[dict[str, object]] = []
    spent = 0
    for name in names:
        steps: list[dict[str, object]] = []
        per_side: list[Motion | None] = []
        for builder in builders:
            joint = next((j for j in builder.side.joints if j.name == name and j.movable), None)
            per_side.append(joint_motion(builder.side, joint) if joint is not None else None)
        motion = next(m for m in per_side if m is not None)
        cost = len(motion.values) * sum(_step_points(b, m) for b, m in zip(builders, per_side))
        if spent + cost > MOTION_POINTS:
            break
        spent += cost
        for k, value in enumerate(motion.values):
            data: list[BaseTraceType] = []
            indices: list[int] = []
            for builder, own in zip(builders, per_side):
                moved: dict[str, Pose] = \
                    {link: own.transforms[k] for link in own.links} if own else {}
                for index, trace in builder.dynamic(moved, own.links if own else frozenset()):
                    indices.append(index)
                    data.append(_listed(trace))
            frame_name = f"{name}|{k}"
            frames.append(go.Frame(name=frame_name, data=data, traces=indices))
            steps.append({"label": f"{value:.3g}", "method": "animate",
                          "args": [[frame_name], {"mode": "immediate", "frame": {
                              "duration": 0, "redraw": True}, "transition": {"duration": 0}}]})
        rest = min(range(len(motion.values)), key=lambda i: abs(motion.values[i]))
        sliders.append({"active": rest, "steps": steps, "visible": not sliders,
                        "currentvalue": {"prefix": f"{name} = "}, "pad": {"t": 10},
                        "x": 0.05, "len": 0.9, "name": name})
    left_out = len(names) - len(sliders)
    note = f"slider: {left_out} of {len(names)} joints left out to keep the page small" \
        if left_out else ""
    return frames, sliders, note


def _listed(trace: BaseTraceType) -> BaseTraceType:
    """``trace`` with its coordinates as lists (millimetre-rounded, None for a gap):
    plotly.js decodes the binary arrays plotly.py writes for numpy in a figure's data but
    not in its animation frames, where they would stop the animation."""
    for name in ("x", "y", "z", "u", "v", "w"):
        value = trace[name] if name in trace else None
        if isinstance(value, np.ndarray):
            rounded = np.round(value.astype(float), 4)
            trace[name] = [None if v != v else v for v in rounded.tolist()]
    return trace


def _step_points(builder: SideTraces, motion: Motion | None) -> int:
    """Points a slider step of ``motion`` resends for one side."""
    moved: frozenset[str] = frozenset() if motion is None else motion.links
    side = builder.side
    points = sum(len(s.vertices) for s in side.shapes
                 if s.missing is None and (not builder.per_link or s.link in moved))
    return points + 12 * len(side.frames) + 8 * len(side.joints)


def menus(groups: dict[str, list[int]],
          sliders: list[dict[str, object]]) -> list[dict[str, object]]:
    """The joint picker (when there are sliders) and the show/hide buttons."""
    found: list[dict[str, object]] = []
    if sliders:
        found.append({"type": "dropdown", "x": 0.01, "y": 0.99, "xanchor": "left",
                      "yanchor": "top", "showactive": True, "active": 0,
                      "buttons": [{"label": s["name"], "method": "relayout",
                                   "args": [{f"sliders[{i}].visible": i == k
                                             for i in range(len(sliders))}]}
                                  for k, s in enumerate(sliders)]})
    shown_first = {"visuals": True, "collisions": False, "frames": True, "names": False}
    for n, group in enumerate(GROUPS):
        indices = groups[group]
        if not indices:
            continue
        on, off = [{"visible": True}, indices], [{"visible": False}, indices]
        found.append({"type": "buttons", "x": 0.25 + 0.11 * n, "y": 0.99, "xanchor": "left",
                      "yanchor": "top", "showactive": True, "active": -1,
                      "buttons": [{"label": f"{group} on/off", "method": "restyle",
                                   "args": off if shown_first[group] else on,
                                   "args2": on if shown_first[group] else off}]})
    return found
