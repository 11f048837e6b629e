"""``urdf2sdf robot.urdf --model-dir OUT``: a Gazebo model directory.

``OUT/model.sdf`` is the conversion; ``OUT/model.config`` names it with its SDFormat
version, the model's name (``OUT``'s folder name, which ``model://`` resolves) and, from
the ``package.xml`` of the ROS package the URDF sits in when there is one, its version,
description and authors (maintainers when it lists no author). Every mesh and texture
that resolves (``core.inspect.resources``) inside the URDF's package or a ``--package-path`` (real
path, after symlinks; ``core.write.confined``) is copied under ``OUT/meshes/``
(``core.write.bundle``) and its URI becomes ``model://NAME/meshes/...``; one that does not
resolve keeps its URI, with a ``MESH_UNRESOLVED`` warning at the line naming it; one
outside, or not a regular file, is an error and nothing is written. With only ``OUT``'s parent on
``SDF_PATH`` (or ``GZ_SIM_RESOURCE_PATH``), Gazebo and libsdformat find everything.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.custom import qname
from urdf_sdf.core.base.diagnostics import Diagnostics, Source
from urdf_sdf.core.inspect.resources import base_folder
from urdf_sdf.core.read.xmlio import parse_xml, read_bytes
from urdf_sdf.core.write.bundle import Bundle, bundle_sites
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.confined import CopyRoots

PACKAGE_SEARCH_DEPTH = 6  # folders above the URDF searched for its package.xml


@dataclass
class ModelDirectory:
    """What goes into the directory: its files' contents and the bundled meshes."""
    name: str
    files: dict[str, bytes] = field(default_factory=dict)
    bundle: Bundle = field(default_factory=Bundle)


def model_directory(result, sdf_xml: bytes, version: str, out_dir: Path, context: Context,
                    diagnostics: Diagnostics, tokens: dict,
                    roots: CopyRoots) -> ModelDirectory:
    """The directory for ``sdf_xml``, the conversion of ``result`` after
    ``core.write.bundle.tokenize_resources`` gave its URIs ``tokens``; only files inside
    ``roots`` are copied (``core.write.confined``)."""
    name = out_dir.resolve().name
    base = base_folder(Source(result.document.file), result)
    directory = ModelDirectory(name, bundle=Bundle("meshes", base, roots))
    root = etree.fromstring(sdf_xml)
    bundle_sites(uri_sites(root), tokens, result, context, directory.bundle,
                 lambda place: f"model://{name}/{place}", diagnostics, "the model directory")
    directory.files["model.sdf"] = to_bytes(root)
    directory.files["model.config"] = model_config(name, version, _package_xml(base))
    return directory


def uri_sites(root) -> list[tuple[object, str | None]]:
    """Where the SDF names files: mesh ``<uri>`` text and ``urdf:texture/@filename``."""
    sites: list[tuple[object, str | None]] = [(uri, None) for uri in root.iter("uri")
                                              if uri.getparent() is not None and
                                              uri.getparent().tag == "mesh"]
    sites += [(texture, "filename") for texture in root.iter(qname("texture"))
              if texture.get("filename")]
    return sites


def _package_xml(folder: Path):
    """The parsed ``package.xml`` of the ROS package holding ``folder``, or None."""
    for candidate in [folder, *folder.parents][:PACKAGE_SEARCH_DEPTH]:
        path = candidate / "package.xml"
        if path.is_file():
            diagnostics = Diagnostics()
            data = read_bytes(str(path), diagnostics)
            root = parse_xml(data, str(path), diagnostics) if data is not None else None
            return root if root is not None and root.tag == "package" else None
    return None


def model_config(name: str, version: str, package) -> bytes:
    """``model.config``: name, version, the SDF file, authors and description."""
    config = etree.Element("model")
    etree.SubElement(config, "name").text = name
    etree.SubElement(config, "version").text = _text(package, "version") or "1.0"
    etree.SubElement(config, "sdf", version=version).text = "model.sdf"
    people = package.findall("author") or package.findall("maintainer") \
        if package is not None else []
    for person in people:
        author = etree.SubElement(config, "author")
        etree.SubElement(author, "name").text = " ".join((person.text or "").split())
        if person.get("email"):
            etree.SubElement(author, "email").text = person.get("email")
    description = _text(package, "description") or f"{name}, converted from URDF by urdf2sdf"
    etree.SubElement(config, "description").text = description
    return to_bytes(config)


def _text(package, tag: str) -> str | None:
    if package is None:
        return None
    text = " ".join((package.findtext(tag) or "").split())
    return text or None
