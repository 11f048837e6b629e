"""Write a whole output directory (a Gazebo model directory, a ROS package) so that it is
never seen half-written: everything goes into a temporary sibling folder, which then takes
the target's place; an existing target is replaced only once the new one is complete.
SIGTERM, SIGINT and SIGHUP remove the temporary folder (``core.cli.output``)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from urdf_sdf.core.cli.output import OutputError, removed_on_signal


def write_directory(target: Path, files: dict[str, bytes], bundle, inputs=()) -> None:
    """``target/`` with ``files`` (relative path -> content) and ``bundle``'s copies."""
    _check_target(target, inputs)
    parent = target.parent if str(target.parent) else Path(".")
    parent.mkdir(parents=True, exist_ok=True)
    tmp = parent / f".{target.name}.urdf-sdf-{os.getpid()}-{os.urandom(4).hex()}.tmp"
    tmp.mkdir()
    try:
        with removed_on_signal(str(tmp), _remove_tree):
            for relative, data in files.items():
                (tmp / relative).parent.mkdir(parents=True, exist_ok=True)
                (tmp / relative).write_bytes(data)
            bundle.copy_into(tmp)
            _swap_into_place(tmp, target)
    finally:
        _remove_tree(str(tmp))


def _check_target(target: Path, inputs) -> None:
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target} exists and is not a directory")
    for source in inputs:
        if source not in (None, "-") and Path(source).resolve().is_relative_to(
                target.resolve()):
            raise OutputError(f"refusing to replace {target}: it holds the input {source}")


def _swap_into_place(tmp: Path, target: Path) -> None:
    if not target.exists():
        tmp.rename(target)
        return
    old = tmp.with_name(tmp.name + ".old")
    target.rename(old)
    try:
        tmp.rename(target)
    except OSError:
        old.rename(target)
        raise
    _remove_tree(str(old))


def _remove_tree(path: str) -> None:
    shutil.rmtree(path, ignore_errors=True)
