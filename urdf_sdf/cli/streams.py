"""The standard streams of a console script, checked when it starts.

A command may be started with descriptor 0, 1 or 2 closed (``<&-``, ``>&-``, ``2>&-``, a
daemon's child, a careless CI step). Python then sets ``sys.stdin``, ``sys.stdout`` or
``sys.stderr`` to None, and ``print(..., file=None)`` writes to standard output: with
standard error closed, diagnostics would land in the document. Worse, the next file the
process opens takes the free descriptor, and a temporary output file would become
"standard output".

:func:`guard_standard_streams` (console scripts only: it sets process-wide state) puts
``/dev/null`` on each closed descriptor, so that no file ever takes it, and:

* standard error closed: ``sys.stderr`` writes to ``/dev/null``. Diagnostics are dropped,
  never written to standard output; the exit code still reports them.
* standard output closed: ``sys.stdout`` is a :class:`ClosedStream`. A document or report
  written there raises :class:`ClosedStreamError` (an ``OSError``, EBADF), which the commands
  report as FILE_WRITE on standard error and exit 1 (as for ``> /dev/full``); a command that
  writes nothing there (``-o FILE``) is not affected.
* standard input closed: ``sys.stdin`` is a :class:`ClosedStream`; reading ``-`` is
  FILE_READ ("cannot read standard input: closed when the command started").

:func:`check_stdout` (console scripts only, after the guard) puts a :class:`CheckedStdout`
in front of ``sys.stdout`` for the whole run: a failed write or flush of standard output
is a :class:`StdoutError` (``> /dev/full``; a closed pipe stays BrokenPipeError), which the
commands report as FILE_WRITE of standard output, never as a failure of some other file.
"""
from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable
from typing import NoReturn, TextIO, TypeVar

T = TypeVar("T")

CLOSED_REASON = "closed when the command started"
STREAMS = ((0, "stdin", "standard input"), (1, "stdout", "standard output"),
           (2, "stderr", "standard error"))


class ClosedStreamError(OSError):
    """A read or write of a standard stream that was closed when the command started."""

    def __init__(self, what: str) -> None:
        super().__init__(errno.EBADF, CLOSED_REASON)
        self.what = what

    def __str__(self) -> str:
        return CLOSED_REASON


class ClosedStream(io.TextIOBase):
    """Stands for a standard stream whose descriptor was closed: reading or writing
    anything raises :class:`ClosedStreamError` (writing nothing does not: click probes a
    stream with an empty write). Text and bytes alike (``buffer`` is the stream itself)."""

    def __init__(self, fd: int, what: str) -> None:
        super().__init__()
        self._fd = fd
        self.what = what

    @property
    def buffer(self) -> ClosedStream:
        return self

    encoding = "utf-8"
    errors = "strict"

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> NoReturn:
        raise ClosedStreamError(self.what)

    def readline(self, size: int | None = -1) -> NoReturn:
        raise ClosedStreamError(self.what)

    def write(self, data: str | bytes) -> int:
        if len(data) == 0:
            return 0
        raise ClosedStreamError(self.what)

    def flush(self) -> None:
        pass  # nothing is ever buffered


def descriptor_open(fd: int) -> bool:
    """Whether descriptor ``fd`` is open."""
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def guard_standard_streams() -> list[str]:
    """Fill the standard descriptors that are closed with ``/dev/null`` and replace their
    ``sys`` streams as the module says; return the names of those that were closed
    (``"stdin"``, ``"stdout"``, ``"stderr"``). A console script calls it first thing."""
    closed = []
    for fd, name, what in STREAMS:
        python_saw_it_closed = getattr(sys, f"__{name}__") is None
        if not python_saw_it_closed and descriptor_open(fd):
            continue
        if not descriptor_open(fd) and not _fill_with_devnull(fd):
            continue  # no /dev/null (a bare chroot): Python's None streams stay
        closed.append(name)
        if name == "stderr":
            setattr(sys, name, os.fdopen(fd, "w", buffering=1, errors="backslashreplace",
                                         closefd=False))
        else:
            setattr(sys, name, ClosedStream(fd, what))
    return closed


def _fill_with_devnull(fd: int) -> bool:
    try:
        opened = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return False
    if opened != fd:  # a lower descriptor was free too: descriptors are filled in order
        os.dup2(opened, fd)
        os.close(opened)
    return True


class StdoutError(OSError):
    """Standard output cannot be written (not a closed pipe: that is BrokenPipeError)."""


class CheckedStdout:
    """``sys.stdout`` of a console script (:func:`check_stdout`): a failed write or flush
    is a :class:`StdoutError` (BrokenPipeError, and a :class:`ClosedStreamError` of a
    stdout closed when the command started, stay themselves); everything else is the
    stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._checked(self._stream.write, text)

    def flush(self) -> None:
        return self._checked(self._stream.flush)

    @staticmethod
    def _checked(call: Callable[..., T], *args: object) -> T:
        try:
            return call(*args)
        except (BrokenPipeError, ClosedStreamError):
            raise
        except OSError as exc:
            raise StdoutError(exc.errno, exc.strerror or str(exc)) from exc

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def check_stdout() -> None:
    """Put a :class:`CheckedStdout` in front of ``sys.stdout`` (once; none when there is no
    ``sys.stdout``). A console script calls it after :func:`guard_standard_streams`."""
    if sys.stdout is not None and not isinstance(sys.stdout, CheckedStdout):
        sys.stdout = CheckedStdout(sys.stdout)
