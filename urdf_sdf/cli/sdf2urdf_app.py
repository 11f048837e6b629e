"""``sdf2urdf``'s command-line interface (typer): its options, help texts and usage
errors. The conversion is :func:`urdf_sdf.cli.sdf2urdf.convert`; the console script
(:func:`urdf_sdf.cli.sdf2urdf.main`) comes here for whatever its quick path leaves.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from urdf_sdf.cli.inputs import is_stdin
from urdf_sdf.cli.options import (CONVERTER_JSON_OPTION, FORCE_OPTION, QUIET_OPTION,
                                       STRICT_OPTION, XACRO_ARG_OPTION, XACRO_ENV_OPTION,
                                       XACRO_OPTION, XACRO_PATH_OPTION, check_batch_output,
                                       package_path_option, version_option, xacro_choice)
from urdf_sdf.cli.packaging import package_dir_command
from urdf_sdf.cli.sdf2urdf import PROG, URI_SCHEMES, convert
from urdf_sdf.sdf2urdf.convert import Options

app = typer.Typer(add_completion=False, help="Convert SDFormat to URDF.")


@app.command()
def main_command(
        sdf: Path = typer.Argument(..., help="SDFormat file (model or world), '-' for standard "
                                             "input, or a directory (with -o OUTDIR)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout "
                                                   "('-': stdout); for a directory input, the "
                                                   "output directory."),
        model: Optional[str] = typer.Option(None, "--model",
                                            help="The model to convert from a world."),
        all_models: bool = typer.Option(False, "--all-models",
                                        help="Every model of a world into one URDF, each "
                                             "hanging from world where the world places it "
                                             "(names MODEL::NAME, joined by --separator)."),
        package_dir: Optional[Path] = typer.Option(
            None, "--package-dir", help="Write a ROS package here (package.xml, build files, "
                                        "urdf/NAME.urdf, meshes copied, package://NAME URIs)."),
        package_name: Optional[str] = typer.Option(
            None, "--package-name", help="The package's name (default: --package-dir's "
                                         "folder name)."),
        build_type: str = typer.Option("ament_cmake", "--build-type",
                                       help="ament_cmake, ament_python or catkin."),
        package_path: Optional[List[Path]] = package_path_option(),
        force: bool = FORCE_OPTION,
        separator: str = typer.Option("::", "--separator",
                                      help="Joins nested model names into URDF names."),
        drop_frames: bool = typer.Option(False, "--drop-frames",
                                         help="Leave //frame elements out (with a warning)."),
        approximate: bool = typer.Option(False, "--approximate",
                                         help="Map ball, universal, revolute2, screw and gearbox "
                                              "joints to revolute joints (with a warning)."),
        uri_scheme: Optional[str] = typer.Option(None, "--uri-scheme",
                                                 help="'package' rewrites model:// mesh URIs to "
                                                      "package://."),
        path: Optional[List[Path]] = typer.Option(None, "--path", "-p",
                                                  help="Extra model:// search directory."),
        xacro: bool = XACRO_OPTION,
        xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
        xacro_env: bool = XACRO_ENV_OPTION,
        xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION,
        as_json: bool = CONVERTER_JSON_OPTION,
        quiet: bool = QUIET_OPTION,
        strict: bool = STRICT_OPTION,
        jobs: int = typer.Option(0, "-j", "--jobs", min=0,
                                 help="Worker processes for a directory input (default 0: "
                                      "every core, when the batch is large enough to "
                                      "gain from them; 1: one file after the other)."),
        version: bool = version_option(PROG),
) -> None:
    """Convert SDFormat to URDF."""
    if uri_scheme not in URI_SCHEMES:
        raise typer.BadParameter("--uri-scheme takes 'package'")
    if all_models and model is not None:
        raise typer.BadParameter("--model and --all-models exclude each other")
    options = Options(model=model, all_models=all_models, separator=separator,
                      drop_frames=drop_frames, approximate=approximate, uri_scheme=uri_scheme)
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path, package_path)
    if package_dir is not None:
        raise typer.Exit(package_dir_command(
            PROG, sdf, output, package_dir, package_name, build_type, options,
            [str(p) for p in path or []], [str(p) for p in package_path or []], strict,
            quiet, as_json, force, xacro=expansion))
    if not is_stdin(sdf) and sdf.is_dir():
        output = check_batch_output(output, PROG)
    raise typer.Exit(convert(sdf, output, options, expansion, paths=path, strict=strict,
                             quiet=quiet, as_json=as_json, jobs=jobs))
