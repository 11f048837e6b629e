"""``python -m urdf_sdf.cli.MODULE ARGS...``: what running a module of the command line does.

* ``urdf_sdf.cli.urdf2sdf`` and ``urdf_sdf.cli.sdf2urdf``, named as the console scripts, run
  that console script with ``ARGS`` exactly as ``urdf2sdf ARGS`` (``python -m urdf_sdf.cli
  urdf2sdf ARGS``) does;
* ``urdf_sdf.cli`` (:mod:`urdf_sdf.cli.__main__`) and ``urdf_sdf.cli.main`` (``urdf-sdf``)
  are programs of their own: their code runs;
* any other module is not a program: running it prints how to run the commands and exits
  2, where Python would run its definitions and exit 0 having done nothing.

:mod:`urdf_sdf.cli` asks :func:`script_run_as` while Python locates the module to run
(``sys.argv[0]`` is ``-m`` then), before that module's own code runs, and runs the console
script it names. This module imports nothing of ours, so that a program of its own (the
xacro sandbox, started once per expansion) starts no slower for the question.
"""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

PACKAGE = "urdf_sdf.cli"
# Modules named as a console script: running one runs that script.
SCRIPT_MODULES = {f"{PACKAGE}.urdf2sdf": "urdf2sdf", f"{PACKAGE}.sdf2urdf": "sdf2urdf"}
# Modules that are programs of their own (an ``if __name__ == "__main__"`` block).
PROGRAMS = frozenset({PACKAGE, f"{PACKAGE}.__main__", f"{PACKAGE}.main",
                      f"{PACKAGE}.xacro_sandbox"})
# The console scripts (``urdf_sdf.cli.quick.SCRIPTS``), as the usage line names them.
COMMANDS_USAGE = f"python -m {PACKAGE} {{urdf2sdf,sdf2urdf,urdf-sdf}} ARGS..."
USAGE_STATUS = 2


def module_of(argv: Sequence[str]) -> str | None:
    """The module that the interpreter's command line ``argv`` (``sys.orig_argv``) runs
    with ``-m`` (``-m NAME``, ``-mNAME``, ``-X dev -Im NAME``...), or None (a script,
    ``-c``)."""
    args = iter(argv[1:])
    for arg in args:
        if arg in ("-X", "-W"):
            next(args, None)  # the option's value
        elif arg.startswith(("-X", "-W", "--")):
            continue  # a value attached, a long option
        elif not arg.startswith("-") or arg == "-":
            return None  # a script, or standard input
        else:
            for position, flag in enumerate(arg[1:], start=2):
                if flag == "m":
                    return arg[position:] or next(args, None)
                if flag == "c":
                    return None
    return None


def script_run_as(argv: Sequence[str]) -> str | None:
    """The console script that ``python -m urdf_sdf.cli.MODULE`` (the interpreter's command
    line ``argv``) stands for; None for a program of its own, a module outside this
    package or none at all (Python says so). For any other module of this package: says how
    to run the commands and exits 2."""
    module = module_of(argv)
    if module is None or not module.startswith(f"{PACKAGE}.") or module in PROGRAMS \
            or importlib.util.find_spec(module) is None:
        return None
    script = SCRIPT_MODULES.get(module)
    if script is None:
        print(f"python -m {module}: {module} is not a program; run the commands as "
              f"{COMMANDS_USAGE}", file=sys.stderr)
        sys.exit(USAGE_STATUS)
    return script
