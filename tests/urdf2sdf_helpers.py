"""What the ``test_urdf2sdf_*`` modules share: the feature fixtures and their option
variants, the real-world URDFs of ``../shared``, an independent URDF reader with forward
kinematics, and checks of the converter's output (poses, axes, the reference).

The forward kinematics here is deliberately independent of the core: it reads the URDF
with lxml and multiplies 4x4 matrices built with numpy (``R = Rz(yaw) Ry(pitch) Rx(roll)``).
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

import urdf_sdf.cli.urdf2sdf as urdf2sdf_command
from tests.reference import pose_gap
from tests.support import SHARED, shared_cases
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

HERE = Path(__file__).resolve().parent
FEATURES = HERE / "fixtures" / "urdf2sdf" / "features"
OTHER_URDF_FIXTURES = HERE / "fixtures" / "urdf"
CONFORMANCE_PARTS = ("conformance", "cases", "libsdformat")
CONFORMANCE = SHARED.joinpath(*CONFORMANCE_PARTS)

FK_TOL = 1e-12
REFERENCE_TOL = 1e-9

# Option sets every feature fixture is converted with: golden suffix -> ToSdf fields.
VARIANTS = {"relative": {"relative": True}, "": {}}
# Further option sets for a few fixtures.
EXTRA_VARIANTS = {
    "mesh_package_uri_scale": {"model_uri": {"uri_scheme": "model"},
                               "relative.model_uri": {"relative": True,
                                                      "uri_scheme": "model"}},
    "mimic_joint": {"v1_10": {"sdf_version": "1.10"}, "v1_6": {"sdf_version": "1.6"},
                    "fortress": {"gazebo": "fortress"}},
    "inertia_triangle_inequality": {"keep_inertia": {"fix_inertia": False}},
}

FEATURE_FILES = sorted(FEATURES.glob("*.urdf"))
REAL_WORLD_FILES = sorted([*CONFORMANCE.glob("integration/**/*.urdf"),
                           *CONFORMANCE.glob("sdf/**/*.urdf")])


def variants_of(urdf: Path) -> dict[str, dict]:
    return {**VARIANTS, **EXTRA_VARIANTS.get(urdf.stem, {})}


def golden_path(urdf: Path, variant: str) -> Path:
    return urdf.with_name(f"{urdf.stem}.{variant}.sdf" if variant else f"{urdf.stem}.sdf")


def convert(urdf: Path, **options):
    return convert_urdf(load(urdf, Context()), ToSdf(**options))


def feature_cases():
    return [pytest.param(urdf, variant, options, id=f"{urdf.stem}[{variant or 'absolute'}]")
            for urdf in FEATURE_FILES for variant, options in variants_of(urdf).items()]


def real_world_cases():
    """The real-world URDFs with every variant (and, without ../shared, one case saying
    that they are missing)."""
    cases = [pytest.param(urdf, variant, options,
                          id=f"{urdf.relative_to(CONFORMANCE)}[{variant or 'absolute'}]")
             for urdf in REAL_WORLD_FILES for variant, options in VARIANTS.items()]
    return shared_cases(cases, *CONFORMANCE_PARTS, arity=3)


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
    """Our output (bytes) parsed strictly: it must be well-formed; an input fixture (a path)
    as leniently as the URDF reader reads it (an undeclared namespace prefix is kept, with a
    warning: ``urdf_namespace_undeclared_*``)."""
    if isinstance(path_or_bytes, bytes):
        parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
        return etree.fromstring(path_or_bytes, parser)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True,
                             recover=True)
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
    """4x4 matrix of a ``core.base.pose.Pose`` (quaternion w, x, y, z), formula written out."""
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


def feature_output(stem: str, **options):
    conversion = converted(FEATURES / f"{stem}.urdf", options)
    root, model = sdf_model(conversion.xml)
    return conversion, root, model


def warnings_of(conversion) -> list:
    return [d for d in conversion.diagnostics if not d.is_error]


# ---- checks of the output ----------------------------------------------------------------

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
    where our core does (REFERENCE_TOL); outputs above 1.9 are converted again at 1.9. An
    error libsdformat reports is allowed only when the conversion warned of it with the
    same code (an inertia URDF allows and libsdformat refuses: LINK_INERTIA_INVALID)."""
    conversion = converted(urdf, options)
    if version_key(conversion.version) > (1, 9):
        conversion = converted(urdf, {**options, "sdf_version": "1.9"})
    path = tmp_path / f"{urdf.stem}.sdf"
    path.write_bytes(conversion.xml)
    report = sdf_reference(path)
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    announced = {d.code.value for d in conversion.diagnostics if not d.is_error}
    unannounced = [d for d in errors if d.get("code") not in announced]
    assert not unannounced and (report.get("ok") or errors), \
        f"libsdformat rejects the output without a warning at conversion: {unannounced}"
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


def batch_with_a_crash(tree: Path, names: list[str], source: Path, crashing: str,
                       error: Exception, monkeypatch) -> None:
    """``tree`` holding a copy of ``source`` under each of ``names``, and the ``urdf2sdf``
    command's ``convert_urdf`` patched to raise ``error`` (a bug of ours) for the file
    ``crashing`` alone: in this process, so a batch to see it runs with ``-j 1``."""
    tree.mkdir()
    for name in names:
        (tree / name).write_bytes(source.read_bytes())
    real = urdf2sdf_command.convert_urdf

    def crash_on_one(result, options):
        if result.document.file.endswith(crashing):
            raise error
        return real(result, options)

    monkeypatch.setattr(urdf2sdf_command, "convert_urdf", crash_on_one)
