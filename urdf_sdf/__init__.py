"""urdf-sdf: convert robot descriptions between URDF and SDFormat on one frame-graph core.

The public Python API::

    import urdf_sdf

    sdf = urdf_sdf.to_sdf("robot.urdf", relative=True)            # .ok, .xml, .diagnostics
    urdf = urdf_sdf.to_urdf("robot.sdf")                          # .ok, .xml, .diagnostics
    urdf_sdf.diff("robot.urdf", "robot.sdf")                      # [] when equivalent
    urdf_sdf.check("robot.sdf", meshes=True).ok                   # as `urdf-sdf check`
    sdf.report.verdict                            # what it changed, as `urdf2sdf --report`

    result = urdf_sdf.load("robot.sdf")           # never raises on bad input
    result.ok, result.diagnostics                 # validity and coded diagnostics
    result.pose("tip", "base")                    # any frame relative to any other
    urdf_sdf.frames_report(result)                # the JSON of `urdf-sdf frames --json`
    urdf_sdf.convert_urdf(result, urdf_sdf.ToSdf(relative=True))   # .ok, .xml
    urdf_sdf.convert_sdf(result, urdf_sdf.ToUrdf())                # .ok, .xml
    urdf_sdf.diff_files("robot.urdf", "robot.sdf")                 # [] when equivalent
    urdf_sdf.check_parity(result).holds
    urdf_sdf.json_schema("diff")                  # the schema of `urdf-sdf diff --json`

The implementation lives in the subpackages ``urdf_sdf.core`` (the library: read,
compose, graph, write and the analyses), ``urdf_sdf.urdf2sdf`` and ``urdf_sdf.sdf2urdf``
(the converters); the command line is ``urdf_sdf.cli`` and ``view`` is ``urdf_sdf.view``.
In the source tree, ``urdf_sdf/core``, ``urdf_sdf/urdf2sdf`` and ``urdf_sdf/sdf2urdf`` are
links to the top-level folders, so a checkout imports its own code. Names are imported when first
used (PEP 562), so that
``import urdf_sdf`` and the command lines stay quick: a command imports only what it
runs.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

# Public name -> (module, attribute): the whole API, in one table.
_API = {
    "Context": ("urdf_sdf.core.base.context", "Context"),
    "Code": ("urdf_sdf.core.base.diagnostics", "Code"),
    "Diagnostic": ("urdf_sdf.core.base.diagnostics", "Diagnostic"),
    "Diagnostics": ("urdf_sdf.core.base.diagnostics", "Diagnostics"),
    "Severity": ("urdf_sdf.core.base.diagnostics", "Severity"),
    "Policy": ("urdf_sdf.core.base.diagnostics", "Policy"),
    "LoadResult": ("urdf_sdf.core.loader", "LoadResult"),
    "load": ("urdf_sdf.core.loader", "load"),
    "load_string": ("urdf_sdf.core.loader", "load_string"),
    "frames_report": ("urdf_sdf.core.inspect.report", "frames_report"),
    "check_parity": ("urdf_sdf.core.inspect.parity", "check_parity"),
    "diff_files": ("urdf_sdf.core.diff.compare", "diff_files"),
    "diff_results": ("urdf_sdf.core.diff.compare", "diff_results"),
    "convert_urdf": ("urdf_sdf.urdf2sdf.convert", "convert_urdf"),
    "ToSdf": ("urdf_sdf.urdf2sdf.convert", "ToSdf"),
    "convert_sdf": ("urdf_sdf.sdf2urdf.convert", "convert_sdf"),
    "ToUrdf": ("urdf_sdf.sdf2urdf.convert", "ToUrdf"),
    "to_sdf": ("urdf_sdf.api", "to_sdf"),
    "to_urdf": ("urdf_sdf.api", "to_urdf"),
    "diff": ("urdf_sdf.api", "diff"),
    "check": ("urdf_sdf.api", "check"),
    "CheckReport": ("urdf_sdf.api", "CheckReport"),
    "ConversionReport": ("urdf_sdf.core.inspect.conversion_report", "ConversionReport"),
    "Verdict": ("urdf_sdf.core.inspect.conversion_report", "Verdict"),
    "Difference": ("urdf_sdf.core.diff.compare", "Difference"),
    "json_schema": ("urdf_sdf.json_schemas", "json_schema"),
    "round_trip": ("urdf_sdf.round_trip_check", "round_trip"),
    "assert_equivalent": ("urdf_sdf.testing", "assert_equivalent"),
    "assert_round_trip": ("urdf_sdf.testing", "assert_round_trip"),
}

__all__ = ["__version__", *sorted(_API)]


def __getattr__(name: str):
    try:
        module, attribute = _API[name]
    except KeyError:
        raise AttributeError(f"module 'urdf_sdf' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
