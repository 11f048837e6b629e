"""``urdf2sdf --lump-fixed``: fixed-joint children merged into their parent (urdf2sdf/lump.py).

Fixtures live in ``tests/fixtures/urdf2sdf/lump/``, one tiny URDF per rule, with goldens
beside them: ``NAME.sdf`` (absolute poses) and ``NAME.relative.sdf`` (``--relative``).
Regenerate them after an intended change of output with::

    UPDATE_GOLDENS=1 .venv/bin/python -m pytest -q tests/urdf2sdf/test_lump.py -k golden

and read every changed golden before keeping it. libsdformat's own lumping tests
(``../shared/conformance/cases/libsdformat/integration/fixed_joint_*.urdf``) are converted
too and compared with what the reference makes of them.

Poses: each URDF link and joint, now a link, joint or frame, resolves (core) to the pose
it has in the URDF within 1e-12, and (reference) within 1e-9. Inertia: hand computations,
a whole-robot invariant (mass, centre of mass, inertia tensor of the robot at rest are
the same before and after lumping) computed here with numpy, and libsdformat's numbers.
"""
from __future__ import annotations

import os
import subprocess
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from tests.reference import pose_gap as list_pose_gap
from tests.support import SHARED, assert_xml_equivalent, shared_cases, shared_dir, xml_equivalent
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf
from urdf_sdf.urdf2sdf.lump import ElementAliases, lump_fixed_joints

HERE = Path(__file__).resolve().parents[1]
LUMP = HERE / "fixtures" / "urdf2sdf" / "lump"
INTEGRATION_PARTS = ("conformance", "cases", "libsdformat", "integration")
INTEGRATION = SHARED.joinpath(*INTEGRATION_PARTS)
UPDATE = os.environ.get("UPDATE_GOLDENS", "").lower() not in ("", "0", "false", "no")

POSE_TOL = 1e-12
REFERENCE_TOL = 1e-9
STYLES = {"": {}, "relative": {"relative": True}}
LUMP_FILES = sorted(LUMP.glob("*.urdf"))
GAZEBO_FILES = sorted(INTEGRATION.glob("fixed_joint*.urdf"))
MIN_GAZEBO_FILES = 8
FREE_TYPES = ("floating", "planar")


def pose_gap(a, b) -> float:
    """Position distance or rotation angle between two poses (Pose or conformance lists)."""
    return list_pose_gap(*(p.as_list() if isinstance(p, Pose) else p for p in (a, b)))


def cases(files):
    return [pytest.param(urdf, style, id=f"{urdf.stem}[{style or 'absolute'}]")
            for urdf in files for style in STYLES]


# The fixtures and libsdformat's lumping cases, in both styles; the latter need ../shared.
ALL_CASES = shared_cases(cases(LUMP_FILES + GAZEBO_FILES), *INTEGRATION_PARTS, arity=2)
ALL_FILES = shared_cases(GAZEBO_FILES + LUMP_FILES, *INTEGRATION_PARTS)


def golden_path(urdf: Path, style: str) -> Path:
    return urdf.with_name(f"{urdf.stem}.{style}.sdf" if style else f"{urdf.stem}.sdf")


def urdf_result(urdf: Path):
    result = load(urdf, Context())
    if not result.ok:
        pytest.fail(f"our reader rejects {urdf.name}: fixtures must be valid URDF")
    return result


def lumped(urdf: Path, style: str = "", **options):
    conversion = convert_urdf(urdf_result(urdf), ToSdf(lump_fixed=True, **STYLES[style],
                                                         **options))
    errors = [d.format() for d in conversion.diagnostics if d.is_error]
    assert conversion.ok, errors
    return conversion


def loaded(xml: bytes):
    result = load_string(xml, "lumped.sdf", Context())
    assert result.ok, [d.format() for d in result.diagnostics if d.is_error]
    return result


def model_el(xml: bytes):
    return etree.fromstring(xml).find("model")


def named(parent, tag: str, name: str):
    found = [el for el in parent.findall(tag) if el.get("name") == name]
    assert len(found) <= 1
    return found[0] if found else None


def urdf_names(result) -> list[str]:
    """Every URDF link and joint the SDF must resolve: free joints are custom elements."""
    model = result.document.model
    return [link.name for link in model.links] + \
        [joint.name for joint in model.joints if joint.type not in FREE_TYPES]


def parse_pose(text: str | None) -> Pose:
    values = [float(t) for t in (text or "0 0 0 0 0 0").split()]
    return Pose.from_rpy(values[:3], values[3:])


def rotation(pose: Pose) -> np.ndarray:
    """Rotation matrix of ``pose``, written out independently of urdf2sdf.lump."""
    w, x, y, z = pose.rotation
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def inertials(model) -> dict[str, tuple[float, Pose, np.ndarray]]:
    """``link -> (mass, inertial pose in the link, tensor in the inertial frame)`` read
    from an SDF ``<model>`` element (ours or the reference's ``--print``)."""
    out = {}
    for link in model.findall("link"):
        inertial = link.find("inertial")
        if inertial is None:
            continue
        value = {key: float(inertial.findtext(f"inertia/{key}", "0"))
                 for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")}
        tensor = np.array([[value["ixx"], value["ixy"], value["ixz"]],
                           [value["ixy"], value["iyy"], value["iyz"]],
                           [value["ixz"], value["iyz"], value["izz"]]])
        out[link.get("name")] = (float(inertial.findtext("mass", "1")),
                                 parse_pose(inertial.findtext("pose")), tensor)
    return out


def in_link_frame(pose: Pose, tensor: np.ndarray) -> np.ndarray:
    r = rotation(pose)
    return r @ tensor @ r.T


def shapes(model) -> dict[tuple[str, str], list[tuple[str, Pose]]]:
    """``(link, visual|collision) -> [(name, pose in the link)]`` in document order."""
    out = {}
    for link in model.findall("link"):
        for kind in ("collision", "visual"):
            out[(link.get("name"), kind)] = [(el.get("name"), parse_pose(el.findtext("pose")))
                                             for el in link.findall(kind)]
    return out


def robot_mass_properties(bodies) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia about it, all in the model frame, of ``bodies``:
    ``(mass, X_M_inertial, tensor in the inertial frame)``."""
    total = sum(mass for mass, _, _ in bodies)
    com = sum(mass * np.array(pose.position) for mass, pose, _ in bodies) / total
    tensor = np.zeros((3, 3))
    for mass, pose, inertia in bodies:
        d = np.array(pose.position) - com
        tensor += in_link_frame(pose, inertia) + mass * (d @ d * np.eye(3) - np.outer(d, d))
    return total, com, tensor


def reference_print(binary, path: Path):
    """The SDF the reference builds from ``path`` (``--print``), as its ``<model>``."""
    proc = subprocess.run([str(binary), "--print", str(path)], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    start = proc.stdout.find("<sdf")
    assert start >= 0, proc.stderr[-2000:]
    # recover: libsdformat prints plugin content such as <ignition::corrected_offsets>.
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True)
    return etree.fromstring(proc.stdout[start:].encode(), parser).find("model")


def reference_pose(report: dict, name: str):
    for kind in ("links", "joints", "frames"):
        pose = (report.get(kind) or {}).get(name)
        if pose is not None:
            return pose
    return None


# ---- goldens ---------------------------------------------------------------------------

def test_every_rule_has_a_fixture():
    expected = {"lump_single_fixed_child", "lump_chain_of_fixed_joints",
                "lump_preserve_fixed_joint", "lump_reparents_moving_joint",
                "lump_inertia_parallel_axis", "lump_inertia_keeps_parent_frame",
                "lump_world_fixed_joint", "lump_shape_names", "lump_drops_joint_extras",
                "lump_gazebo_reference_to_lumped_link"}
    assert expected <= {p.stem for p in LUMP_FILES}
    shared_dir(*INTEGRATION_PARTS)
    assert len(GAZEBO_FILES) >= MIN_GAZEBO_FILES, \
        "libsdformat's fixed_joint_*.urdf cases went missing"


@pytest.mark.parametrize("urdf, style", cases(LUMP_FILES))
def test_golden(urdf, style):
    """The output is the golden beside the fixture (numbers within 1e-12 relative)."""
    xml = lumped(urdf, style).xml
    golden = golden_path(urdf, style)
    if UPDATE:
        loaded(xml)  # never write an output the core rejects
        if not golden.exists() or not xml_equivalent(xml, golden):
            golden.write_bytes(xml)
        return
    assert golden.exists(), f"no golden {golden.name}; run with UPDATE_GOLDENS=1 and read it"
    assert_xml_equivalent(xml, golden)


def test_no_stray_goldens():
    known = {golden_path(urdf, style).name for urdf in LUMP_FILES for style in STYLES}
    assert sorted(p.name for p in LUMP.glob("*.sdf") if p.name not in known) == []


# ---- poses --------------------------------------------------------------------------------

@pytest.mark.parametrize("urdf, style", ALL_CASES)
def test_every_urdf_name_keeps_its_pose(urdf, style):
    """Surviving links and joints, and the frames of lumped ones, resolve (core) to the
    URDF's forward kinematics within 1e-12."""
    source = urdf_result(urdf)
    out = loaded(lumped(urdf, style).xml)
    for name in urdf_names(source):
        ours, expected = out.pose(name), source.pose(name)
        assert ours is not None, f"{name} is missing from the output"
        assert pose_gap(ours, expected) <= POSE_TOL, (name, ours, expected)


@pytest.mark.parametrize("urdf, style", ALL_CASES)
def test_lumped_names_are_frames_on_their_survivor(urdf, style):
    """No fixed joint is left that lumping should have taken (only world anchors and kept
    ones), and every lumped link and joint is a frame attached to its surviving link, its
    pose relative to that link, marked ``urdf:lumped``."""
    source = urdf_result(urdf)
    model = model_el(lumped(urdf, style).xml)
    kept = {block.get("reference") for block in source.document.model.gazebo
            if any(child.tag in ("preserveFixedJoint", "disableFixedJointLumping")
                   and (child.get("value") or child.text or "").strip().lower()
                   in ("true", "yes", "1") for child in block)}
    links = {el.get("name") for el in model.findall("link")}
    for joint in model.findall("joint"):
        if joint.get("type") == "fixed":
            assert joint.findtext("parent") == "world" or joint.get("name") in kept
    for frame in model.findall("frame"):
        if frame.get(f"{{{URDF_NS}}}lumped") is None:
            continue
        assert frame.get("attached_to") in links
        assert frame.find("pose").get("relative_to") == frame.get("attached_to")
    lumped_names = {f.get("name") for f in model.findall("frame")
                    if f.get(f"{{{URDF_NS}}}lumped")}
    for joint in source.document.model.joints:
        if joint.type == "fixed" and joint.parent != "world" and joint.name not in kept:
            assert {joint.name, joint.child} <= lumped_names, joint.name


def test_chain_collapses_into_its_first_surviving_ancestor():
    model = model_el(lumped(LUMP / "lump_chain_of_fixed_joints.urdf").xml)
    assert [el.get("name") for el in model.findall("link")] == ["base"]
    assert model.findall("joint") == []
    frames = {el.get("name"): el.get("attached_to") for el in model.findall("frame")}
    assert frames == dict.fromkeys(["z_side", "side", "j1", "a", "j2", "b", "j3", "c"], "base")


def test_preserved_fixed_joints_keep_their_child_link():
    """preserveFixedJoint / disableFixedJointLumping true keep the joint; false does not;
    a link below a kept one lumps into it."""
    model = model_el(lumped(LUMP / "lump_preserve_fixed_joint.urdf").xml)
    assert [el.get("name") for el in model.findall("link")] == ["base", "kept", "legacy"]
    joints = {el.get("name"): (el.get("type"), el.findtext("parent"), el.findtext("child"))
              for el in model.findall("joint")}
    assert joints == {"keep_joint": ("fixed", "base", "kept"),
                      "legacy_joint": ("fixed", "base", "legacy")}
    frames = {el.get("name"): el.get("attached_to") for el in model.findall("frame")}
    assert frames == {"sub_joint": "kept", "sub": "kept", "gone_joint": "base",
                      "gone": "base"}


def test_world_anchor_is_never_lumped():
    model = model_el(lumped(LUMP / "lump_world_fixed_joint.urdf").xml)
    anchor = named(model, "joint", "anchor")
    assert anchor is not None and anchor.findtext("parent") == "world"
    assert [el.get("name") for el in model.findall("link")] == ["base"]
    assert len(named(model, "link", "base").findall("collision")) == 2


@pytest.mark.parametrize("style", STYLES)
def test_moving_joint_moves_to_the_surviving_link(style):
    """elbow's parent mount_link is lumped into base: elbow hangs on base with its origin
    composed with mount's; the floating joint's <urdf:joint> follows too."""
    urdf = LUMP / "lump_reparents_moving_joint.urdf"
    source = urdf_result(urdf)
    model = model_el(lumped(urdf, style).xml)
    elbow = named(model, "joint", "elbow")
    assert elbow.findtext("parent") == "base"
    if style == "relative":
        pose = elbow.find("pose")
        assert pose.get("relative_to") == "base"
        assert pose_gap(parse_pose(pose.text), source.pose("elbow", "base")) <= POSE_TOL
    free = [el for el in model.findall(f"{{{URDF_NS}}}joint") if el.get("name") == "drone_joint"]
    assert len(free) == 1
    assert free[0].find(f"{{{URDF_NS}}}parent").get("link") == "base"
    origin = free[0].find(f"{{{URDF_NS}}}origin")
    assert pose_gap(parse_pose(f"{origin.get('xyz', '0 0 0')} {origin.get('rpy', '0 0 0')}"),
                    source.pose("drone_joint", "base")) <= POSE_TOL
    frames = {el.get("name"): el.get("attached_to") for el in model.findall("frame")}
    assert frames == {"mount": "base", "mount_link": "base", "tool_joint": "forearm",
                      "tool": "forearm"}


# ---- inertia ----------------------------------------------------------------------------

def test_parallel_axis_hand_computation():
    """See the fixture: 4 kg at x = 0.5, diag(3, 4, 7), no rotation."""
    mass, pose, tensor = inertials(model_el(lumped(LUMP / "lump_inertia_parallel_axis.urdf")
                                            .xml))["base"]
    assert mass == 4
    assert pose_gap(pose, Pose((0.5, 0.0, 0.0))) <= POSE_TOL
    assert np.max(np.abs(tensor - np.diag([3.0, 4.0, 7.0]))) <= 1e-12


def test_merged_tensor_is_written_in_the_parents_inertial_frame():
    """See the fixture: 4 kg at z = 0.5; the inertial pose keeps base's rotation (its text
    copied) and the tensor in that frame is diag(7, 6, 6)."""
    model = model_el(lumped(LUMP / "lump_inertia_keeps_parent_frame.urdf").xml)
    assert named(model, "link", "base").findtext("inertial/pose") == \
        "0 0 0.5 0 0 1.5707963267948966"
    mass, _, tensor = inertials(model)["base"]
    assert mass == 4
    assert np.max(np.abs(tensor - np.diag([7.0, 6.0, 6.0]))) <= 1e-12


@pytest.mark.parametrize("urdf, style", ALL_CASES)
def test_robot_mass_properties_are_unchanged(urdf, style):
    """Mass, centre of mass and inertia tensor of the whole robot at rest, in the model
    frame, are the same before and after lumping (links without inertial left out)."""
    source = urdf_result(urdf)
    before = [(link.inertial.mass, source.pose(link.name) * link.inertial.pose.value,
               np.array([[link.inertial.ixx, link.inertial.ixy, link.inertial.ixz],
                         [link.inertial.ixy, link.inertial.iyy, link.inertial.iyz],
                         [link.inertial.ixz, link.inertial.iyz, link.inertial.izz]]))
              for link in source.document.model.links if link.inertial is not None]
    if not before or sum(m for m, _, _ in before) == 0:
        pytest.skip("no mass")
    xml = lumped(urdf, style).xml
    out = loaded(xml)
    after = [(mass, out.pose(name) * pose, tensor)
             for name, (mass, pose, tensor) in inertials(model_el(xml)).items()]
    m0, c0, i0 = robot_mass_properties(before)
    m1, c1, i1 = robot_mass_properties(after)
    scale = max(1.0, float(np.max(np.abs(i0))))
    assert abs(m1 - m0) <= 1e-12 * max(1.0, m0)
    assert np.max(np.abs(c1 - c0)) <= 1e-12 * max(1.0, float(np.max(np.abs(c0))))
    assert np.max(np.abs(i1 - i0)) <= 1e-12 * scale


@pytest.mark.parametrize("urdf", ALL_FILES, ids=lambda p: p.stem)
def test_merged_inertials_match_the_reference(urdf, sdf_reference):
    """Each link's mass, centre of mass and tensor (in the link frame) equal those of the
    SDF libsdformat builds from the URDF (``--print``), which lumps the same way."""
    urdf_result(urdf)
    ours = inertials(model_el(lumped(urdf).xml))
    theirs = inertials(reference_print(sdf_reference.binary, urdf))
    assert theirs, "the reference printed no inertial"
    for link, (mass, pose, tensor) in theirs.items():
        assert link in ours, link
        our_mass, our_pose, our_tensor = ours[link]
        assert abs(our_mass - mass) <= 1e-12 * max(1.0, mass), link
        assert np.max(np.abs(np.array(our_pose.position) - pose.position)) <= REFERENCE_TOL
        scale = max(1.0, float(np.max(np.abs(tensor))))
        gap = np.max(np.abs(in_link_frame(our_pose, our_tensor) - in_link_frame(pose, tensor)))
        assert gap <= REFERENCE_TOL * scale, (link, gap)


# ---- visuals and collisions -------------------------------------------------------------

@pytest.mark.parametrize("urdf", ALL_FILES, ids=lambda p: p.stem)
def test_lumped_shapes_match_the_reference(urdf, sdf_reference):
    """Names (Gazebo's ``LINK_fixed_joint_lump__...``) and poses of the shapes lumped into
    each link equal libsdformat's. Only lumped shapes are compared: libsdformat renames a
    link's own named shapes, the converter keeps URDF names."""
    source = urdf_result(urdf)
    model = model_el(lumped(urdf).xml)
    lumped_links = {f.get("name") for f in model.findall("frame")
                    if f.get(f"{{{URDF_NS}}}lumped") == "link"}
    if not lumped_links:
        pytest.skip("nothing is lumped")
    own = {(link.name, kind): len([s for s in getattr(link, kind + "s") if not s.from_gazebo])
           for link in source.document.model.links for kind in ("visual", "collision")}
    ours = shapes(model)
    theirs = shapes(reference_print(sdf_reference.binary, urdf))
    compared = 0
    for key, their_shapes in theirs.items():
        mine = ours.get(key, [])[own.get(key, 0):]
        expected = their_shapes[own.get(key, 0):]
        assert [name for name, _ in mine] == [name for name, _ in expected], key
        for (name, pose), (_, their_pose) in zip(mine, expected):
            assert pose_gap(pose, their_pose) <= REFERENCE_TOL, (key, name)
            compared += 1
    assert compared or not any(link.visuals or link.collisions
                               for link in source.document.model.links
                               if link.name in lumped_links)


def test_lumped_shape_pose_and_names():
    """camera's shapes in base: poses composed with camera_joint's origin; names Gazebo's
    (``lens`` kept inside the name, the unnamed collision named after camera)."""
    urdf = LUMP / "lump_single_fixed_child.urdf"
    source = urdf_result(urdf)
    camera = next(link for link in source.document.model.links if link.name == "camera")
    found = shapes(model_el(lumped(urdf).xml))
    x_base_camera = source.pose("camera", "base")
    assert [name for name, _ in found[("base", "visual")]] == \
        ["base_visual", "base_fixed_joint_lump__lens_visual_1"]
    assert [name for name, _ in found[("base", "collision")]] == \
        ["base_collision", "base_fixed_joint_lump__camera_collision_1"]
    for kind, shape in (("visual", camera.visuals[0]), ("collision", camera.collisions[0])):
        pose = found[("base", kind)][1][1]
        assert pose_gap(pose, x_base_camera * shape.pose.value) <= POSE_TOL


def test_lumped_shape_names_follow_gazebo():
    model = model_el(lumped(LUMP / "lump_shape_names.urdf").xml)
    base = named(model, "link", "base")
    assert [el.get("name") for el in base.findall("visual")] == [
        "base_visual", "base_visual_1", "base_fixed_joint_lump__lens_visual_2",
        "base_fixed_joint_lump__camera_visual_3", "base_plate_visual_4"]
    assert [el.get("name") for el in base.findall("collision")] == [
        "base_fixed_joint_lump__lens_collision", "base_plate_collision_1"]


# ---- the reference ------------------------------------------------------------------------

@pytest.mark.parametrize("urdf, style", ALL_CASES)
def test_reference_reads_the_lumped_sdf(urdf, style, sdf_reference, tmp_path):
    """The reference loads our output without errors; each URDF link and joint, looked up
    across its links, joints and frames, has the URDF's pose within 1e-9. And where the
    reference lumps the original URDF itself, every link and joint it keeps has the same
    pose in our output, and is a link in ours too."""
    source = urdf_result(urdf)
    conversion = lumped(urdf, style)
    major, minor = (int(part) for part in conversion.version.split("."))
    if (major, minor) > (1, 9):
        pytest.skip(f"SDFormat {conversion.version} is newer than the reference reads")
    path = tmp_path / f"{urdf.stem}.sdf"
    path.write_bytes(conversion.xml)
    report = sdf_reference(path)
    assert report["ok"], report["diagnostics"]
    for name in urdf_names(source):
        pose = reference_pose(report, name)
        assert pose is not None, f"{name} is missing in the reference's reading"
        assert pose_gap(pose, source.pose(name).as_list()) <= REFERENCE_TOL, name
    theirs = sdf_reference(urdf)
    if not theirs["ok"]:
        return
    for kind in ("links", "joints"):
        for name, pose in theirs[kind].items():
            assert name in report[kind], f"{kind[:-1]} {name} is not a {kind[:-1]} in ours"
            assert pose_gap(pose, report[kind][name]) <= REFERENCE_TOL, name


# ---- what lumping reports -----------------------------------------------------------------

def test_lumping_itself_is_silent():
    assert list(lumped(LUMP / "lump_single_fixed_child.urdf").diagnostics) == []


def test_what_a_lumped_joint_takes_with_it_is_reported():
    messages = [d.message for d in lumped(LUMP / "lump_drops_joint_extras.urdf").diagnostics]
    assert any("<calibration> of fixed joint [bolted] is dropped" in m for m in messages)
    assert any("<safety_controller> of fixed joint [bolted] is dropped" in m for m in messages)
    assert any("transmission [bolted_trans] names fixed joint [bolted]" in m for m in messages)
    assert len(messages) == 3


def test_gazebo_block_of_a_lumped_link_goes_to_its_survivor():
    """The sensor lands in base; placed, it must be placed in camera_link's frame."""
    model = model_el(lumped(LUMP / "lump_gazebo_reference_to_lumped_link.urdf").xml)
    sensor = named(named(model, "link", "base"), "sensor", "camera")
    assert sensor is not None
    pose = sensor.find("pose")
    assert pose is None or pose.get("relative_to") == "camera_link"


def test_frames_need_sdformat_1_7():
    conversion = convert_urdf(urdf_result(LUMP / "lump_single_fixed_child.urdf"),
                              ToSdf(lump_fixed=True, sdf_version="1.6"))
    assert not conversion.ok
    assert conversion.version is None


# ---- the function itself --------------------------------------------------------------------

def snapshot(value, depth=0):
    """A comparable picture of a model's dataclasses (lxml elements by identity)."""
    if depth > 8:
        return repr(value)
    if hasattr(value, "__dataclass_fields__"):
        return (type(value).__name__,
                tuple((f.name, snapshot(getattr(value, f.name), depth + 1))
                      for f in fields(value)))
    if isinstance(value, (list, tuple)):
        return tuple(snapshot(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, snapshot(v, depth + 1)) for k, v in value.items()))
    if isinstance(value, etree._Element):
        return ("xml", id(value), etree.tostring(value))
    return value


@pytest.mark.parametrize("urdf", LUMP_FILES, ids=lambda p: p.stem)
def test_the_urdf_model_is_not_changed(urdf):
    from urdf_sdf.core.base.diagnostics import Diagnostics
    model = urdf_result(urdf).document.model
    before = snapshot(model)
    lumped_model, frames, elements = lump_fixed_joints(model, Diagnostics())
    assert snapshot(model) == before
    assert lumped_model is not model and frames and elements is not None


def test_nothing_to_lump_changes_nothing(tmp_path):
    urdf = tmp_path / "arm.urdf"
    urdf.write_text("""<robot name="arm">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 0 1"/></joint>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>""")
    result = urdf_result(urdf)
    assert convert_urdf(result, ToSdf(lump_fixed=True)).xml == \
        convert_urdf(result, ToSdf()).xml


def test_long_chain_lumps_without_recursion(tmp_path):
    """A chain of 3000 fixed joints: one link, 6000 frames, the last at z = 3000 * 0.01."""
    n = 3000
    inertia = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" ' \
              'iyz="0" izz="1"/></inertial>'
    parts = [f'<robot name="chain"><link name="l0">{inertia}</link>']
    for i in range(1, n + 1):
        parts.append(f'<joint name="j{i}" type="fixed"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><origin xyz="0 0 0.01"/></joint>'
                     f'<link name="l{i}">{inertia}</link>')
    urdf = tmp_path / "chain.urdf"
    urdf.write_text("".join(parts) + "</robot>")
    xml = lumped(urdf).xml
    model = model_el(xml)
    assert len(model.findall("link")) == 1 and len(model.findall("frame")) == 2 * n
    assert pose_gap(loaded(xml).pose(f"l{n}"), Pose((0.0, 0.0, n * 0.01))) <= 1e-9
    mass, pose, _ = inertials(model)["l0"]
    assert mass == n + 1
    assert abs(pose.position[2] - n * 0.01 / 2) <= 1e-9


def test_element_aliases_resolve_lumped_links():
    aliases = ElementAliases({"camera": "base"}, {})
    aliases["base"] = "BASE"
    aliases["j"] = "J"
    assert aliases["camera"] == "BASE" and aliases.get("camera") == "BASE"
    assert "camera" in aliases and "nothing" not in aliases
    assert aliases.get("nothing") is None and aliases["j"] == "J"
