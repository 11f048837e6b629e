"""What the benchmark scripts share: writing generated models, the generator command
line, and running one measurement in its own subprocess."""
from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = Path(__file__).resolve().parent / "out"


def write_generated(out_dir: Path, kinds, sizes, generators: dict, suffix: str) -> list[Path]:
    """Write every (kind, size) model into ``out_dir`` as ``KIND_N.SUFFIX`` (atomically;
    the output is deterministic). Returns the paths, kind-major."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind in kinds:
        for n in sizes:
            path = out_dir / f"{kind}_{n}.{suffix}"
            tmp = path.with_suffix(f".{suffix}.tmp")
            tmp.write_text(generators[kind](n), encoding="utf-8")
            tmp.replace(path)
            paths.append(path)
    return paths


def generator_main(description: str, generate, kinds, sizes, argv=None) -> int:
    """The command line of a generator script: --sizes, --kinds, --out."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(sizes))
    parser.add_argument("--kinds", nargs="+", choices=kinds, default=list(kinds))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.sizes):
        parser.error("sizes must be >= 1")
    for path in generate(args.out, args.kinds, args.sizes):
        print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


def run_worker(cmd: list[str], timeout: float) -> dict:
    """Run one measurement subprocess; its last stdout line is a JSON object."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"failure": f"timeout after {timeout:g} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"failure": f"exit {proc.returncode}: {tail[:160]}"}
    return json.loads(lines[-1])


def mb(value_bytes: float) -> str:
    return f"{value_bytes / 1e6:8.1f}"
