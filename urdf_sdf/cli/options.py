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
                      metavar="DIR",
                      help="A folder searched for package://PKG URIs and $(find PKG): DIR "
                           "itself when named PKG, else a folder named PKG below it, with or "
                           "without a package.xml (repeatable). A folder named PKG above the "
                           "input is found without it.")
PACKAGE = Option(("--package",), "package", str, repeated=True, metavar="NAME=DIR",
                 help="package://NAME (and $(find NAME)) is the folder DIR, whatever its "
                      "name (repeatable).")
# The options naming where packages are: every command that reads a file takes both.
PACKAGES = (PACKAGE_PATH, PACKAGE)
FILE_HELP = "SDFormat or URDF file ('-': standard input)"
OUTPUT = Option(("-o", "--output"), "output", Path)
PRINTED_OUTPUT = OUTPUT.with_help("Write here (atomically) instead of stdout.")
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

REPORT = Option(("--report",), "report", default=False,
                help="Say what the conversion changed, on stderr after the diagnostics: "
                     "elements converted one to one, content carried, defaults made "
                     "explicit, repairs, approximations, renames, drops, and a one-line "
                     "verdict (with --json: the JSON's \"report\").")
# The options both converters (urdf2sdf, sdf2urdf) end with, in the order --help lists them.
CONVERTER_COMMON = (*XACRO, CONVERTER_JSON, REPORT, QUIET, STRICT, JOBS, VERSION)


def tolerance_problem(value: float) -> str | None:
    """``--tol``: a finite number >= 0. A negative tolerance or NaN, which no difference
    can meet, and an infinite one, which every difference meets (a check in CI that can
    never fail), are usage errors."""
    if not math.isfinite(value) or value < 0:
        return f"{value!r} is not a tolerance: give a finite number >= 0"
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


def package_mappings(values: Sequence[str] | None) -> dict[str, str]:
    """``--package NAME=DIR`` values as ``{NAME: DIR}``; a usage error for a value
    without a name or a folder."""
    mappings: dict[str, str] = {}
    for value in values or []:
        name, equals, folder = value.partition("=")
        if not equals or not name.strip() or not folder.strip() or "/" in name:
            raise UsageError(f"{escape(repr(value))} is not NAME=DIR (a package's name, "
                             "'=', the folder its URIs start from)", "--package")
        mappings[name.strip()] = folder
    return mappings


def inspection_context(params: dict) -> Context:
    """The context of the commands that inspect rather than convert: search paths from
    ``--path``, ``--package-path``, ``--package`` and the environment, ``--strict``'s
    policy, and no XML kept (the model need not keep it: ``Context.keep_xml``)."""
    context = command_context(params)
    context.keep_xml = False
    return context


def command_context(params: dict, extra_paths: Sequence[str] = ()) -> Context:
    """The context of a command line: ``--path`` (then ``extra_paths``),
    ``--package-path``, ``--package`` and the environment, and ``--strict``'s policy."""
    return Context.from_environment(
        [str(p) for p in params.get("path") or []] + list(extra_paths), policy(params["strict"]),
        [str(p) for p in params["package_path"] or []], package_mappings(params["package"]))


def xacro_choice(params: dict) -> XacroOptions:
    """What ``--xacro``, ``--xacro-arg``, ``--xacro-env``, ``--xacro-path``,
    ``--package-path`` and ``--package`` allow a xacro input; a usage error for a
    ``--xacro-arg`` that is not ``name:=value`` or a ``--package`` that is not NAME=DIR."""
    values = params["xacro_arg"]
    mappings = xacro_mappings(values)
    if mappings is None:
        wrong = next(value for value in values or [] if xacro_mapping(value) is None)
        raise UsageError(f"{escape(repr(wrong))} is not name:=value", "--xacro-arg")
    return xacro_options(params["xacro"], mappings, params["xacro_env"], params["xacro_path"],
                         params["package_path"], package_mappings(params["package"]))


def inspection_inputs(params: dict) -> tuple[Context, XacroOptions]:
    """What an inspecting command loads its files with: the context of its command line
    (:func:`inspection_context`) and what a xacro input is allowed (:func:`xacro_choice`;
    both raise a usage error for a bad value)."""
    xacro = xacro_choice(params)
    return inspection_context(params), xacro
