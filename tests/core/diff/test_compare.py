"""``urdf-sdf diff A B`` and ``core.diff.compare.diff_files``.

A small URDF (written to tmp_path) and one-edit variants of it: each edit must be
reported with the right kind and name; equivalent descriptions (the same file, its SDF
conversion, text noise below the tolerance) must not. Exit codes: 0 equivalent, 1 not
(or unloadable), 2 usage error; ``--json`` has a stable shape.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import Difference, diff_files
from urdf_sdf.core.loader import load
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

runner = CliRunner()
HERE = Path(__file__).resolve().parents[2]

BASE = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base">
    <inertial>
      <origin xyz="0 0 0.05" rpy="0 0 0"/>
      <mass value="2"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/>
    </inertial>
    <visual>
      <origin xyz="0 0 0.05" rpy="0 0 0"/>
      <geometry><box size="0.2 0.2 0.1"/></geometry>
    </visual>
    <collision>
      <geometry><cylinder radius="0.1" length="0.1"/></geometry>
    </collision>
  </link>
  <link name="upper">
    <inertial>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/>
    </inertial>
    <visual>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <geometry><cylinder radius="0.03" length="0.4"/></geometry>
    </visual>
  </link>
  <link name="lower">
    <visual>
      <origin xyz="0 0 0.15" rpy="0.1 0 0"/>
      <geometry><sphere radius="0.05"/></geometry>
    </visual>
  </link>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1" rpy="0 0 0.3"/>
    <parent link="base"/>
    <child link="upper"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="2"/>
  </joint>
  <joint name="elbow" type="revolute">
    <origin xyz="0 0 0.4" rpy="0 0.2 0"/>
    <parent link="upper"/>
    <child link="lower"/>
    <axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="3"/>
  </joint>
</robot>
"""

# name -> (old text, new text, expected (kind, name) pairs that must be reported; a name may
# be a tuple of acceptable names: a moved link shows as that link or as its joint's frame)
EDITS = {
    "moved_link": ('<origin xyz="0 0 0.4" rpy="0 0.2 0"/>',
                   '<origin xyz="0 0.01 0.4" rpy="0 0.2 0"/>',
                   [("pose", ("lower", "joint elbow"))]),
    "rotated_joint": ('<origin xyz="0 0 0.1" rpy="0 0 0.3"/>',
                      '<origin xyz="0 0 0.1" rpy="0 0 0.31"/>',
                      [("pose", ("upper", "joint shoulder", "lower", "joint elbow"))]),
    "changed_axis": ('<axis xyz="0 1 0"/>\n    <limit lower="-2"',
                     '<axis xyz="1 0 0"/>\n    <limit lower="-2"', [("joints", "elbow")]),
    "reversed_axis": ('<axis xyz="0 1 0"/>\n    <limit lower="-2"',
                      '<axis xyz="0 -1 0"/>\n    <limit lower="-2"', [("joints", "elbow")]),
    "changed_upper_limit": ('upper="1.5"', 'upper="1.6"', [("joints", "shoulder")]),
    "changed_lower_limit": ('lower="-2"', 'lower="-1.9"', [("joints", "elbow")]),
    "changed_effort": ('effort="20"', 'effort="25"', [("joints", "shoulder")]),
    "changed_velocity": ('velocity="3"', 'velocity="4"', [("joints", "elbow")]),
    "changed_type": ('<joint name="elbow" type="revolute">',
                     '<joint name="elbow" type="prismatic">',
                     [("joints", "elbow")]),
    "changed_mass": ('<mass value="1"/>', '<mass value="1.5"/>', [("inertial", "upper")]),
    "changed_inertia": ('ixx="0.01"', 'ixx="0.011"', [("inertial", "upper")]),
    "changed_centre_of_mass": ('<origin xyz="0 0 0.2" rpy="0 0 0"/>\n      <mass',
                               '<origin xyz="0 0 0.25" rpy="0 0 0"/>\n      <mass',
                               [("inertial", "upper")]),
    "changed_visual_pose": ('<origin xyz="0 0 0.15" rpy="0.1 0 0"/>',
                            '<origin xyz="0 0 0.15" rpy="0.2 0 0"/>', [("geometry", "lower")]),
    "changed_visual_size": ('<sphere radius="0.05"/>', '<sphere radius="0.06"/>',
                            [("geometry", "lower")]),
    "changed_collision_kind": ('<cylinder radius="0.1" length="0.1"/>', '<box size="0.2 0.2 0.1"/>',
                               [("geometry", "base")]),
    "removed_visual": ('''    <visual>
      <origin xyz="0 0 0.15" rpy="0.1 0 0"/>
      <geometry><sphere radius="0.05"/></geometry>
    </visual>
''', "", [("geometry", "lower")]),
    "removed_inertial": ('''    <inertial>
      <origin xyz="0 0 0.2" rpy="0 0 0"/>
      <mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.002"/>
    </inertial>
''', "", [("inertial", "upper")]),
    "missing_joint": ('''  <link name="lower">
    <visual>
      <origin xyz="0 0 0.15" rpy="0.1 0 0"/>
      <geometry><sphere radius="0.05"/></geometry>
    </visual>
  </link>
  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1" rpy="0 0 0.3"/>
    <parent link="base"/>
    <child link="upper"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="2"/>
  </joint>
  <joint name="elbow" type="revolute">
    <origin xyz="0 0 0.4" rpy="0 0.2 0"/>
    <parent link="upper"/>
    <child link="lower"/>
    <axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="3"/>
  </joint>
''', '''  <joint name="shoulder" type="revolute">
    <origin xyz="0 0 0.1" rpy="0 0 0.3"/>
    <parent link="base"/>
    <child link="upper"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1.5" upper="1.5" effort="20" velocity="2"/>
  </joint>
''', [("joints", "elbow"), ("links", "lower")]),
    "renamed_joint": ('<joint name="elbow"', '<joint name="knee"', [("joints", "elbow"),
                                                                     ("joints", "knee")]),
    "added_mimic": ('<limit lower="-2" upper="2" effort="10" velocity="3"/>',
                    '<limit lower="-2" upper="2" effort="10" velocity="3"/>\n'
                    '    <mimic joint="shoulder" multiplier="2" offset="0"/>',
                    [("joints", "elbow")]),
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def variant(tmp_path: Path, edit: str) -> Path:
    old, new, _ = EDITS[edit]
    assert BASE.count(old) == 1, f"edit {edit} must match exactly once"
    return write(tmp_path, f"{edit}.urdf", BASE.replace(old, new))


@pytest.fixture
def base(tmp_path) -> Path:
    return write(tmp_path, "base.urdf", BASE)


# ---- equivalence ---------------------------------------------------------------------------

def test_same_file_has_no_difference(base):
    assert diff_files(str(base), str(base)) == []


def test_reformatted_text_has_no_difference(base, tmp_path):
    """Number spelling and attribute order are not differences."""
    other = BASE.replace('rpy="0 0 0.3"', 'rpy="0.0 0e0 3.0e-1"').replace(
        'upper="1.5"', 'upper="+1.50"').replace('<mass value="2"/>', '<mass value="2.000"/>')
    assert diff_files(str(base), str(write(tmp_path, "other.urdf", other))) == []


def test_urdf_and_its_sdf_have_no_difference(base, tmp_path):
    for relative in (False, True):
        conversion = convert_urdf(load(str(base), Context()), ToSdf(relative=relative))
        assert conversion.ok
        sdf = tmp_path / f"base_{relative}.sdf"
        sdf.write_bytes(conversion.xml)
        assert diff_files(str(base), str(sdf)) == []
        assert diff_files(str(sdf), str(base)) == []


def test_noise_below_tolerance_is_not_a_difference(base, tmp_path):
    other = write(tmp_path, "noise.urdf",
                  BASE.replace('xyz="0 0 0.4"', 'xyz="0 0 0.4000000000001"'))
    assert diff_files(str(base), str(other)) == []


# ---- each edit is found --------------------------------------------------------------------

@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edit_is_reported(edit, base, tmp_path):
    other = variant(tmp_path, edit)
    differences = diff_files(str(base), str(other))
    assert differences, f"{edit}: no difference found"
    found = {(d.kind, d.name) for d in differences}
    for kind, names in EDITS[edit][2]:
        names = names if isinstance(names, tuple) else (names,)
        assert any((kind, name) in found for name in names), \
            f"{edit}: {kind} {names} not in {[d.format() for d in differences]}"
    for d in differences:
        assert isinstance(d, Difference) and d.message


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_edit_is_reported_both_ways(edit, base, tmp_path):
    other = variant(tmp_path, edit)
    assert diff_files(str(other), str(base)) != []


def test_missing_joint_reports_joint_and_link(base, tmp_path):
    differences = diff_files(str(base), str(variant(tmp_path, "missing_joint")))
    messages = {d.format() for d in differences}
    assert "joints elbow: only in A" in messages
    assert "links lower: only in A" in messages


def test_moved_link_message_is_readable(base, tmp_path):
    poses = [d for d in diff_files(str(base), str(variant(tmp_path, "moved_link")))
             if d.kind == "pose"]
    difference = poses[0]
    assert "zero configuration" in difference.message
    assert difference.name in ("lower", "joint elbow")
    assert difference.format().startswith(f"pose {difference.name}: moved 0.01 m at the zero "
                                          "configuration: xyz [0, 0, 0.5] m rpy ")
    assert "quaternion (w x y z)" in difference.message


def test_changed_limit_message_names_the_limit(base, tmp_path):
    differences = diff_files(str(base), str(variant(tmp_path, "changed_upper_limit")))
    assert [d.format() for d in differences] == [
        "joints shoulder: limit upper 1.5 rad in A, 1.6 rad in B"]
    assert differences[0].property == "limit upper" and differences[0].role == "cause"


# ---- tolerance -----------------------------------------------------------------------------

def test_tolerance(base, tmp_path):
    other = write(tmp_path, "micro.urdf", BASE.replace('xyz="0 0 0.4"', 'xyz="0 0 0.400001"'))
    assert diff_files(str(base), str(other)) != []                 # default 1e-9
    assert diff_files(str(base), str(other), tol=1e-5) == []
    assert diff_files(str(base), str(other), tol=1e-7) != []


def test_tolerance_applies_to_inertials_and_limits(base, tmp_path):
    other = write(tmp_path, "micro.urdf",
                  BASE.replace('<mass value="1"/>', '<mass value="1.000001"/>')
                  .replace('upper="1.5"', 'upper="1.500001"'))
    assert {d.kind for d in diff_files(str(base), str(other))} == {"inertial", "joints"}
    assert diff_files(str(base), str(other), tol=1e-5) == []


def test_cli_tol_option(base, tmp_path):
    other = write(tmp_path, "micro.urdf", BASE.replace('xyz="0 0 0.4"', 'xyz="0 0 0.400001"'))
    assert runner.invoke(app, ["diff", str(base), str(other)]).exit_code == 1
    assert runner.invoke(app, ["diff", str(base), str(other), "--tol", "1e-5"]).exit_code == 0


# ---- configurations ------------------------------------------------------------------------

def test_results_are_deterministic(base, tmp_path):
    other = variant(tmp_path, "moved_link")
    first = diff_files(str(base), str(other))
    assert diff_files(str(base), str(other)) == first
    assert diff_files(str(base), str(other), seed=0) == first


# ---- the command line ----------------------------------------------------------------------

def test_cli_equivalent_exits_zero(base):
    result = runner.invoke(app, ["diff", str(base), str(base)])
    assert result.exit_code == 0
    assert "equivalent" in result.stdout


def test_cli_different_exits_one_with_a_readable_list(base, tmp_path):
    other = variant(tmp_path, "missing_joint")
    result = runner.invoke(app, ["diff", str(base), str(other)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "joints elbow: only in A" in lines
    assert lines[-1].endswith("are different (2 causes)"), lines


def test_cli_json_shape(base, tmp_path):
    other = variant(tmp_path, "changed_mass")
    result = runner.invoke(app, ["diff", str(base), str(other), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert set(report) == {"equivalent", "compared", "summary", "differences"}
    assert report["equivalent"] is False and report["compared"] is True
    assert report["summary"] == "1 cause"
    assert report["differences"] == [{"kind": "inertial", "name": "upper", "property": "mass",
                                      "message": "mass 1.0 kg in A, 1.5 kg in B",
                                      "role": "cause"}]

    same = runner.invoke(app, ["diff", str(base), str(base), "--json"])
    assert same.exit_code == 0
    assert json.loads(same.stdout) == {"equivalent": True, "compared": True,
                                       "summary": "equivalent", "differences": []}


def test_cli_unloadable_file_exits_three_with_its_diagnostic(base, tmp_path):
    """A file that does not load is no difference: exit 3, and its own error printed."""
    broken = write(tmp_path, "broken.urdf", "<robot name='x'><link name='a'></robot>")
    result = runner.invoke(app, ["diff", str(base), str(broken), "--json"])
    assert result.exit_code == 3
    assert "broken.urdf:1:40: error[FILE_READ]: malformed XML" in result.stderr
    report = json.loads(result.stdout)
    assert report["equivalent"] is False and report["compared"] is False
    assert report["differences"][0]["kind"] == "model"
    assert report["differences"][0]["name"] == "B"
    assert "broken.urdf" in report["differences"][0]["message"]


def test_cli_missing_file_exits_three_without_traceback(base, tmp_path):
    result = runner.invoke(app, ["diff", str(base), str(tmp_path / "nope.urdf")])
    assert result.exit_code == 3
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "nope.urdf: error[FILE_READ]" in result.stderr
    assert result.stdout.splitlines()[-1].endswith("nope.urdf cannot be compared")
    assert "different" not in result.stdout


def test_cli_usage_errors_exit_two(base):
    assert runner.invoke(app, ["diff"]).exit_code == 2
    assert runner.invoke(app, ["diff", str(base)]).exit_code == 2
    assert runner.invoke(app, ["diff", str(base), str(base), "--no-such"]).exit_code == 2
    assert runner.invoke(app, ["diff", str(base), str(base), "--tol", "abc"]).exit_code == 2


def test_cli_mixed_formats(base, tmp_path):
    conversion = convert_urdf(load(str(base), Context()), ToSdf())
    sdf = tmp_path / "base.sdf"
    sdf.write_bytes(conversion.xml)
    assert runner.invoke(app, ["diff", str(sdf), str(base)]).exit_code == 0
    other = variant(tmp_path, "changed_axis")
    assert runner.invoke(app, ["diff", str(sdf), str(other)]).exit_code == 1


def test_cli_as_a_subprocess(base, tmp_path):
    other = variant(tmp_path, "changed_visual_pose")
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main",
                           "diff", str(base), str(other),
                           "--json"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["differences"][0] == {
        "kind": "link", "name": "lower", "property": "visuals", "role": "cause",
        "message": "visual[0] (sphere) origin rpy 0.1 0 0 -> 0.2 0 0 rad (turned 5.73 deg)"}
    assert "Traceback" not in proc.stderr


def test_diff_files_is_importable_for_ros_package_tests():
    """The documented use: ``assert not diff_files("robot.urdf", "robot.sdf")``."""
    import urdf_sdf.core.diff.compare as diff_module
    assert diff_module.diff_files.__doc__
    assert "diff_files" in diff_module.__doc__
    source = HERE / "fixtures" / "urdf" / "urdf_every_element.urdf"
    assert not diff_files(str(source), str(source))
    assert not diff_files(source, source)  # paths as pathlib.Path too


# ---- defaults ------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", ["urdf", "sdf"])
def test_a_default_written_out_is_the_default(suffix):
    """Each format's defaults written out (origin and pose zeros, URDF's axis 1 0 0, a mesh
    scale of 1 1 1, zero dynamics, SDFormat's unbounded limits and mass-1 unit inertial)
    compare equal to the same defaults left out, as Drake reads them."""
    folder = HERE / "fixtures" / "diff"
    a, b = folder / f"defaults_absent.{suffix}", folder / f"defaults_written.{suffix}"
    assert diff_files(str(a), str(b)) == []
    assert diff_files(str(b), str(a)) == []


def test_a_changed_mesh_scale_and_damping_name_their_amounts(tmp_path):
    folder = HERE / "fixtures" / "diff"
    text = (folder / "defaults_written.urdf").read_text()
    edited = tmp_path / "edited.urdf"
    (tmp_path / "base.stl").write_bytes((folder / "base.stl").read_bytes())
    edited.write_text(text.replace('scale="1 1 1"', 'scale="0.001 0.001 0.001"')
                      .replace('damping="0"', 'damping="0.5"'))
    found = [d.format() for d in diff_files(str(folder / "defaults_absent.urdf"), str(edited))
             if d.role == "cause"]
    assert found == [
        "joints shoulder: dynamics damping 0.0 N m s/rad in A, 0.5 N m s/rad in B",
        "link base: visual[0] (mesh) scale 1 1 1 -> 0.001 0.001 0.001"]
