"""``sdf2urdf MODEL --package-dir OUT``: a ROS package holding the robot.

``OUT/urdf/NAME.urdf`` is the conversion; every mesh and texture that resolves
(``core.inspect.resources``: an included model's meshes from its own folder, ``model://`` through
the model paths) inside the model's own directory, the folder holding it, or a search path
given (``-p/--path``, ``--package-path``; real path, after symlinks;
``core.write.confined``) is copied under ``OUT/meshes/`` (``core.write.bundle``) and named
``package://NAME/meshes/...``, which RViz and robot_state_publisher resolve once the
package is built and sourced. ``package.xml`` (format 3) and the build files of the chosen
build type install ``urdf/`` and ``meshes/`` (``core.write.ros_package``). The package's
version, description and maintainers come from the model's ``model.config`` when there
is one; a field nobody stated (the license, a maintainer's e-mail) gets a placeholder,
named in a warning.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Source
from urdf_sdf.core.inspect.resources import base_folder
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes
from urdf_sdf.core.write.bundle import Bundle, bundle_sites
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.confined import CopyRoots
from urdf_sdf.core.write.ros_package import (
    PLACEHOLDER_EMAIL,
    VERSION,
    PackageInfo,
    build_files,
    package_xml,
)


@dataclass
class PackageDirectory:
    name: str
    files: dict[str, bytes] = field(default_factory=dict)
    bundle: Bundle = field(default_factory=Bundle)


def ros_package(result, urdf_xml: bytes, name: str, build_type: str, context,
                diagnostics: Diagnostics, tokens: dict, roots: CopyRoots) -> PackageDirectory:
    """The package for ``urdf_xml``, the conversion of ``result`` after
    ``core.write.bundle.tokenize_resources`` gave its URIs ``tokens``; only files inside
    ``roots`` are copied (``core.write.confined``)."""
    base = base_folder(Source(result.document.file), result)
    package = PackageDirectory(name, bundle=Bundle("meshes", base, roots))
    root = etree.fromstring(urdf_xml)
    bundle_sites(uri_sites(root), tokens, result, context, package.bundle,
                 lambda place: f"package://{name}/{place}", diagnostics, "the package")
    urdf_path = f"urdf/{name}.urdf"
    info = package_info(name, _model_config(base))
    if info.placeholders:
        diagnostics.warning_at(Code.PACKAGE_PLACEHOLDERS,
                               f"package [{name}]: package.xml has placeholders "
                               f"for {', '.join(info.placeholders)}; set them before "
                               "releasing the package", None, result.document.file)
    package.files[urdf_path] = to_bytes(root)
    package.files["package.xml"] = package_xml(info, build_type)
    installed = [urdf_path, *package.bundle.source_of]
    package.files.update(build_files(info, build_type, installed))
    return package


def uri_sites(root) -> list[tuple[object, str]]:
    """Where the URDF names files: ``<mesh filename>`` and ``<texture filename>`` (SDF
    content kept in ``<gazebo>`` blocks is left as it is)."""
    return [(el, "filename") for el in root.iter("mesh", "texture")
            if el.get("filename") and not any(a.tag == "gazebo" for a in el.iterancestors())]


def _model_config(folder: Path):
    """The model directory's parsed ``model.config`` holding the SDF, or None."""
    path = folder / "model.config"
    if not path.is_file():
        return None
    diagnostics = Diagnostics()
    data = read_bytes(str(path), diagnostics)
    root = parse_xml(data, str(path), diagnostics) if data is not None else None
    return root if root is not None and root.tag == "model" else None


def package_info(name: str, config) -> PackageInfo:
    """package.xml's fields from ``model.config`` (or placeholders)."""
    info = PackageInfo(name)
    version = _text(config, "version")
    if version and VERSION.match(version):
        info.version = version
    elif version and VERSION.match(version + ".0"):
        info.version = version + ".0"
    info.description = _text(config, "description") or f"The {name} robot, converted from " \
                                                        "SDFormat by sdf2urdf."
    for author in config.findall("author") if config is not None else []:
        person = " ".join((author.findtext("name") or "").split())
        email = (author.findtext("email") or "").strip()
        if person and email:
            info.maintainers.append((person, email))
    if not info.maintainers:
        info.maintainers.append(("TODO", PLACEHOLDER_EMAIL))
        info.placeholders.append("the maintainer")
    info.placeholders.append("the license")
    return info


def _text(config, tag: str) -> str | None:
    if config is None:
        return None
    return " ".join((config.findtext(tag) or "").split()) or None
