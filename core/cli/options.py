"""What the three command lines share: ``--version`` and the common options, and the
process set-up of a command that runs once and exits."""
from __future__ import annotations

import gc

import typer

from urdf_sdf import __version__
from urdf_sdf.core.diagnostics import Policy


def package_version() -> str:
    return __version__


def version_option(prog: str):
    """An eager ``--version`` option printing ``PROG VERSION`` and exiting 0."""
    def show(value: bool) -> None:
        if value:
            print(f"{prog} {package_version()}")
            raise typer.Exit(0)
    return typer.Option(False, "--version", callback=show, is_eager=True,
                        help="Print the version and exit.")


def short_lived_process() -> None:
    """A command runs once and exits: Python's cycle collector would only spend time
    scanning the model's objects, which the process frees all at once on exit."""
    gc.disable()


def policy(strict: bool) -> Policy:
    """The diagnostics policy of ``--strict``: warnings become errors."""
    return Policy(warnings_as_errors=strict)


# Options the commands share (typer accepts one OptionInfo as the default of many).
STRICT_OPTION = typer.Option(False, "--strict",
                             help="Treat warnings as errors: exit 1 and write nothing.")
QUIET_OPTION = typer.Option(False, "--quiet", "-q", help="Print errors only, no warnings.")
XACRO_ARG_OPTION = typer.Option(None, "--xacro-arg", metavar="NAME:=VALUE",
                                help="Argument for a .xacro input (repeatable).")
CONVERTER_JSON_OPTION = typer.Option(False, "--json",
                                     help="Print a JSON summary on stdout: {ok, output, "
                                          "diagnostics} (and document, without -o FILE).")
