"""Write command output atomically, never over an input file."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


class OutputError(Exception):
    """The output cannot be written where it was asked (a usage problem)."""


def write_output(data: bytes, destination: str | None, inputs: list[str] = ()) -> None:
    """Write ``data`` to ``destination`` (stdout for None or ``-``).

    A file is written to a temporary file in the same directory and renamed
    into place, so a reader never sees half a file; an input file is never the
    destination.
    """
    if destination in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    target = Path(destination)
    if target.is_dir():
        raise OutputError(f"{destination} is a directory; give a file name")
    for source in inputs:
        if source not in (None, "-") and Path(source).exists() and target.exists() \
                and os.path.samefile(source, target):
            raise OutputError(f"refusing to overwrite the input file {source}")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise OutputError(f"output directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, file_mode(target))
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def file_mode(target: Path) -> int:
    """The mode the output should have: the replaced file's, else what the umask
    gives a new file (mkstemp's private 0600 must not leak into the result)."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
