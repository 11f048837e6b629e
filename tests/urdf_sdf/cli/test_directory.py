"""``urdf_sdf.cli.directory``: where the marker of an output directory goes, and which
directories it makes ours.

The marker is a comment atop ``package.xml`` or ``model.config``, after the processing
instructions opening the file: tinyxml2 (rospack, Gazebo) refuses a processing instruction
that follows a comment, so a marker between the XML declaration and ``package.xml``'s
``<?xml-model?>`` made rospack abort on the package.
"""
from __future__ import annotations

import os
from pathlib import Path

from urdf_sdf.cli.directory import (
    MARKER_FILE,
    MARKER_HEAD,
    is_our_output,
    marked,
    marker_text,
    write_directory,
)
from urdf_sdf.core.write.bundle import Bundle

DECLARATION = b'<?xml version="1.0"?>\n'
SCHEMA = (b'<?xml-model href="package_format3.xsd" '
          b'schematypens="http://www.w3.org/2001/XMLSchema"?>\n')
PACKAGE = b'<package format="3">\n  <name>arm</name>\n</package>\n'


def test_the_marker_follows_every_leading_processing_instruction():
    files = marked({"package.xml": DECLARATION + SCHEMA + PACKAGE}, "sdf2urdf 1.0")

    assert files["package.xml"] == DECLARATION + SCHEMA + marker_text("sdf2urdf 1.0") + PACKAGE


def test_a_file_without_a_declaration_opens_with_the_marker():
    files = marked({"model.config": b"<model/>\n"}, "urdf2sdf 1.0")

    assert files["model.config"] == marker_text("urdf2sdf 1.0") + b"<model/>\n"


def test_an_instruction_sharing_its_line_with_the_root_keeps_the_marker_before_it():
    one_line = DECLARATION.rstrip() + PACKAGE

    files = marked({"package.xml": one_line}, "sdf2urdf 1.0")

    assert files["package.xml"] == marker_text("sdf2urdf 1.0") + one_line


def test_a_folder_with_neither_marked_file_gets_the_marker_file():
    files = marked({"urdf/arm.urdf": b"<robot/>"}, "sdf2urdf 1.0")

    assert files[MARKER_FILE].startswith(MARKER_HEAD)


def test_a_marker_before_or_after_the_schema_instruction_is_ours(tmp_path: Path):
    """Packages written before the marker moved below ``<?xml-model?>`` stay replaceable."""
    marker = marker_text("sdf2urdf 1.0")
    for name, text in (("now", DECLARATION + SCHEMA + marker + PACKAGE),
                       ("earlier", DECLARATION + marker + SCHEMA + PACKAGE)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "package.xml").write_bytes(text)

        assert is_our_output(tmp_path / name), name


def test_a_marker_below_the_root_element_is_not_ours(tmp_path: Path):
    quoted = PACKAGE.replace(b"</package>", marker_text("sdf2urdf 1.0") + b"</package>")
    (tmp_path / "package.xml").write_bytes(DECLARATION + SCHEMA + quoted)

    assert not is_our_output(tmp_path)


def test_an_empty_folder_of_the_user_is_filled_never_replaced(tmp_path):
    """--model-dir / --package-dir into an existing empty folder: the folder itself stays
    (same inode, its own mode), what is written lands inside it."""
    target = tmp_path / "out"
    target.mkdir(mode=0o750)
    before = os.stat(target)
    written = write_directory(target, {"model.config": b'<?xml version="1.0"?>\n<model/>\n',
                                       "model.sdf": b"<sdf/>\n"}, Bundle())
    after = os.stat(written)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert sorted(os.listdir(target)) == ["model.config", "model.sdf"]
    assert is_our_output(target)
