"""Read a URDF file into ``core.model`` with URDF's frame conventions.

A URDF joint's origin is its pose relative to the parent link, and the child
link's frame is the joint frame: so a joint becomes a pose ``relative_to`` its
parent link and its child link a pose ``relative_to`` the joint, with the
original ``xyz``/``rpy`` text kept.
"""
from __future__ import annotations

import math

from core.diagnostics import Code, Diagnostics
from core.model import Axis, Document, Joint, Link, Model, PoseSpec, Source
from core.pose import IDENTITY, Pose
from core.xmlio import parse_xml

JOINT_TYPES = {"revolute", "continuous", "prismatic", "fixed", "floating", "planar"}


def _numbers(text: str | None, count: int):
    try:
        values = [float(t) for t in (text or "").split()]
    except ValueError:
        return None
    if len(values) != count or not all(math.isfinite(v) for v in values):
        return None
    return values


def read_origin(el, file: str | None, diagnostics: Diagnostics, relative_to: str | None) -> PoseSpec:
    origin = el.find("origin") if el is not None else None
    if origin is None:
        return PoseSpec(IDENTITY, relative_to, "", source=Source(file, el.sourceline if el is not None else None))
    xyz_text = origin.get("xyz", "0 0 0")
    rpy_text = origin.get("rpy", "0 0 0")
    xyz = _numbers(xyz_text, 3)
    rpy = _numbers(rpy_text, 3)
    if xyz is None or rpy is None:
        bad = "xyz" if xyz is None else "rpy"
        diagnostics.error(Code.ATTRIBUTE_INVALID, f"<origin {bad}='{origin.get(bad)}'> is not "
                          "three finite numbers", file, origin.sourceline)
        xyz, rpy = xyz or [0.0] * 3, rpy or [0.0] * 3
    return PoseSpec(Pose.from_rpy(tuple(xyz), tuple(rpy)), relative_to,
                    f"{xyz_text} {rpy_text}", source=Source(file, origin.sourceline))


def read_urdf_string(data: bytes, file: str | None, diagnostics: Diagnostics) -> Document | None:
    root = parse_xml(data, file, diagnostics)
    if root is None:
        return None
    if root.tag != "robot":
        diagnostics.error(Code.FILE_READ, f"root element is <{root.tag}>, expected <robot>",
                          file, root.sourceline)
        return None
    name = root.get("name")
    if not name:
        diagnostics.error(Code.ATTRIBUTE_MISSING, "<robot> has no name", file, root.sourceline)
        name = "robot"
    model = Model(name=name, source=Source(file, root.sourceline), xml=root, version=(1, 11))
    child_joint: dict[str, str] = {}
    joints = []
    for el in root.findall("joint"):
        jname = el.get("name")
        parent = el.find("parent")
        child = el.find("child")
        if not jname or parent is None or child is None:
            diagnostics.error(Code.ATTRIBUTE_MISSING, "<joint> needs a name, <parent link> and "
                              "<child link>", file, el.sourceline)
            continue
        jtype = el.get("type", "")
        if jtype not in JOINT_TYPES:
            diagnostics.error(Code.ATTRIBUTE_INVALID, f"joint [{jname}] has unknown type "
                              f"[{jtype}]", file, el.sourceline)
        parent_link = parent.get("link", "")
        child_link = child.get("link", "")
        joint = Joint(name=jname, type=jtype, parent=parent_link, child=child_link,
                      pose=read_origin(el, file, diagnostics, parent_link or None),
                      source=Source(file, el.sourceline), xml=el)
        axis_el = el.find("axis")
        xyz = _numbers(axis_el.get("xyz") if axis_el is not None else "1 0 0", 3) or [1.0, 0, 0]
        joint.axes.append(Axis(tuple(xyz), None, axis_el.get("xyz") if axis_el is not None else None,
                               Source(file, (axis_el if axis_el is not None else el).sourceline)))
        joints.append(joint)
        child_joint[child_link] = jname
    for el in root.findall("link"):
        lname = el.get("name")
        if not lname:
            diagnostics.error(Code.ATTRIBUTE_MISSING, "<link> has no name", file, el.sourceline)
            continue
        pose = PoseSpec(IDENTITY, child_joint.get(lname), "", source=Source(file, el.sourceline))
        model.links.append(Link(name=lname, pose=pose, source=Source(file, el.sourceline), xml=el))
    model.joints = joints
    return Document(version="1.11", model=model, file=file, format="urdf")
