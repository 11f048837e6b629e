"""The console scripts (``urdf2sdf``, ``sdf2urdf``, ``urdf-sdf``): each runs through
:func:`run`, which reads a plain command line itself and leaves any other to the typer app.

A console script runs once per file in pipelines, and typer (with click, rich and, when
installed, pydantic) takes longer to import than a small file takes to convert. So
:func:`run` parses the command line with :func:`urdf_sdf.cli.declare.parse`, from the
command's one declaration, and runs the command's body; only for what the plain path
leaves (``--help``, a usage error, an unusual spelling) does it build the typer app from
the same declaration (:mod:`urdf_sdf.cli.typer_app`). ``PROG --version`` alone imports
nothing more; a command imports its own module only (the converter it runs, not typer,
not the other direction's), through :data:`COMMANDS`.

Before anything else, :func:`run` sets up the process
(:func:`urdf_sdf.cli.process.console_script_process`): a standard descriptor closed when
the command started gets ``/dev/null``, so that no file takes its place and no diagnostic
lands in the document; the collector is off and the heap trimmed (process-wide state: the
console scripts' business, never the library's).
"""
from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Sequence

from urdf_sdf.cli.crash import crashes_reported
from urdf_sdf.cli.declare import VERSION, Command, CommandTable, UsageError, parse, version_line
from urdf_sdf.cli.process import console_script_process
from urdf_sdf.cli.typer_app import command_app, group_app

# What typer's own main does with Ctrl-C: exit 130 (128 + SIGINT).
INTERRUPTED_STATUS = 130

URDF_SDF = Command(prog="urdf-sdf", options=(VERSION,),
                   help="Inspect and check robot descriptions (SDFormat and URDF).")
# Every command a console script runs, by name: the two converters (and the commands their
# routes lead to), then the subcommands of urdf-sdf in the order its --help lists them.
COMMANDS = CommandTable({
    "urdf2sdf": ("urdf_sdf.cli.urdf2sdf_app", "COMMAND"),
    "urdf2sdf --model-dir": ("urdf_sdf.cli.packaging", "MODEL_DIR"),
    "sdf2urdf": ("urdf_sdf.cli.sdf2urdf_app", "COMMAND"),
    "sdf2urdf --package-dir": ("urdf_sdf.cli.packaging", "PACKAGE_DIR"),
    "frames": ("urdf_sdf.cli.inspect_commands", "FRAMES"),
    "check": ("urdf_sdf.cli.check", "COMMAND"),
    "diff": ("urdf_sdf.cli.inspect_commands", "DIFF"),
    "roundtrip": ("urdf_sdf.cli.roundtrip", "COMMAND"),
    "print": ("urdf_sdf.cli.inspect_commands", "PRINT"),
    "graph": ("urdf_sdf.cli.inspect_commands", "GRAPH"),
    "view": ("urdf_sdf.cli.view", "COMMAND"),
    "expand": ("urdf_sdf.cli.expand", "COMMAND"),
})
SUBCOMMANDS = tuple(name for name in COMMANDS.table if not name.startswith(("urdf2sdf",
                                                                           "sdf2urdf")))


def urdf2sdf() -> None:
    """The ``urdf2sdf`` console script."""
    run("urdf2sdf", "urdf2sdf", sys.argv[1:])


def sdf2urdf() -> None:
    """The ``sdf2urdf`` console script."""
    run("sdf2urdf", "sdf2urdf", sys.argv[1:])


def urdf_sdf() -> None:
    """The ``urdf-sdf`` console script: ``--version`` and its subcommands."""
    name = sys.argv[1] if len(sys.argv) > 1 else None
    if name in SUBCOMMANDS:
        run(URDF_SDF.prog, name, sys.argv[2:])
    else:
        run(URDF_SDF.prog, None, sys.argv[1:])


# The console scripts by name (``python -m urdf_sdf.cli NAME``).
SCRIPTS = {"urdf2sdf": urdf2sdf, "sdf2urdf": sdf2urdf, "urdf-sdf": urdf_sdf}


def run_script(name: str, args: Sequence[str]) -> None:
    """The console script ``name`` of :data:`SCRIPTS` run with ``args`` as its launcher
    runs it (``sys.argv[0]`` its name, which ``--help`` shows); exits."""
    sys.argv = [name, *args]
    SCRIPTS[name]()


def app_of(script: str):
    """The typer app of a console script (of ``urdf-sdf``: every subcommand imported)."""
    if script == URDF_SDF.prog:
        return group_app(URDF_SDF, [COMMANDS[name] for name in SUBCOMMANDS], run_body)
    return command_app(COMMANDS[script], run_body)


def body_of(command: Command, params: dict) -> Callable[[dict], int] | None:
    """The body that runs ``command`` with ``params``: its own, or that of the command a
    route leads to (``urdf2sdf --model-dir``)."""
    for parameter, name in command.routes:
        if params.get(parameter) is not None:
            return COMMANDS[name].run
    return command.run


def run_body(command: Command, params: dict) -> int:
    """``command``'s body (:func:`body_of`) run with ``params``: its exit code."""
    body = body_of(command, params)
    return 0 if body is None else body(params)


def run(script: str, name: str | None, argv: Sequence[str]) -> None:
    """A console script's body, and the one way every console script runs: the command
    ``name`` of :data:`COMMANDS` (None: ``urdf-sdf`` itself) when its command line ``argv``
    is plain, else the script's typer app on the whole command line (``argv`` empty: the
    typer app always). Set up first, before any file is opened: the process a console
    script runs in (:func:`~urdf_sdf.cli.process.console_script_process`: closed standard
    streams, the collector, the heap, stdout); crashes reported, never a traceback."""
    console_script_process()
    with crashes_reported(script):
        code = plain(script, name, argv) if argv else None
        if code is None:
            app_of(script)()
        sys.exit(code)


def plain(prog: str, name: str | None, argv: Sequence[str]) -> int | None:
    """The exit code of a plain command line, or None to leave it to the typer app.
    ``PROG --version`` is answered before a command module is imported."""
    if list(argv) == ["--version"] and name not in SUBCOMMANDS:
        print(version_line(prog))
        return 0
    command = URDF_SDF if name is None else COMMANDS[name]
    params = parse(command, argv)
    if params is None:
        return None
    if params.get("version"):
        print(version_line(prog))
        return 0
    body = body_of(command, params)
    if body is None:
        return None  # urdf-sdf without a subcommand
    return _as_typer_would(lambda: _unless_usage_error(body, params))


def _unless_usage_error(body: Callable[[dict], int], params: dict) -> int | None:
    """The command's ``body``; None for a usage error (raised before it does anything),
    which the typer app reports."""
    try:
        return body(params)
    except UsageError:
        return None


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
