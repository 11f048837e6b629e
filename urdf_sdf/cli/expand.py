"""``urdf-sdf expand FILE.xacro [--xacro-arg NAME:=VALUE] [-o OUT]``: print the URDF a
xacro file expands to, the very document the other commands convert and check with
``--xacro`` (same sandbox, same arguments and package folders:
:mod:`urdf_sdf.cli.xacro_expand`). Naming the command is the consent ``--xacro`` gives
elsewhere. Its options are declared here (:data:`COMMAND`); exit 0 with the document
written, 1 when the file cannot be read or expanded (its diagnostic on stderr), 2 on a
usage error.
"""
from __future__ import annotations

import sys
from pathlib import Path

from urdf_sdf.cli.declare import Argument, Command
from urdf_sdf.cli.inputs import expanded
from urdf_sdf.cli.options import PACKAGES, PRINTED_OUTPUT, XACRO, xacro_choice
from urdf_sdf.cli.output import stdout_checked_code, write_reported
from urdf_sdf.cli.render import SourceLines, emit
from urdf_sdf.cli.xacro_expand import XacroOptions
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.read.xmlio import read_bytes

PROG = "urdf-sdf"


def expand_code(file: Path, output: Path | None, xacro: XacroOptions) -> int:
    """Expand ``file`` and write the URDF to ``output`` (stdout for None); the exit code."""
    diagnostics = Diagnostics()
    raw = read_bytes(file, diagnostics)
    read: set[str] = set()  # the files the expansion read: never the output
    data = expanded(file, raw, xacro, diagnostics, read) if raw is not None else None
    if data is None:
        sources = SourceLines()
        sources.trust(str(file))  # the user's own file, shown even where malformed
        emit(diagnostics, sys.stderr, sources)
        return 1
    return write_reported(data, output, [str(file), *sorted(read)])


def run(params: dict) -> int:
    """``expand``'s body, from its command line (:data:`COMMAND`)."""
    xacro = xacro_choice({**params, "xacro": True})
    return stdout_checked_code(PROG, lambda: expand_code(params["file"], params["output"],
                                                         xacro))


# --xacro itself is implied: the other xacro options, and where packages are.
COMMAND = Command(
    prog=PROG, name="expand", run=run,
    help="Print the URDF a xacro file expands to: what --xacro converts and checks (the "
         "same sandbox, arguments and package folders).",
    arguments=(Argument("file", "xacro file"),),
    options=(PRINTED_OUTPUT,
             *XACRO[1:], *PACKAGES))
