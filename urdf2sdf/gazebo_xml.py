"""XML helpers of the ``<gazebo>`` mapping (``urdf2sdf.gazebo``): checking a tag's value,
merging a block's elements into the SDF the converter wrote, and custom content.

``ctx`` is the mapping's ``gazebo.Context``: where warnings go, the model element, and
the index of the children blocks merge into (``gazebo_index.ChildIndex``).
"""
from __future__ import annotations

import copy
import math

from lxml import etree

from urdf_sdf.core.base.custom import PREFIX, URDF_NS, namespaced_copy, qname
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.urdf2sdf.gazebo_index import ChildIndex

TRUE_WORDS = ("true", "yes", "1")
FALSE_WORDS = ("false", "no", "0")
EXPECTED = {"number": "a number", "integer": "an integer", "vector3": "three numbers",
            "bool": "a boolean (true, false, yes, no, 1, 0)", "text": "a name",
            "negated bool": "a boolean (true, false, yes, no, 1, 0)"}
# Unnamed SDF elements that may repeat: merged only into an identical copy.
REPEATABLE = {"include", "audio_source", "audio_sink", "uri"}


def check_value(text: str, kind: str) -> str | None:
    if not text:
        return None
    if kind in ("bool", "negated bool"):
        word = text.lower()
        if word not in TRUE_WORDS + FALSE_WORDS:
            return None
        return str((word in TRUE_WORDS) != (kind == "negated bool")).lower()
    if kind == "integer":
        return text if text.lstrip("+-").isdigit() else None
    count = {"number": 1, "vector3": 3}.get(kind)
    if count is None:
        return text
    try:
        numbers = [float(t) for t in text.split()]
    except ValueError:
        return None
    return text if len(numbers) == count and all(map(math.isfinite, numbers)) else None


def merge(ctx, parent, new, source) -> None:
    """Put ``new`` into ``parent``: into the matching child when there is one (same tag
    and name), recursively, so that blocks and the converter's own output combine; a
    value that replaces a different one is warned about with ``source``'s line."""
    existing = matching_child(ctx.children, parent, new)
    if existing is None:
        parent.append(new)
        return
    if element_children(new):
        for key, value in new.attrib.items():
            if existing.get(key) not in (None, value):
                report_override(ctx, existing, f"@{key}", existing.get(key), value, source)
            existing.set(key, value)
        for child in element_children(new):
            merge(ctx, existing, child, source)
        return
    if same_content(existing, new) or not content_text(new):
        return  # nothing new, or an empty element such as <ode/>: a container, not a value
    report_override(ctx, existing, "", content_text(existing), content_text(new), source)
    parent.replace(existing, new)
    ctx.children.replaced(parent, existing, new)


def matching_child(children: ChildIndex, parent, new):
    """The child of ``parent`` that ``new`` extends: same tag and same name attribute;
    plugins never match and repeatable elements only match an identical copy.
    ``children`` indexes ``parent``'s children, so that this does not scan them."""
    if new.tag == "plugin":
        return None
    if new.tag in REPEATABLE:
        return next((child for child in children.of_tag(parent, new.tag)
                     if same_content(child, new)), None)
    return children.named(parent, new.tag, new.get("name"))


def report_override(ctx, existing, suffix: str, old: str, new: str, source) -> None:
    ctx.warn(Code.GAZEBO_VALUE_REPLACED, f"<gazebo> sets {describe(existing, ctx.model_el)}"
             f"{suffix} to [{new}], replacing [{old}]", source)


def describe(el, model_el) -> str:
    """``link[base]/collision[base_collision]/surface/friction/ode/mu``: where ``el`` is."""
    parts = []
    while el is not None and el is not model_el:
        name = el.get("name")
        parts.append(f"{el.tag}[{name}]" if name else el.tag)
        el = el.getparent()
    return "/".join(reversed(parts)) or "model"


def same_content(a, b) -> bool:
    return content_text(a) == content_text(b)


def content_text(el) -> str:
    """An element compared by what it says: attributes, text and children, whitespace
    and comments aside."""
    attributes = "".join(f" {k}={v!r}" for k, v in sorted(el.attrib.items()))
    text = " ".join((el.text or "").split())
    inner = "".join(f"<{c.tag}>{content_text(c)}" for c in element_children(el))
    return f"{attributes}{' ' if attributes and text else ''}{text}{inner}".strip()


def nest(path: tuple[str, ...], value: str):
    """``nest(("a", "b"), "1")`` is ``<a><b>1</b></a>``."""
    root = el = etree.Element(path[0])
    for tag in path[1:]:
        el = etree.SubElement(el, tag)
    el.text = value
    return root


def custom_block(children, reference: str | None = None):
    """``<urdf:gazebo>`` holding namespaced copies of ``children`` (see core.base.custom)."""
    block = etree.Element(qname("gazebo"), nsmap={PREFIX: URDF_NS})
    if reference:
        block.set("reference", reference)
    for child in children:
        block.append(namespaced_copy(child))
    return block


def clean_copy(el):
    """A deep copy of ``el`` without its tail or whitespace-only text, which the writer's
    indentation replaces."""
    out = copy.deepcopy(el)
    out.tail = None
    for node in out.iter():
        if node.text is not None and not node.text.strip():
            node.text = None
    return out


def element_children(el) -> list:
    return [c for c in el if isinstance(c.tag, str)]
