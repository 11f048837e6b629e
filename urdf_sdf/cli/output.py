"""Write command output: stdout, a device or FIFO as it is, a file atomically.

* ``-`` (or no ``-o``) is standard output. A stdout that cannot be written (``> /dev/full``,
  a closed descriptor) is :class:`StdoutError` (the commands report FILE_WRITE and exit 1);
  a closed pipe (``| head -c 10``) ends the command quietly with
  :data:`BROKEN_PIPE_STATUS`, as a Unix tool killed by SIGPIPE does (:func:`stdout_closed`).
* Any other destination is written by the library's one writer of an output file,
  :func:`urdf_sdf.core.write.destination.write_file`, which the API's
  ``Converted.write`` uses too: a link the user named written through (one in a tree the
  command fills replaced), a descriptor's name (``-o /dev/fd/5 5>>log.txt``) written to
  that descriptor, a device or FIFO directly, a regular file or new path atomically; never
  an input or a file it references (``OutputIsInput``, OUTPUT_IS_INPUT, exit 1), never a
  directory, a block device or a path whose directory is missing (``OutputError``,
  OUTPUT_INVALID, a usage error). A name of standard output (``-o /dev/stdout``) is
  written as ``-`` is. A write that fails (disk full, read-only file system,
  permissions) is an ``OSError``: :func:`write_failed` makes it the FILE_WRITE
  diagnostic the commands print, and the previous file is intact.

The atomic write itself (temporary file, mode, stale temporaries) is the library's,
:mod:`urdf_sdf.core.write.atomic`; here SIGTERM, SIGINT and SIGHUP remove the temporary
file (handlers installed only around the write, the previous ones restored after; the
signal is then re-raised with its default action, so the exit status says what killed us).

Nothing here changes the process for longer than a write: ``sys.stdout`` stays the one
the caller has (a console script's checks its writes:
:class:`~urdf_sdf.cli.streams.CheckedStdout`), and the signal handlers are put back once
the write is done.
"""
from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from urdf_sdf.cli.streams import ClosedStreamError, StdoutError
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.read.files import system_reason
from urdf_sdf.core.write import atomic
from urdf_sdf.core.write.destination import (
    CHUNK,
    Input,
    OutputError,
    write_file,
)

BROKEN_PIPE_STATUS = 128 + 13  # 128 + SIGPIPE: what a shell reports for `yes | head`
CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                        if hasattr(signal, name))
# stdout_checked decorates typer commands: typer is loaded whenever it is used.
_TYPER = Later({"Exit": ("typer", "Exit")})


def write_failed(exc: OSError, destination: str | None) -> Diagnostic:
    """The FILE_WRITE diagnostic of a write to ``destination`` that failed with ``exc``."""
    return Diagnostic(Code.FILE_WRITE, Severity.ERROR, f"cannot write: {system_reason(exc)}",
                      destination)


# ---- standard output ---------------------------------------------------------------------

def write_stdout(data: bytes) -> None:
    """``data`` to stdout, flushed. Raises BrokenPipeError or :class:`StdoutError`."""
    try:
        sys.stdout.flush()  # text printed before, in order
        stream = sys.stdout.buffer
        # In pieces: one huge write to a pipe whose reader leaves may end in a short write
        # that CPython's BufferedWriter does not report, and the closed pipe goes unseen.
        for start in range(0, len(data), CHUNK):
            stream.write(data[start:start + CHUNK])
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StdoutError(exc.errno, exc.strerror or str(exc)) from exc


def stdout_closed() -> int:
    """After a BrokenPipeError: point stdout at /dev/null, so that neither a later write nor
    the interpreter's final flush fails again ("Exception ignored..."), and return the exit
    status of a command whose reader went away."""
    _discard_stdout()
    return BROKEN_PIPE_STATUS


def _discard_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (an embedding application, a test runner): nothing to flush


def stdout_failed(prog: str, exc: OSError) -> int:
    """Report a stdout that cannot be written (FILE_WRITE on stderr) and return 1."""
    _discard_stdout()
    diagnostic = Diagnostic(Code.FILE_WRITE, Severity.ERROR,
                            f"cannot write standard output: {system_reason(exc)}", prog)
    with contextlib.suppress(OSError, ValueError):
        print(diagnostic.format(), file=sys.stderr, flush=True)
    return 1


def flush_stdout(prog: str) -> int | None:
    """Flush stdout: None when it worked, else the exit status (:func:`stdout_closed` or
    :func:`stdout_failed`)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return stdout_closed()
    except (OSError, ValueError) as exc:
        return stdout_failed(prog, exc if isinstance(exc, OSError) else OSError(str(exc)))
    return None


def stdout_checked(prog: str) -> Callable:
    """Decorate a typer command that prints to stdout: stdout is flushed before the command
    exits (buffered text is otherwise written, and lost, at interpreter exit); a stdout
    that cannot be written is FILE_WRITE and exit 1, a closed pipe a quiet
    :data:`BROKEN_PIPE_STATUS`. ``functools.wraps`` keeps the signature typer reads."""
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def checked(*args, **kwargs):
            raise _TYPER.Exit(stdout_checked_code(prog,
                                                  lambda: _exit_code(command, args, kwargs)))
        return checked
    return decorate


def stdout_checked_code(prog: str, body: Callable[[], int]) -> int:
    """The exit code of ``body()`` (a command's body, without typer), its stdout checked
    as :func:`stdout_checked` checks a typer command's. ``sys.stdout`` is left as it is:
    a console script has put a :class:`~urdf_sdf.cli.streams.CheckedStdout` there
    (:mod:`urdf_sdf.cli.process`), whose failures are :class:`StdoutError`."""
    try:
        code = body()
    except BrokenPipeError:
        code = stdout_closed()
    except (StdoutError, ClosedStreamError) as exc:
        code = stdout_failed(prog, exc)
    failure = flush_stdout(prog) if code != BROKEN_PIPE_STATUS else None
    return failure if failure is not None else code


def _exit_code(command: Callable, args, kwargs) -> int:
    try:
        command(*args, **kwargs)
    except _TYPER.Exit as exc:
        return exc.exit_code
    return 0


# ---- files -------------------------------------------------------------------------------

def write_output(data: bytes, destination: str | None, inputs: Sequence[Input] = (),
                 stale_removed: bool = False, through_links: bool = False) -> None:
    """Write ``data`` to ``destination`` (stdout for None or ``-``); see the module.
    ``inputs`` are the command's input files (``-``: the file on standard input), never
    overwritten. ``stale_removed``: the caller has removed the stale temporaries of the
    destination's directory already (a batch does it once per directory: once per file
    would read a large directory once per file). ``through_links``: a symbolic link to a
    regular file is written through (an ``-o`` the user named), not replaced
    (:func:`resolve_destination`). Raises :class:`OutputError` (the destination is
    refused: nothing was written) or ``OSError`` (the write failed)."""
    if destination in (None, "-"):
        write_stdout(data)
        return
    write_file(data, Path(destination), inputs, stale_removed, through_links,
               removed_on_signal, write_stdout)


def write_reported(data: bytes, output: Path | None, inputs: Sequence[Input]) -> int:
    """:func:`write_output` of a command's document to ``output`` (stdout for None), a
    link to a file written through; the exit code, a refusal or failed write printed as
    its diagnostic (a closed stdout is the caller's stdout check's to report)."""
    destination = str(output) if output else None
    try:
        write_output(data, destination, inputs, through_links=True)
    except OutputError as exc:  # the input (exit 1), a directory (a usage error)
        print(exc.diagnostic(destination).format(), file=sys.stderr)
        return exc.exit_code
    except (StdoutError, BrokenPipeError):
        raise  # the caller's stdout check reports them
    except OSError as exc:  # disk full, permissions: the old file is intact
        print(write_failed(exc, destination).format(), file=sys.stderr)
        return 1
    return 0


def temporary_beside(target: Path,
                     stale_removed: bool = False) -> contextlib.AbstractContextManager[str]:
    """:func:`urdf_sdf.core.write.atomic.temporary_beside`, the file also removed on
    SIGTERM/SIGINT/SIGHUP (whose handlers are in place before the file is made: a signal
    in between would leave it)."""
    return atomic.temporary_beside(target, stale_removed, removed_on_signal)


@contextlib.contextmanager
def removed_on_signal(tmp: str, remove: Callable[[str], None] = os.unlink) -> Iterator[None]:
    """While inside: SIGTERM/SIGINT/SIGHUP remove ``tmp`` (with ``remove``: a directory
    needs ``shutil.rmtree``), then the signal is re-raised
    with its default action (:func:`handling_signals`: in the main thread only; elsewhere
    the ``finally`` of :func:`temporary_beside` is all there is)."""
    def handler(signum, frame):
        with contextlib.suppress(OSError):
            remove(tmp)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    with handling_signals(handler):
        yield


@contextlib.contextmanager
def handling_signals(handler: Callable) -> Iterator[None]:
    """While inside (in the main thread: elsewhere handlers cannot be set), ``handler``
    handles SIGTERM, SIGINT and SIGHUP (:data:`CLEANUP_SIGNALS`); a signal the process
    ignores (nohup's SIGHUP) stays ignored. The previous handlers are put back on leaving."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, handler) for signum in CLEANUP_SIGNALS
                if signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old if old is not None else signal.SIG_DFL)
