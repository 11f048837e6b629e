"""The process of a console script: everything the command line sets process-wide, in one
place, set by the console scripts' entry alone.

A console script (``urdf2sdf``, ``sdf2urdf``, ``urdf-sdf``) owns its process: it runs one
command and exits. A program that imports ``urdf_sdf`` (a ROS node, a notebook, a test
runner) owns its own, and the library, the converters and the API change nothing of it
(``tests/urdf_sdf/cli/test_process.py`` checks both).
:func:`console_script_process`, called first by :func:`urdf_sdf.cli.quick.run` (the one
entry of every console script), sets:

* the standard streams: a descriptor closed when the command started gets ``/dev/null``,
  and standard output's failures are told apart from any other file's
  (:func:`~urdf_sdf.cli.streams.guard_standard_streams`,
  :func:`~urdf_sdf.cli.streams.check_stdout`);
* Python's cycle collector off for the whole run, and the run's objects left out of the
  interpreter's last collection at exit (:func:`short_lived_process`);
* the C heap's free pages given back to the system while a large file is read without
  its XML (glibc's ``malloc_trim``, through
  :func:`urdf_sdf.core.read.consume.give_back_free_memory_with`).

The umask is never set, here or anywhere: a written file's mode reads it
(:func:`urdf_sdf.core.write.atomic.new_file_mode`).
"""
from __future__ import annotations

import atexit
import gc
from collections.abc import Callable

from urdf_sdf.cli.streams import check_stdout, guard_standard_streams
from urdf_sdf.core.read.consume import give_back_free_memory_with


def console_script_process() -> None:
    """Set up the process of a console script (see the module); first thing, before any
    file is opened on a standard stream's descriptor."""
    guard_standard_streams()
    check_stdout()
    short_lived_process()
    give_back_free_memory_with(MallocTrim())


def short_lived_process() -> None:
    """A command runs once and exits: Python's cycle collector would only spend time
    scanning the model's objects (about a quarter of the load time at 10,000 links),
    which the process frees all at once on exit.

    Nor does it collect them at exit: the interpreter's shutdown runs one last full
    collection, which walks every object still tracked (a 10,000-link model's cyclic
    garbage: a sixth of ``urdf2sdf``'s CPU time) only to hand memory back that the
    process is about to return anyway. ``gc.freeze`` as the last exit handler (the first
    registered runs last) takes them out of that collection; every other exit handler,
    the flush of the standard streams and the exit code are as before."""
    gc.disable()
    atexit.register(gc.freeze)


class MallocTrim:
    """glibc's ``malloc_trim(0)`` as a call: gives the C heap's free pages back to the
    system. Looked up at the first call (ctypes is imported then: a small file, which the
    readers delete fewer elements of than a trim waits for, never needs it); nothing where
    the C library has no such function."""

    def __init__(self) -> None:
        self._looked_up = False
        self._trim: Callable[[int], object] | None = None

    def __call__(self) -> None:
        if not self._looked_up:
            self._trim, self._looked_up = _malloc_trim(), True
        if self._trim is not None:
            self._trim(0)


def _malloc_trim() -> Callable[[int], object] | None:
    """glibc's ``malloc_trim``, or None where there is none."""
    import ctypes  # here: see MallocTrim
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
