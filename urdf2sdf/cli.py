"""``urdf2sdf``: convert a URDF file to SDFormat.

Exit codes: 0 converted (warnings allowed), 1 the input is invalid or cannot be
converted, 2 usage error. Warnings and errors go to stderr as file:line lines;
the SDF goes to stdout or, atomically, to ``-o FILE``.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from core.context import Context
from core.loader import load
from core.output import OutputError, write_output
from urdf2sdf.convert import Options, convert_urdf

app = typer.Typer(add_completion=False, help="Convert URDF to SDFormat.")


@app.command()
def main_command(
        urdf: Path = typer.Argument(..., help="URDF file"),
        output: Optional[Path] = typer.Option(None, "-o", "--output",
                                              help="Write here (atomically) instead of stdout."),
        relative: bool = typer.Option(False, "--relative",
                                      help="Joint poses relative_to the parent link and child "
                                           "links at their joint, xyz/rpy copied from the URDF."),
        sdf_version: Optional[str] = typer.Option(None, "--sdf-version",
                                                  help="SDFormat version to write (default: the "
                                                       "lowest that expresses the result)."),
        lump_fixed: bool = typer.Option(False, "--lump-fixed",
                                        help="Merge fixed-joint children into their parent."),
        uri_scheme: str = typer.Option("package", "--uri-scheme",
                                       help="'package' keeps package:// mesh URIs; 'model' "
                                            "rewrites them to model://."),
) -> None:
    """Convert URDF to SDFormat."""
    if uri_scheme not in ("package", "model"):
        raise typer.BadParameter("--uri-scheme is 'package' or 'model'")
    result = load(urdf, Context())
    conversion = convert_urdf(result, Options(relative, sdf_version, lump_fixed, uri_scheme))
    for diagnostic in conversion.diagnostics:
        print(diagnostic.format(), file=sys.stderr)
    if not conversion.ok:
        raise typer.Exit(1)
    try:
        write_output(conversion.xml, str(output) if output else None, [str(urdf)])
    except OutputError as exc:
        print(f"urdf2sdf: {exc}", file=sys.stderr)
        raise typer.Exit(2)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
