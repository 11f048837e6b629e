"""Expanding a ``*.xacro`` input, when the user asks for it (``--xacro``), in a child
process that can do no harm.

A xacro file is a program: its expressions and substitutions are evaluated, its includes
read. A file from a pull request must not run commands in a CI job, read its secrets or
its files, so expansion is never implied by a file's name (a ``*.xacro`` FILE without
``--xacro`` is ``XACRO_NOT_EXPANDED``; a batch skips ``*.urdf.xacro`` files), and when it
is asked for it runs in :mod:`urdf_sdf.cli.xacro_sandbox`, a child process started
as ``python -I -B -m urdf_sdf.cli.xacro_sandbox`` with:

* an empty environment (the parent's is handed over, as data, only with ``--xacro-env``),
  standard input closed once the request is read, the input's directory as working
  directory, its own session (killed whole at the end of the wall-clock limit);
* limits it sets before reading anything: :data:`~urdf_sdf.cli.xacro_sandbox.CPU_SECONDS`
  of CPU, 2 GiB of address space, no file written, no process started;
* expressions evaluated by our own restricted evaluator, files read only inside the
  input's package (see the sandbox and :mod:`urdf_sdf.cli.xacro_files`).

The answer (the expanded document, or an error with its code, file and line) comes back
as JSON on the child's standard output, read up to a bound; the child's death, a
timeout or an answer that is not one is ``XACRO_ERROR``
(:mod:`urdf_sdf.cli.xacro_run` starts the child and reads its answer). This module
holds what the command lines need without starting anything: :class:`XacroOptions`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path

# The install hints name the extra's packages (pyproject.toml's [xacro] and [view], checked
# by tests/test_journeys.py): urdf-sdf is installed from its clone, so
# `pip install 'urdf-sdf[xacro]'` would ask a package index that has no urdf-sdf.
XACRO_HINT = "pip install xacro (urdf-sdf's [xacro] extra; in its clone: pip install '.[xacro]')"


@dataclass(frozen=True)
class XacroOptions:
    """What the user allowed a xacro input: ``expand`` (``--xacro``; without it nothing
    is expanded), ``args`` (``--xacro-arg NAME:=VALUE``), ``environment`` (``--xacro-env``:
    ``$(env)``, ``$(optenv)`` and ROS package paths read the environment) and ``paths``
    (``--xacro-path``, ``--package-path``: directories it may read and ``$(find)``
    searches), ``packages`` (``--package NAME=DIR``: ``$(find NAME)`` is DIR, readable)."""
    expand: bool = False
    args: Mapping[str, str] = field(default_factory=dict)
    environment: bool = False
    paths: tuple[str, ...] = ()
    packages: Mapping[str, str] = field(default_factory=dict)


def xacro_installed() -> bool:
    """Whether the xacro package can be imported (without importing it)."""
    try:
        return find_spec("xacro") is not None
    except (ImportError, ValueError):
        return False


def xacro_options(expand: bool, args: Mapping[str, str] | None, environment: bool,
                  paths: Sequence[str | Path] | None,
                  package_paths: Sequence[str | Path] | None = None,
                  packages: Mapping[str, str] | None = None) -> XacroOptions:
    """The options of a command line, as :class:`XacroOptions`."""
    return XacroOptions(bool(expand), dict(args or {}), bool(environment),
                        tuple(str(p) for p in (*(paths or ()), *(package_paths or ()))),
                        dict(packages or {}))
