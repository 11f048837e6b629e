"""The reference implementation (libsdformat, via ../shared/tools/sdf_reference.cc) for tests.

``find_reference()`` locates the ``sdf_reference`` binary, building it if it can:

1. ``$SDF_REFERENCE`` if set (it must then be an executable file);
2. ``build/sdf_reference`` under the repository root;
3. otherwise, when ``g++`` and ``pkg-config sdformat12`` are available, it compiles
   ``tools/sdf_reference.cc`` of the shared directory (``../shared`` or
   ``$URDF_SDF_SHARED``; or ``$SDF_REFERENCE_SOURCE``) into ``build/``.

``run_reference(binary, path)`` returns the binary's JSON for one file (see
``../shared/conformance/README.md`` for its shape), ``reference_stderr(binary, path)``
libsdformat's warnings. ``pose_gap`` and
``compare_reports`` compare such a report with ours.
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support import SHARED

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BINARY = REPO_ROOT / "build" / "sdf_reference"
DEFAULT_SOURCE = SHARED / "tools" / "sdf_reference.cc"
KINDS = ("links", "joints", "frames", "models")
TIMEOUT = 120


class ReferenceUnavailable(RuntimeError):
    """The reference binary is neither present nor buildable; the message says why."""


@dataclass(frozen=True)
class Reference:
    binary: Path
    how: str  # where it came from, for messages


def _executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def build_reference(source: Path, out: Path) -> None:
    """Compile ``source`` into ``out`` (atomically); raises ReferenceUnavailable."""
    gxx = shutil.which("g++")
    pkg_config = shutil.which("pkg-config")
    if not gxx or not pkg_config:
        raise ReferenceUnavailable("g++ or pkg-config is not installed "
                                   "(apt-get install g++ pkg-config libsdformat-dev)")
    flags = subprocess.run([pkg_config, "--cflags", "--libs", "sdformat12"],
                           capture_output=True, text=True)
    if flags.returncode != 0:
        raise ReferenceUnavailable("pkg-config cannot find sdformat12 "
                                   "(apt-get install libsdformat-dev): " + flags.stderr.strip())
    if not source.is_file():
        raise ReferenceUnavailable(f"reference source {source} does not exist")
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".sdf_reference.", dir=out.parent)
    os.close(fd)
    try:
        proc = subprocess.run([gxx, "-std=c++17", "-O1", str(source), "-o", tmp,
                               *flags.stdout.split()], capture_output=True, text=True)
        if proc.returncode != 0:
            raise ReferenceUnavailable(f"building {source} failed:\n{proc.stderr[-4000:]}")
        os.chmod(tmp, 0o755)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def find_reference() -> Reference:
    """Locate (or build) the reference binary; raises ReferenceUnavailable with the reason."""
    env = os.environ.get("SDF_REFERENCE")
    if env:
        path = Path(env)
        if not _executable(path):
            raise ReferenceUnavailable(f"$SDF_REFERENCE={env} is not an executable file")
        return Reference(path, "$SDF_REFERENCE")
    if _executable(DEFAULT_BINARY):
        return Reference(DEFAULT_BINARY, str(DEFAULT_BINARY))
    source = Path(os.environ.get("SDF_REFERENCE_SOURCE", DEFAULT_SOURCE))
    try:
        build_reference(source, DEFAULT_BINARY)
    except ReferenceUnavailable as exc:
        raise ReferenceUnavailable(
            f"no reference binary: $SDF_REFERENCE is unset, {DEFAULT_BINARY} does not exist, "
            f"and it cannot be built: {exc}") from None
    return Reference(DEFAULT_BINARY, f"built from {source}")


def run_reference(binary: Path | str, path: Path | str, env: dict | None = None) -> dict:
    """The reference's JSON for ``path``. It exits 1 on invalid input, which is not a failure;
    no JSON on stdout is (AssertionError with the reference's stderr)."""
    # libsdformat 12 resolves a relative include URI against the working directory, so
    # the reference runs in the file's own folder.
    path = Path(path).resolve()
    proc = subprocess.run([str(binary), str(path)], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, env=env, cwd=path.parent)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        raise AssertionError(f"{binary} {path}: exit {proc.returncode}, no JSON on stdout; "
                             f"stderr: {proc.stderr.strip()[-2000:]}") from None


def reference_stderr(binary: Path | str, path: Path | str) -> str:
    """What libsdformat prints on stderr loading ``path``: its warnings (an attribute or
    element "not defined in SDF"...), which the JSON does not carry."""
    path = Path(path).resolve()
    proc = subprocess.run([str(binary), str(path)], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL, cwd=path.parent)
    return proc.stderr


def _unit(q):
    n = math.sqrt(sum(c * c for c in q))
    if not n or not math.isfinite(n):
        raise ValueError(f"not a rotation: {q}")
    return [c / n for c in q]


def pose_gap(a, b) -> float:
    """Largest of the position distance and the rotation angle (radians) between two poses
    ``[x, y, z, qw, qx, qy, qz]``; q and -q are the same rotation.

    The angle is 4 * atan2(|qa - qb|, |qa + qb|) (with qb's sign chosen so that qa.qb >= 0),
    which stays accurate for tiny angles where 2 * acos(qa.qb) cannot resolve below ~1e-8.
    """
    if len(a) != 7 or len(b) != 7:
        raise ValueError(f"poses must have 7 numbers: {a!r}, {b!r}")
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    dp = math.dist(a[:3], b[:3])
    qa, qb = _unit(a[3:]), _unit(b[3:])
    if sum(x * y for x, y in zip(qa, qb)) < 0:
        qb = [-c for c in qb]
    diff = math.sqrt(sum((x - y) ** 2 for x, y in zip(qa, qb)))
    summ = math.sqrt(sum((x + y) ** 2 for x, y in zip(qa, qb)))
    angle = 4 * math.atan2(diff, summ)
    gap = max(dp, angle)
    return gap if math.isfinite(gap) else math.inf


def compare_reports(reference: dict, ours: dict, tol: float = 1e-9) -> list[str]:
    """Every way in which ``ours`` disagrees with ``reference`` (empty: they agree).

    Validity must match; every pose the reference gives (not null) must be in ours and
    within ``tol``. Entities only we report are not a disagreement."""
    problems = []
    if bool(ours.get("ok")) != bool(reference.get("ok")):
        codes = sorted({d.get("code") for d in ours.get("diagnostics", [])
                        if d.get("severity") == "error"})
        ref_codes = sorted({d.get("code") for d in reference.get("diagnostics", [])})
        problems.append(f"validity: reference ok={reference.get('ok')} {ref_codes}, "
                        f"ours ok={ours.get('ok')} {codes}")
    for kind in KINDS:
        mine_all = ours.get(kind) or {}
        for name, pose in (reference.get(kind) or {}).items():
            if pose is None:
                continue
            mine = mine_all.get(name)
            if mine is None:
                problems.append(f"{kind[:-1]} {name!r}: missing in ours (reference {pose})")
                continue
            try:
                gap = pose_gap(pose, mine)
            except (TypeError, ValueError) as exc:
                problems.append(f"{kind[:-1]} {name!r}: cannot compare: {exc}")
                continue
            if not gap <= tol:
                problems.append(f"{kind[:-1]} {name!r}: gap {gap:.3g} > {tol:g}; "
                                f"reference {pose}, ours {mine}")
    return problems
