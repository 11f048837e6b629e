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
How a folder is opened is :mod:`urdf_sdf.core.write.folders`' (model directories and
packages are written the same way).
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from urdf_sdf.cli.output import removed_on_signal, write_output
from urdf_sdf.core.write import atomic
from urdf_sdf.core.write.destination import FILE, Input, check_destination
from urdf_sdf.core.write.folders import opened_folder


def output_folder(out_dir: Path, relative: Path, create: bool = True) -> Path:
    """``out_dir / relative``, each folder of ``relative`` a real directory (made one at a
    time with ``create``, never through a link: :func:`opened_output_folder`), so that a
    file written there stays inside ``out_dir``. Raises
    :class:`~urdf_sdf.core.write.folders.OutsideOutputTree` for a
    symbolic link or non-directory on the way, ``OSError`` when a folder cannot be made."""
    with opened_output_folder(out_dir, relative, create):
        return out_dir / relative


@contextlib.contextmanager
def opened_output_folder(out_dir: Path, relative: Path,
                         create: bool = True) -> Iterator[int | None]:
    """While inside: a descriptor of the folder ``out_dir / relative``
    (:func:`~urdf_sdf.core.write.folders.opened_folder`: each folder of ``relative``
    opened in the one before it, none through a link). ``out_dir`` itself, named by the
    user, is made with its parents and may be a link. None where the system cannot open
    relative to a folder (Windows: each folder checked with ``lstat`` instead)."""
    with opened_folder(out_dir, relative, create, root_link=True) as folder:
        yield folder


def write_output_in(data: bytes, folder: int | None, target: Path,
                    inputs: Sequence[Input]) -> None:
    """One file of a batch to ``target`` (never over its input, a file it includes or
    references: ``inputs``): atomically in the open ``folder``
    (:func:`~urdf_sdf.core.write.atomic.write_atomically_in`); a device or FIFO at that
    name, or with no ``folder``, as :func:`~urdf_sdf.cli.output.write_output` writes it."""
    if folder is None or check_destination(target, inputs) != FILE:
        write_output(data, str(target), inputs, stale_removed=True)
        return
    atomic.write_atomically_in(data, folder, target, removed_on_signal)
