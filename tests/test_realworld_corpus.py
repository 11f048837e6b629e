"""Real robots (issue 11): every URDF and SDF of the real-robot corpus converts both ways,
or is refused with a documented code that :data:`REFUSED` records and explains.

The corpus is the list ``../shared/realworld/corpus.sh`` prints (``label<TAB>path``, from
pinned PyPI data wheels: example-robot-data, pybullet, drake, gym-ignition-models,
icub-models, hello-robot-stretch-urdf), named by ``$URDF_SDF_CORPUS``; ``.ci/run``
creates it. Without it these tests skip, and fail under CI.

For every file, in-process (``urdf_sdf.load``, ``convert_urdf``, ``convert_sdf``):

- a URDF converts to SDF with ``ToSdf()`` and ``ToSdf(relative=True)``, and each SDF
  back to URDF; an SDF converts to URDF and that URDF back to SDF;
- every URDF written passes ``check_urdf``;
- every SDF written (again at SDFormat 1.9 when written newer, for libsdformat 12) loads
  in the reference (``build/sdf_reference``) without errors, except errors the
  conversion announced with a warning of the same code (an inertia URDF allows and
  libsdformat refuses: ``LINK_INERTIA_INVALID``), with the same links as ours, and every
  link, joint, frame and nested model the reference resolves is where our own
  ``load(sdf).pose(name)`` puts it (within POSE_TOL).

- every URDF written is loaded in MuJoCo and Pinocchio and read as they read the source
  (``tests/realworld/judges.py``: link poses relative to the root link, total and
  per-body masses; an SDF source as libsdformat 12 reads it), when the ``consumers``
  extra is installed (``.ci/run`` installs it; without it that part is left out, and
  :func:`test_consumers_installed` skips, or fails under CI).

Outputs are written to the test's ``tmp_path`` as the command lines write ``-o FILE``
(``output_dir``: relative mesh paths rewritten to reach the same files). A refusal is
the error codes of the first step that fails; a file refused with codes other than its
REFUSED entry's, or a file in REFUSED that now converts, fails its test: the table stays
true.

Files of the project's widening of the corpus (``tests/realworld/corpus_extra.sh``) that
fail today for a known reason are listed in ``tests/realworld/known_failures.tsv`` (test
id, codes or failure class, issue item, reason): their tests are strict expected failures,
so a file that passes again fails until its line is removed.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import urdf_sdf
from tests.realworld import judges
from tests.reference import pose_gap
from tests.support import assert_check_urdf_accepts, require
from urdf_sdf import ToSdf, ToUrdf, convert_sdf, convert_urdf, load

CORPUS_ENV = "URDF_SDF_CORPUS"
CORPUS_HINT = ("create the corpus with `bash ../shared/realworld/corpus.sh VENV --labels "
               "--ext urdf,sdf > corpus.tsv` (python3.11 and network to PyPI) and set "
               f"{CORPUS_ENV}=corpus.tsv, as .ci/run does")
POSE_TOL = 1e-6
KNOWN_FAILURES = Path(__file__).parent / "realworld" / "known_failures.tsv"
REFERENCE_MAX_VERSION = (1, 9)  # libsdformat 12 reads SDFormat up to 1.9
KINDS = ("links", "joints", "frames", "models")

# Files refused today, by test id (label/path below the label's common folder):
# (error code, or a tuple of the codes of one refusal, with why). Each is a genuine
# refusal: the source is invalid for urdfdom or libsdformat as well, or the conversion
# cannot express it (URDF is one tree of one model), as docs/sdf2urdf.md documents.
REFUSED: dict[str, tuple[str | tuple[str, ...], str]] = {
    # -- SDF -> URDF: URDF is one tree; these models close kinematic loops (Cassie's
    #    four-bar linkages: the pitch rods and plantar joints give a link a second parent).
    "example-robot-data/cassie_description/robots/cassie_reduced.sdf": (
        "URDF_KINEMATIC_LOOP", "four-bar linkages close kinematic loops; URDF is a tree"),
    "example-robot-data/cassie_description/robots/cassie_simple.sdf": (
        "URDF_KINEMATIC_LOOP", "four-bar linkages close kinematic loops; URDF is a tree"),
    "example-robot-data/cassie_description/robots/cassie_v2.sdf": (
        "URDF_KINEMATIC_LOOP", "four-bar linkages close kinematic loops; URDF is a tree"),
    "example-robot-data/cassie_description/robots/cassie_wo_gearbox_spring.sdf": (
        "URDF_KINEMATIC_LOOP", "four-bar linkages close kinematic loops; URDF is a tree"),
    # -- URDF -> SDF: a <mimic> naming no joint of the robot (Drake: "mimic element
    #    specifies joint 'index_q1' which does not exist").
    "example-robot-data/alex_description/urdf/alex_psyonic_hands.urdf": (
        "MIMIC_JOINT_UNKNOWN", "the hands' q2 joints mimic [index_q1] etc., joints named "
                               "Left_index_q1/Right_index_q1: Drake refuses the file too"),
    # -- SDF -> URDF: a model of several free trees (no URDF form places them in every
    #    consumer; --approximate welds each where it stands).
    "drake/planar_gripper/planar_gripper.sdf": (
        "URDF_SEVERAL_TREES", "three free finger trees (Drake welds them in code); URDF has "
                              "one root: refused, or welded with --approximate"),
    # -- SDF -> URDF: a world with several models converts one, chosen with --model.
    "pybullet/stadium.sdf": (
        "ELEMENT_MISSING", "a world of 3 models (stadium parts): choose one with --model, "
                           "or --all-models (converts; tested on a reduced fixture)"),
    "pybullet/stadium_no_collision.sdf": (
        "ELEMENT_MISSING", "a world of 3 models (stadium parts): choose one with --model, "
                           "or --all-models (converts; tested on a reduced fixture)"),
    # -- SDF sources libsdformat 12 refuses too (same code from build/sdf_reference).
    "example-robot-data/cassie_description/robots/cassie.sdf": (
        "LINK_INERTIA_INVALID", "left/right-foot-reference inertias break the triangle "
                                "inequality (libsdformat: LINK_INERTIA_INVALID)"),
    "pybullet/gripper/wsg50_one_motor_gripper.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/gripper/wsg50_one_motor_gripper_free_base.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/gripper/wsg50_one_motor_gripper_new.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/gripper/wsg50_one_motor_gripper_new_free_base.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/gripper/wsg50_one_motor_gripper_no_finger.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/gripper/wsg50_with_r2d2_gripper.sdf": (
        "RESERVED_NAME", "a link named [world], a reserved name (libsdformat: RESERVED_NAME)"),
    "pybullet/kiva_shelf/model.sdf": (
        "DUPLICATE_NAME", "20 collisions named pod_collision in one link "
                          "(libsdformat: DUPLICATE_NAME)"),
    "pybullet/kuka_iiwa/model2.sdf": (
        "DUPLICATE_NAME", "two models named lbr_iiwa in one world "
                          "(libsdformat: DUPLICATE_NAME)"),
    # -- URDF sources urdfdom (check_urdf) refuses too.
    "example-robot-data/ur_description/urdf/ur3.urdf": (
        ("ATTRIBUTE_MISSING", "ELEMENT_MISSING", "MODEL_WITHOUT_LINK"),
        "an empty <robot> without a name or any link (a xacro stub); "
        "urdfdom: no name given for the robot"),
    "pybullet/torus_deform.urdf": (
        ("ELEMENT_MISSING", "MODEL_WITHOUT_LINK"),
        "a pybullet deformable (<deformable>), no <link>; urdfdom: no link elements found"),
    "pybullet/bicycle/bike.urdf": (
        "ATTRIBUTE_INVALID", "origin xyz='0.07, 0, -0.69' (commas) is not 3 numbers; "
                             "urdfdom: malformed parent origin"),
    "pybullet/quadruped/microtaur/microtaur.urdf": (
        "ATTRIBUTE_INVALID", "origin rpy with 4 numbers ('-3.14159 1.57079 0 0'); "
                             "urdfdom: found 4 elements but 3 expected"),
    "pybullet/husky/husky.urdf": (
        "XACRO_NOT_EXPANDED", "an unexpanded xacro expression rpy=\"$(optenv HUSKY_IMU_RPY "
                              "...)\"; urdfdom: unable to parse component"),
    "pybullet/humanoid/humanoid.urdf": (
        ("ATTRIBUTE_INVALID", "URDF_MULTIPLE_ROOTS"),
        "pybullet's joint type 'spherical', not a URDF joint type (the joints left out, "
        "their children become roots); urdfdom: no known type [spherical]"),
    "pybullet/spherical_joint_limit.urdf": (
        ("ATTRIBUTE_INVALID", "URDF_MULTIPLE_ROOTS"),
        "pybullet's joint type 'spherical', not a URDF joint type; "
        "urdfdom: no known type [spherical]"),
    "pybullet/biped/biped2d_pybullet.urdf": (
        "ATTRIBUTE_INVALID", "limit lower='-1.57.' is not a number (urdfdom: not a valid "
                             "float)"),
}


# ---- the corpus ------------------------------------------------------------------------------

@dataclass(frozen=True)
class CorpusFile:
    id: str      # label/path below the common folder of the label's files
    label: str
    path: Path


def read_corpus(listing: Path) -> list[CorpusFile]:
    """The files of a corpus list (``label<TAB>path`` or bare paths, ``#`` comments); a
    relative path is taken from the list's folder (corpus.sh prints icub-models' paths
    relative when its VENV is)."""
    rows = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, _, path = line.rpartition("\t")
        path = Path(path.strip())
        rows.append((label.strip() or "corpus", path if path.is_absolute() else
                     listing.parent / path))
    folders: dict[str, str] = {}
    for label in {label for label, _ in rows}:
        folders[label] = os.path.commonpath([str(p.parent) for lab, p in rows if lab == label])
    return [CorpusFile(f"{label}/{os.path.relpath(path, folders[label])}", label, path)
            for label, path in rows]


def read_known_failures(listing: Path = KNOWN_FAILURES) -> tuple[dict, dict[str, str]]:
    """known_failures.tsv (``id<TAB>outcome<TAB>issue item<TAB>reason``, ``#`` comments):
    the refusals (outcome ``refused: CODE[,CODE]``, entries like REFUSED's) and the
    failures (outcome ``fails: CLASS``: test id -> why)."""
    refusals: dict[str, tuple[str | tuple[str, ...], str]] = {}
    failures: dict[str, str] = {}
    for line in listing.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        case_id, outcome, item, reason = line.split("\t")
        kind, _, detail = outcome.partition(":")
        if kind == "refused":
            refusals[case_id] = (tuple(c.strip() for c in detail.split(",")), f"{item}: {reason}")
        else:
            failures[case_id] = f"{outcome}; {item}; {reason}"
    return refusals, failures


KNOWN_REFUSED, KNOWN = read_known_failures()
REFUSED.update(KNOWN_REFUSED)


def corpus_listing() -> Path | None:
    value = os.environ.get(CORPUS_ENV, "").strip()
    return Path(value) if value else None


def corpus_cases() -> list:
    """One case per corpus file; without a corpus, one placeholder (id ``corpus-missing``)
    that skips or, under CI, fails: a missing corpus never passes silently."""
    listing = corpus_listing()
    if listing is None or not listing.is_file():
        return [pytest.param(None, id="corpus-missing")]
    return [pytest.param(entry, id=entry.id, marks=known_failure_marks(entry.id))
            for entry in read_corpus(listing)]


def known_failure_marks(case_id: str) -> list:
    if case_id not in KNOWN:
        return []
    return [pytest.mark.xfail(strict=True, reason=f"known failure: {KNOWN[case_id]}")]


CASES = corpus_cases()


def require_corpus() -> None:
    listing = corpus_listing()
    require(listing is not None, f"the real-robot corpus (${CORPUS_ENV})", CORPUS_HINT)
    require(listing.is_file(), f"the real-robot corpus list {listing}", CORPUS_HINT)


# ---- converting one file both ways -----------------------------------------------------------

@dataclass
class Refusal:
    step: str
    codes: frozenset[str]
    messages: list[str]


@dataclass
class Outcome:
    """What converting one file wrote (paths and the conversion that wrote each SDF for
    the reference), and the refusal that stopped it, if any."""
    urdfs: list[Path] = field(default_factory=list)
    sdfs: list[tuple[Path, object]] = field(default_factory=list)
    refusal: Refusal | None = None


def refused(step: str, diagnostics) -> Refusal:
    errors = [d for d in diagnostics if d.is_error]
    return Refusal(step, frozenset(d.code.value for d in errors),
                   [d.format() for d in errors[:5]])


def version_key(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


def write_sdf(result, options: ToSdf, path: Path, step: str, outcome: Outcome):
    """``result`` (a loaded URDF) to SDF at ``path``; the SDF for the reference (again at
    1.9 when the output is newer) is recorded. The written conversion, or None (refused)."""
    conversion = convert_urdf(result, options)
    if not conversion.ok:
        outcome.refusal = refused(step, conversion.diagnostics)
        return None
    path.write_bytes(conversion.xml)
    checked, checked_path = conversion, path
    if version_key(conversion.version) > REFERENCE_MAX_VERSION:
        checked = convert_urdf(result, ToSdf(**{**vars(options), "sdf_version": "1.9"}))
        if not checked.ok:
            outcome.refusal = refused(f"{step} at SDFormat 1.9", checked.diagnostics)
            return None
        checked_path = path.with_suffix(".v1_9.sdf")
        checked_path.write_bytes(checked.xml)
    outcome.sdfs.append((checked_path, checked))
    return conversion


def write_urdf(result, path: Path, step: str, outcome: Outcome):
    """``result`` (a loaded SDF) to URDF at ``path``; the conversion, or None (refused)."""
    conversion = convert_sdf(result, ToUrdf(output_dir=str(path.parent)))
    if not conversion.ok:
        outcome.refusal = refused(step, conversion.diagnostics)
        return None
    path.write_bytes(conversion.xml)
    outcome.urdfs.append(path)
    return conversion


def load_ok(path: Path, step: str, outcome: Outcome):
    result = load(path)
    if not result.ok:
        outcome.refusal = refused(step, result.diagnostics)
        return None
    return result


def convert_both_ways(source: Path, out: Path) -> Outcome:
    outcome = Outcome()
    result = load_ok(source, "load", outcome)
    if result is None:
        return outcome
    if source.suffix.lower() == ".urdf":
        for variant, relative in (("absolute", False), ("relative", True)):
            sdf = out / f"{source.stem}.{variant}.sdf"
            options = ToSdf(relative=relative, output_dir=str(out))
            if write_sdf(result, options, sdf, f"urdf2sdf ({variant})", outcome) is None:
                return outcome
            back = load_ok(sdf, f"reading our SDF ({variant})", outcome)
            if back is None or write_urdf(back, out / f"{source.stem}.{variant}.urdf",
                                          f"sdf2urdf of our SDF ({variant})", outcome) is None:
                return outcome
        return outcome
    urdf = out / f"{source.stem}.urdf"
    if write_urdf(result, urdf, "sdf2urdf", outcome) is None:
        return outcome
    back = load_ok(urdf, "reading our URDF", outcome)
    if back is not None:
        write_sdf(back, ToSdf(output_dir=str(out)), out / f"{source.stem}.back.sdf",
                  "urdf2sdf of our URDF", outcome)
    return outcome


# ---- checks of what was written ---------------------------------------------------------------

def check_with_reference(path: Path, conversion, sdf_reference) -> list[str]:
    """libsdformat 12 loads ``path`` without errors but those the conversion announced
    with a warning of the same code, has our links, and resolves every entity where our
    core does; the problems found."""
    report = sdf_reference(path)
    errors = [d for d in report.get("diagnostics", []) if d.get("severity") == "error"]
    announced = {d.code.value for d in conversion.diagnostics if not d.is_error}
    unannounced = [d for d in errors if d.get("code") not in announced]
    if unannounced or not (report.get("ok") or errors):
        return [f"{path.name}: libsdformat rejects it without a warning at conversion: "
                f"{unannounced or report.get('diagnostics')}"]
    ours = load(path)
    if not ours.ok:
        return [f"{path.name}: our reader rejects it: "
                f"{[d.format() for d in ours.diagnostics if d.is_error][:5]}"]
    problems = []
    ref_links = set(report.get("links") or {})
    our_links = set(urdf_sdf.frames_report(ours)["links"])
    if ref_links != our_links:
        problems.append(f"{path.name}: links only in the reference "
                        f"{sorted(ref_links - our_links)}, only in ours "
                        f"{sorted(our_links - ref_links)}")
    for kind in KINDS:
        for name, pose in (report.get(kind) or {}).items():
            if pose is None:
                if kind == "links":
                    problems.append(f"{path.name}: link {name!r}: the reference has no pose")
                continue
            mine = ours.pose(name)
            gap = pose_gap(pose, mine.as_list()) if mine is not None else float("inf")
            if not gap <= POSE_TOL:
                problems.append(f"{path.name}: {kind[:-1]} {name!r}: gap {gap:.3g} > "
                                f"{POSE_TOL:g}; reference {pose}, ours "
                                f"{mine.as_list() if mine is not None else None}")
    return problems


def consumer_sources(source: Path, sdf_reference) -> dict[str, judges.Reading | str]:
    """Each consumer's reading of the source: a URDF as the consumer loads it, an SDF as
    libsdformat 12 reads it (neither consumer reads SDFormat)."""
    if source.suffix.lower() == ".urdf":
        return judges.read_with_each(source.read_bytes())
    reading = judges.reference_reading(sdf_reference(source), source)
    return {consumer: reading for consumer in judges.CONSUMERS}


def consumer_verdicts(source: Path, outcome: Outcome, sdf_reference) -> list:
    """(URDF written, verdict) for every URDF the conversions wrote and every consumer."""
    if not outcome.urdfs:
        return []
    sources = consumer_sources(source, sdf_reference)
    return [(urdf, verdict) for urdf in outcome.urdfs
            for verdict in judges.judge(sources, urdf.read_bytes())]


def codes_of(entry) -> frozenset[str]:
    codes, _ = entry
    return frozenset([codes] if isinstance(codes, str) else codes)


# ---- the tests --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_corpus_file_converts_both_ways(case, sdf_reference, tmp_path):
    """The file converts both ways (or is refused as REFUSED says), every URDF written
    passes check_urdf and every SDF written loads in libsdformat 12 with our poses."""
    require_corpus()
    assert case.path.is_file(), f"{case.path} is listed in the corpus but missing"
    outcome = convert_both_ways(case.path, tmp_path)
    expected = REFUSED.get(case.id)
    refusal = outcome.refusal
    if refusal is None:
        assert expected is None, \
            f"{case.id} converts both ways now: remove it from REFUSED ({expected[1]})"
    else:
        assert expected is not None, \
            f"{case.id} is refused ({refusal.step}) with {sorted(refusal.codes)}, not in " \
            f"REFUSED:\n" + "\n".join(refusal.messages)
        assert refusal.codes == codes_of(expected), \
            f"{case.id} is refused ({refusal.step}) with {sorted(refusal.codes)}, REFUSED " \
            f"says {sorted(codes_of(expected))} ({expected[1]}):\n" + "\n".join(refusal.messages)
        assert all(code in urdf_sdf.Code.__members__ for code in refusal.codes)
    for urdf in outcome.urdfs:
        assert_check_urdf_accepts(urdf)
    problems = [problem for path, conversion in outcome.sdfs
                for problem in check_with_reference(path, conversion, sdf_reference)]
    assert not problems, f"{case.id}:\n" + "\n".join(problems[:20])
    if not judges.missing_consumers():
        failing = [f"{urdf.name}: {verdict.consumer} {verdict.status}: {verdict.detail}"
                   for urdf, verdict in consumer_verdicts(case.path, outcome, sdf_reference)
                   if verdict.fails]
        assert not failing, f"{case.id}: MuJoCo/Pinocchio read our URDF otherwise than " \
                            f"the source:\n" + "\n".join(failing[:20])


def test_consumers_installed():
    """MuJoCo and Pinocchio (the consumers extra) judge the corpus: skipped without
    them, a failure under CI."""
    missing = judges.missing_consumers()
    require(not missing, f"the consumers {missing}", judges.EXTRA_HINT)


def test_refused_names_corpus_files():
    """Every REFUSED entry names a file of the corpus, with known codes and a reason."""
    require_corpus()
    ids = {case.values[0].id for case in CASES if case.values[0] is not None}
    assert ids, f"the corpus list {corpus_listing()} names no file"
    stale = sorted(set(REFUSED) - set(KNOWN_REFUSED) - ids)  # those: next test
    assert not stale, f"REFUSED names files the corpus does not hold: {stale}"
    for name, entry in REFUSED.items():
        unknown = sorted(code for code in codes_of(entry)
                         if code not in urdf_sdf.Code.__members__)
        assert not unknown and entry[1].strip(), f"REFUSED[{name!r}]: {unknown or 'no reason'}"


def test_known_failures_name_corpus_files():
    """Every known_failures.tsv line of a label the corpus holds names a file of it, and
    none repeats REFUSED (a refusal the table explains is not a failure)."""
    require_corpus()
    ids = {case.values[0].id for case in CASES if case.values[0] is not None}
    labels = {case_id.split("/", 1)[0] for case_id in ids}
    stale = sorted(case_id for case_id in {*KNOWN, *KNOWN_REFUSED}
                   if case_id.split("/", 1)[0] in labels and case_id not in ids)
    assert not stale, f"known_failures.tsv names files the corpus does not hold: {stale}"
    assert not sorted(set(KNOWN) & set(REFUSED)), "listed both as refused and as failing"



TWO_LINKS = """<robot name="r">
  <link name="base"><inertial><mass value="{base_mass}"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="missing.dae"/></geometry></visual></link>
  <joint name="j" type="{joint}"><parent link="base"/><child link="arm"/>
    <origin xyz="{x} 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def two_links(x=0.5, base_mass=2, joint="revolute") -> str:
    return TWO_LINKS.format(x=x, base_mass=base_mass, joint=joint)


@pytest.mark.parametrize("output, problem", [
    (two_links(), None),
    (two_links(x=0.6), "link pose: arm off by 0.1 relative to base"),
    (two_links(base_mass=3), "total mass: 3 != 4"),
])
def test_judges_compare_poses_and_masses(output, problem):
    """Both consumers read a moved link or a changed mass as a disagreement (a mesh file
    that does not exist is stripped, not loaded), and an equal robot as agreement."""
    require(not judges.missing_consumers(), "the consumers", judges.EXTRA_HINT)
    verdicts = judges.judge(judges.read_with_each(two_links()), output)
    assert [v.consumer for v in verdicts] == ["mujoco", "pinocchio"]
    for verdict in verdicts:
        assert verdict.status == ("agree" if problem is None else "disagree"), verdict
        assert (problem or "") in verdict.detail and verdict.fails == (problem is not None)


def test_judges_read_an_sdf_source_as_libsdformat_does(tmp_path):
    """An SDF source is judged by libsdformat's reading: a child link where its joint's
    frame is (URDF's link frame), a world's single model unscoped."""
    report = {"ok": True, "links": {"m::base": [0, 0, 1, 1, 0, 0, 0],
                                    "m::arm": [0.5, 0, 1, 1, 0, 0, 0]},
              "joints": {"m::j": [0.2, 0, 1, 1, 0, 0, 0]}}
    sdf = ('<sdf version="1.9"><world name="w"><model name="m"><link name="base"/>'
           '<link name="arm"/><joint name="j" type="fixed"><parent>base</parent>'
           '<child>arm</child></joint></model></world></sdf>')
    path = tmp_path / "w.sdf"
    path.write_text(sdf, encoding="utf-8")
    reading = judges.reference_reading(report, path)
    assert isinstance(reading, judges.Reading) and reading.reference
    assert reading.root == "base" and reading.masses is None
    assert reading.poses == {"base": (0, 0, 1, 1, 0, 0, 0), "arm": (0.2, 0, 1, 1, 0, 0, 0)}
    assert judges.reference_reading({"ok": False, "diagnostics": [{"code": "X"}]}, path) \
        == "libsdformat refuses it: X"


def test_judges_read_an_sdf_source_with_undeclared_prefixes(tmp_path):
    """An SDF source with Drake's undeclared ``drake:`` prefix (the manipulation course's
    hydroelastic models) is read as libsdformat reads it, not a parse error of the judge."""
    sdf = ('<sdf version="1.7"><model name="bin"><link name="base"><collision name="c">'
           '<geometry><box><size>1 1 1</size></box></geometry><drake:proximity_properties>'
           '<drake:compliant_hydroelastic/></drake:proximity_properties></collision></link>'
           '<link name="lid"/><joint name="hinge" type="fixed"><parent>base</parent>'
           '<child>lid</child></joint></model></sdf>')
    path = tmp_path / "bin.sdf"
    path.write_text(sdf, encoding="utf-8")
    assert judges.joint_children(path) == (False, {"hinge": "lid"})
    report = {"ok": True, "links": {"base": [0, 0, 0, 1, 0, 0, 0], "lid": [0, 0, 1, 1, 0, 0, 0]},
              "joints": {"hinge": [0, 0, 0.5, 1, 0, 0, 0]}}
    reading = judges.reference_reading(report, path)
    assert reading.root == "base" and reading.poses["lid"] == (0, 0, 0.5, 1, 0, 0, 0)
