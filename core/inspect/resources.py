"""Meshes and textures a description names: the file each URI points at, found as every
command finds it, and whether that file is a mesh.

* ``package://PKG/...``: the folder ``--package PKG=DIR`` names, else a folder named PKG
  above the file naming the URI (its own package), in ``Context.package_paths``
  (``--package-path``, ``ROS_PACKAGE_PATH``: the entry or a folder below it named PKG)
  and the ``share/PKG`` of ``Context.ament_prefixes`` (``AMENT_PREFIX_PATH``)
  (:func:`urdf_sdf.core.compose.uri.package_roots`);
* ``model://NAME/...``: ``Context.model_paths`` (``--path``, ``SDF_PATH``,
  ``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``, ``GAZEBO_MODEL_PATH``);
* ``file://PATH`` and plain paths: absolute, or relative to the folder of the file that
  names them (an included file's own folder).

A URI found in a package, model or search directory must stay inside it (``..`` may not
climb out). A URI naming something that is not a regular file (a FIFO, a device, a
socket) does not resolve (RESOURCE_NOT_REGULAR). A mesh is recognised by its content (STL
binary or ASCII, OBJ, COLLADA, glTF and GLB), from its first bytes only, read from a
regular file opened by :func:`urdf_sdf.core.read.files.open_regular` (non-blocking,
examined after opening); nothing of its content is ever printed, and a mesh that
cannot be read is named with the system's reason ("permission denied"), not as "not a
mesh". A package or model that is not found at all is named once, however many URIs
use it (:func:`unresolved_owner_message`: where it was looked for and what to pass). What a
model directory or package may copy is decided by ``core.write.confined``.
"""
from __future__ import annotations

import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Diagnostics, Source
from urdf_sdf.core.compose.uri import (
    inside,
    outside,
    package_candidates,
    package_roots,
    roots_for,
    shown,
)
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.read.files import (
    file_kind,
    not_regular_message,
    open_regular,
    os_reason,
    read_upto,
)
from urdf_sdf.core.read.xmlio import Within

SNIFF_BYTES = 4096
OBJ_KEYWORDS = {"v", "vt", "vn", "vp", "f", "l", "p", "o", "g", "s", "mtllib", "usemtl",
                "cstype", "deg", "curv", "surf", "parm", "end"}


@dataclass
class Resource:
    """One URI a description names: ``kind`` is ``mesh`` or ``texture``; ``path`` the file
    it resolves to, ``root`` the package, model or search directory it was found in (None
    for a path relative to the file or absolute), ``owner`` that package's or model's
    name; ``problem`` says why it does not resolve (``problem_code``: an error's code
    when it is not a mere miss, e.g. RESOURCE_NOT_REGULAR)."""
    uri: str
    kind: str
    source: Source
    # The model object and attribute holding the URI (a Geometry's uri, a Material's
    # texture), for a writer that renames it.
    holder: tuple[object, str] | None = None
    path: Path | None = None
    root: Path | None = None
    owner: str | None = None
    problem: str | None = None
    problem_code: Code | None = None
    # The package or model a URI names when no folder of that name was found at all
    # (``("package", "PKG")``, ``("model", "NAME")``): every use of it fails alike.
    missing_owner: tuple[str, str] | None = None
    # The real path of ``path``, checked inside the roots it may be read from
    # (resolve_resource's ``within``): opened with no link followed (:meth:`opened`).
    real: str | None = None

    def opened(self) -> tuple[str | Path, bool]:
        """What a reader opens: ``(real path, True)`` when it was checked (open it with no
        link followed: a folder swapped for a link since is refused), else
        ``(path, False)``."""
        return (self.real, True) if self.real is not None else (str(self.path), False)


def resource_candidates(uri: str, base: Path, context: Context):
    """``(root, owner, path)`` to try in order, or a string saying why there are none."""
    if uri.startswith("file://"):
        raw = uri[len("file://"):]
        return [(None, None, Path(raw) if os.path.isabs(raw) else base / raw)]
    if uri.startswith("package://"):
        rest = uri[len("package://"):]
        owner = rest.partition("/")[0]
        return [(root, owner, path) for root, path in package_candidates(rest, context, base)]
    if uri.startswith("model://"):
        rest = uri[len("model://"):]
        owner = rest.partition("/")[0]
        return [(Path(p) / owner, owner, Path(p) / rest) for p in context.model_paths
                if owner not in ("", ".", "..")]
    if "://" in uri:
        return f"scheme {uri.split('://', 1)[0]}:// is not supported"
    return [(None, None, Path(uri) if os.path.isabs(uri) else base / uri)]


def resolve_resource(resource: Resource, base: Path, context: Context,
                     within: Within | None = None) -> Resource:
    """Fill ``resource.path`` (and root, owner) or ``resource.problem``. ``within``: where
    the file may lie to be read (:func:`read_within`); one whose real path lies outside is
    RESOURCE_OUTSIDE_PACKAGE, with no path."""
    uri = resource.uri.strip()
    candidates = resource_candidates(uri, base, context)
    if isinstance(candidates, str):
        resource.problem = candidates
        return resource
    for root, owner, path in candidates:
        if root is not None and not inside(path, root):
            resource.problem = f"it leaves the directory it is resolved in ({root})"
            return resource
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(mode):
            problem = outside(path, within) if within is not None else None
            if problem is not None:
                resource.problem = f"it names {problem}"
                resource.problem_code = Code.RESOURCE_OUTSIDE_PACKAGE
                return resource
            resource.path, resource.root, resource.owner = path, root, owner
            resource.real = os.path.realpath(path) if within is not None else None
            return resource
        if not stat.S_ISDIR(mode):
            resource.problem = f"{path} is {not_regular_message(file_kind(mode))}"
            resource.problem_code = Code.RESOURCE_NOT_REGULAR
            return resource
    resource.missing_owner = _missing_owner(uri, base, context)
    resource.problem = "no such file" if resource.missing_owner is None else \
        unresolved_owner_message(resource.missing_owner, base, context)
    return resource


def _missing_owner(uri: str, base: Path, context: Context) -> tuple[str, str] | None:
    """``("package", PKG)`` or ``("model", NAME)`` when no folder of that name exists
    where ``uri`` is looked for; None when one does (the file is missing in it)."""
    if uri.startswith("package://"):
        package = uri[len("package://"):].partition("/")[0]
        roots = package_roots(package, context, base)
        return None if any(_is_dir(root) for root in roots) else ("package", package)
    if uri.startswith("model://"):
        model = uri[len("model://"):].partition("/")[0]
        folders = [Path(p) / model for p in context.model_paths]
        return None if any(_is_dir(folder) for folder in folders) else ("model", model)
    return None


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


SHOWN_FOLDERS = 3  # search folders a message lists, then "and N more"


def _listed(folders: list[str]) -> str:
    shown_folders = ", ".join(folders[:SHOWN_FOLDERS])
    more = len(folders) - SHOWN_FOLDERS
    return shown_folders + (f" and {more} more" if more > 0 else "")


def unresolved_owner_message(owner: tuple[str, str], base: Path, context: Context) -> str:
    """Why every URI of a package or model that was not found fails: where it was looked
    for, and what to pass."""
    kind, name = owner
    if kind == "package":
        where = [f"a folder named {name} above {base}"]
        if context.package_paths:
            where.append("in the package paths (--package-path, ROS_PACKAGE_PATH: "
                         f"{_listed(context.package_paths)})")
        if context.ament_prefixes:
            where.append(f"share/{name} of AMENT_PREFIX_PATH "
                         f"({_listed(context.ament_prefixes)})")
        return (f"package [{name}] is not found (looked for {'; '.join(where)}); pass "
                f"--package {name}=DIR (DIR: the folder its URIs start from) or "
                "--package-path with the folder holding it")
    where_model = f"in the model paths (--path, SDF_PATH, GZ_SIM_RESOURCE_PATH, " \
        f"GAZEBO_MODEL_PATH: {_listed(context.model_paths)})" if context.model_paths else \
        "in no model path: none is set (--path, SDF_PATH, GZ_SIM_RESOURCE_PATH, " \
        "GAZEBO_MODEL_PATH)"
    return (f"model [{name}] is not found (looked for a folder named {name} {where_model}); "
            "pass -p/--path with the folder holding it")


def owner_uses(resources: list[Resource]) -> dict[tuple[str, str], int]:
    """How many of ``resources`` name each package or model that was not found."""
    uses: dict[tuple[str, str], int] = {}
    for resource in resources:
        if resource.missing_owner is not None:
            uses[resource.missing_owner] = uses.get(resource.missing_owner, 0) + 1
    return uses


def first_use_only(resource: Resource, uses: dict[tuple[str, str], int]) -> str | None:
    """The problem to report for ``resource`` when its package or model was not found:
    the summary (with how many URIs use it) at its first use, None at every later one
    (already said); its own problem otherwise."""
    if resource.missing_owner is None:
        return resource.problem
    count = uses.pop(resource.missing_owner, None)
    if count is None:
        return None
    return f"{resource.problem} (named by {count} URI{'s' if count != 1 else ''})"


def mesh_format(path: Path) -> str | None:
    """``stl``, ``obj``, ``dae``, ``gltf`` or ``glb`` by the file's content, else None."""
    return sniff_mesh(path)[0]


def sniff_mesh(path: str | Path, resolved: bool = False) -> tuple[str | None, str | None]:
    """``(format, None)`` by the file's content (:func:`mesh_format`), ``(None, None)`` for
    a readable file that is not a mesh, ``(None, reason)`` for one that cannot be read
    ("permission denied", "not a regular file (a FIFO)")."""
    try:
        fd = open_regular(path, resolved=resolved)
    except OSError as exc:  # NotRegular too: "not a regular file (a FIFO)"
        return None, os_reason(exc)
    try:
        size = os.fstat(fd).st_size
        head = read_upto(fd, SNIFF_BYTES)
    except OSError as exc:
        return None, os_reason(exc)
    finally:
        os.close(fd)
    return mesh_format_of(head, size), None


def mesh_format_of(head: bytes, size: int) -> str | None:
    """:func:`mesh_format` of a file of ``size`` bytes that starts with ``head`` (its
    first :data:`SNIFF_BYTES` bytes, or all of it when shorter)."""
    head = head[:SNIFF_BYTES]
    if head[:4] == b"glTF":
        return "glb"
    if size >= 84 and 84 + 50 * struct.unpack("<I", head[80:84])[0] == size:
        return "stl"
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff").lstrip()
    if text.startswith("solid") and ("facet" in text or "endsolid" in text):
        return "stl"
    if text.startswith("<") and "<COLLADA" in text:
        return "dae"
    if text.startswith("{") and any(key in text for key in ('"asset"', '"buffers"',
                                                             '"meshes"')):
        return "gltf"
    return "obj" if _looks_like_obj(text, complete=size <= SNIFF_BYTES) else None


def _looks_like_obj(text: str, complete: bool) -> bool:
    """Every statement is an OBJ keyword and there are vertices or faces (the last line of
    a cut head may be cut too, so it is not judged)."""
    lines = text.splitlines()
    if not complete:
        lines = lines[:-1]
    keywords = [line.split(maxsplit=1)[0] for line in lines
                if line.strip() and not line.lstrip().startswith("#")]
    return bool(keywords) and all(k in OBJ_KEYWORDS for k in keywords) and \
        any(k in ("v", "f") for k in keywords)


def resources_of(result, kinds: tuple[str, ...] = ("mesh", "texture")) -> list[Resource]:
    """Every mesh (visual and collision geometry) and texture (URDF material) URI of a
    loaded description, in link order, each with where it is named."""
    if result.graph is None:
        return []
    found: list[Resource] = []
    for vertex in result.graph.vertices:
        if vertex.kind is not Kind.LINK:
            continue
        for shape in vertex.element.visuals + vertex.element.collisions:
            geometry, material = shape.geometry, shape.material
            if "mesh" in kinds and geometry is not None and geometry.kind == "mesh" \
                    and geometry.uri:
                found.append(Resource(geometry.uri, "mesh", located(geometry.source, shape),
                                      (geometry, "uri")))
            if "texture" in kinds and material is not None and material.texture:
                found.append(Resource(material.texture, "texture",
                                      located(material.source, shape), (material, "texture")))
    return found


@dataclass(frozen=True)
class Referenced:
    """A local file a description references and an output must never replace: a mesh or
    texture (``kind``) named ``uri`` at ``source``, resolved from ``base`` with
    ``context`` only when asked (:meth:`path`: an output that exists is checked against
    it), or an included model directory's ``model.config`` (``kind`` "model.config",
    ``uri`` its absolute path)."""
    uri: str
    kind: str
    source: Source
    base: Path
    context: Context

    def path(self) -> Path | None:
        """The existing regular file it names, or None."""
        return resolve_resource(Resource(self.uri, self.kind, self.source), self.base,
                                self.context).path

    def describe(self) -> str:
        """What references the file, as a message names it ("the mesh [m.stl] at
        robot.urdf:5")."""
        if self.kind == "model.config":
            return f"the <include> of the model directory {Path(self.uri).parent}"
        where = f"{self.source.file}:{self.source.line}" if self.source.line is not None \
            else str(self.source.file)
        return f"the {self.kind} [{shown(self.uri)}] at {where}"


def referenced_files(result) -> list[Referenced]:
    """Every local file ``result``'s description references, unresolved (:class:`Referenced`):
    its meshes and textures (:func:`resources_of`), each URI once, and the ``model.config``
    beside each file it includes (a model directory's, when there is one)."""
    context = result.context if result.context is not None else Context()
    bases: dict[str | None, Path] = {}
    found = []
    seen: set[tuple[str, str, Path]] = set()
    for resource in resources_of(result):
        file = resource.source.file
        if file not in bases:
            bases[file] = base_folder(resource.source, result)
        # One for each file named, at its first mention: a robot naming one mesh 46,000
        # times keeps one, not 46,000 objects made while it was read, which pinned the
        # freed model's memory (print of a 100,000-link robot: +460 MB at its peak).
        named = (resource.uri, resource.kind, bases[file])
        if named in seen:
            continue
        seen.add(named)
        found.append(Referenced(resource.uri, resource.kind, resource.source, bases[file],
                                context))
    top = result.document.file if result.document is not None else None
    for file in sorted(result.source_files - {top}):
        config = Path(file).absolute().parent / "model.config"
        found.append(Referenced(str(config), "model.config", Source(file), config.parent,
                                context))
    return found


def never_written(result) -> list[str | Referenced]:
    """What an output of ``result``'s conversion never replaces: the files it was read
    from (sorted) and those it references (:func:`referenced_files`)."""
    return [*sorted(result.source_files), *referenced_files(result)]


def located(source: Source, shape) -> Source:
    """``source``, or its shape's when it has no line."""
    return source if source.line is not None else shape.source


def read_within(result, uri: str, context: Context | None = None) -> Within:
    """Where the file a mesh or texture ``uri`` of ``result`` names may be read from: where
    an include of the same input may (:func:`urdf_sdf.core.compose.uri.roots_for`)."""
    top = result.document.file if result.document is not None else None
    return roots_for(top, context or result.context or Context(), uri)


def resolve_read(resource: Resource, result, context: Context) -> Resource:
    """:func:`resolve_resource` for a command that reads the file (``view``, ``diff``,
    ``check --meshes``): from the folder of the file naming it, only
    :func:`read_within` the input's roots."""
    return resolve_resource(resource, base_folder(resource.source, result), context,
                            read_within(result, resource.uri, context))


def base_folder(source: Source, result) -> Path:
    """The folder relative URIs named at ``source`` start from."""
    file = source.file or result.document.file
    if file in (None, "", "-", "<stdin>", "<input>"):
        return Path.cwd()
    return Path(file).resolve().parent


def check_meshes(result, context: Context) -> list[Diagnostic]:
    """``urdf-sdf check --meshes``: an error for every mesh that does not resolve
    (MESH_UNRESOLVED, once per package or model not found at all; RESOURCE_NOT_REGULAR
    for a FIFO, device or socket), cannot be read
    or is not a mesh file (MESH_UNREADABLE, with the system's reason when it cannot be
    read), at the line naming it."""
    diagnostics = Diagnostics()
    resources = [resolve_read(resource, result, context)
                 for resource in resources_of(result, ("mesh",))]
    uses = owner_uses(resources)
    for resource in resources:
        if resource.problem is not None or resource.path is None:
            problem = first_use_only(resource, uses)
            if problem is not None:
                diagnostics.error_at(resource.problem_code or Code.MESH_UNRESOLVED,
                                     f"mesh [{shown(resource.uri)}] does not resolve: "
                                     f"{problem}", resource.source)
            continue
        kind, unreadable = sniff_mesh(*resource.opened())
        if unreadable is not None:
            diagnostics.error_at(Code.MESH_UNREADABLE, f"mesh [{shown(resource.uri)}] "
                                 f"({resource.path}) cannot be read: {unreadable}",
                                 resource.source)
        elif kind is None:
            diagnostics.error_at(Code.MESH_UNREADABLE, f"mesh [{shown(resource.uri)}] "
                                 f"({resource.path}) is not a mesh file this tool reads (STL, "
                                 "OBJ, COLLADA, glTF, GLB; judged by content)", resource.source)
    return diagnostics
