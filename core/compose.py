"""``//include``: find the included file, read it, apply the include's overrides.

URIs: a path relative to the including file, an absolute path, ``file://``,
``model://NAME/...`` and bare model names searched in ``Context.model_paths``. A
model directory is read through its ``model.config``, choosing the newest SDF
version this reader supports. Include cycles are an error, never a hang.
"""
from __future__ import annotations

import os
from pathlib import Path

from core.diagnostics import Code, Diagnostics
from core.model import Model
from core.xmlio import parse_xml, read_bytes


def read_include(el, state, parent_model: Model | None) -> Model | None:
    from core import sdf_reader as reader

    uri = reader.child_text(el, "uri")
    if not uri:
        state.error(Code.ATTRIBUTE_MISSING, "<include> has no <uri>", el)
        return None
    path = resolve_uri(uri, state, el)
    if path is None:
        return None
    key = os.path.realpath(path)
    if key in state.include_stack or (state.file and os.path.realpath(state.file) == key):
        state.error(Code.INCLUDE_CYCLE, f"<include> of [{uri}] includes a file that is already "
                    "being included (include cycle)", el)
        return None
    if len(state.include_stack) >= state.context.max_include_depth:
        state.error(Code.INCLUDE_CYCLE, f"<include> of [{uri}] nests includes more than "
                    f"{state.context.max_include_depth} deep", el)
        return None
    stack = state.include_stack + ((os.path.realpath(state.file),) if state.file else ())
    sub = Diagnostics()
    model = _read_included_model(path, uri, state, stack, sub, el)
    # Findings inside the included file keep their own file:line.
    state.diagnostics.extend(sub)
    if model is None:
        return None
    return apply_overrides(model, el, state)


def _read_included_model(path: str, uri: str, state, stack, sub: Diagnostics, el) -> Model | None:
    from core import sdf_reader as reader

    data = read_bytes(path, sub)
    if data is None:
        return None
    root = parse_xml(data, path, sub)
    if root is None:
        return None
    if root.tag != "sdf":
        state.error(Code.FILE_READ, f"included file [{path}] is not an SDFormat file "
                    f"(root element <{root.tag}>)", el)
        return None
    version = reader.parse_version(root.get("version"))
    if version is None or version > reader.NEWEST_VERSION:
        state.error(Code.VERSION_UNSUPPORTED, f"included file [{path}] has SDFormat version "
                    f"{root.get('version')!r}, which this reader cannot read", el)
        return None
    inner = reader.ReadState(path, version, sub, state.context, stack)
    from core import values
    values.check_values(root, inner)
    tops = [c for c in root if isinstance(c.tag, str) and c.tag in ("model", "actor", "light")]
    models = [c for c in tops if c.tag == "model"]
    if tops and not models:
        return None  # a light or an actor: no frames to add
    if not models:
        state.error(Code.ELEMENT_MISSING, f"included file [{path}] has no top-level <model>", el)
        return None
    if len(tops) > 1:
        for other in tops[1:]:
            state.error(Code.ELEMENT_INCORRECT_TYPE, f"included file [{path}] has another "
                        f"top-level element <{other.tag}> besides its <model>", el)
    model = reader.read_model(models[0], inner, top_level=True)
    if model is not None:
        model.included_from = path
    return model


def apply_overrides(model: Model, el, state) -> Model:
    from core import sdf_reader as reader

    name = reader.child_text(el, "name")
    if name:
        model.name = name
    pose_el = reader.child(el, "pose")
    placement = reader.child_text(el, "placement_frame")
    if placement:
        if pose_el is None:
            state.error(Code.MODEL_PLACEMENT_FRAME_INVALID, "<include> with <placement_frame> "
                        f"[{placement}] must also give a <pose>", el)
        model.placement_frame = placement
    if pose_el is not None:
        model.pose = reader.read_pose_element(pose_el, state)
    static_el = reader.child(el, "static")
    if static_el is not None:
        model.static = reader.read_bool(static_el, state)
    model.source = state.src(el)
    return model


def resolve_uri(uri: str, state, el) -> str | None:
    """The file an include URI names, or None with a URI_LOOKUP diagnostic."""
    base = Path(state.file).parent if state.file else Path.cwd()
    candidates: list[Path] = []
    if uri.startswith("file://"):
        raw = uri[len("file://"):]
        candidates.append(base / raw if not os.path.isabs(raw) else Path(raw))
    elif uri.startswith("model://"):
        rest = uri[len("model://"):]
        candidates.extend(Path(p) / rest for p in state.context.model_paths)
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


def _model_directory_file(directory: Path, uri: str, state, el) -> str | None:
    from core import sdf_reader as reader

    config = directory / "model.config"
    if not config.is_file():
        state.error(Code.URI_LOOKUP, f"unable to resolve uri[{uri}]: directory [{directory}] "
                    "has no model.config", el)
        return None
    sub = Diagnostics()
    data = read_bytes(config, sub)
    root = parse_xml(data, str(config), sub) if data is not None else None
    if root is None:
        state.diagnostics.extend(sub)
        state.error(Code.URI_LOOKUP, f"unable to read [{config}]", el)
        return None
    best: tuple[tuple[int, int], str] | None = None
    for sdf_el in root.iter("sdf"):
        version = reader.parse_version(sdf_el.get("version")) or (0, 0)
        if version > reader.NEWEST_VERSION or not (sdf_el.text or "").strip():
            continue
        if best is None or version > best[0]:
            best = (version, sdf_el.text.strip())
    if best is None:
        state.error(Code.URI_LOOKUP, f"[{config}] names no SDFormat file this reader supports", el)
        return None
    path = directory / best[1]
    if not path.is_file():
        state.error(Code.URI_LOOKUP, f"[{config}] names [{best[1]}], which does not exist", el)
        return None
    return str(path)
