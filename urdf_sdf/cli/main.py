"""The umbrella ``urdf-sdf`` command: ``frames``, ``check``, ``diff``...

Each command is a plain function, importable and testable with typer's runner.
Exit codes: 0 success (warnings allowed), 1 invalid input, 2 usage error.
A FILE argument may be ``-`` (standard input) or a ``*.xacro`` file (with ``--xacro`` only:
expanded in a restricted sandbox with the optional ``xacro`` package, see
:mod:`urdf_sdf.cli.xacro_expand`); diagnostics are rendered by :mod:`urdf_sdf.cli.render`
(``file:line[:col]: severity[CODE]: message`` and the source line under it).

What only one command needs (the diff and numpy, the URDF converter of ``print``, the
parity check, Graphviz) is imported when that command runs (``_LATER``). The console
script is :func:`urdf_sdf.cli.quick.urdf_sdf`, which answers ``--version`` without
importing this module.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import List, Optional

import typer

from urdf_sdf.cli.check import check_files, usage_problem
from urdf_sdf.cli.check import inspection_context as _context
from urdf_sdf.cli.options import (QUIET_OPTION, STRICT_OPTION, XACRO_ARG_OPTION,
                                       XACRO_ENV_OPTION, XACRO_OPTION, XACRO_PATH_OPTION,
                                       package_path_option, version_option, xacro_choice)
from urdf_sdf.cli.output import stdout_checked
from urdf_sdf.cli.quick import URDF_SDF, urdf_sdf
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.write.dot import GraphKind

PROG = URDF_SDF.prog
_LATER = Later({
    "graph_code": ("urdf_sdf.cli.inspect_commands", "graph_code"),
    "print_code": ("urdf_sdf.cli.inspect_commands", "print_code"),
    "frames_code": ("urdf_sdf.cli.inspect_commands", "frames_code"),
    "diff_code": ("urdf_sdf.cli.inspect_commands", "diff_code"),
    "diff_usage_problem": ("urdf_sdf.cli.inspect_commands", "diff_usage_problem"),
    "roundtrip_files": ("urdf_sdf.cli.roundtrip", "roundtrip_files"),
    "view_command": ("urdf_sdf.cli.view", "view_command"),
})

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Inspect and check robot descriptions (SDFormat and URDF).")

PathOption = typer.Option(None, "--path", "-p",
                          help="Extra directory to search for model:// includes (repeatable).")
QuietOption = QUIET_OPTION
FILE_HELP = "SDFormat or URDF file ('-': standard input)"


def tolerance(value: float) -> float:
    """``--tol``: a number >= 0 (``inf`` accepts any difference); a negative tolerance
    or NaN, which no difference can meet or fail, is a usage error."""
    if math.isnan(value) or value < 0:
        raise typer.BadParameter(f"{value!r} is not a tolerance: give a number >= 0")
    return value


@app.callback()
def _options(version: bool = version_option("urdf-sdf")) -> None:
    """Inspect and check robot descriptions (SDFormat and URDF)."""


@app.command()
@stdout_checked(PROG)
def frames(file: Path = typer.Argument(..., help=FILE_HELP),
           as_json: bool = typer.Option(False, "--json", help="Print JSON for machines."),
           quiet: bool = QuietOption,
           strict: bool = STRICT_OPTION,
           model: Optional[str] = typer.Option(None, "--model",
                                               help="Only this model (its scoped name, e.g. "
                                                    "one of a world's), posed in its frame."),
           path: Optional[List[Path]] = PathOption,
           xacro: bool = XACRO_OPTION,
           xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
           xacro_env: bool = XACRO_ENV_OPTION,
           xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION) -> None:
    """Print the pose of every link, joint, frame and nested model relative to the root."""
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path)
    raise typer.Exit(_LATER.frames_code(file, as_json, quiet, model, _context(path, strict),
                                        expansion))


@app.command()
@stdout_checked(PROG)
def check(files: List[Path] = typer.Argument(..., metavar="FILE...",
                                             help=FILE_HELP + "; several files are checked "
                                                  "one after the other"),
          urdf_parity: bool = typer.Option(False, "--urdf-parity",
                                           help="Also check that the model converts to URDF by "
                                                "copying xyz/rpy text (exit 0 when it does)."),
          model: Optional[str] = typer.Option(None, "--model",
                                              help="With --urdf-parity: the model of a world."),
          meshes: bool = typer.Option(False, "--meshes",
                                      help="Also check that every mesh resolves to a mesh file "
                                           "(STL, OBJ, COLLADA, glTF, GLB by content)."),
          package_path: Optional[List[Path]] = package_path_option(),
          as_json: bool = typer.Option(False, "--json",
                                       help="Print one JSON object per file, one per line, "
                                            "for machines: {ok, file, valid, diagnostics, "
                                            "parity} (schema: urdf_sdf/schemas/check.schema.json)."),
          quiet: bool = QuietOption,
          strict: bool = STRICT_OPTION,
          path: Optional[List[Path]] = PathOption,
          xacro: bool = XACRO_OPTION,
          xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
          xacro_env: bool = XACRO_ENV_OPTION,
          xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION) -> None:
    """Validate files; print diagnostics as file:line: error[CODE]: message and the source
    line. Exit 0 when every file passes, 1 when one does not, 2 on a usage error."""
    problem = usage_problem(files, model)
    if problem is not None:
        raise typer.BadParameter(problem)
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path, package_path)
    raise typer.Exit(check_files(files, urdf_parity, model, meshes, as_json, quiet,
                                 _context(path, strict, package_path), expansion))


@app.command()
@stdout_checked(PROG)
def diff(a: Path = typer.Argument(..., help="First description (URDF or SDFormat; '-': "
                                             "standard input)"),
         b: Path = typer.Argument(..., help="Second description (URDF or SDFormat; '-': "
                                             "standard input)"),
         tol: float = typer.Option(1e-9, "--tol", callback=tolerance,
                                   help="Tolerance (metres, radians, kg...): a number >= 0."),
         configurations: int = typer.Option(20, "--configurations",
                                            help="Random joint configurations to compare."),
         seed: int = typer.Option(0, "--seed", help="Seed of the random configurations."),
         model: Optional[str] = typer.Option(None, "--model",
                                             help="Compare this model (its scoped name) of each "
                                                  "file that holds it; a file that is one model "
                                                  "(a URDF) is compared whole."),
         as_json: bool = typer.Option(False, "--json", help="Print JSON for machines."),
         strict: bool = STRICT_OPTION,
         path: Optional[List[Path]] = PathOption,
         xacro: bool = XACRO_OPTION,
         xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
         xacro_env: bool = XACRO_ENV_OPTION,
         xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION) -> None:
    """Compare two robot descriptions; exit 0 when they are equivalent, 1 when not
    (with --strict, a description that loads with warnings does not load)."""
    problem = _LATER.diff_usage_problem(a, b)
    if problem is not None:
        raise typer.BadParameter(problem)
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path)
    raise typer.Exit(_LATER.diff_code(a, b, tol, configurations, seed, model, as_json,
                                      _context(path, strict), expansion))


@app.command("roundtrip")
@stdout_checked(PROG)
def roundtrip(files: List[Path] = typer.Argument(..., metavar="FILE...",
                                                 help="URDF or SDFormat files"),
              quiet: bool = typer.Option(False, "--quiet", "-q",
                                         help="Print only the files that do not survive."),
              strict: bool = STRICT_OPTION,
              path: Optional[List[Path]] = PathOption) -> None:
    """Check that each file survives conversion to the other format and back (URDF:
    urdf2sdf | sdf2urdf; SDF: sdf2urdf | urdf2sdf) with an empty diff; exit 1 when one
    does not."""
    raise typer.Exit(_LATER.roundtrip_files(files, _context(path, strict), quiet))


@app.command("print")
@stdout_checked(PROG)
def print_command(file: Path = typer.Argument(..., help="SDFormat or URDF file"),
                  output: Optional[Path] = typer.Option(None, "-o", "--output",
                                                        help="Write here (atomically) instead "
                                                             "of stdout."),
                  preserve_includes: bool = typer.Option(False, "--preserve-includes",
                                                         help="Keep <include> elements instead "
                                                              "of inlining the models."),
                  strict: bool = STRICT_OPTION,
                  path: Optional[List[Path]] = PathOption) -> None:
    """Print the composed model as one SDFormat file, every <include> inlined (like
    `gz sdf -p`); diagnostics go to stderr."""
    raise typer.Exit(_LATER.print_code(file, output, preserve_includes,
                                       _context(path, strict)))


@app.command()
@stdout_checked(PROG)
def graph(file: Path = typer.Argument(..., help=FILE_HELP),
          kind: GraphKind = typer.Option(GraphKind.both, "--kind", "-k", case_sensitive=False,
                                         help="attached_to, relative_to or both (the frame "
                                              "graphs), or tree (the kinematic tree)."),
          output: Optional[Path] = typer.Option(None, "-o", "--output",
                                                help="Write here instead of stdout: .dot or .gv "
                                                     "for DOT text; .svg, .png or .pdf rendered "
                                                     "by Graphviz's dot program."),
          quiet: bool = QuietOption,
          strict: bool = STRICT_OPTION,
          path: Optional[List[Path]] = PathOption,
          xacro: bool = XACRO_OPTION,
          xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
          xacro_env: bool = XACRO_ENV_OPTION,
          xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION) -> None:
    """Write the frame graphs (attached_to, relative_to) or the kinematic tree as Graphviz
    DOT; -o FILE.svg/.png/.pdf renders it with Graphviz's dot program."""
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path)
    raise typer.Exit(_LATER.graph_code(file, kind, output, quiet, strict, path, expansion))


@app.command()
@stdout_checked(PROG)
def view(files: List[Path] = typer.Argument(..., metavar="FILE [FILE]",
                                            help="SDFormat, URDF or xacro file (with --xacro; "
                                                 "'-': standard input); a second file is "
                                                 "overlaid on the first and their differences "
                                                 "highlighted"),
         output: Optional[Path] = typer.Option(None, "-o", "--output",
                                               help="Write the HTML page here (atomically); "
                                                    "stdout without -o and --png."),
         png: Optional[Path] = typer.Option(None, "--png",
                                            help="Also write a still picture (PNG, isometric "
                                                 "view), taken by headless Chromium."),
         tol: float = typer.Option(1e-9, "--tol", callback=tolerance,
                                   help="With two files: diff's tolerance (a number >= 0)."),
         configurations: int = typer.Option(20, "--configurations",
                                            help="With two files: diff's random joint "
                                                 "configurations."),
         seed: int = typer.Option(0, "--seed", help="With two files: diff's seed."),
         package_path: Optional[List[Path]] = package_path_option(),
         quiet: bool = QuietOption,
         strict: bool = STRICT_OPTION,
         path: Optional[List[Path]] = PathOption,
         xacro: bool = XACRO_OPTION,
         xacro_arg: Optional[List[str]] = XACRO_ARG_OPTION,
         xacro_env: bool = XACRO_ENV_OPTION,
         xacro_path: Optional[List[Path]] = XACRO_PATH_OPTION) -> None:
    """Write an interactive 3D page of a robot (one self-contained HTML file, offline):
    shapes, frames, joint axes, the kinematic tree, a joint slider; with two files, both
    overlaid and every difference `urdf-sdf diff` reports highlighted. Needs
    pip install 'urdf-sdf[view]'."""
    context = _context(path, strict, package_path)
    expansion = xacro_choice(xacro, xacro_arg, xacro_env, xacro_path, package_path)
    raise typer.Exit(_LATER.view_command(files, output, png, context, quiet, tol,
                                         configurations, seed, xacro=expansion))


def main() -> None:
    urdf_sdf()


if __name__ == "__main__":
    main()
