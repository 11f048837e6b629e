"""``urdf-sdf print``: the composed model as one self-contained SDFormat document.

The file is loaded by the core first (``core.loader.load``), so that what is printed has
been validated the way ``urdf-sdf check`` validates, then composed as XML by
``core.compose.inline`` (every ``<include>`` replaced by the model it names, the same
include rules and messages as the model composition, versions rewritten by
``core.read.version``). This module adds what the library may not do: an included URDF
is converted with the ``urdf2sdf`` converter (``relative`` poses, which copy the URDF's
numbers), the findings of both passes are reported once each, the policy
(``--strict``) applies, and the document is serialised.

With ``preserve_includes`` nothing is inlined and no version rule applies: the file is
printed as read. Problems (a URI that names nothing, an include cycle, an included file
that is malformed) are diagnostics at the include's file:line, never exceptions.
"""
from __future__ import annotations

import gc
from dataclasses import replace
from pathlib import Path

from urdf_sdf.cli.render import SourceLines
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.compose.inline import inline_includes
from urdf_sdf.core.loader import load
from urdf_sdf.core.read.prefixes import declare_undeclared_prefixes
from urdf_sdf.core.read.version import (
    FRAME_SEMANTICS,
    WRITTEN_VERSIONS,
    Version,
    parse_version,
    version_text,
)
from urdf_sdf.core.read.xmlio import parse_xml
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.stream import serialise_spent
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf


def compose_xml(path: str | Path, context: Context, diagnostics: Diagnostics,
                preserve_includes: bool = False):
    """The lxml ``<sdf>`` root of ``path`` with its includes inlined (included URDFs
    converted), or None when the file cannot be read at all (the reason is in
    ``diagnostics``)."""
    return inline_includes(path, context, diagnostics, _convert_urdf, preserve_includes)


def print_document(path: str | Path, context: Context, preserve_includes: bool = False,
                   read: SourceLines | None = None) -> tuple[bytes | None, Diagnostics]:
    """``urdf-sdf print``: the composed document as bytes (None when the input is
    invalid) and every diagnostic. The file is also loaded by the core, so that what
    is printed has been validated the way ``urdf-sdf check`` validates. ``read``, when
    given, remembers the files the model was read from and those it references (the
    output never replaces one)."""
    # Loaded first, without its XML, and only its findings kept: the loaded model is gone
    # before the printed tree is made (its frame graph has cycles: collected now).
    result = load(path, replace(context, keep_xml=False))
    if read is not None:
        read.remember(result)
    loaded = result.diagnostics
    del result
    gc.collect()
    found = Diagnostics()
    if any(d.code is Code.INCLUDE_TOO_LARGE for d in loaded):  # an include bomb: not again
        return None, context.policy.apply(loaded)
    root = compose_xml(path, context, found, preserve_includes)
    diagnostics = Diagnostics()
    _extend_unique(diagnostics, found)
    _extend_unique(diagnostics, loaded)
    diagnostics = context.policy.apply(diagnostics)
    if root is None or diagnostics.has_errors:
        return None, diagnostics
    declare_undeclared_prefixes(root, str(path), diagnostics)
    if preserve_includes:  # printed as read: namespace declarations may repeat anywhere
        return to_bytes(root), diagnostics
    return serialise_spent(root, to_bytes), diagnostics


def _extend_unique(diagnostics: Diagnostics, more) -> None:
    """Add the findings of ``more`` that are not already there: the loader and the XML
    composition both check includes, and one problem is reported once."""
    seen = {(d.code, d.file, d.line) for d in diagnostics}
    for diagnostic in more:
        key = (diagnostic.code, diagnostic.file, diagnostic.line)
        if key not in seen:
            seen.add(key)
            diagnostics.append(diagnostic)


def _convert_urdf(path: str, version: Version | None, diagnostics: Diagnostics):
    """``(sdf root, version)`` of a URDF converted with relative poses (written for
    ``version`` when the converter can), or None; its findings join ``diagnostics``."""
    wanted = None  # relative poses need SDFormat 1.7
    if version is not None and version >= FRAME_SEMANTICS and \
            version_text(version) in WRITTEN_VERSIONS:
        wanted = version_text(version)
    conversion = convert_urdf(load(path, Context()), ToSdf(relative=True, sdf_version=wanted))
    diagnostics.extend(conversion.diagnostics)
    if not conversion.ok or conversion.xml is None:
        return None
    root = parse_xml(conversion.xml, path, diagnostics)
    return None if root is None else (root, parse_version(conversion.version))
