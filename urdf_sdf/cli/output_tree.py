"""Where a batch writes: only inside the output directory it was given.

OUTDIR itself, named by the user, may be a symbolic link (written through), but every
folder between it and a file is a real directory the batch makes or finds, each opened in
the one before it as a descriptor, never through a link (:func:`opened_output_folder`),
and the file is written relative to that descriptor
(:func:`~urdf_sdf.core.write.atomic.write_atomically_in`). So a folder of the output
tree that is a symbolic link, or that someone able to write there swaps for one (to
``/etc``, to ``~``) between our check and our write, makes that file FILE_WRITE ("a
symbolic link in the output tree: not followed"), nothing outside OUTDIR touched; a link
as the file's own name is replaced, never followed. Where the system cannot open
relative to a folder (Windows), each folder is checked by name with ``lstat`` instead.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from urdf_sdf.cli.output import FILE, check_destination, removed_on_signal, write_output
from urdf_sdf.core.read.files import FOLDER_FLAGS, NO_FOLLOW
from urdf_sdf.core.write import atomic

LINKED_OUTPUT_FOLDER = "a symbolic link in the output tree: not followed"


class OutsideOutputTree(OSError):
    """A folder between the output directory and a file is not a real directory."""


def output_folder(out_dir: Path, relative: Path, create: bool = True) -> Path:
    """``out_dir / relative``, each folder of ``relative`` a real directory (made one at a
    time with ``create``, never through a link: :func:`opened_output_folder`), so that a
    file written there stays inside ``out_dir``. Raises :class:`OutsideOutputTree` for a
    symbolic link or non-directory on the way, ``OSError`` when a folder cannot be made."""
    with opened_output_folder(out_dir, relative, create):
        return out_dir / relative


@contextlib.contextmanager
def opened_output_folder(out_dir: Path, relative: Path,
                         create: bool = True) -> Iterator[int | None]:
    """While inside: a descriptor of the folder ``out_dir / relative``, each folder of
    ``relative`` opened in the one before it without following a link (made there first
    with ``create``), so that one swapped for a link to ``/etc`` at any moment is refused
    (:class:`OutsideOutputTree`), never followed. ``out_dir`` itself, named by the user,
    is made with its parents and may be a link. None where the system cannot open
    relative to a folder (Windows: each folder checked with ``lstat`` instead)."""
    if create:
        out_dir.mkdir(parents=True, exist_ok=True)
    if not atomic.writes_in_folders():
        _checked_by_name(out_dir, relative, create)
        yield None
        return
    fd = os.open(out_dir, FOLDER_FLAGS & ~NO_FOLLOW)  # named by the user: may be a link
    try:
        for part in relative.parts:
            if create:
                with contextlib.suppress(FileExistsError):  # a link there is not followed
                    os.mkdir(part, dir_fd=fd)
            inner = _open_inner_folder(fd, part, out_dir / relative)
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def _open_inner_folder(fd: int, part: str, shown: Path) -> int:
    """The folder ``part`` of the open folder ``fd``, not through a link."""
    try:
        return os.open(part, FOLDER_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise
        link = stat.S_ISLNK(os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode)
        raise OutsideOutputTree(f"{LINKED_OUTPUT_FOLDER} ({shown})" if link
                                else f"{shown} is not a directory") from exc


def _checked_by_name(out_dir: Path, relative: Path, create: bool) -> None:
    """:func:`opened_output_folder` by names (``lstat`` of each folder)."""
    folder = out_dir
    for part in relative.parts:
        folder = folder / part
        if create:
            with contextlib.suppress(FileExistsError):  # a link there is not followed
                os.mkdir(folder)
        mode = os.lstat(folder).st_mode
        if stat.S_ISLNK(mode):
            raise OutsideOutputTree(f"{LINKED_OUTPUT_FOLDER} ({folder})")
        if not stat.S_ISDIR(mode):
            raise OutsideOutputTree(f"{folder} is not a directory")


def write_output_in(data: bytes, folder: int | None, target: Path, source: str) -> None:
    """One file of a batch to ``target`` (never over its input ``source``): atomically in
    the open ``folder`` (:func:`~urdf_sdf.core.write.atomic.write_atomically_in`); a
    device or FIFO at that name, or with no ``folder``, as
    :func:`~urdf_sdf.cli.output.write_output` writes it."""
    if folder is None or check_destination(target, [source]) != FILE:
        write_output(data, str(target), [source], stale_removed=True)
        return
    atomic.write_atomically_in(data, folder, target, removed_on_signal)
