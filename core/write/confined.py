"""Which files a model directory or a ROS package may copy, and how they are copied.

A mesh or texture (and a file a mesh names: a COLLADA image, an OBJ's material library
and its maps) is copied only when

* its real path (every symlink followed) lies inside a *copy root*: the input's own
  package or model directory (the nearest folder above the input holding a
  ``package.xml`` or ``model.config``; without one, the input's folder; standard input
  has none; the folder named after the package a ``package://`` URI names that holds
  the input in its ``urdf/`` folder, :func:`with_own_package`) or a search directory the
  user named on the command line
  (``--package-path``, ``--package``, ``-p/--path``, a batch's input directory).
  Directories that only the environment names (``ROS_PACKAGE_PATH``,
  ``AMENT_PREFIX_PATH``, ``SDF_PATH``, ``GZ_SIM_RESOURCE_PATH``...)
  still resolve URIs but are not copy roots: a workstation's environment is wide, and
  what a file from a pull request may copy into a published output must not depend on it;
* it is not under ``/proc``, ``/sys`` or ``/dev``;
* it opens as a regular file (:func:`urdf_sdf.core.read.files.open_regular`:
  non-blocking, examined after opening, its real path opened one folder at a time with
  no symlink followed: a folder swapped for a link to ``/etc`` between the check and the
  copy is refused, never followed);
* it is at most ``MAX_COPY_BYTES`` (512 MiB) long, by ``fstat`` of the opened file.

Otherwise the file is refused (:class:`Refusal`, RESOURCE_OUTSIDE_PACKAGE,
RESOURCE_NOT_REGULAR or MESH_TOO_LARGE; MESH_UNREADABLE with the system's reason when it
cannot be read). A copy is a new file (mode 0o666 less the umask, never the source's
mode), written from the file that was checked (same device and inode, never more than
the size checked: a file that changed meanwhile is an OSError), never through a symlink:
its folders in the tree being written are opened one at a time, no link followed
(:mod:`urdf_sdf.core.write.folders`).
"""
from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.path_components import is_within, own_directory
from urdf_sdf.core.compose.uri import package_ancestor
from urdf_sdf.core.read.files import NotRegular, open_regular, os_reason
from urdf_sdf.core.write.folders import new_file_in

PSEUDO_FILESYSTEMS = ("/proc", "/sys", "/dev")
CHUNK = 1024 * 1024
MAX_COPY_BYTES = 512 * 1024 * 1024  # a larger mesh or texture is not copied


@dataclass(frozen=True)
class Refusal:
    """Why a file is not copied: its code and a reason to follow its name."""
    code: Code
    reason: str


@dataclass(frozen=True)
class CopyRoots:
    """The real paths a copied file must lie inside: ``own`` (the input's package or
    model directory, None for standard input) and ``given`` (named by the user);
    ``input_folder`` the real folder of the input (None for standard input)."""
    own: str | None
    given: tuple[str, ...] = ()
    input_folder: str | None = None

    def all(self) -> tuple[str, ...]:
        return ((self.own,) if self.own is not None else ()) + self.given

    def describe(self) -> str:
        """The roots as a message names them."""
        own = f"the input's package or model directory ({self.own})" if self.own else \
            "no package of the input (standard input)"
        given = (", the search paths given (" + ", ".join(self.given) + ")") if self.given \
            else ", no search path given (--package-path, -p/--path)"
        return own + given


def copy_roots(input_file: str | None, given: list[str] | tuple[str, ...] = ()) -> CopyRoots:
    """The copy roots of an input: its own directory and the ``given`` search paths."""
    real = tuple(dict.fromkeys(os.path.realpath(p) for p in given if p))
    own = own_directory(input_file)
    folder = None if own is None else os.path.dirname(os.path.realpath(str(input_file)))
    return CopyRoots(own, real, folder)


def with_own_package(roots: CopyRoots, root: Path | None, name: str | None) -> CopyRoots:
    """``roots`` and ``root`` when ``root`` is the input's own package ``name`` by
    :func:`urdf_sdf.core.compose.uri.package_ancestor` (``package://NAME`` of a package
    laid out as pip wheels ship them, meshes beside the URDF and no package.xml)."""
    if root is None or name is None or roots.input_folder is None:
        return roots
    ancestor = package_ancestor(Path(roots.input_folder), name)
    if ancestor is None or os.path.realpath(ancestor) != os.path.realpath(root):
        return roots
    return CopyRoots(roots.own, roots.given + (os.path.realpath(ancestor),), roots.input_folder)


FileId = tuple[int, int, int]  # (device, inode, size): the file that was checked


def copy_check(path: str | Path, roots: CopyRoots) -> FileId | Refusal:
    """The identity of the file ``path`` names when it may be copied, else why not."""
    real = os.path.realpath(path)
    if any(is_within(real, pseudo) for pseudo in PSEUDO_FILESYSTEMS):
        return Refusal(Code.RESOURCE_NOT_REGULAR, f"resolves to {real}, a system interface "
                       "(/proc, /sys, /dev), not a file")
    if not any(is_within(real, root) for root in roots.all()):
        return Refusal(Code.RESOURCE_OUTSIDE_PACKAGE, f"resolves to {real}, outside "
                       f"{roots.describe()}; name its folder with --package-path (or "
                       "-p/--path) to copy it")
    try:
        fd = open_regular(real, follow_links=False, resolved=True)
    except NotRegular as exc:
        return Refusal(Code.RESOURCE_NOT_REGULAR, f"resolves to {real}, {exc}")
    except OSError as exc:
        return Refusal(Code.MESH_UNREADABLE, f"cannot be read: {os_reason(exc)}")
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if info.st_size > MAX_COPY_BYTES:
        return Refusal(Code.MESH_TOO_LARGE, f"is {info.st_size} bytes, larger than the "
                       f"{MAX_COPY_BYTES // (1024 * 1024)} MiB a copied file may be")
    return info.st_dev, info.st_ino, info.st_size


def copy_checked(source: str, identity: FileId, target: Path, root: Path | None = None) -> None:
    """Copy the regular file ``source``, which must still be the file ``identity``
    (device, inode, size) names, to the new file ``target`` (OSError otherwise: never
    more than the size checked is copied). ``root``: the folder of the tree being written
    that ``target`` lies in (default its own folder); each folder between them is opened
    without following a link (:func:`urdf_sdf.core.write.folders.new_file_in`)."""
    size = identity[2]
    within = root if root is not None else target.parent
    fd = open_regular(source, follow_links=False, resolved=True)
    with os.fdopen(fd, "rb") as reader:
        info = os.fstat(reader.fileno())
        if (info.st_dev, info.st_ino, info.st_size) != identity:
            raise _changed(source)
        with new_file_in(within, target.relative_to(within)) as writer:
            left = size
            while left > 0 and (chunk := reader.read(min(CHUNK, left))):
                writer.write(chunk)
                left -= len(chunk)
            if left != 0 or reader.read(1):  # shrank or grew meanwhile
                raise _changed(source)


def _changed(source: str) -> OSError:
    return OSError(errno.ESTALE, f"{source} changed while the output was written")
