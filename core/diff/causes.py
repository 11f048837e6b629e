"""Which differences ``urdf-sdf diff`` finds are causes, and which follow from them.

One edited ``rpy`` on a joint moves every frame, centre of mass, inertia, shape and axis
below it: ``core.diff.compare`` finds each of those in the reference frame. Here each such
difference is traced to the elements upstream of it in the tree (its link's chain of
joints, then the element itself) whose *own* values differ: a joint's origin (its frame
in the parent joint's frame when link poses are compared at joint frames, as with a
URDF; else in the parent link), the child link's pose in the joint frame, the axis in the
joint frame, the type or mimic relation; a link's inertial (origin, tensor as written)
and shapes (origin, geometry); a frame's pose in its link. Those edits are the causes,
written in the file's own terms (:func:`core.diff.difference.edit_text`), and the
difference is *dependent* on them: on the nearest edited joint above it (whose own frame
moved with any edit further up) and on its own edits. A joint's origin counts only when
its frame or its child link moved in the reference frame, so that a frame written
relative to another (an SDF link whose pose changed and whose children kept theirs)
blames only what moved.

A difference that no own value explains (a mass, a limit, a missing link, a change of
type) is a cause as it is. :func:`attribute` returns the causes first, then the
dependent differences, each naming its causes by their place in the list.
"""
from __future__ import annotations

import math

from urdf_sdf.core.base.inertia import INERTIA_KEYS
from urdf_sdf.core.base.pose import IDENTITY, Pose, pose_gap
from urdf_sdf.core.diff.difference import DEPENDENT, Difference, angle_between, edit_text, plain
from urdf_sdf.core.diff.digest import Digest, row_pose
from urdf_sdf.core.diff.shapes import KINDS, signature_change


class Side:
    """What the attribution reads of one digest: each link's parent joint, each joint's
    child link pose in its frame, each explicit frame's link and pose in it, all expressed
    in the link's joint frame when links are compared at their joint frames."""

    def __init__(self, digest: Digest, at_joint_frames: bool):
        self.digest = digest
        self.joints = digest.joints
        self.parent_joint = {j.child: j for j in self.joints.values()}
        self.at_joint_frames = at_joint_frames
        self.row_link = {row: name for name, row in digest.plan.rows.items()}
        self.child_frames: dict[str, Pose] = {}  # joint name -> X_JC

    def derived(self, name: str) -> tuple[str, Pose] | None:
        """The link a derived pose row (a frame, ``joint NAME``) hangs on, and its pose there."""
        rows = self.digest.pose_rows
        row = rows.rows.get(name)
        if row is None or row < self.digest.plan.size:
            return None
        at = row - self.digest.plan.size
        return self.row_link.get(rows.sources[at], ""), row_pose(rows.poses[at])

    def X_JC(self, joint) -> Pose:
        """The child link's frame in the joint frame (kept once asked for)."""
        if joint.name not in self.child_frames:
            found = self.derived("joint " + joint.name)
            self.child_frames[joint.name] = found[1].inverse() if found is not None \
                else IDENTITY
        return self.child_frames[joint.name]

    def in_joint_frame(self, link: str, pose: Pose) -> Pose:
        """``pose`` (in ``link``) in the frame the comparison takes for the link."""
        joint = self.parent_joint.get(link)
        if not self.at_joint_frames or joint is None:
            return pose
        return self.X_JC(joint) * pose

    def origin(self, joint) -> Pose:
        """A joint's frame in its parent's (joint) frame: a URDF joint's ``<origin>``."""
        return self.in_joint_frame(joint.parent, joint.X_PJ)


class Attribution:
    """The causes of the differences of two digests (see the module)."""

    def __init__(self, differences: list[Difference], da: Digest, db: Digest, tol: float,
                 at_joint_frames: bool):
        self.a, self.b = Side(da, at_joint_frames), Side(db, at_joint_frames)
        self.tol = tol
        self.sdf_terms = da.format != "urdf" and not at_joint_frames
        self.moved = {d.name for d in differences if d.kind == "pose"}
        self.axes_turned = {d.name for d in differences if d.property == "axis"}
        self.nearest: dict[str, tuple[Difference, ...]] = {}  # link -> upstream(link)
        self.edits: dict[str, list[Difference]] = {}  # joint name -> joint_edits(name)
        # A joint's own findings that move what hangs below it: type, mimic.
        self.motion_findings: dict[str, list[Difference]] = {}
        for d in differences:
            if d.kind == "joints" and d.property in ("type", "mimic"):
                self.motion_findings.setdefault(d.name, []).append(d)

    def explain(self, difference: Difference) -> list[Difference]:
        """The causes of one difference; none when it is a cause itself."""
        kind, name, prop = difference.kind, difference.name, difference.property
        if kind == "pose":
            if name.startswith("joint ") and name[6:] in self.a.joints:
                joint = self.a.joints[name[6:]]
                # A joint frame is attached to the child link: it turns with its joint.
                return self.upstream(joint.child)
            if name in self.a.parent_joint or name in self.a.digest.plan.rows:
                return self.upstream(name)
            return self.frame_edits(name)
        if kind == "joints" and prop == "axis" and name in self.a.joints:
            return self.upstream(self.a.joints[name].parent) + self.joint_edits(name)
        if kind == "inertial" and prop in ("centre of mass", "inertia"):
            return self.upstream(name) + self.inertial_edits(name)
        if kind == "geometry" and prop in KINDS:
            return self.upstream(name) + self.shape_edits(name, prop)
        return []

    def upstream(self, link: str) -> list[Difference]:
        """The edits of the nearest joint with edits on the chain from the root down to
        ``link`` (that joint's own frame moved with any edit above it). Each link's answer is
        kept, so that the whole tree costs one walk, however deep."""
        path: list[str] = []
        seen: set[str] = set()
        while link not in self.nearest and link in self.a.parent_joint and link not in seen:
            seen.add(link)
            path.append(link)
            link = self.a.parent_joint[link].parent
        found = self.nearest.get(link, ())
        for name in reversed(path):
            found = tuple(self.joint_edits(self.a.parent_joint[name].name)) or found
            self.nearest[name] = found
        return list(found)

    def joint_edits(self, name: str) -> list[Difference]:
        """A joint's own edits: its origin (when its frame or child moved), its child
        link's pose in its frame (when link frames are compared as they are), its axis,
        type and mimic relation (which move what hangs below)."""
        if name not in self.edits:
            self.edits[name] = self.find_joint_edits(name)
        return self.edits[name]

    def find_joint_edits(self, name: str) -> list[Difference]:
        ja, jb = self.a.joints.get(name), self.b.joints.get(name)
        if ja is None or jb is None:
            return []
        out: list[Difference] = []
        if "joint " + name in self.moved or ja.child in self.moved or name in self.axes_turned:
            before, after = self.a.origin(ja), self.b.origin(jb)
            if not pose_gap(before, after) <= self.tol:
                term = "pose in the parent link" if self.sdf_terms else "origin"
                out.append(Difference("joint", name, edit_text(term, before, after, self.tol),
                                      property="origin"))
            if not self.a.at_joint_frames:
                before, after = self.a.X_JC(ja), self.b.X_JC(jb)
                if not pose_gap(before, after) <= self.tol:
                    out.append(Difference("link", ja.child, edit_text(
                        f"pose in joint {name}'s frame", before, after, self.tol),
                        property="pose"))
        out.extend(self.motion_findings.get(name, ()))
        if ja.axis is not None and jb.axis is not None and \
                not math.dist(ja.axis, jb.axis) <= self.tol:
            out.append(Difference("joint", name, f"axis {plain(ja.axis)} -> {plain(jb.axis)} "
                                  f"(in the joint frame; turned {angle_between(ja.axis, jb.axis)})",
                                  property="axis"))
        return out

    def frame_edits(self, name: str) -> list[Difference]:
        found_a, found_b = self.a.derived(name), self.b.derived(name)
        if found_a is None or found_b is None:
            return []
        link = found_a[0]
        before = self.a.in_joint_frame(link, found_a[1])
        after = self.b.in_joint_frame(found_b[0], found_b[1])
        out = self.upstream(link)
        if not pose_gap(before, after) <= self.tol:
            out.append(Difference("frame", name, edit_text(f"pose in link {link}", before,
                                                           after, self.tol), property="pose"))
        return out

    def inertial_edits(self, link: str) -> list[Difference]:
        """A link's inertial origin and tensor (as written) where they differ."""
        ia = self.a.digest.contents.inertial(link)
        ib = self.b.digest.contents.inertial(link)
        if ia is None or ib is None:
            return []
        out = []
        if ia[1] is not None and ib[1] is not None:
            before, after = self.a.in_joint_frame(link, ia[1]), self.b.in_joint_frame(link,
                                                                                      ib[1])
            if not pose_gap(before, after) <= self.tol:
                out.append(Difference("link", link, edit_text("inertial origin", before, after,
                                                              self.tol),
                                      property="inertial origin"))
        changed = [f"{key} {ia[2].flat[at]:.6g} -> {ib[2].flat[at]:.6g}"
                   for key, at in zip(INERTIA_KEYS, (0, 1, 2, 4, 5, 8))
                   if not abs(ia[2].flat[at] - ib[2].flat[at]) <= self.tol]
        if changed:
            out.append(Difference("link", link, "inertia " + ", ".join(changed) + " kg m^2",
                                  property="inertia"))
        return out

    def shape_edits(self, link: str, kind: str) -> list[Difference]:
        """Each of a link's shapes of ``kind`` against the other side's in the same place:
        its origin and geometry where they differ."""
        sa = self.a.digest.contents.shapes(link, kind)
        sb = self.b.digest.contents.shapes(link, kind)
        out = []
        for i, ((xa, ga), (xb, gb)) in enumerate(zip(sa, sb)):
            label = f"{kind[:-1]}[{i}] ({ga[0]})"
            if xa is not None and xb is not None:
                before, after = self.a.in_joint_frame(link, xa), self.b.in_joint_frame(link, xb)
                if not pose_gap(before, after) <= self.tol:
                    out.append(Difference("link", link, f"{label} " + edit_text(
                        "origin", before, after, self.tol), property=kind))
            change = signature_change(ga, gb, self.tol)
            if change:
                out.append(Difference("link", link, f"{label} {change}", property=kind))
        return out


def attribute(differences: list[Difference], da: Digest, db: Digest, tol: float,
              at_joint_frames: bool) -> list[Difference]:
    """``differences`` (of ``da`` and ``db``, as :func:`core.diff.compare.compare_digests`
    finds them) as causes first, then the dependent ones naming their causes."""
    if not differences:
        return []
    attribution = Attribution(differences, da, db, tol, at_joint_frames)
    causes: dict[Difference, int] = {}
    dependents: list[Difference] = []
    for difference in differences:
        found = attribution.explain(difference)
        if not found:
            causes.setdefault(difference, len(causes))
            continue
        places = tuple(dict.fromkeys(causes.setdefault(c, len(causes)) for c in found))
        dependents.append(Difference(difference.kind, difference.name, difference.message,
                                     difference.property, DEPENDENT, places))
    return list(causes) + dependents
