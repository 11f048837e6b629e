"""SDF content of ``<gazebo>`` blocks checked against SDFormat's element tree of the
version written (``core.base.sdformat_tree``) before ``urdf2sdf.gazebo`` merges it into the SDF.

An element (or attribute) a block copies that SDFormat does not define where it lands,
at any depth (``<sensor><imu><foo>``, ``<collision><surface><bogus>``), would make an SDF
that libsdformat warns about and Drake refuses. It is kept out of the SDF proper, with
one ``GAZEBO_ELEMENT_UNDEFINED`` warning naming its path, the version and its line:

* a block's child that is not defined in the element it extends (or has an undefined
  attribute) is kept whole as ``<urdf:gazebo>`` content in that element;
* something undefined deeper down is cut out of the copy, and kept as ``<urdf:gazebo>``
  content in the element the block extends, inside the chain of its ancestors (tags and
  attributes): ``<urdf:gazebo><urdf:sensor name="imu" type="imu"><urdf:imu><urdf:foo/>...``.
  An element with an undefined attribute goes with its content; an ancestor left empty
  by the cut is not written (it would replace what it was to extend).

``sdf2urdf`` gives ``<urdf:gazebo>`` content back as a ``<gazebo reference=...>`` block,
which converts to the same SDF again. The content of ``<plugin>`` (``copy_data``) is free.
"""
from __future__ import annotations

import copy as copying

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.sdformat_tree import first_version_defining, undefined_content
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.version import version_text
from urdf_sdf.urdf2sdf.gazebo_legacy import modernise
from urdf_sdf.urdf2sdf.gazebo_xml import clean_copy, element_children


def spec_name(ctx) -> str:
    """``SDFormat 1.9``, saying so when the version written is newer than described."""
    described = ctx.tree.described
    if described == ctx.version:
        return f"SDFormat {version_text(described)}"
    return (f"SDFormat {version_text(described)} (the newest version described; writing "
            f"{version_text(ctx.version)})")


def xml_path(elements) -> str:
    """``<sensor name='imu'><imu><foo>``: the tags from a block's child down to one (a
    namespaced tag with its prefix, ``<controller:gazebo_ros_p3d>``)."""
    return "".join(f"<{tag_of(el)} name='{el.get('name')}'>" if el.get("name") is not None
                   else f"<{tag_of(el)}>" for el in elements)


def chain(el, root) -> list:
    """The elements from ``root`` down to ``el`` (both included)."""
    elements = [el]
    while elements[-1] is not root:
        elements.append(elements[-1].getparent())
    return elements[::-1]


def why_undefined(ctx, where: tuple[str, ...], elements, attributes: tuple[str, ...],
                  label: str) -> str:
    """Why the last of ``elements`` (block elements from the block's child down, to be
    written at the SDF path ``where``) is not written."""
    path = xml_path(elements)
    since = first_version_defining(where, ctx.version, attributes)
    if since is not None:
        what = f"attribute [{', '.join(attributes)}] of {path}" if attributes else path
        return (f"{what} in the <gazebo> block for {label} needs SDFormat "
                f"{version_text(since)} (writing {version_text(ctx.version)})")
    if attributes:
        plural = "s" if len(attributes) > 1 else ""
        return (f"attribute{plural} [{', '.join(attributes)}] of {path} in the <gazebo> block "
                f"for {label}: not {'' if plural else 'an '}{spec_name(ctx)} "
                f"attribute{plural} of <{where[-1]}>")
    return (f"{path} in the <gazebo> block for {label} is not an {spec_name(ctx)} element "
            f"of <{where[-2]}>")


def checked_copy(ctx, child, parent_path: tuple[str, ...], label: str, outer=()):
    """Block element ``child``, to be written as a child of the SDF element at
    ``parent_path`` (tags below ``<sdf>``): ``(copy, kept, why)``.

    ``copy`` is what to merge (legacy forms translated, undefined content cut out; None
    when nothing is left); ``kept`` what to keep as ``<urdf:gazebo>`` content (None when
    everything is defined); ``why`` is set, and nothing else done, when ``child`` itself
    is not defined there: the caller keeps it whole and warns. ``outer`` are the block
    elements around ``child`` (a ``<visual>`` whose children extend the link's visuals),
    wrapped around what is kept."""
    tree = ctx.tree
    parent_type = tree.type_at(parent_path)
    child_type = tree.child(parent_type, child.tag) if parent_type is not None else None
    where = (*parent_path, child.tag)
    if child_type is None:
        return None, None, why_undefined(ctx, where, [*outer, child], (), label)
    out = clean_copy(child)
    for what in modernise(out, ctx.version):
        ctx.warn(Code.GAZEBO_LEGACY_TRANSLATED, f"<{tag_of(child)}> in the <gazebo> block for "
                 f"{label}: {what} (SDFormat {version_text(ctx.version)})", child)
    undefined = undefined_content(out, tree, child_type)
    if undefined and undefined[0].element is out:
        return None, None, why_undefined(ctx, where, [*outer, child], undefined[0].attributes,
                                         label)
    if not undefined:
        return out, None, None
    kept = Skeleton(outer)
    for item in undefined:
        elements = chain(item.element, out)
        why = why_undefined(ctx, (*parent_path, *item.path), [*outer, *elements],
                            item.attributes, label)
        ctx.warn(Code.GAZEBO_ELEMENT_UNDEFINED, f"{why}; kept as <urdf:gazebo> content in "
                 f"{label}", item.element)
        kept.add(elements)
    for item in undefined:
        out = cut(item.element, out)
    return out, kept.root, None


def cut(el, root):
    """Remove ``el`` from the copy ``root``, and the ancestors it leaves empty; the root,
    or None when it is left empty itself."""
    parent = el.getparent()
    parent.remove(el)
    while parent is not root and is_empty(parent):
        el, parent = parent, parent.getparent()
        parent.remove(el)
    return None if is_empty(root) else root


def is_empty(el) -> bool:
    """No child element and no text (a comment left alone does not count)."""
    return not element_children(el) and not (el.text or "").strip()


class Skeleton:
    """What is kept out: the undefined elements, each inside shallow copies (tag and
    attributes) of its ancestors, shared between elements with common ancestors."""

    def __init__(self, outer):
        self.root = None
        # Copy element -> its shallow copy; keyed by the element itself, which keeps lxml's
        # proxy alive (an id() could be reused once a proxy is freed).
        self.copies: dict = {}
        self.outer = list(outer)

    def add(self, elements) -> None:
        *ancestors, undefined = elements
        parent = self.shallow(ancestors)
        parent.append(copying.deepcopy(undefined))

    def shallow(self, ancestors):
        """The copy of the last of ``ancestors``, made (with its own ancestors) once."""
        key = ancestors[-1]
        if key not in self.copies:
            made = shallow_copy(ancestors[-1])
            if len(ancestors) > 1:
                self.shallow(ancestors[:-1]).append(made)
            else:
                self.root = wrapped_in(self.outer, made)
            self.copies[key] = made
        return self.copies[key]


def wrapped_in(outer, el):
    """``el`` inside shallow copies of the block elements ``outer`` (outermost first)."""
    for wrapper_of in reversed(outer):
        wrapper = shallow_copy(wrapper_of)
        wrapper.append(el)
        el = wrapper
    return el


def shallow_copy(el):
    out = etree.Element(el.tag, dict(el.attrib))
    out.sourceline = el.sourceline
    return out
