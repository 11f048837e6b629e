"""The rules a source model must meet that the converters enforce and ``check`` reports:
one rule set, written once, used by ``check`` and by both converters.

Each rule looks at the model as read (:class:`~urdf_sdf.core.base.model.Model`) and adds
coded diagnostics; the caller applies its policy (``--strict`` makes the warnings
errors). The rules:

* a link without mass hanging on a joint that moves it (``LINK_MASSLESS_MOVING``, a
  URDF's; an SDF link without ``<inertial>`` has SDFormat's default mass of 1);
* a ``<mimic>`` naming no joint of the model (``MIMIC_JOINT_UNKNOWN``, an error: the
  SDFormat 1.11 or URDF written would name a joint that is not there);
* a URDF ``<gazebo reference>`` naming no link or joint (``GAZEBO_REFERENCE_UNRESOLVED``;
  urdf2sdf says, in the same words, where it put the block's content).

A ``<transmission>`` naming a missing joint and an undeclared namespace prefix are the
URDF reader's to report (``core.read``): every command loads the file first.
"""
from __future__ import annotations

from collections.abc import Iterator

from urdf_sdf.core.base.diagnostics import Code, Diagnostics, source_of
from urdf_sdf.core.base.model import WORLD, Joint, Link, Model

# Joints whose child is not moved by the joint's own axis, or that weld it: a massless
# child is harmless there (a frame, a free body written as such).
UNMOVING_JOINT_TYPES = frozenset({"fixed", "floating", "planar"})


def source_rules(document, diagnostics: Diagnostics) -> None:
    """Every rule of this module, as ``check`` runs them on a document read from a file."""
    document_mimic_targets(document, diagnostics)
    model = document.model
    if document.format == "urdf" and model is not None:
        massless_moving(model, diagnostics)
        gazebo_references(model, diagnostics)


def is_massless(link: Link) -> bool:
    """A URDF link without ``<inertial>`` or with mass 0."""
    return link.inertial is None or link.inertial.mass == 0


def massless_moving_links(model: Model) -> Iterator[tuple[Link, Joint]]:
    """Each link without mass that a moving joint hangs from its parent, with that joint."""
    parent_joint = {joint.child: joint for joint in model.joints}
    for link in model.links:
        joint = parent_joint.get(link.name)
        if joint is not None and joint.type not in UNMOVING_JOINT_TYPES and is_massless(link):
            yield link, joint


def massless_moving(model: Model, diagnostics: Diagnostics) -> None:
    """``LINK_MASSLESS_MOVING`` for each massless link on a moving joint (a URDF's)."""
    for link, joint in massless_moving_links(model):
        diagnostics.warning_at(Code.LINK_MASSLESS_MOVING,
                               f"link [{link.name}] has no mass but hangs on "
                               f"{joint.type} joint [{joint.name}]; written with <mass>0</mass> "
                               "as the URDF means it (a simulator may refuse a massless body "
                               "that moves)", link.source)


def mimic_targets(model: Model, diagnostics: Diagnostics) -> None:
    """``MIMIC_JOINT_UNKNOWN`` for each ``<mimic>`` naming no joint of the model. A mimic
    in a nested model names a joint relative to that model (``inner::j`` from its parent)."""
    scoped = list(scoped_models(model, ""))
    names = {prefix + joint.name for prefix, inner in scoped for joint in inner.joints}
    for prefix, inner in scoped:
        for joint, mimic, where in mimics(inner):
            if prefix + mimic.joint not in names:
                diagnostics.error_at(Code.MIMIC_JOINT_UNKNOWN,
                                     f"joint [{joint.name}] mimics joint [{mimic.joint}], which "
                                     "is not a joint of the model (a simulator cannot follow "
                                     "it)", where, model.source.file)


def document_mimic_targets(document, diagnostics: Diagnostics) -> None:
    """:func:`mimic_targets` of a document's model, or of each model of its worlds."""
    models = [document.model] if document.model is not None else \
        [model for world in document.worlds for model in world.models]
    for model in models:
        mimic_targets(model, diagnostics)


def scoped_models(model: Model, prefix: str) -> Iterator[tuple[str, Model]]:
    """``(prefix, model)`` for the model and each model nested in it, the prefix being the
    scope its names have in the outermost model (``""``, ``inner::``, ...)."""
    yield prefix, model
    for inner in model.models:
        yield from scoped_models(inner, f"{prefix}{inner.name}::")


def mimics(model: Model) -> Iterator[tuple]:
    """``(joint, mimic, source)`` for each mimic of the model's joints."""
    for joint in model.joints:
        for mimic, where in joint_mimics(joint):
            yield joint, mimic, where


def joint_mimics(joint: Joint) -> Iterator[tuple]:
    """``(mimic, source)`` for each mimic of a joint (URDF's on the joint, SDFormat's on
    an axis)."""
    if joint.mimic is not None:
        yield joint.mimic, joint.source
    for axis in joint.axes:
        if axis.mimic is not None and axis.mimic is not joint.mimic:
            yield axis.mimic, axis.source


def unresolved_reference_reason(reference: str) -> str:
    """Why a ``<gazebo reference>`` that names nothing in the robot is unresolved."""
    if reference == WORLD:
        return f"the URDF root link [{WORLD}] stands for the world and is not written"
    return f"[{reference}] names no link or joint of the robot"


def gazebo_references(model: Model, diagnostics: Diagnostics) -> None:
    """``GAZEBO_REFERENCE_UNRESOLVED`` for each URDF ``<gazebo reference>`` naming no link
    or joint of the robot (urdf2sdf keeps its content on the model)."""
    names = {link.name for link in model.links if link.name != WORLD} | \
        {joint.urdf_name or joint.name for joint in model.joints}
    for block in model.gazebo:
        reference = block.get("reference")
        if reference and reference not in names:
            diagnostics.warning_at(Code.GAZEBO_REFERENCE_UNRESOLVED,
                                   f"<gazebo reference='{reference}'>: "
                                   f"{unresolved_reference_reason(reference)}",
                                   source_of(block, model.source.file))
