"""Attributes URDF does not define on its elements (``drake:acceleration`` on ``<limit>``,
``bar=`` on ``<link>``): found, named with a URDF_ATTRIBUTE_UNKNOWN warning each, and kept
on the model value so that urdf2sdf carries them (``urdf2sdf.attributes``) and sdf2urdf
gives them back.

What URDF defines for the elements whose attributes are carried (the robot, links,
joints, joint limits) is :data:`KNOWN_ATTRIBUTES`; namespace declarations are no
attributes to lxml, so ``xmlns:xacro`` is never one.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.read.prefixes import prefixed_name

KNOWN_ATTRIBUTES = {
    "robot": frozenset({"name", "version"}),
    "link": frozenset({"name"}),
    "joint": frozenset({"name", "type"}),
    "limit": frozenset({"lower", "upper", "effort", "velocity"}),
}


def unknown_attributes(el, kind: str, state, what: str) -> dict[str, str] | None:
    """The attributes of ``el`` (a ``kind`` element, ``what`` in messages) URDF does not
    define, by
    name (``{uri}local`` when namespaced), each named in a warning; None when there is
    none (the common case, found from the number of attributes alone)."""
    known = KNOWN_ATTRIBUTES[kind]
    if len(el.attrib) <= len(known) and all(name in known for name in el.keys()):
        return None
    found = {name: value for name, value in el.items() if name not in known}
    for name in found:
        state.warning(Code.URDF_ATTRIBUTE_UNKNOWN, f"{what} has the attribute "
                      f"[{prefixed_name(name, el)}], which URDF does not define on <{kind}>: "
                      "carried into the SDF, and given back by sdf2urdf", el)
    return found
