"""The ``urdf2sdf`` command: its arguments and options, declared once (:data:`COMMAND`),
and its body (:func:`run`): a conversion (:func:`urdf_sdf.cli.urdf2sdf.convert`); with
``--model-dir``, a Gazebo model directory (:data:`urdf_sdf.cli.packaging.MODEL_DIR`). The
console script is :func:`urdf_sdf.cli.quick.urdf2sdf`.
"""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command, Option
from urdf_sdf.cli.options import (
    CONVERTED_OUTPUT,
    CONVERTER_COMMON,
    FORCE,
    PACKAGE_PATH,
    xacro_choice,
)
from urdf_sdf.cli.urdf2sdf import PROG, convert, uri_scheme_problem
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.urdf2sdf.convert import ToSdf


def run(params: dict) -> int:
    """``urdf2sdf``'s body: the exit code (a usage error raises :class:`UsageError`
    before anything is read or written)."""
    options, expansion = prepared(params)
    return convert(params["urdf"], params["output"], options, expansion,
                   strict=params["strict"], quiet=params["quiet"], as_json=params["as_json"],
                   jobs=params["jobs"])


def prepared(params: dict) -> tuple[ToSdf, XacroOptions]:
    """What the command line asks of the converter and of a xacro input (a usage error
    for a value neither takes)."""
    return conversion_options(params), xacro_choice(params, package_paths=True)


def conversion_options(params: dict) -> ToSdf:
    """What the command line asks of the converter."""
    return ToSdf(relative=params["relative"], sdf_version=params["sdf_version"],
                 lump_fixed=params["lump_fixed"], uri_scheme=params["uri_scheme"],
                 fix_inertia=params["fix_inertia"])


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
        Option(("--sdf-version",), "sdf_version", str,
               help="SDFormat version to write (default: the lowest that expresses the "
                    "result)."),
        Option(("--lump-fixed",), "lump_fixed", default=False,
               help="Merge fixed-joint children into their parent."),
        Option(("--fix-inertia",), "fix_inertia", default=False,
               help="Repair inertia tensors libsdformat refuses (raise the smallest "
                    "principal moment until the triangle inequality holds)."),
        Option(("--uri-scheme",), "uri_scheme", str, check=uri_scheme_problem, default="package",
               help="'package' keeps package:// mesh URIs; 'model' rewrites them to "
                    "model://."),
        Option(("--model-dir",), "model_dir", Path,
               help="Write a Gazebo model directory here (model.config, model.sdf, meshes "
                    "copied, model://NAME URIs)."),
        PACKAGE_PATH, FORCE, *CONVERTER_COMMON))
