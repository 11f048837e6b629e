"""``urdf-sdf diff``'s comparison of carried attributes: those URDF does not define
(``drake:acceleration`` on a ``<limit>``, ``bar`` on a ``<link>``, ``foo`` on a visual's
``<box>``), which the converters carry both ways (``core.read.urdf_attributes``,
``core.read.carried_attributes``). An attribute whose value differs, or that one side
only has, is a difference naming the element, the attribute and both values.

Each side gives them by owner (the model, a link or frame, a joint) and by the path of
the element in it (``""``: the owner itself, ``limit``: a joint's limit,
``visual[1]/geometry/box``), as the model values hold them, read from a URDF
(``core.read.urdf_attributes``) or as an SDF carries them (``core.read.carried_attributes``),
so that a URDF, its SDF and the URDF made back from that compare alike. An SDF link's
visuals and collisions also give the attributes SDFormat does not define that they hold
(``core.read.shape_attributes``), at the path of the URDF element sdf2urdf puts them on,
or at their SDF path when the URDF has none (then only in the SDF: lost).
"""
from __future__ import annotations

from urdf_sdf.core.base.custom import plain_copy, qname
from urdf_sdf.core.base.model import Frame, Joint, Link, Model
from urdf_sdf.core.diff.difference import Difference
from urdf_sdf.core.kinematics.tree import CustomJointElement
from urdf_sdf.core.read.carried_attributes import frame_joint_parts
from urdf_sdf.core.read.prefixes import UNDECLARED_URI, prefixed_name
from urdf_sdf.core.read.shape_attributes import link_shape_parts
from urdf_sdf.core.read.urdf_attributes import unknown_attributes, unknown_part_attributes

# (owner kind, owner name) -> element path -> attribute name -> value.
Carried = dict[tuple[str, str], dict[str, dict[str, str]]]


def carried_attributes(description) -> tuple[Carried, dict[str, str]]:
    """The carried attributes of a ``core.diff.compare.Description``'s model, its links,
    frames and joints, and how each attribute name is written (``{uri}local`` ->
    ``prefix:local``); nothing at all in the common case."""
    found: Carried = {}
    shown: dict[str, str] = {}
    model = description.scope.owner.element  # a Model, or a World's scope
    el = model.xml if description.result.document.format == "urdf" else None
    owners: list = [(("joint", joint.name), joint.element) for joint in description.tree.joints]
    if isinstance(model, Model):
        owners += [(("model", ""), model)]
        owners += [(("link", link.name), link) for link in model.links]
        owners += [(("link", frame.name), frame) for frame in model.frames]
    for key, element in owners:
        parts = element_parts(element)
        if el is None and isinstance(element, Link):  # an SDF link: its shapes' own too
            parts = {**parts, **link_shape_parts(element)}
        if not parts:
            continue
        joint = frame_joint(element)
        if joint is not None:  # a URDF link and its fixed joint as one SDF frame
            parts, joint_parts = frame_joint_parts(parts)
            kept(found, shown, ("joint", joint), joint_parts, el if el is not None else element.xml)
        kept(found, shown, key, parts, el if el is not None else element.xml)
    return found, shown


def kept(found: Carried, shown: dict[str, str], key: tuple[str, str],
         parts: dict[str, dict[str, str]], el) -> None:
    """Keep the ``parts`` of owner ``key`` (none: nothing), and how their names are
    written by the declarations ``el`` sees."""
    if parts:
        found[key] = parts
        names_shown(parts, el, shown)


def frame_joint(element) -> str | None:
    """The URDF joint an SDF frame also stands for (urdf2sdf's ``urdf:joint``), or None."""
    xml = element.xml if isinstance(element, Frame) else None
    return xml.get(qname("joint")) if xml is not None else None


def element_parts(element) -> dict[str, dict[str, str]]:
    """The attributes a model value holds (read from a URDF, or carried by an SDF), by
    path; a ``<urdf:joint>`` (a floating or planar joint) is a copy of the URDF joint."""
    if isinstance(element, CustomJointElement):
        return copied_joint_parts(plain_copy(element.xml))
    parts: dict[str, dict[str, str]] = {}
    if element.attributes:
        parts[""] = element.attributes
    if isinstance(element, Joint) and element.limit is not None and element.limit.attributes:
        parts["limit"] = element.limit.attributes
    if not isinstance(element, Model) and element.part_attributes:
        parts.update(element.part_attributes)
    return parts


def copied_joint_parts(joint) -> dict[str, dict[str, str]]:
    """The attributes URDF does not define of URDF joint element ``joint``, by path."""
    parts = unknown_part_attributes(joint, "joint", None, "") or {}
    own = unknown_attributes(joint, "joint", None, "")
    if own:
        parts[""] = own
    limit = joint.find("limit")
    own = unknown_attributes(limit, "limit", None, "") if limit is not None else None
    if own:
        parts["limit"] = own
    return parts


def names_shown(parts: dict[str, dict[str, str]], el, shown: dict[str, str]) -> None:
    """Add how each namespaced name of ``parts`` is written, by the declarations ``el``
    (None-safe) sees, to ``shown``."""
    for attributes in parts.values():
        for name in attributes:
            if name[0] == "{" and name not in shown:
                shown[name] = written_name(name, el)


def written_name(name: str, el) -> str:
    uri, _, local = name[1:].partition("}")
    if uri.startswith(UNDECLARED_URI):
        return f"{uri[len(UNDECLARED_URI):]}:{local}"
    return prefixed_name(name, el) if el is not None else name


def compare_attributes(a: tuple[Carried, dict[str, str]], b: tuple[Carried, dict[str, str]],
                       links: set[str], out: list[Difference]) -> None:
    """Each carried attribute whose value differs between ``a`` and ``b`` (each side's
    :func:`carried_attributes`), or that one side only has (``links``: the link names of
    both sides; another owner of kind link is a frame)."""
    (carried_a, shown_a), (carried_b, shown_b) = a, b
    if not carried_a and not carried_b:
        return
    shown = {**shown_b, **shown_a}
    for key in sorted(set(carried_a) | set(carried_b)):
        kind, name = key
        if kind == "link" and name not in links:
            kind = "frame"
        parts_a, parts_b = carried_a.get(key, {}), carried_b.get(key, {})
        for path in sorted(set(parts_a) | set(parts_b)):
            on_a, on_b = parts_a.get(path, {}), parts_b.get(path, {})
            where = f"<{path}> attribute" if path else "attribute"
            for attribute in sorted(set(on_a) | set(on_b)):
                value_a, value_b = on_a.get(attribute), on_b.get(attribute)
                if value_a == value_b:
                    continue
                written = shown.get(attribute, attribute)
                out.append(Difference(kind, name or "(the model)",
                                      f"{where} {written} {value_text(value_a, value_b)}",
                                      f"attribute {written}"))


def value_text(value_a: str | None, value_b: str | None) -> str:
    if value_a is None:
        return f'only in B ("{value_b}")'
    if value_b is None:
        return f'only in A ("{value_a}")'
    return f'"{value_a}" in A, "{value_b}" in B'
