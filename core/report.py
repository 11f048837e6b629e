"""The frames report: every entity's pose relative to the root, as plain JSON data."""
from __future__ import annotations

from urdf_sdf.core.graph import Kind, root_pose

SECTIONS = {Kind.LINK: "links", Kind.JOINT: "joints", Kind.FRAME: "frames", Kind.MODEL: "models"}


def frames_report(result) -> dict:
    """``{"ok", "diagnostics", "links", "joints", "frames", "models"}`` as in the
    conformance README; poses are ``[x, y, z, qw, qx, qy, qz]``."""
    report = {"ok": result.ok,
              "diagnostics": [d.to_json() for d in result.diagnostics],
              "links": {}, "joints": {}, "frames": {}, "models": {}}
    graph = result.graph
    if graph is None or graph.root is None:
        return report
    for vertex in graph.vertices:
        section = SECTIONS.get(vertex.kind)
        if section is None or vertex.scope is None:
            continue
        pose = root_pose(graph, vertex.id)
        if pose is not None:
            report[section][vertex.scoped_name] = pose.as_list()
    return report
