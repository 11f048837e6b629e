"""One document being written: what converters write through, whatever the format.

A converter hands a :class:`Document` the children of its container (a ``<model>``'s
links, joints and frames; a ``<robot>``'s) in order, as ``core.write.text`` nodes or as
lxml elements it copied from the source, and asks for the bytes at the end. How they
become bytes is decided here, child by child:

* a node of nodes only (nearly every link and joint) is written as text
  (``core.write.text``), never built as an lxml element;
* a node that holds copied lxml elements, and a copied element, are lxml elements;
* a node the converter changes later (:meth:`Document.add_element`: ``<gazebo>`` blocks
  merge into links and joints) is an lxml element, returned.

The children are serialised a batch at a time as they come (``core.write.stream``), so
that a large model's tree is never whole in memory; from the first
:meth:`~Document.add_element` on, every child is held until the end, when the changes
are done. A document made with ``streamed=False`` holds every child from the start: its
tree is changed once written (``urdf2sdf``'s ``<gazebo>`` blocks, which may look at any
child), or wanted whole (:meth:`~Document.to_tree`, to merge several robots into one).
Either way the bytes are exactly those of serialising the same children built as lxml
elements.
"""
from __future__ import annotations

from collections.abc import Callable

from urdf_sdf.core.write.stream import ChildStream
from urdf_sdf.core.write.text import (
    STREAM_BATCH,
    Node,
    TextChildren,
    holds_elements,
    to_element,
)


class Document:
    """The document of ``root`` (an lxml element), whose ``container`` (``depth`` levels
    below ``root``) receives the converter's children.

    ``serialise(root) -> bytes`` indents and serialises a tree (the format's
    ``to_bytes``); ``prefixes`` (namespace URI -> prefix) are those ``root`` declares;
    ``prepare``, if given, readies a tree holding a batch for serialising or says False
    (``core.write.stream``); ``streamed=False`` holds every child until the end."""

    def __init__(self, root, container, depth: int, serialise: Callable[[object], bytes],
                 prefixes: dict[str, str] | None = None,
                 prepare: Callable[[object], bool] | None = None, streamed: bool = True,
                 batch: int = STREAM_BATCH):
        self.root = root
        self.container = container
        self.serialise = serialise
        self.text = TextChildren(depth, prefixes)
        self.stream = ChildStream(root, container, self._serialise_with_text, batch, prepare)
        if not streamed:
            self.stream.hold()

    def add(self, child: Node | object) -> None:
        """Append ``child`` (a node, or an lxml element) to the container."""
        if child.__class__ is not tuple:
            self.container.append(child)
        elif holds_elements(child):
            to_element(child, self.container)
        else:
            self.text.place(self.container, child)
        self.stream.flush_if_full()

    def extend(self, children) -> None:
        """:meth:`add` each of ``children``."""
        for child in children:
            self.add(child)

    def add_element(self, child: Node | object):
        """Append ``child`` (a node, or an lxml element) to the container as an lxml
        element, returned to be changed until the bytes are asked for (every child is
        held from now on)."""
        self.stream.hold()
        if child.__class__ is tuple:
            return to_element(child, self.container)
        self.container.append(child)
        return child

    def to_bytes(self) -> bytes:
        """The whole document's bytes (the document is spent)."""
        return self.stream.finish()

    def to_tree(self):
        """The root, every child an lxml element (a document made with ``streamed=False``)."""
        self.text.realise_all(self.container)
        return self.root

    def _serialise_with_text(self, root) -> bytes:
        return self.text.expand(self.serialise(root))
