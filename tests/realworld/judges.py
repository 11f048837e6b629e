"""MuJoCo and Pinocchio as judges of the URDFs the converters write (issue 26).

Each URDF written is loaded in both consumers, in-process, and compared with its source
as the same consumer reads it:

- a URDF source: the source file, loaded by the same consumer;
- an SDF source: neither consumer reads SDFormat, so libsdformat 12's reading of the
  source (``build/sdf_reference``'s report: link poses only, it reports no masses) as a
  URDF holds it (:func:`reference_reading`).

Compared at the zero configuration (Pinocchio's neutral one): every link's pose relative
to the root link (a URDF cannot say where its root sits) within :data:`TOL` (m / rad);
the total mass and each body's mass (MuJoCo: per body = per link; Pinocchio: per joint,
since it lumps the links of fixed joints into their parent joint's body), relative
tolerance :data:`TOL`. A link on one side only is a disagreement.

Loading rules, applied alike to the source and to our output (noted, not "fixed"):
visual and collision elements and ``<gazebo>`` blocks are stripped before loading (both
consumers would otherwise need every mesh file; meshes carry no pose or mass of a
link); MuJoCo is given ``<mujoco><compiler .../></mujoco>`` with :data:`MUJOCO_COMPILER`:
``fusestatic="false"`` so that a link on a fixed joint stays a body of its own (MuJoCo
fuses them by default for URDF), and ``balanceinertia``, ``boundmass`` and
``boundinertia`` so that it loads the zero, singular or triangle-breaking inertias real
files hold (it refuses them otherwise, source and output alike: 2,160 of 2,900 readings
of the corpus); a bound of 1e-9 kg (kg m^2) moves no mass past the tolerance.

A consumer's own documented rule that makes it read our output differently from the
source is listed in :data:`CONSUMER_RULES` (a test and the reason); any other
disagreement, and an output a consumer cannot load when it loads the source, is a
failure. Used by ``tests/test_realworld_corpus.py`` (every corpus file, on the URDFs the
corpus test writes) and by ``consumers.py`` beside this file (the agreement table).
"""
from __future__ import annotations

import importlib.util
import math
import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

TOL = 1e-6
STRIP = ("visual", "collision")
MODULES = {"mujoco": "mujoco", "pinocchio": "pinocchio"}
EXTRA_HINT = ("install the consumers extra: pip install -e '.[test,consumers]' "
              "(MuJoCo and Pinocchio, as .ci/run does)")

MUJOCO_COMPILER = {"fusestatic": "false", "balanceinertia": "true", "boundmass": "1e-9",
                   "boundinertia": "1e-9"}

Pose = tuple[float, ...]  # x, y, z, qw, qx, qy, qz


def missing_consumers() -> list[str]:
    """The consumers whose Python module is not installed."""
    return [name for name, module in MODULES.items()
            if importlib.util.find_spec(module) is None]


# ---- small maths (poses as (x, y, z, qw, qx, qy, qz)) ----------------------------------------

def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qrot(q, v):
    return qmul(qmul(q, (0.0, *v)), qconj(q))[1:]


def relative(base: Pose, pose: Pose) -> Pose:
    """``pose`` expressed in ``base`` (both in one frame)."""
    qi = qconj(base[3:])
    d = qrot(qi, [pose[i] - base[i] for i in range(3)])
    return (*d, *qmul(qi, pose[3:]))


def gap(a: Pose, b: Pose) -> float:
    """The larger of the distance and the rotation angle between two poses."""
    dist = math.dist(a[:3], b[:3])
    dot = abs(sum(x * y for x, y in zip(a[3:], b[3:])))
    return max(dist, 2 * math.acos(min(1.0, dot)))


# ---- the consumers ---------------------------------------------------------------------------

@dataclass
class Reading:
    """How one consumer (or libsdformat) reads one file: link poses in one frame, the root
    link, masses by body (None: not reported), and whether the reading is libsdformat's
    (it lists frames URDF holds as links, so links only in the output are not counted)."""
    root: str | None
    poses: dict[str, Pose]
    masses: dict[str, float] | None
    reference: bool = False


def as_consumers_parse(text: str | bytes) -> bytes:
    """The document as urdfdom's and MuJoCo's lenient XML parsers take it: blank lines
    before the XML declaration and undeclared prefixes (``drake:``) are no error there
    (lxml's recovering parser, nothing resolved or fetched)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True,
                             load_dtd=False)
    root = etree.fromstring(data.lstrip(), parser)
    for element in root.iter():  # an undeclared prefix: "drake:x" renamed "drake_x"
        if isinstance(element.tag, str) and ":" in element.tag and "}" not in element.tag:
            element.tag = element.tag.replace(":", "_")
        for name in [n for n in element.attrib if ":" in n and "}" not in n]:
            element.attrib[name.replace(":", "_")] = element.attrib.pop(name)
    return etree.tostring(root)


def stripped_urdf(text: str | bytes, mujoco: bool) -> str:
    """The URDF without visual, collision and gazebo elements (and, for MuJoCo, with
    :data:`MUJOCO_COMPILER`)."""
    root = ET.fromstring(as_consumers_parse(text))
    for parent in root.iter():
        for child in [c for c in parent if c.tag in STRIP]:
            parent.remove(child)
    for gazebo in root.findall("gazebo"):
        root.remove(gazebo)
    if mujoco:
        for old in root.findall("mujoco"):
            root.remove(old)
        ET.SubElement(ET.SubElement(root, "mujoco"), "compiler", MUJOCO_COMPILER)
    return ET.tostring(root, encoding="unicode")


def read_mujoco(text: str | bytes) -> Reading:
    """Link poses at qpos0, per-body masses."""
    import mujoco
    silence_mujoco_log(mujoco)
    model = mujoco.MjModel.from_xml_string(stripped_urdf(text, mujoco=True))
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(model.nbody)]
    poses = {names[i]: (*map(float, data.xpos[i]), *map(float, data.xquat[i]))
             for i in range(1, model.nbody)}
    masses = {names[i]: float(model.body_mass[i]) for i in range(1, model.nbody)}
    return Reading(names[1] if model.nbody > 1 else None, poses, masses)


def silence_mujoco_log(mujoco) -> None:
    """MuJoCo writes its warnings (a mimic it ignores...) to MUJOCO_LOG.TXT in the working
    directory, the repository's root under pytest, and to the console: neither here."""
    config = mujoco.MjLogConfig.get()
    if config.logto_file or config.logto_console:
        config.logto_file = config.logto_console = False
        config.set()


def read_pinocchio(text: str | bytes) -> Reading:
    """Link (BODY frame) poses at the neutral configuration, per-joint body masses (links
    of fixed joints lumped in)."""
    import pinocchio as pin
    model = pin.buildModelFromXML(stripped_urdf(text, mujoco=False))
    data = model.createData()
    pin.framesForwardKinematics(model, data, pin.neutral(model))
    poses: dict[str, Pose] = {}
    root = None
    for i, frame in enumerate(model.frames):
        if frame.type != pin.FrameType.BODY:
            continue
        placement = data.oMf[i]
        q = pin.Quaternion(placement.rotation)
        poses[frame.name] = (*map(float, placement.translation), q.w, q.x, q.y, q.z)
        root = root or frame.name
    masses = {model.names[j]: float(model.inertias[j].mass) for j in range(1, model.njoints)}
    masses["<universe>"] = float(model.inertias[0].mass)
    return Reading(root, poses, masses)


CONSUMERS = {"mujoco": read_mujoco, "pinocchio": read_pinocchio}


def unreadable(exc: BaseException) -> str:
    """A consumer's refusal as one line: its type and first line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160]}" if text else type(exc).__name__


def read_with_each(text: str | bytes) -> dict[str, Reading | str]:
    """Every consumer's reading of a URDF, or why it cannot load it."""
    readings: dict[str, Reading | str] = {}
    for consumer, read in CONSUMERS.items():
        try:
            readings[consumer] = read(text)
        except Exception as exc:  # a consumer's refusal is data
            readings[consumer] = unreadable(exc)
    return readings


# ---- libsdformat's reading of an SDF source --------------------------------------------------

def joint_children(path: str | os.PathLike) -> tuple[bool, dict[str, str]]:
    """Whether the SDF's top element is a world, and each joint's scoped name -> its
    child's scoped name (scoped as libsdformat reports them: below the top model, or
    below the world's model)."""
    root = ET.fromstring(as_consumers_parse(Path(path).read_bytes()))  # drake: prefixes
    world = root.find("world")
    top = world.find("model") if world is not None else root.find("model")
    children: dict[str, str] = {}

    def walk(model, prefix):
        for joint in model.findall("joint"):
            child = (joint.findtext("child") or "").strip()
            children[prefix + joint.get("name", "")] = prefix + child
        for nested in model.findall("model"):
            walk(nested, prefix + nested.get("name", "") + "::")

    if top is not None:
        walk(top, "")
    return world is not None, children


def reference_reading(report: dict, path: str | os.PathLike) -> Reading | str:
    """libsdformat 12's reading of an SDF (``report``: build/sdf_reference's JSON for
    ``path``) as URDF would hold it: each link where its parent joint's frame is (a URDF
    link frame is its joint frame), a root link where the link is, and each //frame
    (sdf2urdf writes a frame as a massless link); or why libsdformat refuses it."""
    if not report.get("ok"):
        return "libsdformat refuses it: " + ", ".join(
            d.get("code", "") for d in report.get("diagnostics", [])[:3])
    is_world, children = joint_children(path)

    def scoped(name):  # a world's single model's scope is not written in URDF
        return name.split("::", 1)[1] if is_world and "::" in name else name

    joints = {scoped(n): pose for n, pose in (report.get("joints") or {}).items()}
    poses = {scoped(n): tuple(pose) for kind in ("links", "frames")
             for n, pose in (report.get(kind) or {}).items() if pose is not None}
    for joint, child in children.items():
        if child in poses and joints.get(joint) is not None:
            poses[child] = tuple(joints[joint])
    links = [scoped(n) for n in report.get("links") or {}]
    root = next((link for link in links if link not in children.values()), None)
    return Reading(root, poses, None, reference=True)


# ---- comparing -------------------------------------------------------------------------------

def compare(source: Reading, output: Reading, tol: float = TOL) -> list[str]:
    """The disagreements between two readings, each ``class: detail``."""
    problems = []
    src, out = source.poses, output.poses
    missing = sorted(set(src) - set(out))
    extra = sorted(set(out) - set(src))
    if missing:
        problems.append(f"link missing in output: {missing[:5]}")
    if extra and not source.reference:
        problems.append(f"link only in output: {extra[:5]}")
    root = output.root if output.root in src else source.root
    if root in src and root in out:
        for name in sorted(set(src) & set(out)):
            off = gap(relative(src[root], src[name]), relative(out[root], out[name]))
            if not off <= tol:
                problems.append(f"link pose: {name} off by {off:.3g} relative to {root}")
                break
    if source.masses is not None and output.masses is not None:
        total_s, total_o = sum(source.masses.values()), sum(output.masses.values())
        if not abs(total_s - total_o) <= tol * max(1.0, abs(total_s)):
            problems.append(f"total mass: {total_s:.9g} != {total_o:.9g}")
        for name in sorted(set(source.masses) & set(output.masses)):
            a, b = source.masses[name], output.masses[name]
            if not abs(a - b) <= tol * max(1.0, abs(a)):
                problems.append(f"body mass: {name} {a:.9g} != {b:.9g}")
                break
    return problems


@dataclass(frozen=True)
class Verdict:
    """One consumer's verdict on one URDF we wrote: ``agree``, ``disagree``, ``source
    unreadable`` (the consumer cannot load the source: its own rule, not ours) or
    ``output unreadable``; the detail; and, for a disagreement, the documented consumer
    rule that explains it (None: a failure)."""
    consumer: str
    status: str
    detail: str = ""
    rule: str | None = None

    @property
    def fails(self) -> bool:
        return self.status in ("disagree", "output unreadable") and self.rule is None


MASS_CLASSES = ("total mass", "body mass")


def pinocchio_world_link(source: Reading, output: Reading, problems: list[str]) -> bool:
    """Pinocchio adds the inertial of a link named ``world`` to its universe body; for
    Gazebo, libsdformat and Drake that link is the world, whose inertial means nothing,
    so SDFormat has no place for it and the URDF given back holds a massless ``world``
    (Drake's Pendulum.urdf: 0.01 kg)."""
    return "world" in source.poses and all(p.startswith(MASS_CLASSES) for p in problems)


# The disagreements that are a consumer's own documented rule: (consumer, the rule's
# test on (source reading, output reading, problems)). A disagreement no rule explains
# fails the corpus test.
CONSUMER_RULES = [("pinocchio", pinocchio_world_link)]


def documented_rule(consumer: str, source: Reading, output: Reading,
                    problems: list[str]) -> str | None:
    """The consumer rule (its first docstring line) that explains ``problems``, if one
    does."""
    for owner, rule in CONSUMER_RULES:
        if owner == consumer and rule(source, output, problems):
            return (rule.__doc__ or rule.__name__).split(";")[0].strip()
    return None


def judge(sources: dict[str, Reading | str], urdf: str | bytes) -> list[Verdict]:
    """Each consumer's verdict on ``urdf`` (the text of a URDF we wrote) against its
    reading of the source (``sources``: consumer -> reading, or why it is unreadable)."""
    verdicts = []
    for consumer, read in CONSUMERS.items():
        source = sources[consumer]
        if isinstance(source, str):
            verdicts.append(Verdict(consumer, "source unreadable", source))
            continue
        try:
            output = read(urdf)
        except Exception as exc:
            verdicts.append(Verdict(consumer, "output unreadable", unreadable(exc)))
            continue
        problems = compare(source, output)
        status = "disagree" if problems else "agree"
        rule = documented_rule(consumer, source, output, problems) if problems else None
        verdicts.append(Verdict(consumer, status, "; ".join(problems), rule))
    return verdicts
