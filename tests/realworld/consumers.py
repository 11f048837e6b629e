#!/usr/bin/env python3
"""The MuJoCo and Pinocchio agreement table of the real-robot corpus.

    python -m tests.realworld.consumers LIST [--reference BIN] [--jobs N]
                                         [--out RESULTS.jsonl] [--limit N] [--min R]

Run from the repository root with a Python that has the project and its ``consumers``
extra (``pip install -e '.[test,consumers]'``). LIST is a corpus list (``label<TAB>path``
lines, as corpus.sh and corpus_extra.sh print).

Every file is converted in-process as ``tests/test_realworld_corpus.py`` converts it
(a URDF through urdf2sdf and urdf2sdf --relative, each back through sdf2urdf; an SDF
through sdf2urdf), and each URDF written is judged by ``judges.py`` beside this script
(the rules and the comparison live there, shared with the corpus test). An SDF source
needs libsdformat 12's reading (--reference, default $SDF_REFERENCE or
build/sdf_reference).

Prints a table per direction, per source label and per consumer (agree / disagree /
source unreadable by the consumer / output unreadable / refused by our converter), the
refusals by diagnostic code, the classes of the rest, and last the line
``agreement: X/Y`` (Y: conversions whose source the consumer reads, X: those that agree).
Exit 0 unless --min is given and X/Y is below it.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the repository's tests package
    sys.path.insert(0, str(ROOT))

from tests.realworld import judges  # noqa: E402
from tests.reference import run_reference  # noqa: E402
from tests.test_realworld_corpus import (  # noqa: E402
    consumer_verdicts,
    convert_both_ways,
    read_corpus,
)

STATUSES = ("agree", "disagree", "source unreadable", "output unreadable", "refused")


def direction_of(source: Path, written: str) -> str:
    """The direction a file name of convert_both_ways belongs to."""
    if source.suffix.lower() != ".urdf":
        return "sdf2urdf"
    return ("urdf2sdf --relative+sdf2urdf" if "relative" in written
            else "urdf2sdf+sdf2urdf")


def judge_file(label: str, source: str, reference: str) -> list[dict]:
    """One row per direction and consumer for one corpus file."""
    path = Path(source)
    work = Path(tempfile.mkdtemp(prefix="consumers."))
    rows: list[dict] = []
    try:
        outcome = convert_both_ways(path, work)
        judged = consumer_verdicts(path, outcome,
                                   lambda sdf: run_reference(reference, sdf))
        for urdf, verdict in judged:
            rows.append({"label": label, "file": source,
                         "direction": direction_of(path, urdf.name),
                         "consumer": verdict.consumer, "status": verdict.status,
                         "detail": verdict.detail, "rule": verdict.rule})
        if outcome.refusal is not None:
            direction = direction_of(path, outcome.refusal.step)
            if direction not in {row["direction"] for row in rows}:
                rows.extend({"label": label, "file": source, "direction": direction,
                             "consumer": consumer, "status": "refused",
                             "detail": ",".join(sorted(outcome.refusal.codes)), "rule": None}
                            for consumer in judges.CONSUMERS)
    except Exception as exc:  # noqa: BLE001 - one file's crash is a row, not the end
        rows.extend({"label": label, "file": source, "direction": direction_of(path, ""),
                     "consumer": consumer, "status": "output unreadable",
                     "detail": f"crash: {judges.unreadable(exc)}", "rule": None}
                    for consumer in judges.CONSUMERS)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def detail_class(row: dict) -> str:
    """A disagreement's or failure's class: its detail up to the first colon."""
    return f"{row['consumer']} {row['status']}: {row['detail'].split(':')[0][:80]}"


def report(rows: list[dict]) -> tuple[int, int]:
    table: dict[tuple, collections.Counter] = collections.defaultdict(collections.Counter)
    refusals: collections.Counter = collections.Counter()
    classes: collections.Counter = collections.Counter()
    for row in rows:
        table[(row["direction"], row["label"], row["consumer"])][row["status"]] += 1
        if row["status"] == "refused":
            refusals[(row["direction"], row["detail"])] += 1
        elif row["status"] != "agree":
            classes[detail_class(row) + (f" (rule: {row['rule']})" if row["rule"] else "")] += 1
    print(f"{'direction':30} {'source':26} {'consumer':10} " +
          " ".join(f"{s:>10.10}" for s in STATUSES))
    for key in sorted(table):
        print(f"{key[0]:30} {key[1]:26} {key[2]:10} " +
              " ".join(f"{table[key][s]:>10}" for s in STATUSES))
    print("\nrefusals by code (each counted once per consumer):")
    for (direction, codes), n in refusals.most_common():
        print(f"  {n:5}  {direction}: {codes}")
    print("\nclasses of the rest:")
    for name, n in classes.most_common():
        print(f"  {n:5}  {name}")
    judged = [r for r in rows if r["status"] != "source unreadable"]
    for consumer in judges.CONSUMERS:
        mine = [r for r in judged if r["consumer"] == consumer]
        print(f"{consumer} agreement: {sum(r['status'] == 'agree' for r in mine)}/{len(mine)}")
    agree = sum(r["status"] == "agree" for r in judged)
    print(f"agreement: {agree}/{len(judged)}")
    return agree, len(judged)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("list", type=Path)
    parser.add_argument("--reference", default=os.environ.get(
        "SDF_REFERENCE", str(ROOT / "build" / "sdf_reference")))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--out", help="write every result row here (JSON lines)")
    parser.add_argument("--min", type=float, help="exit 1 when agreement is below this")
    args = parser.parse_args(argv)
    missing = judges.missing_consumers()
    if missing:
        parser.error(f"{', '.join(missing)} not installed: {judges.EXTRA_HINT}")
    files = read_corpus(args.list)[:args.limit] if args.limit else read_corpus(args.list)
    reference = str(Path(args.reference).resolve())
    rows: list[dict] = []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(judge_file, entry.label, str(entry.path), reference)
                   for entry in files]
        for future in concurrent.futures.as_completed(futures):
            rows.extend(future.result())
    rows.sort(key=lambda r: (r["label"], r["file"], r["direction"], r["consumer"]))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(row) + "\n" for row in rows)
    agree, judged = report(rows)
    return 1 if args.min is not None and judged and agree / judged < args.min else 0


if __name__ == "__main__":
    sys.exit(main())
