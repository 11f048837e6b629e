"""Elements written as text, without building lxml elements for them.

A writer that makes tens of thousands of small elements (a large robot's links and
joints) spends most of its time building lxml elements that are serialised once and
thrown away. Here such an element is a :data:`Node`, a plain ``(tag, attributes,
children)`` tuple, and a :class:`TextChildren` places it in the lxml tree behind a
marker comment, one marker for a run of consecutive nodes (a comment made, serialised
and found again per node cost as much as writing one): the tree keeps its order, its
indentation and its other (lxml) children, and the serialised bytes get each marker
replaced by its nodes' text, which is exactly what lxml writes for the same elements
(``etree.indent(space="  ")`` then ``tostring``), escaping included.

A node holds child nodes or, in place of the list, its text (SDFormat values); a name
in ``{uri}local`` form is written with the prefix the document declares for ``uri``.
A child may also be an lxml element copied from the source: such a node
(:func:`holds_elements`) is built with :func:`to_element` instead.
``core.write.document`` decides which is which; converters write through it.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from lxml import etree

from urdf_sdf.core.write.stream import BATCH

# (tag, {attribute: value}, [child nodes] or text): what the writer hands over.
Node = tuple[str, dict[str, str], "list | str"]

# What libxml2 escapes in an attribute value and in text (UTF-8 output: everything else
# as is).
ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                                   "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
NEEDS_ESCAPE = re.compile(r'[&<>"\n\r\t]')
TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
TEXT_NEEDS_ESCAPE = re.compile(r'[&<>\r]')
INDENT = "  "
# The line break and indentation before an element at each depth (a writer's nodes are
# a few levels deep).
BREAKS = tuple("\n" + INDENT * depth for depth in range(64))


def attribute_text(value: str) -> str:
    """``value`` as it appears between the quotes of an attribute."""
    return value.translate(ATTRIBUTE_ESCAPES) if NEEDS_ESCAPE.search(value) else value


def content_text(value: str) -> str:
    """``value`` as it appears as an element's text."""
    return value.translate(TEXT_ESCAPES) if TEXT_NEEDS_ESCAPE.search(value) else value


class Renderer:
    """Writes nodes as lxml would in a document that declares ``prefixes`` (namespace
    URI -> prefix)."""

    def __init__(self, prefixes: dict[str, str] | None = None):
        self.prefixes = prefixes or {}
        # Each name as written (``{uri}local`` -> ``prefix:local``), as met.
        self.written = WrittenNames(self.prefixes)

    def render(self, trees: list[Node], depth: int) -> str:
        """The text of sibling ``trees`` at ``depth`` (the first one's own indentation is
        its parent's; the others are indented as siblings).

        Written first as if no value needed escaping (what a converter's values almost
        always are), every value gathered; one search of them all says whether they must
        be written again from escaped copies."""
        out: list[str] = []
        values: list[str] = []
        between = BREAKS[depth]
        for tree in trees:
            if out:
                out.append(between)
            self._render(tree, depth, out, values)
        # A value escaped in an attribute (a text needs fewer escapes, but one with a
        # quote or a line break is merely written from the escaped copy too).
        if NEEDS_ESCAPE.search("".join(values)):
            out = []
            for tree in trees:
                if out:
                    out.append(between)
                self._render(escaped(tree), depth, out, [])
        return "".join(out)

    def _render(self, tree: Node, depth: int, out: list[str], values: list[str]) -> None:
        """Append the text of ``tree``, values as they are, to ``out``; and its values to
        ``values``."""
        tag, attributes, children = tree
        if tag[0] == "{":
            tag = self.written[tag]
        if attributes:
            values += attributes.values()
            text = "".join([f' {name}="{value}"' for name, value in attributes.items()])
            if "{" in text:  # a qualified name (or a value with a brace)
                written = self.written
                text = "".join([f' {written[name]}="{value}"'
                                for name, value in attributes.items()])
            start = "<" + tag + text
        else:
            start = "<" + tag
        if isinstance(children, str):
            values.append(children)
            out.append(f"{start}>{children}</{tag}>")
            return
        if not children:
            out.append(start + "/>")
            return
        out.append(start + ">")
        inner = BREAKS[depth + 1]
        for child in children:
            # The most common children written here: a value (SDFormat) and an empty
            # element with plain attributes (URDF).
            child_tag, child_attributes, content = child
            if child_tag[0] != "{":
                if content.__class__ is str:
                    if not child_attributes:
                        values.append(content)
                        out.append(f"{inner}<{child_tag}>{content}</{child_tag}>")
                        continue
                elif not content:
                    values += child_attributes.values()
                    text = "".join([f' {name}="{value}"'
                                    for name, value in child_attributes.items()])
                    if "{" not in text:
                        out.append(f"{inner}<{child_tag}{text}/>")
                        continue
            out.append(inner)
            self._render(child, depth + 1, out, values)
        out.append(f"{BREAKS[depth]}</{tag}>")


class WrittenNames(dict):
    """``names[name]``: ``name`` as written in a document that declares ``prefixes``
    (namespace URI -> prefix): ``prefix:local`` for ``{uri}local``, a plain name as it is;
    each worked out once."""
    __slots__ = ("prefixes",)

    def __init__(self, prefixes: dict[str, str]):
        super().__init__()
        self.prefixes = prefixes

    def __missing__(self, name: str) -> str:
        written = name
        if name[0] == "{":
            uri, _, local = name[1:].partition("}")
            written = f"{self.prefixes[uri]}:{local}"
        self[name] = written
        return written


def escaped(tree: Node) -> Node:
    """A copy of ``tree`` with its values escaped for writing."""
    tag, attributes, children = tree
    attributes = {name: attribute_text(value) for name, value in attributes.items()}
    if isinstance(children, str):
        return (tag, attributes, content_text(children))
    return (tag, attributes, [escaped(child) for child in children or ()])


def holds_elements(tree: Node) -> bool:
    """Whether an lxml element (content copied from the source) is among ``tree``'s
    descendants: such a node is built as an element, not written as text."""
    pending = [tree[2]]
    while pending:
        children = pending.pop()
        if children.__class__ is str:
            continue
        for child in children:
            if child.__class__ is not tuple:
                return True
            grandchildren = child[2]
            if grandchildren.__class__ is list and grandchildren:
                pending.append(grandchildren)
    return False


def to_element(tree: Node, parent=None):
    """``tree`` as an lxml element (appended to ``parent`` when given); a child may be
    an lxml element already (copied content)."""
    tag, attributes, children = tree
    el = etree.Element(tag, attributes) if parent is None else \
        etree.SubElement(parent, tag, attributes)
    if isinstance(children, str):
        el.text = children
        return el
    for child in children or ():
        if child.__class__ is tuple:
            to_element(child, el)
        else:
            el.append(child)
    return el


# Nodes behind one marker at most: a run's nodes are held until it is serialised.
RUN = 16
# The batch of a streamed container of text children (``core.write.stream`` counts
# children, markers here): about as many nodes as its batch of elements, so that a
# batch's text takes no more memory than with one marker per node.
STREAM_BATCH = BATCH // RUN


@dataclass(slots=True)
class Run:
    """Consecutive nodes of ``parent`` behind one marker comment."""
    nodes: list[Node]
    marker: etree._Element
    parent: etree._Element


class TextChildren:
    """Nodes placed in an lxml tree behind marker comments, ``depth`` levels below the
    root, and written as text when the tree is serialised (:meth:`expand`).

    A node placed right after the last one (the same parent, its marker still the
    parent's last child, the tree not serialised since) joins its marker's run. A run is forgotten
    once it is written, but its text is kept until the next expansion:
    ``core.write.stream`` serialises the last child of a batch twice (with its batch,
    then with the next one); a marker expanded in neither of the last two
    serialisations is a bug (KeyError)."""

    def __init__(self, depth: int, prefixes: dict[str, str] | None = None):
        self.depth = depth
        self.renderer = Renderer(prefixes)
        self.token = f"urdf-sdf-text-{os.urandom(8).hex()}-"
        self.marker = re.compile(b"<!--" + self.token.encode("ascii") + rb"(\d+)-->")
        self.nodes: dict[int, list[Node]] = {}  # each marker's run
        self.count = 0
        self.written: dict[int, bytes] = {}  # the texts of the last expansion
        self.writing: dict[int, bytes] = {}
        self.run: Run | None = None  # the run a node may join

    def place(self, parent, tree: Node) -> None:
        """Append ``tree`` (a node of nodes only) to ``parent`` (an lxml element at
        ``depth - 1``)."""
        run = self.run
        # (lxml counts a parent's children by walking them all, but finds its last child
        # at once)
        if run is not None and run.parent is parent and len(run.nodes) < RUN and \
                parent[-1] is run.marker:
            run.nodes.append(tree)
            return
        nodes = [tree]
        marker = self._new_marker(nodes)
        parent.append(marker)
        self.run = Run(nodes, marker, parent)

    def _new_marker(self, run: list[Node]):
        key = self.count
        self.count += 1
        self.nodes[key] = run
        return etree.Comment(self.token + str(key))

    def realise_all(self, parent) -> None:
        """Every marker among ``parent``'s children made elements (a tree that is not
        serialised here, e.g. merged with others)."""
        self.run = None
        for child in list(parent):
            if child.tag is etree.Comment and child.text.startswith(self.token):
                for tree in self.nodes.pop(int(child.text[len(self.token):])):
                    el = to_element(tree)
                    el.tail = child.tail
                    child.addprevious(el)
                parent.remove(child)

    def expand(self, data: bytes) -> bytes:
        """``data`` (a serialised tree) with each marker replaced by its nodes' text."""
        self.run = None
        self.writing = {}
        expanded = self.marker.sub(self._text_of, data)
        self.written, self.writing = self.writing, {}
        return expanded

    def _text_of(self, match) -> bytes:
        key = int(match.group(1))
        run = self.nodes.pop(key, None)
        text = self.written[key] if run is None else \
            self.renderer.render(run, self.depth).encode("utf-8")
        self.writing[key] = text
        return text
