"""Version conversions that restructure the XML before it is read.

SDFormat 1.7 worlds could only hold *flattened* nested models: an included
model's entities were written into their parent with names like
``child::link`` and a frame ``child::__model__`` holding the child model's
pose. SDFormat 1.8 turns them back into nested models ("unflatten"), and so do
we, for world models of files older than 1.8.
"""
from __future__ import annotations

from lxml import etree

SEPARATOR = "::"
ENTITY_TAGS = ("frame", "link", "joint", "model", "gripper")
REFERENCE_ATTRIBUTES = ("relative_to", "attached_to", "expressed_in")
REFERENCE_ELEMENTS = ("parent", "child")


def unflatten(model_el) -> None:
    """Move every ``prefix::name`` entity of ``model_el`` into a nested model ``prefix``."""
    groups: dict[str, list] = {}
    for el in list(model_el):
        if el.tag in ENTITY_TAGS and SEPARATOR in (el.get("name") or ""):
            prefix = el.get("name").split(SEPARATOR, 1)[0]
            groups.setdefault(prefix, []).append(el)
    for prefix, members in groups.items():
        nested = etree.Element("model", name=prefix)
        nested.sourceline = members[0].sourceline
        first = members[0]
        first.addprevious(nested)
        for el in members:
            el.set("name", el.get("name")[len(prefix) + len(SEPARATOR):])
            _strip_references(el, prefix + SEPARATOR)
            if el.tag == "frame" and el.get("name") == "__model__":
                _model_frame_to_pose(nested, el)
                model_el.remove(el)
                continue
            nested.append(el)
        unflatten(nested)


def _strip_references(el, prefix: str) -> None:
    for node in el.iter():
        if not isinstance(node.tag, str):
            continue
        for attribute in REFERENCE_ATTRIBUTES:
            value = node.get(attribute)
            if value is not None and value.startswith(prefix):
                node.set(attribute, value[len(prefix):])
        if node.tag in REFERENCE_ELEMENTS and node.text and node.text.strip().startswith(prefix):
            node.text = node.text.strip()[len(prefix):]


def _model_frame_to_pose(nested, frame_el) -> None:
    """``prefix::__model__`` carried the nested model's pose and canonical link."""
    attached_to = frame_el.get("attached_to")
    if attached_to:
        nested.set("canonical_link", attached_to)
    pose = frame_el.find("pose")
    if pose is not None:
        nested.insert(0, pose)
