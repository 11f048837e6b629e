"""Are two robot descriptions equivalent? (``urdf-sdf diff A B``)

Compares, in any mix of URDF and SDFormat:

* the named frames: links, and explicit frames, matched by name across links and
  frames (a URDF massless link made from an SDF frame matches that frame);
* joints: types, parent/child links, axes (expressed in the reference frame at
  the zero configuration), limits, dynamics and mimic relations (none on a fixed joint, which
  does not move); a fixed joint that only
  holds a frame-made link on one side is not a difference;
* every named frame's pose at the zero configuration and at ``configurations``
  seeded random configurations;
* inertials (mass, centre of mass and inertia tensor in the reference frame), each
  format's default for a link without one (URDF: no mass; SDFormat: mass 1, unit inertia);
* visual and collision geometry and poses, per link in order;
* the attributes URDF does not define that each side carries (:mod:`core.diff.attributes`);
* with ``lumped`` (``urdf-sdf diff --lumped``), a ``--lump-fixed`` output against its
  source: each rigid group's sums against the kept link, and a frame for each lumped
  link and joint (:mod:`core.diff.lumped`);

each written default equal to the default left out (a mesh scale of 1 1 1, zero dynamics,
a zero origin, each format's axis and limits). Joints are compared in
:mod:`core.diff.joints`, inertials in :mod:`core.diff.inertials`, shapes in
:mod:`core.diff.shapes`; :mod:`core.diff.causes` then sorts what differs into causes (an
element's own edited values) and the differences that follow from them.

Poses are compared relative to a common reference: the first root link of A when
B has a link of that name, else each model's own frame. A link's pose is its joint frame's
when either file is a URDF, or when one was made from the other through URDF (``through_urdf``:
a round trip), as a URDF link frame always is its joint frame (:func:`joint_frame_rule`).

Each file is reduced to a digest of what is compared (:mod:`core.diff.digest`) while it
is loaded; :func:`diff_files` (and ``urdf-sdf diff``) load the second file only once the
first one's model is gone, so that two large models are never held at once.

Use from Python (e.g. in a ROS package's pytest)::

    from urdf_sdf.core.diff.compare import diff_files
    assert not diff_files("robot.urdf", "robot.sdf")
"""
from __future__ import annotations

import gc
import math
import random
from collections.abc import Callable

import numpy as np

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.model import Mimic
from urdf_sdf.core.base.pose import IDENTITY, Pose, pose_gap
from urdf_sdf.core.diff.attributes import compare_attributes
from urdf_sdf.core.diff.causes import attribute
from urdf_sdf.core.diff.difference import (
    NOT_COMPARED,
    Difference,
    motion,
    pose_text,
)
from urdf_sdf.core.diff.digest import BodyFrames, Digest, PoseRows, digest, pack, row_pose, unpack
from urdf_sdf.core.diff.inertials import compare_inertials
from urdf_sdf.core.diff.joints import compare_joints
from urdf_sdf.core.diff.lumped import NO_LUMPS, Lumps, compare_lumps, find_lumps, with_joint_frames
from urdf_sdf.core.diff.shapes import compare_shapes
from urdf_sdf.core.graph import FrameGraph, Kind, Scope, relative_pose
from urdf_sdf.core.kinematics.batch import (
    SLICE,
    ForwardPlan,
    add_derived_rows,
    batch_inverse,
    batch_relative_rotation,
    forward_compact,
    forward_plan,
    sliced_compose,
)
from urdf_sdf.core.kinematics.tree import KinematicTree, build_tree
from urdf_sdf.core.loader import LoadResult, load

REVOLUTE_TYPES = ("revolute", "continuous")
# What the pose tables of one batch of configurations may take (compare_all_poses).
POSE_TABLE_BYTES = 96 * 2 ** 20


class Description:
    """What is compared of one file: its tree, named frames and link contents."""

    def __init__(self, result: LoadResult, model: str | None = None):
        self.result = result
        graph = result.graph
        assert graph is not None and graph.root is not None, "a usable result (side_problem)"
        self.graph: FrameGraph = graph
        # A world of several models that --model does not choose from: its own scope.
        self.scope: Scope = graph.model_scope(model) or graph.root
        self.tree: KinematicTree = build_tree(result, self.scope)
        self.frames = self._frames()     # frame name -> (attached link, X_link_frame)
        self.joints = {joint.name: joint for joint in self.tree.joints}
        self.mesh_keys: dict[str, str | None] = {}  # mesh URI -> file digest (diff_shapes)
        self.notes: list = []  # warnings met on the way: a mesh compared by samples
        self._plan: ForwardPlan | None = None

    def _frames(self) -> dict[str, tuple[str, Pose]]:
        frames = {}
        prefix = self.scope.prefix
        for vertex in self.graph.vertices:
            if vertex.kind is not Kind.FRAME or vertex.scope is None or \
                    not vertex.scoped_name.startswith(prefix):
                continue
            link = self.graph.attached_link.get(vertex.id)
            if link is None or self.graph.vertices[link].kind is not Kind.LINK:
                continue
            X_LF = relative_pose(self.graph, vertex.id, link)
            assert X_LF is not None, "a loaded model's frames resolve"
            frames[vertex.scoped_name[len(prefix):]] = (
                self.graph.vertices[link].scoped_name[len(prefix):], X_LF)
        return frames

    def frame_made_links(self) -> set[str]:
        """URDF links that stand for SDF frames: massless, shapeless links on fixed joints
        whose children all stand for frames too (a chain of dummy links)."""
        made: set[str] = set()
        for name in reversed(self.tree.links_in_tree_order()):  # children first
            joint = self.tree.parent_joint.get(name)
            link = self.link(name)
            massless = link is not None and (link.inertial is None or link.inertial.mass == 0)
            if joint is not None and joint.type == "fixed" and massless \
                    and not link.visuals and not link.collisions \
                    and all(j.child in made for j in self.tree.children.get(name, ())):
                made.add(name)
        return made

    def link(self, name: str):
        vid = self.graph.lookup(self.scope, name)
        if vid is None:
            return None
        element = self.graph.vertices[vid].element
        return element if self.graph.vertices[vid].kind is Kind.LINK else None

    @property
    def plan(self):
        """The tree's :class:`core.kinematics.batch.ForwardPlan`, made once."""
        if self._plan is None:
            self._plan = forward_plan(self.tree)
        return self._plan


def diff_results(a: LoadResult, b: LoadResult, tol: float = 1e-9, configurations: int = 20,
                 seed: int = 0, model: str | None = None, *,
                 through_urdf: bool = False, lumped: bool = False) -> list[Difference]:
    """Differences between two loaded descriptions (see :func:`diff_files`); ``model``
    (a scoped model name) compares that model of each file that holds it, and the whole
    model of a file that is one model (a URDF, say). ``through_urdf``: one was made from
    the other through URDF (:func:`joint_frame_rule`); ``lumped``: one is the other's
    ``--lump-fixed`` output (:mod:`core.diff.lumped`)."""
    differences = unusable(a, b, model)
    if differences:
        return differences
    return compare_digests(describe(a, model), describe(b, model), tol, configurations, seed,
                           through_urdf=through_urdf, lumped=lumped)


def diff_loaded(load_a: Callable[[], LoadResult], load_b: Callable[[], LoadResult],
                tol: float = 1e-9, configurations: int = 20, seed: int = 0,
                model: str | None = None, notes: list | None = None, *,
                lumped: bool = False) -> list[Difference]:
    """:func:`diff_results` of what ``load_a()`` and ``load_b()`` return, holding one
    loaded file at a time: B is loaded once A's digest is made and A's model dropped
    (the callers must keep no reference to a result either). The warnings met on the way
    (a mesh compared by samples: ``core.diff.shapes``) are added to ``notes``."""
    problems: list[Difference] = []
    packed: list[bytes] = []
    for label, load_side in (("A", load_a), ("B", load_b)):
        result = load_side()
        problem = side_problem(label, result, model)
        if problem is not None:
            problems.append(problem)
        elif not problems:
            packed.append(pack(describe(result, model)))
        if result.graph is not None:
            result.graph.dismantle()  # freed as the result is dropped, no cycle to collect
        del result
        gc.collect()  # any other cycle, before the next file loads (gc paused then)
    if problems:
        return joined_problems(problems)
    digests = [unpack(side) for side in packed]
    if notes is not None:
        notes.extend(note for side in digests for note in side.notes)
    return compare_digests(digests[0], digests[1], tol, configurations, seed, lumped=lumped)


def describe(result: LoadResult, model: str | None = None) -> Digest:
    """The digest of the model (``model``, or the whole file) of a usable result."""
    description = Description(result, model)
    return digest(description, is_static(description), world_welds(description),
                  free_body_joints(description))


def compare_digests(da: Digest, db: Digest, tol: float = 1e-9, configurations: int = 20,
                    seed: int = 0, *, through_urdf: bool = False,
                    lumped: bool = False) -> list[Difference]:
    """The differences between two digests: the causes, then the differences that follow
    from them (:func:`core.diff.causes.attribute`), each group in the order it is found:
    static, names, joints, poses, inertials, geometry, then with ``lumped`` the rigid
    groups (:mod:`core.diff.lumped`; ``through_urdf``: :func:`joint_frame_rule`)."""
    differences: list[Difference] = []
    lumps = find_lumps(da, db) if lumped else NO_LUMPS
    if lumped:
        da, db = (with_joint_frames(da, lumps.sides[0], db),
                  with_joint_frames(db, lumps.sides[1], da))
    compare_static(da, db, differences)
    compare_names(da, db, differences, lumps)
    reference = common_reference(da, db)
    sampled = list(configurations_for(da, db, configurations, seed))
    links = forward_compact([da.plan, db.plan], sampled)
    frames = (reference_frames(da, links[0], reference[0]),
              reference_frames(db, links[1], reference[1]))
    at_joint_frames = joint_frame_rule(da, db, through_urdf)
    compare_joints(da, db, frames, tol, differences, lumps)
    compare_all_poses(da, db, sampled, links, reference, tol, differences, at_joint_frames)
    bodies = (frames[0][0], frames[1][0])
    grouped = lumps.grouped_links
    compare_inertials(da, db, bodies, tol, differences, grouped)
    compare_shapes(da, db, bodies, tol, differences, grouped)
    if lumped:
        compare_lumps(da, db, lumps, bodies, tol, differences)
    compare_attributes(da.attributes, db.attributes, set(da.links) | set(db.links), differences)
    return attribute(differences, da, db, tol, at_joint_frames)


def reference_frames(digest: Digest, links: tuple[np.ndarray, np.ndarray],
                     reference: str | None) -> tuple[BodyFrames, Pose]:
    """The link frames at the zero configuration (the first sampled one, in ``links``:
    the forward kinematics of every configuration) relative to the reference link, and
    the model frame's pose in it (where world-parented joints hang); without a reference,
    the frames as they are and the identity."""
    positions, rotations = links[0][0], links[1][0]
    rows = digest.plan.rows
    if reference is None or reference not in rows:
        return BodyFrames(rows, positions, rotations), IDENTITY
    at = rows[reference]
    base = batch_inverse(positions[at:at + 1], rotations[at:at + 1])
    positions, rotations = sliced_compose(*base, positions, rotations)
    return BodyFrames(rows, positions, rotations), row_pose(np.concatenate(base, axis=-1)[0])


def unusable(a: LoadResult, b: LoadResult, model: str | None = None) -> list[Difference]:
    """Why the two files cannot be compared at all: one does not load, or holds no model
    (a file with no model, a world or a file with only actors or lights).

    Two files that both hold no model are not reported equivalent: there is no robot to
    compare, and ``urdf-sdf diff`` (or ``assert not diff_files(...)``) must not pass on
    nothing, e.g. when a conversion lost the model on both sides. They give one
    difference saying so, rather than one per file."""
    problems = [side_problem(label, result, model) for label, result in (("A", a), ("B", b))]
    return joined_problems([problem for problem in problems if problem is not None])


def side_problem(label: str, result: LoadResult, model: str | None) -> Difference | None:
    """Why one file (``label`` A or B) cannot be compared, None when it can."""
    if not result.ok:
        first = next((d for d in result.diagnostics if d.is_error), None)
        return Difference("model", label, "cannot be loaded: " +
                          (first.format() if first else "unknown error"), NOT_COMPARED)
    if not holds_model(result):
        return Difference("model", label, "holds no model to compare", NOT_COMPARED)
    if model is not None and result.graph is not None and \
            result.graph.model_scope(model) is None:  # holds_model: there is a graph
        return Difference("model", label, f"holds no model [{model}]", NOT_COMPARED)
    return None


def joined_problems(differences: list[Difference]) -> list[Difference]:
    """The problems of both files, the two files holding no model said once."""
    if len(differences) == 2 and all(d.message == "holds no model to compare"
                                     for d in differences):
        return [Difference("model", "A and B", "each holds no model to compare: nothing was "
                                               "compared", NOT_COMPARED)]
    return differences


def holds_model(result: LoadResult) -> bool:
    """A model, or a world holding at least one."""
    graph = result.graph
    if graph is None or graph.root is None:
        return False
    return not graph.root.is_world or any(graph.vertices[v].kind is Kind.MODEL
                                          for v in graph.root.vertices)


def diff_files(a: str, b: str, tol: float = 1e-9, configurations: int = 20, seed: int = 0,
               context: Context | None = None, model: str | None = None, *,
               lumped: bool = False) -> list[Difference]:
    """Differences between two files (an empty list when they are equivalent), loaded one
    at a time (:func:`diff_loaded`); ``lumped``: one is the other's ``--lump-fixed`` output."""
    context = context if context is not None else Context.from_environment()
    return diff_loaded(lambda: load(a, context), lambda: load(b, context), tol,
                       configurations, seed, model, lumped=lumped)


def world_welds(description: Description) -> list:
    """The fixed joints welding every root to ``world``, if that is how the model is held
    (sdf2urdf writes a static model so: a building may have several unconnected links)."""
    welds = description.tree.children.get("world", [])
    if welds and all(j.type == "fixed" for j in welds) and not description.tree.roots:
        return welds
    return []


def free_body_joints(description: Description) -> list:
    """Floating joints from ``world``: a URDF's way to hold several free trees (sdf2urdf
    writes an SDF model with several root links so), each the same as a free root body."""
    return [j for j in description.tree.children.get("world", []) if j.type == "floating"]


def is_static(description: Description) -> bool:
    """Fixed to the world: SDF //model/static, a URDF's
    ``<gazebo><static>true</static></gazebo>``, or every root welded to world."""
    document = description.result.document
    if world_welds(description):
        return True
    if document is not None and document.model is not None and document.format == "urdf":
        return any((block.findtext("static") or "").strip().lower() in ("true", "1")
                   for block in document.model.gazebo if not block.get("reference"))
    return bool(getattr(description.scope.owner, "static", False))


def compare_static(da: Digest, db: Digest, out: list[Difference]) -> None:
    sa, sb = da.static, db.static
    if sa != sb:
        out.append(Difference("model", "static", f"static in {'A' if sa else 'B'} only",
                              "static"))


def compare_names(da: Digest, db: Digest, out: list[Difference],
                  lumps: Lumps = NO_LUMPS) -> None:
    """Links and frames by name; a frame may stand for the other side's joint of the
    same name (lumped joints become frames). A lumped link's frame is looked for by
    :func:`core.diff.lumped.compare_lumps`."""
    na, nb = set(da.links) | da.frames, set(db.links) | db.frames
    lumped = lumps.lumped_links
    na, nb = na - lumped, nb - lumped
    for name in sorted(na - nb):
        if not (name in da.frames and name in db.joints):
            out.append(Difference("links", name, "only in A", "presence"))
    for name in sorted(nb - na):
        if not (name in db.frames and name in da.joints):
            out.append(Difference("links", name, "only in B", "presence"))


def common_reference(da: Digest, db: Digest) -> tuple[str | None, str | None]:
    links_b = set(db.links)
    for root in da.roots:
        if root in links_b:
            return root, root
    return None, None


def configurations_for(da: Digest, db: Digest, count: int, seed: int):
    """The zero configuration, then ``count`` seeded random ones over the shared joints."""
    yield {}
    rng = random.Random(seed)
    ranges = [(name, joint_range(da.joints[name])) for name in sorted(set(da.joints) &
                                                                      set(db.joints))
              if da.joints[name].type in REVOLUTE_TYPES + ("prismatic",)]
    mimics = mimic_joints(da)
    for _ in range(count):
        q = {name: rng.uniform(lower, upper) for name, (lower, upper) in ranges}
        apply_mimic(mimics, q)
        yield q


def joint_range(joint) -> tuple[float, float]:
    limit = getattr(joint.element, "limit", None)
    default = (-math.pi, math.pi) if joint.type in REVOLUTE_TYPES else (-1.0, 1.0)
    if limit is None or joint.type == "continuous" or limit.lower is None or limit.upper is None:
        return default
    lower, upper = max(limit.lower, default[0] * 10), min(limit.upper, default[1] * 10)
    return (lower, upper) if lower <= upper else default


def mimic_joints(description: Digest) -> list[tuple[str, Mimic]]:
    """``(joint name, its mimic element)`` for the joints that mimic another, in order."""
    mimics = [(name, getattr(joint.element, "mimic", None))
              for name, joint in description.joints.items()]
    return [(name, mimic) for name, mimic in mimics if mimic is not None]


def apply_mimic(mimics: list[tuple[str, Mimic]], q: dict[str, float]) -> None:
    for name, mimic in mimics:
        if mimic.joint in q:
            value = mimic.multiplier * q[mimic.joint] + mimic.offset
            # A huge multiplier or offset (1e308) overflows: no position to sample there.
            q[name] = value if math.isfinite(value) else 0.0


def joint_frame_rule(da: Digest, db: Digest, through_urdf: bool = False) -> bool:
    """Whether a link's pose is compared at its joint frame: a URDF link frame *is* its
    joint frame, so where the SDF link frame is elsewhere URDF cannot keep it. So when
    either side is a URDF, and when one side was made from the other through URDF
    (``through_urdf``: an SDF's round trip ``sdf2urdf | urdf2sdf``). Inertials, shapes and
    frames are compared where they are, whichever frame they are written in."""
    return through_urdf or "urdf" in (da.format, db.format)


def where_text(q: dict[str, float]) -> str:
    return "zero configuration" if not q else "configuration " + ", ".join(
        f"{k}={v:.4g}" for k, v in sorted(q.items()))


def compare_all_poses(da: Digest, db: Digest, configurations: list[dict], links, reference,
                      tol, out, at_joint_frames: bool) -> None:
    """Each differing frame once, at the first configuration where it differs (its gap
    from :func:`core.base.pose.pose_gap` over ``tol``; configurations in order, names sorted).

    Vectorised: each side's named frames (links, explicit frames, joint frames) at every
    configuration at once (:func:`pose_table`, from ``links``: each side's
    :func:`core.kinematics.batch.forward_compact` at ``configurations``), a cheap screen of every
    pose gap, and :func:`core.base.pose.pose_gap` itself for the frames the screen cannot clear.
    The screen is below the exact gap by a few rounding errors at most (its position term
    is the largest coordinate difference, at least the distance over sqrt(3)), so no frame
    whose gap exceeds ``tol`` escapes it."""
    links_a, links_b = links
    rows_a = da.pose_rows.names_to_rows(at_joint_frames)
    rows_b = db.pose_rows.names_to_rows(at_joint_frames)
    common = sorted(set(rows_a) & set(rows_b))
    column_a, column_b = [rows_a[n] for n in common], [rows_b[n] for n in common]
    threshold = tol / 2 if tol > 1e-200 else -math.inf  # below that, check every frame
    reported: set[str] = set()
    step = configurations_per_table(len(rows_a) + len(da.pose_rows.sources) + len(rows_b) +
                                    len(db.pose_rows.sources))
    for start in range(0, len(configurations), step):
        part = slice(start, start + step)
        pa, qa = pose_table(links_a, part, da.pose_rows, rows_a, reference[0])
        pb, qb = pose_table(links_b, part, db.pose_rows, rows_b, reference[1])
        pa, qa, pb, qb = pa[:, column_a], qa[:, column_a], pb[:, column_b], qb[:, column_b]
        flagged = ~(gap_screen(pa, qa, pb, qb) <= threshold)  # NaN gaps are checked too
        report_gaps(common, configurations[part], (pa, qa, pb, qb), flagged, tol, reported, out)


def configurations_per_table(rows: int) -> int:
    """How many configurations the pose tables of :func:`compare_all_poses` hold at once:
    as many as keep them (7 numbers per row and configuration, a few copies) near
    :data:`POSE_TABLE_BYTES`, so that a large model's diff stays in bounded memory."""
    return max(1, POSE_TABLE_BYTES // (7 * 8 * 3 * max(rows, 1)))


def report_gaps(common: list[str], configurations: list[dict], tables, flagged, tol: float,
                reported: set[str], out: list[Difference]) -> None:
    """The differences among the ``flagged`` (configuration, frame) pairs of the tables
    ``(pa, qa, pb, qb)``, each frame once (``reported``)."""
    pa, qa, pb, qb = tables
    for k, q in enumerate(configurations):
        where = None
        for c in np.flatnonzero(flagged[k]).tolist():
            name = common[c]
            if name in reported:
                continue
            xa = Pose(tuple(pa[k, c].tolist()), tuple(qa[k, c].tolist()))
            xb = Pose(tuple(pb[k, c].tolist()), tuple(qb[k, c].tolist()))
            gap = pose_gap(xa, xb)
            if not gap <= tol:  # a NaN gap (a pose that is no number) is a difference
                reported.add(name)
                where = where if where is not None else where_text(q)
                out.append(Difference("pose", name, f"{motion(xa, xb)} at the {where}: "
                                      f"{pose_text(xa)} in A, {pose_text(xb)} in B", "pose"))


def pose_table(links: tuple[np.ndarray, np.ndarray], part: slice, derived: PoseRows,
               rows: dict[str, int], reference: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Every named frame's pose relative to the ``reference`` link (when the table has
    it) for the configurations ``part`` at once, from ``links`` (the rows of the digest's
    plan: :func:`core.kinematics.batch.forward_compact`), its ``derived`` rows and their
    names (``derived.names_to_rows(urdf_links)``): positions ``(K, n, 3)`` and quaternions
    ``(K, n, 4)``, a column per row. A URDF comparison (``urdf_links``) takes a link's pose
    to be its joint frame's, as a URDF link frame always is."""
    positions, rotations = add_derived_rows(links[0][part], links[1][part], derived.sources,
                                            derived.poses)
    if reference is not None and reference in rows:
        at = rows[reference]
        base = batch_inverse(positions[:, at:at + 1], rotations[:, at:at + 1])
        positions, rotations = sliced_compose(*base, positions, rotations)
    return positions, rotations


def gap_screen(pa, qa, pb, qb) -> np.ndarray:
    """``(K, n)`` lower estimates of :func:`core.base.pose.pose_gap`: the largest coordinate
    difference and the rotation angle, computed as ``pose_gap`` does."""
    width = pa.shape[1]
    screen = np.empty(pa.shape[:2])
    with np.errstate(all="ignore"):
        for start in range(0, width, SLICE):
            part = slice(start, start + SLICE)
            position = np.abs(pa[:, part] - pb[:, part]).max(axis=-1)
            w, x, y, z = np.moveaxis(batch_relative_rotation(qa[:, part], qb[:, part]), -1, 0)
            angle = 2 * np.arctan2(np.sqrt(x * x + y * y + z * z), np.abs(w))
            screen[:, part] = np.maximum(position, angle)
    return screen
