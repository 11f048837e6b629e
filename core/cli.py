"""The umbrella ``urdf-sdf`` command: ``frames`` and ``check``.

Each command is a plain function, importable and testable with typer's runner.
Exit codes: 0 success (warnings allowed), 1 invalid input, 2 usage error.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from core.context import Context
from core.loader import load
from core.report import frames_report

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Inspect and check robot descriptions (SDFormat and URDF).")

PathOption = typer.Option(None, "--path", "-p",
                          help="Extra directory to search for model:// includes (repeatable).")


def _load(file: Path, paths: Optional[List[Path]]):
    context = Context.from_environment([str(p) for p in paths or []])
    return load(file, context)


def _print_diagnostics(result, stream) -> None:
    for diagnostic in result.diagnostics:
        print(diagnostic.format(), file=stream)


@app.command()
def frames(file: Path = typer.Argument(..., help="SDFormat or URDF file"),
           as_json: bool = typer.Option(False, "--json", help="Print JSON for machines."),
           path: Optional[List[Path]] = PathOption) -> None:
    """Print the pose of every link, joint, frame and nested model relative to the root."""
    result = _load(file, path)
    report = frames_report(result)
    if as_json:
        print(json.dumps(report))
    else:
        _print_diagnostics(result, sys.stderr)
        print(format_table(report))
    raise typer.Exit(0 if result.ok else 1)


def format_table(report: dict) -> str:
    rows = [("kind", "name", "x", "y", "z", "qw", "qx", "qy", "qz")]
    for section in ("models", "links", "joints", "frames"):
        for name, pose in report[section].items():
            rows.append((section[:-1], name, *(f"{v:.6g}" for v in pose)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                     for row in rows)


@app.command()
def check(file: Path = typer.Argument(..., help="SDFormat or URDF file"),
          path: Optional[List[Path]] = PathOption) -> None:
    """Validate a file; print diagnostics as file:line: error[CODE]: message."""
    result = _load(file, path)
    _print_diagnostics(result, sys.stdout)
    if result.ok:
        print(f"{file}: valid")
    raise typer.Exit(0 if result.ok else 1)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
