"""What urdf2sdf writes of a URDF link's ``<inertial>``.

* An inertia libsdformat accepts (``core.base.inertia.inertia_problem``), or a negative
  mass (which the reader refused): as written.
* One it refuses, by default: repaired (``core.base.inertia.repaired``, so that Gazebo
  loads the link), with the tensor as written kept beside the repair as
  ``<urdf:inertia ixx="..." .../>`` (``core.base.custom.INERTIA_AS_WRITTEN``, each number's
  text copied), which libsdformat and Drake ignore and ``sdf2urdf`` gives back
  (``sdf2urdf.inertia``): ``urdf2sdf | sdf2urdf`` loses nothing. LINK_INERTIA_REPAIRED
  gives the size of the change.
* ``--keep-inertia``: as written, marked ``urdf:inertia="invalid"``, with
  LINK_INERTIA_INVALID.

Either warning replaces the reader's LINK_INERTIA_INVALID about that inertial.
"""
from __future__ import annotations

from urdf_sdf.core.base.custom import INERTIA_AS_WRITTEN, INERTIA_KEPT
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.inertia import (
    INERTIA_KEYS,
    has_no_repair,
    inertia_problem,
    mass_problem,
    repair_text,
    repaired,
)
from urdf_sdf.core.base.model import Inertial, Link
from urdf_sdf.core.write.common import number_text
from urdf_sdf.core.write.sdf import inertial_node
from urdf_sdf.core.write.text import Node


def link_inertial(link: Link, fix_inertia: bool, diagnostics: Diagnostics) -> Node:
    """The SDF ``<inertial>`` of ``link`` (which has one); ``fix_inertia``: repair a tensor
    libsdformat refuses (the default) rather than keep it as written."""
    inertial = link.inertial
    assert inertial is not None, "called for a link with an inertial"
    problem = inertia_problem(inertial)
    if problem is None or mass_problem(inertial) is not None:
        return inertial_node(inertial)
    drop_reader_warning(diagnostics, inertial)
    if fix_inertia and has_no_repair(inertial):
        diagnostics.warning_at(Code.LINK_INERTIA_INVALID,
                               f"link [{link.name}]: inertia kept as written, which libsdformat "
                               f"refuses: {problem}; its values are too large to repair; "
                               "Gazebo will not load this link", inertial.source)
        return kept_invalid(inertial)
    if not fix_inertia:
        diagnostics.warning_at(Code.LINK_INERTIA_INVALID,
                               f"link [{link.name}]: inertia kept as written (--keep-inertia), "
                               f"which libsdformat refuses: {problem}; Gazebo will not load "
                               "this link", inertial.source)
        return kept_invalid(inertial)
    fixed = repaired(inertial)
    assert fixed is not None, "an inertia with a problem has a repair"
    diagnostics.warning_at(Code.LINK_INERTIA_REPAIRED, f"link [{link.name}]: "
                           f"{repair_text(inertial, fixed)} (--keep-inertia keeps it as "
                           "written)", inertial.source)
    tag, attributes, children = inertial_node(fixed)
    return (tag, attributes, [*children, as_written_node(inertial)])


def kept_invalid(inertial: Inertial) -> Node:
    """The ``<inertial>`` of a tensor kept as written though libsdformat refuses it, marked
    so (``urdf:inertia="invalid"``)."""
    tree = inertial_node(inertial)
    tree[1][INERTIA_KEPT] = "invalid"
    return tree


def as_written_node(inertial: Inertial) -> Node:
    """``<urdf:inertia>``: the tensor of ``inertial`` as the URDF wrote it (each number's
    text; a tensor ``--lump-fixed`` computed has the shortest text of its values)."""
    texts = inertial.texts
    return (INERTIA_AS_WRITTEN,
            {key: texts.get(key) or number_text(getattr(inertial, key)) for key in INERTIA_KEYS},
            [])


def drop_reader_warning(diagnostics: Diagnostics, inertial: Inertial) -> None:
    """Remove the reader's LINK_INERTIA_INVALID warning about ``inertial``: the
    conversion says what it did with that inertia instead."""
    file, line = inertial.source.file, inertial.source.line
    diagnostics[:] = [d for d in diagnostics
                      if not (d.code is Code.LINK_INERTIA_INVALID and not d.is_error
                              and d.file == file and d.line == line)]
