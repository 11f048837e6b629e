"""Diagnostics as values.

Readers and the frame graph never raise on bad input: they append a
:class:`Diagnostic` to a :class:`Diagnostics` list and carry on where they can.
Every code of the project is a member of :class:`Code`, the one list of them: a code
names one rule, so that a finding can be filtered, counted and asserted by its code (a
warning too: a dropped frame, an approximated joint and content kept in a ``<gazebo>``
block each have their own; there is no generic warning code). Codes use libsdformat's
``sdf::ErrorCode`` names where the rule is the same, so that a diagnostic can be compared
with the reference implementation's. What each code means, its usual severity and where
it comes from is ``docs/codes.md``; that table and the JSON schemas' code lists
(``urdf_sdf/schemas``) are checked against this enum by the tests. A new code goes at the
end, in a commented group.

A diagnostic's location comes from the XML node it is about (:func:`source_of`, lxml's
``sourceline``) or from the :class:`Source` an element kept when it was read; nothing
builds a file and line by hand. Whether a warning is an error is decided by a
:class:`Policy` carried in the explicit ``Context`` (``--strict``), not by the code that
found it.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import NamedTuple

from urdf_sdf.core.base.safe_text import escape


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"


class Code(str, enum.Enum):
    """Diagnostic codes (docs/codes.md); the first group mirrors ``sdf::ErrorCode``."""

    FILE_READ = "FILE_READ"
    DUPLICATE_NAME = "DUPLICATE_NAME"
    RESERVED_NAME = "RESERVED_NAME"
    ATTRIBUTE_MISSING = "ATTRIBUTE_MISSING"
    ATTRIBUTE_INVALID = "ATTRIBUTE_INVALID"
    ATTRIBUTE_INCORRECT_TYPE = "ATTRIBUTE_INCORRECT_TYPE"
    ELEMENT_MISSING = "ELEMENT_MISSING"
    ELEMENT_INVALID = "ELEMENT_INVALID"
    ELEMENT_INCORRECT_TYPE = "ELEMENT_INCORRECT_TYPE"
    URI_INVALID = "URI_INVALID"
    URI_LOOKUP = "URI_LOOKUP"
    MODEL_CANONICAL_LINK_INVALID = "MODEL_CANONICAL_LINK_INVALID"
    MODEL_WITHOUT_LINK = "MODEL_WITHOUT_LINK"
    LINK_INERTIA_INVALID = "LINK_INERTIA_INVALID"
    JOINT_CHILD_LINK_INVALID = "JOINT_CHILD_LINK_INVALID"
    JOINT_PARENT_LINK_INVALID = "JOINT_PARENT_LINK_INVALID"
    JOINT_PARENT_SAME_AS_CHILD = "JOINT_PARENT_SAME_AS_CHILD"
    JOINT_AXIS_EXPRESSED_IN_INVALID = "JOINT_AXIS_EXPRESSED_IN_INVALID"
    FRAME_ATTACHED_TO_INVALID = "FRAME_ATTACHED_TO_INVALID"
    FRAME_ATTACHED_TO_CYCLE = "FRAME_ATTACHED_TO_CYCLE"
    FRAME_ATTACHED_TO_GRAPH_ERROR = "FRAME_ATTACHED_TO_GRAPH_ERROR"
    POSE_RELATIVE_TO_INVALID = "POSE_RELATIVE_TO_INVALID"
    POSE_RELATIVE_TO_CYCLE = "POSE_RELATIVE_TO_CYCLE"
    POSE_RELATIVE_TO_GRAPH_ERROR = "POSE_RELATIVE_TO_GRAPH_ERROR"
    MODEL_PLACEMENT_FRAME_INVALID = "MODEL_PLACEMENT_FRAME_INVALID"
    VERSION_DEPRECATED = "VERSION_DEPRECATED"
    PARSING_ERROR = "PARSING_ERROR"
    # Our own codes.
    INTERNAL_ERROR = "INTERNAL_ERROR"  # a bug of ours, never the input's fault
    XML_UNSAFE = "XML_UNSAFE"
    XML_REPAIRED = "XML_REPAIRED"  # warning: a slip every robot tool tolerates, read anyway
    VERSION_UNSUPPORTED = "VERSION_UNSUPPORTED"
    NAME_RENAMED = "NAME_RENAMED"
    INCLUDE_CYCLE = "INCLUDE_CYCLE"
    URDF_MULTIPLE_PARENTS = "URDF_MULTIPLE_PARENTS"
    URDF_MULTIPLE_ROOTS = "URDF_MULTIPLE_ROOTS"
    URDF_NO_ROOT = "URDF_NO_ROOT"
    URDF_KINEMATIC_LOOP = "URDF_KINEMATIC_LOOP"
    URDF_LIMIT_INVALID = "URDF_LIMIT_INVALID"
    URDF_MATERIAL_UNDEFINED = "URDF_MATERIAL_UNDEFINED"
    # warning: <gazebo> content SDFormat does not define where it lands, in the version
    # written (an unknown or namespaced element, one of a later version; urdf2sdf.gazebo,
    # urdf2sdf.gazebo_check); kept as <urdf:gazebo> content instead.
    GAZEBO_ELEMENT_UNDEFINED = "GAZEBO_ELEMENT_UNDEFINED"
    # Meshes (core.inspect.resources): `check --meshes`, model directories and packages.
    MESH_UNRESOLVED = "MESH_UNRESOLVED"
    MESH_UNREADABLE = "MESH_UNREADABLE"
    # Command lines (urdf_sdf.cli): xacro expansion, batch outputs.
    XACRO_UNAVAILABLE = "XACRO_UNAVAILABLE"
    XACRO_ERROR = "XACRO_ERROR"
    XACRO_NOT_EXPANDED = "XACRO_NOT_EXPANDED"  # a .urdf that still holds xacro markup
    FILE_WRITE = "FILE_WRITE"
    # `urdf-sdf view`: the optional extra is not installed; no browser for --png.
    VIEW_UNAVAILABLE = "VIEW_UNAVAILABLE"
    VIEW_SNAPSHOT_FAILED = "VIEW_SNAPSHOT_FAILED"
    # URDF parity rules (core.inspect.parity).
    URDF_PARITY_NESTED_MODEL = "URDF_PARITY_NESTED_MODEL"
    URDF_PARITY_JOINT_TYPE = "URDF_PARITY_JOINT_TYPE"
    URDF_PARITY_NOT_A_TREE = "URDF_PARITY_NOT_A_TREE"
    URDF_PARITY_JOINT_POSE = "URDF_PARITY_JOINT_POSE"
    URDF_PARITY_CHILD_LINK_POSE = "URDF_PARITY_CHILD_LINK_POSE"
    URDF_PARITY_ROOT_LINK_POSE = "URDF_PARITY_ROOT_LINK_POSE"
    URDF_PARITY_AXIS_FRAME = "URDF_PARITY_AXIS_FRAME"
    URDF_PARITY_FRAME_POSE = "URDF_PARITY_FRAME_POSE"
    # Output destinations and standard streams (urdf_sdf.cli.output, urdf_sdf.cli.streams), and
    # `urdf-sdf graph`'s outputs (urdf_sdf.cli.graph).
    OUTPUT_IS_INPUT = "OUTPUT_IS_INPUT"  # -o names the input (or the file on stdin)
    OUTPUT_INVALID = "OUTPUT_INVALID"    # -o names a directory, a block device...: usage
    MODEL_AMBIGUOUS = "MODEL_AMBIGUOUS"  # a world of several models and no --model: usage
    GRAPH_OUTPUT_INVALID = "GRAPH_OUTPUT_INVALID"
    GRAPH_FORMAT_UNKNOWN = "GRAPH_FORMAT_UNKNOWN"
    GRAPH_TREE_INVALID = "GRAPH_TREE_INVALID"  # --kind tree of a file that is not valid
    GRAPHVIZ_UNAVAILABLE = "GRAPHVIZ_UNAVAILABLE"
    GRAPHVIZ_FAILED = "GRAPHVIZ_FAILED"
    # Model directories and packages (core.write.confined, urdf_sdf.cli.directory): a mesh or
    # texture outside the input's package and the search paths given, or not a regular
    # file (a FIFO, a device, anything under /proc, /sys, /dev), is not copied; an
    # existing directory that is not our own earlier output is not replaced.
    RESOURCE_OUTSIDE_PACKAGE = "RESOURCE_OUTSIDE_PACKAGE"
    RESOURCE_NOT_REGULAR = "RESOURCE_NOT_REGULAR"
    OUTPUT_EXISTS = "OUTPUT_EXISTS"
    # Mesh files read within bounds (core.read.mesh_files): `view` draws a mesh over its cap
    # as a marker (warning), `diff` compares one over its cap by samples (warning); `view`
    # wrote no page (error, after the diagnostics saying why).
    MESH_TOO_LARGE = "MESH_TOO_LARGE"
    MESH_SAMPLED = "MESH_SAMPLED"
    VIEW_NOT_WRITTEN = "VIEW_NOT_WRITTEN"
    # xacro expansion (urdf_sdf.cli.xacro_sandbox, --xacro): an expression, substitution or
    # file access the restricted expansion refuses (a route to modules, the environment
    # or files outside the input's package).
    XACRO_UNSAFE = "XACRO_UNSAFE"
    # Numbers and sizes: a computed pose that is no finite number (large offsets whose
    # composition overflows; core.graph.finite); includes that compose a model beyond
    # the bounds of core.compose.budget.
    NUMBER_NOT_FINITE = "NUMBER_NOT_FINITE"
    INCLUDE_TOO_LARGE = "INCLUDE_TOO_LARGE"
    # Warnings of the readers (core.read, core.graph): a form other tools accept, read with
    # the meaning the message states. The first two are libsdformat's names.
    ATTRIBUTE_DEPRECATED = "ATTRIBUTE_DEPRECATED"
    ELEMENT_DEPRECATED = "ELEMENT_DEPRECATED"
    XML_RECOVERED = "XML_RECOVERED"
    WORLD_NAME_LEGACY = "WORLD_NAME_LEGACY"
    URDF_WORLD_UNDECLARED = "URDF_WORLD_UNDECLARED"
    URDF_ELEMENT_UNKNOWN = "URDF_ELEMENT_UNKNOWN"
    # Warnings of the writers (core.write): what a document needed to be written.
    NAMESPACE_PREFIX_INVALID = "NAMESPACE_PREFIX_INVALID"
    NAMESPACE_UNDECLARED = "NAMESPACE_UNDECLARED"
    MESH_URI_NOT_RELATIVE = "MESH_URI_NOT_RELATIVE"
    # Warnings of urdf2sdf: what the SDF says otherwise than the URDF, or not at all.
    LINK_MASSLESS_MOVING = "LINK_MASSLESS_MOVING"
    LINK_INERTIA_REPAIRED = "LINK_INERTIA_REPAIRED"
    GEOMETRY_KEPT_AS_CUSTOM = "GEOMETRY_KEPT_AS_CUSTOM"
    JOINT_FREE_BODY = "JOINT_FREE_BODY"
    LUMPED_CONTENT_DROPPED = "LUMPED_CONTENT_DROPPED"
    LUMPED_NAME_REFERENCED = "LUMPED_NAME_REFERENCED"
    # Warnings of urdf2sdf's <gazebo> blocks (urdf2sdf.gazebo).
    GAZEBO_TAG_MISPLACED = "GAZEBO_TAG_MISPLACED"
    GAZEBO_VALUE_INVALID = "GAZEBO_VALUE_INVALID"
    GAZEBO_VALUE_REPLACED = "GAZEBO_VALUE_REPLACED"
    GAZEBO_PLUGIN_MOVED = "GAZEBO_PLUGIN_MOVED"
    GAZEBO_REFERENCE_UNRESOLVED = "GAZEBO_REFERENCE_UNRESOLVED"
    GAZEBO_SHAPE_UNMATCHED = "GAZEBO_SHAPE_UNMATCHED"
    GAZEBO_LEGACY_TRANSLATED = "GAZEBO_LEGACY_TRANSLATED"
    GAZEBO_STRAY_CONTENT = "GAZEBO_STRAY_CONTENT"
    # Warnings of sdf2urdf: what the URDF says otherwise than the SDF, or not at all.
    JOINT_APPROXIMATED = "JOINT_APPROXIMATED"
    JOINT_DROPPED = "JOINT_DROPPED"
    JOINT_LIMIT_DEFAULTED = "JOINT_LIMIT_DEFAULTED"
    WORLD_JOINT_ADDED = "WORLD_JOINT_ADDED"
    FRAME_DROPPED = "FRAME_DROPPED"
    WORLD_CONTENT_DROPPED = "WORLD_CONTENT_DROPPED"
    CONTENT_KEPT_IN_GAZEBO = "CONTENT_KEPT_IN_GAZEBO"
    MATERIAL_NAME_CONFLICT = "MATERIAL_NAME_CONFLICT"
    PACKAGE_PLACEHOLDERS = "PACKAGE_PLACEHOLDERS"
    # Warnings of `urdf-sdf print` (urdf_sdf.cli.printing): includes inlined otherwise.
    VERSION_REWRITTEN = "VERSION_REWRITTEN"
    INCLUDE_KEPT = "INCLUDE_KEPT"
    INCLUDE_CHILD_DROPPED = "INCLUDE_CHILD_DROPPED"
    # Warnings of sdf2urdf about worlds and nested models (sdf2urdf.world,
    # sdf2urdf.world_content, sdf2urdf.extras): a free model's world pose kept for Gazebo
    # only; a file's later worlds; nested-model settings that would apply to the whole robot.
    MODEL_POSE_KEPT_IN_GAZEBO = "MODEL_POSE_KEPT_IN_GAZEBO"
    WORLD_DROPPED = "WORLD_DROPPED"
    NESTED_MODEL_CONTENT_DROPPED = "NESTED_MODEL_CONTENT_DROPPED"
    # URDF content read as every consumer reads it, carried or named, never lost silently
    # (core.read.urdf, core.read.urdf_attributes, sdf2urdf.attributes).
    URDF_INERTIA_MISSING = "URDF_INERTIA_MISSING"
    URDF_ATTRIBUTE_UNKNOWN = "URDF_ATTRIBUTE_UNKNOWN"
    URDF_MIMIC_ON_FIXED_JOINT = "URDF_MIMIC_ON_FIXED_JOINT"
    URDF_TRANSMISSION_JOINT_UNKNOWN = "URDF_TRANSMISSION_JOINT_UNKNOWN"
    SDF_ATTRIBUTE_DROPPED = "SDF_ATTRIBUTE_DROPPED"
    # Round trips of composed models and closed loops (urdf2sdf.scopes, sdf2urdf.loops).
    NAME_SCOPE_UNNESTABLE = "NAME_SCOPE_UNNESTABLE"
    JOINT_LOOP_KEPT_IN_GAZEBO = "JOINT_LOOP_KEPT_IN_GAZEBO"
    # sdf2urdf: models of several trees, links inserted by --approximate (sdf2urdf.inserted).
    URDF_SEVERAL_TREES = "URDF_SEVERAL_TREES"
    LINK_MASS_ADDED = "LINK_MASS_ADDED"
    # sdf2urdf: a lone link a URDF <gazebo> block added goes back into one (sdf2urdf.gazebo_links).
    LINK_KEPT_IN_GAZEBO = "LINK_KEPT_IN_GAZEBO"
    # The converters' rules that check reports too (core.inspect.rules).
    MIMIC_JOINT_UNKNOWN = "MIMIC_JOINT_UNKNOWN"
    # check --physics (core.inspect.physics).
    PHYSICS_MASS_ZERO = "PHYSICS_MASS_ZERO"
    PHYSICS_INERTIA_ZERO = "PHYSICS_INERTIA_ZERO"
    PHYSICS_INERTIA_IMPLAUSIBLE = "PHYSICS_INERTIA_IMPLAUSIBLE"
    PHYSICS_LIMIT_NEGATIVE = "PHYSICS_LIMIT_NEGATIVE"
    PHYSICS_AXIS_NOT_UNIT = "PHYSICS_AXIS_NOT_UNIT"
    PHYSICS_MESH_SCALE_ZERO = "PHYSICS_MESH_SCALE_ZERO"
    PHYSICS_EFFORT_TOO_LOW = "PHYSICS_EFFORT_TOO_LOW"
    PHYSICS_MIMIC_CYCLE = "PHYSICS_MIMIC_CYCLE"
    # urdf2sdf's Gazebo target (urdf2sdf.target): a feature raising the version past what
    # older Gazebo releases read; a feature the chosen version cannot hold, carried.
    VERSION_RAISED = "VERSION_RAISED"
    JOINT_MIMIC_CARRIED = "JOINT_MIMIC_CARRIED"
    # A URDF's root link world holding content no body carries (core.read.urdf).
    WORLD_LINK_CONTENT_DROPPED = "WORLD_LINK_CONTENT_DROPPED"
    # Journeys: a converter given the format it writes; model:// URIs left in a URDF.
    INPUT_FORMAT_WRONG = "INPUT_FORMAT_WRONG"
    MODEL_URI_KEPT = "MODEL_URI_KEPT"
    # A URDF whose <robot> declares a default namespace, read as URDF (core.read.prefixes).
    URDF_DEFAULT_NAMESPACE = "URDF_DEFAULT_NAMESPACE"
    # Two <transmission>s naming one actuator, which Drake refuses (core.read.urdf).
    URDF_TRANSMISSION_ACTUATOR_REPEATED = "URDF_TRANSMISSION_ACTUATOR_REPEATED"
    # sdf2urdf: a URDF inertia as written that urdf2sdf kept beside its repair, dropped as
    # the SDF's inertia was changed since (sdf2urdf.inertia).
    LINK_INERTIA_RECORD_DROPPED = "LINK_INERTIA_RECORD_DROPPED"


class Source(NamedTuple):
    """Where an element was read: file and line (a tuple: millions are made)."""
    file: str | None = None
    line: int | None = None


def source_of(node, file: str | None) -> Source:
    """The location of an lxml node read from ``file`` (no line for None)."""
    return Source(file, getattr(node, "sourceline", None) if node is not None else None)


@dataclass(frozen=True)
class Diagnostic:
    code: Code
    severity: Severity
    message: str
    file: str | None = None
    line: int | None = None
    # 1-based column, when the source knows it (lxml's syntax errors do).
    column: int | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict:
        data = {"code": self.code.value, "severity": self.severity.value,
                "message": self.message, "file": self.file, "line": self.line}
        if self.column is not None:
            data["column"] = self.column
        return data

    def format(self) -> str:
        """``file:line:col: error[CODE]: message``, the compiler-style line (``:col`` only
        when the column is known, ``:line`` only when the line is). One line, whatever the
        file name and message hold: their control characters are escaped
        (:func:`urdf_sdf.core.base.safe_text.escape`)."""
        where = escape(self.file or "<input>")
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.severity.value}[{self.code.value}]: {escape(self.message)}"


class Diagnostics(list):
    """A list of :class:`Diagnostic` with helpers to add them.

    ``error_at``/``warning_at`` take the location as a :class:`Source` (an element's
    ``source``, or :func:`source_of` an XML node); ``file`` fills in a Source without one.
    """

    def error_at(self, code: Code, message: str, where: Source | None,
                 file: str | None = None) -> None:
        self.append(Diagnostic(code, Severity.ERROR, message, *_location(where, file)))

    def warning_at(self, code: Code, message: str, where: Source | None,
                   file: str | None = None) -> None:
        self.append(Diagnostic(code, Severity.WARNING, message, *_location(where, file)))

    def error(self, code: Code, message: str, file: str | None = None,
              line: int | None = None, column: int | None = None) -> None:
        self.append(Diagnostic(code, Severity.ERROR, message, file, line, column))

    def warning(self, code: Code, message: str, file: str | None = None,
                line: int | None = None, column: int | None = None) -> None:
        self.append(Diagnostic(code, Severity.WARNING, message, file, line, column))

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self)

    def has_errors_since(self, start: int) -> bool:
        """Whether an error follows the first ``start`` diagnostics (``start`` taken as
        ``len(diagnostics)`` before a step, to ask whether that step failed)."""
        return any(d.is_error for d in self[start:])


def _location(where: Source | None, file: str | None) -> tuple[str | None, int | None]:
    if where is None:
        return file, None
    return (where.file or file), where.line


@dataclass(frozen=True)
class Policy:
    """What counts as an error (libsdformat's enforcement policy, in small).

    ``warnings_as_errors`` (``--strict`` on every command): every warning is reported as
    an error, so the command exits 1 and writes nothing.
    """
    warnings_as_errors: bool = False

    def apply(self, diagnostics: list[Diagnostic]) -> Diagnostics:
        """``diagnostics`` as this policy reports them (a new list)."""
        if not self.warnings_as_errors:
            return Diagnostics(diagnostics)
        return Diagnostics(d if d.is_error else
                           replace(d, severity=Severity.ERROR,
                                   message=f"{d.message} (a warning, an error under --strict)")
                           for d in diagnostics)

