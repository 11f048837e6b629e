"""A file written atomically: the bytes go to a temporary file beside the target, which is
renamed into place, so a reader never sees half a file and a failed write leaves the
previous file intact. The command line writes every output file this way
(``urdf_sdf.cli.output``, which adds the clean-up on SIGTERM/SIGINT/SIGHUP), and so does
the API's ``Conversion.write``. A batch writes each file in its folder opened as a
descriptor (:func:`write_atomically_in`), so that no folder swapped for a link after it
was checked takes the file elsewhere.

The temporary file is ``.NAME.urdf-sdf-PID-TOKEN.tmp`` (NAME cut to fit the system's
limit on a file name: :func:`temporary_stem`); a later write of the same target
removes the stale ones whose process is gone (:func:`remove_stale_temporaries`). A new
file gets 0666 less the umask, which is read, never set (:func:`new_file_mode`); a
replaced file keeps its mode. Nothing here changes the process: no umask, no signal
handler (the caller may pass a ``guard`` that installs its own around the write).
"""
from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from urdf_sdf.core.read.files import CLOEXEC, NO_FOLLOW

# A new file made only here (never an existing one, never through a link at its name),
# closed in a child process.
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_FOLLOW | CLOEXEC

TEMPORARY = re.compile(r"^\.(?P<name>.+)\.urdf-sdf-(?P<pid>\d+)-[0-9a-f]+\.tmp$")
NAME_MAX = 255  # bytes in a file name (Linux, macOS, Windows' NTFS in characters)
# What a temporary name adds to NAME: ".", ".urdf-sdf-", a pid (at most 7 digits on
# Linux, 10 in any 32-bit pid), "-", 8 hexadecimal digits, ".tmp"; and ".old" (a model
# directory set aside).
MAX_STEM_BYTES = NAME_MAX - len(".." + "urdf-sdf-" + "9" * 10 + "-" + "0" * 8 + ".tmp.old")

# What protects a temporary file while it exists (the command line: removal on a signal);
# entered before the file is made, with its path.
Guard = Callable[[str], contextlib.AbstractContextManager[None]]


def write_atomically(data: bytes, target: Path, stale_removed: bool = False,
                     guard: Guard | None = None) -> None:
    """Write ``data`` to the regular file (or new path) ``target``: a temporary file
    beside it, given ``target``'s mode (:func:`file_mode`), renamed over it. Raises
    ``OSError`` when the write fails (the previous file intact, no temporary left)."""
    with temporary_beside(target, stale_removed, guard) as tmp:
        with open(tmp, "wb") as stream:
            stream.write(data)
        os.chmod(tmp, file_mode(target))
        os.replace(tmp, target)


@contextlib.contextmanager
def temporary_beside(target: Path, stale_removed: bool = False,
                     guard: Guard | None = None) -> Iterator[str]:
    """A new, empty temporary file's path in ``target``'s directory, removed on leaving
    (unless renamed away) and on an exception; ``guard(path)`` is entered before the file
    is made. Stale ones of earlier runs (their process gone) are removed first, unless
    ``stale_removed``."""
    if not stale_removed:
        remove_stale_temporaries(directory_of(target), target.name)
    tmp = temporary_name(target)
    with guard(tmp) if guard is not None else contextlib.nullcontext():
        os.close(os.open(tmp, NEW_FILE_FLAGS, 0o600))
        try:
            yield tmp
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def temporary_name(target: Path) -> str:
    """A new name of a temporary file of ``target``'s, in its directory (see the module)."""
    token = f"{os.getpid()}-{os.urandom(4).hex()}"
    return str(directory_of(target) / f".{temporary_stem(target.name)}.urdf-sdf-{token}.tmp")


def temporary_stem(name: str) -> str:
    """The NAME of ``name``'s temporary files: ``name``, cut (by bytes, whole characters
    kept) so that the temporary name, and a ``.old`` after it, fit in :data:`NAME_MAX`
    bytes (an output named with 225 bytes or more is still written beside itself)."""
    encoded = os.fsencode(name)
    if len(encoded) <= MAX_STEM_BYTES:
        return name
    # a character cut in two is left out (and a byte no character holds)
    return encoded[:MAX_STEM_BYTES].decode(sys.getfilesystemencoding(), "ignore")


def directory_of(target: Path) -> Path:
    """The directory ``target`` is written in."""
    return target.parent if str(target.parent) else Path(".")


def remove_stale_temporaries(directory: Path, name: str | None = None) -> None:
    """Remove ``.NAME.urdf-sdf-PID-*.tmp`` files of ours whose process is gone (of any
    NAME when ``name`` is None)."""
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        match = TEMPORARY.match(entry.name)
        if match is None or (name is not None and match.group("name") != temporary_stem(name)) or \
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


def file_mode(target: Path, folder: int | None = None) -> int:
    """The mode the output should have: the replaced file's, else what the umask
    gives a new file (the temporary file's private 0600 must not leak into the result);
    a symbolic link being replaced is a new file (its target's mode is not its own).
    ``folder``: the open directory ``target``'s name is looked up in."""
    try:
        status = os.stat(target.name, dir_fd=folder, follow_symlinks=False) \
            if folder is not None else os.lstat(target)
        if stat.S_ISLNK(status.st_mode):
            raise FileNotFoundError(target)
        return status.st_mode & 0o7777
    except FileNotFoundError:
        return new_file_mode(target)


def write_atomically_in(data: bytes, folder: int, target: Path,
                        guard: Guard | None = None) -> None:
    """:func:`write_atomically` of ``target``'s name in the open directory ``folder`` (a
    descriptor of ``target``'s directory): the temporary file is made, written and
    renamed relative to it, never through a path, so that a folder on the way swapped
    for a symbolic link meanwhile changes nothing (the file lands in the directory that
    was opened). A symbolic link at the name is replaced, never followed."""
    tmp = os.path.basename(temporary_name(target))
    with guard(str(directory_of(target) / tmp)) if guard is not None else \
            contextlib.nullcontext():
        fd = os.open(tmp, NEW_FILE_FLAGS, 0o600, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as stream:
                stream.write(data)
                os.fchmod(stream.fileno(), file_mode(target, folder))
            os.replace(tmp, target.name, src_dir_fd=folder, dst_dir_fd=folder)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp, dir_fd=folder)


def writes_in_folders() -> bool:
    """Whether this system opens, renames and removes files relative to an open
    directory (:func:`write_atomically_in`; not on Windows)."""
    return {os.open, os.rename, os.unlink, os.stat, os.mkdir} <= os.supports_dir_fd


def new_file_mode(target: Path) -> int:
    """The mode a new file ``target`` gets (0666 less the umask). The umask is read, never
    set (setting it to read it, even for a moment, would change it for every thread of
    the process): from ``/proc/self/status`` where the system has it, else from a new
    file's own mode (:func:`probed_file_mode`)."""
    umask = umask_from_status()
    return 0o666 & ~umask if umask is not None else probed_file_mode(target)


def umask_from_status(status_file: str = "/proc/self/status") -> int | None:
    """The process's umask from its ``Umask:`` line (Linux 4.7 and later), or None."""
    try:
        with open(status_file, encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def probed_file_mode(target: Path) -> int:
    """The mode of a file made with 0666 beside ``target`` (the system applies the umask),
    removed at once. Named as a temporary of ``target``'s: if the process dies in between,
    the next write of ``target`` removes it (:func:`remove_stale_temporaries`)."""
    probe = temporary_name(target)
    fd = os.open(probe, NEW_FILE_FLAGS, 0o666)
    try:
        return stat.S_IMODE(os.fstat(fd).st_mode)
    finally:
        os.close(fd)
        os.unlink(probe)
