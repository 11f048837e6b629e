"""urdf-sdf core: read SDFormat and URDF into one frame graph, validate it, resolve poses.

Public API::

    from core import load, frames_report, Context
    result = load("robot.sdf")          # never raises on bad input
    result.ok, result.diagnostics       # validity and coded diagnostics
    result.graph.pose("link", "__model__")
    frames_report(result)               # the JSON of `urdf-sdf frames --json`
"""
from core.context import Context
from core.diagnostics import Code, Diagnostic, Severity
from core.loader import LoadResult, load, load_string
from core.report import frames_report

__all__ = ["Code", "Context", "Diagnostic", "LoadResult", "Severity", "frames_report",
           "load", "load_string"]
