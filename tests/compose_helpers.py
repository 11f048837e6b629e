"""What the ``test_compose_*`` modules share (model composition, ``//include``): the
fixture folders, pose and diagnostic assertions, the reference run with ``SDF_PATH``, the
command line in a subprocess, and the expected poses of the parts most fixtures include.

The reference (libsdformat 12) resolves a relative include against the working
directory and ``SDF_PATH``, and looks in its own spec directory first (which holds a
``gripper.sdf``): reference runs use the fixture's folder as working directory, set
``SDF_PATH``, and the samples are compared through a copy whose gripper files are renamed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tests.reference import compare_reports
from urdf_sdf import Code, Context, load
from urdf_sdf.core.base.pose import Pose, pose_gap
from urdf_sdf.core.graph import Kind

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FIX = HERE / "fixtures" / "compose"
PARTS = FIX / "parts"
MODELS = FIX / "models"
PACKAGES = FIX / "packages"
AMENT = FIX / "ament"
CUSTOM = FIX / "custom"
SAMPLES = REPO / "samples" / "composition"
FLANGES = SAMPLES / "flanges"

EXACT = 1e-12      # same-pose checks: two frames meant to coincide
REF_TOL = 1e-9     # agreement with the reference implementation
TIMEOUT = 60       # seconds; a subprocess that takes longer hangs

# Environment variables Context.from_environment reads: emptied for CLI runs so that
# only the options a test gives are searched.
SEARCH_ENV = ("SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH",
              "GAZEBO_MODEL_PATH", "ROS_PACKAGE_PATH", "AMENT_PREFIX_PATH")
ISOLATED_ENV = {name: "" for name in SEARCH_ENV}

runner = CliRunner()


# ---- helpers ---------------------------------------------------------------------------

def including(directory: Path, uri: str) -> Path:
    """``directory/robot.sdf``: a model with a link and an ``<include>`` of ``uri``."""
    source = directory / "robot.sdf"
    source.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n'
                      '    <link name="base"/>\n'
                      f'    <include>\n      <uri>{uri}</uri>\n    </include>\n'
                      '  </model>\n</sdf>\n')
    return source


def P(x, y, z, roll=0.0, pitch=0.0, yaw=0.0) -> Pose:
    return Pose.from_rpy((x, y, z), (roll, pitch, yaw))


def assert_pose(actual: Pose | None, expected: Pose, what: str = "", tol: float = EXACT):
    assert actual is not None, f"{what}: no pose"
    gap = pose_gap(actual, expected)
    assert gap <= tol, (f"{what}: gap {gap:.3g} > {tol:g}\n  got      {actual}\n"
                        f"  expected {expected}")


def assert_poses(result, expected: dict[str, Pose], tol: float = EXACT):
    for name, pose in expected.items():
        assert_pose(result.pose(name), pose, name, tol)


def formatted(result) -> str:
    return "\n".join(d.format() for d in result.diagnostics)


def loaded(path, context: Context | None = None):
    """A composed file that must load without errors."""
    result = load(path, context if context is not None else Context())
    assert result.ok, formatted(result)
    return result


def error_codes(result) -> set[str]:
    return {d.code.value for d in result.diagnostics if d.is_error}


def errors_with(result, code: Code) -> list:
    return [d for d in result.diagnostics if d.is_error and d.code is code]


def line_of(path: Path, needle: str, occurrence: int = 1) -> int:
    """1-based line of the ``occurrence``-th line of ``path`` containing ``needle``."""
    seen = 0
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if needle in text:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{needle!r} (#{occurrence}) not in {path}")


def same_file(a, b) -> bool:
    return a is not None and os.path.realpath(a) == os.path.realpath(b)


def assert_diagnostic_at(result, code: Code, path: Path, line: int):
    found = [d for d in errors_with(result, code) if same_file(d.file, path) and d.line == line]
    assert found, f"no {code.value} at {path}:{line}; diagnostics:\n{formatted(result)}"


def joint_ends(result, joint: str) -> tuple[str, str]:
    """Scoped names of a joint's parent and child frames (as written, resolved)."""
    graph = result.graph
    vertex = graph.find(joint)
    assert vertex is not None and vertex.kind is Kind.JOINT, joint
    return (graph.vertices[vertex.parent].scoped_name,
            graph.vertices[vertex.attached_to].scoped_name)


def joint_links(result, joint: str) -> tuple[str, str]:
    graph = result.graph
    vertex = graph.find(joint)
    return (graph.vertices[graph.attached_link[vertex.parent]].scoped_name,
            graph.vertices[graph.attached_link[vertex.attached_to]].scoped_name)


def reference_report(sdf_reference, path: Path, sdf_path=(), cwd: Path | None = None) -> dict:
    """The reference's JSON for ``path``, run in ``cwd`` (default: the file's folder)
    with ``SDF_PATH`` set to ``sdf_path``."""
    env = {**os.environ, "SDF_PATH": os.pathsep.join(str(p) for p in sdf_path)}
    proc = subprocess.run([str(sdf_reference.binary), str(Path(path).resolve())],
                          cwd=str(cwd or Path(path).parent), env=env, capture_output=True,
                          text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        raise AssertionError(f"reference on {path}: exit {proc.returncode}, no JSON; "
                             f"stderr: {proc.stderr[-2000:]}") from None


def assert_agrees_with_reference(ours: dict, reference: dict, tol: float = REF_TOL):
    assert reference["ok"], reference["diagnostics"]
    poses = sum(len(reference[kind] or {}) for kind in ("links", "joints", "frames", "models"))
    assert poses, "the reference resolved nothing"
    problems = compare_reports(reference, ours, tol)
    assert not problems, "\n".join(problems)


def run_cli(*args, cwd: Path = REPO) -> subprocess.CompletedProcess:
    """``urdf-sdf ARGS`` in a real subprocess (a hang is a failure, not a stuck suite)."""
    env = {**os.environ, **ISOLATED_ENV}
    return subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", *map(str, args)],
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=str(cwd),
                          env=env, stdin=subprocess.DEVNULL)


# ---- expected poses, computed from the fixture files' numbers ----------------------------

# parts/plate.sdf
PLATE_MODEL = P(0.1, 0.2, 0.3, 0, 0, 0.4)
PLATE_BASE = P(0.05, 0, 0.02)
PLATE_ARM = PLATE_BASE * P(0.3, 0, 0.1, 0, 0.25, 0)
PLATE_TOP = PLATE_BASE * P(0, 0.1, 0.04, 0.3, 0, -0.2)


def plate(prefix: str, X_model: Pose) -> dict[str, Pose]:
    """Every entity of parts/plate.sdf (and its copies) with the model frame at X_model."""
    return {prefix.rstrip(":") if prefix else "": X_model,
            f"{prefix}base": X_model * PLATE_BASE,
            f"{prefix}arm": X_model * PLATE_ARM,
            f"{prefix}hinge": X_model * PLATE_ARM,
            f"{prefix}top": X_model * PLATE_TOP}


# parts/bracket.sdf
BRACKET_MODEL = P(0, 0.3, 0.1, 0, 0, -0.5)
BRACKET_BASE = P(0.02, 0, 0)
BRACKET_CLIP = BRACKET_BASE * P(0.1, 0.05, 0.2, 0.3, 0, 0)
BRACKET_SLOT = BRACKET_BASE * P(0, 0, 0.15, 0, -0.4, 0)


def bracket(prefix: str, X_model: Pose) -> dict[str, Pose]:
    return {prefix.rstrip(":"): X_model,
            f"{prefix}base": X_model * BRACKET_BASE,
            f"{prefix}clip": X_model * BRACKET_CLIP,
            f"{prefix}slot": X_model * BRACKET_SLOT}


# ---- the proposal's examples (samples/composition) ---------------------------------------

ARM_AND_GRIPPER = SAMPLES / "arm_and_gripper.sdf"
SUPER = FLANGES / "super_armio_bros.sdf"
SUPER_WORLD = FLANGES / "super_armio_bros_world.sdf"

# (sample, ToUrdf.model: the model of a world to convert)
ASSEMBLIES = [(ARM_AND_GRIPPER, None), (SUPER, None), (SUPER_WORLD, "bros")]
ASSEMBLY_IDS = [sample.stem for sample, _ in ASSEMBLIES]
FLANGE_WELDS = [(robot, joint, parent, child)
                for robot in ("robot_1", "robot_2")
                for joint, parent, child in (("weld1", "arm::flange_mount", "flange::mount"),
                                             ("weld2", "flange::gripper_mount",
                                              "gripper::mount"))]
