"""Where an ``//include`` URI points: the file it names, found the way libsdformat and ROS
find it, never a guess.

* a path relative to the including file, an absolute path, ``file://``;
* ``model://NAME/...`` and bare model names, searched in ``Context.model_paths``;
* ``package://PKG/...``: the folder ``Context.packages`` maps PKG to (``--package
  PKG=DIR``), else the folder named PKG holding the file naming the URI in its ``urdf/``
  folder (its own package, as pip wheels ship them: no package.xml needed,
  :func:`package_ancestor`), in ``Context.package_paths`` (the entry itself or a folder
  below it named PKG, with or without a package.xml) and the ``share`` folders of
  ``Context.ament_prefixes`` (:func:`package_roots`).

Whatever the URI, the file it names is read only when its real path (every symlink
followed) lies inside the top input's own package or model directory (the nearest folder
above it with a ``package.xml`` or ``model.config``, else its folder; the working folder
for standard input) or a search path (``Context.model_paths``, ``package_paths``, the
ament prefixes' ``share``): never ``/etc/shadow`` through an absolute path, ``file://`` or
``..`` (RESOURCE_OUTSIDE_PACKAGE, and nothing is opened).

A model directory is read through its ``model.config``, choosing the newest SDFormat
version this reader supports (:func:`model_config_files`, which batch conversion uses
too).
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.path_components import is_within, own_directory
from urdf_sdf.core.read.version import NEWEST_VERSION, parse_version
from urdf_sdf.core.read.xmlio import Within, parse_xml, read_bytes

# A URI is cut to this many characters in messages (a hostile one may be megabytes).
MAX_SHOWN_URI = 200


def shown(uri: str) -> str:
    """``uri`` as messages quote it: cut after MAX_SHOWN_URI characters."""
    uri = uri.strip()
    return uri if len(uri) <= MAX_SHOWN_URI else uri[:MAX_SHOWN_URI] + "[...]"


def resolve_uri(uri: str, state, el) -> str | None:
    """The file an include URI names, or None with a URI_LOOKUP diagnostic (URI_INVALID
    when it would leave the directory it was resolved from)."""
    uri = uri.strip()
    base = Path(state.file).parent if state.file else Path.cwd()
    candidates = _candidates(uri, base, state, el)
    if candidates is None:
        return None
    for root, candidate in candidates:
        if root is not None and not inside(candidate, root):
            state.error(Code.URI_INVALID, f"uri[{shown(uri)}] leaves the directory it is "
                        f"resolved in ({root}): '..' may not climb out of a package, model "
                        "or search path directory", el)
            return None
        kind = _kind(candidate)
        if kind is None:
            continue
        if not readable_here(str(candidate), uri, state, el):
            return None
        found = _model_directory_file(candidate, uri, state, el) if kind == "dir" else \
            str(candidate)
        return found if found is None or readable_here(found, uri, state, el) else None
    state.error(Code.URI_LOOKUP, f"unable to find uri[{shown(uri)}]", el)
    return None


def top_input(state) -> str | None:
    """The file the user named, at the bottom of the include stack (None: standard input)."""
    return state.include_stack[0] if state.include_stack else state.file


def roots_of(top: str | None, context) -> list[str]:
    """The real paths a file read for the input ``top`` (None: standard input) must lie
    inside: its own package or model directory (the working folder for standard input),
    every search path of the context (``--package`` folders too) and its ``read_roots``."""
    own = own_directory(top) if top else own_directory(os.path.join(os.getcwd(), "input"))
    searched = [*context.model_paths, *context.package_paths, *context.packages.values(),
                *context.read_roots,
                *(os.path.join(prefix, "share") for prefix in context.ament_prefixes)]
    return [root for root in (own, *(os.path.realpath(p) for p in searched if p)) if root]


def own_package_of(top: str | None, uri: str) -> str | None:
    """The real path of the input ``top``'s own package ``PKG`` of a ``package://PKG/...``
    URI as pip wheels lay it out (:func:`package_ancestor`), or None."""
    package = package_name_of(uri[len("package://"):]) if uri.startswith("package://") \
        else None
    if not top or package is None:
        return None
    own = package_ancestor(Path(os.path.realpath(top)).parent, package)
    return os.path.realpath(own) if own is not None else None


def include_roots(state, uri: str) -> Within:
    """Where the file an include ``uri`` names may lie (:func:`roots_for` the top input).
    The file is read only from there, its real path opened with no link followed
    (:func:`~urdf_sdf.core.read.xmlio.read_bytes` ``within``)."""
    return roots_for(top_input(state), state.context, uri)


def roots_for(top: str | None, context, uri: str) -> Within:
    """Where a file that ``uri`` names (an include, a mesh, a texture) may lie when the
    input ``top`` is read: :func:`roots_of` and the input's own package of a
    ``package://`` URI (:func:`own_package_of`)."""
    package = own_package_of(top, uri.strip())
    roots = roots_of(top, context) + ([package] if package is not None else [])
    return Within(tuple(roots), "the input's package or model directory "
                  f"({roots[0] if roots else 'none'}) and every search path")


def readable_here(path: str, uri: str, state, el) -> bool:
    """Whether the file an include names lies inside :func:`include_roots`; else
    RESOURCE_OUTSIDE_PACKAGE at the include (the file is not opened)."""
    within = include_roots(state, uri)
    problem = outside(path, within, "include it")
    if problem is None:
        return True
    state.error(Code.RESOURCE_OUTSIDE_PACKAGE, f"uri[{shown(uri)}] names {problem}", el)
    return False


def outside(path: str | Path, within: Within, purpose: str = "read it") -> str | None:
    """Why the file at ``path`` may not be read: its real path, outside ``within``, and
    the option that admits its folder (to ``purpose``); None when it may be read."""
    real = os.path.realpath(path)
    if any(is_within(real, root) for root in within.roots):
        return None
    return (f"{real}, outside {within.named}: not read; name its folder with -p/--path to "
            f"{purpose}")


def _candidates(uri: str, base: Path, state, el) -> Sequence[tuple[Path | None, Path]] | None:
    """``(root, path)`` pairs to try in order; ``root`` is the directory ``path`` must stay
    inside (None for a path the user wrote relative to the including file, or absolute:
    there ``..`` is what they meant)."""
    if uri.startswith("file://"):
        raw = uri[len("file://"):]
        return [(None, base / raw if not os.path.isabs(raw) else Path(raw))]
    if uri.startswith("model://"):
        rest = uri[len("model://"):]
        return [(Path(p), Path(p) / rest) for p in state.context.model_paths]
    if uri.startswith("package://"):
        return package_candidates(uri[len("package://"):], state.context, base)
    if "://" in uri:
        state.error(Code.URI_LOOKUP, f"unable to find uri[{shown(uri)}]: scheme not supported",
                    el)
        return None
    return [(None, base / uri if not os.path.isabs(uri) else Path(uri))] + \
        [(Path(p), Path(p) / uri) for p in state.context.model_paths]


def inside(path: Path, root: Path) -> bool:
    """Whether ``path`` stays inside ``root`` once its ``..`` are resolved (lexically:
    a symlink inside a package, as colcon's --symlink-install makes, is fine)."""
    path_text = os.path.normpath(os.path.abspath(path))
    root_text = os.path.normpath(os.path.abspath(root))
    return is_within(path_text, root_text)


def _kind(path: Path) -> str | None:
    """``"dir"``, ``"file"`` or None (missing, a device, a FIFO, or a name the system
    refuses, e.g. too long)."""
    try:
        if path.is_dir():
            return "dir"
        if path.is_file():
            return "file"
    except (OSError, ValueError):
        pass
    return None


# How far below a package path entry a folder named after a package is looked for.
PACKAGE_SEARCH_DEPTH = 4
# The folders of a package a description file may sit in (one folder deeper at most) for
# a folder named after the package above it to be its own package (package_ancestor).
DESCRIPTION_FOLDERS = ("urdf", "xacro", "sdf", "robots")


def package_name_of(rest: str) -> str | None:
    """The package of ``package://`` + ``rest``, or None when it names none (empty,
    ``.``, ``..``, a path)."""
    package = rest.partition("/")[0]
    return None if not package or package in (".", "..") or os.sep in package else package


def package_candidates(rest: str, context, base: Path | None = None
                       ) -> list[tuple[Path, Path]]:
    """Where ``package://PKG/path`` may be, as ``(package root, path)``, in the order of
    :func:`package_roots`."""
    package = package_name_of(rest)
    if package is None:
        return []
    inner = rest.partition("/")[2]
    return [(root, root / inner) for root in package_roots(package, context, base)]


def package_roots(package: str, context, base: Path | None = None) -> list[Path]:
    """The folders that may be the package ``package``, in the order tried: the folder
    ``--package`` maps it to (that one alone); the package folder holding ``base`` (the
    folder of the file naming it: :func:`package_ancestor`); in each package path
    entry, the entry itself when named ``package``, then folders named ``package`` below
    it (at most PACKAGE_SEARCH_DEPTH deep; those holding a package.xml first); each ament
    prefix's ``share/package``."""
    explicit = context.packages.get(package)  # --package PKG=DIR
    if explicit is not None:
        return [Path(explicit)]
    own = package_ancestor(base, package)
    roots = [own] if own is not None else []
    for entry in context.package_paths:
        roots.extend(_named_below(Path(entry), package))
    roots.extend(Path(prefix) / "share" / package for prefix in context.ament_prefixes)
    return roots


def package_ancestor(base: Path | None, package: str) -> Path | None:
    """The package ``package`` that holds the folder ``base`` as a package holds its
    descriptions, as pip wheels lay them out (no package.xml needed): ``base`` itself when
    named ``package``, or the nearest folder named ``package`` above it with ``base`` its
    ``urdf/`` (``xacro/``, ``sdf/``, ``robots/``) folder or one folder inside that; None
    else (a folder of that name farther up, say ``/home``, is never a package)."""
    if base is None:
        return None
    folder = Path(os.path.abspath(base))
    for candidate in [folder, *folder.parents][:3]:
        if candidate.name == package:
            inner = folder.relative_to(candidate).parts
            return candidate if not inner or inner[0] in DESCRIPTION_FOLDERS else None
    return None


def _named_below(entry: Path, package: str) -> list[Path]:
    """``entry`` when it is named ``package``, then the folders named ``package`` below
    it, those holding a package.xml first."""
    roots = [entry] if entry.name == package else []
    try:
        found = [p for p in entry.glob(f"**/{package}")
                 if len(p.relative_to(entry).parts) <= PACKAGE_SEARCH_DEPTH and p.is_dir()]
    except (OSError, ValueError):
        return roots
    return roots + sorted(found, key=lambda p: (not (p / "package.xml").is_file(), str(p)))


def _model_directory_file(directory: Path, uri: str, state, el) -> str | None:
    config = directory / "model.config"
    if not config.is_file():
        state.error(Code.URI_LOOKUP, f"unable to resolve uri[{shown(uri)}]: directory "
                    f"[{directory}] has no model.config", el)
        return None
    sub = Diagnostics()
    entries = model_config_entries(config, sub, include_roots(state, uri))
    if entries is None:
        state.diagnostics.extend(sub)
        state.error(Code.URI_LOOKUP, f"unable to read [{config}]", el)
        return None
    if not entries:
        state.error(Code.URI_LOOKUP, f"[{config}] names no SDFormat file this reader supports", el)
        return None
    name = entries[0][1]
    path = directory / name
    if not inside(path, directory):
        state.error(Code.URI_INVALID, f"[{config}] names [{shown(name)}], outside its model "
                    f"directory (uri[{shown(uri)}])", el)
        return None
    if _kind(path) != "file":
        state.error(Code.URI_LOOKUP, f"[{config}] names [{shown(name)}], which does not exist",
                    el)
        return None
    return str(path)


def model_config_entries(config: Path, diagnostics: Diagnostics,
                         within: str | Within | None = None
                         ) -> list[tuple[tuple[int, int], str]] | None:
    """The ``(version, file name)`` entries of a ``model.config`` that this reader can
    read, newest first (of equal versions, the first listed); None when the file cannot be
    read (the reason in ``diagnostics``). ``within``: where it must lie when opened."""
    data = read_bytes(config, diagnostics, within=within)
    root = parse_xml(data, str(config), diagnostics) if data is not None else None
    if root is None:
        return None
    entries = []
    for sdf_el in root.iter("sdf"):
        version = parse_version(sdf_el.get("version")) or (0, 0)
        name = (sdf_el.text or "").strip()
        if version <= NEWEST_VERSION and name:
            entries.append((version, name))
    return sorted(entries, key=lambda entry: entry[0], reverse=True)


def model_config_files(config: Path, within: str | Within) -> list[Path]:
    """The SDFormat files a ``model.config`` lists that exist, newest version first;
    empty when it lists none or cannot be read. ``within``: where it must lie when it is
    opened (a batch's input tree, the model directory named): read as an included file
    is, its real path opened with no link followed."""
    entries = model_config_entries(config, Diagnostics(), within) or []
    return [config.parent / name for _, name in entries
            if inside(config.parent / name, config.parent)
            and _kind(config.parent / name) == "file"]
