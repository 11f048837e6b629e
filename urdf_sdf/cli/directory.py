"""Write a whole output directory (a Gazebo model directory, a ROS package) so that it is
never seen half-written and never replaces what is not ours.

* Everything goes into a temporary sibling folder, which then takes the target's place.
  Each file is made in its folder opened one folder at a time from the temporary one,
  no link followed (:func:`urdf_sdf.core.write.folders.new_file_in`): a folder swapped
  for a link mid-write takes no file outside.
* A target that does not exist, or an empty directory, is simply filled.
* An existing non-empty directory is replaced only when it is one we wrote **and**
  ``force`` (``--force``) is given; otherwise :class:`OutputExists` (OUTPUT_EXISTS) and
  nothing is touched. Ours are recognised by the marker every directory written here
  holds: a comment (:data:`MARKER_HEAD`...) atop its ``model.config`` or
  ``package.xml`` (:data:`MARKED_FILES`), after the processing instructions opening it (a
  directory with neither file gets the file :data:`MARKER_FILE`), so a model directory or
  package stays what Gazebo, colcon and rospack read, file for file. The old directory is
  set aside only once the new one is complete, and removed only once the new one is in its
  place.
* A target that is a symbolic link is written through (its target is the directory),
  except inside a batch's output folder (``container``), where each name comes from an
  input file: there a symbolic link is refused, so that no output leaves the folder.

SIGTERM, SIGINT and SIGHUP remove the temporary folder (``urdf_sdf.cli.output``)."""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

from urdf_sdf.cli.output import removed_on_signal
from urdf_sdf.core.read.files import read_head
from urdf_sdf.core.write.atomic import temporary_name
from urdf_sdf.core.write.destination import Input, OutputError, input_path
from urdf_sdf.core.write.folders import new_file_in, opened_folder

MARKED_FILES = ("model.config", "package.xml")
MARKER_FILE = ".urdf-sdf-output"
MARKER_HEAD = b"<!-- urdf-sdf output"
MARKER_SCANNED_BYTES = 1024  # the marker is looked for in a marked file's first bytes


class OutputExists(OutputError):
    """The target exists and may not be replaced (OUTPUT_EXISTS, exit 1)."""


def marker_text(writer: str) -> bytes:
    """The marker comment: what wrote the directory (``writer``, the command's version
    line) and how to replace it (a comment may not hold two hyphens in a row, hence no
    option spelt out)."""
    return (MARKER_HEAD + f" ({writer}): a later run given the force option "
            "may replace this directory; without this line it is never replaced. -->\n"
            .encode())


def marked(files: dict[str, bytes], writer: str) -> dict[str, bytes]:
    """``files`` with the marker: in the first of :data:`MARKED_FILES` there, after the
    lines of its prolog that are processing instructions; else as the file
    :data:`MARKER_FILE`."""
    name = next((n for n in MARKED_FILES if n in files), None)
    if name is None:
        return {**files, MARKER_FILE: marker_text(writer)}
    data = files[name]
    cut = _after_instructions(data)
    return {**files, name: data[:cut] + marker_text(writer) + data[cut:]}


def _after_instructions(data: bytes) -> int:
    """Where the lines of leading processing instructions (the XML declaration,
    ``package.xml``'s ``<?xml-model?>``) end: tinyxml2, which rospack and Gazebo read these
    files with, refuses a processing instruction after a comment."""
    cut = 0
    while data.startswith(b"<?", cut) and b"\n" in data[cut:]:
        end = data.index(b"\n", cut) + 1
        if not data[cut:end].rstrip().endswith(b"?>"):
            break  # the line goes on past the instruction
        cut = end
    return cut


def write_directory(target: Path, files: dict[str, bytes], bundle,
                    inputs: Sequence[Input] = (), *,
                    writer: str = "urdf-sdf", force: bool = False,
                    container: Path | None = None) -> Path:
    """``target/`` with ``files`` (relative path -> content), ``bundle``'s copies and the
    marker; returns the directory written (``target``, or a symlink's target)."""
    target = _writable_target(target, container)
    _check_target(target, inputs, force)
    parent = target.parent if str(target.parent) else Path(".")
    parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(temporary_name(parent / target.name))
    tmp.mkdir()
    try:
        with removed_on_signal(str(tmp), _remove_tree):
            for relative, data in marked(files, writer).items():
                with new_file_in(tmp, Path(relative)) as stream:
                    stream.write(data)
            bundle.copy_into(tmp)
            _swap_into_place(tmp, target)
    finally:
        _remove_tree(str(tmp))
    return target


def _writable_target(target: Path, container: Path | None) -> Path:
    """``target``, or the directory its symbolic link names (refused in a batch)."""
    if not os.path.islink(target):
        return target
    if container is not None:
        raise OutputExists(f"{target} is a symbolic link: a batch writes only inside "
                           f"{container}")
    return Path(os.path.realpath(target))


def _check_target(target: Path, inputs: Sequence[Input], force: bool) -> None:
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(mode):
        raise OutputError(f"{target} exists and is not a directory")
    if _is_empty(target):
        return  # an empty directory is filled
    if not is_our_output(target):
        raise OutputExists(f"{target} exists, is not empty and was not written by urdf-sdf "
                           "(no marker in its model.config or package.xml): it is never "
                           "replaced; choose a new or empty directory")
    if not force:
        raise OutputExists(f"{target} holds an earlier output of urdf-sdf: give --force to "
                           "replace it")
    held = _held_input(target, inputs)
    if held is not None:
        raise OutputExists(f"{target} is not replaced: it holds {held}")


def _held_input(target: Path, inputs: Sequence[Input]) -> str | None:
    """The input (or file an input references) inside ``target``, as a message names it."""
    for source in inputs:
        path = input_path(source) if source not in (None, "-") else None
        if path is None or not Path(path).resolve().is_relative_to(target.resolve()):
            continue
        return f"the input {path}" if isinstance(source, str) else \
            f"{path}, which {source.describe()} references"
    return None


def is_our_output(folder: Path) -> bool:
    """Whether ``folder`` holds our marker (in a regular file, not through a symlink)."""
    for name in (*MARKED_FILES, MARKER_FILE):
        try:
            head = read_head(folder / name, MARKER_SCANNED_BYTES, follow_links=False)
        except OSError:  # missing, not a regular file (a FIFO never blocks), unreadable
            continue
        if _marked(head):
            return True
    return False


def _marked(head: bytes) -> bool:
    """Whether the marker opens the file: first, or first after the processing
    instructions opening it (the XML declaration, ``<?xml-model?>``; a marker elsewhere,
    say inside a ``<description>``, is not ours)."""
    text = head.lstrip()
    while text.startswith(b"<?"):
        end = text.find(b"?>")
        text = text[end + 2:].lstrip() if end >= 0 else b""
    return text.startswith(MARKER_HEAD)


def _swap_into_place(tmp: Path, target: Path) -> None:
    if not os.path.lexists(target):
        tmp.rename(target)
        return
    if _is_empty(target):
        _fill(target, tmp)  # the user's folder stays: its owner, mode, mount
        return
    old = tmp.with_name(tmp.name + ".old")
    target.rename(old)
    try:
        tmp.rename(target)
    except OSError:
        old.rename(target)
        raise
    _remove_tree(str(old))


def _fill(target: Path, tmp: Path) -> None:
    """Move what ``tmp`` holds into the empty directory ``target`` (each entry renamed,
    the marked files last, so that the folder is known as ours only once complete),
    relative to the two folders opened with no link followed (one swapped for a link
    meanwhile is refused: nothing lands outside); on a failure the entries moved go back
    and the folder is empty again."""
    entries = sorted(os.listdir(tmp), key=lambda name: (name in MARKED_FILES, name))
    with opened_folder(tmp, Path(), create=False, root_link=False) as source, \
            opened_folder(target, Path(), create=False, root_link=False) as into:
        moved: list[str] = []
        try:
            for name in entries:
                _rename(name, (source, tmp), (into, target))
                moved.append(name)
        except OSError:
            for name in reversed(moved):
                with contextlib.suppress(OSError):
                    _rename(name, (into, target), (source, tmp))
            raise


def _rename(name: str, origin: tuple[int | None, Path], to: tuple[int | None, Path]) -> None:
    """Rename the entry ``name`` from one folder to another, each given as its open
    descriptor (None where the system has none) and its path."""
    (origin_fd, origin_path), (to_fd, to_path) = origin, to
    if origin_fd is None or to_fd is None:
        os.rename(origin_path / name, to_path / name)
    else:
        os.rename(name, name, src_dir_fd=origin_fd, dst_dir_fd=to_fd)


def _is_empty(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return next(entries, None) is None


def _remove_tree(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)
