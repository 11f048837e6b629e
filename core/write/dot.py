"""Graphviz DOT for the frame graphs and the kinematic tree (``urdf-sdf graph``).

* :func:`frame_graph_dot`: one node per frame (world, model, link, joint, frame),
  styled per kind, with its ``attached_to`` edges, its ``relative_to`` edges (labelled
  with the edge's pose as ``x y z roll pitch yaw``, 4 significant digits), or both;
  nested models are clusters. Invalid files draw too: the nodes of a broken chain
  (a cycle, a dangling reference) get a red border, which is what one wants to see.
* :func:`kinematic_tree_dot`: links (and the world) joined by joints, parent to child.

Rendering (Graphviz's ``dot`` program, output files) is the command line's:
``urdf_sdf.cli.graph``.

Output is deterministic: the same input gives the same bytes (nodes in document
order, edges in vertex order, node identifiers ``v<vertex id>``), so goldens work.
Names are quoted and escaped, so any name (``::``, quotes, backslashes) is safe.
"""
from __future__ import annotations

import enum
import math

from urdf_sdf.core.base.model import MODEL_FRAME, WORLD
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.graph.frame_graph import FrameGraph, Kind, Scope, Vertex
from urdf_sdf.core.graph.resolve import edge_pose
from urdf_sdf.core.kinematics.tree import build_tree


class GraphKind(str, enum.Enum):
    """What ``urdf-sdf graph --kind`` draws."""

    attached_to = "attached_to"
    relative_to = "relative_to"
    both = "both"
    tree = "tree"


FRAME_GRAPHS = ("attached_to", "relative_to", "both")

# Shape and fill colour per kind.
NODE_STYLE = {
    Kind.WORLD: ("doubleoctagon", "#d9d9d9"),
    Kind.MODEL: ("tab", "#fce5cd"),
    Kind.LINK: ("box", "#cfe2f3"),
    Kind.JOINT: ("hexagon", "#d9ead3"),
    Kind.FRAME: ("ellipse", "#fff2cc"),
}
EDGE_STYLE = {
    "attached_to": 'color="#1f4e79", fontcolor="#1f4e79"',
    "relative_to": 'color="#7f6000", fontcolor="#7f6000", style=dashed',
}
CLUSTER_STYLE = 'style="rounded,dashed", color="#b45f06", fontcolor="#b45f06"'
BROKEN_STYLE = 'color="#cc0000", penwidth=2'
FONT = "Helvetica"


# ---- DOT text ------------------------------------------------------------------------

def quote(text: str) -> str:
    """``text`` as a DOT double-quoted string that Graphviz shows verbatim.

    Quotes and backslashes are escaped (a backslash would otherwise start an escape
    such as ``\\N`` or ``\\l`` in labels), and line breaks become ``\\n``.
    """
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"')
               .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))
    return f'"{escaped}"'


def label(*lines: str) -> str:
    """A quoted multi-line label: each line escaped, joined with DOT's ``\\n``."""
    return '"' + "\\n".join(quote(line)[1:-1] for line in lines) + '"'


def format_number(value: float) -> str:
    """4 significant digits; rounding noise below 1e-12 and ``-0`` print as ``0``."""
    if not math.isfinite(value):
        return str(value)
    if abs(value) < 1e-12:
        return "0"
    return format(value, ".4g")


def format_pose(pose: Pose) -> str:
    """``x y z roll pitch yaw`` with 4 significant digits (an angle of -pi prints as pi,
    the same angle, so that rounding noise cannot flip its sign)."""
    angles = [math.pi if abs(abs(a) - math.pi) < 1e-9 else a for a in pose.rpy()]
    return " ".join(format_number(v) for v in (*pose.position, *angles))


def _header(name: str, title: str, rankdir: str) -> list[str]:
    return [
        f"digraph {quote(name)} {{",
        f'  graph [rankdir={rankdir}, fontname="{FONT}", labelloc=t, label={quote(title)}];',
        f'  node [style=filled, fontname="{FONT}", fontsize=11];',
        f'  edge [fontname="{FONT}", fontsize=9];',
    ]


def _node_id(vid: int) -> str:
    return f"v{vid}"


# ---- frame graphs --------------------------------------------------------------------

def frame_graph_dot(result, which: str = "both") -> str:
    """The attached_to graph, the relative_to graph, or both (``which``), of a loaded
    file (a ``core.loader.LoadResult``, valid or not) as DOT text."""
    which = GraphKind(which).value if isinstance(which, GraphKind) else which
    if which not in FRAME_GRAPHS:
        raise ValueError(f"which must be one of {', '.join(FRAME_GRAPHS)}, not {which!r}")
    graph: FrameGraph | None = getattr(result, "graph", None)
    if graph is None or graph.root is None:
        raise ValueError("the file has no frame graph to draw (it could not be read)")
    show_attached = which in ("attached_to", "both")
    show_relative = which in ("relative_to", "both")
    broken: set[int] = set()
    if show_attached:
        broken |= graph.attached_broken
    if show_relative:
        broken |= graph.relative_broken

    root = graph.root.owner
    what = {"attached_to": "attached_to graph", "relative_to": "relative_to graph",
            "both": "attached_to and relative_to graphs"}[which]
    lines = _header("frame_graph", f"{what} of {_root_title(root)}", "BT")
    emitted: set[int] = set()
    lines.append("  " + _frame_node(root, broken))
    emitted.add(root.id)
    _frame_scope(graph, graph.root, broken, emitted, lines, "  ")
    for vertex in graph.vertices:  # never expected: a vertex outside every scope
        if vertex.id not in emitted:
            lines.append("  " + _frame_node(vertex, broken))
    for vertex in graph.vertices:
        if show_attached and vertex.attached_to is not None:
            lines.append(f"  {_node_id(vertex.id)} -> {_node_id(vertex.attached_to)} "
                         f"[label={label('attached_to')}, {EDGE_STYLE['attached_to']}];")
        if show_relative and vertex.relative_to is not None and vertex.scope is not None:
            lines.append(f"  {_node_id(vertex.id)} -> {_node_id(vertex.relative_to)} "
                         f"[label={label(*_relative_label(graph, vertex))}, "
                         f"{EDGE_STYLE['relative_to']}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _root_title(root: Vertex) -> str:
    if root.kind is Kind.WORLD:
        return f"world [{getattr(root.element, 'name', '')}]"
    return f"model [{root.name}]"


def _frame_scope(graph: FrameGraph, scope: Scope, broken: set[int], emitted: set[int],
                 lines: list[str], indent: str) -> None:
    for vid in scope.vertices:
        vertex = graph.vertices[vid]
        emitted.add(vid)
        if vertex.kind is Kind.MODEL and vertex.inner is not None:
            lines.append(f"{indent}subgraph {quote('cluster_' + _node_id(vid))} {{")
            # rankdir=BT turns the cluster upside down: "b" puts its label on top.
            lines.append(f"{indent}  graph [label={quote('model ' + vertex.scoped_name)}, "
                         f"labelloc=b, {CLUSTER_STYLE}];")
            lines.append(f"{indent}  " + _frame_node(vertex, broken))
            _frame_scope(graph, vertex.inner, broken, emitted, lines, indent + "  ")
            lines.append(f"{indent}}}")
        else:
            lines.append(indent + _frame_node(vertex, broken))


def _frame_node(vertex: Vertex, broken: set[int]) -> str:
    shape, fill = NODE_STYLE[vertex.kind]
    if vertex.kind is Kind.MODEL:
        kind = "static model" if vertex.static else "model"
    elif vertex.kind is Kind.JOINT:
        kind = f"{getattr(vertex.element, 'type', '') or '?'} joint"
    else:
        kind = vertex.kind.value
    tooltip = vertex.scoped_name or MODEL_FRAME
    attributes = [f"label={label(vertex.name, f'({kind})')}", f"shape={shape}",
                  f'fillcolor="{fill}"', f"tooltip={quote(tooltip)}"]
    if vertex.id in broken:
        attributes.append(BROKEN_STYLE)
    return f"{_node_id(vertex.id)} [{', '.join(attributes)}];"


def _relative_label(graph: FrameGraph, vertex: Vertex) -> list[str]:
    """``relative_to``, the edge's pose ``X_TV``, and a model's placement frame."""

    lines = ["relative_to"]
    placement = vertex.placement if vertex.kind is Kind.MODEL else None
    pose = edge_pose(graph, vertex.id) if placement is not None else vertex.pose
    lines.append(format_pose(pose) if pose is not None else "?")
    if placement is not None:
        lines.append(f"placement_frame {graph.vertices[placement].name}")
    return lines


# ---- kinematic tree ------------------------------------------------------------------

def kinematic_tree_dot(result) -> str:
    """The kinematic tree of a valid loaded file as DOT text: one box per link (and
    the world when a joint is fixed to it), one edge per joint from parent to child
    labelled with its name and type. Loop-closing joints are red and dashed; gearbox
    constraints are dotted."""

    graph: FrameGraph | None = getattr(result, "graph", None)
    if graph is None or graph.root is None:
        raise ValueError("the file has no frame graph to draw (it could not be read)")
    tree = build_tree(result)
    world = WORLD
    links = {v.scoped_name: v for v in graph.vertices
             if v.kind is Kind.LINK and v.scope is not None}
    ids: dict[str, str] = {name: _node_id(v.id) for name, v in links.items()}
    in_tree = set(tree.links)
    uses_world = any(j.parent == world and world not in ids for j in tree.joints) or \
        any(j.parent == world and world not in ids for j in tree.constraints)

    lines = _header("kinematic_tree", f"kinematic tree of {_root_title(graph.root.owner)}",
                    "TB")
    if uses_world:
        shape, fill = NODE_STYLE[Kind.WORLD]
        lines.append(f'  world [label={label("world", "(world)")}, shape={shape}, '
                     f'fillcolor="{fill}", tooltip="world"];')
        ids[world] = "world"
    emitted: set[str] = set()
    lines.extend(_tree_scope(graph, graph.root, in_tree, emitted, "  "))
    for name in tree.links:  # never expected: a link outside every scope
        if name not in emitted and name in links:
            lines.append("  " + _tree_node(links[name]))

    loops = {id(j) for j in tree.loop_joints()}
    for joint in tree.joints:
        if joint.parent not in ids or joint.child not in ids:
            continue
        style = ', color="#cc0000", fontcolor="#cc0000", style=dashed' \
            if id(joint) in loops else ""
        extra = ", loop" if id(joint) in loops else ""
        lines.append(f"  {ids[joint.parent]} -> {ids[joint.child]} "
                     f"[label={label(joint.name, f'({joint.type} joint{extra})')}, "
                     f"tooltip={quote(joint.name)}{style}];")
    for joint in tree.constraints:
        if joint.parent not in ids or joint.child not in ids:
            continue
        lines.append(f"  {ids[joint.parent]} -> {ids[joint.child]} "
                     f"[label={label(joint.name, f'({joint.type} constraint)')}, "
                     f"tooltip={quote(joint.name)}, style=dotted];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _tree_scope(graph: FrameGraph, scope: Scope, in_tree: set[str], emitted: set[str],
                indent: str) -> list[str]:
    """Link nodes of ``scope``, nested models as clusters (empty clusters left out)."""
    lines: list[str] = []
    for vid in scope.vertices:
        vertex = graph.vertices[vid]
        if vertex.kind is Kind.MODEL and vertex.inner is not None:
            inner = _tree_scope(graph, vertex.inner, in_tree, emitted, indent + "  ")
            if inner:
                lines.append(f"{indent}subgraph {quote('cluster_' + _node_id(vid))} {{")
                lines.append(f"{indent}  graph [label={quote('model ' + vertex.scoped_name)}, "
                             f"{CLUSTER_STYLE}];")
                lines.extend(inner)
                lines.append(f"{indent}}}")
        elif vertex.kind is Kind.LINK and vertex.scoped_name in in_tree:
            emitted.add(vertex.scoped_name)
            lines.append(indent + _tree_node(vertex))
    return lines


def _tree_node(vertex: Vertex) -> str:
    shape, fill = NODE_STYLE[Kind.LINK]
    return (f"{_node_id(vertex.id)} [label={label(vertex.name)}, shape={shape}, "
            f'fillcolor="{fill}", tooltip={quote(vertex.scoped_name)}];')
