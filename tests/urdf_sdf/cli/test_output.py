"""Issue 12, output safety: ``-o`` onto a device or FIFO is written as it is, a directory is
a usage error, a regular file is replaced atomically through a temporary file that a
signal or a later run removes; a stdout that cannot be written is FILE_WRITE and exit 1,
a closed pipe a quiet exit (141, as for a Unix tool killed by SIGPIPE)."""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support import TIMEOUT
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.output import BROKEN_PIPE_STATUS, write_output
from urdf_sdf.core.write.destination import OutputError, check_destination

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "samples" / "arm6.urdf"
SAMPLE_SDF = ROOT / "samples" / "arm6.sdf"
runner = CliRunner()
unix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and signals")


def command(*args) -> list[str]:
    return [sys.executable, "-m", "urdf_sdf.cli", *[str(a) for a in args]]


def chain(path: Path, links: int = 3000) -> Path:
    """A URDF whose outputs are far larger than a pipe's buffer."""
    parts = ['<robot name="chain">'] + [f'<link name="l{i}"/>' for i in range(links)]
    parts += [f'<joint name="j{i}" type="fixed"><parent link="l{i}"/><child link="l{i + 1}"/>'
              '<origin xyz="0 0 0.1"/></joint>' for i in range(links - 1)]
    path.write_text("\n".join(parts + ["</robot>"]))
    return path


# ---- destinations ------------------------------------------------------------------------

def test_a_character_device_is_written_not_replaced(tmp_path):
    """Through a symlink to /dev/null: were it replaced, only the link would be."""
    link = tmp_path / "null.sdf"
    link.symlink_to(os.devnull)
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null.sdf"]


@unix_only
def test_a_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "out.sdf"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_output(b"<sdf/>\n", str(fifo))
    reader.join(TIMEOUT)
    assert received == [b"<sdf/>\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_directory_is_a_usage_error(tmp_path):
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", str(tmp_path)])
    assert result.exit_code == 2
    assert "is a directory" in result.stderr
    with pytest.raises(OutputError):
        check_destination(tmp_path)


def test_dash_is_stdout():
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", "-"])
    assert result.exit_code == 0 and result.stdout.startswith("<?xml")


def test_a_regular_file_is_replaced_keeping_its_mode(tmp_path):
    target = tmp_path / "out.sdf"
    target.write_text("old")
    target.chmod(0o640)
    result = runner.invoke(urdf2sdf, [str(SAMPLE), "-o", str(target)])
    assert result.exit_code == 0
    assert target.read_text().startswith("<?xml") and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.sdf"]


# ---- temporary files ---------------------------------------------------------------------

def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_stale_temporaries_of_dead_processes_are_removed(tmp_path):
    target = tmp_path / "out.sdf"
    stale = tmp_path / f".out.sdf.urdf-sdf-{dead_pid()}-0badf00d.tmp"
    alive = tmp_path / f".out.sdf.urdf-sdf-{os.getppid()}-0badf00d.tmp"
    other = tmp_path / f".other.sdf.urdf-sdf-{dead_pid()}-0badf00d.tmp"
    for path in (stale, alive, other):
        path.write_text("partial")
    write_output(b"<sdf/>\n", str(target))
    assert target.read_bytes() == b"<sdf/>\n"
    assert not stale.exists() and alive.exists() and other.exists()


WRITER = """
import sys, time
from pathlib import Path
from urdf_sdf.cli.output import temporary_beside
with temporary_beside(Path(sys.argv[1])) as tmp:
    print(tmp, flush=True)
    sys.stdin.read()  # until the test signals us
"""


@unix_only
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_removes_the_temporary_file(tmp_path, signum):
    # The writer starts with the signal's default action, as in a terminal: a run in the
    # background of a non-interactive shell inherits SIGINT ignored, and an ignored signal
    # is left ignored by design (nohup's SIGHUP).
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path / "out.sdf")],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signum, signal.SIG_DFL))
    tmp = Path(process.stdout.readline().strip())
    assert tmp.exists() and tmp.name.startswith(".out.sdf.urdf-sdf-")
    process.send_signal(signum)
    assert process.wait(TIMEOUT) == -signum  # the signal's own default action: killed by it
    process.stdin.close()
    process.stdout.close()
    assert list(tmp_path.iterdir()) == []


@unix_only
def test_the_signal_handlers_are_in_place_before_the_temporary_file_is_made(tmp_path,
                                                                          monkeypatch):
    """A worker process of a batch runs SIGINT and SIGTERM with their default action: a
    signal between making the file and installing the handlers would leave the file."""
    handlers_when_made = []
    real_open = os.open

    def spying_open(path, flags, *args, **kwargs):
        if str(path).endswith(".tmp"):
            handlers_when_made.append((signal.getsignal(signal.SIGTERM),
                                       signal.getsignal(signal.SIGINT)))
        return real_open(path, flags, *args, **kwargs)
    previous = (signal.signal(signal.SIGTERM, signal.SIG_DFL),
                signal.signal(signal.SIGINT, signal.SIG_DFL))
    monkeypatch.setattr(os, "open", spying_open)
    try:
        write_output(b"<sdf/>\n", str(tmp_path / "out.sdf"))
    finally:
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
    [(on_term, on_int)] = handlers_when_made
    assert callable(on_term) and callable(on_int)  # ours, not SIG_DFL
    assert (tmp_path / "out.sdf").read_bytes() == b"<sdf/>\n"


# ---- standard output ---------------------------------------------------------------------

FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("urdf-sdf", "check", SAMPLE),
                                  ("urdf-sdf", "frames", "--json", SAMPLE),
                                  ("urdf-sdf", "frames", SAMPLE),
                                  ("urdf-sdf", "print", SAMPLE_SDF),
                                  ("urdf-sdf", "graph", SAMPLE),
                                  ("urdf-sdf", "diff", SAMPLE, SAMPLE),
                                  ("urdf2sdf", SAMPLE), ("urdf2sdf", "--json", SAMPLE),
                                  ("sdf2urdf", SAMPLE_SDF)])
def test_stdout_on_dev_full_is_file_write_and_exit_1(args):
    with open(FULL, "wb") as full:
        done = subprocess.run(command(*args), stdout=full, stderr=subprocess.PIPE,
                              timeout=TIMEOUT, cwd=ROOT)
    assert done.returncode == 1
    assert b"error[FILE_WRITE]: cannot write standard output" in done.stderr
    assert b"Traceback" not in done.stderr and b"Exception ignored" not in done.stderr


@unix_only
@pytest.mark.parametrize("args", [("urdf-sdf", "frames", "BIG"), ("urdf-sdf", "frames", "--json",
                                                                  "BIG"),
                                  ("urdf-sdf", "print", "BIG"), ("urdf-sdf", "graph", "BIG"),
                                  ("urdf2sdf", "BIG"), ("urdf2sdf", "--json", "BIG")])
def test_a_closed_pipe_ends_quietly(args, tmp_path):
    big = chain(tmp_path / "chain.urdf")
    process = subprocess.Popen(command(*[big if a == "BIG" else a for a in args]),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    process.stdout.read(10)
    process.stdout.close()  # like `| head -c 10`
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait(TIMEOUT) in (0, BROKEN_PIPE_STATUS)
    assert stderr == b""
