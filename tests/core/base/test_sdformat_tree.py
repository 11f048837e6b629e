"""SDFormat's element tree (``core/base/sdformat_tree.py``), derived from SDFormat's description
files (``core/base/sdformat_tree_derive.py``) and shipped as ``core/base/sdformat_tree.json``.

The shipped table must be what a fresh derivation of libsdformat 12's installed
descriptions (``/usr/share/sdformat12``, ``$SDFORMAT_SPEC_DIR``) gives: regenerate it with
``python -m urdf_sdf.core.base.sdformat_tree_derive /usr/share/sdformat12 -o
core/base/sdformat_tree.json``. The derivation rules are tested on small description folders
made here, so that they hold without the system's files.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from lxml import etree

from tests.support import sdformat_spec_dir
from urdf_sdf.core.base import sdformat_tree
from urdf_sdf.core.base.sdformat_tree import (
    LEAF,
    first_version_defining,
    tree_for,
    undefined_content,
)
from urdf_sdf.core.base.sdformat_tree_derive import derive, table_text

SPEC_ROOT = Path(os.environ.get("SDFORMAT_SPEC_DIR", "/usr/share/sdformat12"))
SHIPPED = Path(sdformat_tree.__file__).with_name(sdformat_tree.TABLE)
DESCRIBED = ["1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9"]


def spec_root() -> Path:
    """The installed descriptions (required: skips outside CI, fails under CI)."""
    sdformat_spec_dir(SPEC_ROOT, DESCRIBED[-1])
    return SPEC_ROOT


# ---- the shipped table ------------------------------------------------------------------------

def test_shipped_table_is_a_fresh_derivation_of_the_installed_descriptions():
    assert SHIPPED.read_text(encoding="utf-8") == table_text(derive([spec_root()]))


def test_derivation_command_writes_the_table(tmp_path):
    out = tmp_path / "tree.json"
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.core.base.sdformat_tree_derive",
                           str(spec_root()), "-o", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == SHIPPED.read_text(encoding="utf-8")


def test_derivation_command_refuses_a_folder_without_descriptions(tmp_path):
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.core.base.sdformat_tree_derive",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "no VERSION/root.sdf" in done.stderr


def test_shipped_table_describes_every_version_libsdformat_12_installs():
    assert [tree.described for tree in sdformat_tree.described_trees()] == \
        [tuple(int(p) for p in v.split(".")) for v in DESCRIBED]


def test_known_facts_of_the_shipped_table():
    """A few facts of SDFormat's specification, read from the table."""
    v16, v14 = tree_for((1, 6)), tree_for((1, 4))
    link = v16.type_at(("model", "link"))
    assert {"sensor", "visual", "collision", "enable_wind", "velocity_decay"} <= \
        set(v16.element_type(link).children)
    assert v14.child(v14.type_at(("model", "link")), "enable_wind") is None
    assert v16.element_type(v16.type_at(("model", "link", "sensor"))).attributes == \
        {"name", "type"}
    # Gazebo classic's <imu><noise> is SDFormat 1.4 only; 1.5 has per-axis noise.
    assert v14.type_at(("model", "link", "sensor", "imu", "noise", "rate")) is not None
    assert v16.type_at(("model", "link", "sensor", "imu", "noise")) is None
    assert v16.type_at(("model", "link", "sensor", "imu", "angular_velocity", "x", "noise"))
    # <plugin>'s content is copy_data: free.
    assert v16.element_type(v16.type_at(("model", "plugin"))).free
    # pose@relative_to is new in 1.7; <model><model> is a reference to model.sdf.
    assert "relative_to" in tree_for((1, 7)).element_type(
        tree_for((1, 7)).type_at(("model", "pose"))).attributes
    assert "relative_to" not in v16.element_type(v16.type_at(("model", "pose"))).attributes
    assert v16.type_at(("model", "model", "link", "visual")) == v16.type_at(
        ("model", "link", "visual"))


def test_newer_versions_are_checked_against_the_newest_described():
    assert tree_for((1, 11)).described == (1, 9)
    assert tree_for((1, 9)).described == (1, 9)
    assert tree_for((1, 1)).described == (1, 0)


def test_first_version_defining():
    assert first_version_defining(("model", "link", "enable_wind"), (1, 4)) == (1, 6)
    assert first_version_defining(("model", "joint", "sensor", "force_torque",
                                   "measure_direction"), (1, 4)) == (1, 5)
    assert first_version_defining(("model", "pose"), (1, 6), ("relative_to",)) == (1, 7)
    assert first_version_defining(("model", "link", "stopKd"), (1, 4)) is None


# ---- the check --------------------------------------------------------------------------------

def test_undefined_content_lists_what_is_undefined_where_it_is():
    """Undefined elements and elements with undefined attributes are listed (and not looked
    into); namespaced content and a plugin's content are allowed."""
    tree = tree_for((1, 9))
    sensor = etree.fromstring(
        b"<sensor xmlns:x='urn:x' name='s' type='imu'><imu><foo><bar/></foo>"
        b"<angular_velocity><x><noise type='gaussian' x:custom='1'><mean>0</mean></noise>"
        b"</x></angular_velocity></imu><x:thing/><camera name='c' fov='1'><nope/></camera>"
        b"<plugin name='p' filename='f'><anything/></plugin><always_on>1</always_on>"
        b"</sensor>")
    found = undefined_content(sensor, tree, tree.type_at(("model", "link", "sensor")))
    assert [(u.element.tag, u.path, u.attributes) for u in found] == [
        ("foo", ("sensor", "imu", "foo"), ()),
        ("camera", ("sensor", "camera"), ("fov",)),
    ]


def test_undefined_attribute_of_the_checked_element_comes_first():
    tree = tree_for((1, 9))
    sensor = etree.fromstring(b"<sensor name='s' type='imu' range='2'><bogus/></sensor>")
    [found] = undefined_content(sensor, tree, tree.type_at(("model", "link", "sensor")))
    assert found.element is sensor and found.attributes == ("range",)


# ---- the derivation rules, on description folders made here ------------------------------

DESCRIPTIONS = {
    "root.sdf": """<element name="sdf" required="1">
  <attribute name="version" type="string" default="9.9" required="1"/>
  <include filename="model.sdf" required="0"/>
</element>""",
    "model.sdf": """<!-- a comment -->
<element name="model" required="*">
  <description>A model.</description>
  <attribute name="name" type="string" default="__default__" required="1"/>
  <element name="static" type="bool" default="false" required="0"/>
  <element name="old" type="bool" default="false" required="-1"/>
  <element name="decay" required="0">
    <attribute name="unit" type="string" default="" required="0"/>
    <element name="linear" type="double" default="0" required="0"/>
  </element>
  <element name="model" ref="model" required="*"/>
  <include filename="box_shape.sdf" required="0"/>
  <include filename="plugin.sdf" required="*"/>
  <include filename="missing.sdf" required="0"/>
</element>""",
    "box_shape.sdf": """<element name="box" required="0">
  <element name="size" type="vector3" default="1 1 1" required="1"/>
</element>""",
    "plugin.sdf": """<element name="plugin" required="*">
  <attribute name="name" type="string" default="__default__" required="1"/>
  <element copy_data="true" required="*"/>
</element>""",
}


def write_descriptions(root: Path, version: str, files: dict[str, str]) -> None:
    folder = root / version
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_derivation_rules(tmp_path):
    """Attributes and children; an include is the element its file describes, under that
    element's name (box_shape.sdf -> <box>); ref= reuses a file's type; copy_data makes
    content free; a deprecated element (required="-1") is left out; a missing included
    file is an undescribed element named after it; a value element is the type ""."""
    write_descriptions(tmp_path, "9.9", DESCRIPTIONS)
    [(version, table)] = derive([tmp_path])["versions"].items()
    assert version == "9.9" and table["root"] == "root"
    types = table["types"]
    assert types["root"] == {"attributes": ["version"], "children": {"model": "model"}}
    assert types["model"] == {
        "attributes": ["name"],
        "children": {"box": "box_shape", "decay": "model/decay", "missing": "missing",
                     "model": "model", "plugin": "plugin", "static": LEAF}}
    assert types["model/decay"] == {"attributes": ["unit"], "children": {"linear": LEAF}}
    assert types["plugin"] == {"attributes": ["name"], "children": {}, "free": True}
    assert types["missing"] == {"attributes": [], "children": {}, "undescribed": True}
    assert types["box_shape"] == {"attributes": [], "children": {"size": LEAF}}


def test_a_later_root_replaces_a_version_and_adds_others(tmp_path):
    write_descriptions(tmp_path / "a", "9.8", DESCRIPTIONS)
    write_descriptions(tmp_path / "a", "9.9", DESCRIPTIONS)
    newer = dict(DESCRIPTIONS, **{"box_shape.sdf": DESCRIPTIONS["box_shape.sdf"].replace(
        "size", "extent")})
    write_descriptions(tmp_path / "b", "9.9", newer)
    write_descriptions(tmp_path / "b", "9.10", DESCRIPTIONS)
    versions = derive([tmp_path / "a", tmp_path / "b"])["versions"]
    assert list(versions) == ["9.8", "9.9", "9.10"]
    assert versions["9.9"]["types"]["box_shape"]["children"] == {"extent": LEAF}
    assert versions["9.8"]["types"]["box_shape"]["children"] == {"size": LEAF}
