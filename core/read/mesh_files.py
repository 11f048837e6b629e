"""The bytes of a mesh file (or a file a mesh refers to), read within bounds.

A mesh a description names may be anything on disk: a 200 GB sparse file, a FIFO swapped
in after it was resolved, a device. Every read of a mesh's content goes through here:

* every file is opened by :func:`urdf_sdf.core.read.files.open_regular`: non-blocking (a
  FIFO cannot hang the open) and checked, on the opened descriptor, to be a regular
  file: a FIFO, a device, a socket or a directory is refused before a byte is read
  (:class:`MeshFileError` "not a regular file (a FIFO)"; "permission denied" and the
  like, in the system's words, for a file that cannot be opened);
* :func:`read_capped` reads a whole file only when its size, taken from that same
  descriptor, is at most the caller's cap, and never reads more than the cap even when
  the file grows meanwhile (:class:`MeshFileTooLarge` otherwise, with its size);
* :func:`file_digest` hashes a file whole up to a cap; above it, the hash covers the
  size and :data:`SAMPLES` samples of ``sample`` bytes (the first, the middle and the
  last), so that a huge sparse file costs three short reads.

The caps are the callers' (``urdf-sdf view``: :data:`urdf_sdf.view.meshes.MAX_MESH_BYTES`;
``urdf-sdf diff``: :data:`urdf_sdf.core.diff.shapes.MAX_HASHED_BYTES`).
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from urdf_sdf.core.read.files import CHUNK, open_regular, os_reason, read_upto

SAMPLES = 3              # first, middle and last part of a file hashed by samples


class MeshFileError(Exception):
    """A file that is not read; the message says why (``permission denied``, ``not a
    regular file``...)."""


class MeshFileTooLarge(MeshFileError):
    """A file larger than the cap it was read with: ``size`` bytes, ``limit`` allowed."""

    def __init__(self, size: int, limit: int):
        super().__init__(f"{size:,} bytes, more than {describe_size(limit)}")
        self.size, self.limit = size, limit


def describe_size(count: int) -> str:
    """``256 MiB`` for a whole number of MiB, else the number of bytes."""
    return f"{count >> 20} MiB" if count % (1 << 20) == 0 else f"{count:,} bytes"


def _open_mesh_file(path: str | Path, resolved: bool = False) -> int:
    """A descriptor of the regular file at ``path`` (the caller closes it; ``resolved``: a
    real path checked by the caller, opened with no link followed). Raises
    :class:`MeshFileError` with :func:`~urdf_sdf.core.read.files.os_reason`'s words for
    anything else ("not a regular file (a FIFO)") or when it cannot be opened."""
    try:
        return open_regular(path, resolved=resolved)
    except OSError as exc:
        raise MeshFileError(os_reason(exc)) from exc


def read_capped(path: str | Path, limit: int, resolved: bool = False) -> bytes:
    """The whole content of the regular file at ``path``, when it holds at most ``limit``
    bytes (``resolved``: see :func:`_open_mesh_file`). Raises :class:`MeshFileTooLarge`
    (before reading) or :class:`MeshFileError`."""
    fd = _open_mesh_file(path, resolved)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise MeshFileTooLarge(size, limit)
        data = read_upto(fd, limit + 1, size)
    except OSError as exc:
        raise MeshFileError(os_reason(exc)) from exc
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew since: judged by what it holds now
        raise MeshFileTooLarge(len(data), limit)
    return data


def file_digest(path: str | Path, limit: int, sample: int,
                resolved: bool = False) -> tuple[str, bool]:
    """``(digest, sampled)`` of the regular file at ``path``: ``sha256:HEX`` of its bytes
    when it holds at most ``limit`` of them, else ``sampled-sha256:SIZE:HEX`` of its size
    and :data:`SAMPLES` samples of ``sample`` bytes, and ``sampled`` True. Raises
    :class:`MeshFileError` (``resolved``: see :func:`_open_mesh_file`)."""
    fd = _open_mesh_file(path, resolved)
    try:
        size = os.fstat(fd).st_size
        if size <= limit:
            digest = hashlib.sha256()
            read = 0
            while read <= limit:
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    break
                digest.update(chunk)
                read += len(chunk)
            if read <= limit:
                return "sha256:" + digest.hexdigest(), False
            size = os.fstat(fd).st_size  # it grew past the cap since: sampled after all
        return f"sampled-sha256:{size}:" + _sampled(fd, size, sample), True
    except OSError as exc:
        raise MeshFileError(os_reason(exc)) from exc
    finally:
        os.close(fd)


def _sampled(fd: int, size: int, sample: int) -> str:
    """The sha256 of ``size`` and the samples of ``sample`` bytes at the start, the middle
    and the end of a file of ``size`` bytes."""
    digest = hashlib.sha256(str(size).encode("ascii"))
    for offset in sample_offsets(size, sample):
        os.lseek(fd, offset, os.SEEK_SET)
        digest.update(read_upto(fd, sample))
    return digest.hexdigest()


def sample_offsets(size: int, sample: int) -> list[int]:
    """Where the :data:`SAMPLES` samples of a file of ``size`` bytes start."""
    last = max(0, size - sample)
    return [last * i // (SAMPLES - 1) for i in range(SAMPLES)]
