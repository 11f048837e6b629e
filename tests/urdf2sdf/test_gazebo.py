"""urdf2sdf: URDF ``<gazebo>`` extension blocks (``urdf2sdf/gazebo.py``).

Each fixture in ``fixtures/urdf2sdf/gazebo/`` is a tiny URDF named for the rule it
tests. Beside it, ``NAME.sdf`` is the golden SDF and ``NAME.warnings`` the golden
diagnostics (``LINE: severity[CODE]: message``; their file must be the fixture). A
name ending in ``_sdf_X_Y`` is converted with ``--sdf-version X.Y``.

libsdformat 12 (the reference) accepts elements that SDFormat does not define without
a word, so a golden is also checked against SDFormat's own element descriptions
(``/usr/share/sdformat12/VERSION/*.sdf``, installed with the reference). The
libsdformat integration URDFs that use ``<gazebo>`` are converted too: the result
must load in the reference. For them and for the fixtures, every mapped value must
equal what libsdformat's own URDF parser writes for the same link or joint, except
where ``KNOWN_DIFFERENCES`` says why not. ``fixtures/urdf2sdf/gazebo/lump/`` holds
the ``--lump-fixed`` case, checked by assertions rather than a golden (the lumping
output has its own tests).
"""
from __future__ import annotations

import math
import os
import re
import subprocess
from pathlib import Path

import pytest
from lxml import etree

from tests.support import SHARED, assert_xml_equivalent, sdformat_spec_dir, shared_cases, shared_dir
from urdf_sdf import load
from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf
from urdf_sdf.urdf2sdf.gazebo import apply_gazebo_extensions

FIXTURES = Path(__file__).parents[1] / "fixtures" / "urdf2sdf" / "gazebo"
CASES = sorted(p.stem for p in FIXTURES.glob("*.urdf"))
INTEGRATION_PARTS = ("conformance", "cases", "libsdformat", "integration")
INTEGRATION = SHARED.joinpath(*INTEGRATION_PARTS)
SPEC_ROOT = Path(os.environ.get("SDFORMAT_SPEC_DIR", "/usr/share/sdformat12"))


def fixture_version(name: str) -> str | None:
    """``gazebo_..._sdf_1_6`` is converted with --sdf-version 1.6; others with the default."""
    match = re.search(r"_sdf_(\d+)_(\d+)$", name)
    return f"{match[1]}.{match[2]}" if match else None


def convert(path: Path, version: str | None = None):
    return convert_urdf(load(path), ToSdf(sdf_version=version))


def diagnostics_text(conversion, path: Path) -> str:
    """The golden form of the diagnostics: the file is checked apart, as it is absolute."""
    lines = []
    for d in conversion.diagnostics:
        assert d.file == str(path), d.format()
        lines.append(f"{d.line}: {d.severity.value}[{d.code.value}]: {d.message}\n")
    return "".join(lines)


@pytest.fixture(scope="module")
def converted():
    """NAME -> (Conversion, diagnostics text), each fixture converted once."""
    out = {}
    for name in CASES:
        path = FIXTURES / f"{name}.urdf"
        conversion = convert(path, fixture_version(name))
        out[name] = (conversion, diagnostics_text(conversion, path))
    return out


@pytest.mark.parametrize("name", CASES)
def test_golden_sdf(name, converted):
    conversion, _ = converted[name]
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    assert_xml_equivalent(conversion.xml, FIXTURES / f"{name}.sdf")


@pytest.mark.parametrize("name", CASES)
def test_golden_warnings(name, converted):
    _, text = converted[name]
    assert text == (FIXTURES / f"{name}.warnings").read_text()


@pytest.mark.parametrize("name", CASES)
def test_golden_loads_in_reference(name, converted, sdf_reference):
    conversion, _ = converted[name]
    if tuple(map(int, conversion.version.split("."))) > (1, 9):
        pytest.skip(f"the reference reads SDFormat <= 1.9, the golden is {conversion.version}")
    report = sdf_reference(FIXTURES / f"{name}.sdf")
    assert report["ok"] and not report["diagnostics"], report["diagnostics"]


# ---- SDFormat's element descriptions ------------------------------------------------------

class Spec:
    """The element tree of one SDFormat version, read from libsdformat's description files:
    ``children(description)`` maps a child's name to its description, ``"*"`` to
    ``None`` when anything may follow (``copy_data``, as in ``<plugin>``)."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.files: dict[str, object] = {}

    def file(self, name: str):
        if name not in self.files:
            path = self.directory / name
            self.files[name] = etree.parse(str(path)).getroot() if path.is_file() else None
        return self.files[name]

    def children(self, description) -> dict:
        out = {}
        for child in description:
            if child.tag == "element" and child.get("copy_data") == "true":
                out["*"] = None
            elif child.tag == "element" and child.get("ref"):
                out[child.get("name")] = self.file(f"{child.get('ref')}.sdf")
            elif child.tag == "element":
                out[child.get("name")] = child
            elif child.tag == "include":
                included = self.file(child.get("filename"))
                if included is not None:  # Debian's package lacks a few (navsat.sdf)
                    out[included.get("name")] = included
        return out


def undefined_elements(sdf_bytes: bytes, spec: Spec) -> list[str]:
    """Paths of the elements SDFormat does not define where they are; custom (``urdf:``)
    elements and ``copy_data`` content are allowed anywhere."""
    problems = []

    def walk(el, description, path):
        allowed = spec.children(description)
        if "*" in allowed:
            return
        for child in el:
            if not isinstance(child.tag, str) or child.tag.startswith(f"{{{URDF_NS}}}"):
                continue
            child_path = f"{path}/{child.tag}"
            if child.tag not in allowed:
                problems.append(child_path)
            else:
                walk(child, allowed[child.tag], child_path)

    root = etree.fromstring(sdf_bytes)
    walk(root, spec.file("root.sdf"), "sdf")
    return problems


@pytest.mark.parametrize("name", CASES)
def test_golden_elements_are_defined_by_sdformat(name, converted):
    conversion, _ = converted[name]
    spec_dir = sdformat_spec_dir(SPEC_ROOT, conversion.version)
    assert undefined_elements(conversion.xml, Spec(spec_dir)) == []


def test_spec_check_finds_misplaced_elements():
    """The check above is not vacuous: a sensor in a model and a typo in a link are found."""
    spec_dir = sdformat_spec_dir(SPEC_ROOT, "1.9")
    sdf = (b"<sdf version='1.9'><model name='m'><link name='a'><gravty>1</gravty>"
           b"<sensor name='s' type='imu'><plugin name='p' filename='f'><any/></plugin>"
           b"</sensor></link><sensor name='s' type='imu'/></model></sdf>")
    assert undefined_elements(sdf, Spec(spec_dir)) == ["sdf/model/link/gravty",
                                                       "sdf/model/sensor"]


# ---- what the converter cannot produce: a frame as target ---------------------------------

def test_block_for_a_frame_is_kept_on_the_model():
    """A name written as a <frame> (a lumped link) cannot hold content: kept on the model
    as <urdf:gazebo reference=...>, plugins moved to the model, with a warning."""
    urdf = etree.fromstring(b"<robot><gazebo reference='tool'>\n<mu1>0.5</mu1>"
                            b"<plugin name='p' filename='libp.so'/></gazebo></robot>")
    model = etree.Element("model", name="m")
    frame = etree.SubElement(model, "frame", name="tool", attached_to="base")
    diagnostics = Diagnostics()
    apply_gazebo_extensions(model, urdf.findall("gazebo"), {"tool": frame}, diagnostics,
                            (1, 9), "robot.urdf")
    assert [el.tag for el in model] == ["frame", "plugin", f"{{{URDF_NS}}}gazebo"]
    kept = model[2]
    assert kept.get("reference") == "tool" and kept[0].tag == f"{{{URDF_NS}}}mu1"
    assert len(frame) == 0
    [warning] = diagnostics
    assert (warning.file, warning.line) == ("robot.urdf", 1)
    assert "[tool] is written as a <frame>" in warning.message


# ---- with --lump-fixed ----------------------------------------------------------------------

LUMPED = FIXTURES / "lump" / "gazebo_lumped_link_extensions.urdf"


def lumped_conversion():
    conversion = convert_urdf(load(LUMPED), ToSdf(lump_fixed=True))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    return conversion


def test_lumped_link_block_applies_to_its_own_shapes_and_frame():
    """bumper is merged into base: bumper's mu1 reaches only the collision that came from
    bumper, base's mu2 only base's own, and bumper's sensor pose is relative to the
    <frame> bumper became; the block naming the lumped joint is kept on the model."""
    conversion = lumped_conversion()
    model = etree.fromstring(conversion.xml).find("model")
    base_own, from_bumper = model.find("link[@name='base']").findall("collision")
    friction = "surface/friction/ode/"
    assert (base_own.findtext(friction + "mu"), base_own.findtext(friction + "mu2")) == \
        (None, "0.3")
    assert (from_bumper.findtext(friction + "mu"), from_bumper.findtext(friction + "mu2")) == \
        ("0.9", None)
    pose = model.find("link[@name='base']/sensor[@name='contact']/pose")
    assert (pose.get("relative_to"), pose.text) == ("bumper", "0 0 0.1 0 0 0")
    kept = model.find(f"{{{URDF_NS}}}gazebo")
    assert kept.get("reference") == "bumper_joint"
    [warning] = [d for d in conversion.diagnostics if "bumper_joint" in d.message]
    assert (warning.file, warning.line) == (str(LUMPED), 28)
    assert "was lumped" in warning.message


def test_lumped_link_block_matches_libsdformat(tmp_path, sdf_reference):
    """libsdformat lumps bumper the same way: same friction on the same shapes; the sensor
    pose it computes equals ours resolved through the bumper frame."""
    conversion = lumped_conversion()
    out = tmp_path / "lumped.sdf"
    out.write_bytes(conversion.xml)
    report = sdf_reference(out)
    assert report["ok"] and not report["diagnostics"], report["diagnostics"]
    assert parity_problems("lumped", conversion.xml, sdf_reference.binary, LUMPED) == []
    theirs = reference_model(sdf_reference.binary, LUMPED)
    their_pose = [float(v) for v in theirs.findtext("link/sensor/pose").split()]
    bumper = report["frames"]["bumper"]  # x y z qw qx qy qz in the model (= base) frame
    yaw = 2 * math.atan2(bumper[6], bumper[3])
    assert bumper[4:6] == [0, 0]
    assert their_pose[:3] == pytest.approx([bumper[0], bumper[1], bumper[2] + 0.1], abs=1e-6)
    assert their_pose[5] == pytest.approx(yaw, abs=1e-4)   # libsdformat prints 6 digits


# ---- libsdformat's own URDF parser ---------------------------------------------------------

def integration_cases() -> list[str]:
    if not INTEGRATION.is_dir():
        return []
    return sorted(p.name for p in INTEGRATION.glob("*.urdf") if b"<gazebo" in p.read_bytes())


JOINT_VALUES = ("physics/provide_feedback", "physics/ode/limit/cfm", "physics/ode/limit/erp",
                "physics/ode/fudge_factor", "physics/ode/implicit_spring_damper",
                "physics/ode/cfm_damping", "axis/dynamics/spring_reference",
                "axis/dynamics/spring_stiffness")
LINK_VALUES = ("gravity", "self_collide", "enable_wind", "velocity_decay/linear",
               "velocity_decay/angular")
COLLISION_VALUES = ("surface/friction/ode/mu", "surface/friction/ode/mu2",
                    "surface/friction/ode/fdir1", "surface/contact/ode/kp",
                    "surface/contact/ode/kd", "surface/contact/ode/max_vel",
                    "surface/contact/ode/min_depth", "laser_retro", "max_contacts")
VISUAL_VALUES = ("material/script/name", "material/script/uri")
# Where this converter deliberately differs from libsdformat: (case, value) -> why.
KNOWN_DIFFERENCES = {
    ("gazebo_blocks_merge_later_wins", "link[base]/gravity"):
        "libsdformat writes turnGravityOff's <gravity> and appends the later block's "
        "<gravity> after it, then reads the first; here the later block wins, with a warning",
}
# Fixtures libsdformat cannot read at all.
REFERENCE_ABORTS = {"gazebo_value_invalid_kept": "std::stod throws on <mu1>high</mu1>"}


def same_value(a: str, b: str) -> bool:
    """Equal as numbers (libsdformat prints 0.567 as 0.5669999999999999), as booleans
    (1 and true), or as text."""
    words = {"true": "1", "false": "0"}
    a, b = (words.get(v.strip().lower(), v.strip()) for v in (a, b))
    try:
        xs, ys = [float(v) for v in a.split()], [float(v) for v in b.split()]
    except ValueError:
        return a == b
    return len(xs) == len(ys) and all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)
                                      for x, y in zip(xs, ys))


def value_pairs(ours, theirs, paths, where: str):
    """(where, ours, theirs) for each path both elements have."""
    for path in paths:
        mine, ref = ours.find(path), theirs.find(path)
        if mine is not None and ref is not None:
            yield f"{where}/{path}", mine.text or "", ref.text or ""


def compared_values(ours_model, ref_model):
    """Every mapped value present in both models, for links and joints of the same name
    (libsdformat lumps fixed joints, so some of ours have no counterpart)."""
    yield from value_pairs(ours_model, ref_model, ("static",), "model")
    for tag, paths, shape_tags in (("joint", JOINT_VALUES, ()),
                                   ("link", LINK_VALUES, ("collision", "visual"))):
        for mine in ours_model.iterchildren(tag):
            ref = ref_model.find(f"{tag}[@name='{mine.get('name')}']")
            if ref is None:
                continue
            where = f"{tag}[{mine.get('name')}]"
            yield from value_pairs(mine, ref, paths, where)
            for shape_tag in shape_tags:
                # Shapes pair by position: both write a link's URDF shapes in file order,
                # under different names.
                shape_paths = COLLISION_VALUES if shape_tag == "collision" else VISUAL_VALUES
                for shape, ref_shape in zip(mine.iterchildren(shape_tag),
                                            ref.iterchildren(shape_tag)):
                    yield from value_pairs(shape, ref_shape, shape_paths,
                                           f"{where}/{shape_tag}[{shape.get('name')}]")


def parity_problems(case: str, ours_xml: bytes, binary, path: Path) -> list[str]:
    ours = etree.fromstring(ours_xml).find("model")
    theirs = reference_model(binary, path)
    return [f"{where}: ours [{a}], libsdformat [{b}]"
            for where, a, b in compared_values(ours, theirs)
            if not same_value(a, b) and (case, where) not in KNOWN_DIFFERENCES]


def reference_model(binary, path: Path):
    """The ``<model>`` libsdformat builds from ``path``. It prints attributes such as
    ``ignition::corrected_offsets``, which are not XML names: hence a recovering parser."""
    proc = subprocess.run([str(binary), "--print", str(path)], capture_output=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert proc.stdout, proc.stderr.decode(errors="replace")[-2000:]
    return etree.fromstring(proc.stdout, etree.XMLParser(recover=True)).find("model")


@pytest.mark.parametrize("name", shared_cases(integration_cases(), *INTEGRATION_PARTS))
def test_integration_urdf_matches_libsdformat(name, tmp_path, sdf_reference):
    path = INTEGRATION / name
    conversion = convert(path)
    if not load(path).ok:
        pytest.skip(f"{name} is not a valid URDF for our reader")
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    out = tmp_path / f"{path.stem}.sdf"
    out.write_bytes(conversion.xml)
    report = sdf_reference(out)
    assert report["ok"] and not report["diagnostics"], report["diagnostics"]
    assert parity_problems(name, conversion.xml, sdf_reference.binary, path) == []


@pytest.mark.parametrize("name", CASES)
def test_fixture_matches_libsdformat(name, converted, sdf_reference):
    """libsdformat converting the fixture itself writes the same mapped values (it skips
    named visuals and collisions, which its lumping code renames, and the tags it drops)."""
    if name in REFERENCE_ABORTS:
        pytest.skip(f"libsdformat aborts on {name}: {REFERENCE_ABORTS[name]}")
    conversion, _ = converted[name]
    assert parity_problems(name, conversion.xml, sdf_reference.binary,
                           FIXTURES / f"{name}.urdf") == []


def test_integration_comparison_is_not_vacuous(sdf_reference):
    """The big libsdformat example has each kind of mapped value in links kept by both."""
    path = shared_dir(*INTEGRATION_PARTS, "urdf_gazebo_extensions.urdf")
    ours = etree.fromstring(convert(path).xml).find("model")
    theirs = reference_model(sdf_reference.binary, path)
    compared = {where for where, _, _ in compared_values(ours, theirs)}
    assert {"model/static", "joint[joint01]/physics/ode/limit/cfm",
            "joint[joint01]/axis/dynamics/spring_stiffness",
            "joint[joint01]/physics/provide_feedback", "link[link2]/gravity",
            "link[link2]/velocity_decay/angular", "link[link1]/enable_wind"} <= compared
