"""Where a document is written, and how: the one writer of an output file, shared by
the command line's ``-o`` (``urdf_sdf.cli.output``, which adds standard output and the
clean-up on signals) and the API's ``Converted.write`` (``core.write.result``).

* A symbolic link that the user named (``through_links``: ``-o LINK``) is written through
  to its target, and the link stays; one in a tree the command fills (a batch's outputs,
  named after its inputs) is replaced, never followed out of the tree
  (:func:`resolve_destination`). A name of an open descriptor (``/dev/stdout``,
  ``/dev/fd/N``, ``/proc/self/fd/N``) is written to that descriptor itself
  (:func:`write_descriptor`: never reopened, so never truncated).
* A character device (``/dev/null``), a FIFO or a socket is written directly: replacing
  it with a regular file would break the system or the reader on the other end.
* A regular file or a new path is written atomically (:mod:`.atomic`).
* Never the destination: an input file, the file standard input reads when an input is
  ``-``, or a file an input references (a mesh, a texture, an included model's
  ``model.config``: :class:`~urdf_sdf.core.inspect.resources.Referenced`, resolved only
  when the destination exists) (:class:`OutputIsInput`, OUTPUT_IS_INPUT); a directory, a
  block device, a path whose directory is missing (:class:`OutputError`, OUTPUT_INVALID).
  Both are ``ValueError``; a write that fails is an ``OSError``, the previous file intact.
"""
from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity
from urdf_sdf.core.inspect.resources import Referenced
from urdf_sdf.core.read.files import system_reason
from urdf_sdf.core.write import atomic

CHUNK = 64 * 1024
# What an output never replaces: an input file's name (``-``: the file on standard input),
# or a file the input references (a mesh, a texture, an included model.config).
Input = str | Referenced


class OutputError(ValueError):
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



def write_file(data: bytes, destination: Path, inputs: Sequence[Input] = (),
               stale_removed: bool = False, through_links: bool = False,
               guard: atomic.Guard | None = None,
               to_stdout: Callable[[bytes], None] | None = None) -> None:
    """Write ``data`` to the file ``destination`` names (see the module). ``inputs``: never
    overwritten. ``stale_removed``: the caller has removed the stale temporaries of the
    destination's directory already. ``through_links``: a symbolic link to a regular file
    is written through (a path the user named), not replaced. ``guard``: what protects
    the temporary file (:data:`~urdf_sdf.core.write.atomic.Guard`). ``to_stdout``: how
    a name of standard output is written (default: to its descriptor). Raises
    :class:`OutputError` (refused: nothing written) or ``OSError`` (the write failed)."""
    kind, target = resolve_destination(destination, inputs, through_links)
    if kind == STDOUT:
        if to_stdout is not None:
            to_stdout(data)
        else:
            write_descriptor(data, _stdout_descriptor())
        return
    descriptor = own_descriptor(target) if kind == SPECIAL else None
    if descriptor is not None:
        write_descriptor(data, descriptor)
        return
    if kind == SPECIAL:
        with open(target, "wb") as stream:  # /dev/null, a FIFO: as `cat > FILE` would
            stream.write(data)
        return
    atomic.write_atomically(data, target, stale_removed, guard)


# What resolve_destination finds: standard output itself, a file written directly (a
# device, a FIFO, an open descriptor's name), a regular file or new path (atomically).
STDOUT, SPECIAL, FILE = "stdout", "special", "file"
MAX_LINKS = 40  # as the kernel's limit of symbolic links followed in one lookup
_DESCRIPTOR_DIRECTORY = re.compile(r"^/proc/(?:self|thread-self|\d+)(?:/task/\d+)?/fd$")


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


def _stdout_descriptor() -> int:
    try:
        return sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return 1  # a test runner's stdout: the descriptor is still the process's


def _is_stdout(status: os.stat_result) -> bool:
    stdout = _descriptor_status(_stdout_descriptor())
    return stdout is not None and os.path.samestat(stdout, status)
