"""What ``urdf-sdf diff`` compares of one description, without the description: its
"digest", made while the model is loaded and kept once the model is gone.

``core.diff.compare`` loads one file, digests it (:func:`digest`), lets its model, frame graph
and kinematic tree go, then does the same with the other file, and compares the two
digests. At 100,000 links a model takes about 750 MB and its kinematic tree 250 MB; a
digest, mostly arrays and a few names per link, takes a small part of that (pickled, 60 MB): two
digests and the forward kinematics of both sides fit where two models did not.

A digest holds exactly the numbers the comparison of two loaded descriptions used, so
that every message stays the same, bit for bit:

* names: links, explicit frames, joints, the links that stand for frames;
* per joint (:class:`JointTable`, compared as :class:`JointDigest` records): type,
  parent and child, its frame in the parent link, first axis, limit, mimic relation and
  dynamics, and whether it welds a root to the world or holds a free body;
* per link (:class:`LinkContents`): the inertial (mass, frame in the link, tensor) and
  each visual and collision (pose in the link, geometry signature);
* the attributes URDF does not define that each side carries
  (:func:`core.diff.attributes.carried_attributes`);
* the forward kinematics (:class:`core.kinematics.batch.CompactPlan`) and the rows of
  every named frame's pose table (:class:`PoseRows`).

Whatever depends on both sides (the common reference link, the sampled configurations,
the URDF link convention) is decided when the two digests are compared.
"""
from __future__ import annotations

import pickle
import sys
from array import array
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.diff.attributes import Carried, carried_attributes
from urdf_sdf.core.diff.shapes import geometry_signature, mesh_key
from urdf_sdf.core.kinematics.batch import CompactPlan, compact_plan, pose_rows_array


class Limit(NamedTuple):
    """A joint's ``<limit>`` numbers as read (None where not given)."""
    lower: float | None
    upper: float | None
    effort: float | None
    velocity: float | None


class Mimic(NamedTuple):
    joint: str
    multiplier: float
    offset: float


class Dynamics(NamedTuple):
    """A joint's damping and friction; ``<dynamics>`` absent, or an absent number, is 0
    (both formats' default), so that a written zero and no element compare equal."""
    damping: float
    friction: float


NO_DYNAMICS = Dynamics(0.0, 0.0)


class JointElement(NamedTuple):
    """What the comparison reads of a joint's element: its limit, mimic relation and
    dynamics."""
    limit: Limit | None
    mimic: Mimic | None
    dynamics: Dynamics = NO_DYNAMICS


@dataclass(slots=True)
class JointDigest:
    """One joint, as :func:`core.diff.compare.compare_joints` compares it. ``element`` stands for
    the model's joint element (``limit``, ``mimic``), so that the functions reading a
    kinematic joint's limits read this the same way."""
    name: str
    type: str
    parent: str
    child: str
    X_PJ: Pose
    axis: tuple[float, float, float] | None
    element: JointElement
    weld: bool = False          # welds a root to the world (core.diff.compare.world_welds)
    free_body: bool = False     # holds a free root body (core.diff.compare.free_body_joints)

    @property
    def axes(self) -> list:
        return [self.axis] if self.axis is not None else []


@dataclass
class JointTable:
    """Every joint of a description as columns, a row per joint name, in the order of
    ``Description.joints``: few objects to keep while the other file loads. Limits are
    rows of ``(lower, upper, effort, velocity)``, ``None`` where ``limit_none`` says so;
    ``limitless``, ``weld``, ``free_body``, ``mimics`` and ``dynamics`` (other than none)
    hold the rows they concern."""
    names: list[str]
    types: list[str]
    parents: list[str]
    children: list[str]
    X_PJ: np.ndarray                 # (J, 7)
    axes: np.ndarray                 # (J, 3), first axis
    axisless: set[int]
    limits: np.ndarray               # (J, 4)
    limit_none: np.ndarray           # (J, 4) bool
    limitless: set[int]
    mimics: dict[int, Mimic]
    weld: set[int]
    free_body: set[int]
    dynamics: dict[int, Dynamics] = field(default_factory=dict)

    def records(self) -> dict[str, JointDigest]:
        """Each joint name's :class:`JointDigest`."""
        X_PJ, axes, limits = self.X_PJ.tolist(), self.axes.tolist(), self.limits.tolist()
        none = self.limit_none.tolist()
        return {name: JointDigest(
            name, self.types[i], self.parents[i], self.children[i],
            Pose(tuple(X_PJ[i][:3]), tuple(X_PJ[i][3:])),
            None if i in self.axisless else tuple(axes[i]),
            JointElement(None if i in self.limitless else Limit(*(
                None if gone else value for value, gone in zip(limits[i], none[i]))),
                self.mimics.get(i), self.dynamics.get(i, NO_DYNAMICS)),
            i in self.weld, i in self.free_body) for i, name in enumerate(self.names)}


@dataclass
class PoseRows:
    """The rows of a pose table (:func:`core.diff.compare.compare_all_poses`): the rows of
    ``plan``, then derived rows ``row[sources[i]] * poses[i]`` numbered on from
    ``plan.size``; ``rows`` maps each named frame (links, explicit frames, ``joint NAME``)
    to its row, and ``urdf_links`` lists ``(link, its joint frame's row)`` in the order
    that makes a link's pose its joint frame's, as a URDF link frame always is."""
    rows: dict[str, int]
    sources: list[int]
    poses: np.ndarray
    urdf_links: list[tuple[str, int]]

    def names_to_rows(self, urdf: bool) -> dict[str, int]:
        if not urdf:
            return self.rows
        rows = dict(self.rows)
        rows.update(self.urdf_links)
        return rows


@dataclass
class LinkContents:
    """Each link's inertial and shapes, a row per link (``index``: link name -> row).

    ``inertial``: None for a link with no element behind it (made by an approximation),
    else the row of its mass (``masses``), frame in the link (``inertial_frames``, or None
    in ``no_frame`` when it is relative to a frame that does not resolve) and tensor
    (``tensors``: ixx, ixy, ixz, iyy, iyz, izz). ``shape_spans[kind]``: per link, the
    start and end of the rows of ``shape_frames`` and ``signatures`` holding its visuals
    (or collisions)."""
    index: dict[str, int] = field(default_factory=dict)
    has_element: list[bool] = field(default_factory=list)
    masses: list[float] = field(default_factory=list)
    inertial_frames: np.ndarray = field(default_factory=lambda: np.zeros((0, 7)))
    tensors: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))
    no_frame: set[int] = field(default_factory=set)
    shape_spans: dict[str, list[int]] = field(default_factory=dict)
    shape_frames: np.ndarray = field(default_factory=lambda: np.zeros((0, 7)))
    signatures: list[tuple] = field(default_factory=list)
    no_shape_frame: set[int] = field(default_factory=set)

    def inertial(self, name: str) -> tuple | None:
        """``(mass, frame in the link, 3x3 tensor)`` of a link, None without an element."""
        row = self.index.get(name)
        if row is None or not self.has_element[row]:
            return None
        ixx, ixy, ixz, iyy, iyz, izz = self.tensors[row]
        tensor = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        frame = None if row in self.no_frame else row_pose(self.inertial_frames[row])
        return self.masses[row], frame, tensor

    def shapes(self, name: str, kind: str) -> list[tuple[Pose | None, tuple]]:
        """``(pose in the link, geometry signature)`` of each visual (``kind``
        ``visuals``) or collision of a link with a geometry."""
        row = self.index.get(name)
        if row is None:
            return []
        spans = self.shape_spans[kind]
        return [(None if i in self.no_shape_frame else row_pose(self.shape_frames[i]),
                 self.signatures[i]) for i in range(spans[2 * row], spans[2 * row + 1])]


@dataclass
class Digest:
    """Everything ``urdf-sdf diff`` compares of one description (see the module)."""
    format: str
    static: bool
    links: list[str]
    roots: list[str]
    frames: set[str]
    frame_made_links: set[str]
    joint_table: JointTable
    contents: LinkContents
    plan: CompactPlan
    pose_rows: PoseRows
    notes: list = field(default_factory=list)  # Description.notes (a sampled mesh)
    # core.diff.attributes.carried_attributes: by owner and path, and how names are written.
    attributes: tuple[Carried, dict[str, str]] = field(default_factory=lambda: ({}, {}))

    @property
    def joints(self) -> dict[str, JointDigest]:
        """Joint name -> :class:`JointDigest`, made when first asked for (once the
        models are gone)."""
        if "_joints" not in self.__dict__:
            self.__dict__["_joints"] = self.joint_table.records()
        return self.__dict__["_joints"]


class BodyFrames:
    """Link frames at the zero configuration, by link name, as arrays (a pose is made
    when asked for): ``positions`` ``(rows, 3)`` and ``rotations`` ``(rows, 4)``, a row
    per link of ``rows``."""

    def __init__(self, rows: dict[str, int], positions: np.ndarray, rotations: np.ndarray):
        self.rows, self.positions, self.rotations = rows, positions, rotations

    def __contains__(self, name: str) -> bool:
        return name in self.rows

    def __getitem__(self, name: str) -> Pose:
        row = self.rows[name]
        return Pose(tuple(self.positions[row].tolist()), tuple(self.rotations[row].tolist()))

    def get(self, name: str, default: Pose) -> Pose:
        return self[name] if name in self.rows else default


def row_pose(row: np.ndarray) -> Pose:
    """The pose of a ``(7,)`` row (position, quaternion), with the floats it was made of."""
    values = row.tolist()
    return Pose(tuple(values[:3]), tuple(values[3:]))


def digest(description, static: bool, welds: list, free_bodies: list) -> Digest:
    """The digest of a ``core.diff.compare.Description``; ``static``, ``welds`` and
    ``free_bodies``: what ``core.diff.compare`` finds of it (:func:`core.diff.compare.is_static`,
    :func:`core.diff.compare.world_welds`, :func:`core.diff.compare.free_body_joints`)."""
    tree = description.tree
    plan = compact_plan(tree, description.plan)
    return Digest(format=description.result.document.format, static=static,
                  links=list(tree.links), roots=tree.roots, frames=set(description.frames),
                  frame_made_links=description.frame_made_links(),
                  joint_table=joint_table(description, welds, free_bodies),
                  contents=link_contents(description), plan=plan,
                  pose_rows=pose_rows(description, plan), notes=list(description.notes),
                  attributes=carried_attributes(description))


def joint_table(description, welds: list, free_bodies: list) -> JointTable:
    """The joints of ``description.joints`` (the last joint of a name) as a
    :class:`JointTable`."""
    welded = {id(joint) for joint in welds}
    free = {id(joint) for joint in free_bodies}
    names: list[str] = []
    types: list[str] = []
    parents: list[str] = []
    children: list[str] = []
    axisless: set[int] = set()
    limitless: set[int] = set()
    mimics: dict[int, Mimic] = {}
    dynamics: dict[int, Dynamics] = {}
    weld: set[int] = set()
    free_body: set[int] = set()
    X_PJ, axes, limits = array("d"), array("d"), array("d")
    limit_none: list[bool] = []
    for i, (name, joint) in enumerate(description.joints.items()):
        names.append(name)
        types.append(sys.intern(joint.type))
        parents.append(joint.parent)
        children.append(joint.child)
        X_PJ.extend(joint.X_PJ.position)
        X_PJ.extend(joint.X_PJ.rotation)
        axes.extend(joint.axes[0] if joint.axes else (0.0, 0.0, 0.0))
        if not joint.axes:
            axisless.add(i)
        element = joint_element(joint.element)
        if element.limit is None:
            limitless.add(i)
        values = element.limit or (None,) * 4
        limits.extend(0.0 if value is None else value for value in values)
        limit_none.extend(value is None for value in values)
        if element.mimic is not None:
            mimics[i] = element.mimic
        if element.dynamics != NO_DYNAMICS:
            dynamics[i] = element.dynamics
        if id(joint) in welded:
            weld.add(i)
        if id(joint) in free:
            free_body.add(i)
    return JointTable(names, types, parents, children,
                      np.frombuffer(X_PJ, dtype=float).reshape(-1, 7).copy(),
                      np.frombuffer(axes, dtype=float).reshape(-1, 3).copy(), axisless,
                      np.frombuffer(limits, dtype=float).reshape(-1, 4).copy(),
                      np.array(limit_none, dtype=np.bool_).reshape(-1, 4), limitless, mimics,
                      weld, free_body, dynamics)


def joint_element(element) -> JointElement:
    limit = getattr(element, "limit", None)
    mimic = getattr(element, "mimic", None)
    dynamics = getattr(element, "dynamics", None)
    return JointElement(
        None if limit is None else Limit(limit.lower, limit.upper, limit.effort,
                                         limit.velocity),
        None if mimic is None else Mimic(mimic.joint, mimic.multiplier, mimic.offset),
        NO_DYNAMICS if dynamics is None else Dynamics(dynamics.damping or 0.0,
                                                      dynamics.friction or 0.0))


def pose_rows(description, plan: CompactPlan) -> PoseRows:
    """What ``Description.pose_rows`` computes, without keeping a pose object per row."""
    rows = dict(plan.rows)
    sources: list[int] = []
    poses: list[Pose] = []
    urdf_links: list[tuple[str, int]] = []
    for name, (link, X_LF) in description.frames.items():
        if link in rows:
            sources.append(rows[link])
            poses.append(X_LF)
            rows[name] = plan.size + len(sources) - 1
    for joint in description.tree.joints:
        if joint.child in rows:
            sources.append(rows[joint.child])
            poses.append(joint.X_JC.inverse())
            row = plan.size + len(sources) - 1
            rows["joint " + joint.name] = row
            urdf_links.append((joint.child, row))
    return PoseRows(rows, sources, pose_rows_array(poses), urdf_links)


def default_inertial(format: str) -> Inertial:
    """What a link without ``<inertial>`` means in a format: no mass at all in URDF (the
    URDF specification), mass 1 with a unit inertia at the link origin in SDFormat (its
    specification's defaults)."""
    if format == "urdf":
        return Inertial(mass=0.0, ixx=0.0, iyy=0.0, izz=0.0)
    return Inertial()


class _Rows:
    """Growing ``(n, 7)`` pose rows, None marking a pose that does not resolve."""

    def __init__(self):
        self.flat = array("d")
        self.count = 0
        self.missing: set[int] = set()

    def add(self, pose: Pose | None) -> None:
        if pose is None:
            self.missing.add(self.count)
            self.flat.extend((0.0,) * 7)
        else:
            self.flat.extend(pose.position)
            self.flat.extend(pose.rotation)
        self.count += 1

    def array(self) -> np.ndarray:
        return np.frombuffer(self.flat, dtype=float).reshape(-1, 7).copy()


def link_contents(description) -> LinkContents:
    """Inertials and shapes of every link of the tree."""
    contents = LinkContents(shape_spans={"visuals": [], "collisions": []})
    frames, shape_frames, tensors = _Rows(), _Rows(), array("d")
    fallback = default_inertial(description.result.document.format)
    signatures: dict[tuple, tuple] = {}  # one signature object for equal signatures
    prefix = description.scope.prefix
    for name in description.tree.links:
        contents.index[name] = len(contents.has_element)
        link = description.link(name)
        contents.has_element.append(link is not None)
        inertial = link.inertial if link is not None and link.inertial is not None \
            else fallback
        contents.masses.append(inertial.mass)
        frames.add(description.result.pose_in_link(prefix + name, inertial.pose)
                   if link is not None else Pose())
        tensors.extend((inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz,
                        inertial.izz))
        for kind, spans in contents.shape_spans.items():
            spans.append(shape_frames.count)
            for shape in getattr(link, kind) if link is not None else ():
                if shape.geometry is None:
                    continue
                shape_frames.add(description.result.pose_in_link(prefix + name, shape.pose))
                signature = geometry_signature(shape.geometry,
                                               mesh_key(description, shape.geometry))
                contents.signatures.append(signatures.setdefault(signature, signature))
            spans.append(shape_frames.count)
    contents.inertial_frames, contents.no_frame = frames.array(), frames.missing
    contents.tensors = np.frombuffer(tensors, dtype=float).reshape(-1, 6).copy()
    contents.shape_frames, contents.no_shape_frame = shape_frames.array(), shape_frames.missing
    return contents


def pack(digest: Digest) -> bytes:
    """A digest as one bytes object, to keep while the other file loads.

    Why not the digest itself: its objects are made while the model is alive, in the same
    memory pools as the model's own, and each one left alive would keep its pool (and the
    arena around it) from returning to the system once the model is gone, so that the
    next model would have to find room beside the whole of the first one's memory. Packed,
    nothing of the digest lives among the model's objects."""
    return pickle.dumps(digest, protocol=pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> Digest:
    return pickle.loads(packed)
