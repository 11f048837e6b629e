"""SDFormat versions: which ones this project reads, and the one check of a document's
``<sdf version=...>`` root that the reader, composition and ``urdf-sdf print`` share."""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of

Version = tuple[int, int]

NEWEST_VERSION: Version = (1, 11)


def parse_version(text: str | None) -> Version | None:
    """``"1.9"`` -> ``(1, 9)``; None for anything that is not MAJOR.MINOR."""
    try:
        major, minor = (text or "").strip().split(".")
        return int(major), int(minor)
    except ValueError:
        return None


def supported_version(text: str | None) -> Version | None:
    """The version of ``<sdf version=TEXT>`` when this reader can read it, else None."""
    version = parse_version(text)
    return version if version is not None and version <= NEWEST_VERSION else None


def version_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


def sdf_root_version(root, file: str | None, diagnostics: Diagnostics) -> Version | None:
    """The version to read an ``<sdf>`` root with, reporting what is wrong with it.

    None (with an error) when the root is not ``<sdf>`` or has no version. A version this
    reader does not support is an error too, and the newest version is returned, so that a
    caller that reads on (as libsdformat does) finds the file's other problems; a caller
    that must not read on checks :func:`supported_version` itself.
    """
    if root.tag != "sdf":
        diagnostics.error_at(Code.FILE_READ, f"root element is <{root.tag}>, expected <sdf> "
                             "(this is not an SDFormat file)", source_of(root, file))
        return None
    text = root.get("version")
    if text is None:
        diagnostics.error_at(Code.FILE_READ, "<sdf> has no version attribute",
                             source_of(root, file))
        return None
    version = supported_version(text)
    if version is None:
        diagnostics.error_at(Code.VERSION_UNSUPPORTED,
                             f"SDFormat version {text!r} is not one this reader supports "
                             f"(1.0 to {version_text(NEWEST_VERSION)})", source_of(root, file))
        return NEWEST_VERSION
    return version
