"""Reading without keeping: the link and joint elements a reader has read, deleted.

With ``Context.keep_xml`` off, the model keeps no reference into a link's or a joint's
element tree, and the reader deletes the element once it is read: the element tree of a
large file shrinks as its model grows. The tree lives in C memory (libxml2's, through
malloc), which the C allocator keeps for later allocations when it is freed; the model
lives in Python's own arenas and cannot reuse it. Giving those free pages back to the
system is the process's business, not the library's: a process opts in with
:func:`give_back_free_memory_with` (the console scripts pass glibc's ``malloc_trim``:
``urdf_sdf.cli.process``), and the readers then call it every :data:`TRIM_EVERY` deleted
elements, so that the process never holds a whole tree beside a whole model. Without it
(a program that calls ``urdf_sdf.load``), nothing is given back: its heap is its own.
"""
from __future__ import annotations

from collections.abc import Callable

# Elements deleted between two returns of the free memory (a few hundred kilobytes of
# tree; each return costs well under a millisecond).
TRIM_EVERY = 1000
# What gives the free memory back (glibc's malloc_trim(0), for the console scripts).
GiveBack = Callable[[], object]


class _Opted:
    """What the process opted in to (:func:`give_back_free_memory_with`)."""
    give_back: GiveBack | None = None


def give_back_free_memory_with(give_back: GiveBack | None) -> GiveBack | None:
    """From now on, ``give_back()`` is called every :data:`TRIM_EVERY` elements a reader
    deletes (None: never, the default); returns the previous choice. A process-wide
    choice, for the program that owns the process to make (the console scripts do); the
    library never makes it."""
    previous, _Opted.give_back = _Opted.give_back, give_back
    return previous


class Consumer:
    """Deletes the elements a reader is done with, when the XML is not to be kept."""

    def __init__(self, keep_xml: bool):
        self.keep_xml = keep_xml
        self.deleted = 0

    def done(self, parent, el) -> None:
        """``el`` (a child of ``parent``) is read: delete it unless the XML is kept."""
        if self.keep_xml:
            return
        parent.remove(el)
        self.deleted += 1
        if self.deleted % TRIM_EVERY == 0 and _Opted.give_back is not None:
            _Opted.give_back()
