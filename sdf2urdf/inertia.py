"""A URDF inertia tensor as written, given back from the SDF.

urdf2sdf repairs a tensor libsdformat refuses and keeps the tensor as written beside the
repair, as ``<urdf:inertia ixx="..." .../>`` in the SDF ``<inertial>``
(``urdf2sdf.inertia``). sdf2urdf writes the recorded text back (what Drake, Pinocchio and
urdfdom read of the source) only while the SDF's tensor is still the repair of the record:
:func:`core.base.inertia.repaired` of the recorded numbers, within :data:`SAME_REPAIR`.
Otherwise the SDF's tensor was changed since (by hand, by a tool), its numbers win, and the
record is dropped with LINK_INERTIA_RECORD_DROPPED. A record given back is counted by the
conversion report as ``urdf:`` content restored, as the other carried elements are.
"""
from __future__ import annotations

from urdf_sdf.core.base.custom import INERTIA_AS_WRITTEN
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS, repaired
from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.read.numbers import finite_numbers
from urdf_sdf.core.write.common import NumberTexts
from urdf_sdf.core.write.text import Node
from urdf_sdf.core.write.urdf import inertial_value_nodes

# How far, relative to the tensor's largest number, the SDF's tensor may be from the repair
# of the record and still be that repair: urdf2sdf writes each number at round-trip
# precision, so only a repair computed by another build of LAPACK (a few machine epsilons
# apart) needs a tolerance; an edit of the SDF is far larger.
SAME_REPAIR = 1e-9
# The record in an SDF link element.
RECORD_PATH = f"inertial/{INERTIA_AS_WRITTEN}"


def urdf_inertial(inertial: Inertial, origin: Node | None, link_el, link_name: str,
                  number_texts: NumberTexts, warn) -> Node:
    """The URDF ``<inertial>`` of SDF link ``link_name`` (its element ``link_el``, None
    when the reader let it go), whose ``inertial`` is placed at ``origin`` in the URDF
    link frame (None: at it); ``number_texts``: the texts of the numbers written so far;
    ``warn(code, message, source)``."""
    values = inertia_given_back(inertial_value_nodes(inertial, number_texts), inertial,
                                link_el, link_name, warn)
    return ("inertial", {}, values if origin is None else [origin, *values])


def inertia_given_back(values: list[Node], inertial: Inertial, link_el, link_name: str,
                       warn) -> list[Node]:
    """``values`` (the URDF ``<mass>`` and ``<inertia>`` of ``inertial``, in SDF link
    element ``link_el``) with the ``<inertia>`` as the URDF wrote it when the SDF
    ``<inertial>`` holds its record and its tensor is still the record's repair; else
    ``values``, and a warning that the record was dropped when there was one."""
    record = link_el.find(RECORD_PATH) if link_el is not None else None
    if record is None:
        return values
    texts = {key: record.get(key) or "" for key in INERTIA_KEYS}
    written = recorded_inertial(texts)
    if written is not None and is_repair_of(inertial, written):
        return [*values[:-1], ("inertia", texts, [])]
    why = ("its inertia is no longer the repair urdf2sdf made of it, so it was changed since"
           if written is not None else
           f"its numbers ({' '.join(texts.values())}) are not six finite numbers")
    warn(Code.LINK_INERTIA_RECORD_DROPPED,
         f"link [{link_name}] holds its URDF inertia as written (<urdf:inertia>), but {why}: "
         "the SDF's inertia is written and the record dropped", inertial.source)
    return values


def recorded_inertial(texts: dict[str, str]) -> Inertial | None:
    """The tensor of a record's texts, read as the URDF reader reads numbers; None when one
    is not a finite number."""
    values = []
    for key in INERTIA_KEYS:
        numbers = finite_numbers(texts[key])
        if numbers is None or len(numbers) != 1:
            return None
        values.append(numbers[0])
    ixx, ixy, ixz, iyy, iyz, izz = values
    return Inertial(ixx=ixx, ixy=ixy, ixz=ixz, iyy=iyy, iyz=iyz, izz=izz)


def is_repair_of(inertial: Inertial, written: Inertial) -> bool:
    """Whether the tensor of ``inertial`` is the repair of ``written`` (or ``written``
    itself, should it need none), within :data:`SAME_REPAIR` of the tensor's size."""
    expected = repaired(written) or written
    wanted = [getattr(expected, key) for key in INERTIA_KEYS]
    found = [getattr(inertial, key) for key in INERTIA_KEYS]
    tolerance = SAME_REPAIR * max(abs(value) for value in wanted)
    return all(abs(a - b) <= tolerance for a, b in zip(wanted, found))
