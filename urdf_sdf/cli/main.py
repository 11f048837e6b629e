"""The umbrella ``urdf-sdf`` command: ``frames``, ``check``, ``diff``, ``roundtrip``,
``print``, ``graph``, ``view``.

Each subcommand's options are declared once, in its module, with its body (the table is
:data:`urdf_sdf.cli.quick.COMMANDS`). Exit codes: 0 success (warnings allowed), 1 invalid
input, 2 usage error. A FILE argument may be ``-`` (standard input) or a ``*.xacro`` file
(with ``--xacro`` only: expanded in a restricted sandbox with the optional ``xacro``
package, see :mod:`urdf_sdf.cli.xacro_expand`); diagnostics are rendered by
:mod:`urdf_sdf.cli.render` (``file:line[:col]: severity[CODE]: message`` and the source
line under it).

The console script is :func:`urdf_sdf.cli.quick.urdf_sdf` (also ``python -m
urdf_sdf.cli.main``); ``app``, the typer app of every subcommand (for typer's test runner),
is built when it is asked for.
"""
from __future__ import annotations

from urdf_sdf.cli.quick import URDF_SDF, app_of, urdf_sdf
from urdf_sdf.cli.typer_app import app_attribute

__getattr__ = app_attribute(__name__, lambda: app_of(URDF_SDF.prog))


if __name__ == "__main__":
    urdf_sdf()
