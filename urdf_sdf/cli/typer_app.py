"""The typer apps, built from the commands' declarations (:mod:`urdf_sdf.cli.declare`): what
answers ``--help``, usage errors (exit 2) and shell completion, and every command line
the plain path leaves.

Each :class:`~urdf_sdf.cli.declare.Command` becomes a typer command whose function has
one parameter per declared argument and option (a signature built from the declaration,
which typer reads as it reads a written one) and calls the command's body; a
:class:`~urdf_sdf.cli.declare.UsageError` from the body is click's bad parameter.
``--help`` is click's plain text (:data:`PLAIN_HELP`; a value's name from
:data:`METAVARS` when the declaration gives none). typer is imported when an app is built,
never on the plain path (``_TYPER``: the names used).
"""
from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

from urdf_sdf.cli.declare import Argument, Command, Option, UsageError, version_line
from urdf_sdf.core.base.lazy import Later

_TYPER = Later({
    "Typer": ("typer", "Typer"),
    "Option": ("typer", "Option"),
    "Argument": ("typer", "Argument"),
    "Exit": ("typer", "Exit"),
    "BadParameter": ("typer", "BadParameter"),
})


# ``--help`` as click writes it: paragraphs filled to the terminal's width (not broken
# where a help string has a line break), a flag without a type after it, the text as
# written (rich would read ``'urdf-sdf[view]'`` as markup). No shell completion.
PLAIN_HELP: dict[str, Any] = {"add_completion": False, "rich_markup_mode": None}

# A command's body for its parameters (``Command.run``, or the one a route leads to).
Body = Callable[[Command, dict], int]


def command_app(command: Command, body: Body) -> Any:
    """The typer app of one command (``urdf2sdf``, ``sdf2urdf``)."""
    app = _TYPER.Typer(help=command.help, **PLAIN_HELP)
    app.command()(typer_function(command, "main_command", body))
    return app


def group_app(group: Command, commands: list[Command], body: Body) -> Any:
    """The typer app of ``urdf-sdf``: ``group``'s options (``--version``) and its
    ``commands``, listed in that order."""
    app = _TYPER.Typer(no_args_is_help=True, help=group.help, **PLAIN_HELP)
    app.callback()(typer_function(group, "_options", body))
    for command in commands:
        name = command.name or command.prog
        app.command(name, short_help=" ".join(command.help.split()))(
            typer_function(command, name, body))
    return app


def typer_function(command: Command, name: str, body: Body) -> Callable[..., None]:
    """A function typer reads as it reads a written command: the declared parameters in
    order, each with its type and its ``typer.Argument``/``typer.Option`` default; it
    runs ``body(command, parameters)``."""
    def function(**params) -> None:
        if command.run is None:
            return  # a group's options only
        try:
            code = body(command, params)
        except UsageError as exc:
            raise _TYPER.BadParameter(exc.message, param_hint=exc.hint) from None
        raise _TYPER.Exit(code)

    parameters = [_argument(a) for a in command.arguments] + \
        [_option(o, command.prog) for o in command.options]
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {p.name: p.annotation for p in parameters}
    function.__name__ = function.__qualname__ = name
    function.__doc__ = command.help
    return function


# What ``--help`` shows after an option taking a value whose declaration names none (a
# flag shows nothing; an enum option, its choices).
METAVARS: dict[type, str] = {Path: "PATH", str: "TEXT", int: "N", float: "NUMBER"}


def _argument(argument: Argument) -> inspect.Parameter:
    metavar = argument.metavar or argument.name.upper() + ("..." if argument.many else "")
    default = _TYPER.Argument(..., help=argument.help, metavar=metavar)
    return inspect.Parameter(argument.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=list[Path] if argument.many else Path)


def _option(option: Option, prog: str) -> inspect.Parameter:
    settings: dict[str, Any] = {"help": option.help}
    metavar = option.metavar or METAVARS.get(option.kind)
    if metavar is not None and not option.is_flag:
        settings["metavar"] = metavar
    if option.minimum is not None:
        settings["min"] = option.minimum
    if option.check is not None:
        settings["callback"] = _checked(option.check)
    if option.eager:
        settings.update(callback=_version(prog), is_eager=True)
    if isinstance(option.kind, type) and issubclass(option.kind, enum.Enum):
        settings["case_sensitive"] = False
    default = _TYPER.Option(option.default, *option.flags, **settings)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=_annotation(option))


def _annotation(option: Option) -> Any:
    """The parameter's type as a written command declares it (``Optional[List[Path]]``)."""
    kind: Any = list[option.kind] if option.repeated else option.kind  # type: ignore[name-defined]
    # typing's Optional, not ``kind | None``: what typer reads on every Python we support
    return Optional[kind] if option.default is None else kind  # noqa: UP045


def _checked(check: Callable[[Any], str | None]) -> Callable[[Any], Any]:
    """The callback that refuses a value ``check`` refuses (each value of a repeated
    option, as the quick parser checks them)."""
    def callback(value):
        for each in value if isinstance(value, (list, tuple)) else [value]:
            problem = check(each)
            if problem is not None:
                raise _TYPER.BadParameter(problem)
        return value
    return callback


def _version(prog: str) -> Callable[[bool], None]:
    """The eager ``--version``: print ``PROG VERSION`` and exit 0."""
    def show(value: bool) -> None:
        if value:
            print(version_line(prog))
            raise _TYPER.Exit(0)
    return show
