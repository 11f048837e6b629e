"""Property: random URDF trees convert to SDFormat, and the SDF keeps URDF's kinematics.

Random URDF trees (1 to 200 links, every joint type, random origins including angles at
and near gimbal lock and near +-pi) must convert with ``ToSdf(relative=True)`` and with
``ToSdf()`` (absolute poses), the SDF must load without errors, and the pose the core
resolves for every URDF link (a ``//link``, or a ``//frame`` for a massless fixed leaf)
must equal URDF forward kinematics at zero joint positions, computed here independently
with numpy 4x4 matrices (``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``), within 1e-12 in
position and in rotation angle.

The tree's shape and every discrete choice (parent, joint type, kind of origin, what the
link carries) are drawn by Hypothesis, so it shrinks them; the continuous values of link
``i`` come from ``random.Random(f"{seed}/joint/{i}")``, so that 200 links stay cheap to
draw and a link keeps its numbers while others are shrunk away.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from tests.support import examples, rpy_for
from tests.urdf2sdf_helpers import pose_matrix
from urdf_sdf import load_string
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

TOLERANCE = 1e-12
MAX_LINKS = 200
JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
# How a joint's <origin> is written and which angles it holds.
ORIGIN_KINDS = ("absent", "xyz_only", "rpy_only", "zero_rpy", "random", "gimbal_exact",
                "gimbal_near", "near_pi", "pi_exact", "gimbal_and_pi", "axis_aligned")
INERTIALS = ("none", "mass", "zero_mass")
SHAPES = ("none", "visual", "collision", "both")
# Weighted draws (Hypothesis shrinks towards the first entry) so that massless fixed
# leaves without shapes, which become //frame, are common, and so are their near misses.
JOINT_DRAW = ("fixed", "fixed", *JOINT_TYPES)
INERTIAL_DRAW = ("none", "mass", "zero_mass", "mass")
SHAPE_DRAW = ("none", "none", "none", "visual", "collision", "both")


@dataclass
class LinkSpec:
    name: str
    parent: int | None = None          # index of the parent link; None for the root
    joint_type: str | None = None
    xyz: tuple[float, float, float] | None = None   # None: attribute absent
    rpy: tuple[float, float, float] | None = None   # None: attribute absent
    has_origin: bool = False
    axis: tuple[float, float, float] | None = None  # None: <axis> absent (URDF: 1 0 0)
    inertial: str = "none"            # one of INERTIALS
    mass: float = 0.0
    inertial_origin: tuple[float, ...] | None = None
    shapes: str = "none"              # one of SHAPES
    shape_origin: tuple[float, ...] | None = None


@dataclass
class Tree:
    links: list[LinkSpec]
    shuffle_seed: int | None = None   # write <link>/<joint> elements in a shuffled order

    @property
    def world_root(self) -> bool:
        return self.links[0].name == "world"

    def joint_name(self, i: int) -> str:
        return f"joint_{i}"

    def children(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i, link in enumerate(self.links):
            if link.parent is not None:
                out.setdefault(link.parent, []).append(i)
        return out

    def urdf(self) -> str:
        link_xml = [self._link_xml(link) for link in self.links]
        joint_xml = [self._joint_xml(i, link) for i, link in enumerate(self.links)
                     if link.parent is not None]
        if self.shuffle_seed is not None:
            rng = random.Random(self.shuffle_seed)
            rng.shuffle(link_xml)
            rng.shuffle(joint_xml)
        return ('<?xml version="1.0"?>\n<robot name="random_tree">\n'
                + "".join(link_xml) + "".join(joint_xml) + "</robot>\n")

    @staticmethod
    def _origin(xyz, rpy) -> str:
        attributes = ""
        if xyz is not None:
            attributes += f' xyz="{numbers(xyz)}"'
        if rpy is not None:
            attributes += f' rpy="{numbers(rpy)}"'
        return f"<origin{attributes}/>"

    def _link_xml(self, link: LinkSpec) -> str:
        body = ""
        if link.inertial != "none":
            origin = (self._origin(link.inertial_origin[:3], link.inertial_origin[3:])
                      if link.inertial_origin is not None else "")
            body += (f'<inertial>{origin}<mass value="{link.mass!r}"/><inertia ixx="0.01" '
                     'ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial>')
        origin = (self._origin(link.shape_origin[:3], link.shape_origin[3:])
                  if link.shape_origin is not None else "")
        if link.shapes in ("visual", "both"):
            body += f'<visual>{origin}<geometry><box size="0.1 0.2 0.3"/></geometry></visual>'
        if link.shapes in ("collision", "both"):
            body += (f'<collision>{origin}<geometry><sphere radius="0.05"/></geometry>'
                     "</collision>")
        return f'  <link name="{link.name}">{body}</link>\n'

    def _joint_xml(self, i: int, link: LinkSpec) -> str:
        parent = self.links[link.parent].name
        body = f'<parent link="{parent}"/><child link="{link.name}"/>'
        if link.has_origin:
            body += self._origin(link.xyz, link.rpy)
        if link.axis is not None:
            body += f'<axis xyz="{numbers(link.axis)}"/>'
        if link.joint_type in ("revolute", "prismatic"):
            body += '<limit lower="-1" upper="1" effort="10" velocity="2"/>'
        elif link.joint_type == "continuous" and i % 2:
            body += '<limit effort="10" velocity="2"/>'
        return (f'  <joint name="{self.joint_name(i)}" type="{link.joint_type}">{body}'
                "</joint>\n")


def numbers(values) -> str:
    # repr: the shortest text that reads back as the same float, so the URDF holds exactly
    # the numbers forward kinematics uses.
    return " ".join(repr(float(v)) for v in values)


def xyz_for(rng: random.Random) -> tuple[float, float, float]:
    return tuple(rng.choice([0.0, rng.uniform(-1, 1), rng.uniform(-1, 1)]) for _ in range(3))


def axis_for(rng: random.Random) -> tuple[float, float, float] | None:
    choice = rng.random()
    if choice < 0.2:
        return None
    if choice < 0.5:
        return rng.choice([(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, -1.0)])
    while True:  # any non-zero direction, not normalised
        axis = tuple(rng.uniform(-2, 2) for _ in range(3))
        if math.hypot(*axis) > 1e-3:
            return axis


PARENT_MODES = ("chain", "root", "any")


def decode(value: int, *radices: int) -> list[int]:
    """Mixed-radix digits of ``value``, least significant first."""
    digits = []
    for radix in radices:
        value, digit = divmod(value, radix)
        digits.append(digit)
    return digits


@st.composite
def urdf_trees(draw, max_links: int = MAX_LINKS) -> Tree:
    # Tree-wide choices first, then ONE integer per link that packs the link's discrete
    # choices (parent, joint type, inertial, shapes, origin kind): cheap to draw for 200
    # links, and the shrinker removes a link by deleting one choice; 0 decodes to the
    # simplest link (chained to the previous one, fixed, no inertial, no shape, no origin).
    seed = draw(st.integers(0, 2**32 - 1))
    shuffle_seed = seed if draw(st.booleans()) else None
    n = draw(st.integers(1, max_links))
    # A root link named `world` (URDF's fixed world) needs a real link beside it.
    world_root = n >= 2 and draw(st.booleans())
    if world_root:
        root = LinkSpec("world")
    else:
        root = LinkSpec("link_0", inertial=draw(st.sampled_from(INERTIAL_DRAW)),
                        shapes=draw(st.sampled_from(SHAPE_DRAW)))
    radices = (len(PARENT_MODES), len(JOINT_DRAW), len(INERTIAL_DRAW), len(SHAPE_DRAW),
               len(ORIGIN_KINDS), max_links)
    packed = st.integers(0, math.prod(radices) - 1)
    choices = [[PARENT_MODES[m], JOINT_DRAW[j], INERTIAL_DRAW[a], SHAPE_DRAW[b],
                ORIGIN_KINDS[o], k] for m, j, a, b, o, k in
               (decode(draw(packed), *radices) for _ in range(n - 1))]
    links = [root]
    for i, (mode, joint_type, inertial, shapes, kind, k) in enumerate(choices, start=1):
        parent = {"chain": i - 1, "root": 0, "any": k % i}[mode]
        link = LinkSpec(f"link_{i}", parent, joint_type, inertial=inertial, shapes=shapes)
        rng = random.Random(f"{seed}/joint/{i}")
        link.has_origin = kind != "absent"
        if kind not in ("absent", "rpy_only"):
            link.xyz = xyz_for(rng)
        if kind not in ("absent", "xyz_only"):
            link.rpy = rpy_for(kind, rng, zero_kinds=("zero_rpy",))
        if link.joint_type not in ("fixed", "floating"):
            link.axis = axis_for(rng)
        elif rng.random() < 0.2:
            link.axis = (0.0, 0.0, 1.0)  # URDF ignores it on fixed and floating joints
        links.append(link)
    for i, link in enumerate(links):
        rng = random.Random(f"{seed}/link/{i}")
        if link.inertial != "none":
            link.mass = rng.uniform(0.1, 10.0) if link.inertial == "mass" else 0.0
            if rng.random() < 0.5:
                link.inertial_origin = (*xyz_for(rng), *rpy_for("random", rng))
        if link.shapes != "none" and rng.random() < 0.5:
            link.shape_origin = (*xyz_for(rng), *rpy_for("random", rng))
    return Tree(links, shuffle_seed)


# ---- forward kinematics, independently of core.base.pose ----------------------------------------

def rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def origin_matrix(xyz, rpy) -> np.ndarray:
    m = np.eye(4)
    if rpy is not None:
        roll, pitch, yaw = rpy
        m[:3, :3] = rot_z(yaw) @ rot_y(pitch) @ rot_x(roll)
    if xyz is not None:
        m[:3, 3] = xyz
    return m


def forward_kinematics(tree: Tree) -> dict[str, np.ndarray]:
    """Every link's pose in the root link's frame, all joints at zero."""
    out: dict[str, np.ndarray] = {}
    children = tree.children()
    stack = [0]
    out[tree.links[0].name] = np.eye(4)
    while stack:
        i = stack.pop()
        for c in children.get(i, []):
            link = tree.links[c]
            out[link.name] = out[tree.links[i].name] @ origin_matrix(link.xyz, link.rpy)
            stack.append(c)
    return out


def gap(expected: np.ndarray, actual: np.ndarray) -> tuple[float, float]:
    """Position distance and rotation angle between two 4x4 transforms. The angle is
    atan2(sin, cos) of the relative rotation, accurate for tiny angles (acos is not)."""
    distance = float(np.linalg.norm(expected[:3, 3] - actual[:3, 3]))
    r = expected[:3, :3].T @ actual[:3, :3]
    sin = 0.5 * math.sqrt((r[2, 1] - r[1, 2]) ** 2 + (r[0, 2] - r[2, 0]) ** 2
                          + (r[1, 0] - r[0, 1]) ** 2)
    cos = 0.5 * (r[0, 0] + r[1, 1] + r[2, 2] - 1)
    return distance, math.atan2(sin, cos)


def expected_frame_links(tree: Tree) -> set[str]:
    """The converter's rule (``urdf2sdf.convert.massless_frame_links``): a massless link (no
    <inertial>, or mass 0) without visual or collision that hangs on a fixed joint, and
    whose children all become frames by the same rule, becomes a //frame attached to its
    parent (link or frame), unless that parent is URDF's `world` root (a frame cannot be
    attached to the world from inside a model). Decided children first."""
    children = tree.children()
    frames: set[int] = set()
    for i in sorted(range(len(tree.links)), key=lambda k: -depth(tree, k)):
        link = tree.links[i]
        if link.joint_type == "fixed" and link.inertial != "mass" and link.shapes == "none" \
                and tree.links[link.parent].name != "world" \
                and all(c in frames for c in children.get(i, ())):
            frames.add(i)
    return {tree.links[i].name for i in frames}


def depth(tree: Tree, index: int) -> int:
    """Joints between link ``index`` and the root."""
    count = 0
    while tree.links[index].parent is not None:
        index, count = tree.links[index].parent, count + 1
    return count


def errors(diagnostics) -> list[str]:
    return [d.format() for d in diagnostics if d.is_error]


def check_poses(result, expected: dict[str, np.ndarray], what: str) -> None:
    for name, transform in expected.items():
        if name == "world":   # URDF's world root is the model frame, not an SDF element
            continue
        pose = result.pose(name)
        assert pose is not None, f"{what}: no pose for link [{name}]"
        distance, rotation = gap(transform, pose_matrix(pose))
        assert distance <= TOLERANCE and rotation <= TOLERANCE, (
            f"{what}: link [{name}] is {distance:.3g} m and {rotation:.3g} rad away from "
            f"URDF forward kinematics")


# ---- the property ---------------------------------------------------------------------------

def check_tree(tree: Tree) -> None:
    urdf_text = tree.urdf()
    note(urdf_text)
    expected = forward_kinematics(tree)
    frames = expected_frame_links(tree)
    size = len(tree.links)
    event(f"links: {'<10' if size < 10 else '<100' if size < 100 else '>=100'}")
    event(f"frame links: {'some' if frames else 'none'}")
    event(f"world root: {tree.world_root}")
    children = tree.children()
    if any(link.joint_type == "fixed" and link.inertial != "mass" and link.shapes == "none"
           and i not in children and link.name not in frames
           for i, link in enumerate(tree.links)):
        event("massless fixed leaf welded to world (stays a link)")

    loaded = load_string(urdf_text, "random_tree.urdf")
    assert loaded.ok, errors(loaded.diagnostics)
    check_poses(loaded, expected, "URDF as loaded by the core")

    for relative in (True, False):
        style = "--relative" if relative else "absolute"
        conversion = convert_urdf(load_string(urdf_text, "random_tree.urdf"),
                                  ToSdf(relative=relative))
        assert conversion.ok, (style, errors(conversion.diagnostics))
        sdf = load_string(conversion.xml, "random_tree.sdf")
        note(f"{style} SDF:\n{conversion.xml.decode()}")
        assert sdf.ok, (style, errors(sdf.diagnostics))
        model = sdf.document.model
        urdf_links = {link.name for link in tree.links} - {"world"}
        assert {f.name for f in model.frames} == frames, style
        assert {link.name for link in model.links} == urdf_links - frames, style
        for link in tree.links:
            if link.name in frames:  # the frame moves with its nearest URDF ancestor link
                parent = tree.links[link.parent]
                while parent.name in frames:
                    parent = tree.links[parent.parent]
                assert sdf.attached_link(link.name) == parent.name, (style, link.name)
        check_poses(sdf, expected, f"{style} SDF")


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(urdf_trees())
def test_random_urdf_trees_convert_and_keep_forward_kinematics(tree):
    check_tree(tree)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urdf_trees(max_links=6))
def test_small_random_urdf_trees_convert_and_keep_forward_kinematics(tree):
    # Small trees reach the corner cases (a world root with only leaves, a lone link)
    # far more often than trees of up to 200 links do.
    check_tree(tree)
