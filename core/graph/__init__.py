"""The frame graph: build (names, edges), validate (cycles, links), resolve (poses), check
that the resolved poses are finite numbers."""
from urdf_sdf.core.graph.build import build_graph
from urdf_sdf.core.graph.finite import report_non_finite
from urdf_sdf.core.graph.frame_graph import FrameGraph, Kind, Scope, Vertex
from urdf_sdf.core.graph.resolve import local_pose, relative_pose, root_pose
from urdf_sdf.core.graph.validate import validate_graph

__all__ = ["FrameGraph", "Kind", "Scope", "Vertex", "build_graph", "local_pose",
           "relative_pose", "report_non_finite", "root_pose", "validate_graph"]
