"""SDFormat's element tree, per version: which child elements and attributes SDFormat
defines for an element, read from the table ``sdformat_tree.json`` shipped with the
package (derived from SDFormat's description files by
``python -m urdf_sdf.core.base.sdformat_tree_derive /usr/share/sdformat12``; see that module
for what the table keeps).

An element is known by its *type* (a description file's element is reused by many
parents); :meth:`VersionTree.type_at` finds the type of a path such as
``("model", "link", "sensor")`` below the root ``<sdf>``. The table describes the
versions libsdformat installs descriptions for (1.0 to 1.9 with libsdformat 12): a newer
version is checked against the newest described one (:attr:`VersionTree.described`),
which is what a reader of that version still accepts, less what came after it.

:func:`undefined_content` lists what an element holds that SDFormat does not define for
it (elements and attributes); elements and attributes in a namespace (custom content,
``urdf:...``) are always allowed, and the content of ``copy_data`` elements
(``<plugin>``) is free.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache, lru_cache
from types import MappingProxyType

Version = tuple[int, int]
TABLE = "sdformat_tree.json"
LEAF = ""  # the type of a value element: no attributes, no children


@dataclass(frozen=True)
class ElementType:
    attributes: frozenset
    children: MappingProxyType  # child name -> type
    free: bool  # content not described: copy_data (<plugin>) or a file the table lacked


EMPTY = ElementType(frozenset(), MappingProxyType({}), False)


@dataclass(frozen=True)
class VersionTree:
    """The element tree of one described version."""
    described: Version
    root: str
    types: MappingProxyType  # type -> ElementType

    def element_type(self, type_id: str) -> ElementType:
        return EMPTY if type_id == LEAF else self.types[type_id]

    def child(self, type_id: str, tag: str) -> str | None:
        """The type of child ``tag`` of an element of ``type_id``; None when undefined."""
        return self.element_type(type_id).children.get(tag)

    def type_at(self, path: tuple[str, ...]) -> str | None:
        """The type of the element at ``path`` below the root (``("model", "link")``)."""
        type_id: str | None = self.root
        for tag in path:
            type_id = self.child(type_id, tag) if type_id is not None else None
        return type_id


@dataclass(frozen=True)
class Undefined:
    """Something an element holds that SDFormat does not define there: ``element`` itself
    (``attributes`` empty), or its ``attributes``; ``path`` is the tags from the checked
    element down to ``element``."""
    element: object
    path: tuple[str, ...]
    attributes: tuple[str, ...] = ()


def parse_version(text: str) -> Version:
    major, minor = text.split(".")
    return int(major), int(minor)


@lru_cache(maxsize=1)
def table() -> dict:
    """The shipped table's versions, as JSON (read once)."""
    import json  # here: a run needing no table is spared it
    return json.loads(table_text())["versions"]


def table_text() -> str:
    """The shipped table's text: read beside this module (where a wheel installs it),
    else through importlib.resources (a zipped package), whose import costs 5 ms."""
    try:
        with open(os.path.join(os.path.dirname(__file__), TABLE), encoding="utf-8") as f:
            return f.read()
    except OSError:
        from importlib import resources
        return resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8")


@cache
def version_tree(name: str) -> VersionTree:
    """The tree of the described version ``name`` ("1.9"), built when first needed."""
    described = table()[name]
    types = {type_id: ElementType(frozenset(entry["attributes"]),
                                  MappingProxyType(entry["children"]),
                                  bool(entry.get("free") or entry.get("undescribed")))
             for type_id, entry in described["types"].items()}
    return VersionTree(parse_version(name), described["root"], MappingProxyType(types))


def described_versions() -> list[tuple[Version, str]]:
    """``(version, name)`` of every version the table describes, oldest first."""
    return sorted((parse_version(name), name) for name in table())


def described_trees() -> tuple[VersionTree, ...]:
    """Every version the table describes, oldest first."""
    return tuple(version_tree(name) for _, name in described_versions())


def tree_for(version: Version) -> VersionTree:
    """The tree to check an SDF of ``version`` against: that version's, else the newest
    described one before it."""
    versions = described_versions()
    older = [name for described, name in versions if described <= version]
    return version_tree(older[-1] if older else versions[0][1])


def first_version_defining(path: tuple[str, ...], after: Version,
                           attributes: tuple[str, ...] = ()) -> Version | None:
    """The first described version after ``after`` that defines the element at ``path``
    (below the root), with ``attributes``."""
    for described, name in described_versions():
        if described <= after:
            continue
        tree = version_tree(name)
        type_id = tree.type_at(path)
        if type_id is not None and set(attributes) <= tree.element_type(type_id).attributes:
            return described
    return None


def is_namespaced(name) -> bool:
    """A tag or attribute in a namespace (lxml's ``{uri}name``): custom content."""
    return not isinstance(name, str) or name.startswith("{")


def undefined_content(el, tree: VersionTree, type_id: str) -> list[Undefined]:
    """What ``el`` (an element of ``type_id``) holds that ``tree`` does not define, in
    document order: elements, and elements with attributes, that SDFormat does not define
    where they are (neither is looked into). Linear in the size of ``el``."""
    found: list[Undefined] = []

    def walk(node, node_type: str, path: tuple[str, ...]) -> None:
        described = tree.element_type(node_type)
        attributes = tuple(name for name in node.attrib
                           if not is_namespaced(name) and name not in described.attributes)
        if attributes:
            found.append(Undefined(node, path, attributes))
            return
        if described.free:
            return
        for child in node:
            if is_namespaced(child.tag):
                continue
            child_type = described.children.get(child.tag)
            if child_type is None:
                found.append(Undefined(child, (*path, child.tag)))
            else:
                walk(child, child_type, (*path, child.tag))

    walk(el, type_id, (el.tag,))
    return found
