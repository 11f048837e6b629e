"""Running the xacro sandbox (:mod:`urdf_sdf.cli.xacro_sandbox`) for one input and
reading its answer; the rules are :mod:`urdf_sdf.cli.xacro_expand`'s. Imported only
when a file is expanded (a plain conversion does not start, nor import, any of this)."""
from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from urdf_sdf.cli.xacro_expand import XACRO_HINT, XacroOptions, xacro_installed
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.read.files import os_reason
from urdf_sdf.core.read.xmlio import MAX_BYTES

SANDBOX = "urdf_sdf.cli.xacro_sandbox"
WALL_SECONDS = 120.0
# Codes the child may answer with; anything else it says is XACRO_ERROR.
ANSWER_CODES = {Code.XACRO_UNSAFE, Code.XACRO_ERROR, Code.XACRO_UNAVAILABLE, Code.XML_UNSAFE}


def expand_in_sandbox(path: Path, options: XacroOptions, diagnostics: Diagnostics,
                      timeout: float = WALL_SECONDS, read: set[str] | None = None
                      ) -> bytes | None:
    """The expansion of ``path`` (UTF-8), or None with its diagnostic. ``read``, when
    given, receives the files the expansion read (an output never replaces one)."""
    file = str(path)
    if not xacro_installed():
        diagnostics.error(Code.XACRO_UNAVAILABLE,
                          "cannot expand a xacro file: the 'xacro' Python package is not "
                          f"installed; {XACRO_HINT}, or expand it with the xacro command and "
                          "pipe the result in as '-'", file)
        return None
    absolute = os.path.abspath(file)
    request = {"input": absolute, "args": dict(options.args),
               "paths": [os.path.abspath(p) for p in options.paths],
               "packages": {name: os.path.abspath(folder)
                            for name, folder in options.packages.items()},
               "environment": dict(os.environ) if options.environment else None,
               "max_bytes": MAX_BYTES}
    answer, problem = _run_child(json.dumps(request).encode("utf-8"),
                                 os.path.dirname(absolute), timeout)
    if answer is None:
        diagnostics.error(Code.XACRO_ERROR, f"xacro: {problem}", file)
        return None
    if isinstance(answer.get("document"), str):
        if read is not None and isinstance(answer.get("read"), list):
            read.update(name for name in answer["read"] if isinstance(name, str))
        return answer["document"].encode("utf-8")
    _report(answer.get("error"), file, absolute, diagnostics)
    return None


def _report(error, file: str, absolute: str, diagnostics: Diagnostics) -> None:
    """The child's error as a diagnostic (the input named as the user named it)."""
    if not isinstance(error, dict):
        diagnostics.error(Code.XACRO_ERROR, "xacro: the expansion gave no answer", file)
        return
    code = next((c for c in ANSWER_CODES if c.value == error.get("code")), Code.XACRO_ERROR)
    where = error.get("file") if isinstance(error.get("file"), str) else None
    where = file if where in (None, absolute) else where
    line, column = error.get("line"), error.get("column")
    diagnostics.error(code, str(error.get("message") or "xacro: the expansion failed"),
                      where, line if isinstance(line, int) else None,
                      column if isinstance(column, int) else None)


def _child_command() -> list[str]:
    return [sys.executable, "-I", "-B", "-m", SANDBOX]


def _run_child(request: bytes, directory: str, timeout: float) -> tuple[dict | None, str]:
    """Run the sandbox with ``request``; ``(answer, "")`` or ``(None, why not)``."""
    try:
        child = subprocess.Popen(_child_command(), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=directory or None, env={}, close_fds=True,
                                 start_new_session=True)
    except OSError as exc:
        return None, f"cannot start the expansion process: {os_reason(exc)}"
    try:
        output, errors, finished = _exchange(child, request, timeout)
    finally:
        _end(child)
    if not finished:
        return None, f"the expansion took longer than {timeout:g} s (stopped)"
    try:
        answer = json.loads(output)
    except ValueError:
        last = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        status = child.returncode
        why = f"killed by signal {-status}" if status and status < 0 else f"exit {status}"
        return None, ("the expansion process failed (" + why +
                      (f": {last[0][:300]}" if last[0] else "") +
                      "); it may have run out of its CPU or memory limit")
    return (answer, "") if isinstance(answer, dict) else (None, "the expansion gave no answer")


def _exchange(child: subprocess.Popen, request: bytes,
              timeout: float) -> tuple[bytes, bytes, bool]:
    """Write ``request``, read stdout (up to the answer's bound) and stderr (its tail)
    until both close or ``timeout`` passes; ``(stdout, stderr, finished)``."""
    limit = MAX_BYTES * 7 + 4096  # JSON escapes a byte in at most 6 (\\u00XX)
    deadline = time.monotonic() + timeout
    output, errors = bytearray(), bytearray()
    pending = memoryview(request)
    assert child.stdin and child.stdout and child.stderr
    with selectors.DefaultSelector() as selector:
        selector.register(child.stdin, selectors.EVENT_WRITE)
        selector.register(child.stdout, selectors.EVENT_READ, output)
        selector.register(child.stderr, selectors.EVENT_READ, errors)
        while len(selector.get_map()) > 0:
            left = deadline - time.monotonic()
            if left <= 0:
                return bytes(output), bytes(errors), False
            for key, _ in selector.select(left):
                if key.fileobj is child.stdin:
                    pending = _write_some(child.stdin, pending)
                    if not pending:
                        selector.unregister(child.stdin)
                        child.stdin.close()
                    continue
                chunk = os.read(key.fd, 1 << 20)
                if not chunk:
                    selector.unregister(key.fileobj)
                    continue
                key.data.extend(chunk)
                if len(output) > limit:
                    return bytes(output), bytes(errors), False
                del errors[:-4096]
    remaining = max(0.0, deadline - time.monotonic())
    try:
        child.wait(remaining)
    except subprocess.TimeoutExpired:
        return bytes(output), bytes(errors), False
    return bytes(output), bytes(errors), True


def _write_some(stream, pending: memoryview) -> memoryview:
    try:
        written = os.write(stream.fileno(), pending[:65536])
    except BrokenPipeError:
        return pending[:0]
    return pending[written:]


def _end(child: subprocess.Popen) -> None:
    """Kill the child's session (if it is still there) and reap the child."""
    if child.poll() is None:
        try:
            if hasattr(os, "killpg"):
                os.killpg(child.pid, signal.SIGKILL)  # its session: anything it started
            else:
                child.kill()
        except (ProcessLookupError, PermissionError):
            pass
    for stream in (child.stdin, child.stdout, child.stderr):
        if stream is not None and not stream.closed:
            stream.close()
    child.wait()
