"""A command's interface declared once: its arguments and options (:class:`Command`), read
by the console scripts' plain path (:func:`parse`) and, for anything else, by the typer
app built from the same declaration (:mod:`urdf_sdf.cli.typer_app`: ``--help``, usage
errors, shell completion).

:func:`parse` accepts a strict subset of what the typer app accepts, with the same
meaning:

* options spelled out as declared (``-o FILE``, ``--output FILE``, ``--output=FILE``,
  ``--relative``...), each at most once (repeatable ones any number of times), before or
  after the FILE argument(s);
* values that are not empty and do not start with ``-`` (``-`` itself is fine), whole
  numbers for the integer options, what ``float()`` reads for the float ones, a choice of
  an :class:`enum.Enum` option in any case, and what an option's ``check`` accepts.

Anything else (``--help``, a misspelt or repeated option, ``-qo FILE``, ``--``, a value
the command refuses, shell completion, Windows, where click expands wildcards) is left to
the typer app, which answers as it always has: the plain path never prints a usage error
of its own. A usage error found once the values are read (two options that exclude each
other, a directory without ``-o``) is a :class:`UsageError`, raised by the command's body
before it does anything; the typer app reports it as click reports a bad parameter.

This module imports nothing of the commands: a command module declares its
:class:`Command` with its body, and the console scripts reach it through the one
:class:`CommandTable` of :mod:`urdf_sdf.cli.quick`.
"""
from __future__ import annotations

import enum
import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from urdf_sdf import __version__


class UsageError(Exception):
    """A command line the command cannot take: exit 2 with ``message`` (``hint``: the
    option it is about, as click names it: ``-o/--output``)."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class Option:
    """One option: its spellings, the parameter it sets, the type of its value (``bool``:
    a flag), default, help text and constraints."""
    flags: tuple[str, ...]
    name: str
    kind: type = bool
    default: Any = None
    help: str = ""
    repeated: bool = False
    metavar: str | None = None
    minimum: int | None = None
    # Why a value is refused (a usage error), or None: e.g. a tolerance that is negative.
    check: Callable[[Any], str | None] | None = None
    # Answered before the arguments are looked at (``--version``).
    eager: bool = False

    @property
    def is_flag(self) -> bool:
        return self.kind is bool

    def with_help(self, text: str) -> Option:
        """The same option, explained for one command."""
        return Option(self.flags, self.name, self.kind, self.default, text, self.repeated,
                      self.metavar, self.minimum, self.check, self.eager)


@dataclass(frozen=True)
class Argument:
    """A positional argument: one path, or (``many``) one or more."""
    name: str
    help: str
    many: bool = False
    metavar: str | None = None


@dataclass(frozen=True)
class Command:
    """A command: its program name (``urdf2sdf``; ``urdf-sdf`` for a subcommand, named by
    ``name``), help text, arguments, options in the order ``--help`` lists them, and
    ``run``, its body: the exit code for the parameters (by name, as typer passes them).
    ``routes``: ``(parameter, command)`` pairs: when that parameter is given, the body of
    that command of the console scripts' table runs instead (``urdf2sdf --model-dir``),
    so that a plain conversion does not import what only the other body needs."""
    prog: str
    help: str
    arguments: tuple[Argument, ...] = ()
    options: tuple[Option, ...] = ()
    run: Callable[[dict], int] | None = None
    name: str | None = None
    routes: tuple[tuple[str, str], ...] = ()

    def option(self, spelling: str) -> Option | None:
        return next((o for o in self.options if spelling in o.flags), None)

    @property
    def defaults(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.options}


# Every console script's ``--version`` (not a subcommand's).
VERSION = Option(("--version",), "version", default=False, eager=True,
                 help="Print the version and exit.")


def version_line(prog: str) -> str:
    """What ``PROG --version`` prints."""
    return f"{prog} {__version__}"


class CommandTable:
    """Commands by name, each imported when it is first asked for: ``name -> (module,
    attribute)``, a literal that ``tests/test_layout.py`` reads as the declaring module's
    imports (so no import cycle can hide in it)."""

    __slots__ = ("table",)

    def __init__(self, table: dict[str, tuple[str, str]]) -> None:
        self.table = table

    def __contains__(self, name: object) -> bool:
        return name in self.table

    def __getitem__(self, name: str) -> Command:
        module, attribute = self.table[name]
        return getattr(importlib.import_module(module), attribute)


def completion_requested() -> bool:
    """click's shell completion is asked for through ``_PROG_COMPLETE`` variables."""
    return any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)


def parse(command: Command, argv: Sequence[str]) -> dict | None:
    """The parameters of a plain command line, as the typer app's function would receive
    them (the arguments by name, the defaults of the options not given), or None to leave
    the command line to the typer app."""
    if os.name == "nt" or completion_requested():
        return None
    read = _read(command, argv)
    if read is None:
        return None
    params, arguments = read
    if arguments and not command.arguments:
        return None  # a subcommand: its own options follow it
    if any(params.get(o.name) for o in command.options if o.eager) and len(arguments) <= 1:
        return {**command.defaults, **params}  # --version answers before FILE is read
    placed = _placed(command, arguments)
    if placed is None:
        return None
    return {**command.defaults, **params, **placed}


def _read(command: Command, argv: Sequence[str]) -> tuple[dict, list[str]] | None:
    """``(options given, arguments)``, or None for a command line left to typer."""
    params: dict = {}
    arguments: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "-" or (token and not token.startswith("-")):
            arguments.append(token)
            continue
        option = command.option(token)
        if option is not None and option.is_flag:
            if option.name in params:
                return None
            params[option.name] = True
            continue
        if option is not None:
            value = next(tokens, None)
        elif token.startswith("--") and "=" in token:
            spelling, _, value = token.partition("=")
            option = command.option(spelling)
        if option is None or option.is_flag or value is None or not _plain(value):
            return None
        typed = _typed(option.kind, option.check, value)
        if typed is None or (not option.repeated and option.name in params):
            return None
        if option.repeated:
            params.setdefault(option.name, []).append(typed)
        else:
            params[option.name] = typed
    return params, arguments


def _placed(command: Command, arguments: list[str]) -> dict | None:
    """The arguments by name: each declared one given once (a ``many`` one: one or more)."""
    if not command.arguments or not arguments:
        return None
    if command.arguments[-1].many:
        return {command.arguments[-1].name: [Path(a) for a in arguments]}
    if len(arguments) != len(command.arguments):
        return None
    return {argument.name: Path(value) for argument, value in zip(command.arguments, arguments)}


def _plain(value: str) -> bool:
    """A value the plain path takes: not empty, not an option (``-`` is standard input)."""
    return value == "-" or (value != "" and not value.startswith("-"))


def _typed(kind: type, check: Callable[[Any], str | None] | None, value: str):
    """``value`` as an option of type ``kind`` holds it; None for a value left to typer (a
    number that is not plain digits or not a float, a value not among the choices, one
    that ``check`` refuses)."""
    typed: Any = value
    if kind is int:
        typed = int(value) if value.isascii() and value.isdigit() else None
    elif kind is float:
        try:
            typed = float(value)  # what click's FLOAT does
        except ValueError:
            return None
    elif kind is Path:
        typed = Path(value)
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        # As click's Choice(case_sensitive=False) matches: casefolded.
        typed = next((choice for choice in kind if choice.value.casefold() == value.casefold()),
                     None)
    if typed is None or (check is not None and check(typed) is not None):
        return None
    return typed
