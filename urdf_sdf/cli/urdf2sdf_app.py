"""The ``urdf2sdf`` command: its arguments and options, declared once (:data:`COMMAND`),
and its body (:func:`run`): a conversion (:func:`urdf_sdf.cli.urdf2sdf.convert`) or a
Gazebo model directory (:func:`urdf_sdf.cli.packaging.model_dir_command`). The console
script is :func:`urdf_sdf.cli.quick.urdf2sdf`; ``app``, the typer app built from the
declaration (``--help``, usage errors), is built when it is asked for.
"""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.cli.declare import VERSION, Argument, Command, Option, UsageError
from urdf_sdf.cli.inputs import is_stdin
from urdf_sdf.cli.options import (CONVERTED_OUTPUT, CONVERTER_JSON, FORCE, JOBS, PACKAGE_PATH,
                                  QUIET, STRICT, XACRO, batch_output, xacro_choice)
from urdf_sdf.cli.packaging import model_dir_command
from urdf_sdf.cli.typer_app import app_attribute, command_app
from urdf_sdf.cli.urdf2sdf import PROG, URI_SCHEMES, convert
from urdf_sdf.urdf2sdf.convert import ToSdf


def run(params: dict) -> int:
    """``urdf2sdf``'s body: the exit code (a usage error raises :class:`UsageError`
    before anything is read or written)."""
    if params["uri_scheme"] not in URI_SCHEMES:
        raise UsageError("--uri-scheme is 'package' or 'model'")
    options = conversion_options(params)
    expansion = xacro_choice(params, package_paths=True)
    urdf, output = params["urdf"], params["output"]
    if params["model_dir"] is not None:
        return model_dir_command(PROG, urdf, output, params["model_dir"], options, expansion,
                                 [str(p) for p in params["package_path"] or []],
                                 params["strict"], params["quiet"], params["as_json"],
                                 params["force"])
    if not is_stdin(urdf) and urdf.is_dir():
        output = batch_output(output)
    return convert(urdf, output, options, expansion, strict=params["strict"],
                   quiet=params["quiet"], as_json=params["as_json"], jobs=params["jobs"])


def conversion_options(params: dict) -> ToSdf:
    """What the command line asks of the converter."""
    return ToSdf(relative=params["relative"], sdf_version=params["sdf_version"],
                 lump_fixed=params["lump_fixed"], uri_scheme=params["uri_scheme"],
                 fix_inertia=params["fix_inertia"])


COMMAND = Command(
    prog=PROG, help="Convert URDF to SDFormat.", run=run,
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
        Option(("--uri-scheme",), "uri_scheme", str, default="package",
               help="'package' keeps package:// mesh URIs; 'model' rewrites them to "
                    "model://."),
        Option(("--model-dir",), "model_dir", Path,
               help="Write a Gazebo model directory here (model.config, model.sdf, meshes "
                    "copied, model://NAME URIs)."),
        PACKAGE_PATH, FORCE, *XACRO, CONVERTER_JSON, QUIET, STRICT, JOBS, VERSION))

__getattr__ = app_attribute(__name__, lambda: command_app(COMMAND))
