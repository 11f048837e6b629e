"""FILE arguments of the command lines: ``-`` (standard input, read as bytes and loaded
as ``<stdin>``) or a ``*.xacro`` file. See :func:`load_input`.

A ``*.xacro`` file is expanded only when the user asks for it (``--xacro``, carried as
:class:`~urdf_sdf.cli.xacro_expand.XacroOptions`); otherwise it is
``XACRO_NOT_EXPANDED``. The expansion needs the optional ``xacro`` package (the ``[xacro]``
extra) and runs in a restricted child process
(:mod:`urdf_sdf.cli.xacro_expand`, :mod:`urdf_sdf.cli.xacro_sandbox`): no route
to modules, the environment (unless ``--xacro-env``) or files outside the input's package
(unless ``--xacro-path``). A top-level file with a DTD (external id or internal subset) is
refused (XML_UNSAFE) before xacro sees it, as the core refuses any such file.
"""
from __future__ import annotations

import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from urdf_sdf.cli.render import SourceLines
from urdf_sdf.cli.xacro_expand import XacroOptions, xacro_installed
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.lazy import Later
from urdf_sdf.core.loader import LoadResult, load, load_string
from urdf_sdf.core.read.xmlio import MAX_BYTES, read_bytes, refuse_unsafe_doctype

STDIN = "-"
STDIN_LABEL = "<stdin>"
XACRO_SUFFIX = ".xacro"
_SANDBOX = Later({"expand_in_sandbox": ("urdf_sdf.cli.xacro_run", "expand_in_sandbox")})


def is_stdin(path: str | Path | None) -> bool:
    return path is not None and str(path) == STDIN


def label(path: str | Path) -> str:
    """The name diagnostics and messages use for an input argument."""
    return STDIN_LABEL if is_stdin(path) else str(path)


def is_xacro(path: str | Path) -> bool:
    return not is_stdin(path) and str(path).endswith(XACRO_SUFFIX)


def read_stdin(diagnostics: Diagnostics) -> bytes | None:
    stream = getattr(sys.stdin, "buffer", None)
    try:
        if stream is not None:
            data = stream.read(MAX_BYTES + 1)
        else:  # a text stream without a buffer (an embedding application)
            data = sys.stdin.read(MAX_BYTES + 1).encode("utf-8")
    except (OSError, ValueError) as exc:
        diagnostics.error(Code.FILE_READ, f"cannot read standard input: {exc}", STDIN_LABEL)
        return None
    if len(data) > MAX_BYTES:
        diagnostics.error(Code.FILE_READ, f"standard input is larger than {MAX_BYTES} bytes",
                          STDIN_LABEL)
        return None
    return data


def xacro_mapping(value: str) -> tuple[str, str] | None:
    """``(name, value)`` of one ``--xacro-arg name:=value``, None when it is not one."""
    name, sep, text = value.partition(":=")
    if not sep or not name.strip():
        return None
    return name.strip(), text


def xacro_mappings(values: Sequence[str] | None) -> dict[str, str] | None:
    """The xacro mappings of ``--xacro-arg`` values, None when one is not name:=value
    (:func:`urdf_sdf.cli.options.xacro_choice` makes that a usage error)."""
    mappings: dict[str, str] = {}
    for value in values or []:
        mapping = xacro_mapping(value)
        if mapping is None:
            return None
        mappings[mapping[0]] = mapping[1]
    return mappings


def xacro_available() -> bool:
    """Whether the optional xacro package is installed."""
    return xacro_installed()


def refuse_unexpanded(path: Path, diagnostics: Diagnostics) -> None:
    """A ``*.xacro`` input the user did not ask to expand: XACRO_NOT_EXPANDED."""
    diagnostics.error(Code.XACRO_NOT_EXPANDED,
                      "a xacro file is expanded only when asked: pass --xacro to expand it "
                      "(in a restricted sandbox; --xacro-arg NAME:=VALUE sets its arguments)",
                      str(path))


def load_input(path: Path, context: Context, sources: SourceLines,
               xacro: XacroOptions | None = None, pipes: bool = True) -> LoadResult:
    """Load a FILE argument: ``-`` from standard input (named ``<stdin>``), ``*.xacro``
    expanded first when ``xacro.expand`` (named after the .xacro file; without it,
    XACRO_NOT_EXPANDED), anything else from disk. Never raises on bad input. ``pipes``:
    the user named ``path``, so a pipe (``<(cat robot.urdf)``, a FIFO) is read as ``cat``
    would read it; a batch's files (``pipes=False``) and every included file are read only
    when they are regular files."""
    sources.confine(None if is_stdin(path) else str(path), context)
    if is_stdin(path):
        diagnostics = Diagnostics()
        data = read_stdin(diagnostics)
        if data is None:
            return LoadResult(None, None, diagnostics)
        sources.add(STDIN_LABEL, data)
        return _remembered(load_string(data, file=STDIN_LABEL, context=context), sources)
    if is_xacro(path):
        sources.trust(str(path))  # the user's own file, shown even where malformed
        diagnostics = Diagnostics()
        raw = read_bytes(path, diagnostics, within=context.inputs_within)  # as for any file
        data = None
        if raw is not None and (xacro is None or not xacro.expand):
            refuse_unexpanded(path, diagnostics)
        elif raw is not None and xacro is not None:
            data = expanded(Path(path), raw, xacro, diagnostics, sources.read)
        if data is None:
            return LoadResult(None, None, diagnostics)
        sources.add(str(path), data, expanded=True)
        return _remembered(load_string(data, file=str(path), context=context), sources)
    sources.trust(str(path))
    if pipes and is_pipe(path):
        return load_pipe(path, context, sources)
    return _remembered(load(path, context), sources)


def _remembered(result: LoadResult, sources: SourceLines) -> LoadResult:
    """``result``, the files it was read from and those it references remembered in
    ``sources`` (an output naming one of them is refused: OUTPUT_IS_INPUT)."""
    sources.remember(result)
    return result


def expanded(path: Path, raw: bytes, xacro: XacroOptions, diagnostics: Diagnostics,
             read: set[str] | None = None) -> bytes | None:
    """The URDF the xacro file ``path`` (whose bytes are ``raw``) expands to in the sandbox,
    or None with the reason in ``diagnostics`` (a DTD is refused first, as in any XML
    input: xacro's parser would expand its entities or read it). ``read``, when given,
    receives the files the expansion read (its includes: never an output)."""
    if refuse_unsafe_doctype(raw, str(path), diagnostics):
        return None
    return _SANDBOX.expand_in_sandbox(path, xacro, diagnostics, read=read)


def is_pipe(path: str | Path) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # the read says why it cannot be read


def load_pipe(path: Path, context: Context, sources: SourceLines) -> LoadResult:
    """Load a pipe the user named (read once: its bytes are kept for the snippets)."""
    diagnostics = Diagnostics()
    data = read_bytes(path, diagnostics, pipes=True)
    if data is None:
        return LoadResult(None, None, diagnostics)
    sources.add(str(path), data)
    return _remembered(load_string(data, file=str(path), context=context), sources)
