"""The ``sdf2urdf`` command: its arguments and options, declared once (:data:`COMMAND`),
and its body (:func:`run`): a conversion (:func:`urdf_sdf.cli.sdf2urdf.convert`); with
``--package-dir``, a ROS package (:data:`urdf_sdf.cli.packaging.PACKAGE_DIR`). The console
script is :func:`urdf_sdf.cli.quick.sdf2urdf`.
"""
from __future__ import annotations

from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command, Option, UsageError
from urdf_sdf.cli.options import (
    CONVERTED_OUTPUT,
    CONVERTER_COMMON,
    FORCE,
    MODEL,
    PACKAGES,
    PATH,
    xacro_choice,
)
from urdf_sdf.cli.sdf2urdf import PROG, convert, uri_scheme_problem
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.sdf2urdf.convert import ToUrdf


def run(params: dict) -> int:
    """``sdf2urdf``'s body: the exit code (a usage error raises :class:`UsageError`
    before anything is read or written)."""
    options, expansion = prepared(params)
    return convert(params["sdf"], params["output"], options, expansion, paths=params["path"],
                   strict=params["strict"], quiet=params["quiet"], as_json=params["as_json"],
                   jobs=params["jobs"], report=params["report"])


def prepared(params: dict) -> tuple[ToUrdf, XacroOptions]:
    """What the command line asks of the converter and of a xacro input (a usage error
    for values they cannot take together)."""
    if params["all_models"] and params["model"] is not None:
        raise UsageError("--model and --all-models exclude each other")
    return conversion_options(params), xacro_choice(params)


def conversion_options(params: dict) -> ToUrdf:
    """What the command line asks of the converter."""
    return ToUrdf(model=params["model"], all_models=params["all_models"],
                  separator=params["separator"], drop_frames=params["drop_frames"],
                  approximate=params["approximate"], uri_scheme=params["uri_scheme"])


COMMAND = Command(
    prog=PROG, help="Convert SDFormat to URDF.", run=run,
    routes=(("package_dir", "sdf2urdf --package-dir"),),
    arguments=(Argument("sdf", "SDFormat file (model or world), '-' for standard input, or "
                               "a directory (with -o OUTDIR)."),),
    options=(
        CONVERTED_OUTPUT,
        MODEL.with_help("The model to convert from a world."),
        Option(("--all-models",), "all_models", default=False,
               help="Every model of a world into one URDF, each hanging from world where "
                    "the world places it (names MODEL::NAME, joined by --separator)."),
        Option(("--package-dir",), "package_dir", Path,
               help="Write a ROS package here (package.xml, build files, urdf/NAME.urdf, "
                    "meshes copied, package://NAME URIs)."),
        Option(("--package-name",), "package_name", str,
               help="The package's name (default: --package-dir's folder name)."),
        Option(("--build-type",), "build_type", str, default="ament_cmake",
               help="ament_cmake, ament_python or catkin."),
        *PACKAGES, FORCE,
        Option(("--separator",), "separator", str, default="::",
               help="Joins nested model names into URDF names."),
        Option(("--drop-frames",), "drop_frames", default=False,
               help="Leave //frame elements out (with a warning)."),
        Option(("--approximate",), "approximate", default=False,
               help="Map ball, universal, revolute2, screw and gearbox joints to revolute "
                    "joints (with a warning)."),
        Option(("--uri-scheme",), "uri_scheme", str, check=uri_scheme_problem,
               help="'package' rewrites model:// mesh URIs to package://."),
        PATH,
        *CONVERTER_COMMON))
