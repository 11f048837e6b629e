"""What several commands share: their common options, declared once
(:class:`~urdf_sdf.cli.declare.Option`; :data:`CONVERTER_COMMON`: the converters' common
tail), the usage errors of those options' values
(:class:`~urdf_sdf.cli.declare.UsageError`), and what the inspecting commands load with
(:func:`inspection_inputs`: :func:`inspection_context` and :func:`xacro_choice`). Each
command's own options are declared in its module; the console scripts are
:mod:`urdf_sdf.cli.quick`."""
from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from urdf_sdf.cli.declare import VERSION, Option, UsageError
from urdf_sdf.cli.inputs import xacro_mapping, xacro_mappings
from urdf_sdf.cli.xacro_expand import XacroOptions, xacro_options
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Policy
from urdf_sdf.core.base.safe_text import escape

FORCE = Option(("--force",), "force", default=False,
               help="With --model-dir/--package-dir: replace a directory an earlier run wrote "
                    "(its model.config or package.xml says so). Any other non-empty directory "
                    "is never replaced.")
STRICT = Option(("--strict",), "strict", default=False,
                help="Treat warnings as errors: exit 1 and write nothing.")
QUIET = Option(("--quiet", "-q"), "quiet", default=False,
               help="Print errors only, no warnings.")
JSON = Option(("--json",), "as_json", default=False, help="Print JSON for machines.")
CONVERTER_JSON = JSON.with_help("Print a JSON summary on stdout: {ok, output, diagnostics} "
                                "(and document, without -o FILE).")
PATH = Option(("--path", "-p"), "path", Path, repeated=True,
              help="Extra directory to search for model:// includes, whose files an "
                   "include may read (repeatable).")
PACKAGE_PATH = Option(("--package-path",), "package_path", Path, repeated=True,
                      help="A folder holding ROS packages, searched for package:// URIs "
                           "first (repeatable).")
FILE_HELP = "SDFormat or URDF file ('-': standard input)"
OUTPUT = Option(("-o", "--output"), "output", Path)
CONVERTED_OUTPUT = OUTPUT.with_help("Write here (atomically) instead of stdout ('-': stdout); "
                                    "for a directory input, the output directory.")
MODEL = Option(("--model",), "model", str)
JOBS = Option(("-j", "--jobs"), "jobs", int, default=0, minimum=0,
              help="Worker processes for a directory input (default 0: every core, when the "
                   "batch is large enough to gain from them; 1: one file after the other).")
CONFIGURATIONS = Option(("--configurations",), "configurations", int, default=20)
SEED = Option(("--seed",), "seed", int, default=0)
XACRO = (
    Option(("--xacro",), "xacro", default=False,
           help="Expand a .xacro input (never done without this option), in a restricted "
                "sandbox: no commands, no environment, no files outside its package."),
    Option(("--xacro-arg",), "xacro_arg", str, repeated=True, metavar="NAME:=VALUE",
           help="With --xacro: an argument of the .xacro input (repeatable)."),
    Option(("--xacro-env",), "xacro_env", default=False,
           help="With --xacro: let $(env)/$(optenv) read the environment, and $(find) search "
                "ROS_PACKAGE_PATH/AMENT_PREFIX_PATH."),
    Option(("--xacro-path",), "xacro_path", Path, repeated=True, metavar="DIR",
           help="With --xacro: a directory the expansion may read and $(find) searches, "
                "besides the input's package (repeatable)."))

# The options both converters (urdf2sdf, sdf2urdf) end with, in the order --help lists them.
CONVERTER_COMMON = (*XACRO, CONVERTER_JSON, QUIET, STRICT, JOBS, VERSION)


def tolerance_problem(value: float) -> str | None:
    """``--tol``: a number >= 0 (``inf`` accepts any difference); a negative tolerance
    or NaN, which no difference can meet or fail, is a usage error."""
    if math.isnan(value) or value < 0:
        return f"{value!r} is not a tolerance: give a number >= 0"
    return None


TOLERANCE = Option(("--tol",), "tol", float, default=1e-9, check=tolerance_problem)


def comparison_options(tolerance: str, configurations: str, seed: str) -> tuple[Option, ...]:
    """``--tol``, ``--configurations`` and ``--seed``: the settings of a comparison
    (``diff``; ``view`` of two files), each explained for one command."""
    return (TOLERANCE.with_help(tolerance), CONFIGURATIONS.with_help(configurations),
            SEED.with_help(seed))


def policy(strict: bool) -> Policy:
    """The diagnostics policy of ``--strict``: warnings become errors."""
    return Policy(warnings_as_errors=strict)


def inspection_context(paths: Sequence[Path] | None, strict: bool,
                       package_paths: Sequence[Path] | None = None) -> Context:
    """The context of the commands that inspect rather than convert: search paths from
    ``--path`` (and ``--package-path``) and the environment, ``--strict``'s policy, and
    no XML kept (the model need not keep it: ``Context.keep_xml``)."""
    context = Context.from_environment([str(p) for p in paths or []], policy(strict),
                                       [str(p) for p in package_paths or []])
    context.keep_xml = False
    return context


def xacro_choice(params: dict, package_paths: bool = False) -> XacroOptions:
    """What ``--xacro``, ``--xacro-arg``, ``--xacro-env``, ``--xacro-path`` (and, when
    ``package_paths``, ``--package-path``) allow a xacro input; a usage error for a
    ``--xacro-arg`` that is not ``name:=value``."""
    values = params["xacro_arg"]
    mappings = xacro_mappings(values)
    if mappings is None:
        wrong = next(value for value in values or [] if xacro_mapping(value) is None)
        raise UsageError(f"{escape(repr(wrong))} is not name:=value", "--xacro-arg")
    return xacro_options(params["xacro"], mappings, params["xacro_env"], params["xacro_path"],
                         params["package_path"] if package_paths else None)


def inspection_inputs(params: dict, package_paths: bool = False) -> tuple[Context, XacroOptions]:
    """What an inspecting command loads its files with: the context of ``--path`` and
    ``--strict`` (:func:`inspection_context`) and what a xacro input is allowed
    (:func:`xacro_choice`: a usage error for a bad ``--xacro-arg``); ``package_paths``: the
    command takes ``--package-path`` too."""
    xacro = xacro_choice(params, package_paths)
    return inspection_context(params["path"], params["strict"],
                              params["package_path"] if package_paths else None), xacro

