"""Write command output: stdout, a device or FIFO as it is, a file atomically.

* ``-`` (or no ``-o``) is standard output. A stdout that cannot be written (``> /dev/full``)
  is :class:`StdoutError` (the commands report FILE_WRITE and exit 1); a closed pipe
  (``| head -c 10``) ends the command quietly with :data:`BROKEN_PIPE_STATUS`, as a Unix
  tool killed by SIGPIPE does (:func:`stdout_closed`).
* A character device (``/dev/null``), a FIFO or a socket is written directly: replacing
  it with a regular file would break the system or the reader on the other end.
* A regular file or a new path is written to a temporary file beside it and renamed into
  place, so a reader never sees half a file; a directory, a block device or an input
  file is never the destination (:class:`OutputError`, a usage error).

The temporary file is ``.NAME.urdf-sdf-PID-TOKEN.tmp``. SIGTERM, SIGINT and SIGHUP remove it
(handlers installed only around the write, the previous ones restored after; the signal
is then re-raised with its default action, so the exit status says what killed us), and a
later write of the same target removes the stale ones whose process is gone (SIGKILL).
"""
from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import signal
import stat
import sys
import threading
from pathlib import Path
from typing import Callable, Iterator, Sequence

from urdf_sdf.core.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.lazy import Later

CHUNK = 64 * 1024
BROKEN_PIPE_STATUS = 128 + 13  # 128 + SIGPIPE: what a shell reports for `yes | head`
CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP")
                        if hasattr(signal, name))
# stdout_checked decorates typer commands: typer is loaded whenever it is used.
_TYPER = Later({"Exit": ("typer", "Exit")})
_TEMPORARY = re.compile(r"^\.(?P<name>.+)\.urdf-sdf-(?P<pid>\d+)-[0-9a-f]+\.tmp$")


class OutputError(Exception):
    """The output cannot be written where it was asked (a usage problem)."""


class StdoutError(OSError):
    """Standard output cannot be written (not a closed pipe: that is BrokenPipeError)."""


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
    reason = exc.strerror or errno.errorcode.get(exc.errno or 0, "") or str(exc)
    diagnostic = Diagnostic(Code.FILE_WRITE, Severity.ERROR,
                            f"cannot write standard output: {reason}", prog)
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


class _CheckedStdout:
    """sys.stdout while a command runs under :func:`stdout_checked`: a failed write or
    flush is a :class:`StdoutError` (BrokenPipeError stays itself), so it cannot be taken
    for an error of some other file."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text):
        return self._checked(self._stream.write, text)

    def flush(self):
        return self._checked(self._stream.flush)

    @staticmethod
    def _checked(call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StdoutError(exc.errno, exc.strerror or str(exc)) from exc

    def __getattr__(self, name):
        return getattr(self._stream, name)


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
    as :func:`stdout_checked` checks a typer command's."""
    original = sys.stdout
    sys.stdout = _CheckedStdout(original)
    try:
        code = body()
    except BrokenPipeError:
        code = stdout_closed()
    except StdoutError as exc:
        code = stdout_failed(prog, exc)
    finally:
        sys.stdout = original
    failure = flush_stdout(prog) if code != BROKEN_PIPE_STATUS else None
    return failure if failure is not None else code


def _exit_code(command: Callable, args, kwargs) -> int:
    try:
        command(*args, **kwargs)
    except _TYPER.Exit as exc:
        return exc.exit_code
    return 0


# ---- files -------------------------------------------------------------------------------

def write_output(data: bytes, destination: str | None, inputs: Sequence[str] = (),
                 stale_removed: bool = False) -> None:
    """Write ``data`` to ``destination`` (stdout for None or ``-``); see the module.
    ``stale_removed``: the caller has removed the stale temporaries of the destination's
    directory already (a batch does it once per directory: once per file would read a
    large directory once per file)."""
    if destination in (None, "-"):
        write_stdout(data)
        return
    target = Path(destination)
    if check_destination(target, inputs) == "special":
        with open(target, "wb") as stream:  # /dev/null, a FIFO: as `cat > FILE` would
            stream.write(data)
        return
    with temporary_beside(target, stale_removed) as tmp:
        with open(tmp, "wb") as stream:
            stream.write(data)
        os.chmod(tmp, file_mode(target))
        os.replace(tmp, target)


def check_destination(target: Path, inputs: Sequence[str] = ()) -> str:
    """``"file"`` (a regular file or a new path: written atomically) or ``"special"`` (a
    character device, FIFO or socket: written directly); raises :class:`OutputError` for
    a directory, a block device, an input file or a missing directory."""
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {exc.strerror or exc}") from exc
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"{target} is a directory; give a file name")
    if mode is not None and stat.S_ISBLK(mode):
        raise OutputError(f"{target} is a block device; give a file name")
    for source in inputs:
        if source not in (None, "-") and mode is not None and Path(source).exists() \
                and os.path.samefile(source, target):
            raise OutputError(f"refusing to overwrite the input file {source}")
    if mode is not None and not stat.S_ISREG(mode):
        return "special"
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"output directory {directory} does not exist")
    return "file"


@contextlib.contextmanager
def temporary_beside(target: Path, stale_removed: bool = False) -> Iterator[str]:
    """A new, empty temporary file's path in ``target``'s directory, removed on leaving
    (unless renamed away), on an exception and on SIGTERM/SIGINT/SIGHUP (whose handlers
    are in place before the file is made: a signal in between would leave it). Stale ones
    of earlier runs (their process gone) are removed first, unless ``stale_removed``."""
    directory = target.parent if str(target.parent) else Path(".")
    if not stale_removed:
        remove_stale_temporaries(directory, target.name)
    tmp = str(directory / f".{target.name}.urdf-sdf-{os.getpid()}-{os.urandom(4).hex()}.tmp")
    with removed_on_signal(tmp):
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        try:
            yield tmp
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def remove_stale_temporaries(directory: Path, name: str | None = None) -> None:
    """Remove ``.NAME.urdf-sdf-PID-*.tmp`` files of ours whose process is gone (of any
    NAME when ``name`` is None)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        match = _TEMPORARY.match(entry.name)
        if match is None or name not in (None, match.group("name")) or \
                _alive(int(match.group("pid"))):
            continue
        with contextlib.suppress(OSError):
            if entry.is_file(follow_symlinks=False) and entry.stat().st_uid == os.getuid():
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process (or not a pid): leave its file alone
    return True


@contextlib.contextmanager
def removed_on_signal(tmp: str, remove: Callable[[str], None] = os.unlink) -> Iterator[None]:
    """While inside: SIGTERM/SIGINT/SIGHUP remove ``tmp`` (with ``remove``: a directory
    needs ``shutil.rmtree``), then the signal is re-raised
    with its default action. Signal handlers can only be set in the main thread; elsewhere
    the ``finally`` of :func:`temporary_beside` is all there is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        with contextlib.suppress(OSError):
            remove(tmp)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    previous = {signum: signal.signal(signum, handler) for signum in CLEANUP_SIGNALS
                if signal.getsignal(signum) is not signal.SIG_IGN}  # nohup's SIGHUP stays off
    try:
        yield
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old if old is not None else signal.SIG_DFL)


def file_mode(target: Path) -> int:
    """The mode the output should have: the replaced file's, else what the umask
    gives a new file (the temporary file's private 0600 must not leak into the result)."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
