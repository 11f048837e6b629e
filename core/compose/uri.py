"""Where an ``//include`` URI points: the file it names, found the way libsdformat and ROS
find it, never a guess.

* a path relative to the including file, an absolute path, ``file://``;
* ``model://NAME/...`` and bare model names, searched in ``Context.model_paths``;
* ``package://PKG/...``, searched in ``Context.package_paths`` (ROS_PACKAGE_PATH
  workspaces) and the ``share`` folders of ``Context.ament_prefixes``.

A model directory is read through its ``model.config``, choosing the newest SDFormat
version this reader supports (:func:`model_config_files`, which batch conversion uses
too).
"""
from __future__ import annotations

import os
from pathlib import Path

from urdf_sdf.core.diagnostics import Code, Diagnostics
from urdf_sdf.core.read.version import NEWEST_VERSION, parse_version
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes


def resolve_uri(uri: str, state, el) -> str | None:
    """The file an include URI names, or None with a URI_LOOKUP diagnostic."""
    uri = uri.strip()
    base = Path(state.file).parent if state.file else Path.cwd()
    candidates: list[Path] = []
    if uri.startswith("file://"):
        raw = uri[len("file://"):]
        candidates.append(base / raw if not os.path.isabs(raw) else Path(raw))
    elif uri.startswith("model://"):
        rest = uri[len("model://"):]
        candidates.extend(Path(p) / rest for p in state.context.model_paths)
    elif uri.startswith("package://"):
        candidates.extend(package_candidates(uri[len("package://"):], state.context))
    elif "://" in uri:
        state.error(Code.URI_LOOKUP, f"unable to find uri[{uri}]: scheme not supported", el)
        return None
    else:
        candidates.append(base / uri if not os.path.isabs(uri) else Path(uri))
        candidates.extend(Path(p) / uri for p in state.context.model_paths)
    for candidate in candidates:
        if candidate.is_dir():
            return _model_directory_file(candidate, uri, state, el)
        if candidate.is_file():
            return str(candidate)
    state.error(Code.URI_LOOKUP, f"unable to find uri[{uri}]", el)
    return None


def package_candidates(rest: str, context) -> list[Path]:
    """Where ``package://PKG/path`` may be: PKG found in a ROS_PACKAGE_PATH entry (the
    entry itself or a folder below it holding a package.xml), or an ament prefix's
    ``share/PKG``."""
    package, _, inner = rest.partition("/")
    roots: list[Path] = []
    for entry in context.package_paths:
        entry_path = Path(entry)
        if entry_path.name == package:
            roots.append(entry_path)
        roots.extend(p.parent for p in sorted(entry_path.glob(f"**/{package}/package.xml"))
                     if len(p.relative_to(entry_path).parts) <= 5)
    roots.extend(Path(prefix) / "share" / package for prefix in context.ament_prefixes)
    return [root / inner for root in roots]


def _model_directory_file(directory: Path, uri: str, state, el) -> str | None:
    config = directory / "model.config"
    if not config.is_file():
        state.error(Code.URI_LOOKUP, f"unable to resolve uri[{uri}]: directory [{directory}] "
                    "has no model.config", el)
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
    if not path.is_file():
        state.error(Code.URI_LOOKUP, f"[{config}] names [{name}], which does not exist", el)
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
    return [config.parent / name for _, name in entries if (config.parent / name).is_file()]
