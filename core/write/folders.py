"""The folders of an output tree, opened one at a time: what we write stays inside it.

Every writer of a tree of files (a batch's output directory, a model directory or ROS
package being assembled, its copied meshes) reaches a file's folder the same way
(:func:`opened_folder`): each folder of its relative path opened in the one before it as
a descriptor (``dir_fd``) with no symbolic link followed, made there first when asked;
the file is then made relative to that descriptor (:func:`new_file_in`), never through
a path. So a folder of the tree that is a symbolic link, or that someone able to write
there swaps for one (to ``/etc``, to ``~``) between our check and our write, is refused
(:class:`OutsideOutputTree`, "a symbolic link in the output tree: not followed"),
nothing outside the tree touched. The tree's root itself is opened through a link only
when the caller says so (a folder the user named may be a link).

Where the system cannot open relative to a folder (Windows), each folder is checked by
name with ``lstat`` instead.
"""
from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from urdf_sdf.core.read.files import FOLDER_FLAGS, NO_FOLLOW
from urdf_sdf.core.write.atomic import NEW_FILE_FLAGS, writes_in_folders

LINKED_OUTPUT_FOLDER = "a symbolic link in the output tree: not followed"
NEW_FILE_MODE = 0o666  # less the umask, as for any new file


class OutsideOutputTree(OSError):
    """A folder between the root of an output tree and a file is not a real directory."""


@contextlib.contextmanager
def opened_folder(root: Path, relative: Path, create: bool = True,
                  root_link: bool = True) -> Iterator[int | None]:
    """While inside: a descriptor of the folder ``root / relative``, each folder of
    ``relative`` opened in the one before it without following a link (made there first
    with ``create``), so that one swapped for a link at any moment is refused
    (:class:`OutsideOutputTree`, as is an absolute ``relative`` or one holding ``..``),
    never followed. ``root`` is made with its parents (with
    ``create``) and opened through a link only with ``root_link``. None where the system
    cannot open relative to a folder (each folder checked with ``lstat`` instead)."""
    if relative.is_absolute() or ".." in relative.parts:
        raise OutsideOutputTree(f"{relative} is not a place inside {root}")
    if create:
        root.mkdir(parents=True, exist_ok=True)
    if not writes_in_folders():
        _checked_by_name(root, relative, create, root_link)
        yield None
        return
    try:
        fd = os.open(root, FOLDER_FLAGS & ~NO_FOLLOW if root_link else FOLDER_FLAGS)
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
            raise
        raise OutsideOutputTree(f"{LINKED_OUTPUT_FOLDER} ({root})") from exc
    try:
        for part in relative.parts:
            if create:
                with contextlib.suppress(FileExistsError):  # a link there is not followed
                    os.mkdir(part, dir_fd=fd)
            inner = _open_inner_folder(fd, part, root / relative)
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def new_file_in(root: Path, relative: Path, root_link: bool = False) -> Iterator[BinaryIO]:
    """A new file ``root / relative`` (0o666 less the umask), open for writing: made in
    its folder opened by :func:`opened_folder` (folders made as needed, none followed
    through a link), never over an existing file or through a link at its name."""
    with opened_folder(root, relative.parent, root_link=root_link) as folder:
        name = relative.name if folder is not None else str(root / relative)
        with os.fdopen(os.open(name, NEW_FILE_FLAGS, NEW_FILE_MODE, dir_fd=folder),
                       "wb") as stream:
            yield stream


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


def _checked_by_name(root: Path, relative: Path, create: bool, root_link: bool) -> None:
    """:func:`opened_folder` by names (``lstat`` of each folder)."""
    if not root_link and os.path.islink(root):
        raise OutsideOutputTree(f"{LINKED_OUTPUT_FOLDER} ({root})")
    folder = root
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
