"""``urdf-sdf roundtrip FILE...``: does each file survive conversion to the other format and
back with an empty diff? (The ``urdf-sdf-roundtrip`` pre-commit hook.)

A URDF goes through ``urdf2sdf | sdf2urdf``, an SDF through ``sdf2urdf | urdf2sdf``; each
result is compared with the original as ``urdf-sdf diff`` compares. Prints one line per
file that survives and, for one that does not, the failed step's errors or the
differences (the causes, each followed by the differences that follow from it); exits 0
when every file survives, 1 when one changes in the round trip or a converter refuses it,
and otherwise 3 when a file does not load at all (as ``urdf-sdf diff``). A crash of ours on one file
(:func:`urdf_sdf.cli.crash.internal_error`) fails that file and the others are still checked:
the total is always printed. Its options are declared here (:data:`COMMAND`).
"""
from __future__ import annotations

import sys
from pathlib import Path

from urdf_sdf.cli.crash import debugging, internal_error
from urdf_sdf.cli.declare import Argument, Command, Option
from urdf_sdf.cli.inputs import load_input
from urdf_sdf.cli.options import PACKAGES, PATH, STRICT, XACRO, inspection_inputs
from urdf_sdf.cli.output import stdout_checked_code
from urdf_sdf.cli.render import SourceLines, emit
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.context import Context
from urdf_sdf.round_trip_check import RoundTrip, round_trip

NOT_LOADED_EXIT = 3  # a file that does not load (urdf-sdf diff's "cannot be compared")


def roundtrip_files(files: list[Path], context: Context, quiet: bool = False,
                    xacro: XacroOptions | None = None) -> int:
    """Round-trip each file (a ``.xacro`` one expanded as ``xacro`` allows); the exit code:
    0 all survive, 1 one changed in the round trip or a converter refused it, else 3 when
    a file does not load at all."""
    failed = 0
    unloaded = 0
    for file in files:
        trip = checked_round_trip(file, context, xacro)
        if trip.ok:
            if not quiet:
                print(trip.report())
            continue
        failed += 1
        unloaded += not trip.loaded
        if trip.errors:
            print(trip.report().splitlines()[0])
            emit(trip.errors, sys.stdout, confined_to(file, context))
        else:
            print(trip.report())
    if len(files) > 1:
        print(f"{len(files) - failed} of {len(files)} files survive the round trip")
    return 0 if not failed else 1 if failed > unloaded else NOT_LOADED_EXIT


def confined_to(file: Path, context: Context) -> SourceLines:
    """The lines shown under the errors of ``file``'s round trip: of the files it may
    read (:meth:`~urdf_sdf.cli.render.SourceLines.confine`)."""
    sources = SourceLines()
    sources.confine(str(file), context)
    return sources


def checked_round_trip(file: Path, context: Context,
                       xacro: XacroOptions | None = None) -> RoundTrip:
    """:func:`round_trip` of one file (expanded first when ``xacro.expand``); a crash of
    ours fails that file with an INTERNAL_ERROR (``URDF_SDF_DEBUG=1`` lets it through), so
    the next file is still checked."""
    try:
        if xacro is not None and xacro.expand:
            return round_trip(file, context, load_input(file, context, SourceLines(), xacro))
        return round_trip(file, context)
    except Exception as exc:  # a bug of ours, reported as the file's error
        if debugging():
            raise
        return RoundTrip(str(file), failed_step="the round trip",
                         errors=[internal_error(exc, str(file))])


def run(params: dict) -> int:
    """``roundtrip``'s body, from its command line (:data:`COMMAND`)."""
    context, xacro = inspection_inputs(params)
    return stdout_checked_code(COMMAND.prog, lambda: roundtrip_files(
        params["files"], context, params["quiet"], xacro))


COMMAND = Command(
    prog="urdf-sdf", name="roundtrip", run=run,
    help="Check that each file survives conversion to the other format and back (URDF: "
         "urdf2sdf | sdf2urdf; SDF: sdf2urdf | urdf2sdf) with an empty diff; exit 1 when one "
         "does not, else 3 when a file does not load at all.",
    arguments=(Argument("files", "URDF or SDFormat files", many=True, metavar="FILE..."),),
    options=(Option(("--quiet", "-q"), "quiet", default=False,
                    help="Print only the files that do not survive."),
             STRICT, PATH, *PACKAGES, *XACRO))
