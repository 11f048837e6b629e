"""One ``<include>``, found and opened: the checks every composition makes.

Both compositions, the model's (``core.compose.include``, behind ``load``) and the XML's
(``core.compose.inline``, behind ``urdf-sdf print``), go through these functions, so an
include is found, refused and reported the same way by both:

* :func:`locate_include`: the ``<uri>`` resolved and confined (``core.compose.uri``), no
  include cycle, no deeper than ``Context.max_include_depth``, within the budget of
  included documents (``core.compose.budget``);
* :func:`open_included` and :func:`report_included`: the file read and parsed with the
  hardened parser, its elements counted against the budget, its findings kept at their
  own file:line and summed up at the include;
* :func:`included_version`, :func:`top_level_elements`, :func:`no_top_level_model`: an
  included SDFormat file's version and its one top-level element;
* :func:`placement_frame`: ``<placement_frame>``, which needs a ``<pose>``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.compose.budget import admit_document, admit_elements
from urdf_sdf.core.compose.rules import TOP_LEVEL
from urdf_sdf.core.compose.uri import include_roots, resolve_uri, shown
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_state import child, child_text
from urdf_sdf.core.read.version import Version, supported_version
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes


@dataclass(frozen=True)
class Located:
    """Where an include leads: its URI as written, the file it names, and the include
    stack the included file is read with (the realpaths of the files including it)."""
    uri: str
    path: str
    stack: tuple[str, ...]


def locate_include(el, state) -> Located | None:
    """The file the ``<include>`` ``el`` (read with ``state``, a ``ReadState``) brings,
    or None with a diagnostic at the include: no ``<uri>``, a URI that names nothing or
    leaves its directory, an include cycle, includes nested too deep, or the budget of
    included documents spent."""
    uri = child_text(el, "uri")
    if not uri:
        state.error(Code.ATTRIBUTE_MISSING, "<include> has no <uri>", el)
        return None
    path = resolve_uri(uri, state, el)
    if path is None:
        return None
    key = os.path.realpath(path)
    if key in state.include_stack or (state.file and os.path.realpath(state.file) == key):
        state.error(Code.INCLUDE_CYCLE, f"<include> of [{shown(uri)}] includes a file that is "
                    "already being included (include cycle)", el)
        return None
    depth = state.context.max_include_depth
    if len(state.include_stack) >= depth:
        state.error(Code.INCLUDE_CYCLE, f"<include> of [{shown(uri)}] nests includes more than "
                    f"{depth} deep", el)
        return None
    if not admit_document(state, uri, el):
        return None
    stack = state.include_stack + ((os.path.realpath(state.file),) if state.file else ())
    return Located(uri, path, stack)


def open_included(located: Located, el, state, sub: Diagnostics):
    """The parsed root of the included file, SDFormat (``<sdf>``) or URDF (``<robot>``),
    read only from where it was confined to (:func:`~urdf_sdf.core.compose.uri.include_roots`:
    a folder swapped for a link since is refused, never followed);
    None when it cannot be read (the reason in ``sub``), passes the budget of included
    elements, or is neither format (an error at the include)."""
    data = read_bytes(located.path, sub, within=include_roots(state, located.uri))
    if data is None:
        return None
    root = parse_xml(data, located.path, sub)
    if root is None or not admit_elements(state, located.uri, el, root):
        return None
    if root.tag not in ("sdf", "robot"):
        state.error(Code.FILE_READ, f"included file [{located.path}] is neither SDFormat nor "
                    f"URDF (root element <{tag_of(root)}>)", el)
        return None
    return root


def report_included(located: Located, el, state, sub: Diagnostics) -> None:
    """Add the findings made inside the included file (``sub``, at their own file:line) to
    the including file's, with an error at the include when there is one among them."""
    state.diagnostics.extend(sub)
    if sub.has_errors:
        state.error(Code.FILE_READ, f"the file included as [{shown(located.uri)}] "
                    f"({located.path}) has errors", el)


def included_version(root, path: str, el, state) -> Version | None:
    """The version of an included ``<sdf>`` root, or None with an error at the include
    when this reader cannot read it."""
    version = supported_version(root.get("version"))
    if version is None:
        state.error(Code.VERSION_UNSUPPORTED, f"included file [{path}] has SDFormat version "
                    f"{root.get('version')!r}, which this reader cannot read", el)
    return version


def top_level_elements(root, path: str, el, state) -> list:
    """The top-level models, actors and lights of an included ``<sdf>`` root, in order;
    every one after the first is an error at the include (only the first is included)."""
    tops = [c for c in root if isinstance(c.tag, str) and c.tag in TOP_LEVEL]
    for other in tops[1:]:
        state.error(Code.ELEMENT_INCORRECT_TYPE, f"included file [{path}] has another "
                    f"top-level element <{tag_of(other)}> besides its first", el)
    return tops


def no_top_level_model(path: str, el, state) -> None:
    state.error(Code.ELEMENT_MISSING, f"included file [{path}] has no top-level <model>", el)


def placement_frame(el, state) -> str | None:
    """``//include/placement_frame``, an error at the include when it has no ``<pose>``
    to place the model with."""
    placement = child_text(el, "placement_frame")
    if placement and child(el, "pose") is None:
        state.error(Code.MODEL_PLACEMENT_FRAME_INVALID, "<include> with <placement_frame> "
                    f"[{placement}] must also give a <pose>", el)
    return placement
