"""Serialise a large document a batch of children at a time, in bounded memory.

Indenting and serialising a whole tree at once (``etree.indent`` + ``etree.tostring``)
needs, besides the tree, a text node of indentation for every element and the bytes
twice (libxml2's buffer, then Python's copy): for a 100,000-link model, more than the
tree itself. A :class:`ChildStream` serialises the children of one *container* (a
``<model>``'s links and joints, a ``<robot>``'s) in batches, and deletes each batch
once it is written; the writer appends the next children meanwhile. The result is byte
for byte what serialising the whole tree would give:

Each batch is serialised in place, with the real ancestors (so that namespaces,
indentation and the serialiser's options are those of the whole document), between
two marker comments: ``<!--head-->`` first and ``<!--tail-->`` last in the container,
so that every child of the batch is indented as an inner child. What lies between
the markers is the batch's text. At the end the container keeps its last child and
the head marker: the document's text up to the head marker, the batches, and the
rest after the marker are the whole document.

The serialiser ``serialise(root) -> bytes`` must indent and serialise ``root`` (e.g.
``core.write.common.to_bytes``). Elements of a batch must not be changed after it is
flushed; what the writer does to the whole tree at the end is done to each batch by
``prepare``, which may also stop the streaming (the rest is then serialised whole).
"""
from __future__ import annotations

import io
import os
from collections.abc import Callable

from lxml import etree

# Children serialised per batch: large enough that the ancestors' share of the work
# (serialised again for each batch) is negligible, small enough to keep little memory.
BATCH = 512


class ChildStream:
    """The children of ``container`` (in ``root``'s tree) serialised as they come."""

    def __init__(self, root, container, serialise: Callable[[object], bytes],
                 batch: int = BATCH, prepare: Callable[[object], bool] | None = None):
        self.root = root
        self.container = container
        self.serialise = serialise
        self.batch = batch
        # Readies the tree holding a batch for serialising (what the writer would do to
        # the whole tree at the end), or says False: from then on nothing is streamed.
        self.prepare = prepare
        self.holding = False
        token = os.urandom(12).hex()
        self.head = f"urdf-sdf-stream-{token}-head"
        self.tail = f"urdf-sdf-stream-{token}-tail"
        # The document up to the first child, then the batches, once one is flushed.
        self.prefix = b""
        self.written: io.BytesIO | None = None

    def flush_if_full(self) -> None:
        """Flush when a batch is ready (lxml counts the container's children by walking
        them: not once nothing is streamed any more)."""
        if not self.holding and len(self.container) > self.batch:
            self.flush()

    def hold(self) -> None:
        """Stream no more: from now on every child stays in the tree until :meth:`finish`
        (the writer will change some of them)."""
        self.holding = True

    def flush(self) -> None:
        """Serialise and delete every child of the container but the last one."""
        count = len(self.container) - 1
        if count <= 0 or self.holding:
            return
        if self.prepare is not None and not self.prepare(self.root):
            self.holding = True
            return
        head = etree.Comment(self.head)
        self.container.insert(0, head)
        self.container.insert(count + 1, etree.Comment(self.tail))
        text = self.serialise(self.root)
        prefix, start = self._split_at_head(text, head)
        end = text.rindex(self.tail.encode("ascii")) - len(b"<!--")
        del self.container[:count + 2]
        if self.written is None:
            self.prefix = prefix
            self.written = io.BytesIO()
            self.written.write(prefix)
        self.written.write(memoryview(text)[start:end])

    def finish(self) -> bytes:
        """The whole document's bytes (the stream is spent)."""
        if self.written is None:
            return self.serialise(self.root)
        self.flush()
        head = etree.Comment(self.head)
        self.container.insert(0, head)
        text = self.serialise(self.root)
        prefix, start = self._split_at_head(text, head)
        written, self.written = self.written, None
        if prefix != self.prefix:  # an ancestor changed after the first flush
            body = written.getbuffer()[len(self.prefix):]
            return b"".join((prefix, body, memoryview(text)[start:]))
        written.write(memoryview(text)[start:])
        return written.getvalue()

    def _split_at_head(self, text: bytes, head) -> tuple[bytes, int]:
        """The text before the head marker, and where the first child's text starts (after
        the marker and the indentation that follows it)."""
        marker = text.index(self.head.encode("ascii")) - len(b"<!--")
        start = marker + len(b"<!---->") + len(self.head) + len((head.tail or "").encode("utf-8"))
        return text[:marker], start


def serialise_spent(root, serialise: Callable[[object], bytes], batch: int = BATCH) -> bytes:
    """``serialise(root)`` of a complete tree, written the way :class:`ChildStream` writes:
    the children of its largest element (within two levels of ``root``: a model's links
    and joints) are taken out, then put back and serialised a batch at a time. The tree
    is spent afterwards.

    Taking an element out and putting it back gives the same text unless it repeats a
    namespace declaration of an ancestor (lxml drops such a declaration when the element
    is put back): the tree must not have one there (``urdf-sdf print`` declares every
    namespace once, on ``<sdf>``)."""
    container = _largest(root)
    if len(container) <= batch:
        return serialise(root)
    children = list(container)
    for child in children:
        container.remove(child)
    stream = ChildStream(root, container, serialise, batch)
    for i, child in enumerate(children):
        children[i] = None  # a written batch must not be kept alive from here
        container.append(child)
        stream.flush_if_full()
    return stream.finish()


def _largest(root):
    """The element with the most children among ``root``, its children and theirs."""
    candidates = [root]
    for child in root:
        if isinstance(child.tag, str):
            candidates.append(child)
            candidates.extend(c for c in child if isinstance(c.tag, str))
    return max(candidates, key=len)
