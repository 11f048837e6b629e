"""The poses of SDF content sdf2urdf carries in ``<gazebo>`` blocks, re-expressed for the
URDF frame it lands in.

A link's sensors, lights, projectors, particle emitters, audio sources and (SDFormat 1.5,
1.6) frames are posed in the SDF link frame (or in the frame their ``relative_to`` names,
below 1.7 their ``frame``); in the URDF the block's
``reference`` names the link, whose frame is its joint frame. urdf2sdf copies the block's
content into the SDF link written at that URDF frame. So each carried pose is written in the
URDF frame, ``X_UL * X_LE``, as shapes and inertials are: the text is copied unchanged when
the frames coincide (``X_UL`` is the identity and no ``relative_to``), else computed with
no attributes (shortest round-trip numbers; absent for the identity). A joint's sensor is
posed in the joint frame, which the URDF keeps: only a ``relative_to`` makes it computed.
Poses inside the element (a camera's, a 1.6 sensor's frames) are relative to it and move
with it; they are copied as written (libsdformat 12 does not resolve a camera's
``relative_to``, Gazebo composes the camera pose with the sensor's).
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.base.pose import IDENTITY, Pose
from urdf_sdf.core.read.prefixes import tag_of
from urdf_sdf.core.read.sdf_elements import read_pose_element
from urdf_sdf.core.read.sdf_state import ReadState
from urdf_sdf.core.write.common import numbers_text

# Link children whose <pose> is relative to the link frame by default (SDFormat).
POSED = {"sensor", "light", "projector", "particle_emitter", "audio_source", "frame"}


def pose_element(pose: Pose):
    """A ``<pose>`` of a computed pose (shortest round-trip numbers, roll pitch yaw)."""
    el = etree.Element("pose")
    el.text = numbers_text((*pose.position, *pose.rpy()))
    return el


class CarriedPoses:
    """Re-expresses the poses of carried copies of one model's content.

    ``result``: the loaded SDF (its frame graph resolves ``relative_to``); ``version``:
    the model's SDFormat version (below 1.7 a pose's ``frame`` attribute is its
    ``relative_to``)."""

    def __init__(self, result, version: tuple[int, int], diagnostics: Diagnostics,
                 file: str | None):
        self.result = result
        self.diagnostics = diagnostics
        self.file = file
        self.state = ReadState(file, version, diagnostics, Context())

    def place(self, el, owner: str, X_UO: Pose) -> None:
        """Write the pose of ``el`` (a copy of a child of link or joint ``owner``, a scoped
        name) in the URDF frame ``X_UO`` puts the owner in."""
        if el.tag not in POSED:
            return
        pose_el = el.find("pose")
        spec = read_pose_element(pose_el, self.state) if pose_el is not None else None
        X_OE = IDENTITY if spec is None else self.in_owner(el, owner, spec)
        if X_OE is None:
            return
        if X_UO == IDENTITY and (spec is None or spec.relative_to is None):
            return  # the frames coincide: the text as written
        self.replace(el, pose_el, X_UO * X_OE)

    def in_owner(self, el, owner: str, spec) -> Pose | None:
        """``X_OE``, the element's pose in its owner's frame; None (with a warning, the pose
        left as written) when ``relative_to`` names no frame of the model."""
        pose = self.result.pose_in_link(owner, spec)
        if pose is None:
            self.diagnostics.warning_at(
                Code.POSE_RELATIVE_TO_INVALID, f"<{tag_of(el)} name='{el.get('name')}'> of "
                f"[{owner}] is posed relative_to [{spec.relative_to}], which names no frame of "
                "the model; its pose is copied as written", spec.source)
        return pose

    def replace(self, parent, old, pose: Pose) -> None:
        """``parent``'s ``<pose>`` ``old`` (None: none written) replaced by ``pose``, which
        is left out when it is the identity; NUMBER_NOT_FINITE when composing overflowed."""
        if not pose.is_finite():
            self.diagnostics.error_at(
                Code.NUMBER_NOT_FINITE,
                f"the pose of <{tag_of(parent)} name='{parent.get('name')}'> in its URDF frame"
                " is not a finite number: the offsets composed to reach it "
                "overflow a double", source_of(parent if old is None else old, self.file))
            return
        index = 0 if old is None else parent.index(old)
        if old is not None:
            parent.remove(old)
        if pose != IDENTITY:
            parent.insert(index, pose_element(pose))

