"""The console scripts (``urdf2sdf``, ``sdf2urdf``, ``urdf-sdf``) and their quick path: a
plain command line runs without typer.

A console script runs once per file in pipelines, and typer (with click, rich and, when
installed, pydantic) takes longer to import than a small file takes to convert. So each
console script (:func:`urdf2sdf`, :func:`sdf2urdf`, :func:`urdf_sdf`) first reads its
command line with :func:`parse`, which accepts a strict subset of what the command's typer
app accepts, with the same meaning:

* options spelled out as the app declares them (``-o FILE``, ``--output FILE``,
  ``--output=FILE``, ``--relative``...), each at most once (repeatable ones any number of
  times), before or after the one FILE argument (``urdf-sdf check``: FILE...;
  ``urdf-sdf diff``: A B);
* values that are not empty and do not start with ``-`` (``-`` itself is fine), whole
  numbers for the integer options, what ``float()`` reads for the float ones (the
  tolerances: not NaN, not negative).

Anything else (``--help``, a misspelt or repeated option, ``-qo FILE``, ``--``, a value
the command refuses, an ``urdf-sdf`` subcommand not in :data:`SUBCOMMANDS`, shell
completion, Windows, where click expands wildcards) goes to the typer app, which reads the
command line again and answers as it always has: the quick path never prints a usage error
of its own.
``tests/test_quick.py`` checks that each :class:`CommandSpec` names its app's options
exactly and that every command line the quick parser accepts gets the same values from
the app. ``--version`` imports nothing more; a conversion imports its command's module
(the converter, not typer) through the :class:`~urdf_sdf.core.base.lazy.Later` table below.

Before anything else, :func:`run` guards the standard streams
(:func:`urdf_sdf.cli.streams.guard_standard_streams`): a descriptor 0, 1 or 2 closed
when the command started gets ``/dev/null``, so that no file takes its place and no
diagnostic lands in the document (process-wide state: the console scripts' business, never
the library's).
"""
from __future__ import annotations

import errno
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from urdf_sdf import __version__
from urdf_sdf.cli.crash import crashes_reported
from urdf_sdf.cli.process import console_script_process
from urdf_sdf.core.base.lazy import Later

# What typer's own main does with Ctrl-C: exit 130 (128 + SIGINT).
INTERRUPTED_STATUS = 130


@dataclass(frozen=True)
class CommandSpec:
    """A command's options as its typer app declares them, by the name of the command
    function's parameter each one sets."""
    prog: str
    argument: str | None = None                             # the FILE argument
    second: str | None = None                               # a second one (diff's B)
    many: bool = False                                      # FILE... (a list, one or more)
    flags: dict[str, str] = field(default_factory=dict)     # option -> parameter (True)
    values: dict[str, str] = field(default_factory=dict)    # option -> parameter (one value)
    repeated: dict[str, str] = field(default_factory=dict)  # option -> parameter (a list)
    paths: frozenset[str] = frozenset()                     # parameters holding paths
    integers: frozenset[str] = frozenset()                  # parameters holding an int
    floats: frozenset[str] = frozenset()                    # parameters holding a float
    # parameter -> the values it takes, matched as click's Choice(case_sensitive=False)
    # matches them (casefolded); the parameter holds the value as spelt here.
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    defaults: dict[str, object] = field(default_factory=dict)  # of the options not given


# The xacro options of every command taking a FILE (see urdf_sdf.cli.xacro_expand).
XACRO_FLAGS = {"--xacro": "xacro", "--xacro-env": "xacro_env"}
XACRO_REPEATED = {"--xacro-arg": "xacro_arg", "--xacro-path": "xacro_path"}
XACRO_DEFAULTS = {"xacro": False, "xacro_env": False, "xacro_arg": None, "xacro_path": None}

# Each command line as its typer app declares it (tests/test_quick.py holds them together).
URDF2SDF = CommandSpec(
    prog="urdf2sdf", argument="urdf",
    flags={"--relative": "relative", "--lump-fixed": "lump_fixed",
           "--fix-inertia": "fix_inertia", "--json": "as_json", "--quiet": "quiet",
           "-q": "quiet", "--strict": "strict", "--version": "version", "--force": "force",
           **XACRO_FLAGS},
    values={"-o": "output", "--output": "output", "--sdf-version": "sdf_version",
            "--uri-scheme": "uri_scheme", "-j": "jobs", "--jobs": "jobs",
            "--model-dir": "model_dir"},
    repeated={"--package-path": "package_path", **XACRO_REPEATED},
    paths=frozenset({"urdf", "output", "model_dir", "package_path", "xacro_path"}),
    integers=frozenset({"jobs"}),
    defaults={"output": None, "relative": False, "sdf_version": None, "lump_fixed": False,
              "fix_inertia": False, "uri_scheme": "package", "as_json": False,
              "quiet": False, "strict": False, "jobs": 0, "version": False,
              "model_dir": None, "package_path": None, "force": False, **XACRO_DEFAULTS})
SDF2URDF = CommandSpec(
    prog="sdf2urdf", argument="sdf",
    flags={"--drop-frames": "drop_frames", "--approximate": "approximate",
           "--json": "as_json", "--quiet": "quiet", "-q": "quiet", "--strict": "strict",
           "--version": "version", "--all-models": "all_models", "--force": "force",
           **XACRO_FLAGS},
    values={"-o": "output", "--output": "output", "--model": "model",
            "--separator": "separator", "--uri-scheme": "uri_scheme", "-j": "jobs",
            "--jobs": "jobs", "--package-dir": "package_dir",
            "--package-name": "package_name", "--build-type": "build_type"},
    repeated={"--path": "path", "-p": "path", "--package-path": "package_path",
              **XACRO_REPEATED},
    paths=frozenset({"sdf", "output", "path", "package_dir", "package_path", "xacro_path"}),
    integers=frozenset({"jobs"}),
    defaults={"output": None, "model": None, "separator": "::", "drop_frames": False,
              "approximate": False, "uri_scheme": None, "path": None, "as_json": False,
              "quiet": False, "strict": False, "jobs": 0, "version": False,
              "all_models": False, "package_dir": None, "package_name": None,
              "build_type": "ament_cmake", "package_path": None, "force": False,
              **XACRO_DEFAULTS})
URDF_SDF = CommandSpec(prog="urdf-sdf", flags={"--version": "version"},  # subcommands: below
                       defaults={"version": False})
# The subcommands of ``urdf-sdf`` with a quick path, by name (the others are typer's).
SUBCOMMANDS = {"check": CommandSpec(
    prog="urdf-sdf", argument="files", many=True,
    flags={"--urdf-parity": "urdf_parity", "--meshes": "meshes", "--json": "as_json",
           "--quiet": "quiet", "-q": "quiet", "--strict": "strict", **XACRO_FLAGS},
    values={"--model": "model"},
    repeated={"--package-path": "package_path", "--path": "path", "-p": "path",
              **XACRO_REPEATED},
    paths=frozenset({"files", "package_path", "path", "xacro_path"}),
    defaults={"urdf_parity": False, "model": None, "meshes": False, "package_path": None,
              "as_json": False, "quiet": False, "strict": False, "path": None,
              **XACRO_DEFAULTS}),
    "frames": CommandSpec(
        prog="urdf-sdf", argument="file",
        flags={"--json": "as_json", "--quiet": "quiet", "-q": "quiet", "--strict": "strict",
               **XACRO_FLAGS},
        values={"--model": "model"},
        repeated={"--path": "path", "-p": "path", **XACRO_REPEATED},
        paths=frozenset({"file", "path", "xacro_path"}),
        defaults={"as_json": False, "quiet": False, "strict": False, "model": None,
                  "path": None, **XACRO_DEFAULTS}),
    "print": CommandSpec(
        prog="urdf-sdf", argument="file",
        flags={"--preserve-includes": "preserve_includes", "--strict": "strict"},
        values={"-o": "output", "--output": "output"},
        repeated={"--path": "path", "-p": "path"},
        paths=frozenset({"file", "output", "path"}),
        defaults={"output": None, "preserve_includes": False, "strict": False,
                  "path": None}),
    "graph": CommandSpec(
        prog="urdf-sdf", argument="file",
        flags={"--quiet": "quiet", "-q": "quiet", "--strict": "strict", **XACRO_FLAGS},
        values={"--kind": "kind", "-k": "kind", "-o": "output", "--output": "output"},
        repeated={"--path": "path", "-p": "path", **XACRO_REPEATED},
        paths=frozenset({"file", "output", "path", "xacro_path"}),
        choices={"kind": ("attached_to", "relative_to", "both", "tree")},
        defaults={"kind": "both", "output": None, "quiet": False, "strict": False,
                  "path": None, **XACRO_DEFAULTS}),
    "diff": CommandSpec(
        prog="urdf-sdf", argument="a", second="b",
        flags={"--json": "as_json", "--strict": "strict", **XACRO_FLAGS},
        values={"--tol": "tol", "--configurations": "configurations", "--seed": "seed",
                "--model": "model"},
        repeated={"--path": "path", "-p": "path", **XACRO_REPEATED},
        paths=frozenset({"a", "b", "path", "xacro_path"}),
        integers=frozenset({"configurations", "seed"}),
        floats=frozenset({"tol"}),
        defaults={"tol": 1e-9, "configurations": 20, "seed": 0, "model": None,
                  "as_json": False, "strict": False, "path": None, **XACRO_DEFAULTS})}

_COMMANDS = Later({
    "urdf2sdf": ("urdf_sdf.cli.urdf2sdf", "quick_command"),
    "urdf2sdf_app": ("urdf_sdf.cli.urdf2sdf_app", "app"),
    "sdf2urdf": ("urdf_sdf.cli.sdf2urdf", "quick_command"),
    "sdf2urdf_app": ("urdf_sdf.cli.sdf2urdf_app", "app"),
    "urdf_sdf_app": ("urdf_sdf.cli.main", "app"),
    "check": ("urdf_sdf.cli.check", "quick_command"),
    "frames": ("urdf_sdf.cli.inspect_commands", "frames_quick"),
    "print": ("urdf_sdf.cli.inspect_commands", "print_quick"),
    "graph": ("urdf_sdf.cli.inspect_commands", "graph_quick"),
    "diff": ("urdf_sdf.cli.inspect_commands", "diff_quick"),
})


def urdf2sdf() -> None:
    """The ``urdf2sdf`` console script."""
    run(URDF2SDF, lambda params: _COMMANDS.urdf2sdf(params), lambda: _COMMANDS.urdf2sdf_app())


def sdf2urdf() -> None:
    """The ``sdf2urdf`` console script."""
    run(SDF2URDF, lambda params: _COMMANDS.sdf2urdf(params), lambda: _COMMANDS.sdf2urdf_app())


def urdf_sdf() -> None:
    """The ``urdf-sdf`` console script: ``--version`` and the :data:`SUBCOMMANDS` on the
    quick path, the rest through typer."""
    name = sys.argv[1] if len(sys.argv) > 1 else None
    if name in SUBCOMMANDS:
        run(SUBCOMMANDS[name], lambda params: getattr(_COMMANDS, name)(params),
            lambda: _COMMANDS.urdf_sdf_app(), sys.argv[2:])
    else:
        run(URDF_SDF, None, lambda: _COMMANDS.urdf_sdf_app())


def version_line(prog: str) -> str:
    """What ``PROG --version`` prints."""
    return f"{prog} {__version__}"


def completion_requested() -> bool:
    """click's shell completion is asked for through ``_PROG_COMPLETE`` variables."""
    return any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)


def parse(spec: CommandSpec, argv: Sequence[str]) -> dict | None:
    """The parameters of a plain command line, as the typer app's command function would
    receive them (the FILE argument under ``spec.argument``, the defaults of the options
    not given), or None to leave the command line to typer."""
    if os.name == "nt" or completion_requested():
        return None
    params: dict = {}
    arguments: list[str] = []
    tokens = iter(argv)
    for token in tokens:
        if token == "-" or (token and not token.startswith("-")):
            arguments.append(token)
            continue
        if token in spec.flags:
            if spec.flags[token] in params:
                return None
            params[spec.flags[token]] = True
            continue
        if token in spec.values or token in spec.repeated:
            option, value = token, next(tokens, None)
        elif token.startswith("--") and "=" in token:
            option, _, value = token.partition("=")
        else:
            return None
        name = spec.values.get(option) or spec.repeated.get(option)
        typed = _typed(spec, name, value) if name and _plain(value) else None
        if typed is None or (option in spec.values and name in params):
            return None
        if option in spec.values:
            params[name] = typed
        else:
            params.setdefault(name, []).append(typed)
    if spec.argument is None and arguments:
        return None  # a subcommand: its own options follow it
    if params.get("version") and len(arguments) <= 1:
        return {**spec.defaults, **params}  # --version answers before FILE is looked at
    names = [spec.argument, spec.second] if spec.second else [spec.argument]
    if spec.argument is None or not arguments or \
            (not spec.many and len(arguments) != len(names)):
        return None
    if spec.many:
        params[spec.argument] = [_typed(spec, spec.argument, a) for a in arguments]
    else:
        params.update((name, _typed(spec, name, a)) for name, a in zip(names, arguments))
    return {**spec.defaults, **params}


def _plain(value: str | None) -> bool:
    return bool(value) and (value == "-" or not value.startswith("-"))


def _typed(spec: CommandSpec, name: str, value: str):
    """``value`` as the app's parameter ``name`` holds it; None for a value the quick
    path leaves to typer (a number that is not plain digits or not a float, a value not
    among the choices)."""
    if name in spec.integers:
        return int(value) if value.isascii() and value.isdigit() else None
    if name in spec.paths:
        return Path(value)
    if name in spec.floats:
        try:
            number = float(value)  # what click's FLOAT does
        except ValueError:
            return None
        # The float options are tolerances: typer's callback refuses NaN and negatives.
        return number if number >= 0 else None
    if name in spec.choices:
        return next((choice for choice in spec.choices[name]
                     if choice.casefold() == value.casefold()), None)
    return value


def run(spec: CommandSpec, command: Callable[[dict], int | None] | None,
        app: Callable[[], object], argv: Sequence[str] | None = None) -> None:
    """A console script's body: ``--version``, or ``command(params)`` when the command
    line (``argv``, by default the script's arguments) is plain and ``command`` takes it
    (it returns the exit code, or None to leave the command line to typer after all), else
    the typer ``app``. Set up and guarded as :func:`urdf_sdf.cli.crash.run_command`
    does for the app: closed standard streams first
    (:func:`~urdf_sdf.cli.streams.guard_standard_streams`), before any file is opened
    on their descriptors."""
    console_script_process()
    with crashes_reported(spec.prog):
        params = parse(spec, sys.argv[1:] if argv is None else argv)
        code = None
        if params is not None:
            code = _as_typer_would(lambda: _quick(spec, command, params))
        if code is None:
            app()
        sys.exit(code)


def _quick(spec: CommandSpec, command, params: dict) -> int | None:
    if params.get("version"):
        print(version_line(spec.prog))
        return 0
    return command(params) if command is not None else None


def _as_typer_would(body: Callable[[], int | None]) -> int | None:
    """``body()``, with what typer's main does around a command: Ctrl-C exits 130, and a
    closed pipe (EPIPE that the command did not handle) exits 1 quietly."""
    try:
        return body()
    except KeyboardInterrupt:
        return INTERRUPTED_STATUS
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        _silence_standard_streams()
        return 1


def _silence_standard_streams() -> None:
    """Point stdout and stderr at /dev/null, so that the interpreter's last flush of a
    closed pipe does not complain (click wraps them for the same purpose)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                os.dup2(devnull, stream.fileno())
            except (OSError, ValueError, AttributeError):
                pass
    finally:
        os.close(devnull)
