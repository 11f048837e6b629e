"""The xacro child starts no process, whoever runs it: ``RLIMIT_NPROC`` does not hold the
root user, so an audit hook refuses every way Python starts a process (and the modules
that start one without an audit event)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import TIMEOUT

ATTEMPTS = {
    "fork": "os.fork() or os._exit(0)",
    "forkpty": "os.forkpty()",
    "exec": "os.execv('/bin/true', ['true'])",
    "posix_spawn": "os.posix_spawn('/bin/true', ['true'], {})",
    "system": "os.system('true')",
    "subprocess": "import subprocess; subprocess.run(['true'])",
    "_posixsubprocess": "import _posixsubprocess",
    "ctypes": "import ctypes; ctypes.CDLL(None).fork()",
    "multiprocessing": "import multiprocessing; multiprocessing.Process(target=print).start()",
    "pty": "import pty; pty.fork()",
}


CHILD = """
import os, sys
from urdf_sdf.cli.xacro_sandbox import ProcessRefused, limit_resources, refuse_new_processes
limit_resources()
if sys.argv[2] == "hook":
    refuse_new_processes()
try:
    exec(sys.argv[1])
except ProcessRefused as exc:
    print("refused", exc)
    sys.exit(0)
print("started")
"""


def in_child(statement: str, hook: bool = True) -> subprocess.CompletedProcess:
    """``statement`` run as the xacro child runs an expansion: limited, the hook in place
    (unless not ``hook``); prints "refused" when the hook stopped it, "started" when the
    process was started."""
    return subprocess.run([sys.executable, "-I", "-c", CHILD, statement,
                           "hook" if hook else "no hook"], capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_nothing_in_the_child_starts_a_process(name):
    done = in_child(ATTEMPTS[name])
    assert done.stdout.startswith("refused"), (done.stdout, done.stderr)
    assert "may not start a process" in done.stdout


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="run as root")
def test_as_root_the_process_limit_alone_would_not_hold():
    """Why the hook is there: the kernel lets root fork whatever RLIMIT_NPROC says."""
    done = in_child(ATTEMPTS["fork"], hook=False)
    assert "started" in done.stdout, (done.stdout, done.stderr)
