"""What a xacro expansion may read, and where ``$(find PKG)`` points (the file side of
:mod:`urdf_sdf.cli.xacro_sandbox`, run inside its child process).

* The **package root** of an input is the nearest directory above it (the input's real
  path, symbolic links resolved) holding a ``package.xml``, else the input's own
  directory. ``xacro:include``, ``load_yaml`` (and any path built with ``$(find)``,
  ``$(dirname)`` or ``$(cwd)``) may read only regular files whose real path lies inside
  that root or inside a directory the user named (``--xacro-path``, ``--package-path``);
  never under ``/proc``, ``/sys`` or ``/dev``; opened by
  :func:`urdf_sdf.core.read.files.open_regular` (non-blocking, examined after opening,
  its real path opened one folder at a time with no symbolic link followed, so that a
  folder swapped for a link after the check is refused: "not a regular file (a FIFO)",
  "... (a symbolic link on its path)"); at most
  :data:`MAX_FILES` files and ``max_bytes`` bytes each. Anything else is refused
  (:class:`FileRefused`).
* ``$(find PKG)`` is the directory ``--package PKG=DIR`` names, else the nearest
  directory above the input whose ``package.xml`` names ``PKG``, else the folder named
  ``PKG`` holding the input in its ``urdf/`` folder (a package as pip wheels ship them,
  without package.xml: :func:`urdf_sdf.core.compose.uri.package_ancestor`), else, in
  each directory the user named, that directory (its ``package.xml`` naming ``PKG``) or its ``PKG``
  subdirectory. With ``--xacro-env`` also the directories of ``ROS_PACKAGE_PATH`` and
  ``AMENT_PREFIX_PATH`` (``PREFIX/share/PKG``) of the environment the expansion was
  given. A package found so becomes readable too. No ROS package is needed: ROS's
  ``ament_index_python`` and ``rospkg`` are never asked.
* ``package://PKG/PATH`` (in ``xacro:include``, as ROS 2's xacro reads it) is
  ``$(find PKG)/PATH``: :meth:`Files.local_path`.
"""
from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from urdf_sdf.cli.xacro_evaluator import Refused
from urdf_sdf.core.base.path_components import is_within
from urdf_sdf.core.compose.uri import package_ancestor
from urdf_sdf.core.read.files import NotRegular, read_head, read_regular

MAX_FILES = 10_000
NEVER_READ = ("/proc", "/sys", "/dev")
_PACKAGE_NAME = re.compile(rb"<name>\s*([^<\s]+)\s*</name>")
# What $(find NAME) takes: a package's name (REP 144, and the older names with capitals,
# '-' and '.'), never a path.
_PACKAGE_ARGUMENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class FileRefused(Refused):
    """A file the expansion may not read; ``holder`` is the file that names it (when
    known), ``needle`` the text naming it there (when known: else the expression that
    read it, filled in by the evaluator)."""

    def __init__(self, message: str, needle: str | None = None, holder: str | None = None):
        super().__init__(message, needle)
        self.holder = holder


def package_name(directory: str) -> str | None:
    """The ``<name>`` of ``directory/package.xml``, None without one."""
    try:
        head = read_head(os.path.join(directory, "package.xml"), 65536, follow_links=False)
    except OSError:
        return None
    match = _PACKAGE_NAME.search(head)
    return match.group(1).decode("utf-8", "replace") if match else None


def ancestors(path: str) -> list[str]:
    """The directories holding ``path``, nearest first."""
    found = []
    directory = os.path.dirname(path)
    while True:
        found.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            return found
        directory = parent


def package_root(input_file: str) -> str:
    """The input's package root: its nearest ancestor with a package.xml, else its
    directory (both real paths)."""
    real = os.path.realpath(input_file)
    for directory in ancestors(real):
        if os.path.isfile(os.path.join(directory, "package.xml")):
            return directory
    return os.path.dirname(real)


class Files:
    """The files one expansion may read: the input's package root and the user's
    directories (``search``), plus the packages ``$(find)`` finds through the
    environment (``environment``: None without ``--xacro-env``)."""

    def __init__(self, input_file: str, search: Sequence[str],
                 environment: Mapping[str, str] | None, max_bytes: int,
                 packages: Mapping[str, str] | None = None):
        self.input_file = input_file
        self.search = [os.path.realpath(d) for d in search]
        self.packages = {name: os.path.realpath(d) for name, d in (packages or {}).items()}
        self.roots = [package_root(input_file)] + self.search + list(self.packages.values())
        self.environment = environment
        self.max_bytes = max_bytes
        self.read: dict[str, bytes] = {}  # every file read, by the name xacro used

    def check(self, path: str, needle: str | None = None) -> str:
        """The real path of ``path`` when the expansion may read it; FileRefused else."""
        real = os.path.realpath(path)
        if any(is_within(real, never) for never in NEVER_READ) or \
                not any(is_within(real, root) for root in self.roots):
            raise FileRefused(f"{path} is outside the input's package ({self.roots[0]}); "
                              "give --xacro-path DIR to allow a directory", needle)
        return real

    def read_file(self, path: str, needle: str | None = None) -> bytes:
        """The bytes of ``path`` (FileRefused outside the roots or when it is not a regular
        file; OSError when it cannot be read, so that an optional include is skipped). The
        real path checked is opened one folder at a time, no link followed (``resolved``):
        a folder swapped for a link out of the roots after the check is refused."""
        real = self.check(path, needle)
        if len(self.read) >= MAX_FILES:
            raise FileRefused(f"the expansion reads more than {MAX_FILES} files", needle)
        try:
            data = read_regular(real, self.max_bytes, follow_links=False, resolved=True)
        except NotRegular as exc:
            raise FileRefused(f"{path} is {exc}", needle) from None
        if data is None:
            raise FileRefused(f"{path} is larger than {self.max_bytes} bytes", needle)
        self.read[path] = data
        return data

    def find(self, package: str) -> str:
        """The directory of ``$(find package)`` (LookupError when there is none). A
        package name is a name, never a path (``$(find /etc)``, ``$(find ../..)``: refused)."""
        if not _PACKAGE_ARGUMENT.match(package):
            raise FileRefused(f"$(find {package}): a package name is letters, digits, '_', "
                              "'-' and '.', starting with a letter or digit")
        if package in self.packages:  # --package NAME=DIR
            return self.packages[package]
        real_input = os.path.realpath(self.input_file)
        for directory in ancestors(real_input):
            if package_name(directory) == package:  # the input's own package
                self.roots.append(directory)
                return directory
        own = package_ancestor(Path(os.path.dirname(real_input)), package)
        if own is not None:  # its own package as pip wheels ship them (no package.xml)
            self.roots.append(str(own))
            return str(own)
        for directory in self.search:
            found = _in_directory(directory, package)
            if found is not None:
                return found
        for found in self._from_environment(package):
            self.roots.append(os.path.realpath(found))
            return found
        hint = "" if self.environment is not None else \
            " (ROS_PACKAGE_PATH and AMENT_PREFIX_PATH are read only with --xacro-env)"
        raise LookupError(f"package {package} not found above the input or in a "
                          f"--xacro-path/--package-path directory{hint}; pass --package "
                          f"{package}=DIR")

    def local_path(self, filename: str) -> str:
        """``filename`` as a path: ``package://PKG/PATH`` is ``$(find PKG)/PATH``, anything
        else is itself."""
        if not filename.startswith("package://"):
            return filename
        package, _, inner = filename[len("package://"):].partition("/")
        return os.path.join(self.find(package), inner)

    def _from_environment(self, package: str):
        if self.environment is None:
            return
        for directory in _path_list(self.environment.get("ROS_PACKAGE_PATH")):
            found = _in_directory(directory, package)
            if found is not None and _stays_in(found, directory):
                yield found
        for prefix in _path_list(self.environment.get("AMENT_PREFIX_PATH")):
            candidate = os.path.join(prefix, "share", package)
            if os.path.isdir(candidate) and _stays_in(candidate, prefix):
                yield candidate


def _stays_in(found: str, directory: str) -> bool:
    """Whether ``found``'s real path lies in ``directory``'s (a package that is a symbolic
    link out of its search path, say to ``/``, never becomes a folder files are read from)."""
    real, base = os.path.realpath(found), os.path.realpath(directory)
    return is_within(real, base)


def _in_directory(directory: str, package: str) -> str | None:
    if package_name(directory) == package:
        return directory
    candidate = os.path.join(directory, package)
    return candidate if os.path.isdir(candidate) else None


def _path_list(value: str | None) -> list[str]:
    return [p for p in (value or "").split(os.pathsep) if p]
