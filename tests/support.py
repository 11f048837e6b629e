"""What the tests need from the machine, and the golden comparison they share.

The suite passes on a fresh clone with nothing beside it: a test that needs something
the machine may lack (the project's shared directory ``../shared``, ``check_urdf``,
Graphviz's ``dot``, the xacro package, libsdformat, colcon and ROS's build tools) asks for
it with :func:`require`, which skips outside CI and fails under CI (``$CI`` set), so CI
never skips silently.

Files of ``../shared`` that parametrise a test are listed when the module is collected;
:func:`shared_cases` stands one placeholder case in for them when the directory is
missing, so the test still runs once and reports the missing directory (the
``needs_shared`` marker, checked in ``conftest.py``).

Goldens are compared with :func:`assert_xml_equivalent`: the same element tree, with
numbers compared by value (a new numpy may print the last digit differently).
"""
from __future__ import annotations

import contextlib
import math
import os
import random
import re
import shutil
import stat
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

REPO = Path(__file__).resolve().parent.parent


def ci_is_set(environ) -> bool:
    """``$CI`` set to anything but "", "0", "false" or "no" (any case)."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def full_budgets(environ) -> bool:
    """Under CI, or ``$URDF_SDF_FULL`` set to anything but "" or "0"."""
    return ci_is_set(environ) or environ.get("URDF_SDF_FULL", "").strip() not in ("", "0")


def shared_root(environ) -> Path:
    """The project's shared directory: ``$URDF_SDF_SHARED``, else ``../shared``."""
    override = environ.get("URDF_SDF_SHARED")
    return Path(override) if override else REPO.parent / "shared"


IN_CI = ci_is_set(os.environ)
# The full budgets: every hypothesis example and the slow tests (``@pytest.mark.slow``, a real
# browser). CI always runs them; elsewhere ``URDF_SDF_FULL=1`` asks for them.
FULL = full_budgets(os.environ)
# Outside the full budgets a hypothesis test runs this share of its examples, so that the
# plain ``python -m pytest -q`` stays a few minutes of CPU.
LOCAL_SHARE = 4
SHARED = shared_root(os.environ)
SHARED_HINT = ("put the project's shared directory beside the clone as ../shared, "
               "or set URDF_SDF_SHARED")
CHECK_URDF_HINT = "apt-get install liburdfdom-tools"
GRAPHVIZ_HINT = "apt-get install graphviz"
XACRO_HINT = "pip install '.[test]' (or pip install xacro)"
SDFORMAT_SPEC_HINT = "apt-get install libsdformat-dev"
# colcon with its ROS extension, ROS 1's catkin and rospack, ROS 2's ament_cmake and index:
# Debian's packages (.ci/run installs them).
ROS_BUILD_HINT = ("apt-get install colcon python3-colcon-ros catkin rospack-tools ament-cmake "
                  "python3-ament-index")
TIMEOUT = 60  # seconds for an external program; longer is a hang

# Numbers in goldens: equal within this relative tolerance (and this absolute one near 0).
REL_TOL = 1e-12
ABS_TOL = 1e-15


def examples(full: int) -> int:
    """A hypothesis budget: ``full`` examples under the full budgets, else a share of it
    (never fewer than 10)."""
    return full if FULL else max(10, full // LOCAL_SHARE)


# ---- what the machine has ------------------------------------------------------------------

def require(available: bool, what: str, hint: str) -> None:
    """Nothing when ``available``; else fail under CI, skip elsewhere, saying how to get it."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"CI is set but {what} is missing: {hint}", pytrace=False)
    pytest.skip(f"{what} is not available: {hint}")


def shared_dir(*parts: str) -> Path:
    """``SHARED/parts`` (a file or folder of the project's shared material), required."""
    path = SHARED.joinpath(*parts)
    require(path.exists(), str(path), SHARED_HINT)
    return path


def shared_cases(cases: list, *parts: str, arity: int = 1) -> list:
    """The parameter sets ``cases``, some of them files under ``SHARED/parts``; when that
    folder is missing, one more: a placeholder (``arity`` Nones, id ``shared-missing``)
    marked ``needs_shared``, which skips or fails when it runs (see ``conftest.py``).
    Without it the folder's cases would silently vanish, and a test with no case at all
    is skipped by pytest even under CI."""
    if SHARED.joinpath(*parts).is_dir():
        return cases
    return [*cases, pytest.param(*(None,) * arity, id="shared-missing",
                                 marks=pytest.mark.needs_shared(*parts))]


def program(name: str, what: str, hint: str) -> str:
    """The path of the program ``name`` on PATH, required."""
    found = shutil.which(name)
    require(found is not None, what, hint)
    return found


def check_urdf(path) -> subprocess.CompletedProcess:
    """ROS's ``check_urdf`` on ``path`` (required); the caller judges the result."""
    exe = program("check_urdf", "the check_urdf program", CHECK_URDF_HINT)
    return subprocess.run([exe, str(path)], capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)


def assert_check_urdf_accepts(path) -> subprocess.CompletedProcess:
    proc = check_urdf(path)
    assert proc.returncode == 0 and "Successfully Parsed XML" in proc.stdout, \
        f"check_urdf rejects {path}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def colcon() -> str:
    """The path of ``colcon`` (required)."""
    return program("colcon", "the colcon build tool", ROS_BUILD_HINT)


def graphviz_dot() -> str:
    """The path of Graphviz's ``dot`` (required)."""
    return program("dot", "Graphviz's dot program", GRAPHVIZ_HINT)


def xacro_module():
    """The xacro package (installed with the ``test`` extra), required."""
    try:
        import xacro
    except ImportError:
        xacro = None
    require(xacro is not None, "the xacro package", XACRO_HINT)
    return xacro


def sdformat_spec_dir(root: Path, version: str) -> Path:
    """libsdformat's element descriptions of one SDFormat version (``root/VERSION``)."""
    directory = root / version
    require((directory / "root.sdf").is_file(), f"SDFormat {version} descriptions in {root}",
            SDFORMAT_SPEC_HINT)
    return directory


# ---- goldens ---------------------------------------------------------------------------------

NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
SPACES = re.compile(r"(\s+)")
MAX_REPORTED = 20


def same_number(a: str, b: str) -> bool:
    """Both tokens are decimal numbers, equal within REL_TOL (ABS_TOL near zero)."""
    return bool(NUMBER.fullmatch(a) and NUMBER.fullmatch(b)) and \
        math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=ABS_TOL)


def same_text(a: str | None, b: str | None) -> bool:
    """Equal texts, except that numbers may differ within the tolerance; the whitespace
    between tokens must be the same (formatting is part of a golden)."""
    a, b = a or "", b or ""
    if a == b:
        return True
    tokens_a, tokens_b = SPACES.split(a), SPACES.split(b)
    return len(tokens_a) == len(tokens_b) and \
        all(x == y or same_number(x, y) for x, y in zip(tokens_a, tokens_b))


def parse_xml(source) -> etree._Element:
    """The root element of XML given as bytes, text or a file path (comments kept)."""
    if isinstance(source, Path):
        source = source.read_bytes()
    if isinstance(source, str):
        source = source.encode("utf-8")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=False)
    return etree.fromstring(source, parser)


def label(el) -> str:
    if not isinstance(el.tag, str):
        return "comment()" if el.tag is etree.Comment else "node()"
    name = el.get("name")
    tag = etree.QName(el).localname
    return f"{tag}[{name}]" if name is not None else tag


def xml_differences(actual, expected, path: str = "") -> Iterator[str]:
    """Each way in which element ``actual`` differs from ``expected`` (tails apart)."""
    here = f"{path}/{label(expected)}"
    if actual.tag != expected.tag:
        yield f"{here}: element {label(actual)} instead"
        return
    if isinstance(expected.tag, str) and actual.nsmap != expected.nsmap:
        yield f"{here}: namespaces {actual.nsmap} instead of {expected.nsmap}"
    for key in sorted(set(actual.attrib) | set(expected.attrib)):
        mine, theirs = actual.get(key), expected.get(key)
        if mine is None or theirs is None or not same_text(mine, theirs):
            yield f"{here}/@{key}: {mine!r} instead of {theirs!r}"
    if not same_text(actual.text, expected.text):
        yield f"{here}: text {actual.text!r} instead of {expected.text!r}"
    mine, theirs = list(actual), list(expected)
    if [c.tag for c in mine] != [c.tag for c in theirs]:
        yield f"{here}: children {[label(c) for c in mine]} instead of " \
              f"{[label(c) for c in theirs]}"
        return
    for child, expected_child in zip(mine, theirs):
        yield from xml_differences(child, expected_child, here)
        if not same_text(child.tail, expected_child.tail):
            yield f"{here}: text after {label(child)} {child.tail!r} " \
                  f"instead of {expected_child.tail!r}"


def xml_equivalent(actual, expected) -> bool:
    return not any(True for _ in xml_differences(parse_xml(actual), parse_xml(expected)))


def assert_xml_equivalent(actual, expected) -> None:
    """``actual`` (bytes, text or a path) is the golden ``expected`` (a path, bytes or
    text): the same tags, attributes, structure and text, numbers equal within REL_TOL."""
    differences = list(xml_differences(parse_xml(actual), parse_xml(expected)))
    name = expected if isinstance(expected, Path) else "the expected XML"
    assert not differences, f"{len(differences)} differences from {name}:\n" + \
        "\n".join(differences[:MAX_REPORTED])


# ---- diagnostics a test must account for -----------------------------------------------------

class CheckedDiagnostics:
    """The diagnostics a test caused, which it takes one by one as it checks them; the
    ``diagnostics_checked`` fixture fails the test when any is left (an unexpected
    warning is as much a change of behaviour as a missing error)."""

    def __init__(self):
        self.left: list = []
        self._watched: set[int] = set()

    def watch(self, result_or_diagnostics):
        """Register a LoadResult's (or a conversion's) ``.diagnostics``, or a Diagnostics
        list; returns its argument."""
        diagnostics = getattr(result_or_diagnostics, "diagnostics", result_or_diagnostics)
        if id(diagnostics) not in self._watched:
            self._watched.add(id(diagnostics))
            self.left.extend(diagnostics)
        return result_or_diagnostics

    def take_error(self, code):
        """Remove and return the first error with ``code`` (a Code or its name)."""
        return self._take(code, "error")

    def take_warning(self, code):
        """Remove and return the first warning with ``code`` (a Code or its name)."""
        return self._take(code, "warning")

    def _take(self, code, severity: str):
        wanted = getattr(code, "value", code)
        for index, diagnostic in enumerate(self.left):
            if diagnostic.code.value == wanted and diagnostic.severity.value == severity:
                return self.left.pop(index)
        pytest.fail(f"no {severity}[{wanted}] among the diagnostics not yet taken:\n"
                    f"{self.formatted() or '  (none)'}")

    def formatted(self) -> str:
        return "\n".join(f"  {d.format()}" for d in self.left)


# ---- perturbed robots, for diff ------------------------------------------------------

def perturbed(text: str, seed: int, rate: float) -> str:
    """Some decimal numbers moved by 1e-3 or -2e-3, some by 1e-12 (below the tolerance)."""
    rng = random.Random(seed)

    def move(match):
        if rng.random() >= rate:
            return match.group(0)
        return repr(float(match.group(0)) + rng.choice((1e-3, -2e-3, 1e-12)))
    return re.sub(r"-?\d+\.\d+", move, text)


def with_mimics(text: str) -> str:
    """Every ninth joint of a generated URDF mimics joint_1."""
    count = iter(range(1, 10 ** 9))
    limit = '<limit lower="-1.57" upper="1.57" effort="10" velocity="1"/>'
    return re.sub(re.escape(limit), lambda m: m.group(0) + (
        '<mimic joint="joint_1" multiplier="2" offset="0.1"/>' if next(count) % 9 == 0 else ""),
        text)


# ---- random poses at the hard corners (the converters' property tests) --------------------

HALF_PI = math.pi / 2


def signed(rng: random.Random, value: float) -> float:
    return value if rng.random() < 0.5 else -value


def tiny(rng: random.Random) -> float:
    """A positive offset between 1e-9 and 1e-6 (log-uniform)."""
    return 10 ** rng.uniform(-9, -6)


def angle(rng: random.Random) -> float:
    return rng.uniform(-math.pi, math.pi)


def rpy_for(kind: str, rng: random.Random,
            zero_kinds: tuple[str, ...] = ()) -> tuple[float, float, float]:
    """Roll, pitch and yaw of a kind of pose: at gimbal lock (exactly, or within 1e-9..1e-6
    of it), near or at +-pi, both, axis-aligned, or random (any other kind); zero for the
    ``zero_kinds``."""
    if kind in zero_kinds:
        return (0.0, 0.0, 0.0)
    if kind == "gimbal_exact":   # pitch = +-pi/2 exactly (the float nearest to it)
        return (angle(rng), signed(rng, HALF_PI), angle(rng))
    if kind == "gimbal_near":    # pitch within 1e-9..1e-6 of +-pi/2, on either side
        pitch = signed(rng, HALF_PI + signed(rng, tiny(rng)))
        roll, yaw = rng.choice([(angle(rng), angle(rng)), (0.0, 0.0), (angle(rng), 0.0)])
        return (roll, pitch, yaw)
    if kind == "near_pi":        # roll and/or yaw within 1e-9..1e-6 of +-pi
        near = [signed(rng, math.pi - tiny(rng)) for _ in range(2)]
        return rng.choice([(near[0], 0.0, 0.0), (0.0, 0.0, near[1]),
                           (near[0], angle(rng) / 4, near[1]), (near[0], 0.0, near[1])])
    if kind == "pi_exact":
        return rng.choice([(math.pi, 0.0, 0.0), (0.0, 0.0, -math.pi), (0.0, math.pi, 0.0),
                           (math.pi, 0.0, math.pi), (-math.pi, angle(rng), math.pi)])
    if kind == "gimbal_and_pi":  # gimbal lock combined with half and full turns
        pitch = signed(rng, HALF_PI + rng.choice([0.0, tiny(rng), -tiny(rng)]))
        return (signed(rng, rng.choice([math.pi, HALF_PI, math.pi - tiny(rng)])), pitch,
                signed(rng, rng.choice([math.pi, HALF_PI, math.pi - tiny(rng)])))
    if kind == "axis_aligned":
        return tuple(rng.choice([0.0, HALF_PI, -HALF_PI, math.pi, -math.pi]) for _ in range(3))
    return (angle(rng), angle(rng), angle(rng))


# ---- a converter's output file (test_urdf2sdf_cli, test_sdf2urdf_cli) ----------------------

def only_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def assert_written_atomically(invoke, source: Path, out: Path, monkeypatch) -> None:
    """``invoke(source, "-o", out)`` writes beside ``out`` and renames into place: when the
    rename fails, the old file is intact and no temporary file is left behind."""
    out.write_bytes(b"old")
    renames = []

    def failing_replace(src, dst):
        renames.append((Path(src), Path(dst)))
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing_replace)
    result = invoke(source, "-o", out)
    monkeypatch.undo()
    assert result.exit_code != 0
    assert len(renames) == 1 and renames[0][1] == out
    assert renames[0][0].parent == out.parent and renames[0][0] != out
    assert out.read_bytes() == b"old"
    assert only_files(out.parent) == [out.name]


def assert_input_not_overwritten(invoke, source: Path, spelling: str) -> None:
    """``-o`` naming the input ``source`` (``same``: as it is; ``dot``: through ``.``;
    ``symlink``: a link to it) is refused with OUTPUT_IS_INPUT, the input intact."""
    folder, before = source.parent, source.read_bytes()
    link = folder / f"link{source.suffix}"
    target = {"same": source, "dot": folder / "." / source.name, "symlink": link}[spelling]
    if spelling == "symlink":
        link.symlink_to(source)
    result = invoke(source, "-o", target)
    assert result.exit_code == 1
    assert "error[OUTPUT_IS_INPUT]" in result.stderr
    assert source.name in result.stderr or link.name in result.stderr
    assert "Traceback" not in result.stderr
    assert source.read_bytes() == before
    assert only_files(folder) == sorted([source.name] + ([link.name] if spelling == "symlink"
                                                         else []))


# ---- an output at every kind of destination (graph's images, view's --png) ----------------

def _read_to_end(fd: int, into: list[bytes]) -> None:
    with os.fdopen(fd, "rb", closefd=False) as stream:
        into.append(stream.read())


def _released(fifo: Path, reader: threading.Thread) -> None:
    """Let a reader blocked on opening ``fifo`` go (the command never opened it)."""
    if reader.is_alive():
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(TIMEOUT)


def written_at_each_destination(run, folder: Path, name: str,
                                through_link: bool) -> dict[str, bytes]:
    """What ``run(destination, pass_fds)`` (a command writing one output to
    ``destination`` in a subprocess, its stdout captured: a ``CompletedProcess``) writes
    to a regular file, a pipe's descriptor, a descriptor of a file open for appending (as
    ``5>>log`` gives), a FIFO a thread reads, its standard output and a symbolic link to
    a regular file; by case. ``through_link``: the descriptors and stdout are named
    through a link ``N-NAME`` (a command that picks the format by the name's suffix).
    Asserts each run succeeds and leaves what it wrote through as it was: the link a
    link, the FIFO a FIFO, the appended file appended to (never reopened, truncated)."""
    got: dict[str, bytes] = {}

    def named(target: str) -> str:
        if not through_link:
            return target
        link = folder / f"{len(got)}-{name}"
        link.symlink_to(target)
        return str(link)

    def ran(destination: str, fds: tuple[int, ...] = ()) -> bytes:
        done = run(destination, fds)
        assert done.returncode == 0, done.stderr
        return done.stdout

    ran(str(folder / name))
    got["file"] = (folder / name).read_bytes()
    read_end, write_end = os.pipe()
    chunks: list[bytes] = []
    reader = threading.Thread(target=_read_to_end, args=(read_end, chunks))
    reader.start()
    try:
        ran(named(f"/dev/fd/{write_end}"), (write_end,))
    finally:
        os.close(write_end)
        reader.join(TIMEOUT)
        os.close(read_end)
    got["pipe"] = b"".join(chunks)
    log = folder / "appended.log"
    log.write_bytes(b"before\n")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        ran(named(f"/dev/fd/{fd}"), (fd,))
    finally:
        os.close(fd)
    got["appended"] = log.read_bytes()
    fifo = folder / f"fifo-{name}"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    try:
        ran(str(fifo))
    finally:
        _released(fifo, reader)
    got["fifo"] = b"".join(received)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    got["stdout"] = ran(named("/dev/stdout"))
    real, link = folder / f"real-{name}", folder / f"link-{name}"
    real.write_bytes(b"old")
    link.symlink_to(real.name)
    ran(str(link))
    assert link.is_symlink() and os.readlink(link) == real.name
    got["link"] = real.read_bytes()
    assert not [p for p in folder.iterdir() if ".urdf-sdf-" in p.name]  # no temporary left
    return got


class FakeTerminal:
    """A stream that says it is a terminal and keeps what is written to it (a progress
    bar's, colours')."""

    def __init__(self):
        self.written = []

    def isatty(self):
        return True

    def write(self, text):
        self.written.append(text)
        return len(text)

    def flush(self):
        pass
