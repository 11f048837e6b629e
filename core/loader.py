"""Load a robot description file into a validated, resolvable frame graph (every frame's
pose a finite number: ``core.graph.finite``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Policy
from urdf_sdf.core.base.model import MODEL_FRAME, WORLD, Document
from urdf_sdf.core.base.pose import Pose, rotate
from urdf_sdf.core.compose.include import read_include
from urdf_sdf.core.compose.interface import call_repostures
from urdf_sdf.core.graph import (
    FrameGraph,
    build_graph,
    relative_pose,
    report_non_finite,
    root_pose,
    validate_graph,
)
from urdf_sdf.core.read.sdf import read_sdf_root
from urdf_sdf.core.read.urdf import bytes_free_of_xacro, read_urdf_root
from urdf_sdf.core.read.xmlio import decoded_head, parse_xml, read_bytes


@dataclass
class LoadResult:
    document: Document | None
    graph: FrameGraph | None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    # The policy the file was loaded under; conversions of this result apply it too.
    policy: Policy = field(default_factory=Policy)
    # The context it was loaded with: its search paths resolve its meshes too.
    context: Context | None = None

    @property
    def ok(self) -> bool:
        return self.document is not None and not self.diagnostics.has_errors

    @property
    def source_files(self) -> set[str]:
        """The files the model was read from: the file and every file it includes (by
        where its frames were read), as written; none for standard input."""
        graph = self.graph
        files = {v.source.file for v in graph.vertices} if graph is not None else set()
        if self.document is not None:
            files.add(self.document.file)
        return {file for file in files if file is not None}

    def pose(self, frame: str, relative_to: str = "") -> Pose | None:
        """Pose of ``frame`` relative to ``relative_to`` (scoped names from the root;
        ``""`` is the root frame: the top model's frame or the world)."""
        graph = self.graph
        if graph is None or graph.root is None:
            return None
        target = self._vertex(graph, frame)
        base = self._vertex(graph, relative_to)
        if target is None or base is None:
            return None
        if base == graph.root.owner.id:
            return root_pose(graph, target)  # memoised: resolving every frame is O(n)
        return relative_pose(graph, target, base)

    def attached_link(self, frame: str) -> str | None:
        """Scoped name of the link ``frame`` is attached to (``world`` for a frame fixed
        to the world, a static model's name for a frame of a static model)."""
        graph = self.graph
        if graph is None:
            return None
        vid = self._vertex(graph, frame)
        if vid is None:
            return None
        sink = graph.attached_link.get(vid)
        if sink is None:
            return None
        return graph.vertices[sink].scoped_name

    def axis_in_joint_frame(self, joint: str, index: int = 0) -> tuple[float, float, float] | None:
        """Unit axis ``index`` (0 for axis, 1 for axis2) of ``joint``, expressed in the
        joint frame whatever its ``expressed_in`` (or legacy parent-model-frame) says."""
        graph = self.graph
        if graph is None:
            return None
        vid = self._vertex(graph, joint)
        if vid is None:
            return None
        vertex = graph.vertices[vid]
        axes = getattr(vertex.element, "axes", [])
        if index >= len(axes):
            return None
        axis = axes[index]
        if axis.expressed_in is None:
            return axis.xyz
        frame = graph.lookup_axis_frame(vertex.scope, axis.expressed_in) \
            if vertex.scope is not None else None
        if frame is None:
            return None
        pose = relative_pose(graph, frame, vid)
        if pose is None:
            return None
        return rotate(pose.rotation, axis.xyz)

    def pose_in_link(self, link: str, spec) -> Pose | None:
        """A pose written inside link ``link`` (inertial, visual, collision...): relative
        to the link, or to the frame its ``relative_to`` names in the link's scope."""
        if spec.relative_to is None:
            return spec.value
        graph = self.graph
        if graph is None:
            return None
        vid = self._vertex(graph, link)
        if vid is None:
            return None
        scope = graph.vertices[vid].scope
        frame = graph.lookup(scope, spec.relative_to) if scope is not None else None
        if frame is None:
            return None
        base = relative_pose(graph, frame, vid)
        return None if base is None else base * spec.value

    @staticmethod
    def _vertex(graph: FrameGraph, name: str) -> int | None:
        """The vertex ``name`` (a scoped name; ``""``, ``__model__`` or ``world``: the root
        frame) names in ``graph``."""
        if name in ("", MODEL_FRAME, WORLD) and graph.root is not None:
            if name == "" or (name == WORLD) == graph.root.is_world:
                return graph.root.owner.id
        vertex = graph.find(name)
        return vertex.id if vertex is not None else None


def sniff_format(data: bytes) -> str:
    """``"urdf"`` or ``"sdf"``, from the decoded head (a UTF-16 URDF is a URDF too)."""
    head = decoded_head(data, 4096)
    return "urdf" if "<robot" in head and "<sdf" not in head else "sdf"


def load(path: str | Path, context: Context | None = None) -> LoadResult:
    """Read, build, validate. Never raises on bad input: problems are diagnostics."""
    context = context if context is not None else Context.from_environment()
    diagnostics = Diagnostics()
    data = read_bytes(path, diagnostics, within=context.inputs_within)
    if data is None:
        return LoadResult(None, None, diagnostics, context.policy)
    parsed = _parse(data, str(path), diagnostics)
    del data  # the file's bytes are as large as a tenth of its tree: not kept while reading
    return _load_parsed(parsed, str(path), context, diagnostics)


def load_string(text: str | bytes, file: str | None = None,
                context: Context | None = None) -> LoadResult:
    context = context if context is not None else Context()
    data = text.encode("utf-8") if isinstance(text, str) else text
    diagnostics = Diagnostics()
    parsed = _parse(data, file, diagnostics)
    return _load_parsed(parsed, file, context, diagnostics)


def _parse(data: bytes, file: str | None,
           diagnostics: Diagnostics) -> tuple[str, object, bool]:
    """``(format, root element, whether a URDF's bytes hold no xacro markup)``; the root is
    None when the file is not XML."""
    file_format = sniff_format(data)
    xacro_free = file_format == "urdf" and bytes_free_of_xacro(data)
    return file_format, parse_xml(data, file, diagnostics), xacro_free


def _load_parsed(parsed: tuple[str, object, bool], file: str | None, context: Context,
                 diagnostics: Diagnostics) -> LoadResult:
    result = _read_and_build(parsed, file, context, diagnostics)
    result.diagnostics = context.policy.apply(result.diagnostics)
    result.policy = context.policy
    result.context = context
    return result


def _includes_cut_short(diagnostics: Diagnostics) -> bool:
    """Whether an include bomb was stopped (INCLUDE_TOO_LARGE): the model read is a
    fragment, whose graph would only add findings about what is missing."""
    return any(d.code is Code.INCLUDE_TOO_LARGE for d in diagnostics)


def _read_and_build(parsed: tuple[str, object, bool], file: str | None, context: Context,
                    diagnostics: Diagnostics) -> LoadResult:
    file_format, root, xacro_free = parsed
    document = None
    if root is not None and file_format == "urdf":
        document = read_urdf_root(root, file, diagnostics, context.keep_xml, xacro_free)
    elif root is not None:
        document = read_sdf_root(root, file, context, diagnostics, include_reader=read_include)
    if document is None or _includes_cut_short(diagnostics):
        if not diagnostics.has_errors:
            diagnostics.error(Code.FILE_READ, "unable to read the file", file)
        return LoadResult(None, None, diagnostics)
    graph = build_graph(document, diagnostics)
    validate_graph(graph, diagnostics)
    report_non_finite(graph, diagnostics)
    result = LoadResult(document, graph, diagnostics)
    if context.model_parsers and result.ok:
        call_repostures(result)
    return result
