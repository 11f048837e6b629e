"""``sdf2urdf``: convert an SDFormat model to URDF.

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
expressed in URDF, 2 usage error. Diagnostics go to stderr as file:line lines;
the URDF goes to stdout or, atomically, to ``-o FILE``.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from core.context import Context
from core.loader import load
from core.output import OutputError, write_output
from sdf2urdf.convert import Options, convert_sdf

app = typer.Typer(add_completion=False, help="Convert SDFormat to URDF.")


@app.command()
def main_command(
        sdf: Path = typer.Argument(..., help="SDFormat file (model or world)"),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout."),
        model: Optional[str] = typer.Option(None, "--model",
                                            help="The model to convert from a world."),
        separator: str = typer.Option("::", "--separator",
                                      help="Joins nested model names into URDF names."),
        drop_frames: bool = typer.Option(False, "--drop-frames",
                                         help="Leave //frame elements out (with a warning)."),
        approximate: bool = typer.Option(False, "--approximate",
                                         help="Map ball, universal, revolute2, screw and gearbox "
                                              "joints to revolute joints (with a warning)."),
        uri_scheme: Optional[str] = typer.Option(None, "--uri-scheme",
                                                 help="'package' rewrites model:// mesh URIs to "
                                                      "package://."),
        path: Optional[List[Path]] = typer.Option(None, "--path", "-p",
                                                  help="Extra model:// search directory."),
) -> None:
    """Convert SDFormat to URDF."""
    if uri_scheme not in (None, "package"):
        raise typer.BadParameter("--uri-scheme takes 'package'")
    result = load(sdf, Context.from_environment([str(p) for p in path or []]))
    conversion = convert_sdf(result, Options(model, separator, drop_frames, approximate,
                                             uri_scheme))
    for diagnostic in conversion.diagnostics:
        print(diagnostic.format(), file=sys.stderr)
    if not conversion.ok:
        raise typer.Exit(1)
    try:
        write_output(conversion.xml, str(output) if output else None, [str(sdf)])
    except OutputError as exc:
        print(f"sdf2urdf: {exc}", file=sys.stderr)
        raise typer.Exit(2)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
