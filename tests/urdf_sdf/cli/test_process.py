"""The library leaves the process alone; the console scripts set what they need
(``urdf_sdf.cli.process``).

A program that calls ``urdf_sdf.load``, ``to_sdf``, ``to_urdf``, ``convert_urdf`` or
writes an output through the command line's functions keeps its cycle collector on
throughout, its ``sys.stdout`` object, its umask, and its C heap (no ``malloc_trim``):
checked during the call by a profile hook that runs at every Python function call, and by
recording ``os.umask`` and ``ctypes.CDLL``. No module outside the console scripts' own
(``urdf_sdf/cli/process.py``, ``streams.py``, the batch workers' ``pool.py``) so much as
names those calls (read from the source's syntax trees). A console script, in a process
of its own, does set them.
"""
from __future__ import annotations

import ast
import contextlib
import ctypes
import gc
import io
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import urdf_sdf
from urdf_sdf.cli.output import stdout_checked_code, write_output
from urdf_sdf.cli.process import MallocTrim
from urdf_sdf.cli.streams import CheckedStdout, StdoutError
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.read.consume import TRIM_EVERY, give_back_free_memory_with
from urdf_sdf.core.write import atomic
from urdf_sdf.core.write.atomic import new_file_mode

REPO = Path(__file__).resolve().parents[3]
SAMPLES = REPO / "samples"
# Links of the generated chain: its links and joints are more elements than a trim
# waits for (TRIM_EVERY), so that a reader that gave memory back would do it here.
LINKS = TRIM_EVERY // 2 + 100


def chain_urdf(links: int) -> str:
    """A plain revolute chain of ``links`` links."""
    parts = ['<robot name="chain">']
    for i in range(links):
        parts.append(f'<link name="l{i}"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
                     'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>')
        if i:
            parts.append(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                         f'<child link="l{i}"/><origin xyz="0 0 0.1" rpy="0 0.1 0"/>'
                         '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
                         'velocity="1"/></joint>')
    parts.append("</robot>")
    return "\n".join(parts)


@pytest.fixture(scope="module")
def big_urdf(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("process") / "chain.urdf"
    path.write_text(chain_urdf(LINKS))
    return path


@pytest.fixture(scope="module")
def big_sdf(big_urdf) -> Path:
    conversion = urdf_sdf.to_sdf(big_urdf)
    assert conversion.ok
    path = big_urdf.with_suffix(".sdf")
    path.write_bytes(conversion.xml)
    return path


@pytest.fixture
def host_process():
    """The process as a host program has it: the collector on, no memory return chosen,
    an unusual umask (a test that ran a console script's entry in this process may have
    changed the first two: put back afterwards)."""
    was_enabled = gc.isenabled()
    gc.enable()
    previous_give_back = give_back_free_memory_with(None)
    umask = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(umask)
        give_back_free_memory_with(previous_give_back)
        if not was_enabled:
            gc.disable()


@contextlib.contextmanager
def watched(monkeypatch):
    """While inside, record every breach of the process: at each Python function call,
    the collector off or ``sys.stdout`` another object; any call of ``os.umask``; any
    C library opened through ctypes (how ``malloc_trim`` is reached). Yields the list of
    breaches, complete once the block is left (the umask is compared then too)."""
    breaches: list[str] = []
    stdout = sys.stdout
    umask_before = read_umask()
    calls = {"calls": 0}

    def profile(frame, event, arg):
        if event != "call":
            return
        calls["calls"] += 1
        if not gc.isenabled():
            breaches.append(f"collector off in {frame.f_code.co_name}")
        if sys.stdout is not stdout:
            breaches.append(f"sys.stdout replaced in {frame.f_code.co_name}")

    def umask(mask):
        breaches.append(f"os.umask({mask:#o}) called")
        return real_umask(mask)

    def cdll(*args, **kwargs):
        breaches.append(f"ctypes.CDLL{args} opened")
        return real_cdll(*args, **kwargs)

    real_umask, real_cdll = os.umask, ctypes.CDLL
    monkeypatch.setattr(os, "umask", umask)
    monkeypatch.setattr(ctypes, "CDLL", cdll)
    sys.setprofile(profile)
    try:
        yield breaches
    finally:
        sys.setprofile(None)
        monkeypatch.setattr(os, "umask", real_umask)
        monkeypatch.setattr(ctypes, "CDLL", real_cdll)
    assert calls["calls"] > 100, "the profile hook saw the code run"
    if read_umask() != umask_before:
        breaches.append("umask changed")


def read_umask() -> int:
    """The umask, read without setting it (Linux: /proc/self/status; elsewhere the mode
    of a new file)."""
    umask = atomic.umask_from_status()
    if umask is not None:
        return umask
    return 0o666 & ~new_file_mode(Path(os.getcwd()) / "probe")


def without_xml(context: Context | None = None) -> Context:
    """A context that frees each element once read (as the commands load): the path where
    the readers would give memory back."""
    context = context if context is not None else Context()
    context.keep_xml = False
    return context


# ---- the library leaves the process alone ---------------------------------------------------

def test_load_leaves_the_process_alone(host_process, monkeypatch, big_urdf, big_sdf):
    with watched(monkeypatch) as breaches:
        for path in (big_urdf, big_sdf):  # elements freed once read: where memory was trimmed
            assert urdf_sdf.load(path, without_xml()).ok
        assert urdf_sdf.load(SAMPLES / "arm6.sdf", Context()).ok
        assert urdf_sdf.load_string((SAMPLES / "pendulum.urdf").read_text(), "pendulum.urdf").ok
    assert breaches == []
    assert gc.isenabled()


def test_conversions_leave_the_process_alone(host_process, monkeypatch, big_urdf):
    with watched(monkeypatch) as breaches:
        assert urdf_sdf.convert_urdf(urdf_sdf.load(big_urdf, without_xml()),
                                     urdf_sdf.ToSdf()).ok
        assert urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf", relative=True).ok
        assert urdf_sdf.to_urdf(SAMPLES / "arm6.sdf").ok
        assert urdf_sdf.convert_sdf(urdf_sdf.load(SAMPLES / "pendulum.sdf", without_xml()),
                                    urdf_sdf.ToUrdf()).ok
        assert urdf_sdf.check(SAMPLES / "arm6.sdf", meshes=True).valid
        assert urdf_sdf.diff(SAMPLES / "arm6.urdf", SAMPLES / "arm6.sdf") == []
    assert breaches == []
    assert gc.isenabled()


def test_writing_an_output_leaves_the_process_alone(host_process, monkeypatch, tmp_path):
    data = urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf").xml
    new, replaced = tmp_path / "new.sdf", tmp_path / "replaced.sdf"
    replaced.write_bytes(b"old")
    replaced.chmod(0o640)

    def command() -> int:
        print("a line of text")
        write_output(data, None)
        write_output(data, str(new))
        write_output(data, str(replaced))
        return 0

    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stdout)  # the host program's
    with watched(monkeypatch) as breaches:
        assert stdout_checked_code("urdf2sdf", command) == 0
    assert breaches == []
    assert sys.stdout is stdout
    assert stdout.buffer.getvalue().startswith(b"a line of text\n" + data[:20])
    assert new.read_bytes() == data and replaced.read_bytes() == data
    assert stat.S_IMODE(new.stat().st_mode) == 0o640  # 0666 less the umask, 027
    assert stat.S_IMODE(replaced.stat().st_mode) == 0o640  # the replaced file's


def test_the_watch_sees_a_breach(host_process, monkeypatch, big_urdf):
    """The checks above can fail: a collector paused, stdout replaced, the umask set, or
    a C library opened during the call is each seen."""
    with watched(monkeypatch) as breaches:
        gc.disable()
        urdf_sdf.load(big_urdf)
        gc.enable()
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        urdf_sdf.load(SAMPLES / "pendulum.urdf")
        os.umask(os.umask(0o022))
        MallocTrim()()
    assert any(b.startswith("collector off") for b in breaches)
    assert any(b.startswith("sys.stdout replaced") for b in breaches)
    assert any(b.startswith("os.umask") for b in breaches)
    assert any(b.startswith("ctypes.CDLL") for b in breaches)


# ---- the opt-in: memory given back while reading ---------------------------------------------

def test_readers_give_memory_back_only_when_the_process_opted_in(host_process, big_urdf,
                                                                 big_sdf):
    given = []
    for path in (big_urdf, big_sdf):
        assert urdf_sdf.load(path, without_xml()).ok
    assert given == []
    give_back_free_memory_with(lambda: given.append(True))
    for path in (big_urdf, big_sdf):
        assert urdf_sdf.load(path, without_xml()).ok
    assert len(given) >= 2  # at least once per file: each deletes over TRIM_EVERY elements
    given.clear()
    assert urdf_sdf.load(big_urdf).ok  # the XML kept: nothing deleted, nothing to give
    assert given == []


def test_malloc_trim_is_looked_up_once_and_called_with_zero(monkeypatch):
    opened, trimmed = [], []

    class Libc:
        @staticmethod
        def malloc_trim(pad):
            trimmed.append(pad)

    monkeypatch.setattr(ctypes, "CDLL", lambda name: opened.append(name) or Libc())
    trim = MallocTrim()
    assert opened == []
    trim()
    trim()
    assert opened == [None] and trimmed == [0, 0]


def test_malloc_trim_is_nothing_without_glibc(monkeypatch):
    monkeypatch.setattr(ctypes, "CDLL", lambda name: object())  # no malloc_trim
    MallocTrim()()


# ---- the umask, read and never set ----------------------------------------------------------

def test_the_umask_is_read_from_the_process_status(tmp_path):
    status = tmp_path / "status"
    status.write_text("Name:\tpython\nUmask:\t0027\nState:\tR (running)\n")
    assert atomic.umask_from_status(str(status)) == 0o027
    status.write_text("Name:\tpython\nState:\tR (running)\n")  # before Linux 4.7
    assert atomic.umask_from_status(str(status)) is None
    assert atomic.umask_from_status(str(tmp_path / "missing")) is None


def test_without_the_process_status_a_new_file_tells_the_mode(host_process, monkeypatch,
                                                              tmp_path):
    monkeypatch.setattr(atomic, "umask_from_status", lambda: None)
    target = tmp_path / "robot.sdf"
    assert new_file_mode(target) == 0o640
    assert list(tmp_path.iterdir()) == []  # the probe is gone
    write_output(b"<sdf/>", str(target))
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


# ---- the console scripts set the process up ---------------------------------------------------

def test_a_console_script_sets_its_process_up():
    code = ("import gc, sys\n"
            "from urdf_sdf.cli.process import MallocTrim, console_script_process\n"
            "from urdf_sdf.cli.streams import CheckedStdout\n"
            "from urdf_sdf.core.read.consume import give_back_free_memory_with\n"
            "console_script_process()\n"
            "give_back = give_back_free_memory_with(None)\n"
            "print(gc.isenabled(), type(sys.stdout).__name__, type(give_back).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["False", "CheckedStdout", "MallocTrim"]


def test_a_console_script_converts_as_before(tmp_path):
    """The console script's own run (collector off, stdout checked, memory given back)
    writes what the library returns, in a file of the usual mode."""
    out = tmp_path / "pendulum.sdf"
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli", "urdf2sdf",
                           str(SAMPLES / "pendulum.urdf"), "-o", str(out)],
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf").xml
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~read_umask()


def test_checked_stdout_tells_its_failures_apart():
    class Full(io.StringIO):
        def write(self, text):
            raise OSError(28, "No space left on device")

    with pytest.raises(StdoutError):
        CheckedStdout(Full()).write("x")

    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(BrokenPipeError):
        CheckedStdout(Closed()).write("x")
    assert CheckedStdout(io.StringIO()).getvalue() == ""  # the rest is the stream's


# ---- no library module so much as names them ------------------------------------------------

# (module, attribute) pairs that change the process, and the files that may use them: the
# console scripts' set-up, their standard streams, and the batch workers (processes that a
# console script starts).
PROCESS_WIDE = {("gc", "disable"), ("gc", "freeze"), ("gc", "enable"), ("gc", "set_threshold"),
                ("os", "umask"), ("sys", "stdout"), ("sys", "stderr"), ("sys", "stdin")}
ALLOWED = {
    "urdf_sdf/cli/process.py": {("gc", "disable"), ("gc", "freeze"), "malloc_trim", "ctypes"},
    "urdf_sdf/cli/streams.py": {("sys", "stdout"), ("sys", "stderr"), ("sys", "stdin")},
    "urdf_sdf/cli/pool.py": {("gc", "disable"), ("gc", "freeze")},
}
# Reading a standard stream is fine; only an assignment (or setattr) changes it.
STREAMS = {("sys", "stdout"), ("sys", "stderr"), ("sys", "stdin")}


def source_files() -> list[Path]:
    files = []
    for folder in ("core", "urdf2sdf", "sdf2urdf", "urdf_sdf"):
        for path in sorted((REPO / folder).rglob("*.py")):
            relative = path.relative_to(REPO)
            if relative.parts[:2] in (("urdf_sdf", "core"), ("urdf_sdf", "urdf2sdf"),
                                      ("urdf_sdf", "sdf2urdf")):
                continue  # the links to the top-level folders: read there
            files.append(path)
    return files


def process_wide_uses(tree: ast.AST) -> set:
    """What of :data:`PROCESS_WIDE`, ``malloc_trim`` and ``ctypes`` a module's syntax uses:
    a stream only where it is assigned (``sys.stdout = ...``, ``setattr(sys, ...)``)."""
    used: set = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "malloc_trim":
            used.add("malloc_trim")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            pair = (node.value.id, node.attr)
            assigned = isinstance(node.ctx, ast.Store)
            if pair in PROCESS_WIDE and (assigned or pair not in STREAMS):
                used.add(pair)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "setattr" and node.args and \
                isinstance(node.args[0], ast.Name) and node.args[0].id == "sys":
            used.update(STREAMS)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names]
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if "ctypes" in names or module == "ctypes":
                used.add("ctypes")
            if module in ("gc", "os", "sys"):
                used.update((module, alias.name) for alias in node.names
                            if (module, alias.name) in PROCESS_WIDE)
        elif isinstance(node, ast.Constant) and node.value == "malloc_trim":
            used.add("malloc_trim")
    return used


def test_only_the_console_scripts_change_the_process():
    files = source_files()
    assert any(p.match("core/loader.py") for p in files)
    found = {}
    for path in files:
        relative = path.relative_to(REPO).as_posix()
        used = process_wide_uses(ast.parse(path.read_text(encoding="utf-8")))
        unexpected = used - ALLOWED.get(relative, set())
        if unexpected:
            found[relative] = sorted(map(str, unexpected))
    assert found == {}


def test_the_static_check_sees_each_kind_of_use():
    source = ("import gc, os, sys\nfrom ctypes import CDLL\ngc.disable()\nos.umask(0)\n"
              "sys.stdout = None\nsetattr(sys, 'stderr', None)\nCDLL(None).malloc_trim(0)\n"
              "print(sys.stdout)\n")
    used = process_wide_uses(ast.parse(source))
    assert used == {("gc", "disable"), ("os", "umask"), "ctypes", "malloc_trim"} | STREAMS
    assert process_wide_uses(ast.parse("import sys\nprint(sys.stdout.write)\n")) == set()
