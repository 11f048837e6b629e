"""URDF names with ``::`` written as SDFormat nested models.

``::`` is SDFormat's scope separator, reserved in every name (libsdformat and ``check``
refuse a link named ``arm::upper``), yet it is what sdf2urdf writes for the links, joints
and frames of a composed model: ``arm::upper`` is link ``upper`` of nested model ``arm``.
So urdf2sdf gives the scope back: each link, joint and frame whose name holds ``::`` moves
into the nested model its scope names (made where its first member stood, at the pose of
its parent model: the poses written in the model frame stay true), under the last part of
its name, and every reference to a moved element (``<parent>``, ``<child>``,
``attached_to``, ``relative_to``) is written relative to the model that holds it. A
``<pose>`` relative to an element outside its new scope (``--relative``: a link posed at
a joint of the model above) becomes its pose computed in the model frame.

Joints reaching across nested models need SDFormat 1.8
(``core.read.version.SCOPE_CROSSING_JOINTS``). What nested models cannot hold (a joint or
frame that names a link outside its scope, a scope without a link, a scope named like an
element beside it) is NAME_SCOPE_UNNESTABLE: nothing is written.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import MODEL_FRAME, WORLD, Model
from urdf_sdf.core.read.version import (
    REFERENCE_ELEMENTS,
    SCOPE_CROSSING_JOINTS,
    SEPARATOR,
    Version,
    version_text,
)
from urdf_sdf.core.write.common import pose_text, to_bytes

SCOPED_TAGS = ("link", "joint", "frame")


def has_scoped_names(model: Model) -> bool:
    """Whether a link, joint or frame of ``model`` has a name holding ``::``."""
    return any(SEPARATOR in element.name
               for elements in (model.links, model.joints, model.frames) for element in elements)


def nesting_version(needed: Version) -> Version:
    """The version a model with scoped names needs when ``needed`` would do without them."""
    return max(needed, SCOPE_CROSSING_JOINTS)


def nesting_refused(version: Version, model: Model, diagnostics: Diagnostics) -> bool:
    """VERSION_UNSUPPORTED (and True) when ``--sdf-version`` is below what nested models
    reaching across scopes need."""
    if version >= SCOPE_CROSSING_JOINTS:
        return False
    diagnostics.error(Code.VERSION_UNSUPPORTED, f"names with '::' become nested models, "
                      "whose joints reach across scopes from SDFormat "
                      f"{version_text(SCOPE_CROSSING_JOINTS)} on; --sdf-version "
                      f"{version_text(version)} cannot express them", model.source.file)
    return True


def leaves_scope(name: str, attached_to: str) -> bool:
    """Whether a frame called ``name`` attached to ``attached_to`` would reach out of its
    scope (urdf2sdf keeps such a massless link a link, which a joint of the scope above
    may hold)."""
    return relative(attached_to, split(name)[0]) is None


class Unnestable(Exception):
    """Why the scoped names cannot become nested models (the message)."""


def nest_scopes(xml: bytes, result, diagnostics: Diagnostics) -> bytes | None:
    """The SDF document ``xml`` with its scoped names as nested models (see the module);
    None, and NAME_SCOPE_UNNESTABLE, when nested models cannot hold them. ``result``: the
    URDF's load result, for the model-frame pose of an element whose pose is relative to
    an element outside its scope."""
    root = etree.fromstring(xml)
    model = root.find("model")
    try:
        Nesting(model, result).nest()
    except Unnestable as reason:
        diagnostics.error(Code.NAME_SCOPE_UNNESTABLE, f"{reason}; SDFormat reserves '::' in "
                          "names for the scopes of nested models, and these cannot be "
                          "written as nested models", result.document.file)
        return None
    return to_bytes(root)


def split(name: str) -> tuple[str, str]:
    """``arm::hand::palm`` -> (``arm::hand``, ``palm``); a name without scope -> ("", name)."""
    scope, _, local = name.rpartition(SEPARATOR)
    return scope, local


def relative(reference: str, scope: str) -> str | None:
    """``reference`` (a name in the top model) as named from inside ``scope``; None when
    it lies outside ``scope``. ``world`` and ``__model__`` are themselves everywhere."""
    if not scope or reference in (WORLD, MODEL_FRAME):
        return reference
    prefix = scope + SEPARATOR
    return reference[len(prefix):] if reference.startswith(prefix) else None


class Nesting:
    """Moves the scoped children of one ``<model>`` element into nested models."""

    def __init__(self, model, result):
        self.model = model
        self.result = result
        self.scopes: dict[str, etree._Element] = {"": model}

    def nest(self) -> None:
        scoped = [child for child in self.model
                  if child.tag in SCOPED_TAGS and SEPARATOR in (child.get("name") or "")]
        for child in scoped:
            self.move(child)
        self.check_scopes()

    def scope_model(self, scope: str, before) -> etree._Element:
        """The nested model of ``scope``, made (with those above it) where ``before`` (a
        child of the top model) stands."""
        found = self.scopes.get(scope)
        if found is not None:
            return found
        parent_scope, local = split(scope)
        parent = self.scope_model(parent_scope, before)
        nested = etree.Element("model", name=local)
        if parent is self.model:
            before.addprevious(nested)  # where the first of its members stood
        else:
            parent.append(nested)
        self.scopes[scope] = nested
        return nested

    def move(self, child) -> None:
        name = child.get("name")
        scope, local = split(name)
        if any(not part for part in name.split(SEPARATOR)):  # "::a", "a::", "a::::b"
            raise Unnestable(f"{child.tag} [{name}] has an empty scope or name")
        nested = self.scope_model(scope, child)
        for element in REFERENCE_ELEMENTS:
            node = child.find(element)
            if node is not None and node.text:
                node.text = self.inside(scope, node.text.strip(), f"{child.tag} [{name}]")
        if child.get("attached_to"):
            child.set("attached_to", self.inside(scope, child.get("attached_to"),
                                                 f"{child.tag} [{name}]"))
        self.rebase_pose(child, scope, name)
        child.set("name", local)
        nested.append(child)

    def inside(self, scope: str, reference: str, what: str) -> str:
        named = relative(reference, scope)
        if named is None:
            raise Unnestable(f"{what} names [{reference}], outside its scope [{scope}]")
        return named

    def rebase_pose(self, child, scope: str, name: str) -> None:
        """``relative_to`` written from inside ``scope``; relative to a frame outside it,
        the pose computed in the model frame (every nested model sits at its parent's)."""
        pose = child.find("pose")
        target = pose.get("relative_to") if pose is not None else None
        if not target:
            return
        named = relative(target, scope)
        if named is not None:
            pose.set("relative_to", named)
            return
        computed = self.result.pose(name)
        if computed is None:
            raise Unnestable(f"{child.tag} [{name}] is posed relative to [{target}], outside "
                             f"its scope [{scope}]")
        pose.attrib.clear()
        pose.set("relative_to", MODEL_FRAME)
        pose.text = pose_text(computed)

    def check_scopes(self) -> None:
        """Every nested model holds a link (SDFormat's rule), and no name is both a scope
        and an element beside it."""
        for scope, nested in self.scopes.items():
            if not scope:
                continue
            if nested.find(".//link") is None:
                raise Unnestable(f"scope [{scope}] holds no link")
            parent = nested.getparent()
            name = nested.get("name")
            siblings = [c for c in parent if c is not nested and c.get("name") == name]
            if siblings:
                raise Unnestable(f"[{scope}] names both a scope and a {siblings[0].tag}")
