"""``urdf-sdf diff --lumped``: does a ``urdf2sdf --lump-fixed`` output hold what its source
held?

Lumping merges each link hanging on a fixed joint into the first ancestor that is kept,
so that a *rigid group* (a kept link and the links fixed below it) becomes one link. Here
the groups are found from the two digests themselves (:func:`find_lumps`): on either
side, a link on a fixed joint (not from ``world``) that the other side has no link of is
taken as lumped into its nearest ancestor that is not, and its joint with it, unless it
is a massless, shapeless link standing for a frame of the other side (a tool frame, as
plain ``diff`` takes it). So is a link with a body where the other side has only a link
standing for a frame: ``sdf2urdf``'s reading of a lumped SDF, whose frames come back as
massless links. Two files with the same links have no group, and compare as
plain ``diff`` compares them.

Per group (:func:`compare_lumps`), in the kept link's own frame on each side, so that a
moved kept link is told as the pose difference it is and not again here:

* the mass is the sum of the members' masses;
* the centre of mass the mass-weighted mean of theirs (not compared for a group of no
  mass, where it means nothing);
* the inertia tensor about that centre the sum of each member's tensor, turned into the
  kept link's frame and moved there with the parallel axis theorem;
* the visuals and collisions those of every member, each at its pose in the kept link
  (in any order);
* each lumped link and joint has a frame of its name on the other side (or a link and
  joint of that name, from ``sdf2urdf``); the frame's pose is compared where every
  frame's is, a lumped joint's frame against the joint's own frame
  (:func:`with_joint_frames`).

Each finding is a difference of kind ``lumped`` (a cause: it names the kept link, or the
link or joint whose frame is missing) with the amount and its unit; what the groups
account for (the lumped links and joints, the kept links' inertials and shapes) is left
out of the other comparisons (:class:`Lumps`). The arithmetic is over arrays, linear in
the number of links.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from urdf_sdf.core.base.inertia import INERTIA_KEYS
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.diff.difference import Difference, fmt
from urdf_sdf.core.diff.digest import BodyFrames, Digest
from urdf_sdf.core.diff.inertials import has_inertial, inertials_in_root, rotation_matrices
from urdf_sdf.core.diff.shapes import KINDS, match_shapes

# Each inertia key with its place in the tensor.
TENSOR_ENTRIES = tuple(zip(INERTIA_KEYS, ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))))


@dataclass
class SideLumps:
    """What one side lumps: ``kept`` maps each lumped link to the link it was merged into,
    ``joints`` each lumped (fixed) joint to its child link, and ``groups`` each kept link
    to its members (itself first, then its lumped links in the digest's link order)."""
    kept: dict[str, str] = field(default_factory=dict)
    joints: dict[str, str] = field(default_factory=dict)
    groups: dict[str, list[str]] = field(default_factory=dict)

    def kept_link(self, link: str) -> str:
        """The link that stands for ``link`` once lumped: its kept link, or itself."""
        return self.kept.get(link, link)


@dataclass
class Lumps:
    """The lumping of both sides (A, B) and what the other comparisons leave to it."""
    sides: tuple[SideLumps, SideLumps] = (SideLumps(), SideLumps())

    @property
    def lumped_links(self) -> set[str]:
        return set(self.sides[0].kept) | set(self.sides[1].kept)

    @property
    def lumped_joints(self) -> set[str]:
        return set(self.sides[0].joints) | set(self.sides[1].joints)

    @property
    def grouped_links(self) -> set[str]:
        """The links whose inertial and shapes are compared as a group's (the kept and
        the lumped ones), not link by link."""
        return set(self.sides[0].groups) | set(self.sides[1].groups) | self.lumped_links


NO_LUMPS = Lumps()


def find_lumps(da: Digest, db: Digest) -> Lumps:
    """Each side's lumping against the other (see the module)."""
    return Lumps((lumped_side(da, db), lumped_side(db, da)))


def lumped_side(mine: Digest, theirs: Digest) -> SideLumps:
    """The links of ``mine`` on a fixed joint (not from ``world``) that ``theirs`` has no
    link of, or only a massless, shapeless link standing for a frame (as ``sdf2urdf``
    writes a lumped SDF's frames) where mine weighs or has shapes, each with its kept
    link: the nearest ancestor that is not lumped (a link on a loop of fixed joints has
    none, and is not lumped). A link of ``mine`` that stands for a
    frame of ``theirs`` (massless and shapeless, as every link below it) is not taken as
    lumped: it weighs nothing, and plain ``diff`` compares it with the frame."""
    links = set(mine.links)
    # The links theirs keeps as links: all but those standing for a frame where mine
    # has a body.
    kept_there = set(theirs.links) - (theirs.frame_made_links - mine.frame_made_links)
    frames = mine.frame_made_links & theirs.frames  # compared as plain diff compares them
    parents: dict[str, str] = {}
    side = SideLumps()
    for joint in mine.joints.values():
        if joint.type == "fixed" and joint.child in links and joint.parent in links \
                and joint.child not in kept_there and joint.child not in frames \
                and not joint.weld:
            parents[joint.child] = joint.parent
            side.joints[joint.name] = joint.child
    looped: set[str] = set()  # links whose walk up ends in a loop of fixed joints
    for link in parents:  # each link walked up once: its kept link is then known
        path: dict[str, None] = {}
        while link in parents and link not in side.kept and link not in path \
                and link not in looped:
            path[link] = None
            link = parents[link]
        if link in path or link in looped:  # no ancestor to lump into: compared as is
            looped.update(path)
            continue
        kept = side.kept.get(link, link)
        side.kept.update((lumped, kept) for lumped in path)
    side.joints = {joint: child for joint, child in side.joints.items() if child in side.kept}
    for link in mine.links:  # the digest's order: the same groups every time
        if link in side.kept:
            side.groups.setdefault(side.kept[link], [side.kept[link]]).append(link)
    return side


def with_joint_frames(digest: Digest, side: SideLumps, other: Digest) -> Digest:
    """``digest`` with each lumped joint's frame also named as the joint (the name of the
    frame the lumper writes for it), where ``other`` has a frame of that name and no name
    of ``digest`` takes it; the same digest when there is none."""
    rows = digest.pose_rows.rows
    named = {joint: rows["joint " + joint] for joint in side.joints
             if joint in other.frames and joint not in rows and "joint " + joint in rows}
    if not named:
        return digest
    pose_rows = replace(digest.pose_rows, rows={**rows, **named})
    return replace(digest, pose_rows=pose_rows)


def compare_lumps(da: Digest, db: Digest, lumps: Lumps, bodies: tuple[BodyFrames, BodyFrames],
                  tol: float, out: list[Difference]) -> None:
    """The frames, inertials and shapes of every rigid group of either side against the
    other side's kept link (``bodies``: each side's link frames at the zero configuration,
    :class:`core.diff.digest.BodyFrames`)."""
    digests = (da, db)
    for at, side in enumerate(lumps.sides):
        other = digests[1 - at]
        compare_frames(side, other, "AB"[1 - at], out)
        kept = [link for link in side.groups if link in other.links and
                not (at == 1 and link in lumps.sides[0].groups)]  # a group of both: once
        if not kept:
            continue
        label = "AB"[at]
        mine = ([side.groups[link] for link in kept], digests[at], bodies[at])
        theirs = ([lumps.sides[1 - at].groups.get(link, [link]) for link in kept], other,
                  bodies[1 - at])
        ordered = (mine, theirs) if at == 0 else (theirs, mine)
        compare_group_inertials(kept, ordered, label, side, tol, out)
        compare_group_shapes(kept, ordered, label, side, tol, out)


def compare_frames(side: SideLumps, other: Digest, label: str, out: list[Difference]) -> None:
    """A frame on the other side (``label``) for each lumped link and joint (or the link
    and joint standing for it, in a URDF)."""
    for joint, link in side.joints.items():
        kept = side.kept[link]
        for what, name, others in (("link", link, other.links), ("joint", joint, other.joints)):
            if name not in other.frames and name not in others:
                out.append(Difference("lumped", name, f"{what} {name}, lumped into {kept}, "
                                      f"has no frame of its name in {label}", "frame"))


def group_text(label: str, side: SideLumps, kept: str) -> str:
    """``A: base + 2 lumped links``."""
    count = len(side.groups[kept]) - 1
    return f"{label}: {kept} + {count} lumped link{'' if count == 1 else 's'}"


def compare_group_inertials(kept: list[str], sides, label: str, side: SideLumps, tol: float,
                            out: list[Difference]) -> None:
    """Mass, centre of mass and inertia tensor of each group on both sides (``sides``:
    A's and B's ``(members per group, digest, bodies)``), in the kept link's frame."""
    (ma, ca, ta, present_a), (mb, cb, tb, present_b) = (group_inertials(*s) for s in sides)
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, a difference
        centre_gap = np.abs(ca - cb).max(axis=1).tolist()
        tensor_gap = np.abs(ta - tb).max(axis=(1, 2)).tolist()
    for g, name in enumerate(kept):
        if not (present_a[g] and present_b[g]):
            continue
        where = f"in link {name}'s frame; {group_text(label, side, name)}"
        mass_a, mass_b = float(ma[g]), float(mb[g])
        if not abs(mass_a - mass_b) <= tol:
            out.append(Difference("lumped", name, f"mass {mass_a!r} kg in A, {mass_b!r} kg in B "
                                  f"(differs by {abs(mass_a - mass_b):.3g} kg; "
                                  f"{group_text(label, side, name)})", "mass"))
        if mass_a != 0 and mass_b != 0 and not centre_gap[g] <= tol:
            distance = float(np.linalg.norm(ca[g] - cb[g]))
            out.append(Difference("lumped", name, f"centre of mass {fmt(ca[g])} m in A, "
                                  f"{fmt(cb[g])} m in B (moved {distance:.3g} m; {where})",
                                  "centre of mass"))
        if not tensor_gap[g] <= tol:
            changed = ", ".join(f"{key} {ta[g][i, j]:.6g} -> {tb[g][i, j]:.6g}"
                                for key, (i, j) in TENSOR_ENTRIES
                                if not abs(ta[g][i, j] - tb[g][i, j]) <= tol)
            out.append(Difference("lumped", name, f"inertia about the centre of mass differs by "
                                  f"up to {tensor_gap[g]:.3g} kg m^2: {changed} kg m^2 "
                                  f"({where})", "inertia"))


def group_inertials(groups: list[list[str]], digest: Digest, bodies: BodyFrames):
    """Per group (its kept link first): total mass ``(g,)``, centre of mass ``(g, 3)`` and
    inertia tensor about it ``(g, 3, 3)``, in the kept link's frame, and whether any member
    has an inertial (a link with an element behind it)."""
    names, owner = [], []
    for g, members in enumerate(groups):
        for name in members:
            if has_inertial(digest, name, bodies):
                names.append(name)
                owner.append(g)
    count = len(groups)
    present = [False] * count
    for g in owner:
        present[g] = True
    own = inertials_in_root(digest, names, bodies)
    kept_rows = [bodies.rows[groups[g][0]] for g in owner]
    rotation = rotation_matrices(bodies.rotations[kept_rows])
    back = rotation.transpose(0, 2, 1)  # reference -> kept link
    masses = np.array(own.masses, dtype=float)
    with np.errstate(all="ignore"):  # a huge or NaN number stays what it is, no warning
        centres = np.einsum("nij,nj->ni", back, own.centres - bodies.positions[kept_rows])
        tensors = back @ own.tensors @ rotation
        total = np.zeros(count)
        np.add.at(total, owner, masses)
        weighted = np.zeros((count, 3))
        np.add.at(weighted, owner, masses[:, None] * centres)
        safe = np.where(total == 0, 1.0, total)
        centre = np.where((total == 0)[:, None], 0.0, weighted / safe[:, None])
        d = centres - centre[owner]
        shift = (d * d).sum(axis=1)[:, None, None] * np.eye(3) - d[:, :, None] * d[:, None, :]
        tensor = np.zeros((count, 3, 3))
        np.add.at(tensor, owner, tensors + masses[:, None, None] * shift)
    return total, centre, tensor, present


def compare_group_shapes(kept: list[str], sides, label: str, side: SideLumps, tol: float,
                         out: list[Difference]) -> None:
    """Each group's visuals and collisions, at their poses in the kept link, against the
    other side's in any order (:func:`core.diff.shapes.match_shapes`)."""
    found: list[Difference] = []
    for g, name in enumerate(kept):
        for kind in KINDS:
            shapes = [group_shapes(groups[g], digest, bodies, kind)
                      for groups, digest, bodies in sides]
            match_shapes(name, kind, shapes[0], shapes[1], tol, found)
    out.extend(Difference("lumped", d.name, f"{d.message} ({group_text(label, side, d.name)})",
                          d.property) for d in found)


def group_shapes(members: list[str], digest: Digest, bodies: BodyFrames, kind: str) -> list:
    """``(geometry kind, pose in the kept link, signature)`` of each shape of ``kind`` of a
    group's members (its kept link first)."""
    base = bodies[members[0]].inverse()
    shapes: list[tuple[str, Pose, tuple]] = []
    for member in members:
        frame = base * bodies[member]
        for local, signature in digest.contents.shapes(member, kind):
            assert local is not None, "a loaded model's shape poses resolve"
            shapes.append((signature[0], frame * local, signature))
    return shapes
