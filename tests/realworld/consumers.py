#!/usr/bin/env python3
"""Round trips of the real-robot corpus judged by MuJoCo and Pinocchio.

    consumers.py LIST [--tool-bin DIR] [--reference BIN] [--jobs N] [--out RESULTS.jsonl]
                 [--limit N]

Run it with a Python that has ``mujoco`` and ``pin`` (a venv of their own, not the
project's: ``python3 -m venv VENV && VENV/bin/pip install mujoco pin``); the converters
run as commands from --tool-bin (default: the folder holding ``urdf2sdf`` on PATH).
LIST is a corpus list (``label<TAB>path`` lines, as corpus.sh and corpus_extra.sh print).

For every file, each conversion the project offers is made and every URDF it writes is
loaded in both consumers:

    URDF source: urdf2sdf and urdf2sdf --relative, each back through sdf2urdf; the URDF
                 written is compared with the source URDF as the same consumer reads it.
    SDF source:  sdf2urdf; neither consumer reads SDFormat, so the URDF written is
                 compared with libsdformat 12's reading of the source (--reference,
                 build/sdf_reference: link poses only, it reports no masses).

Compared at the zero configuration (Pinocchio's neutral one): every link's pose relative
to the root link (a URDF cannot say where its root sits), within --tol (1e-6 m / rad);
the total mass and each body's mass (MuJoCo: per body = per link; Pinocchio: per joint,
since it lumps the links of fixed joints into their parent joint's body), relative
tolerance --tol. Links present on one side only are a disagreement, except the links a
consumer's own rule removes from both readings alike.

Loading rules of the consumers, applied alike to the source and to our output (noted,
not "fixed"): visual and collision elements are stripped before loading (both
consumers would otherwise need every mesh file, and meshes carry no pose or mass of a
link); MuJoCo is given ``<mujoco><compiler fusestatic="false"/></mujoco>`` so that a
link on a fixed joint stays a body of its own (MuJoCo fuses them by default for URDF).

Prints a table per direction, per source label and per consumer (agree / disagree /
source unreadable by the consumer / output unreadable / refused by our converter, with
the refusals by diagnostic code), then the disagreement classes, and last the line
``agreement: X/Y`` (Y: conversions whose source the consumer reads, X: those that agree).
Exit 0 always unless --min is given and X/Y is below it.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

TIMEOUT = 120
STRIP = ("visual", "collision")


# ---- small maths (poses as (x, y, z, qw, qx, qy, qz)) -----------------------------------------

def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def qconj(q):
    return (q[0], -q[1], -q[2], -q[3])


def qrot(q, v):
    return qmul(qmul(q, (0.0, *v)), qconj(q))[1:]


def relative(base, pose):
    """``pose`` expressed in ``base`` (both in one frame)."""
    qi = qconj(base[3:])
    d = qrot(qi, [pose[i] - base[i] for i in range(3)])
    return (*d, *qmul(qi, pose[3:]))


def gap(a, b) -> float:
    """The larger of the distance and the rotation angle between two poses."""
    dist = math.dist(a[:3], b[:3])
    dot = abs(sum(x * y for x, y in zip(a[3:], b[3:])))
    return max(dist, 2 * math.acos(min(1.0, dot)))


# ---- the consumers ---------------------------------------------------------------------------

def stripped_urdf(path: str, mujoco: bool) -> str:
    """The URDF without visual and collision elements (and, for MuJoCo, fusestatic off)."""
    root = ET.parse(path).getroot()
    for parent in root.iter():
        for child in [c for c in parent if c.tag in STRIP]:
            parent.remove(child)
    for gazebo in root.findall("gazebo"):
        root.remove(gazebo)
    if mujoco:
        for old in root.findall("mujoco"):
            root.remove(old)
        ET.SubElement(ET.SubElement(root, "mujoco"), "compiler", fusestatic="false")
    return ET.tostring(root, encoding="unicode")


def read_mujoco(path: str) -> dict:
    """Link poses at qpos0 relative to the root link, per-body and total mass."""
    import mujoco
    model = mujoco.MjModel.from_xml_string(stripped_urdf(path, mujoco=True))
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(model.nbody)]
    poses = {names[i]: (*data.xpos[i], *data.xquat[i]) for i in range(1, model.nbody)}
    root = names[1] if model.nbody > 1 else None
    masses = {names[i]: float(model.body_mass[i]) for i in range(1, model.nbody)}
    return {"root": root, "poses": poses, "masses": masses}


def read_pinocchio(path: str) -> dict:
    """Link (BODY frame) poses at the neutral configuration relative to the root link,
    per-joint body mass (links of fixed joints lumped in) and total mass."""
    import pinocchio as pin
    model = pin.buildModelFromXML(stripped_urdf(path, mujoco=False))
    data = model.createData()
    pin.framesForwardKinematics(model, data, pin.neutral(model))
    poses, root = {}, None
    for i, frame in enumerate(model.frames):
        if frame.type != pin.FrameType.BODY:
            continue
        placement = data.oMf[i]
        q = pin.Quaternion(placement.rotation)
        poses[frame.name] = (*placement.translation, q.w, q.x, q.y, q.z)
        root = root or frame.name
    masses = {model.names[j]: float(model.inertias[j].mass) for j in range(1, model.njoints)}
    masses["<universe>"] = float(model.inertias[0].mass)
    return {"root": root, "poses": poses, "masses": masses}


CONSUMERS = {"mujoco": read_mujoco, "pinocchio": read_pinocchio}


def joint_children(path: str) -> tuple[bool, dict[str, str]]:
    """Whether the SDF's top element is a world, and each joint's scoped name -> its
    child's scoped name (names scoped as libsdformat reports them: below the top model,
    or below the world's model)."""
    root = ET.parse(path).getroot()
    world = root.find("world")
    top = (world.find("model") if world is not None else root.find("model"))
    children: dict[str, str] = {}

    def walk(model, prefix):
        for joint in model.findall("joint"):
            child = (joint.findtext("child") or "").strip()
            children[prefix + joint.get("name", "")] = prefix + child
        for nested in model.findall("model"):
            walk(nested, prefix + nested.get("name", "") + "::")

    if top is not None:
        walk(top, "")
    return world is not None, children


def read_reference(binary: str, path: str) -> dict:
    """libsdformat 12's reading of an SDF as URDF would hold it: each link where its
    parent joint's frame is (a URDF link frame is its joint frame), a root link where
    the link is, and each //frame (sdf2urdf writes a frame as a massless link)."""
    proc = subprocess.run([binary, os.path.abspath(path)], capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL,
                          cwd=os.path.dirname(os.path.abspath(path)))
    report = json.loads(proc.stdout)
    if not report.get("ok"):
        raise ValueError("libsdformat refuses it: " + ", ".join(
            d.get("code", "") for d in report.get("diagnostics", [])[:3]))
    is_world, children = joint_children(path)

    def scoped(name):  # a world's single model's scope is not written in URDF
        return name.split("::", 1)[1] if is_world and "::" in name else name

    joints = {scoped(n): pose for n, pose in (report.get("joints") or {}).items()}
    poses = {scoped(n): pose for kind in ("links", "frames")
             for n, pose in (report.get(kind) or {}).items() if pose is not None}
    for joint, child in children.items():
        if child in poses and joints.get(joint) is not None:
            poses[child] = joints[joint]
    links = [scoped(n) for n in report.get("links") or {}]
    root = next((link for link in links if link not in children.values()), None)
    return {"root": root, "poses": poses, "masses": None, "reference": True}


def compare(source: dict, output: dict, tol: float) -> list[str]:
    """The disagreements between two readings (classes first: ``class: detail``)."""
    problems = []
    src, out = source["poses"], output["poses"]
    missing = sorted(set(src) - set(out))
    extra = sorted(set(out) - set(src))
    if missing:
        problems.append(f"link missing in output: {missing[:5]}")
    if extra and not source.get("reference"):
        problems.append(f"link only in output: {extra[:5]}")
    root = output["root"] if output["root"] in src else source["root"]
    if root in src and root in out:
        for name in sorted(set(src) & set(out)):
            g = gap(relative(src[root], src[name]), relative(out[root], out[name]))
            if not g <= tol:
                problems.append(f"link pose: {name} off by {g:.3g} relative to {root}")
                break
    if source["masses"] is not None:
        total_s, total_o = sum(source["masses"].values()), sum(output["masses"].values())
        if not abs(total_s - total_o) <= tol * max(1.0, abs(total_s)):
            problems.append(f"total mass: {total_s:.9g} != {total_o:.9g}")
        for name in sorted(set(source["masses"]) & set(output["masses"])):
            a, b = source["masses"][name], output["masses"][name]
            if not abs(a - b) <= tol * max(1.0, abs(a)):
                problems.append(f"body mass: {name} {a:.9g} != {b:.9g}")
                break
    return problems


# ---- converting ------------------------------------------------------------------------------

CODE = re.compile(r"error\[([A-Z_]+)\]")


def convert(tool_bin: str, tool: str, args: list[str], source: str, out: str) -> str | None:
    """Runs ``tool source -o out``; None when it wrote the file, else the refusal's code(s)."""
    proc = subprocess.run([os.path.join(tool_bin, tool), source, "-o", out, *args],
                          capture_output=True, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)
    if proc.returncode == 0 and os.path.isfile(out):
        return None
    codes = sorted(set(CODE.findall(proc.stderr))) or [f"exit {proc.returncode}"]
    return ",".join(codes)


def conversions(tool_bin: str, source: str, work: str):
    """(direction, URDF written or None, refusal codes or None) for one source file."""
    stem = os.path.splitext(os.path.basename(source))[0]
    if source.lower().endswith(".urdf"):
        for variant, args in (("urdf2sdf+sdf2urdf", []),
                              ("urdf2sdf --relative+sdf2urdf", ["--relative"])):
            sdf = os.path.join(work, f"{stem}.{len(args)}.sdf")
            urdf = os.path.join(work, f"{stem}.{len(args)}.urdf")
            refusal = (convert(tool_bin, "urdf2sdf", args, source, sdf)
                       or convert(tool_bin, "sdf2urdf", [], sdf, urdf))
            yield variant, (None if refusal else urdf), refusal
    else:
        urdf = os.path.join(work, f"{stem}.urdf")
        refusal = convert(tool_bin, "sdf2urdf", [], source, urdf)
        yield "sdf2urdf", (None if refusal else urdf), refusal


def judge_file(label: str, source: str, tool_bin: str, reference: str | None,
               tol: float) -> list[dict]:
    """One result row per direction and consumer for one corpus file."""
    rows = []
    work = tempfile.mkdtemp(prefix="consumers.")
    try:
        is_urdf = source.lower().endswith(".urdf")
        readings: dict[str, object] = {}
        for consumer, read in CONSUMERS.items():
            try:
                readings[consumer] = (read(source) if is_urdf else
                                      read_reference(reference, source) if reference else
                                      "no reference (--reference)")
            except Exception as exc:  # a consumer's refusal of the source is data
                readings[consumer] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}" \
                    if str(exc) else type(exc).__name__
        for direction, urdf, refusal in conversions(tool_bin, source, work):
            for consumer, read in CONSUMERS.items():
                row = {"label": label, "file": source, "direction": direction,
                       "consumer": consumer}
                src = readings[consumer]
                if isinstance(src, str):
                    row.update(status="source unreadable", detail=src)
                elif refusal:
                    row.update(status="refused", detail=refusal)
                else:
                    try:
                        problems = compare(src, read(urdf), tol)
                        row.update(status="disagree" if problems else "agree",
                                   detail="; ".join(problems))
                    except Exception as exc:
                        row.update(status="output unreadable",
                                   detail=f"{type(exc).__name__}: "
                                          f"{str(exc).splitlines()[0][:160] if str(exc) else ''}")
                rows.append(row)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


# ---- the report ------------------------------------------------------------------------------

def read_list(path: str, limit: int | None) -> list[tuple[str, str]]:
    rows = []
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        label, _, file = line.rstrip("\n").rpartition("\t")
        file = file if os.path.isabs(file) else os.path.join(os.path.dirname(path), file)
        rows.append((label or "corpus", file))
    return rows[:limit] if limit else rows


def detail_class(row: dict) -> str:
    """A disagreement's or failure's class: its detail up to the first colon."""
    return f"{row['consumer']} {row['status']}: {row['detail'].split(':')[0][:80]}"


def report(rows: list[dict]) -> tuple[int, int]:
    table = collections.defaultdict(collections.Counter)
    refusals = collections.Counter()
    classes = collections.Counter()
    for row in rows:
        table[(row["direction"], row["label"], row["consumer"])][row["status"]] += 1
        if row["status"] == "refused":
            refusals[(row["direction"], row["detail"])] += 1
        elif row["status"] != "agree":
            classes[detail_class(row)] += 1
    statuses = ("agree", "disagree", "source unreadable", "output unreadable", "refused")
    print(f"{'direction':30} {'source':26} {'consumer':10} " +
          " ".join(f"{s:>10.10}" for s in statuses))
    for key in sorted(table):
        print(f"{key[0]:30} {key[1]:26} {key[2]:10} " +
              " ".join(f"{table[key][s]:>10}" for s in statuses))
    print("\nrefusals by code (each counted once per consumer):")
    for (direction, codes), n in refusals.most_common():
        print(f"  {n:5}  {direction}: {codes}")
    print("\nclasses of the rest:")
    for name, n in classes.most_common():
        print(f"  {n:5}  {name}")
    judged = [r for r in rows if r["status"] != "source unreadable"]
    agree = sum(r["status"] == "agree" for r in judged)
    for consumer in CONSUMERS:
        mine = [r for r in judged if r["consumer"] == consumer]
        print(f"{consumer} agreement: {sum(r['status'] == 'agree' for r in mine)}/{len(mine)}")
    print(f"agreement: {agree}/{len(judged)}")
    return agree, len(judged)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("list")
    parser.add_argument("--tool-bin", default=os.path.dirname(shutil.which("urdf2sdf") or ""))
    parser.add_argument("--reference", default=os.environ.get("SDF_REFERENCE"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--tol", type=float, default=1e-6)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--out", help="write every result row here (JSON lines)")
    parser.add_argument("--min", type=float, help="exit 1 when agreement is below this")
    args = parser.parse_args(argv)
    if not args.tool_bin or not os.path.isfile(os.path.join(args.tool_bin, "urdf2sdf")):
        parser.error("no urdf2sdf: give --tool-bin DIR")
    files = read_list(args.list, args.limit)
    rows: list[dict] = []
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(judge_file, label, path, args.tool_bin, args.reference,
                               args.tol) for label, path in files]
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
