"""Where an ``//include`` URI points: the file it names, found the way libsdformat and ROS
find it, never a guess.

* a path relative to the including file, an absolute path, ``file://``;
* ``model://NAME/...`` and bare model names, searched in ``Context.model_paths``;
* ``package://PKG/...``, searched in ``Context.package_paths`` (ROS_PACKAGE_PATH
  workspaces) and the ``share`` folders of ``Context.ament_prefixes``.

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
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes

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


def read_roots(state) -> list[str]:
    """The real paths an included file must lie inside: the top input's own package or
    model directory, every search path of the context and its ``read_roots``."""
    top = state.include_stack[0] if state.include_stack else state.file
    own = own_directory(top) if top else own_directory(os.path.join(os.getcwd(), "input"))
    context = state.context
    searched = [*context.model_paths, *context.package_paths, *context.read_roots,
                *(os.path.join(prefix, "share") for prefix in context.ament_prefixes)]
    return [root for root in (own, *(os.path.realpath(p) for p in searched if p)) if root]


def readable_here(path: str, uri: str, state, el) -> bool:
    """Whether the file an include names lies inside :func:`read_roots`; else
    RESOURCE_OUTSIDE_PACKAGE at the include (the file is not opened)."""
    real = os.path.realpath(path)
    roots = read_roots(state)
    if any(is_within(real, root) for root in roots):
        return True
    state.error(Code.RESOURCE_OUTSIDE_PACKAGE, f"uri[{shown(uri)}] names {real}, outside the "
                f"input's package or model directory ({roots[0] if roots else 'none'}) and "
                "every search path: not read; name its folder with -p/--path to include it",
                el)
    return False


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
        return package_candidates(uri[len("package://"):], state.context)
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


def package_candidates(rest: str, context) -> list[tuple[Path, Path]]:
    """Where ``package://PKG/path`` may be, as ``(package root, path)``: PKG found in a
    ROS_PACKAGE_PATH entry (the entry itself or a folder below it holding a
    package.xml), or an ament prefix's ``share/PKG``."""
    package, _, inner = rest.partition("/")
    if not package or package in (".", "..") or os.sep in package:
        return []
    roots: list[Path] = []
    for entry in context.package_paths:
        entry_path = Path(entry)
        if entry_path.name == package:
            roots.append(entry_path)
        try:
            roots.extend(p.parent for p in sorted(entry_path.glob(f"**/{package}/package.xml"))
                         if len(p.relative_to(entry_path).parts) <= 5)
        except (OSError, ValueError):
            continue
    roots.extend(Path(prefix) / "share" / package for prefix in context.ament_prefixes)
    return [(root, root / inner) for root in roots]


def _model_directory_file(directory: Path, uri: str, state, el) -> str | None:
    config = directory / "model.config"
    if not config.is_file():
        state.error(Code.URI_LOOKUP, f"unable to resolve uri[{shown(uri)}]: directory "
                    f"[{directory}] has no model.config", el)
        return None
    sub = Diagnostics()
    entries = model_config_entries(config, sub)
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


def model_config_entries(config: Path, diagnostics: Diagnostics
                         ) -> list[tuple[tuple[int, int], str]] | None:
    """The ``(version, file name)`` entries of a ``model.config`` that this reader can
    read, newest first (of equal versions, the first listed); None when the file cannot be
    read (the reason in ``diagnostics``)."""
    data = read_bytes(config, diagnostics)
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


def model_config_files(config: Path) -> list[Path]:
    """The SDFormat files a ``model.config`` lists that exist, newest version first;
    empty when it lists none or cannot be read."""
    entries = model_config_entries(config, Diagnostics()) or []
    return [config.parent / name for _, name in entries
            if inside(config.parent / name, config.parent)
            and _kind(config.parent / name) == "file"]
