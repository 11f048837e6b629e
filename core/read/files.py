"""Opening a file to read it: the one way every reader of ours opens a file.

A description, an include, a mesh, a texture, a file a xacro expansion reads, a marker of
an earlier output: whatever a file names may be a FIFO that never gets a writer, a device,
a socket or a directory, or be swapped for one after its name was checked. So every read
opens the file with :func:`open_regular`:

* with :data:`OPEN_FLAGS`: read-only, non-blocking (opening a FIFO cannot hang), never
  becoming the process's controlling terminal, closed in a child process (a flag a
  platform lacks is left out; ``O_BINARY`` is Windows' own);
* with ``follow_links=False``, never through a last symbolic link (``O_NOFOLLOW``): a
  symlink is refused as "a symbolic link", not followed;
* with ``resolved``, a real path the caller checked (a batch's input, a copied mesh) is
  opened one folder at a time from the root (:data:`FOLDER_FLAGS`, ``dir_fd``), no link
  followed: a folder swapped for a link after the check is refused as "a symbolic link
  on its path", never followed out;
* examined with ``fstat`` *after* opening, on the descriptor, never with ``stat`` of the
  name: anything but a regular file is refused with :class:`NotRegular`, whose message
  names its kind (:func:`not_regular_message`: "not a regular file (a FIFO)"; a socket
  or a device that cannot even be opened is named too). A pipe is
  accepted only when the caller says so (``pipes``: a FILE argument the user named, read
  as ``cat`` would read it).

:func:`read_regular` reads such a file whole up to a limit, :func:`read_head` its first
bytes, :func:`read_upto` reads from an open descriptor. :func:`os_reason` is an
``OSError``'s reason as our messages show it ("permission denied"); a failed write
(``urdf_sdf.cli.output``, a model directory or package) keeps the system's own wording
(:func:`system_reason`: "No space left on device").

This module imports nothing of ours: every layer may use it.
"""
from __future__ import annotations

import errno
import os
import select
import stat
from pathlib import Path
from typing import NoReturn

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)
OPEN_FLAGS = (os.O_RDONLY | _NONBLOCK | getattr(os, "O_NOCTTY", 0)
              | CLOEXEC | getattr(os, "O_BINARY", 0))
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
# A folder opened only to open, make or rename what is in it (O_PATH: no read permission
# needed), not through a last link.
FOLDER_FLAGS = (getattr(os, "O_PATH", os.O_RDONLY) | getattr(os, "O_DIRECTORY", 0)
                | NO_FOLLOW | CLOEXEC)
CHUNK = 1 << 20  # bytes per read past the size fstat gave

SYMBOLIC_LINK = "a symbolic link"
LINK_ON_PATH = "a symbolic link on its path"


class NotRegular(OSError):
    """The file is not read: it is not a regular file. ``kind`` says what it is ("a FIFO",
    "a socket", "a device", "a directory", "a symbolic link")."""

    def __init__(self, kind: str):
        super().__init__(not_regular_message(kind))
        self.kind = kind

    def __reduce__(self):  # pickled by kind (a batch worker sends it back whole)
        return type(self), (self.kind,)


def not_regular_message(kind: str) -> str:
    """What a reader says of a file of ``kind`` (:func:`file_kind`) that it does not read."""
    return f"not a regular file ({kind})"


def file_kind(mode: int) -> str:
    """The kind of a file of ``mode`` in the words of :func:`not_regular_message`."""
    for test, kind in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                       (stat.S_ISLNK, SYMBOLIC_LINK)):
        if test(mode):
            return kind
    return "a special file"


def system_reason(exc: OSError) -> str:
    """``exc``'s reason as the system states it ("No space left on device"; its errno's
    name when it has no text; the message of a :class:`NotRegular`)."""
    return exc.strerror or errno.errorcode.get(exc.errno or 0, "") or str(exc)


def os_reason(exc: OSError) -> str:
    """:func:`system_reason` in lower case words, as a reason following a colon reads
    ("permission denied", "no such file or directory")."""
    text = system_reason(exc)
    return text[:1].lower() + text[1:]


def open_regular(path: str | Path, *, follow_links: bool = True, pipes: bool = False,
                 resolved: bool = False) -> int:
    """A read-only descriptor of the regular file at ``path`` (the caller closes it), or
    a pipe's with ``pipes``. Raises :class:`NotRegular` for any other kind of file (a last
    symbolic link too, unless ``follow_links``), ``OSError`` when it cannot be opened.

    ``resolved``: ``path`` is a real path (``os.path.realpath``, checked by the caller
    against where it may lie), opened one folder at a time from the root with no symbolic
    link followed (:func:`_open_resolved`): a folder swapped for a link after the check is
    refused (:class:`NotRegular`, "a symbolic link on its path"), never followed out."""
    try:
        fd = _open_resolved(str(path)) if resolved else \
            os.open(path, OPEN_FLAGS | (0 if follow_links else NO_FOLLOW))
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_links:
            raise NotRegular(SYMBOLIC_LINK) from exc
        if exc.errno in _NO_OPEN:  # a socket, a device without its driver: named so
            _raise_kind(path, follow_links, exc)
        raise
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if stat.S_ISREG(mode) or (pipes and stat.S_ISFIFO(mode)):
        return fd
    os.close(fd)
    raise NotRegular(file_kind(mode))


def _open_resolved(path: str) -> int:
    """The file at the real path ``path`` opened with :data:`OPEN_FLAGS`, each folder of
    it opened in the one before (``dir_fd``) with ``O_NOFOLLOW``, and the file too: no
    symbolic link anywhere on the way is followed (:class:`NotRegular` when one is there:
    the path was swapped since it was resolved). Where the system cannot open relative to
    a folder (Windows), the path is opened as it is, its last link not followed."""
    if os.open not in os.supports_dir_fd or not os.path.isabs(path):
        return os.open(path, OPEN_FLAGS | NO_FOLLOW)
    parts = Path(path).parts
    folder = os.open(parts[0], FOLDER_FLAGS)
    try:
        for part in parts[1:-1]:
            try:
                inner = os.open(part, FOLDER_FLAGS, dir_fd=folder)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise NotRegular(LINK_ON_PATH) from exc
                raise
            os.close(folder)
            folder = inner
        return os.open(parts[-1], OPEN_FLAGS | NO_FOLLOW, dir_fd=folder)
    finally:
        os.close(folder)


# What opening a socket (ENXIO) or a device without a driver (ENXIO, ENODEV) says.
_NO_OPEN = (errno.ENXIO, errno.ENODEV)


def _raise_kind(path: str | Path, follow_links: bool, exc: OSError) -> NoReturn:
    """Raise :class:`NotRegular` naming the kind of ``path`` when it is not a regular
    file (by ``stat``: it could not be opened to ``fstat``), else ``exc`` itself."""
    try:
        mode = (os.stat if follow_links else os.lstat)(path).st_mode
    except OSError:
        raise exc from None
    if stat.S_ISREG(mode):
        raise exc
    raise NotRegular(file_kind(mode)) from exc


def read_regular(path: str | Path, limit: int, pipes: bool = False, *,
                 follow_links: bool = True, resolved: bool = False) -> bytes | None:
    """The bytes of the regular file at ``path`` (:func:`open_regular`, ``resolved``
    passed on), None when it holds more than ``limit``; raises :class:`NotRegular` or
    ``OSError``.

    A file larger than ``limit`` by its size is not read at all; one that grows meanwhile
    is read no further than ``limit + 1`` bytes. With ``pipes`` a pipe is read too, to its
    end (a named FIFO waits for its writer, as ``cat`` does)."""
    fd = open_regular(path, follow_links=follow_links, pipes=pipes, resolved=resolved)
    try:
        status = os.fstat(fd)
        if stat.S_ISFIFO(status.st_mode):
            _wait_for_writer(fd)
        elif status.st_size > limit:
            return None
        if _NONBLOCK:
            os.set_blocking(fd, True)
        data = read_upto(fd, limit + 1, status.st_size)
    finally:
        os.close(fd)
    return data if len(data) <= limit else None


def read_head(path: str | Path, count: int, *, follow_links: bool = True) -> bytes:
    """The first ``count`` bytes of the regular file at ``path`` (all of a shorter one);
    raises :class:`NotRegular` or ``OSError``."""
    fd = open_regular(path, follow_links=follow_links)
    try:
        return read_upto(fd, count)
    finally:
        os.close(fd)


def read_upto(fd: int, count: int, expected: int = 0) -> bytes:
    """At most ``count`` bytes from ``fd``'s position, fewer at its end. ``expected`` (the
    size ``fstat`` gave) is read in one call; a file that grows, or says 0 (``/proc``),
    or a pipe is read on in chunks."""
    chunks: list[bytes] = []
    size = 0
    want = expected + 1 if expected else CHUNK
    while size < count:
        chunk = os.read(fd, min(want, count - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        want = CHUNK
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _wait_for_writer(fd: int) -> None:
    """Wait, as a blocking ``open`` would, until the pipe ``fd`` has data or its writer
    came and went (``poll``: a FIFO opened non-blocking reports a hang-up only once a
    writer has been there), so that a named FIFO whose writer starts later is read whole."""
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.poll()
