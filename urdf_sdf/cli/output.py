"""Write command output: stdout, a device or FIFO as it is, a file atomically.

* ``-`` (or no ``-o``) is standard output. A stdout that cannot be written (``> /dev/full``,
  a closed descriptor) is :class:`StdoutError` (the commands report FILE_WRITE and exit 1);
  a closed pipe (``| head -c 10``) ends the command quietly with
  :data:`BROKEN_PIPE_STATUS`, as a Unix tool killed by SIGPIPE does (:func:`stdout_closed`).
* A symbolic link that the user named (``through_links``: ``-o LINK``) is written through
  to its target, and the link stays; one in a tree the command fills (a batch's outputs,
  named after its inputs) is replaced, never followed out of the tree
  (:func:`resolve_destination`). A name of an open descriptor (``/dev/stdout``,
  ``/dev/fd/N``, ``/proc/self/fd/N``, ``/dev/stderr``) is written to that descriptor
  itself (:func:`write_descriptor`: never reopened, so never truncated: ``-o /dev/fd/5
  5>>log.txt`` appends to log.txt), and when it is standard output, to standard output
  (``-o /dev/stdout > robot.sdf`` leaves the document in robot.sdf). A descriptor of this
  process that is not open is FILE_WRITE.
* A character device (``/dev/null``), a FIFO or a socket is written directly: replacing
  it with a regular file would break the system or the reader on the other end.
* A regular file or a new path is written to a temporary file beside it (beside the
  link's target, for a link) and renamed into place, so a reader never sees half a file.
* Never the destination: an input file, also the file standard input reads when an input
  is ``-``, or a file an input references (a mesh, a texture, an included model's
  ``model.config``: :class:`~urdf_sdf.core.inspect.resources.Referenced`, resolved only
  when the destination exists) (:class:`OutputIsInput`, OUTPUT_IS_INPUT, exit 1); a
  directory, a block device, a path whose directory is missing (:class:`OutputError`,
  OUTPUT_INVALID, a usage error).
  A write that fails (disk full, read-only file system, permissions) is an ``OSError``:
  :func:`write_failed` makes it the FILE_WRITE diagnostic the commands print, and the
  previous file is intact.

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
import re
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from urdf_sdf.cli.streams import ClosedStreamError, StdoutError
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.inspect.resources import Referenced
from urdf_sdf.core.read.files import system_reason
from urdf_sdf.core.write import atomic

CHUNK = 64 * 1024
BROKEN_PIPE_STATUS = 128 + 13  # 128 + SIGPIPE: what a shell reports for `yes | head`
CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                        if hasattr(signal, name))
# What an output never replaces: an input file's name (``-``: the file on standard input),
# or a file the input references (a mesh, a texture, an included model.config).
Input = str | Referenced
# stdout_checked decorates typer commands: typer is loaded whenever it is used.
_TYPER = Later({"Exit": ("typer", "Exit")})


class OutputError(Exception):
    """The output cannot be written where it was asked (a usage problem: exit 2)."""

    code = Code.OUTPUT_INVALID
    exit_code = 2

    def diagnostic(self, destination: str | None) -> Diagnostic:
        """The error line of this refusal, at ``destination``."""
        return Diagnostic(self.code, Severity.ERROR, str(self), destination)


class OutputIsInput(OutputError):
    """The output is an input file (or the file on standard input): never overwritten."""

    code = Code.OUTPUT_IS_INPUT
    exit_code = 1


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
    kind, target = resolve_destination(Path(destination), inputs, through_links)
    if kind == STDOUT:
        write_stdout(data)
        return
    descriptor = own_descriptor(target) if kind == SPECIAL else None
    if descriptor is not None:
        write_descriptor(data, descriptor)
        return
    if kind == SPECIAL:
        with open(target, "wb") as stream:  # /dev/null, a FIFO: as `cat > FILE` would
            stream.write(data)
        return
    atomic.write_atomically(data, target, stale_removed, removed_on_signal)


# What resolve_destination finds: standard output itself, a file written directly (a
# device, a FIFO, an open descriptor's name), a regular file or new path (atomically).
STDOUT, SPECIAL, FILE = "stdout", "special", "file"
MAX_LINKS = 40  # as the kernel's limit of symbolic links followed in one lookup
_DESCRIPTOR_DIRECTORY = re.compile(r"^/proc/(?:self|thread-self|\d+)(?:/task/\d+)?/fd$")


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


def check_destination(target: Path, inputs: Sequence[Input] = (),
                      through_links: bool = False) -> str:
    """``"file"`` (a regular file or a new path: written atomically) or ``"special"`` (a
    character device, FIFO, socket or descriptor name: written directly; also standard
    output named by a path); raises :class:`OutputError` as :func:`resolve_destination`."""
    kind, _ = resolve_destination(target, inputs, through_links)
    return FILE if kind == FILE else SPECIAL


def resolve_destination(target: Path, inputs: Sequence[Input] = (),
                        through_links: bool = False) -> tuple[str, Path]:
    """How and where ``target`` is written: ``(STDOUT, target)`` for a name of the
    process's standard output (``/dev/stdout``), ``(SPECIAL, path)`` for a device, FIFO,
    socket or another descriptor's name, ``(FILE, path)`` for a regular file or new path.

    A symbolic link: with ``through_links`` (an ``-o`` the user named) ``path`` is the
    link's target, written through (atomically when it is a regular file), the link kept;
    without (an output whose name the command made up, in a tree that may hold links put
    there by someone else) ``path`` is the link itself, replaced by a regular file, so that
    nothing outside the directory is written. A descriptor's name (``/dev/stdout``) is
    never replaced. Raises :class:`OutputIsInput` when it is one of ``inputs`` (``-``:
    the regular file on standard input), :class:`OutputError` for a directory, a block
    device, a missing directory or a link that cannot be followed."""
    if not through_links and os.path.islink(target) and not _names_descriptor(target):
        return FILE, Path(os.path.abspath(target))  # the link is replaced, as a file would be
    path, descriptor = follow_links(target)
    return _resolved(target, path, descriptor, inputs)


def _names_descriptor(target: Path) -> bool:
    try:
        return follow_links(target)[1]
    except OutputError:  # a loop of links
        return False


def _resolved(target: Path, path: str, descriptor: bool,
              inputs: Sequence[Input]) -> tuple[str, Path]:
    try:
        status: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        status = None
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {system_reason(exc)}") from exc
    if status is not None:
        _refuse_inputs(target, status, inputs)
        if stat.S_ISDIR(status.st_mode):
            raise OutputError(f"{target} is a directory; give a file name")
        if stat.S_ISBLK(status.st_mode):
            raise OutputError(f"{target} is a block device; give a file name")
        if descriptor and _is_stdout(status):
            return STDOUT, target
        if descriptor or not stat.S_ISREG(status.st_mode):
            return SPECIAL, Path(path)
    elif descriptor and own_descriptor(path) is not None:
        return SPECIAL, Path(path)  # not open: its write is FILE_WRITE (EBADF)
    elif descriptor:
        raise OutputError(f"cannot write {target}: the descriptor it names is not open")
    directory = os.path.dirname(path)
    if not os.path.isdir(directory):
        raise OutputError(f"output directory {Path(target).parent} does not exist")
    return FILE, Path(path)


_OWN_DESCRIPTOR = re.compile(
    r"^/proc/(?P<pid>self|thread-self|\d+)(?:/task/\d+)?/fd/(?P<fd>\d+)$")


def own_descriptor(path: str | Path) -> int | None:
    """The number of the descriptor of this process that ``path`` (as
    :func:`follow_links` gives it: ``/proc/PID/fd/N``) names, or None."""
    match = _OWN_DESCRIPTOR.match(str(path))
    if match is None:
        return None
    pid = match.group("pid")
    if pid.isdigit() and int(pid) != os.getpid():
        return None  # another process's descriptor: opened as a file is
    return int(match.group("fd"))


def write_descriptor(data: bytes, fd: int) -> None:
    """``data`` written to the open descriptor ``fd`` at its offset (never reopened, never
    truncated), after what Python buffered for stdout and stderr. Raises ``OSError``
    (EBADF when ``fd`` is not open); a closed pipe too is a plain ``OSError`` (a failed
    write of this file, not a closed standard output)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view[:CHUNK]):]
    except BrokenPipeError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc)) from None


def follow_links(target: Path) -> tuple[str, bool]:
    """``target`` with the symbolic links of its directories and of its last component
    followed, as an absolute path; and whether it names an open descriptor (its
    directory is ``/proc/PID/fd``: the kernel's "magic" links, whose text is not a path to
    follow)."""
    current = os.path.abspath(target)
    for _ in range(MAX_LINKS):
        directory = os.path.realpath(os.path.dirname(current))
        current = os.path.join(directory, os.path.basename(current))
        if _DESCRIPTOR_DIRECTORY.match(directory):
            return current, True
        try:
            link = os.readlink(current)
        except OSError:  # not a link (or not there): this is the path written
            return current, False
        current = os.path.join(directory, link)
    raise OutputError(f"cannot write {target}: too many levels of symbolic links")


def _refuse_inputs(target: Path, status: os.stat_result, inputs: Sequence[Input]) -> None:
    for source in inputs:
        if source is None:
            continue
        if source == "-":
            stdin = _descriptor_status(0)
            if stdin is not None and stat.S_ISREG(stdin.st_mode) and \
                    os.path.samestat(stdin, status):
                raise OutputIsInput(f"refusing to overwrite the input: {target} is the file "
                                    "standard input reads")
            continue
        path = input_path(source)
        try:
            same = path is not None and os.path.samestat(os.stat(path), status)
        except OSError:
            continue
        if same:
            raise OutputIsInput(refusal(target, source))


def input_path(source: Input) -> str | None:
    """The file ``source`` names: an input file's name, or the file a
    :class:`~urdf_sdf.core.inspect.resources.Referenced` resolves to now (None when it
    resolves to none)."""
    if not isinstance(source, Referenced):
        return source
    path = source.path()
    return str(path) if path is not None else None


def refusal(target: Path, source: Input) -> str:
    """Why ``target`` is not written: it is the input ``source`` (or a file it names)."""
    if isinstance(source, Referenced):
        return f"refusing to overwrite {target}: {source.describe()} references it"
    return f"refusing to overwrite the input file {source}"


def _descriptor_status(fd: int) -> os.stat_result | None:
    try:
        return os.fstat(fd)
    except OSError:
        return None


def _is_stdout(status: os.stat_result) -> bool:
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        fd = 1  # a test runner's stdout: the descriptor is still the process's
    stdout = _descriptor_status(fd)
    return stdout is not None and os.path.samestat(stdout, status)


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
