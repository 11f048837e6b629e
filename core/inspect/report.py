"""The frames report: every entity's pose relative to the root, as plain JSON data.

A pose that is not a finite number (``core.graph.finite`` reports it when the file is
loaded) is left out: JSON has no NaN or infinity."""
from __future__ import annotations

from urdf_sdf.core.graph import Kind, relative_pose, root_pose

SECTIONS = {Kind.LINK: "links", Kind.JOINT: "joints", Kind.FRAME: "frames", Kind.MODEL: "models"}


def frames_report(result, model: str | None = None) -> dict:
    """``{"ok", "diagnostics", "links", "joints", "frames", "models"}`` as in the
    conformance README; poses are ``[x, y, z, qw, qx, qy, qz]``. With ``model`` (the
    scoped name of a model, e.g. one of a world's), only that model's entities, named
    within it and posed relative to its frame."""
    report = {"ok": result.ok,
              "diagnostics": [d.to_json() for d in result.diagnostics],
              "links": {}, "joints": {}, "frames": {}, "models": {}}
    graph = result.graph
    if graph is None or graph.root is None:
        return report
    base = model_vertex(graph, model) if model is not None else None
    prefix = f"{model}::" if model is not None else ""
    for vertex in graph.vertices:
        section = SECTIONS.get(vertex.kind)
        if section is None or vertex.scope is None or not vertex.scoped_name.startswith(prefix):
            continue
        if base is not None and vertex.id == base:
            continue
        pose = root_pose(graph, vertex.id) if base is None else \
            relative_pose(graph, vertex.id, base)
        if pose is not None and pose.is_finite():  # else NUMBER_NOT_FINITE says why
            report[section][vertex.scoped_name[len(prefix):]] = pose.as_list()
    return report


def model_vertex(graph, name: str) -> int | None:
    """The vertex of the model with scoped name ``name``, or None."""
    vertex = graph.find(name)
    return vertex.id if vertex is not None and vertex.kind is Kind.MODEL else None
