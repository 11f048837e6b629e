"""What each diagnostic code says a conversion did to the content: the one table of it.

A conversion's warnings are the record of what it did otherwise than copy one to one;
this module says, once, what each code means for the written document
(:data:`CATEGORY`), so that the conversion report (``core.inspect.conversion_report``)
can sort them into carried, defaulted, repaired, approximated, renamed and dropped
content. Every member of ``core.base.diagnostics.Code`` has a category here; a test fails
for a code added without one. A code that is only ever an error (the conversion writes
nothing) is :attr:`Category.REFUSED`; a code that no conversion reports, or that tells how
the input was read with the meaning every consumer gives it, is :attr:`Category.NOTE`.
"""
from __future__ import annotations

import enum

from urdf_sdf.core.base.diagnostics import Code


class Category(str, enum.Enum):
    """What a warning of a code means for the converted document."""
    NOTE = "note"              # nothing in the written document differs from the input's meaning
    CARRIED = "carried"        # content the target format lacks, kept in a namespace or block
    RESTORED = "restored"      # content an earlier conversion carried, given back
    REEXPRESSED = "re-expressed"  # a pose written relative to another frame: the same place
    DEFAULTED = "defaulted"    # a value the input leaves implicit, written explicitly
    REPAIRED = "repaired"      # a value consumers refuse, changed so that they accept it
    APPROXIMATED = "approximated"  # a construct the target lacks, stated approximately
    RENAMED = "renamed"        # a name changed in the output
    DROPPED = "dropped"        # content left out of the output
    REFUSED = "refused"        # only ever an error: nothing is written


_BY_CATEGORY: dict[Category, tuple[Code, ...]] = {
    Category.REFUSED: (
        Code.FILE_READ, Code.RESERVED_NAME, Code.ATTRIBUTE_MISSING,
        Code.ATTRIBUTE_INCORRECT_TYPE, Code.ELEMENT_INCORRECT_TYPE, Code.URI_INVALID,
        Code.URI_LOOKUP, Code.MODEL_CANONICAL_LINK_INVALID, Code.JOINT_CHILD_LINK_INVALID,
        Code.JOINT_PARENT_LINK_INVALID, Code.JOINT_PARENT_SAME_AS_CHILD,
        Code.FRAME_ATTACHED_TO_INVALID, Code.FRAME_ATTACHED_TO_CYCLE,
        Code.FRAME_ATTACHED_TO_GRAPH_ERROR, Code.POSE_RELATIVE_TO_CYCLE,
        Code.POSE_RELATIVE_TO_GRAPH_ERROR, Code.MODEL_PLACEMENT_FRAME_INVALID,
        Code.VERSION_DEPRECATED, Code.PARSING_ERROR, Code.INTERNAL_ERROR, Code.XML_UNSAFE,
        Code.VERSION_UNSUPPORTED, Code.INCLUDE_CYCLE, Code.URDF_MULTIPLE_PARENTS,
        Code.URDF_MULTIPLE_ROOTS, Code.URDF_NO_ROOT, Code.URDF_KINEMATIC_LOOP,
        Code.XACRO_UNAVAILABLE, Code.XACRO_ERROR, Code.XACRO_NOT_EXPANDED, Code.FILE_WRITE,
        Code.OUTPUT_IS_INPUT, Code.OUTPUT_INVALID, Code.MODEL_AMBIGUOUS,
        Code.RESOURCE_OUTSIDE_PACKAGE, Code.RESOURCE_NOT_REGULAR, Code.OUTPUT_EXISTS,
        Code.XACRO_UNSAFE, Code.NUMBER_NOT_FINITE, Code.INCLUDE_TOO_LARGE,
        Code.NAME_SCOPE_UNNESTABLE, Code.URDF_SEVERAL_TREES, Code.MIMIC_JOINT_UNKNOWN,
        Code.INPUT_FORMAT_WRONG),
    Category.NOTE: (
        # Read with the meaning the message states, as every consumer reads it.
        Code.DUPLICATE_NAME, Code.ATTRIBUTE_INVALID, Code.ELEMENT_MISSING,
        Code.ELEMENT_INVALID, Code.MODEL_WITHOUT_LINK, Code.LINK_INERTIA_INVALID,
        Code.JOINT_AXIS_EXPRESSED_IN_INVALID, Code.XML_REPAIRED, Code.URDF_LIMIT_INVALID,
        Code.URDF_MATERIAL_UNDEFINED, Code.ATTRIBUTE_DEPRECATED, Code.ELEMENT_DEPRECATED,
        Code.XML_RECOVERED, Code.WORLD_NAME_LEGACY, Code.URDF_WORLD_UNDECLARED,
        Code.URDF_TRANSMISSION_JOINT_UNKNOWN, Code.NAMESPACE_UNDECLARED,
        Code.URDF_DEFAULT_NAMESPACE, Code.URDF_TRANSMISSION_ACTUATOR_REPEATED,
        Code.MESH_URI_NOT_RELATIVE, Code.LINK_MASSLESS_MOVING, Code.GAZEBO_VALUE_REPLACED,
        Code.GAZEBO_LEGACY_TRANSLATED, Code.VERSION_RAISED, Code.MODEL_URI_KEPT,
        Code.PACKAGE_PLACEHOLDERS, Code.MESH_UNRESOLVED, Code.MESH_UNREADABLE,
        # Codes of other commands (check, view, graph, print, diff).
        Code.VIEW_UNAVAILABLE, Code.VIEW_SNAPSHOT_FAILED, Code.VIEW_NOT_WRITTEN,
        Code.URDF_PARITY_NESTED_MODEL, Code.URDF_PARITY_JOINT_TYPE,
        Code.URDF_PARITY_NOT_A_TREE, Code.URDF_PARITY_JOINT_POSE,
        Code.URDF_PARITY_CHILD_LINK_POSE, Code.URDF_PARITY_ROOT_LINK_POSE,
        Code.URDF_PARITY_AXIS_FRAME, Code.URDF_PARITY_FRAME_POSE,
        Code.GRAPH_OUTPUT_INVALID, Code.GRAPH_FORMAT_UNKNOWN, Code.GRAPH_TREE_INVALID,
        Code.GRAPHVIZ_UNAVAILABLE, Code.GRAPHVIZ_FAILED, Code.MESH_TOO_LARGE,
        Code.MESH_SAMPLED, Code.VERSION_REWRITTEN, Code.INCLUDE_KEPT,
        Code.PHYSICS_MASS_ZERO, Code.PHYSICS_INERTIA_ZERO, Code.PHYSICS_INERTIA_IMPLAUSIBLE,
        Code.PHYSICS_LIMIT_NEGATIVE, Code.PHYSICS_AXIS_NOT_UNIT,
        Code.PHYSICS_MESH_SCALE_ZERO, Code.PHYSICS_EFFORT_TOO_LOW, Code.PHYSICS_MIMIC_CYCLE),
    Category.CARRIED: (
        Code.GAZEBO_ELEMENT_UNDEFINED, Code.URDF_ELEMENT_UNKNOWN, Code.URDF_ATTRIBUTE_UNKNOWN,
        Code.GAZEBO_TAG_MISPLACED,
        Code.GAZEBO_VALUE_INVALID, Code.GAZEBO_REFERENCE_UNRESOLVED,
        Code.CONTENT_KEPT_IN_GAZEBO, Code.MODEL_POSE_KEPT_IN_GAZEBO,
        Code.POSE_RELATIVE_TO_INVALID),
    Category.DEFAULTED: (Code.URDF_INERTIA_MISSING, Code.JOINT_LIMIT_DEFAULTED),
    Category.REPAIRED: (Code.LINK_INERTIA_REPAIRED,),
    Category.APPROXIMATED: (
        Code.JOINT_APPROXIMATED, Code.LINK_MASS_ADDED, Code.GAZEBO_PLUGIN_MOVED,
        Code.GAZEBO_SHAPE_UNMATCHED, Code.LUMPED_NAME_REFERENCED, Code.WORLD_JOINT_ADDED,
        # Carried for a round trip, but what the output's consumers read differs: links and
        # joints only Gazebo reads in the URDF (its <gazebo> blocks), a mimic no SDF
        # consumer reads (<urdf:mimic> below SDFormat 1.11), a shape SDFormat has no
        # geometry for, a planar or floating joint whose child is a free body in the SDF.
        Code.JOINT_LOOP_KEPT_IN_GAZEBO, Code.LINK_KEPT_IN_GAZEBO, Code.JOINT_MIMIC_CARRIED,
        Code.GEOMETRY_KEPT_AS_CUSTOM, Code.JOINT_FREE_BODY),
    Category.RENAMED: (Code.NAME_RENAMED,),
    Category.DROPPED: (
        Code.LUMPED_CONTENT_DROPPED, Code.NAMESPACE_PREFIX_INVALID, Code.GAZEBO_STRAY_CONTENT,
        Code.JOINT_DROPPED, Code.FRAME_DROPPED, Code.WORLD_CONTENT_DROPPED,
        Code.MATERIAL_NAME_CONFLICT, Code.INCLUDE_CHILD_DROPPED, Code.WORLD_DROPPED,
        Code.NESTED_MODEL_CONTENT_DROPPED, Code.URDF_MIMIC_ON_FIXED_JOINT,
        Code.SDF_ATTRIBUTE_DROPPED, Code.WORLD_LINK_CONTENT_DROPPED,
        Code.LINK_INERTIA_RECORD_DROPPED),
}

CATEGORY: dict[Code, Category] = {code: category for category, codes in _BY_CATEGORY.items()
                                  for code in codes}
"""The category of every code (a code missing here is a bug the tests find)."""


def category_of(code: Code) -> Category:
    """What a warning of ``code`` means for the written document; a code without a
    category counts as a change (never as "exact")."""
    return CATEGORY.get(code, Category.APPROXIMATED)
