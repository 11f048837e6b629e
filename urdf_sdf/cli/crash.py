"""A crash of our own on the command line: one ``INTERNAL_ERROR`` diagnostic that asks for
a bug report, exit 1, and no traceback (``URDF_SDF_DEBUG=1`` shows it).

Bad input is never a crash: readers and converters report it as coded diagnostics. An
exception that escapes them is a bug in this project, and the user should be told so
rather than handed a Python traceback (which may also quote file content). Nor is a
standard stream that was closed when the command started (``>&-``): its use is FILE_READ or
FILE_WRITE (:mod:`urdf_sdf.cli.streams`, which :func:`urdf_sdf.cli.quick.run` sets up
first, with the rest of the process: :mod:`urdf_sdf.cli.process`).
"""
from __future__ import annotations

import contextlib
import os
import sys

from urdf_sdf.cli.streams import ClosedStreamError
from urdf_sdf.core.base.diagnostics import Code, Diagnostic, Severity

DEBUG_VARIABLE = "URDF_SDF_DEBUG"
MAX_DETAIL = 200  # characters of the exception's own message shown


def debugging() -> bool:
    """``URDF_SDF_DEBUG=1``: let our exceptions through, traceback and all."""
    return os.environ.get(DEBUG_VARIABLE, "").strip() not in ("", "0")


def internal_error(exc: BaseException, file: str | None = None) -> Diagnostic:
    """The diagnostic for exception ``exc`` escaping our code while handling ``file``."""
    detail = " ".join(str(exc).split())
    if len(detail) > MAX_DETAIL:
        detail = detail[:MAX_DETAIL] + "..."
    return Diagnostic(Code.INTERNAL_ERROR, Severity.ERROR,
                      f"internal error ({type(exc).__name__}{': ' + detail if detail else ''}); "
                      "this is a bug in urdf-sdf, not a problem of the input: please report it "
                      f"with the input file ({DEBUG_VARIABLE}=1 shows the traceback)", file)


@contextlib.contextmanager
def crashes_reported(prog: str):
    """Turn an exception of ours into ``PROG: error[INTERNAL_ERROR]: ...`` and exit 1; a
    standard stream closed when the command started (:mod:`~urdf_sdf.cli.streams`)
    that a command used all the same is not ours: FILE_READ or FILE_WRITE, exit 1."""
    try:
        yield
    except ClosedStreamError as exc:
        print(closed_stream(exc, prog).format(), file=sys.stderr)
        sys.exit(1)
    except Exception as exc:  # SystemExit and KeyboardInterrupt are not crashes
        if debugging():
            raise
        print(internal_error(exc, prog).format(), file=sys.stderr)
        sys.exit(1)


def closed_stream(exc: ClosedStreamError, prog: str) -> Diagnostic:
    """The diagnostic of a use of a closed standard stream."""
    reading = exc.what == "standard input"
    return Diagnostic(Code.FILE_READ if reading else Code.FILE_WRITE, Severity.ERROR,
                      f"cannot {'read' if reading else 'write'} {exc.what}: {exc}", prog)


