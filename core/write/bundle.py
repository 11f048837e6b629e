"""The meshes and textures of a Gazebo model directory or a ROS package being written:
each resolved file gets one place under the bundle's folder, and the files a mesh itself
refers to (a COLLADA file's images, an OBJ's material library and its maps) come along.

A file found in a package or model directory keeps its path inside it, without a leading
``meshes/`` (``package://arm/meshes/visual/base.dae`` -> ``meshes/visual/base.dae``); a
plain path keeps its path below the description's folder, or its name. The folders are
those of the file's real path (every symlink followed) below the real package, model or
description folder, and the name the one it is named by (a symlink's own name): how a URI
spells its way there (``..``, symlinks) never shapes the place. A place is a relative path
of safe components only (:func:`safe_place`: never absolute, ``..``, ``.``, empty, nor
holding a control character or a backslash); a file whose folders there are not safe is
placed by its name alone (made safe; the rule: :mod:`urdf_sdf.core.base.path_components`).
Two different files that would land in one place are told apart by their package's or
model's name, then by a number; one file named twice is copied once.
:meth:`Bundle.copy_into` refuses (OSError) a place that is not safe before it copies
anything.

Only files ``core.write.confined`` allows are bundled (inside the input's package or a
search path the user gave, regular, not under /proc, /sys, /dev); any other is an error
at the line naming it (or naming the mesh that refers to it), and the caller writes
nothing. Copies are new files, made from the very file that was checked.
"""
from __future__ import annotations

import errno
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.path_components import (
    component_problem,
    is_within,
    without_unsafe_characters,
)
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.compose.uri import shown
from urdf_sdf.core.inspect.resources import (
    Resource,
    base_folder,
    first_use_only,
    owner_uses,
    resolve_resource,
    resources_of,
    sniff_mesh,
)
from urdf_sdf.core.read.files import read_regular
from urdf_sdf.core.write.confined import (
    CopyRoots,
    FileId,
    Refusal,
    copy_check,
    copy_checked,
    with_own_package,
)

# Statements of an OBJ material library (.mtl) that name image files.
MTL_MAPS = re.compile(r"^\s*(map_\w+|bump|disp|decal|refl|norm)\s+(?:-\S+\s+\S+\s+)*(\S+)\s*$")
MAX_SCANNED_BYTES = 64 * 1024 * 1024  # a mesh larger than this is copied, not read


@dataclass
class Bundle:
    """Source files and where each goes (``dest``, relative to the output root); only
    files inside ``roots`` (``core.write.confined``) are taken."""
    folder: str = "meshes"
    description_dir: Path | None = None
    roots: CopyRoots = field(default_factory=lambda: CopyRoots(None))
    identity: dict[str, FileId] = field(default_factory=dict)   # real source path -> id
    refused: list[tuple[str, Refusal]] = field(default_factory=list)  # (what, why) not taken
    dest_of: dict[str, str] = field(default_factory=dict)       # real source path -> dest
    source_of: dict[str, str] = field(default_factory=dict)     # dest -> real source path
    skipped: list[str] = field(default_factory=list)            # why a referenced file is not
    displaced: dict[str, str] = field(default_factory=dict)     # dest -> the place taken

    def add(self, resource: Resource, path: Path, identity: FileId) -> str:
        """The place of a resource resolved to ``path`` that :func:`confined.copy_check`
        allowed (its ``identity``), adding it and what a mesh refers to (those refused go to
        :attr:`refused`); see :attr:`displaced` for a file that could not have its natural
        place."""
        real = os.path.realpath(path)
        if real in self.dest_of:
            return self.dest_of[real]
        natural = self._natural_place(resource, path)
        dest = self._free(natural, resource.owner)
        if dest != natural:
            self.displaced[dest] = natural
        self._claim(real, dest, identity)
        if resource.kind == "mesh":
            self._add_references(Path(real), dest)
        return dest

    def _natural_place(self, resource: Resource, path: Path) -> str:
        """The folder the file really lies in (every symlink followed) below its package
        or model directory, else below the description's folder, else none; then the
        name it is named by (a symlink's own name): always a :func:`safe_place`."""
        real = os.path.realpath(path)
        named = path.name
        name = named if component_problem(named) is None else _safe_component(Path(real).name)
        folder = os.path.dirname(real)
        below = _parts_below(folder, resource.root)
        if below is None:
            below = _parts_below(folder, self.description_dir)
        parts = [*(below or []), name]
        if len(parts) > 1 and parts[0] == self.folder:
            parts = parts[1:]
        return posixpath.join(self.folder, *parts)

    def _free(self, dest: str, owner: str | None) -> str:
        """``dest``, or a place no other file has taken (the owner's name, then a number)."""
        if dest not in self.source_of:
            return dest
        head, tail = posixpath.split(dest)
        if owner:
            candidate = posixpath.join(self.folder, owner, dest[len(self.folder) + 1:])
            if candidate not in self.source_of:
                return candidate
        stem, suffix = posixpath.splitext(tail)
        number = 2
        while posixpath.join(head, f"{stem}_{number}{suffix}") in self.source_of:
            number += 1
        return posixpath.join(head, f"{stem}_{number}{suffix}")

    def _claim(self, real: str, dest: str, identity: FileId) -> None:
        self.dest_of[real] = dest
        self.source_of[dest] = real
        self.identity[real] = identity

    def _add_references(self, mesh: Path, dest: str) -> None:
        """Files the mesh names relative to itself go to the same place relative to it."""
        for reference in referenced_files(mesh):
            source = os.path.realpath(mesh.parent / reference)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(dest), reference))
            if not target.startswith(self.folder + "/") or not safe_place(target) or \
                    not os.path.lexists(source):
                self.skipped.append(f"[{reference}] named by {mesh.name}")
                continue
            if source in self.dest_of or target in self.source_of:
                continue
            checked = copy_check(mesh.parent / reference, self.roots)
            if isinstance(checked, Refusal):
                self.refused.append((f"[{reference}] named by {mesh.name}", checked))
                continue
            self._claim(source, target, checked)
            if source.lower().endswith(".mtl"):
                self._add_references(Path(source), target)

    def copy_into(self, root: Path) -> None:
        """Copy every file into the new folder ``root`` (each a new file, from the file
        that was checked, its folders below ``root`` opened one at a time with no link
        followed: OSError when one changed meanwhile, when a folder is a link, or when a
        place is not a :func:`safe_place`, before anything is copied)."""
        for dest in self.source_of:
            if not safe_place(dest):
                raise OSError(errno.EINVAL, f"[{escape(dest)}] is not a place inside "
                              "the output")
        for dest, source in self.source_of.items():
            copy_checked(source, self.identity[source], root / dest, root)


TOKEN_SCHEME = "urdf-sdf-resource://"


def tokenize_resources(result) -> dict[str, Resource]:
    """Give every mesh and texture URI of ``result``'s model a unique token before it is
    converted, so that each URI of the written document is known by where it was named
    (two included models may both say ``meshes/base.stl``, each of its own folder)."""
    tokens: dict[str, Resource] = {}
    for index, resource in enumerate(resources_of(result)):
        token = f"{TOKEN_SCHEME}{index}"
        assert resource.holder is not None, "resources_of names every resource's holder"
        holder, attribute = resource.holder
        setattr(holder, attribute, token)
        tokens[token] = resource
    return tokens


def bundle_sites(sites, tokens: dict[str, Resource], result, context, bundle: Bundle,
                 new_uri, diagnostics, holder: str) -> None:
    """Replace each token (:func:`tokenize_resources`) at a ``(element, attribute or None
    for its text)`` site of the written document: the file the original URI names,
    resolved from the folder of the file that named it, is added to ``bundle`` and the site
    says ``new_uri(place)``; a URI that does not resolve is written back as it was, and it
    and a file that is not a mesh by its content are named in a warning (``holder`` says
    what will not hold it). A file ``bundle.roots`` refuses (and one a mesh refers to) is
    an error at the site's line."""
    uri_at: dict[str, str] = {}  # place -> the URI first copied there
    for named in tokens.values():
        resolve_resource(named, base_folder(named.source, result), context)
    uses = owner_uses(list(tokens.values()))
    for site, attribute in sites:
        value = (site.get(attribute) if attribute else site.text or "").strip()
        resource = tokens.get(value)
        if resource is None:
            continue
        uri, path = resource.uri, resource.path
        checked = _copy_check(resource, bundle.roots)
        if isinstance(checked, Refusal):
            diagnostics.error_at(checked.code, f"{resource.kind} [{shown(uri)}] is not copied "
                                 f"into {holder}: {checked.reason}", resource.source)
            place = uri
        elif checked is None or path is None:
            problem = first_use_only(resource, uses)
            if problem is not None:
                diagnostics.warning_at(Code.MESH_UNRESOLVED, f"{resource.kind} [{shown(uri)}] "
                                       f"does not resolve: {problem}; its URI is kept and "
                                       f"{holder} does not hold it", resource.source)
            place = uri
        else:
            if resource.kind == "mesh" and sniff_mesh(path)[0] is None:
                diagnostics.warning_at(Code.MESH_UNREADABLE, f"mesh [{shown(uri)}] "
                                       f"({path}) is not a mesh file by its content "
                                       "(STL, OBJ, COLLADA, glTF, GLB); copied as it is",
                                       resource.source)
            dest = bundle.add(resource, path, checked)
            for what, why in bundle.refused:
                diagnostics.error_at(why.code, f"{what} (of {resource.kind} [{shown(uri)}]) is "
                                     f"not copied into {holder}: {why.reason}", resource.source)
            bundle.refused.clear()
            if dest in bundle.displaced:
                taken = bundle.displaced.pop(dest)
                diagnostics.warning_at(Code.NAME_RENAMED, f"{resource.kind} [{shown(uri)}] is "
                                       f"copied as [{dest}]: [{taken}] holds another file "
                                       f"([{shown(uri_at.get(taken, taken))}])",
                                       resource.source)
            uri_at.setdefault(dest, uri)
            place = new_uri(dest)
        if attribute:
            site.set(attribute, place)
        else:
            site.text = place
    for reason in bundle.skipped:
        diagnostics.warning_at(Code.MESH_UNRESOLVED, f"{reason} is not copied: it is missing "
                               f"or outside the folder {holder} keeps meshes in", None,
                               result.document.file)


def _copy_check(resource: Resource, roots: CopyRoots) -> FileId | Refusal | None:
    """A resolved resource's :func:`confined.copy_check`; a refusal for one that resolved
    to something that is not a regular file; None for one that does not resolve."""
    if resource.problem_code is not None:
        return Refusal(resource.problem_code, resource.problem or "")
    if resource.problem is not None or resource.path is None:
        return None
    return copy_check(resource.path, with_own_package(roots, resource.root, resource.owner))


def _parts_below(real: str, folder: Path | None) -> list[str] | None:
    """The components of the real path ``real`` below (or at: none) the real path of
    ``folder``, when it lies there and each is a safe component; else None."""
    if folder is None:
        return None
    base = os.path.realpath(folder)
    if real == base:
        return []
    if not is_within(real, base):
        return None
    parts = Path(os.path.relpath(real, base)).parts
    return list(parts) if all(component_problem(p) is None for p in parts) else None


def _safe_component(name: str) -> str:
    """``name`` with separators and control characters ``_`` (``_`` for '.', '..',
    empty)."""
    cleaned = without_unsafe_characters(name)
    return "_" if cleaned in ("", ".", "..") else cleaned


def safe_place(place: str) -> bool:
    """Whether ``place`` is a relative path of safe components (none empty, ``.``,
    ``..``, holding a separator or control character): it stays inside any folder."""
    return not place.startswith("/") and \
        all(component_problem(part) is None for part in place.split("/"))



def referenced_files(path: Path) -> list[str]:
    """Relative file names a mesh or material library names: COLLADA ``<init_from>``
    images, OBJ ``mtllib`` files, MTL texture maps. URIs and absolute paths are left."""
    try:  # never through a last symlink, like the copy itself
        data = read_regular(path, MAX_SCANNED_BYTES, follow_links=False)
    except OSError:  # not a regular file or unreadable: its copy check says why
        return []
    if data is None:
        return []
    suffix = path.suffix.lower()
    if suffix == ".dae" or data.lstrip()[:5] == b"<?xml":
        names = _collada_images(data)
    elif suffix == ".mtl":
        names = [m.group(2) for m in map(MTL_MAPS.match, _lines(data)) if m]
    else:
        names = [name for line in _lines(data) if line.startswith("mtllib ")
                 for name in line.split()[1:]]
    return [n for n in names if n and "://" not in n and not os.path.isabs(n)]


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", errors="replace").splitlines()


def _collada_images(data: bytes) -> list[str]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False, recover=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return []
    if root is None:
        return []
    names = []
    for el in root.iter("{*}init_from", "{*}ref"):
        text = (el.text or "").strip()
        if text and (el.getparent() is None or etree.QName(el.getparent()).localname
                     in ("image", "init_from")):
            names.append(text[len("file://"):] if text.startswith("file://") else text)
    return names
