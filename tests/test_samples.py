"""The robots in samples/ (the top level; samples/composition/ has its own tests).

* pendulum.urdf, pendulum.sdf: a two-link pendulum each (two different pendulums: the SDF
  one is the SDFormat pose-frame-semantics tutorial's, so they are not a pair);
* diff_drive.urdf / diff_drive.sdf: a differential-drive base with a caster, a lidar, a
  camera and <gazebo> content; the SDF (1.9) is written by hand in relative_to style;
* arm6.urdf / arm6.sdf: a 6-DOF arm with tool0 and a mimicking parallel gripper; the SDF
  (1.11) is written by hand, in model-frame style for some joints and relative_to style
  for the others.

Every sample loads in our core with no diagnostic; every URDF passes ROS's check_urdf;
every SDF of version <= 1.9 loads in the reference (libsdformat) and every link, joint and
frame pose we resolve equals the reference's within 1e-9, and it uses only elements that
SDFormat defines. Each URDF/SDF pair is equivalent (``diff_files``, both ways). The round
trips work: urdf2sdf --relative then sdf2urdf gives an equivalent URDF that passes
check_urdf, and sdf2urdf of each SDF gives one too. The hand-written robots are
physically valid (masses, inertias obeying the triangle inequality, joint limits) and
keep the features they are samples of.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from tests.reference import KINDS, compare_reports
from tests.support import assert_check_urdf_accepts, sdformat_spec_dir
from tests.urdf2sdf.test_gazebo import SPEC_ROOT, Spec, undefined_elements
from urdf_sdf import frames_report
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.diff.compare import Description, diff_files
from urdf_sdf.core.loader import load

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
URDF_SAMPLES = sorted(SAMPLES.glob("*.urdf"))
SDF_SAMPLES = sorted(SAMPLES.glob("*.sdf"))
ALL_SAMPLES = URDF_SAMPLES + SDF_SAMPLES
# URDF/SDF pairs that describe the same robot, with the SDFormat version of the SDF.
PAIRS = {"diff_drive": "1.9", "arm6": "1.11"}
# Samples whose every link has an inertial, visual and collision (except the massless
# links below) and whose every moving joint has complete limits. pendulum.sdf, the tutorial's,
# has neither inertials nor limits.
PHYSICAL = [SAMPLES / f"{name}.{ext}" for name in (*PAIRS, "pendulum")
            for ext in ("urdf", "sdf") if (name, ext) != ("pendulum", "sdf")]
MASSLESS = {"base_footprint", "camera_optical", "tool0", "tip"}  # footprint root, frame links
TOL = 1e-9


def sample_id(path: Path) -> str:
    return path.name


def sdf_version(path: Path) -> tuple[int, ...]:
    return tuple(int(p) for p in etree.parse(str(path)).getroot().get("version").split("."))


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def convert(tool: str, source: Path, out: Path, *options: str) -> Path:
    """Run ``urdf2sdf`` or ``sdf2urdf`` (the installed command's module) into ``out``."""
    proc = run(sys.executable, "-m", "urdf_sdf.cli", tool, source, "-o", out, *options)
    assert proc.returncode == 0, f"{tool} {source.name} {' '.join(options)}: exit " \
                                 f"{proc.returncode}\n{proc.stderr}"
    return out


def differences(a: Path, b: Path) -> list[str]:
    return [d.format() for d in diff_files(str(a), str(b))]


# ---- what there is ------------------------------------------------------------------------

def test_the_samples_are_there():
    names = {p.name for p in ALL_SAMPLES}
    assert {"pendulum.urdf", "pendulum.sdf"} <= names
    for name in PAIRS:
        assert {f"{name}.urdf", f"{name}.sdf"} <= names


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_hand_written_sdf_version(name):
    assert etree.parse(str(SAMPLES / f"{name}.sdf")).getroot().get("version") == PAIRS[name]


# ---- each sample on its own ---------------------------------------------------------------

@pytest.mark.parametrize("path", ALL_SAMPLES, ids=sample_id)
def test_sample_loads_without_diagnostics(path):
    result = load(str(path), Context())
    assert result.ok, [d.format() for d in result.diagnostics]
    assert [d.format() for d in result.diagnostics] == []


@pytest.mark.parametrize("path", URDF_SAMPLES, ids=sample_id)
def test_urdf_sample_passes_check_urdf(path):
    assert_check_urdf_accepts(path)


REFERENCE_SAMPLES = [p for p in SDF_SAMPLES if sdf_version(p) <= (1, 9)]


def test_reference_comparison_is_not_vacuous():
    assert {"pendulum.sdf", "diff_drive.sdf"} <= {p.name for p in REFERENCE_SAMPLES}


@pytest.mark.parametrize("path", REFERENCE_SAMPLES, ids=sample_id)
def test_sdf_sample_agrees_with_reference(path, sdf_reference):
    reference = sdf_reference(path)
    assert reference.get("ok"), reference.get("diagnostics")
    ours = frames_report(load(str(path), Context()))
    assert compare_reports(reference, ours, TOL) == []
    for kind in KINDS:  # the same entities by name, not only the reference's within ours
        assert set(ours[kind]) == set(reference.get(kind) or {}), kind


@pytest.mark.parametrize("path", REFERENCE_SAMPLES, ids=sample_id)
def test_sdf_sample_elements_are_defined_by_sdformat(path):
    """libsdformat 12 accepts undefined elements silently: check them against its specs."""
    version = ".".join(map(str, sdf_version(path)))
    spec_dir = sdformat_spec_dir(SPEC_ROOT, version)
    assert undefined_elements(path.read_bytes(), Spec(spec_dir)) == []


def principal_moments(inertial) -> np.ndarray:
    tensor = np.array([[inertial.ixx, inertial.ixy, inertial.ixz],
                       [inertial.ixy, inertial.iyy, inertial.iyz],
                       [inertial.ixz, inertial.iyz, inertial.izz]])
    return np.linalg.eigvalsh(tensor)


@pytest.mark.parametrize("path", PHYSICAL, ids=sample_id)
def test_sample_is_physically_valid(path):
    description = Description(load(str(path), Context()))
    problems = []
    for name in sorted(description.tree.links):
        link = description.link(name)
        if name in MASSLESS:
            if link.inertial is not None and link.inertial.mass != 0:
                problems.append(f"{name}: meant to be massless")
            continue
        if link.inertial is None:
            problems.append(f"{name}: no inertial")
            continue
        if not link.inertial.mass > 0:
            problems.append(f"{name}: mass {link.inertial.mass}")
        a, b, c = principal_moments(link.inertial)
        if not a > 0:
            problems.append(f"{name}: inertia not positive definite")
        elif c > a + b + 1e-12:  # the triangle inequality (a <= b <= c)
            problems.append(f"{name}: principal moments {a:g} + {b:g} < {c:g}")
        if not link.visuals or not link.collisions:
            problems.append(f"{name}: needs a visual and a collision")
        for shape in link.visuals + link.collisions:
            if shape.geometry is None or shape.geometry.kind not in ("box", "cylinder", "sphere"):
                problems.append(f"{name}: geometry {shape.geometry}")
    for name, joint in sorted(description.joints.items()):
        if joint.type == "fixed":
            continue
        limit = joint.element.limit
        if limit is None or not (limit.effort or 0) > 0 or not (limit.velocity or 0) > 0:
            problems.append(f"joint {name}: needs effort and velocity limits")
        elif joint.type != "continuous" and not (limit.lower is not None and
                                                 limit.upper is not None and
                                                 limit.lower < limit.upper):
            problems.append(f"joint {name}: limits {limit.lower}..{limit.upper}")
    assert problems == []


# ---- pairs: the same robot in both formats ------------------------------------------------

@pytest.mark.parametrize("name", sorted(PAIRS))
def test_pair_is_equivalent(name):
    urdf, sdf = SAMPLES / f"{name}.urdf", SAMPLES / f"{name}.sdf"
    assert differences(urdf, sdf) == []
    assert differences(sdf, urdf) == []


def test_diff_of_the_pairs_is_not_vacuous(tmp_path):
    """A millimetre, a limit or a mimic sign changed by hand is a difference."""
    text = (SAMPLES / "arm6.sdf").read_text()
    for old, new in (("<pose>0.425 0.01615 ", "<pose>0.425 0.01715 "),
                     ("<upper>0.04</upper>", "<upper>0.05</upper>"),
                     ("<multiplier>1</multiplier>", "<multiplier>-1</multiplier>"),
                     ('<pose relative_to="tool0"/>', '<pose relative_to="wrist_3_link"/>')):
        assert text.count(old) >= 1, old
        changed = tmp_path / "arm6.sdf"
        changed.write_text(text.replace(old, new))
        assert differences(SAMPLES / "arm6.urdf", changed), f"{old} -> {new} went unnoticed"
    text = (SAMPLES / "diff_drive.sdf").read_text()
    changed = tmp_path / "diff_drive.sdf"
    changed.write_text(text.replace("0 -0.2 0 -1.5707963267948966 0 0",
                                    "0 -0.2 0 1.5707963267948966 0 0"))
    assert differences(SAMPLES / "diff_drive.urdf", changed)


def sdf_model(name: str):
    return etree.parse(str(SAMPLES / f"{name}.sdf")).getroot().find("model")


def test_diff_drive_keeps_its_features():
    robot = etree.parse(str(SAMPLES / "diff_drive.urdf")).getroot()
    joints = {j.get("name"): j for j in robot.findall("joint")}
    assert joints["base_joint"].get("type") == "fixed"
    assert joints["base_joint"].find("parent").get("link") == "base_footprint"
    assert {joints[w].get("type") for w in ("left_wheel_joint", "right_wheel_joint")} == \
        {"continuous"}
    assert joints["caster_joint"].get("type") == "fixed"
    assert robot.find("link[@name='caster_link']/collision/geometry/sphere") is not None
    assert robot.find("link[@name='camera_optical']").find("inertial") is None
    blocks = {b.get("reference"): b for b in robot.findall("gazebo")}
    assert blocks["lidar_link"].find("sensor").get("type") in ("ray", "gpu_lidar")
    for wheel in ("left_wheel_link", "right_wheel_link"):
        assert blocks[wheel].find("mu1") is not None and blocks[wheel].find("mu2") is not None
    assert "DiffDrive" in blocks[None].find("plugin").get("name")
    assert load(str(SAMPLES / "diff_drive.urdf"), Context()).pose("camera_optical") is not None

    model = sdf_model("diff_drive")
    assert model.find("link[@name='lidar_link']/sensor").get("type") == "gpu_lidar"
    assert "DiffDrive" in model.find("plugin").get("name")
    assert model.find("frame[@name='camera_optical']").get("attached_to") == "camera_link"
    for wheel in ("left_wheel_link", "right_wheel_link"):
        assert model.find(f"link[@name='{wheel}']/collision/surface/friction/ode/mu") is not None
    # relative_to style: every joint and every link but the root
    for element in model.findall("joint") + model.findall("link")[1:]:
        assert element.find("pose").get("relative_to"), element.get("name")


def test_arm6_keeps_its_features():
    robot = etree.parse(str(SAMPLES / "arm6.urdf")).getroot()
    revolute = [j for j in robot.findall("joint") if j.get("type") == "revolute"]
    assert len(revolute) == 6
    assert any(j.find("origin").get("rpy") not in (None, "0 0 0") for j in revolute)
    prismatic = [j for j in robot.findall("joint") if j.get("type") == "prismatic"]
    assert len(prismatic) == 2
    assert sum(j.find("mimic") is not None for j in prismatic) == 1
    assert robot.find("link[@name='tool0']").find("inertial") is None
    assert robot.find("transmission/joint").get("name") == "shoulder_pan_joint"

    model = sdf_model("arm6")
    mimic = model.find("joint[@name='right_finger_joint']/axis/mimic")
    assert mimic.get("joint") == "left_finger_joint"
    assert model.find("frame[@name='tool0']").get("attached_to") == "wrist_3_link"
    joints = model.findall("joint")
    relative_to = [j for j in joints if j.find("pose") is not None and
                   j.find("pose").get("relative_to")]
    model_frame = [j for j in joints if j.find("pose") is None]  # posed by their child link
    assert relative_to and model_frame  # both styles
    result = load(str(SAMPLES / "arm6.sdf"), Context())
    assert result.attached_link("tool0") == "wrist_3_link"


# ---- round trips --------------------------------------------------------------------------

@pytest.mark.parametrize("path", URDF_SAMPLES, ids=sample_id)
def test_urdf_round_trip(path, tmp_path):
    sdf = convert("urdf2sdf", path, tmp_path / f"{path.stem}.sdf", "--relative")
    back = convert("sdf2urdf", sdf, tmp_path / f"{path.stem}.urdf")
    assert_check_urdf_accepts(back)
    assert differences(path, sdf) == []
    assert differences(path, back) == []


@pytest.mark.parametrize("path", SDF_SAMPLES, ids=sample_id)
def test_sdf_to_urdf(path, tmp_path):
    urdf = convert("sdf2urdf", path, tmp_path / f"{path.stem}.urdf")
    assert_check_urdf_accepts(urdf)
    assert differences(path, urdf) == []


def test_gazebo_content_survives_the_round_trips(tmp_path):
    sdf = convert("urdf2sdf", SAMPLES / "diff_drive.urdf", tmp_path / "rt.sdf", "--relative")
    for urdf in (convert("sdf2urdf", sdf, tmp_path / "rt.urdf"),
                 convert("sdf2urdf", SAMPLES / "diff_drive.sdf", tmp_path / "hand.urdf")):
        robot = etree.parse(str(urdf)).getroot()
        assert robot.find("gazebo[@reference='lidar_link']/sensor") is not None
        assert robot.find("gazebo/plugin[@name='gz::sim::systems::DiffDrive']") is not None, \
            f"{urdf.name}: the diff-drive plugin is lost"
        wheel = robot.findall("gazebo[@reference='left_wheel_link']")
        assert any(b.find("mu1") is not None or b.find(".//mu") is not None for b in wheel), \
            f"{urdf.name}: the wheel friction is lost"
