"""The ``urdf2sdf`` command: its arguments and options, declared once (:data:`COMMAND`),
and its body (:func:`run`): a conversion (:func:`urdf_sdf.cli.urdf2sdf.convert`); with
``--model-dir``, a Gazebo model directory (:data:`urdf_sdf.cli.packaging.MODEL_DIR`). The
console script is :func:`urdf_sdf.cli.quick.urdf2sdf`.
"""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command, Option, UsageError
from urdf_sdf.cli.options import (
    CONVERTED_OUTPUT,
    CONVERTER_COMMON,
    FORCE,
    PACKAGES,
    xacro_choice,
)
from urdf_sdf.cli.urdf2sdf import PROG, convert, uri_scheme_problem
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.read.version import DEFAULT_GAZEBO, GAZEBO_VERSIONS
from urdf_sdf.urdf2sdf.convert import ToSdf


def run(params: dict) -> int:
    """``urdf2sdf``'s body: the exit code (a usage error raises :class:`UsageError`
    before anything is read or written)."""
    options, expansion = prepared(params)
    return convert(params["urdf"], params["output"], options, expansion,
                   strict=params["strict"], quiet=params["quiet"], as_json=params["as_json"],
                   jobs=params["jobs"], report=params["report"])


def prepared(params: dict) -> tuple[ToSdf, XacroOptions]:
    """What the command line asks of the converter and of a xacro input (a usage error
    for a value neither takes)."""
    if params["keep_inertia"] and params["fix_inertia"]:
        raise UsageError("--keep-inertia and --fix-inertia ask for opposite things")
    return conversion_options(params), xacro_choice(params)


def conversion_options(params: dict) -> ToSdf:
    """What the command line asks of the converter."""
    return ToSdf(relative=params["relative"], sdf_version=params["sdf_version"],
                 lump_fixed=params["lump_fixed"], uri_scheme=params["uri_scheme"],
                 fix_inertia=not params["keep_inertia"], gazebo=params["gazebo"])


def gazebo_refusal(value: str | None) -> str | None:
    """Why ``--gazebo VALUE`` is refused (a usage error), or None (also when not given)."""
    if value is None or value in GAZEBO_VERSIONS:
        return None
    return f"--gazebo is one of {', '.join(GAZEBO_VERSIONS)}"


COMMAND = Command(
    prog=PROG, help="Convert URDF to SDFormat.", run=run,
    routes=(("model_dir", "urdf2sdf --model-dir"),),
    arguments=(Argument("urdf", "URDF file, '-' for standard input, a .urdf.xacro file (with "
                                "--xacro), or a directory (with -o OUTDIR: converts every "
                                ".urdf, and .urdf.xacro with --xacro)."),),
    options=(
        CONVERTED_OUTPUT,
        Option(("--relative",), "relative", default=False,
               help="Joint poses relative_to the parent link and child links at their "
                    "joint, xyz/rpy copied from the URDF."),
        Option(("--gazebo",), "gazebo", str, metavar="RELEASE", check=gazebo_refusal,
               help=f"The Gazebo the SDF must load in: {', '.join(GAZEBO_VERSIONS)} "
                    f"(default: {DEFAULT_GAZEBO}). Caps the SDFormat version at the one "
                    "it reads (fortress 1.9, garden 1.10, harmonic and ionic 1.11, jetty "
                    "1.12); what needs more is carried with a warning."),
        Option(("--sdf-version",), "sdf_version", str,
               help="SDFormat version to write (default: the lowest that expresses the "
                    "result within --gazebo's)."),
        Option(("--lump-fixed",), "lump_fixed", default=False,
               help="Merge fixed-joint children into their parent."),
        Option(("--keep-inertia",), "keep_inertia", default=False,
               help="Keep inertia tensors libsdformat refuses as written (by default "
                    "they are repaired: the smallest principal moment raised until the "
                    "triangle inequality holds, a warning per link with the change)."),
        Option(("--fix-inertia",), "fix_inertia", default=False,
               help="Repair inertia tensors libsdformat refuses (the default; kept for "
                    "scripts that pass it)."),
        Option(("--uri-scheme",), "uri_scheme", str, check=uri_scheme_problem, default="package",
               help="'package' keeps package:// mesh URIs; 'model' rewrites them to "
                    "model://."),
        Option(("--model-dir",), "model_dir", Path,
               help="Write a Gazebo model directory here (model.config, model.sdf, meshes "
                    "copied, model://NAME URIs)."),
        *PACKAGES, FORCE, *CONVERTER_COMMON))
