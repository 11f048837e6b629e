"""The children of the SDF elements ``<gazebo>`` blocks write into, indexed by tag and name.

A URDF may hold thousands of blocks for one link (one per sensor, say): finding the child a
block's element extends (``gazebo_xml.matching_child``), the link's visuals
(``gazebo.own_shapes``) or a free shape name by scanning the link's children for each block
costs the number of blocks squared. :class:`ChildIndex` indexes each element's children once
and follows them as they grow, so each block costs what it writes.

Blocks only add children at the end of an element (``append``) or replace one in place
(``replace``, told to :meth:`ChildIndex.replaced`); an element changed otherwise (a child
inserted before the last, or removed) is noticed and indexed again, never misread.
"""
from __future__ import annotations

from typing import Any


class _Children:
    """One element's children: the first of each ``(tag, name)``, and each tag's in order."""

    __slots__ = ("by_tag", "first", "last", "parent", "suffixes")

    def __init__(self, parent: Any) -> None:
        self.parent = parent
        self.reset()

    def reset(self) -> None:
        self.last: Any = None    # the last child indexed
        self.first: dict[tuple[str, str | None], Any] = {}
        self.by_tag: dict[str, list] = {}
        # base name -> the number after which the free names of :meth:`free_name` start.
        self.suffixes: dict[str, int] = {}

    def follow(self) -> None:
        """Index the children added since the last call: those after the last one indexed,
        found walking back from the element's last child (lxml counts and indexes children
        by walking them, so ``len`` and ``parent[i]`` would cost them all); all of them when
        the last one indexed is no longer there."""
        newest = _last_child(self.parent)
        if newest is self.last:
            return
        added = []
        child = newest
        while child is not None and child is not self.last:
            added.append(child)
            child = child.getprevious()
        if child is None and self.last is not None:  # the element changed: index it again
            self.reset()
            added = list(self.parent)[::-1]
        for child in reversed(added):
            tag = child.tag
            if isinstance(tag, str):
                self.first.setdefault((tag, child.get("name")), child)
                self.by_tag.setdefault(tag, []).append(child)
        self.last = newest


def _last_child(parent):
    """``parent``'s last child, or None (lxml finds ``parent[-1]`` from the end at once)."""
    try:
        return parent[-1]
    except IndexError:
        return None


class ChildIndex:
    """The children of every element asked about (see the module's docstring)."""

    def __init__(self) -> None:
        self._elements: dict[Any, _Children] = {}

    def _children(self, parent) -> _Children:
        children = self._elements.get(parent)
        if children is None:
            children = self._elements[parent] = _Children(parent)
        children.follow()
        return children

    def named(self, parent, tag: str, name: str | None):
        """The first child of ``parent`` with ``tag`` and attribute ``name`` (None: without
        one), or None."""
        return self._children(parent).first.get((tag, name))

    def of_tag(self, parent, tag: str) -> list:
        """The children of ``parent`` with ``tag``, in document order (do not change it)."""
        return self._children(parent).by_tag.get(tag, [])

    def free_name(self, parent, tag: str, base: str) -> str:
        """The first of ``base``, ``base_1``, ``base_2``... that no ``tag`` child of
        ``parent`` has; names are never taken back, so each search goes on from the last."""
        children = self._children(parent)
        i = children.suffixes.get(base, 0)
        name = base if i == 0 else f"{base}_{i}"
        while (tag, name) in children.first:
            i += 1
            name = f"{base}_{i}"
        children.suffixes[base] = i
        return name

    def replaced(self, parent, old, new) -> None:
        """``parent.replace(old, new)`` was done (``new`` with ``old``'s tag and name)."""
        children = self._elements.get(parent)
        if children is None:
            return
        key = (old.tag, old.get("name"))
        if children.first.get(key) is old:
            children.first[key] = new
        same_tag = children.by_tag.get(old.tag, [])
        for i, child in enumerate(same_tag):
            if child is old:
                same_tag[i] = new
                break
        if children.last is old:
            children.last = new
