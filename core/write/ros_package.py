"""The files that make a folder a ROS package holding a robot description: ``package.xml``
(format 3, REP 149) and the build files of ``ament_cmake``, ``ament_python`` or ``catkin``
that install ``urdf/`` and ``meshes/`` into the package's share directory, where
``package://NAME/...`` finds them (RViz, robot_state_publisher, MoveIt).
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from lxml import etree

BUILD_TYPES = ("ament_cmake", "ament_python", "catkin")
# cmake_minimum_required of each CMake build type: ROS 2's ``ros2 pkg create`` minimum, and
# ROS 1 Noetic's with the policies of CMake 3.10 (the ``min...max`` form: CMake 4 refuses a
# bare minimum below 3.5, older CMake reads the form as its minimum alone).
CMAKE_MINIMUM = {"ament_cmake": "3.8", "catkin": "3.0.2...3.10"}
# REP 144: lower case letters, digits and underscores, starting with a letter.
PACKAGE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
VERSION = re.compile(r"^\d+\.\d+\.\d+$")
PLACEHOLDER_EMAIL = "maintainer@example.com"


@dataclass
class PackageInfo:
    """What ``package.xml`` says besides the name; ``placeholders`` lists the fields that
    were not known (to be named in a warning)."""
    name: str
    version: str = "0.0.0"
    description: str = ""
    maintainers: list[tuple[str, str]] = field(default_factory=list)  # (name, email)
    license: str = "TODO"
    placeholders: list[str] = field(default_factory=list)


def package_xml(info: PackageInfo, build_type: str) -> bytes:
    """``package.xml`` in format 3."""
    root = etree.Element("package", format="3")
    etree.SubElement(root, "name").text = info.name
    etree.SubElement(root, "version").text = info.version
    etree.SubElement(root, "description").text = info.description
    for name, email in info.maintainers:
        etree.SubElement(root, "maintainer", email=email).text = name
    etree.SubElement(root, "license").text = info.license
    if build_type in ("ament_cmake", "catkin"):
        etree.SubElement(root, "buildtool_depend").text = build_type
    export = etree.SubElement(root, "export")
    if build_type != "catkin":
        etree.SubElement(export, "build_type").text = build_type
    etree.indent(root, space="  ")
    schema = ('<?xml-model href="http://download.ros.org/schema/package_format3.xsd" '
              'schematypens="http://www.w3.org/2001/XMLSchema"?>\n')
    return (b'<?xml version="1.0"?>\n' + schema.encode() +
            etree.tostring(root, encoding="utf-8") + b"\n")


def build_files(info: PackageInfo, build_type: str, installed: list[str]) -> dict[str, bytes]:
    """The build files (relative path -> content) installing ``installed`` (relative file
    paths under ``urdf/`` and ``meshes/``) into ``share/NAME``."""
    folders = sorted({path.split("/", 1)[0] for path in installed})
    if build_type in CMAKE_MINIMUM:
        return {"CMakeLists.txt": _cmake(info.name, folders, build_type)}
    return _ament_python(info, installed)


def _cmake(name: str, folders: list[str], tool: str) -> bytes:
    destination = "share/${PROJECT_NAME}" if tool == "ament_cmake" else \
        "${CATKIN_PACKAGE_SHARE_DESTINATION}"
    lines = [f"cmake_minimum_required(VERSION {CMAKE_MINIMUM[tool]})", f"project({name})", "",
             f"find_package({tool} REQUIRED)"]
    if tool == "catkin":
        lines.append("catkin_package()")
    lines += ["", f"install(DIRECTORY {' '.join(folders)}", f"  DESTINATION {destination})"]
    if tool == "ament_cmake":
        lines += ["", "ament_package()"]
    return ("\n".join(lines) + "\n").encode()


def _ament_python(info: PackageInfo, installed: list[str]) -> dict[str, bytes]:
    """setup.py (every installed file listed by its folder: setuptools' data_files does not
    recurse), setup.cfg, the ament index marker and the (empty) Python package."""
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path in sorted(installed):
        folder = path.rsplit("/", 1)[0]
        by_folder[folder].append(path)
    data = [("share/ament_index/resource_index/packages", [f"resource/{info.name}"]),
            (f"share/{info.name}", ["package.xml"])]
    data += [(f"share/{info.name}/{folder}", files) for folder, files in sorted(by_folder.items())]
    data_lines = "".join(f"        ({destination!r}, {files!r}),\n"
                         for destination, files in data)
    maintainer, email = info.maintainers[0] if info.maintainers else ("", "")
    setup = (
        "from setuptools import setup\n\n"
        f"package_name = {info.name!r}\n\n"
        "setup(\n"
        "    name=package_name,\n"
        f"    version={info.version!r},\n"
        "    packages=[package_name],\n"
        "    data_files=[\n"
        f"{data_lines}"
        "    ],\n"
        "    install_requires=['setuptools'],\n"
        "    zip_safe=True,\n"
        f"    maintainer={maintainer!r},\n"
        f"    maintainer_email={email!r},\n"
        f"    description={info.description!r},\n"
        f"    license={info.license!r},\n"
        ")\n")
    config = (f"[develop]\nscript_dir=$base/lib/{info.name}\n"
              f"[install]\ninstall_scripts=$base/lib/{info.name}\n")
    return {"setup.py": setup.encode(), "setup.cfg": config.encode(),
            f"resource/{info.name}": b"", f"{info.name}/__init__.py": b""}
