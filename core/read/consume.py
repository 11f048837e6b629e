"""Reading without keeping: the link and joint elements a reader has read, deleted.

With ``Context.keep_xml`` off, the model keeps no reference into a link's or a joint's
element tree, and the reader deletes the element once it is read: the element tree of a
large file shrinks as its model grows. The tree lives in C memory (libxml2's, through
malloc), which glibc keeps for later allocations when it is freed; the model lives in
Python's own arenas and cannot reuse it. So, every so many elements, the free pages are
given back to the system (glibc's ``malloc_trim``; nothing elsewhere), and the process
never holds a whole tree beside a whole model.
"""
from __future__ import annotations

# Elements deleted between two returns of the free memory (a few hundred kilobytes of
# tree; each return costs well under a millisecond).
TRIM_EVERY = 1000
_NOT_LOOKED_UP = object()


def _malloc_trim():
    """glibc's ``malloc_trim``, or None where there is none."""
    import ctypes  # here: a small file, deleting fewer than TRIM_EVERY, never needs it
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


class Consumer:
    """Deletes the elements a reader is done with, when the XML is not to be kept."""

    def __init__(self, keep_xml: bool):
        self.keep_xml = keep_xml
        self.deleted = 0
        self.trim = _NOT_LOOKED_UP

    def done(self, parent, el) -> None:
        """``el`` (a child of ``parent``) is read: delete it unless the XML is kept."""
        if self.keep_xml:
            return
        parent.remove(el)
        self.deleted += 1
        if self.deleted % TRIM_EVERY == 0:
            self.give_back_free_memory()

    def give_back_free_memory(self) -> None:
        if self.trim is _NOT_LOOKED_UP:
            self.trim = _malloc_trim()
        if self.trim is not None:
            self.trim(0)
