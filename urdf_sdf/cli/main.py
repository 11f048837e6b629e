"""The umbrella ``urdf-sdf`` command: ``frames``, ``check``, ``diff``, ``roundtrip``,
``print``, ``graph``, ``view``, ``expand``.

Each subcommand's options are declared once, in its module, with its body (the table is
:data:`urdf_sdf.cli.quick.COMMANDS`). Exit codes: 0 success (warnings allowed), 1 invalid
input, 2 usage error. A FILE argument may be ``-`` (standard input) or a ``*.xacro`` file
(with ``--xacro`` only: expanded in a restricted sandbox with the optional ``xacro``
package, see :mod:`urdf_sdf.cli.xacro_expand`); diagnostics are rendered by
:mod:`urdf_sdf.cli.render` (``file:line[:col]: severity[CODE]: message`` and the source
line under it).

The console script is :func:`urdf_sdf.cli.quick.urdf_sdf` (also ``python -m
urdf_sdf.cli.main``). The typer apps, for typer's test runner, are built when they are
asked for: ``app`` (``urdf-sdf``, every subcommand), ``urdf2sdf_app`` and ``sdf2urdf_app``.
"""
from __future__ import annotations

from urdf_sdf.cli.quick import URDF_SDF, app_of, urdf_sdf

APPS = {"app": URDF_SDF.prog, "urdf2sdf_app": "urdf2sdf", "sdf2urdf_app": "sdf2urdf"}


def __getattr__(name: str):
    """The typer apps of :data:`APPS`, built (and typer imported) when asked for."""
    if name in APPS:
        return app_of(APPS[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    urdf_sdf()
