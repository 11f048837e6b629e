"""SDFormat -> URDF (sdf2urdf.convert).

* Under URDF parity (the spec's "Parity with URDF" example and its //frame variant)
  every joint's <origin> is the SDF pose text, byte for byte.
* Elsewhere (SDF 1.4/1.6 model-frame poses, links posed relative_to other links, joint
  poses relative to the child, axes expressed_in other frames, nested models, frames,
  worlds, static models, joints to world, mimic, model:// meshes) origins are computed.
  Every output must pass ROS's check_urdf, and ``core.diff.compare.diff_files(source, output)``
  must be empty. Independently of our own diff, the output's joint and frame poses, and
  the poses of inertials, visuals and collisions, are checked against libsdformat's
  resolved poses (the ``sdf_reference`` fixture) by forward kinematics written here.
* The sdformat_urdf cases of ../shared/conformance convert, pass check_urdf and diff
  against their source, except the four that cannot be a URDF and the joint types URDF
  lacks (an error naming the joint; with ``approximate`` a URDF and a warning per joint).
* Golden outputs: ``tests/fixtures/sdf2urdf/NAME.urdf`` beside ``NAME.sdf`` (and
  ``tests/fixtures/parity/parity_holds_*.urdf``). When the converter changes on purpose,
  regenerate with ``sdf2urdf NAME.sdf -o NAME.urdf`` and READ the change before keeping it.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from scipy.spatial.transform import Rotation

from tests.support import (
    SHARED,
    assert_check_urdf_accepts,
    assert_xml_equivalent,
    shared_cases,
    shared_dir,
)
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Severity
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.core.loader import load
from urdf_sdf.sdf2urdf.convert import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

HERE = Path(__file__).resolve().parents[1]
FIXTURES = HERE / "fixtures" / "sdf2urdf"
PARITY = HERE / "fixtures" / "parity"
SDFORMAT_URDF_PARTS = ("conformance", "cases", "sdformat_urdf", "models")
SDFORMAT_URDF = SHARED.joinpath(*SDFORMAT_URDF_PARTS)
TOL = 1e-9


# ---- helpers -------------------------------------------------------------------------------

def convert(path: Path, **options):
    result = load(str(path), Context())
    return convert_sdf(result, ToUrdf(**options))


def convert_ok(path: Path, tmp_path: Path, **options) -> Path:
    conversion = convert(path, **options)
    assert conversion.ok, [d.format() for d in conversion.diagnostics if d.is_error]
    out = tmp_path / (path.stem + ".urdf")
    out.write_bytes(conversion.xml)
    return out


def assert_no_difference(source: Path, output: Path) -> None:
    differences = diff_files(str(source), str(output))
    assert differences == [], "\n".join(d.format() for d in differences)


def urdf_root(data) -> etree._Element:
    return etree.fromstring(data if isinstance(data, bytes) else Path(data).read_bytes())


def joint_el(robot, name: str):
    found = [j for j in robot.findall("joint") if j.get("name") == name]
    assert len(found) == 1, f"joint [{name}] appears {len(found)} times"
    return found[0]


def errors(conversion) -> list:
    return [d for d in conversion.diagnostics if d.is_error]


def warnings(conversion) -> list:
    return [d for d in conversion.diagnostics if d.severity is Severity.WARNING]


def is_shortest_float_text(token: str) -> bool:
    """Computed numbers are written with repr precision: ints without '.0', no '-0'."""
    value = float(token)
    if value == 0:
        return token == "0"
    if value.is_integer() and abs(value) < 1e15:
        return token == str(int(value))
    return token == repr(value)


# ---- poses for the independent check -----------------------------------------------------

def matrix(xyz, rpy) -> np.ndarray:
    m = np.eye(4)
    m[:3, :3] = Rotation.from_euler("xyz", rpy).as_matrix()  # fixed axes: roll, pitch, yaw
    m[:3, 3] = xyz
    return m


def origin_matrix(el) -> np.ndarray:
    origin = el.find("origin") if el is not None else None
    if origin is None:
        return np.eye(4)
    xyz = [float(v) for v in (origin.get("xyz") or "0 0 0").split()]
    rpy = [float(v) for v in (origin.get("rpy") or "0 0 0").split()]
    return matrix(xyz, rpy)


def reference_matrix(pose) -> np.ndarray:
    x, y, z, qw, qx, qy, qz = pose
    m = np.eye(4)
    m[:3, :3] = Rotation.from_quat([qx, qy, qz, qw]).as_matrix()
    m[:3, 3] = (x, y, z)
    return m


def urdf_link_poses(robot) -> tuple[str, dict[str, np.ndarray]]:
    """The root link and every link's frame relative to it (forward kinematics at zero)."""
    joints = {j.find("child").get("link"): j for j in robot.findall("joint")}
    links = [l.get("name") for l in robot.findall("link")]
    roots = [name for name in links if name not in joints]
    assert len(roots) == 1, f"URDF roots: {roots}"
    poses = {roots[0]: np.eye(4)}

    def pose(name):
        if name not in poses:
            joint = joints[name]
            poses[name] = pose(joint.find("parent").get("link")) @ origin_matrix(joint)
        return poses[name]

    for name in links:
        pose(name)
    return roots[0], poses


def gap(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max())


def sdf_pose(el) -> tuple[str | None, np.ndarray]:
    """An SDF element's own <pose>: (relative_to or None, matrix); euler rpy only."""
    pose = el.find("pose")
    if pose is None or not (pose.text or "").strip():
        return (pose.get("relative_to") if pose is not None else None), np.eye(4)
    assert pose.get("rotation_format") in (None, "euler_rpy")
    values = [float(v) for v in pose.text.split()]
    rpy = values[3:]
    if pose.get("degrees") in ("true", "1"):
        rpy = [math.radians(v) for v in rpy]
    return pose.get("relative_to"), matrix(values[:3], rpy)


def sdf_links(path: Path, separator: str = "::") -> dict[str, etree._Element]:
    """Link elements by scoped name (relative to the converted model)."""
    tree = etree.parse(str(path))
    top = tree.find("model") if tree.find("model") is not None else tree.find("world/model")
    found = {}
    for link in top.iter("link"):
        scopes = [a.get("name") for a in link.iterancestors("model")][::-1][1:]
        found[separator.join(scopes + [link.get("name")])] = link
    return found


def independent_pose_problems(source: Path, urdf: Path, reference: dict,
                              model: str | None = None) -> list[str]:
    """Compare the URDF with libsdformat's resolved poses: joint frames (the URDF child
    link frames), frames (frame-made links), root links, and every inertial, visual and
    collision frame. Returns readable problems (empty when all agree within TOL)."""
    assert reference["ok"], reference["diagnostics"]
    prefix = f"{model}::" if model else ""
    base = np.linalg.inv(reference_matrix(reference["models"][model])) if model else np.eye(4)

    def ref(kind):
        return {name[len(prefix):]: base @ reference_matrix(p)
                for name, p in reference[kind].items() if name.startswith(prefix)}

    ref_links, ref_joints, ref_frames = ref("links"), ref("joints"), ref("frames")
    ref_any = {**ref("models"), **ref_frames, **ref_joints, **ref_links,
               "__model__": np.eye(4)}
    robot = urdf_root(urdf)
    root, poses = urdf_link_poses(robot)
    to_root = np.eye(4) if root == "world" else np.linalg.inv(ref_links[root])
    child_joint = {j.find("child").get("link"): j.get("name") for j in robot.findall("joint")}
    problems = []
    for name, actual in poses.items():
        joint = child_joint.get(name)
        if joint in ref_joints:
            expected, what = to_root @ ref_joints[joint], f"joint frame [{joint}]"
        elif name in ref_frames:
            expected, what = to_root @ ref_frames[name], f"frame [{name}]"
        elif name in ref_links:  # the root, or welded to world
            expected, what = to_root @ ref_links[name], f"link [{name}]"
        else:
            continue
        if gap(actual, expected) > TOL:
            problems.append(f"{what}: URDF {actual.round(6).tolist()} != "
                            f"reference {expected.round(6).tolist()}")
    urdf_links = {l.get("name"): l for l in robot.findall("link")}
    for name, link in sdf_links(source).items():
        if name not in urdf_links or name not in ref_links:
            problems.append(f"link [{name}] missing from the URDF or the reference")
            continue
        for kind in ("inertial", "visual", "collision"):
            # geometry URDF lacks travels in <gazebo> blocks (with a warning): not compared
            sdf_items = [e for e in link.findall(kind) if kind == "inertial" or
                         e.find("geometry") is None or
                         e.find("geometry")[0].tag in ("box", "cylinder", "sphere", "mesh")]
            if kind == "inertial" and not sdf_items:
                # SDFormat's default inertial (mass 1 at the link origin), written out in URDF
                sdf_items = [etree.Element("inertial")]
            urdf_items = urdf_links[name].findall(kind)
            if len(sdf_items) != len(urdf_items):
                problems.append(f"link [{name}]: {len(sdf_items)} {kind} in SDF, "
                                f"{len(urdf_items)} in URDF")
                continue
            for i, (s, u) in enumerate(zip(sdf_items, urdf_items)):
                relative_to, X = sdf_pose(s)
                scope = name.rsplit("::", 1)[0] + "::" if "::" in name else ""
                frame = ref_links[name] if relative_to is None else \
                    ref_any.get(scope + relative_to, ref_any.get(relative_to))
                expected = to_root @ frame @ X
                actual = poses[name] @ origin_matrix(u)
                if gap(actual, expected) > TOL:
                    problems.append(f"{kind}[{i}] of link [{name}]: URDF "
                                    f"{actual.round(6).tolist()} != reference "
                                    f"{expected.round(6).tolist()}")
    return problems


# ---- parity: byte-for-byte origin text -----------------------------------------------------

def parity_origin_texts(path: Path) -> dict[str, tuple[str, str]]:
    """joint name -> (xyz, rpy) text of the one non-identity pose on the joint's way to its
    parent link: its own pose text, or the text of the frame it is relative_to."""
    model = etree.parse(str(path)).find("model")
    frames = {f.get("name"): f for f in model.findall("frame")}
    texts = {}
    for joint in model.findall("joint"):
        pose = joint.find("pose")
        text = (pose.text or "").strip() if pose is not None else ""
        if not text and pose is not None and pose.get("relative_to") in frames:
            text = frames[pose.get("relative_to")].findtext("pose").strip()
        tokens = text.split()
        assert len(tokens) == 6
        texts[joint.get("name")] = (" ".join(tokens[:3]), " ".join(tokens[3:]))
    return texts


@pytest.mark.parametrize("name", ["parity_holds_relative_to", "parity_holds_model_frames"])
@pytest.mark.parametrize("drop_frames", [False, True])
def test_parity_examples_copy_origin_text_byte_for_byte(name, drop_frames, tmp_path):
    source = PARITY / f"{name}.sdf"
    conversion = convert(source, drop_frames=drop_frames)
    assert conversion.ok and conversion.parity_holds
    robot = urdf_root(conversion.xml)
    expected = parity_origin_texts(source)
    assert set(expected) == {"joint1", "joint2", "joint3"}
    for joint, (xyz, rpy) in expected.items():
        origin = joint_el(robot, joint).find("origin")
        assert origin is not None, joint
        assert (origin.get("xyz"), origin.get("rpy")) == (xyz, rpy), joint
    out = tmp_path / f"{name}.urdf"
    out.write_bytes(conversion.xml)
    assert_check_urdf_accepts(out)
    if not drop_frames:  # dropped frames are, by design, only in the source
        assert_no_difference(source, out)


def test_parity_frame_variant_frames_copy_their_text(tmp_path):
    source = PARITY / "parity_holds_model_frames.sdf"
    robot = urdf_root(convert(source).xml)
    model = etree.parse(str(source)).find("model")
    for frame in model.findall("frame"):
        name = frame.get("name")
        joint = joint_el(robot, f"{name}_joint")
        assert joint.get("type") == "fixed"
        text = (frame.findtext("pose") or "").split()
        origin = joint.find("origin")
        if text:
            assert (origin.get("xyz"), origin.get("rpy")) == (" ".join(text[:3]),
                                                              " ".join(text[3:]))
        else:
            assert origin is None  # the identity: no <origin>, as a URDF author writes it


@pytest.mark.parametrize("name", ["parity_holds_relative_to", "parity_holds_model_frames"])
def test_parity_examples_match_golden(name):
    source = PARITY / f"{name}.sdf"
    assert_xml_equivalent(convert(source).xml, PARITY / f"{name}.urdf")


def test_parity_copy_keeps_unusual_number_text(tmp_path):
    """Text is copied, not reformatted: exponents, '+' signs and trailing zeros survive."""
    source = tmp_path / "odd.sdf"
    source.write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="odd">
    <link name="a"/>
    <joint name="j" type="fixed">
      <pose relative_to="a">1e-3 +2.50 -0 0.0 -1E-1 3.141592653589793238</pose>
      <parent>a</parent>
      <child>b</child>
    </joint>
    <link name="b"><pose relative_to="j"/></link>
  </model>
</sdf>
""")
    conversion = convert(source)
    assert conversion.ok and conversion.parity_holds
    origin = joint_el(urdf_root(conversion.xml), "j").find("origin")
    assert origin.get("xyz") == "1e-3 +2.50 -0"
    assert origin.get("rpy") == "0.0 -1E-1 3.141592653589793238"


def test_parity_copy_keeps_identity_text(tmp_path):
    """An identity pose that is written out (``0 0 0 0 0 0``) is text like any other: it is
    copied, so that a URDF that said ``<origin xyz="0 0 0" rpy="0 0 0"/>`` gets it back."""
    source = tmp_path / "zero.sdf"
    source.write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="zero">
    <link name="a"/>
    <joint name="j" type="fixed">
      <pose relative_to="a">0 0 0 0 0 0</pose>
      <parent>a</parent>
      <child>b</child>
    </joint>
    <link name="b"><pose relative_to="j"/></link>
  </model>
</sdf>
""")
    conversion = convert(source)
    assert conversion.ok and conversion.parity_holds
    origin = joint_el(urdf_root(conversion.xml), "j").find("origin")
    assert origin is not None
    assert (origin.get("xyz"), origin.get("rpy")) == ("0 0 0", "0 0 0")


# ---- computed cases ------------------------------------------------------------------------

COMPUTED = {
    # fixture -> converter options
    "sdf_1_4_model_frame_poses": {},
    "sdf_1_6_frame_attribute_use_parent_model_frame": {},
    "link_pose_relative_to_other_link": {},
    "joint_pose_relative_to_child": {},
    "axis_expressed_in_other_frames": {},
    "nested_models": {},
    "frames_become_fixed_joints": {},
    "world_one_model": {},
    "static_model": {},
    "joint_to_world": {},
    "mimic_axis": {},
    "mesh_model_uri": {},
}
WORLD_MODELS = {"world_one_model": "pendulum"}
REFERENCE_CANNOT_READ = {"mimic_axis"}  # SDFormat 1.11; the reference is libsdformat 12


@pytest.mark.parametrize("name", sorted(COMPUTED))
def test_computed_case_passes_check_urdf(name, tmp_path):
    out = convert_ok(FIXTURES / f"{name}.sdf", tmp_path, **COMPUTED[name])
    assert_check_urdf_accepts(out)


@pytest.mark.parametrize("name", sorted(COMPUTED))
def test_computed_case_has_no_difference(name, tmp_path):
    source = FIXTURES / f"{name}.sdf"
    out = convert_ok(source, tmp_path, **COMPUTED[name])
    assert_no_difference(source, out)


@pytest.mark.parametrize("name", sorted(set(COMPUTED) - REFERENCE_CANNOT_READ))
def test_computed_case_agrees_with_reference_poses(name, tmp_path, sdf_reference):
    source = FIXTURES / f"{name}.sdf"
    out = convert_ok(source, tmp_path, **COMPUTED[name])
    problems = independent_pose_problems(source, out, sdf_reference(source),
                                         WORLD_MODELS.get(name))
    assert problems == []


@pytest.mark.parametrize("edit", [
    ('<origin xyz="0 0 0.05" rpy="0 0 0"/>', '<origin xyz="0 0 0.05000001" rpy="0 0 0"/>'),
    ('rpy="-0.20000000000000004 0 0"/>', 'rpy="-0.2000001 0 0"/>'),
    ('<origin xyz="-0.047942553860420296', '<origin xyz="-0.0479426'),
])
def test_independent_check_catches_a_small_error(edit, tmp_path, sdf_reference):
    """The oracle above is not vacuous: a 1e-7 change in an inertial, a visual or a joint
    origin of a correct output is reported."""
    source = FIXTURES / "sdf_1_4_model_frame_poses.sdf"
    text = (FIXTURES / "sdf_1_4_model_frame_poses.urdf").read_text()
    assert edit[0] in text
    out = tmp_path / "edited.urdf"
    out.write_text(text.replace(edit[0], edit[1], 1))
    assert independent_pose_problems(source, out, sdf_reference(source)) != []


@pytest.mark.parametrize("name", ["sdf_1_4_model_frame_poses",
                                  "sdf_1_6_frame_attribute_use_parent_model_frame"])
def test_computed_numbers_are_shortest_round_trip(name):
    """No pose in these legacy files can be copied: every origin is computed, and written
    with the shortest text that reads back to the same float (never %.6f)."""
    conversion = convert(FIXTURES / f"{name}.sdf")
    assert conversion.ok and not conversion.parity_holds
    origins = list(urdf_root(conversion.xml).iter("origin"))
    assert origins
    for origin in origins:
        for key in ("xyz", "rpy"):
            tokens = (origin.get(key) or "").split()
            assert len(tokens) == 3
            assert all(is_shortest_float_text(t) for t in tokens), (key, tokens)


def test_sdf_1_4_child_link_content_is_re_expressed_in_the_joint_frame():
    """In SDF 1.4 the joint is posed in the child link frame; in URDF the child link frame
    is the joint frame, so the link's inertial and visual move by the inverse joint pose."""
    robot = urdf_root(convert(FIXTURES / "sdf_1_4_model_frame_poses.sdf").xml)
    upper = next(l for l in robot.findall("link") if l.get("name") == "upper")
    X_JL = np.linalg.inv(matrix((0, 0, -0.1), (0.2, 0, 0)))  # link in joint frame
    expected = X_JL @ matrix((0, 0, 0.2), (0, 0, 0))
    assert gap(origin_matrix(upper.find("inertial")), expected) < TOL
    assert gap(origin_matrix(upper.find("visual")), expected) < TOL
    # base is the root and sits off the model frame: its content stays in its own frame
    base = next(l for l in robot.findall("link") if l.get("name") == "base")
    assert base.find("inertial/origin").get("xyz") == "0 0 0.05"


def test_axes_are_written_in_the_joint_frame():
    """An axis expressed_in another frame is rotated into the joint frame."""
    robot = urdf_root(convert(FIXTURES / "axis_expressed_in_other_frames.sdf").xml)
    # j_model: joint yawed by 0.8 in the model; axis 1 0 0 in the model frame
    axis = [float(v) for v in joint_el(robot, "j_model").find("axis").get("xyz").split()]
    assert np.allclose(axis, [math.cos(0.8), -math.sin(0.8), 0], atol=TOL)
    # j_parent: rolled by 0.5 in l1; axis 0 0 1 in l1
    axis = [float(v) for v in joint_el(robot, "j_parent").find("axis").get("xyz").split()]
    assert np.allclose(axis, [0, math.sin(0.5), math.cos(0.5)], atol=TOL)
    # j_frame: axis 0 1 1 in frame [tilted] (rpy 0.3 0.2 0.1 in the model)
    R_joint = Rotation.from_euler("xyz", [0, 0, 0.8]).as_matrix() @ \
        Rotation.from_euler("xyz", [0.5, 0, 0]).as_matrix() @ \
        Rotation.from_euler("xyz", [0, 0.4, 0]).as_matrix()
    R_tilted = Rotation.from_euler("xyz", [0.3, 0.2, 0.1]).as_matrix()
    expected = R_joint.T @ R_tilted @ np.array([0, 1, 1]) / math.sqrt(2)
    axis = [float(v) for v in joint_el(robot, "j_frame").find("axis").get("xyz").split()]
    assert np.allclose(axis, expected, atol=TOL)


def test_sdf_1_6_use_parent_model_frame_axis():
    robot = urdf_root(convert(FIXTURES / "sdf_1_6_frame_attribute_use_parent_model_frame.sdf").xml)
    # the joint is yawed by pi/2: model x is joint -y
    axis = [float(v) for v in joint_el(robot, "shoulder").find("axis").get("xyz").split()]
    assert np.allclose(axis, [0, -1, 0], atol=TOL)
    assert joint_el(robot, "wrist").find("axis").get("xyz") == "0 0 1"  # copied text


def test_legacy_sdf_1_4_converts_without_parity():
    conversion = convert(FIXTURES / "sdf_1_4_model_frame_poses.sdf")
    assert conversion.ok and not conversion.parity_holds


# ---- nested models and the separator -------------------------------------------------------

def test_nested_models_are_flattened_with_the_default_separator():
    robot = urdf_root(convert(FIXTURES / "nested_models.sdf").xml)
    links = {l.get("name") for l in robot.findall("link")}
    assert {"base", "arm::upper", "arm::hand::palm", "arm::hand::grasp"} <= links
    assert joint_el(robot, "arm::wrist").find("child").get("link") == "arm::hand::palm"


@pytest.mark.parametrize("separator", ["__", "/", "."])
def test_separator_option_only_changes_names(separator, tmp_path):
    default = convert(FIXTURES / "nested_models.sdf").xml.decode()
    other = convert(FIXTURES / "nested_models.sdf", separator=separator)
    assert other.ok
    assert other.xml.decode() == default.replace("::", separator)
    out = tmp_path / "nested.urdf"
    out.write_bytes(other.xml)
    assert_check_urdf_accepts(out)
    names = {l.get("name") for l in urdf_root(other.xml).findall("link")}
    assert f"arm{separator}hand{separator}palm" in names


def test_nested_model_poses_compose():
    """hand is posed relative_to upper, inside arm posed in the robot: palm's inertial (at
    palm's origin) ends up pitched by 0.3 in the wrist joint frame."""
    robot = urdf_root(convert(FIXTURES / "nested_models.sdf").xml)
    palm = next(l for l in robot.findall("link") if l.get("name") == "arm::hand::palm")
    assert gap(origin_matrix(palm.find("inertial")), matrix((0, 0, 0), (0, 0.3, 0))) < TOL


# ---- frames --------------------------------------------------------------------------------

def test_frames_become_a_fixed_joint_and_a_massless_link():
    """Each frame hangs from the frame it is attached to when that one becomes a link too
    (camera_optical from camera: a chain of dummy links stays a chain), else from its
    attached link (at_pan is attached to a joint, whose child link is head)."""
    robot = urdf_root(convert(FIXTURES / "frames_become_fixed_joints.sdf").xml)
    links = {l.get("name"): l for l in robot.findall("link")}
    expected_parent = {"camera": "head", "camera_optical": "camera", "at_pan": "head",
                       "on_base": "base"}
    for frame, parent in expected_parent.items():
        assert frame in links
        assert len(links[frame]) == 0, f"frame-made link [{frame}] must be empty (massless)"
        joint = joint_el(robot, f"{frame}_joint")
        assert joint.get("type") == "fixed"
        assert joint.find("child").get("link") == frame
        assert joint.find("parent").get("link") == parent


def test_frame_copies_its_text_when_attached_link_is_its_urdf_frame():
    """on_base is posed in base, which is also base's URDF frame: text copied."""
    robot = urdf_root(convert(FIXTURES / "frames_become_fixed_joints.sdf").xml)
    origin = joint_el(robot, "on_base_joint").find("origin")
    assert (origin.get("xyz"), origin.get("rpy")) == ("0 0.1 0", "0 0 0.3")


def test_drop_frames_leaves_frames_out_with_a_warning_each(tmp_path):
    source = FIXTURES / "frames_become_fixed_joints.sdf"
    conversion = convert(source, drop_frames=True)
    assert conversion.ok
    robot = urdf_root(conversion.xml)
    names = {l.get("name") for l in robot.findall("link")}
    assert names == {"base", "head"}
    assert [j.get("name") for j in robot.findall("joint")] == ["pan"]
    tree = etree.parse(str(source))
    for frame in tree.iter("frame"):
        name = frame.get("name")
        hits = [w for w in warnings(conversion) if f"frame [{name}]" in w.message]
        assert len(hits) == 1, name
        assert "--drop-frames" in hits[0].message
        assert hits[0].file == str(source) and hits[0].line == frame.sourceline
    out = tmp_path / "dropped.urdf"
    out.write_bytes(conversion.xml)
    assert_check_urdf_accepts(out)


# ---- worlds --------------------------------------------------------------------------------

def test_world_with_one_model_converts_that_model():
    conversion = convert(FIXTURES / "world_one_model.sdf")
    assert conversion.ok, [d.format() for d in errors(conversion)]
    robot = urdf_root(conversion.xml)
    assert robot.get("name") == "pendulum"
    assert {l.get("name") for l in robot.findall("link")} == {"base", "bob"}
    origin = joint_el(robot, "hinge").find("origin")
    assert (origin.get("xyz"), origin.get("rpy")) == ("0 0 1", "0 0 0")  # parity: copied


def test_world_with_two_models_needs_model():
    source = FIXTURES / "world_two_models.sdf"
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    (error,) = errors(conversion)
    assert "box" in error.message and "pendulum" in error.message
    assert "--model" in error.message
    assert error.file == str(source)


@pytest.mark.parametrize("model, links", [("box", {"body"}), ("pendulum", {"base", "bob"})])
def test_world_model_option_picks_one(model, links, tmp_path):
    source = FIXTURES / "world_two_models.sdf"
    out = convert_ok(source, tmp_path, model=model)
    robot = urdf_root(out)
    assert robot.get("name") == model
    assert {l.get("name") for l in robot.findall("link")} == links
    assert_check_urdf_accepts(out)


def test_world_model_option_unknown_model_is_an_error():
    conversion = convert(FIXTURES / "world_two_models.sdf", model="nope")
    assert not conversion.ok
    assert any("nope" in e.message and "box" in e.message for e in errors(conversion))


# ---- static models, joints to world --------------------------------------------------------

def test_static_model_is_welded_to_world():
    source = FIXTURES / "static_model.sdf"
    conversion = convert(source)
    assert conversion.ok
    robot = urdf_root(conversion.xml)
    assert robot.find("link").get("name") == "world"
    weld = [j for j in robot.findall("joint") if j.find("parent").get("link") == "world"]
    assert len(weld) == 1 and weld[0].get("type") == "fixed"
    assert weld[0].find("child").get("link") == "top"
    assert gap(origin_matrix(weld[0]), matrix((0, 0, 0.7), (0, 0, 0))) < TOL
    assert any("static" in w.message for w in warnings(conversion))


def test_joint_to_world_makes_a_world_root_link():
    robot = urdf_root(convert(FIXTURES / "joint_to_world.sdf").xml)
    assert [l.get("name") for l in robot.findall("link")].count("world") == 1
    joint = joint_el(robot, "rail_joint")
    assert joint.find("parent").get("link") == "world"
    assert joint.get("type") == "prismatic"


# ---- mimic, meshes, custom elements --------------------------------------------------------

def test_axis_mimic_becomes_urdf_mimic():
    robot = urdf_root(convert(FIXTURES / "mimic_axis.sdf").xml)
    mimic = joint_el(robot, "right").findall("mimic")
    assert len(mimic) == 1
    assert dict(mimic[0].attrib) == {"joint": "left", "multiplier": "-1", "offset": "0.001"}
    assert joint_el(robot, "left").find("mimic") is None


@pytest.mark.parametrize("sdf_version", [None, "1.10", "1.6"])
def test_urdf_mimic_is_restored_exactly(sdf_version, tmp_path):
    """urdf2sdf writes a URDF <mimic> as //axis/mimic (1.11) or, below 1.11, as a custom
    urdf:mimic element; either way sdf2urdf gives back the very same <mimic>."""
    from urdf_sdf.urdf2sdf.convert import ToSdf as UrdfOptions
    from urdf_sdf.urdf2sdf.convert import convert_urdf
    source = HERE / "fixtures" / "urdf2sdf" / "features" / "mimic_joint.urdf"
    to_sdf = convert_urdf(load(str(source), Context()), UrdfOptions(sdf_version=sdf_version))
    assert to_sdf.ok
    sdf = tmp_path / "mimic.sdf"
    sdf.write_bytes(to_sdf.xml)
    out = convert_ok(sdf, tmp_path)
    expected = etree.parse(str(source)).getroot().findall("joint/mimic")
    back = urdf_root(out).findall("joint/mimic")
    assert len(expected) == len(back) == 1
    assert dict(back[0].attrib) == dict(expected[0].attrib)
    assert back[0].getparent().get("name") == expected[0].getparent().get("name")
    assert_check_urdf_accepts(out)
    assert_no_difference(source, out)


@pytest.mark.parametrize("scheme, expected", [
    (None, ["model://meshy/meshes/body.dae", "model://meshy/meshes/body.stl"]),
    ("package", ["package://meshy/meshes/body.dae", "package://meshy/meshes/body.stl"]),
])
def test_mesh_uri_scheme(scheme, expected):
    robot = urdf_root(convert(FIXTURES / "mesh_model_uri.sdf", uri_scheme=scheme).xml)
    assert [m.get("filename") for m in robot.iter("mesh")] == expected
    assert robot.find("link/visual/geometry/mesh").get("scale") == "0.001 0.001 0.001"


def test_mesh_uri_scheme_package_has_no_difference(tmp_path):
    """model://NAME/... and package://NAME/... name the same resource: diff must not see
    the scheme rewrite it was asked for as a geometry difference."""
    source = FIXTURES / "mesh_model_uri.sdf"
    out = convert_ok(source, tmp_path, uri_scheme="package")
    assert_check_urdf_accepts(out)
    assert_no_difference(source, out)


def test_limits_and_dynamics_keep_their_text():
    robot = urdf_root(convert(FIXTURES / "sdf_1_4_model_frame_poses.sdf").xml)
    shoulder = joint_el(robot, "shoulder")
    assert dict(shoulder.find("limit").attrib) == {"lower": "-1.2", "upper": "1.4",
                                                   "effort": "30", "velocity": "2"}
    assert dict(shoulder.find("dynamics").attrib) == {"damping": "0.5", "friction": "0.1"}
    assert shoulder.get("type") == "revolute"
    assert joint_el(robot, "slide").get("type") == "prismatic"


@pytest.mark.parametrize("version", ["1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10",
                                     "1.11", "1.12"])
def test_every_sdformat_version_converts(version, tmp_path):
    """1.4-1.6 files use model-frame poses and //pose/@frame-free legacy semantics;
    1.7+ files use relative_to. The version attribute alone is changed."""
    stem = "sdf_1_4_model_frame_poses" if version in ("1.4", "1.5", "1.6") else \
        "link_pose_relative_to_other_link"
    text = (FIXTURES / f"{stem}.sdf").read_text()
    text = re.sub(r'<sdf version="[0-9.]+">', f'<sdf version="{version}">', text, count=1)
    source = tmp_path / f"v{version}.sdf"
    source.write_text(text)
    out = convert_ok(source, tmp_path)
    assert_check_urdf_accepts(out)
    assert_no_difference(source, out)


def test_material_diffuse_becomes_urdf_colour(tmp_path):
    source = case_path("material_blinn_phong")
    robot = urdf_root(convert(source).xml)
    material = robot.find("link/visual/material")
    assert material is not None and material.get("name")
    assert material.find("color").get("rgba") == "0 0.3 0 1"  # <diffuse>, as sdformat_urdf does


# ---- golden outputs ------------------------------------------------------------------------

GOLDEN = ["sdf_1_4_model_frame_poses", "frames_become_fixed_joints", "nested_models",
          "joint_to_world", "mimic_axis", "axis_expressed_in_other_frames"]


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_output(name):
    conversion = convert(FIXTURES / f"{name}.sdf")
    assert conversion.ok
    assert_xml_equivalent(conversion.xml, FIXTURES / f"{name}.urdf")


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_output_passes_check_urdf(name):
    assert_check_urdf_accepts(FIXTURES / f"{name}.urdf")


# ---- the sdformat_urdf conformance cases ---------------------------------------------------

def sdformat_urdf_cases() -> list[str]:
    if not SDFORMAT_URDF.is_dir():
        return []
    return sorted(p.name for p in SDFORMAT_URDF.iterdir() if (p / f"{p.name}.sdf").is_file())


CANNOT_BE_URDF = {
    # case -> (code, what the message must name)
    "graph_four_bar": ("URDF_KINEMATIC_LOOP", None),
    "graph_loop": ("URDF_KINEMATIC_LOOP", None),
    "joint_revolute_two_joints_two_links": ("URDF_KINEMATIC_LOOP", "joint_revolute_2"),
    "model_two_models": (None, "<model>"),
    "model_zero_models": (None, "no model"),
}
UNSUPPORTED_JOINTS = {"joint_ball": ("joint_ball", "ball"),
                      "joint_universal": ("joint_universal", "universal"),
                      "joint_revolute2": ("joint_revolute2", "revolute2"),
                      "joint_screw": ("joint_screw", "screw"),
                      "joint_gearbox": ("joint_gearbox", "gearbox")}
CASES = sdformat_urdf_cases()
CONVERTIBLE = [c for c in CASES if c not in CANNOT_BE_URDF and c not in UNSUPPORTED_JOINTS]
CONVERTIBLE_CASES = shared_cases(CONVERTIBLE, *SDFORMAT_URDF_PARTS)


def case_path(case: str) -> Path:
    """The case's SDF file, required: without ../shared the test skips (fails under CI)."""
    return shared_dir(*SDFORMAT_URDF_PARTS, case, f"{case}.sdf")


def test_sdformat_urdf_case_list_is_complete():
    shared_dir(*SDFORMAT_URDF_PARTS)
    assert len(CASES) >= 50
    assert set(CANNOT_BE_URDF) | set(UNSUPPORTED_JOINTS) <= set(CASES)
    assert {"graph_chain_non_canonical_root", "graph_tree_non_canonical_root"} <= set(CONVERTIBLE)


@pytest.mark.parametrize("case", CONVERTIBLE_CASES)
def test_sdformat_urdf_case_converts_and_has_no_difference(case, tmp_path):
    source = case_path(case)
    out = convert_ok(source, tmp_path)
    assert_check_urdf_accepts(out)
    assert_no_difference(source, out)


@pytest.mark.parametrize("case", CONVERTIBLE_CASES)
def test_sdformat_urdf_case_agrees_with_reference_poses(case, tmp_path, sdf_reference):
    source = case_path(case)
    out = convert_ok(source, tmp_path)
    assert independent_pose_problems(source, out, sdf_reference(source)) == []


@pytest.mark.parametrize("case", sorted(CANNOT_BE_URDF))
def test_sdformat_urdf_case_that_cannot_be_urdf_names_the_cause(case):
    source = case_path(case)
    code, named = CANNOT_BE_URDF[case]
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    found = errors(conversion)
    assert found
    if code is not None:
        loops = [e for e in found if e.code.value == code]
        assert loops, [e.format() for e in found]
        joint = re.search(r"joint \[(\w+)\]", loops[0].message).group(1)
        if named is not None:
            assert joint == named
        # the named joint is a joint of the file, at the diagnostic's line
        element = next(j for j in etree.parse(str(source)).iter("joint")
                       if j.get("name") == joint)
        assert loops[0].file == str(source) and loops[0].line == element.sourceline
    else:
        hits = [e for e in found if named in e.message]
        assert hits, [e.format() for e in found]
        assert hits[0].file == str(source)
        models = list(etree.parse(str(source)).getroot().iter("model"))
        if len(models) > 1:  # points at the model that cannot be converted with the first
            assert hits[0].line == models[1].sourceline


@pytest.mark.parametrize("case", sorted(UNSUPPORTED_JOINTS))
def test_sdformat_urdf_unsupported_joint_is_an_error_naming_it(case):
    source = case_path(case)
    joint, kind = UNSUPPORTED_JOINTS[case]
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    (error,) = errors(conversion)
    assert error.code is Code.URDF_PARITY_JOINT_TYPE
    assert f"[{joint}]" in error.message and f"[{kind}]" in error.message
    element = next(j for j in etree.parse(str(source)).iter("joint") if j.get("name") == joint)
    assert error.file == str(source) and error.line == element.sourceline


@pytest.mark.parametrize("case", sorted(UNSUPPORTED_JOINTS))
def test_sdformat_urdf_unsupported_joint_approximated(case, tmp_path):
    source = case_path(case)
    joint, kind = UNSUPPORTED_JOINTS[case]
    conversion = convert(source, approximate=True)
    assert conversion.ok, [e.format() for e in errors(conversion)]
    hits = [w for w in warnings(conversion) if f"[{joint}]" in w.message and kind in w.message
            and w.code in (Code.JOINT_APPROXIMATED, Code.JOINT_DROPPED)]
    assert len(hits) == 1, [w.format() for w in warnings(conversion)]
    out = tmp_path / f"{case}.urdf"
    out.write_bytes(conversion.xml)
    assert_check_urdf_accepts(out)
    types = {j.get("type") for j in urdf_root(out).findall("joint")}
    assert types <= {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}


# ---- errors are values ---------------------------------------------------------------------

@pytest.mark.parametrize("version", ["1.6", "1.9"])
def test_no_links_is_an_error_naming_the_model(version, tmp_path):
    """A static model may have no link in SDF; a URDF cannot."""
    source = tmp_path / "empty.sdf"
    source.write_text(f'<?xml version="1.0"?>\n<sdf version="{version}">\n  <model name="m">\n'
                      '    <static>true</static>\n  </model>\n</sdf>\n')
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    (error,) = errors(conversion)
    assert error.code is Code.MODEL_WITHOUT_LINK
    assert "[m]" in error.message
    assert error.file == str(source) and error.line == 3


def test_several_root_links_are_refused_naming_them_or_welded_under_approximate():
    """A URDF has one root, and no URDF form places free trees in every consumer
    (libsdformat refuses floating joints from world, Drake leaves their links at the
    origin): refused with URDF_SEVERAL_TREES naming the roots; --approximate welds each."""
    source = PARITY / "parity_not_a_tree_two_roots.sdf"
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    [error] = errors(conversion)
    assert error.code is Code.URDF_SEVERAL_TREES
    assert "left" in error.message and "right" in error.message
    assert error.file == str(source) and error.line is not None
    robot = urdf_root(convert(source, approximate=True).xml)
    welds = {j.find("child").get("link"): (j.get("type"), j.find("parent").get("link"))
             for j in robot.findall("joint") if j.find("parent").get("link") == "world"}
    assert set(welds.values()) == {("fixed", "world")} and len(welds) == 2


def test_invalid_sdf_is_refused_with_its_diagnostics(tmp_path):
    source = tmp_path / "bad.sdf"
    source.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n'
                      '    <link name="a"/>\n    <link name="a"/>\n  </model>\n</sdf>\n')
    conversion = convert(source)
    assert not conversion.ok and conversion.xml is None
    assert any(e.code is Code.DUPLICATE_NAME and e.line == 5 for e in errors(conversion))


# ---- what URDF does not define in a visual or collision ---------------------------------

DRAKE = "{http://drake.mit.edu}"


def test_a_collisions_custom_element_is_carried_into_the_urdf_collision():
    """Drake's <drake:proximity_properties> in an SDF <collision> (the manipulation
    course's book.sdf) goes into the URDF <collision> as written, as a link's custom
    elements do; before, it was dropped without a word."""
    conversion = convert_sdf(load(FIXTURES / "shape_custom_element_carried_book.sdf",
                                  Context()), ToUrdf())
    collision = etree.fromstring(conversion.xml).find("link/collision")
    properties = collision.find(f"{DRAKE}proximity_properties")
    assert [child.tag for child in properties] == [f"{DRAKE}compliant_hydroelastic",
                                                   f"{DRAKE}mu_dynamic"]
    assert properties.find(f"{DRAKE}mu_dynamic").text == "2.0"


@pytest.mark.parametrize("relative", [False, True])
def test_a_shapes_unknown_urdf_element_survives_the_round_trip(tmp_path, relative):
    """Drake's contact properties in a URDF <collision> (the peg of the manipulation
    course): named by URDF_ELEMENT_UNKNOWN, carried through the SDF collision, given back
    in the URDF collision with every attribute."""
    source = HERE / "fixtures" / "urdf" / "shape_unknown_element_carried_peg.urdf"
    to_sdf = convert_urdf(load(source, Context()), ToSdf(relative=relative))
    [unknown] = [d for d in to_sdf.diagnostics if d.code is Code.URDF_ELEMENT_UNKNOWN]
    assert "<drake:proximity_properties> is not a URDF element of <collision> " \
        "(in a collision of link [peg])" in unknown.message
    sdf = tmp_path / "peg.sdf"
    sdf.write_bytes(to_sdf.xml)
    back = convert_sdf(load(sdf, Context()), ToUrdf())
    properties = etree.fromstring(back.xml).find(f"link/collision/{DRAKE}proximity_properties")
    assert [(etree.QName(c).localname, c.get("value")) for c in properties] == [
        ("mu_dynamic", "0.5"), ("compliant_hydroelastic", None),
        ("hydroelastic_modulus", "90000000")]


def test_a_robot_level_elements_prefixed_attributes_keep_their_prefix(tmp_path):
    """A robot-level <material>'s and <transmission>'s drake: attributes travel as
    urdf: content and come back written drake:, never under an invented ns0: prefix."""
    source = tmp_path / "r.urdf"
    source.write_text(
        '<robot name="r" xmlns:drake="http://drake.mit.edu">'
        '<material name="red" drake:foo="1"><color rgba="1 0 0 1"/></material>'
        '<link name="a"/><link name="b"/>'
        '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>'
        '<transmission name="t" drake:bar="2"><type>x</type>'
        '<joint name="j"><hardwareInterface>h</hardwareInterface></joint></transmission>'
        '</robot>')
    to_sdf = convert_urdf(load(source, Context()), ToSdf())
    assert b"ns0" not in to_sdf.xml
    assert b'drake:foo="1"' in to_sdf.xml and b'drake:bar="2"' in to_sdf.xml
    sdf = tmp_path / "r.sdf"
    sdf.write_bytes(to_sdf.xml)
    back = convert_sdf(load(sdf, Context()), ToUrdf())
    assert b"ns0" not in back.xml
    robot = etree.fromstring(back.xml)
    assert robot.find("material").get(f"{DRAKE}foo") == "1"
    assert robot.find("transmission").get(f"{DRAKE}bar") == "2"


def test_a_drake_joint_is_dropped_with_a_warning_not_copied_in_a_form_drake_refuses():
    """Drake refuses a URDF holding <drake:joint> in its SDFormat form ("joint doesn't
    have a parent node"); under --approximate the two trees libsdformat reads are welded to
    world, and the <drake:joint> is named by JOINT_DROPPED. Other Drake elements of the
    model are still copied."""
    source = HERE / "fixtures" / "sdf2urdf" / "drake_joint_dropped_planar_joint.sdf"
    refused = convert_sdf(load(source, Context()), ToUrdf())
    assert Code.URDF_SEVERAL_TREES in {d.code for d in refused.diagnostics if d.is_error}
    conversion = convert_sdf(load(source, Context()), ToUrdf(approximate=True))
    assert conversion.ok
    [dropped] = [d for d in conversion.diagnostics if d.code is Code.JOINT_DROPPED]
    assert (dropped.line, dropped.severity) == (12, Severity.WARNING)
    assert "<drake:joint> [planar_joint] dropped" in dropped.message
    robot = etree.fromstring(conversion.xml)
    assert robot.find(f"{DRAKE}joint") is None
    assert robot.find(f"{DRAKE}collision_filter_group") is not None
