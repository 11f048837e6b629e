"""What the three typer interfaces share: ``--version``, the common options, and the
usage errors of their arguments (typer's ``BadParameter``). The process set-up of a
command is in :mod:`urdf_sdf.cli.crash`, the quick path in
:mod:`urdf_sdf.cli.quick`."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import typer

from urdf_sdf.cli.batch import batch_output_problem
from urdf_sdf.cli.inputs import xacro_mapping, xacro_mappings
from urdf_sdf.cli.quick import version_line
from urdf_sdf.cli.xacro_expand import XacroOptions, xacro_options
from urdf_sdf.core.base.diagnostics import Policy
from urdf_sdf.core.base.safe_text import escape


def version_option(prog: str):
    """An eager ``--version`` option printing ``PROG VERSION`` and exiting 0."""
    def show(value: bool) -> None:
        if value:
            print(version_line(prog))
            raise typer.Exit(0)
    return typer.Option(False, "--version", callback=show, is_eager=True,
                        help="Print the version and exit.")


def package_path_option():
    """``--package-path DIR`` (repeatable): searched for ``package://`` URIs first."""
    return typer.Option(None, "--package-path",
                        help="A folder holding ROS packages, searched for package:// URIs "
                             "first (repeatable).")


def policy(strict: bool) -> Policy:
    """The diagnostics policy of ``--strict``: warnings become errors."""
    return Policy(warnings_as_errors=strict)


def parse_xacro_args(values: Sequence[str] | None) -> dict[str, str]:
    """``name:=value`` strings (``--xacro-arg``) as xacro mappings; a usage error otherwise."""
    mappings = xacro_mappings(values)
    if mappings is None:
        wrong = next(value for value in values or [] if xacro_mapping(value) is None)
        raise typer.BadParameter(f"{escape(repr(wrong))} is not name:=value",
                                 param_hint="--xacro-arg")
    return mappings


def xacro_choice(expand: bool, args: Sequence[str] | None, environment: bool,
                 paths: Sequence[Path] | None,
                 package_paths: Sequence[Path] | None = None) -> XacroOptions:
    """What ``--xacro``, ``--xacro-arg``, ``--xacro-env``, ``--xacro-path`` (and
    ``--package-path``) allow a xacro input; a usage error for a bad ``--xacro-arg``."""
    return xacro_options(expand, parse_xacro_args(args), environment, paths, package_paths)


def check_batch_output(output: Path | None, prog: str) -> Path:
    """The output directory of a batch: required, not standard output, not a file."""
    problem = batch_output_problem(output)
    if problem is not None:
        raise typer.BadParameter(escape(problem), param_hint="-o/--output")
    return output


# Options the commands share (typer accepts one OptionInfo as the default of many).
FORCE_OPTION = typer.Option(False, "--force",
                            help="With --model-dir/--package-dir: replace a directory an "
                                 "earlier run wrote (its model.config or package.xml says "
                                 "so). Any other non-empty directory is never replaced.")
STRICT_OPTION = typer.Option(False, "--strict",
                             help="Treat warnings as errors: exit 1 and write nothing.")
QUIET_OPTION = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings.")
XACRO_OPTION = typer.Option(False, "--xacro",
                            help="Expand a .xacro input (never done without this option), "
                                 "in a restricted sandbox: no commands, no environment, "
                                 "no files outside its package.")
XACRO_ARG_OPTION = typer.Option(None, "--xacro-arg", metavar="NAME:=VALUE",
                                help="With --xacro: an argument of the .xacro input "
                                     "(repeatable).")
XACRO_ENV_OPTION = typer.Option(False, "--xacro-env",
                                help="With --xacro: let $(env)/$(optenv) read the environment, "
                                     "and $(find) search ROS_PACKAGE_PATH/AMENT_PREFIX_PATH.")
XACRO_PATH_OPTION = typer.Option(None, "--xacro-path", metavar="DIR",
                                 help="With --xacro: a directory the expansion may read and "
                                      "$(find) searches, besides the input's package "
                                      "(repeatable).")
CONVERTER_JSON_OPTION = typer.Option(False, "--json",
                                     help="Print a JSON summary on stdout: {ok, output, "
                                          "diagnostics} (and document, without -o FILE).")
