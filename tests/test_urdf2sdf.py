"""URDF -> SDFormat conversion (``urdf2sdf``): goldens, origin texts, forward kinematics,
axes, and agreement with the reference implementation (libsdformat).

Fixtures live in ``tests/fixtures/urdf2sdf/features/``: one tiny URDF per feature, named
for it, with its goldens beside it: ``NAME.relative.sdf`` (``--relative``), ``NAME.sdf``
(the default, absolute poses) and, for a few, ``NAME.VARIANT.sdf`` for other options
(see ``EXTRA_VARIANTS``).

Regenerate the goldens after an intended change of output with::

    UPDATE_GOLDENS=1 .venv/bin/python -m pytest -q tests/test_urdf2sdf.py -k golden

or ``.venv/bin/python -m tests.test_urdf2sdf``. Either writes only outputs that the core
loads without errors; then READ every changed golden (``git diff``) before keeping it:
a golden that encodes a bug is worse than none.

The forward kinematics here is deliberately independent of the core: it reads the URDF
with lxml and multiplies 4x4 matrices built with numpy (``R = Rz(yaw) Ry(pitch) Rx(roll)``).
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from urdf_sdf.core.context import Context
from urdf_sdf.core.custom import URDF_NS
from urdf_sdf.core.loader import load, load_string
from tests.reference import pose_gap
from urdf_sdf.urdf2sdf.convert import Options, convert_urdf

HERE = Path(__file__).resolve().parent
FEATURES = HERE / "fixtures" / "urdf2sdf" / "features"
OTHER_URDF_FIXTURES = HERE / "fixtures" / "urdf"
CONFORMANCE = HERE.parent.parent / "shared" / "conformance" / "cases" / "libsdformat"
UPDATE = os.environ.get("UPDATE_GOLDENS", "").lower() not in ("", "0", "false", "no")

FK_TOL = 1e-12
REFERENCE_TOL = 1e-9
# The real-world URDFs (libsdformat's test files) that our reader accepts; fewer means
# the reader or the converter regressed, or the cases went missing.
MIN_REAL_WORLD_CONVERTED = 20

# Option sets every feature fixture is converted with: golden suffix -> Options fields.
VARIANTS = {"relative": {"relative": True}, "": {}}
# Further option sets for a few fixtures.
EXTRA_VARIANTS = {
    "mesh_package_uri_scale": {"model_uri": {"uri_scheme": "model"},
                               "relative.model_uri": {"relative": True,
                                                      "uri_scheme": "model"}},
    "mimic_joint": {"v1_10": {"sdf_version": "1.10"}, "v1_6": {"sdf_version": "1.6"}},
}

FEATURE_FILES = sorted(FEATURES.glob("*.urdf"))
REAL_WORLD_FILES = sorted([*CONFORMANCE.glob("integration/**/*.urdf"),
                           *CONFORMANCE.glob("sdf/**/*.urdf")])


def variants_of(urdf: Path) -> dict[str, dict]:
    return {**VARIANTS, **EXTRA_VARIANTS.get(urdf.stem, {})}


def golden_path(urdf: Path, variant: str) -> Path:
    return urdf.with_name(f"{urdf.stem}.{variant}.sdf" if variant else f"{urdf.stem}.sdf")


def convert(urdf: Path, **options):
    return convert_urdf(load(urdf, Context()), Options(**options))


def feature_cases():
    return [pytest.param(urdf, variant, options, id=f"{urdf.stem}[{variant or 'absolute'}]")
            for urdf in FEATURE_FILES for variant, options in variants_of(urdf).items()]


def real_world_cases():
    return [pytest.param(urdf, variant, options,
                         id=f"{urdf.relative_to(CONFORMANCE)}[{variant or 'absolute'}]")
            for urdf in REAL_WORLD_FILES for variant, options in VARIANTS.items()]


# The other URDF fixtures of the test suite that are valid (most are invalid on purpose).
VALID_OTHER_URDF_FILES = [p for p in sorted(OTHER_URDF_FIXTURES.glob("*.urdf"))
                          if load(p, Context()).ok]


def all_urdf_cases():
    """Every valid URDF fixture of the test suite with every variant."""
    return feature_cases() + [
        pytest.param(urdf, variant, options, id=f"urdf/{urdf.stem}[{variant or 'absolute'}]")
        for urdf in VALID_OTHER_URDF_FILES for variant, options in VARIANTS.items()]


# ---- independent URDF reading and forward kinematics ------------------------------------

def parse_xml(path_or_bytes):
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    if isinstance(path_or_bytes, bytes):
        return etree.fromstring(path_or_bytes, parser)
    return etree.parse(str(path_or_bytes), parser).getroot()


def floats(text: str | None, default=(0.0, 0.0, 0.0)) -> np.ndarray:
    if text is None:
        return np.array(default, dtype=float)
    return np.array([float(t) for t in text.split()], dtype=float)


def rotation_rpy(roll: float, pitch: float, yaw: float) -> np.ndarray:
    """URDF's fixed-axis convention: R = Rz(yaw) @ Ry(pitch) @ Rx(roll)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def origin_matrix(origin) -> np.ndarray:
    transform = np.eye(4)
    if origin is None:
        return transform
    transform[:3, :3] = rotation_rpy(*floats(origin.get("rpy")))
    transform[:3, 3] = floats(origin.get("xyz"))
    return transform


def origin_text(origin) -> str:
    """The ``<origin>`` as one ``xyz rpy`` text, an absent attribute as ``0 0 0``; ``""``
    without ``<origin>``."""
    if origin is None:
        return ""
    xyz, rpy = origin.get("xyz"), origin.get("rpy")
    return f"{xyz if xyz is not None else '0 0 0'} {rpy if rpy is not None else '0 0 0'}"


class Urdf:
    """Just enough of a URDF for the checks: links, joints, FK at zero configuration."""

    def __init__(self, path: Path):
        self.path = path
        self.root = parse_xml(path)
        self.links = [el.get("name") for el in self.root.findall("link")]
        self.joints = {el.get("name"): el for el in self.root.findall("joint")}
        self.parent_joint = {el.find("child").get("link"): el for el in self.joints.values()}
        roots = [name for name in self.links if name not in self.parent_joint]
        assert len(roots) == 1, f"{path}: roots {roots}"
        self.root_link = roots[0]
        self.world_is_root = self.root_link == "world"
        self.fk: dict[str, np.ndarray] = {}
        for name in self.links:
            self._fk(name)

    def _fk(self, name: str) -> np.ndarray:
        if name not in self.fk:
            joint = self.parent_joint.get(name)
            if joint is None:
                self.fk[name] = np.eye(4)
            else:
                parent = joint.find("parent").get("link")
                self.fk[name] = self._fk(parent) @ origin_matrix(joint.find("origin"))
        return self.fk[name]

    def sdf_links(self) -> list[str]:
        """The URDF links that the SDF must have as a link or a frame (not ``world``)."""
        return [name for name in self.links if not (self.world_is_root and name == "world")]

    def joint_parent(self, joint) -> str:
        return joint.find("parent").get("link")

    def joint_child(self, joint) -> str:
        return joint.find("child").get("link")

    def axis(self, joint) -> np.ndarray:
        axis_el = joint.find("axis")
        xyz = floats(axis_el.get("xyz") if axis_el is not None else None, (1.0, 0.0, 0.0))
        return xyz / np.linalg.norm(xyz)


def pose_matrix(pose) -> np.ndarray:
    """4x4 matrix of a ``core.pose.Pose`` (quaternion w, x, y, z), formula written out."""
    w, x, y, z = pose.rotation
    n = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    transform = np.eye(4)
    transform[:3, :3] = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
    transform[:3, 3] = pose.position
    return transform


def matrix_gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(np.abs(a - b)))


def list_pose_matrix(values) -> np.ndarray:
    from urdf_sdf.core.pose import Pose
    x, y, z, qw, qx, qy, qz = values
    return pose_matrix(Pose((x, y, z), (qw, qx, qy, qz)))


# ---- helpers on SDF output ---------------------------------------------------------------

def sdf_model(xml: bytes):
    root = parse_xml(xml)
    assert root.tag == "sdf"
    models = root.findall("model")
    assert len(models) == 1
    return root, models[0]


def by_name(model_el, tag: str, name: str):
    found = [el for el in model_el.findall(tag) if el.get("name") == name]
    assert len(found) <= 1, f"{len(found)} <{tag} name='{name}'>"
    return found[0] if found else None


def custom_joint(model_el, name: str):
    return [el for el in model_el.findall(f"{{{URDF_NS}}}joint") if el.get("name") == name]


def load_output(xml: bytes, name: str):
    result = load_string(xml, name, Context())
    errors = [d.format() for d in result.diagnostics if d.is_error]
    assert result.ok, f"the core rejects the converter's output: {errors}"
    return result


def converted(urdf: Path, options: dict):
    conversion = convert(urdf, **options)
    errors = [d.format() for d in conversion.diagnostics if d.is_error]
    assert conversion.ok, f"conversion failed: {errors}"
    return conversion


def loadable_urdf_or_skip(urdf: Path):
    result = load(urdf, Context())
    if not result.ok:
        pytest.skip(f"our reader rejects {urdf.name}: "
                    f"{[d.code.value for d in result.diagnostics if d.is_error]}")
    return result


def version_key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


# ---- goldens -----------------------------------------------------------------------------

def test_every_feature_fixture_is_present():
    expected = {"joint_revolute_limit_dynamics", "joint_floating_free_link",
                "link_massless_leaf_fixed_becomes_frame", "material_robot_level_reference",
                "mesh_package_uri_scale", "world_parent_joint", "mimic_joint",
                "gimbal_lock_origin", "joint_continuous", "joint_prismatic",
                "joint_planar_custom_element", "joint_axis_default",
                "joint_calibration_safety_controller", "transmission",
                "link_massless_moving_joint_warning", "link_inertial_origin",
                "link_visual_collision_origin", "geometry_box_cylinder_sphere",
                "material_inline_color", "material_inline_texture",
                "pose_absolute_shortest_float", "origin_partial_attributes"}
    assert expected <= {p.stem for p in FEATURE_FILES}
    for stem in EXTRA_VARIANTS:
        assert (FEATURES / f"{stem}.urdf").is_file(), stem
    assert "urdf_every_element.urdf" in {p.name for p in VALID_OTHER_URDF_FILES}


@pytest.mark.parametrize("urdf, variant, options", feature_cases())
def test_golden(urdf, variant, options):
    """The output is byte for byte the golden beside the fixture."""
    conversion = converted(urdf, options)
    golden = golden_path(urdf, variant)
    if UPDATE:
        load_output(conversion.xml, str(golden))  # never write an output the core rejects
        if not golden.exists() or golden.read_bytes() != conversion.xml:
            golden.write_bytes(conversion.xml)
        return
    assert golden.exists(), f"no golden {golden.name}; run with UPDATE_GOLDENS=1 and read it"
    assert conversion.xml.decode("utf-8") == golden.read_bytes().decode("utf-8")


def test_no_stray_goldens():
    """Every .sdf in the features folder belongs to a fixture and a variant."""
    known = {golden_path(urdf, variant).name
             for urdf in FEATURE_FILES for variant in variants_of(urdf)}
    stray = sorted(p.name for p in FEATURES.glob("*.sdf") if p.name not in known)
    assert not stray


# ---- --relative: poses copy the URDF origin texts ----------------------------------------

def with_joints(paths):
    return [p for p in paths if parse_xml(p).find("joint") is not None]


@pytest.mark.parametrize("urdf", with_joints(FEATURE_FILES + VALID_OTHER_URDF_FILES),
                         ids=lambda p: p.stem)
def test_relative_poses_are_the_urdf_origin_texts(urdf):
    """With --relative, each URDF joint's origin text is copied: an SDF joint's
    ``<pose relative_to=PARENT>`` (the model frame for the world link), and its child link
    is ``<pose relative_to=JOINT/>``; a frame made from a massless leaf, or the free link
    of a floating/planar joint, gets the origin text relative to the parent link."""
    loadable_urdf_or_skip(urdf)
    robot = Urdf(urdf)
    _, model = sdf_model(converted(urdf, {"relative": True}).xml)
    for name, joint in robot.joints.items():
        parent, child = robot.joint_parent(joint), robot.joint_child(joint)
        expected_frame = "__model__" if robot.world_is_root and parent == "world" else parent
        expected_text = origin_text(joint.find("origin"))
        # A joint named like a link is renamed in SDF; urdf:name keeps the URDF name.
        joint_el = by_name(model, "joint", name)
        if joint_el is None or joint_el.get(f"{{{URDF_NS}}}name") not in (None, name):
            joint_el = next((j for j in model.findall("joint")
                             if j.get(f"{{{URDF_NS}}}name") == name), joint_el)
        sdf_joint_name = joint_el.get("name") if joint_el is not None else name
        frame_el = by_name(model, "frame", child)
        link_el = by_name(model, "link", child)
        if joint_el is not None:
            assert joint.get("type") not in ("floating", "planar")
            poses = joint_el.findall("pose")
            assert len(poses) == 1, f"joint {name}"
            assert poses[0].get("relative_to") == expected_frame, f"joint {name}"
            assert (poses[0].text or "") == expected_text, f"joint {name}"
            assert link_el is not None, f"joint {name}: no link {child}"
            link_poses = link_el.findall("pose")
            assert len(link_poses) == 1 and link_poses[0].get("relative_to") == sdf_joint_name, \
                child
            assert (link_poses[0].text or "").strip() == "", child
        elif frame_el is not None:
            assert joint.get("type") == "fixed", f"frame {child} from a {joint.get('type')}"
            assert link_el is None
            assert frame_el.get("attached_to") == parent
            assert frame_el.get(f"{{{URDF_NS}}}joint") == name
            poses = frame_el.findall("pose")
            assert len(poses) == 1 and poses[0].get("relative_to") == expected_frame, child
            assert (poses[0].text or "") == expected_text, f"frame {child}"
        else:
            assert joint.get("type") in ("floating", "planar"), f"joint {name} is missing"
            assert len(custom_joint(model, name)) == 1, f"no urdf:joint {name}"
            assert link_el is not None, f"free link {child} is missing"
            poses = link_el.findall("pose")
            assert len(poses) == 1 and poses[0].get("relative_to") == expected_frame, child
            assert (poses[0].text or "") == expected_text, f"free link {child}"


def test_relative_copies_odd_origin_texts_verbatim():
    """Spot check of the rule above on texts with spaces, signs and exponents."""
    urdf = FEATURES / "origin_partial_attributes.urdf"
    _, model = sdf_model(converted(urdf, {"relative": True}).xml)
    poses = {el.get("name"): el.find("pose") for el in model.findall("joint")}
    assert poses["no_origin"].text is None and poses["no_origin"].get("relative_to") == "base"
    assert poses["xyz_only"].text == "0 0 1 0 0 0"
    assert poses["rpy_only"].text == "0 0 0 0 0 1.5707963267948966"
    assert poses["odd_text"].text == " 1e-3  +2.50  -0  0.0 -1E-1 3"


# ---- forward kinematics ------------------------------------------------------------------

def check_fk(urdf: Path, options: dict) -> None:
    """Every URDF link (as an SDF link or frame) and every SDF joint, resolved by the core
    from the converter's output, is where URDF forward kinematics at zero configuration
    puts it (the joint frame is the child link's frame), within FK_TOL."""
    robot = Urdf(urdf)
    conversion = converted(urdf, options)
    result = load_output(conversion.xml, f"{urdf.stem}.sdf")
    _, model = sdf_model(conversion.xml)
    problems = []
    for name in robot.sdf_links():
        assert by_name(model, "link", name) is not None or \
            by_name(model, "frame", name) is not None, f"link {name} is neither link nor frame"
        pose = result.pose(name)
        if pose is None:
            problems.append(f"{name}: no pose")
            continue
        gap = matrix_gap(pose_matrix(pose), robot.fk[name])
        if not gap <= FK_TOL:
            problems.append(f"{name}: gap {gap:.3g}")
    for name, joint in robot.joints.items():
        if by_name(model, "joint", name) is None:
            continue
        pose = result.pose(name)
        gap = math.inf if pose is None else \
            matrix_gap(pose_matrix(pose), robot.fk[robot.joint_child(joint)])
        if not gap <= FK_TOL:
            problems.append(f"joint {name}: gap {gap:.3g}")
    assert not problems, problems


@pytest.mark.parametrize("urdf, variant, options", all_urdf_cases())
def test_poses_equal_urdf_forward_kinematics(urdf, variant, options):
    loadable_urdf_or_skip(urdf)
    check_fk(urdf, options)


@pytest.mark.parametrize("urdf, variant, options", real_world_cases())
def test_real_world_poses_equal_urdf_forward_kinematics(urdf, variant, options):
    loadable_urdf_or_skip(urdf)
    check_fk(urdf, options)


def test_enough_real_world_urdfs_convert():
    """The real-world checks above must not skip their way to testing nothing."""
    assert len(REAL_WORLD_FILES) >= MIN_REAL_WORLD_CONVERTED, \
        f"only {len(REAL_WORLD_FILES)} URDFs under {CONFORMANCE}"
    converted_ok = [p.name for p in REAL_WORLD_FILES
                    if load(p, Context()).ok and convert(p).ok]
    assert len(converted_ok) >= MIN_REAL_WORLD_CONVERTED, converted_ok


def test_fk_helper_matches_a_hand_computed_chain():
    """The test's own FK: a yaw of 90 degrees then a translation along the new x."""
    a = np.eye(4)
    a[:3, :3] = rotation_rpy(0, 0, math.pi / 2)
    b = np.eye(4)
    b[:3, 3] = [1, 0, 0]
    assert np.allclose((a @ b)[:3, 3], [0, 1, 0], atol=1e-15)
    # Fixed axes: roll first about X, then pitch about Y; a point on Y goes to Z by roll.
    r = rotation_rpy(math.pi / 2, math.pi / 2, 0)
    assert np.allclose(r @ [0, 1, 0], [1, 0, 0], atol=1e-15)


# ---- joint axes --------------------------------------------------------------------------

def check_axes(urdf: Path, options: dict) -> None:
    """Each SDF joint's axis, expressed in the joint frame by the core whatever the version's
    convention, is the URDF axis (normalised, default 1 0 0)."""
    robot = Urdf(urdf)
    conversion = converted(urdf, options)
    result = load_output(conversion.xml, f"{urdf.stem}.sdf")
    _, model = sdf_model(conversion.xml)
    for name, joint in robot.joints.items():
        joint_el = by_name(model, "joint", name)
        if joint_el is None or joint.get("type") == "fixed":
            continue
        assert joint_el.get("type") == joint.get("type")
        axis = result.axis_in_joint_frame(name)
        assert axis is not None, f"joint {name} has no axis"
        assert np.max(np.abs(np.array(axis) - robot.axis(joint))) <= FK_TOL, \
            f"joint {name}: axis {axis} in the joint frame, URDF {robot.axis(joint)}"


@pytest.mark.parametrize("urdf, variant, options", feature_cases())
def test_axes_are_the_urdf_axes(urdf, variant, options):
    check_axes(urdf, options)


@pytest.mark.parametrize("version", ["1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11"])
@pytest.mark.parametrize("stem", ["joint_prismatic", "gimbal_lock_origin"])
def test_axes_and_poses_in_every_accepted_version(stem, version):
    """Whatever --sdf-version the converter accepts, it must express the same robot
    (SDFormat 1.4 expresses //axis/xyz in the parent model frame, not the joint frame)."""
    urdf = FEATURES / f"{stem}.urdf"
    if not convert(urdf, sdf_version=version).ok:
        pytest.skip(f"--sdf-version {version} refused")
    check_axes(urdf, {"sdf_version": version})
    check_fk(urdf, {"sdf_version": version})


# ---- feature rules -----------------------------------------------------------------------

def feature_output(stem: str, **options):
    conversion = converted(FEATURES / f"{stem}.urdf", options)
    root, model = sdf_model(conversion.xml)
    return conversion, root, model


def warnings_of(conversion) -> list:
    return [d for d in conversion.diagnostics if not d.is_error]


@pytest.mark.parametrize("stem, relative, version", [
    ("joint_revolute_limit_dynamics", False, "1.6"),
    ("joint_revolute_limit_dynamics", True, "1.7"),
    ("link_massless_leaf_fixed_becomes_frame", False, "1.7"),
    ("link_massless_leaf_fixed_becomes_frame", True, "1.7"),
    ("joint_floating_free_link", False, "1.6"),
    ("mimic_joint", False, "1.11"),
    ("mimic_joint", True, "1.11"),
    ("world_parent_joint", False, "1.6"),
])
def test_output_version_is_the_lowest_that_expresses_the_result(stem, relative, version):
    conversion, root, _ = feature_output(stem, relative=relative)
    assert conversion.version == version
    assert root.get("version") == version


def test_default_version_is_1_6_without_frames_relative_or_mimic():
    for urdf in FEATURE_FILES:
        conversion = converted(urdf, {})
        _, model = sdf_model(conversion.xml)
        robot = Urdf(urdf)
        has_frame = model.find("frame") is not None
        has_mimic = robot.root.find("joint/mimic") is not None
        expected = "1.11" if has_mimic else "1.7" if has_frame else "1.6"
        assert conversion.version == expected, urdf.name


def test_every_joint_type_and_its_elements():
    _, _, model = feature_output("joint_revolute_limit_dynamics")
    joint = by_name(model, "joint", "shoulder")
    assert joint.get("type") == "revolute"
    assert joint.findtext("parent") == "base" and joint.findtext("child") == "arm"
    assert joint.findtext("axis/xyz") == "0 0 1"
    assert [(el.tag, el.text) for el in joint.find("axis/limit")] == [
        ("lower", "-1.57"), ("upper", "1.57"), ("effort", "10"), ("velocity", "2.5")]
    assert [(el.tag, el.text) for el in joint.find("axis/dynamics")] == [
        ("damping", "0.5"), ("friction", "0.1")]

    _, _, model = feature_output("joint_continuous")
    left, right = by_name(model, "joint", "left"), by_name(model, "joint", "right")
    assert left.get("type") == right.get("type") == "continuous"
    assert left.find("axis/limit/lower") is None and left.find("axis/limit/upper") is None
    assert left.findtext("axis/limit/effort") == "5"
    assert left.findtext("axis/limit/velocity") == "10"
    assert right.findtext("axis/xyz") == "0 0 -1"

    _, _, model = feature_output("joint_prismatic")
    slide = by_name(model, "joint", "slide")
    assert slide.get("type") == "prismatic"
    assert slide.findtext("axis/limit/lower") == "0"
    assert slide.findtext("axis/limit/upper") == "0.5"

    _, _, model = feature_output("joint_fixed_massive_child")
    mount = by_name(model, "joint", "camera_mount")
    assert mount.get("type") == "fixed" and mount.find("axis") is None
    assert by_name(model, "link", "camera") is not None

    _, _, model = feature_output("joint_axis_default")
    assert by_name(model, "joint", "hinge").findtext("axis/xyz") == "1 0 0"
    assert by_name(model, "joint", "rail").findtext("axis/xyz") == "1 0 0"


def test_calibration_and_safety_controller_travel_as_custom_elements():
    _, _, model = feature_output("joint_calibration_safety_controller")
    joint = by_name(model, "joint", "elbow")
    calibration = joint.find(f"{{{URDF_NS}}}calibration")
    safety = joint.find(f"{{{URDF_NS}}}safety_controller")
    assert dict(calibration.attrib) == {"rising": "0.1", "falling": "0.2",
                                        "reference_position": "0.05"}
    assert dict(safety.attrib) == {"soft_lower_limit": "-1.9", "soft_upper_limit": "1.9",
                                   "k_position": "15", "k_velocity": "10"}


@pytest.mark.parametrize("relative", [False, True])
def test_floating_joint_makes_a_free_link_and_a_custom_element(relative):
    conversion, _, model = feature_output("joint_floating_free_link", relative=relative)
    assert by_name(model, "joint", "free") is None
    (custom,) = custom_joint(model, "free")
    assert custom.get("type") == "floating"
    assert custom.find(f"{{{URDF_NS}}}parent").get("link") == "base"
    assert custom.find(f"{{{URDF_NS}}}child").get("link") == "ball"
    assert custom.find(f"{{{URDF_NS}}}origin").attrib == {"xyz": "1 2 3", "rpy": "0 0 0.5"}
    assert by_name(model, "link", "ball") is not None
    assert any("free" in d.message and "floating" in d.message for d in warnings_of(conversion))


def test_planar_joint_makes_a_custom_element():
    conversion, _, model = feature_output("joint_planar_custom_element")
    assert by_name(model, "joint", "table") is None
    (custom,) = custom_joint(model, "table")
    assert custom.get("type") == "planar"
    assert custom.find(f"{{{URDF_NS}}}axis").get("xyz") == "0 0 1"
    assert custom.find(f"{{{URDF_NS}}}limit") is not None
    assert by_name(model, "link", "puck") is not None
    assert any("table" in d.message and "planar" in d.message for d in warnings_of(conversion))


def test_world_parent_link_becomes_a_joint_to_the_world():
    for relative in (False, True):
        _, _, model = feature_output("world_parent_joint", relative=relative)
        assert by_name(model, "link", "world") is None
        joint = by_name(model, "joint", "world_to_base")
        assert joint.findtext("parent") == "world" and joint.findtext("child") == "base"
    _, _, model = feature_output("world_parent_moving_joint")
    spin = by_name(model, "joint", "spin")
    assert spin.get("type") == "continuous" and spin.findtext("parent") == "world"


@pytest.mark.parametrize("relative", [False, True])
def test_world_parent_massless_leaf_makes_a_valid_sdf(relative):
    """A massless leaf fixed to the world link cannot be a frame attached to ``world``
    (libsdformat: FRAME_ATTACHED_TO_INVALID); whatever the converter makes of it must load,
    with the leaf at its URDF pose."""
    urdf = FEATURES / "world_parent_massless_leaf.urdf"
    conversion = converted(urdf, {"relative": relative})
    _, model = sdf_model(conversion.xml)
    for frame in model.findall("frame"):
        assert frame.get("attached_to") != "world", etree.tostring(frame).decode()
    load_output(conversion.xml, "world_parent_massless_leaf.sdf")


@pytest.mark.parametrize("relative", [False, True])
def test_massless_leaf_on_fixed_joint_becomes_a_frame(relative):
    conversion, _, model = feature_output("link_massless_leaf_fixed_becomes_frame",
                                          relative=relative)
    for name, parent, joint in (("tool0", "arm", "tool_joint"),
                                ("camera_optical", "base", "camera_optical_joint")):
        assert by_name(model, "link", name) is None
        assert by_name(model, "joint", joint) is None
        frame = by_name(model, "frame", name)
        assert frame is not None, name
        assert frame.get("attached_to") == parent
        assert frame.get(f"{{{URDF_NS}}}joint") == joint
    assert not any(d.is_error for d in conversion.diagnostics)


def test_massless_leaf_as_frame_needs_1_7():
    conversion = convert(FEATURES / "link_massless_leaf_fixed_becomes_frame.urdf",
                         sdf_version="1.6")
    assert not conversion.ok and conversion.xml is None
    messages = [d.message for d in conversion.diagnostics if d.is_error]
    assert any("frame" in m and "1.7" in m for m in messages), messages


def test_massless_link_on_moving_joint_stays_a_link_with_a_warning_naming_it():
    conversion, _, model = feature_output("link_massless_moving_joint_warning")
    assert by_name(model, "link", "ghost") is not None
    assert by_name(model, "frame", "ghost") is None
    warnings = [d for d in warnings_of(conversion) if "[ghost]" in d.message]
    assert warnings, [d.format() for d in conversion.diagnostics]
    assert warnings[0].line == 6 and warnings[0].file.endswith(
        "link_massless_moving_joint_warning.urdf")


def test_massless_links_that_are_not_bare_leaves_stay_links():
    _, _, model = feature_output("link_massless_fixed_not_leaf_stays_link")
    for name in ("mount", "decoration"):
        assert by_name(model, "link", name) is not None, name
        assert by_name(model, "frame", name) is None, name
    assert model.find("frame") is None


@pytest.mark.parametrize("relative", [False, True])
def test_mimic_is_axis_mimic_at_1_11(relative):
    conversion, root, model = feature_output("mimic_joint", relative=relative)
    assert root.get("version") == "1.11"
    mimic = by_name(model, "joint", "right_slide").find("axis/mimic")
    assert mimic is not None
    assert mimic.get("joint") == "left_slide" and mimic.get("axis") == "axis"
    assert mimic.findtext("multiplier") == "1.0" and mimic.findtext("offset") == "0.001"
    assert by_name(model, "joint", "right_slide").find(f"{{{URDF_NS}}}mimic") is None
    assert by_name(model, "joint", "left_slide").find("axis/mimic") is None


@pytest.mark.parametrize("version", ["1.6", "1.7", "1.9", "1.10"])
def test_mimic_below_1_11_is_a_custom_element(version):
    _, root, model = feature_output("mimic_joint", sdf_version=version)
    assert root.get("version") == version
    joint = by_name(model, "joint", "right_slide")
    assert joint.find("axis/mimic") is None
    (custom,) = joint.findall(f"{{{URDF_NS}}}mimic")
    assert dict(custom.attrib) == {"joint": "left_slide", "multiplier": "1.0",
                                   "offset": "0.001"}


def visual(model, link: str, name: str):
    return by_name(by_name(model, "link", link), "visual", name)


def test_materials_map_rgba_to_ambient_and_diffuse():
    _, _, model = feature_output("material_inline_color")
    material = visual(model, "base", "body").find("material")
    assert material.findtext("ambient") == material.findtext("diffuse") == \
        "1.0 0.423529 0.039216 1.0"
    assert material.get(f"{{{URDF_NS}}}name") == "orange"

    _, _, model = feature_output("material_inline_texture")
    textured = visual(model, "base", "textured").find("material")
    assert textured.find("ambient") is None and textured.find("diffuse") is None
    assert textured.find(f"{{{URDF_NS}}}texture").get("filename") == \
        "package://my_robot/textures/wood.png"
    tinted = visual(model, "base", "tinted").find("material")
    assert tinted.findtext("ambient") == tinted.findtext("diffuse") == "0.5 0.5 0.5 0.8"
    assert tinted.find(f"{{{URDF_NS}}}texture") is not None


def test_robot_level_materials_are_resolved_and_kept():
    _, _, model = feature_output("material_robot_level_reference")
    body = visual(model, "base", "body").find("material")
    assert body.findtext("ambient") == body.findtext("diffuse") == "0 0 0.8 1"
    assert body.get(f"{{{URDF_NS}}}name") == "blue"
    assert body.get(f"{{{URDF_NS}}}reference") == "true"
    panel = visual(model, "base", "panel").find("material")
    assert panel.find(f"{{{URDF_NS}}}texture").get("filename") == \
        "package://my_robot/textures/checker.png"
    definitions = {el.get("name"): el for el in model.findall(f"{{{URDF_NS}}}material")}
    assert set(definitions) == {"blue", "checker"}
    assert definitions["blue"].find(f"{{{URDF_NS}}}color").get("rgba") == "0 0 0.8 1"


def test_undefined_material_reference_warns():
    conversion, _, model = feature_output("material_undefined_reference")
    material = visual(model, "base", "body").find("material")
    assert material.get(f"{{{URDF_NS}}}name") == "nowhere"
    assert material.find("ambient") is None
    assert any("nowhere" in d.message and d.line == 9 for d in warnings_of(conversion))


def test_transmission_travels_whole():
    _, _, model = feature_output("transmission")
    (transmission,) = model.findall(f"{{{URDF_NS}}}transmission")
    assert transmission.get("name") == "shoulder_trans"
    assert transmission.findtext(f"{{{URDF_NS}}}type") == \
        "transmission_interface/SimpleTransmission"
    joint = transmission.find(f"{{{URDF_NS}}}joint")
    assert joint.get("name") == "shoulder"
    assert joint.findtext(f"{{{URDF_NS}}}hardwareInterface") == \
        "hardware_interface/EffortJointInterface"
    assert transmission.findtext(f"{{{URDF_NS}}}actuator/{{{URDF_NS}}}mechanicalReduction") \
        == "50"


@pytest.mark.parametrize("scheme, expected", [
    ("package", ["package://my_robot/meshes/base.dae", "file:///opt/meshes/cover.stl",
                 "package://my_robot/meshes/base_collision.stl"]),
    ("model", ["model://my_robot/meshes/base.dae", "file:///opt/meshes/cover.stl",
               "model://my_robot/meshes/base_collision.stl"]),
])
def test_mesh_uris_and_scale(scheme, expected):
    _, _, model = feature_output("mesh_package_uri_scale", uri_scheme=scheme)
    link = by_name(model, "link", "base")
    meshes = [link.find("visual[@name='scaled']/geometry/mesh"),
              link.find("visual[@name='file_mesh']/geometry/mesh"),
              link.find("collision[@name='unscaled']/geometry/mesh")]
    assert [m.findtext("uri") for m in meshes] == expected
    assert [m.findtext("scale") for m in meshes] == ["0.001 0.001 0.002", None, None]


def test_primitive_geometry_sizes_are_copied():
    _, _, model = feature_output("geometry_box_cylinder_sphere")
    link = by_name(model, "link", "base")
    for kind in ("visual", "collision"):
        assert link.findtext(f"{kind}[@name='box']/geometry/box/size") == "1 2.5 0.125"
        assert link.findtext(f"{kind}[@name='cylinder']/geometry/cylinder/radius") == "0.05"
        assert link.findtext(f"{kind}[@name='cylinder']/geometry/cylinder/length") == "0.3"
        assert link.findtext(f"{kind}[@name='sphere']/geometry/sphere/radius") == "0.25"


def test_inertial_origin_and_numbers_are_copied():
    _, _, model = feature_output("link_inertial_origin")
    inertial = by_name(model, "link", "base").find("inertial")
    assert inertial.findtext("pose") == "0.01 -0.02 0.03 0.1 0.2 0.3"
    assert inertial.findtext("mass") == "2.5"
    assert [(el.tag, el.text) for el in inertial.find("inertia")] == [
        ("ixx", "0.2"), ("ixy", "0.001"), ("ixz", "-0.002"), ("iyy", "0.25"), ("iyz", "0.003"),
        ("izz", "0.3")]
    assert by_name(model, "link", "arm").find("inertial/pose") is None


def test_visual_and_collision_origins_and_names():
    _, _, model = feature_output("link_visual_collision_origin")
    link = by_name(model, "link", "base")
    visuals = link.findall("visual")
    collisions = link.findall("collision")
    assert [v.get("name") for v in visuals] == ["body", "base_visual"]
    assert [v.findtext("pose") for v in visuals] == ["0 0 0.1 0 0 1.5707963267948966",
                                                     "0 0 0 0.5 0 0"]
    assert visuals[1].get(f"{{{URDF_NS}}}unnamed") == "true"
    assert [c.get("name") for c in collisions] == ["body_collision", "base_collision"]
    assert [c.findtext("pose") for c in collisions] == ["0 0 0.1 0 0 0", None]


def test_explicit_shape_names_are_kept_when_an_unnamed_shape_comes_first(tmp_path):
    """A generated name must not take a name the URDF gives explicitly: the named visual
    keeps its name (no rename, no "repeats" warning, since it does not repeat)."""
    urdf = tmp_path / "names.urdf"
    urdf.write_text(
        '<robot name="names"><link name="base">'
        '<visual><geometry><sphere radius="1"/></geometry></visual>'
        '<visual name="base_visual"><geometry><sphere radius="2"/></geometry></visual>'
        '<collision><geometry><sphere radius="1"/></geometry></collision>'
        '<collision name="base_collision"><geometry><sphere radius="2"/></geometry></collision>'
        '</link></robot>')
    conversion = converted(urdf, {})
    _, model = sdf_model(conversion.xml)
    link = by_name(model, "link", "base")
    for kind, radius in (("visual", "2"), ("collision", "2")):
        shapes = link.findall(kind)
        names = [s.get("name") for s in shapes]
        assert len(set(names)) == len(names) == 2, names
        named = by_name(link, kind, f"base_{kind}")
        assert named is not None and named.findtext("geometry/sphere/radius") == radius, \
            etree.tostring(link).decode()
        assert named.get(f"{{{URDF_NS}}}name") is None
    assert not [d.format() for d in conversion.diagnostics if "repeats" in d.message]


def test_absolute_poses_are_shortest_round_trip_floats():
    """Without --relative every link pose is resolved to the model frame, each number the
    shortest text that reads back to the same float (no fixed %.6f)."""
    urdf = FEATURES / "pose_absolute_shortest_float.urdf"
    robot = Urdf(urdf)
    for options in ({}, {"sdf_version": "1.6"}):
        conversion = converted(urdf, options)
        _, model = sdf_model(conversion.xml)
        for link in model.findall("link"):
            poses = link.findall("pose")
            if link.get("name") == robot.root_link and not poses:
                continue  # the root link at the model frame needs no pose
            (pose,) = poses
            assert pose.get("relative_to") in (None, "__model__")
            tokens = pose.text.split()
            assert len(tokens) == 6
            for token in tokens:
                assert token == repr(float(token)) or token == str(int(float(token))), token
            position = np.array([float(t) for t in tokens[:3]])
            assert np.max(np.abs(position - robot.fk[link.get("name")][:3, 3])) <= FK_TOL
    # At least one number of this chain needs more than 6 decimals.
    _, model = sdf_model(converted(urdf, {}).xml)
    tokens = [t for link in model.findall("link") for t in (link.findtext("pose") or "").split()]
    assert any(len(t.partition(".")[2]) > 6 for t in tokens), tokens


@pytest.mark.parametrize("stem", ["pose_absolute_shortest_float", "gimbal_lock_origin",
                                  "joint_revolute_limit_dynamics", "world_parent_joint"])
def test_sdf_version_1_6_is_allowed_without_relative(stem):
    conversion, root, _ = feature_output(stem, sdf_version="1.6")
    assert root.get("version") == "1.6"
    assert b"relative_to" not in conversion.xml


def test_relative_refuses_a_version_below_1_7():
    for version in ("1.4", "1.5", "1.6"):
        conversion = convert(FEATURES / "joint_prismatic.urdf", relative=True,
                             sdf_version=version)
        assert not conversion.ok and conversion.xml is None
        messages = [d.message for d in conversion.diagnostics if d.is_error]
        assert any("relative_to" in m for m in messages), messages


def test_unknown_sdf_version_is_refused():
    conversion = convert(FEATURES / "joint_prismatic.urdf", sdf_version="1.12")
    assert not conversion.ok and conversion.xml is None
    assert any("1.12" in d.message for d in conversion.diagnostics if d.is_error)


def test_invalid_urdf_is_not_converted():
    conversion = convert(OTHER_URDF_FIXTURES / "urdf_kinematic_loop.urdf")
    assert not conversion.ok and conversion.xml is None
    assert any(d.code.value == "URDF_KINEMATIC_LOOP" for d in conversion.diagnostics)


# ---- the reference implementation --------------------------------------------------------

def reference_poses(report: dict) -> tuple[dict, dict]:
    """``(bodies, joints)``: links and frames merged by name (a URDF link may be a link in
    one description and a frame in another), and joints."""
    bodies = {}
    for kind in ("links", "frames"):
        for name, pose in (report.get(kind) or {}).items():
            assert name not in bodies, f"{name} is both a link and a frame"
            bodies[name] = pose
    return bodies, dict(report.get("joints") or {})


def check_reference(urdf: Path, options: dict, sdf_reference, tmp_path: Path) -> None:
    """libsdformat loads the output without errors and resolves every link, frame and joint
    where our core does (REFERENCE_TOL); outputs above 1.9 are converted again at 1.9."""
    conversion = converted(urdf, options)
    if version_key(conversion.version) > (1, 9):
        conversion = converted(urdf, {**options, "sdf_version": "1.9"})
    path = tmp_path / f"{urdf.stem}.sdf"
    path.write_bytes(conversion.xml)
    report = sdf_reference(path)
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    assert report.get("ok") and not errors, f"libsdformat rejects the output: {errors}"
    ours = load_output(conversion.xml, str(path))
    robot = Urdf(urdf)
    ref_bodies, ref_joints = reference_poses(report)
    problems = []
    for name in robot.sdf_links():
        pose = ref_bodies.get(name)
        if pose is None:
            problems.append(f"{name}: the reference has no link or frame of that name")
            continue
        gap = pose_gap(pose, ours.pose(name).as_list())
        if not gap <= REFERENCE_TOL:
            problems.append(f"{name}: gap {gap:.3g} (reference {pose})")
    for name, pose in ref_joints.items():
        mine = ours.pose(name)
        gap = math.inf if mine is None else pose_gap(pose, mine.as_list())
        if not gap <= REFERENCE_TOL:
            problems.append(f"joint {name}: gap {gap:.3g} (reference {pose})")
    assert not problems, problems


@pytest.mark.parametrize("urdf, variant, options", all_urdf_cases())
def test_reference_loads_output_and_agrees(urdf, variant, options, sdf_reference, tmp_path):
    loadable_urdf_or_skip(urdf)
    check_reference(urdf, options, sdf_reference, tmp_path)


@pytest.mark.parametrize("urdf, variant, options", real_world_cases())
def test_real_world_reference_loads_output_and_agrees(urdf, variant, options, sdf_reference,
                                                      tmp_path):
    loadable_urdf_or_skip(urdf)
    check_reference(urdf, options, sdf_reference, tmp_path)


@pytest.mark.parametrize("urdf", FEATURE_FILES + REAL_WORLD_FILES, ids=lambda p: p.stem)
def test_reference_reading_the_urdf_agrees_with_the_test_fk(urdf, sdf_reference):
    """libsdformat reading the URDF itself (it lumps fixed joints and drops massless links)
    puts each link, lumped frame and joint it reports where this test's FK does: a check of
    the FK that the other tests trust."""
    loadable_urdf_or_skip(urdf)
    report = sdf_reference(urdf)
    if not report.get("ok"):
        pytest.skip("the reference rejects this URDF")
    robot = Urdf(urdf)
    bodies, joints = reference_poses(report)
    problems = []
    for name, pose in bodies.items():
        if name in robot.fk and pose is not None:
            gap = matrix_gap(list_pose_matrix(pose), robot.fk[name])
            if not gap <= REFERENCE_TOL:
                problems.append(f"{name}: gap {gap:.3g}")
    for name, pose in joints.items():
        if name in robot.joints and pose is not None:
            child = robot.joint_child(robot.joints[name])
            gap = matrix_gap(list_pose_matrix(pose), robot.fk[child])
            if not gap <= REFERENCE_TOL:
                problems.append(f"joint {name}: gap {gap:.3g}")
    assert bodies, "the reference reports no link"
    assert not problems, problems


# ---- regenerate goldens: python -m tests.test_urdf2sdf -----------------------------------

def update_goldens() -> int:
    written = 0
    for urdf in FEATURE_FILES:
        for variant, options in variants_of(urdf).items():
            conversion = convert(urdf, **options)
            golden = golden_path(urdf, variant)
            if not conversion.ok:
                print(f"{golden.name}: conversion failed, not written", file=sys.stderr)
                continue
            if not load_string(conversion.xml, str(golden), Context()).ok:
                print(f"{golden.name}: the core rejects the output, not written",
                      file=sys.stderr)
                continue
            if not golden.exists() or golden.read_bytes() != conversion.xml:
                golden.write_bytes(conversion.xml)
                print(f"wrote {golden.relative_to(HERE.parent)}")
                written += 1
    return written


if __name__ == "__main__":
    update_goldens()
