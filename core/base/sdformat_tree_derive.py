"""Derive SDFormat's element tree, per version, from SDFormat's description files (the
``VERSION/*.sdf`` files libsdformat is built from and installs, e.g. Debian's
``/usr/share/sdformat12/1.0`` ... ``1.9``) into the table ``core/base/sdformat_tree.json``
that :mod:`urdf_sdf.core.base.sdformat_tree` reads::

    python -m urdf_sdf.core.base.sdformat_tree_derive /usr/share/sdformat12 [MORE...] [-o FILE]

Each ROOT holds one folder per version (``1.9/root.sdf``, ``1.0/gazebo.sdf``...); a version found
under a
later ROOT replaces the same version of an earlier one (a newer libsdformat's source
tree, ``sdf/``, has the same layout and adds 1.10, 1.11...). Without ``-o`` the table
goes to standard output.

What a description says, and what the table keeps of it:

* ``<element name=N>``: a child element N; its ``<attribute name=A>`` children are the
  attributes it may carry, its ``<element>`` and ``<include>`` children its own children.
* ``<include filename="F.sdf"/>``: the element F.sdf describes (its root ``<element>``),
  with that element's name; ``<element name=N ref="F"/>``: F.sdf's element named N.
  Files are reused by many parents, so the table is keyed by *type*: a file's element is
  the type ``F`` (the file's stem), an element described inline is ``PARENT/N``.
* ``<element copy_data="true">`` (in ``<plugin>``): the element's content is free, never
  checked (``"free": true``).
* ``required="-1"`` marks a deprecated element (libsdformat warns about it): left out,
  so that it counts as not defined.
* An ``<include>`` of a file the installation lacks (Debian's sdformat12 has no
  ``navsat.sdf``): the element named after the file, its content not described
  (``"undescribed": true``: not checked either).

A type is ``{"attributes": [...], "children": {name: type}}``; a child with neither
attributes nor children of its own (a value such as ``<mass>``) has the type ``""``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lxml import etree

FORMAT = 1
# The file describing a version's root element: <sdf> (1.3 on), <gazebo> (1.0, 1.2).
ROOT_FILES = ("root.sdf", "gazebo.sdf")
LEAF = ""


class VersionDescriptions:
    """The description files of one version and the types derived from them."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.types: dict[str, dict] = {}
        self.roots: dict[str, object] = {}

    def file_root(self, stem: str):
        """The root ``<element>`` of ``STEM.sdf`` (None when the file is missing)."""
        if stem not in self.roots:
            path = self.directory / f"{stem}.sdf"
            parser = etree.XMLParser(remove_comments=True, resolve_entities=False,
                                     no_network=True)
            self.roots[stem] = etree.parse(str(path), parser).getroot() \
                if path.is_file() else None
        return self.roots[stem]

    def file_type(self, stem: str) -> tuple[str, str]:
        """(element name, type) of the element ``STEM.sdf`` describes, deriving it once."""
        root = self.file_root(stem)
        if root is None:
            self.types.setdefault(stem, {"attributes": [], "children": {},
                                         "undescribed": True})
            return stem, stem
        if stem not in self.types:
            self.types[stem] = {}  # placeholder: a file may include itself (model in model)
            self.types[stem] = self.derive(root, stem)
        return root.get("name"), stem

    def derive(self, element, type_id: str) -> dict:
        """The type of description ``element``, registering the types of its children."""
        attributes, children, free = [], {}, False
        for child in element:
            if child.tag == "attribute":
                attributes.append(child.get("name"))
            elif child.tag == "include":
                name, child_type = self.file_type(Path(child.get("filename")).stem)
                children[name] = child_type
            elif child.tag == "element" and child.get("copy_data") == "true":
                free = True
            elif child.tag == "element" and child.get("required") != "-1":
                name = child.get("name")
                if child.get("ref"):
                    _, children[name] = self.file_type(child.get("ref"))
                else:
                    children[name] = self.inline_type(child, f"{type_id}/{name}")
        out: dict[str, object] = {"attributes": sorted(set(attributes)),
                                  "children": dict(sorted(children.items()))}
        if free:
            out["free"] = True
        return out

    def inline_type(self, element, type_id: str) -> str:
        derived = self.derive(element, type_id)
        if derived == {"attributes": [], "children": {}}:
            return LEAF
        self.types[type_id] = derived
        return type_id

    def table(self) -> dict:
        root_file = next(name for name in ROOT_FILES if (self.directory / name).is_file())
        _, root_type = self.file_type(Path(root_file).stem)
        return {"root": root_type, "types": dict(sorted(self.types.items()))}


def version_key(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split("."))


def version_folders(roots: list[Path]) -> dict[str, Path]:
    """Each version's description folder, a later root's replacing an earlier one's."""
    found = {}
    for root in roots:
        for folder in root.iterdir():
            described = any((folder / name).is_file() for name in ROOT_FILES)
            if described and all(part.isdigit() for part in folder.name.split(".")):
                found[folder.name] = folder
    return dict(sorted(found.items(), key=lambda item: version_key(item[0])))


def derive(roots: list[Path]) -> dict:
    """The table for every version found under ``roots``."""
    return {"format": FORMAT,
            "versions": {name: VersionDescriptions(folder).table()
                         for name, folder in version_folders(roots).items()}}


def table_text(table: dict) -> str:
    """The table as JSON text, one type to a line (readable diffs when it is regenerated)."""
    lines = ["{", f'"format": {table["format"]},', '"versions": {']
    versions = list(table["versions"].items())
    for v_index, (version, described) in enumerate(versions):
        lines.append(f'{json.dumps(version)}: {{"root": {json.dumps(described["root"])}, '
                     '"types": {')
        types = list(described["types"].items())
        for t_index, (type_id, entry) in enumerate(types):
            comma = "," if t_index < len(types) - 1 else ""
            lines.append(f"{json.dumps(type_id)}: "
                         f"{json.dumps(entry, separators=(',', ':'), sort_keys=True)}{comma}")
        lines.append("}}" + ("," if v_index < len(versions) - 1 else ""))
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m urdf_sdf.core.base.sdformat_tree_derive",
        description="Derive SDFormat's element tree per version from its description files.")
    parser.add_argument("roots", nargs="+", type=Path,
                        help="folders holding one folder of description files per version")
    parser.add_argument("-o", "--output", type=Path, help="the table file (default: stdout)")
    args = parser.parse_args(argv)
    missing = [str(root) for root in args.roots if not root.is_dir()]
    if missing:
        parser.error(f"not a folder: {', '.join(missing)}")
    table = derive(args.roots)
    if not table["versions"]:
        parser.error("no VERSION/root.sdf (or gazebo.sdf) under the folders given")
    text = table_text(table)
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
