"""``urdf2sdf``'s command-line interface (typer): its options, help texts and usage
errors. The conversion is :func:`urdf_sdf.cli.urdf2sdf.convert`; the console script
(:func:`urdf_sdf.cli.urdf2sdf.main`) comes here for whatever its quick path leaves.
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
from urdf_sdf.cli.packaging import model_dir_command
from urdf_sdf.cli.urdf2sdf import PROG, URI_SCHEMES, convert
from urdf_sdf.urdf2sdf.convert import Options

app = typer.Typer(add_completion=False, help="Convert URDF to SDFormat.")


@app.command()
def main_command(
        urdf: Path = typer.Argument(..., help="URDF file, '-' for standard input, a "
                                              ".urdf.xacro file (with --xacro), or a "
                                              "directory (with -o OUTDIR: converts every "
                                              ".urdf, and .urdf.xacro with --xacro)."),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout "
                                                   "('-': stdout); for a directory input, the "
                                                   "output directory."),
        relative: bool = typer.Option(False, "--relative",
                                      help="Joint poses relative_to the parent link and child "
                                           "links at their joint, xyz/rpy copied from the URDF."),
        sdf_version: Optional[str] = typer.Option(None, "--sdf-version",
                                                  help="SDFormat version to write (default: the "
                                                       "lowest that expresses the result)."),
        lump_fixed: bool = typer.Option(False, "--lump-fixed",
                                        help="Merge fixed-joint children into their parent."),
        fix_inertia: bool = typer.Option(False, "--fix-inertia",
                                         help="Repair inertia tensors libsdformat refuses "
                                              "(raise the smallest principal moment until "
                                              "the triangle inequality holds)."),
        uri_scheme: str = typer.Option("package", "--uri-scheme",
                                       help="'package' keeps package:// mesh URIs; 'model' "
                                            "rewrites them to model://."),
        model_dir: Optional[Path] = typer.Option(
            None, "--model-dir", help="Write a Gazebo model directory here (model.config, "
                                      "model.sdf, meshes copied, model://NAME URIs)."),
        package_path: Optional[List[Path]] = package_path_option(),
        force: bool = FORCE_OPTION,
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
    """Convert URDF to SDFormat."""
    if uri_scheme not in URI_SCHEMES:
        raise typer.BadParameter("--uri-scheme is 'package' or 'model'")
    options = Options(relative=relative, sdf_version=sdf_version, lump_fixed=lump_fixed,
                      uri_scheme=uri_scheme, fix_inertia=fix_inertia)
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path, package_path)
    if model_dir is not None:
        raise typer.Exit(model_dir_command(PROG, urdf, output, model_dir, options, expansion,
                                           [str(p) for p in package_path or []], strict,
                                           quiet, as_json, force))
    if not is_stdin(urdf) and urdf.is_dir():
        output = check_batch_output(output, PROG)
    raise typer.Exit(convert(urdf, output, options, expansion, strict=strict, quiet=quiet,
                             as_json=as_json, jobs=jobs))
