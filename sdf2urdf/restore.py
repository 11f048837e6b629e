"""What urdf2sdf carried through the SDF in the ``urdf:`` namespace (see ``core.base.custom``),
given back to the URDF it came from.

* Elements URDF defines but SDF cannot hold are restored where they belong by the
  converter (materials, transmissions, calibration, floating joints...).
* Elements the URDF reader did not know (a typo, pybullet's ``<contact>``, the
  ``<sensor>`` extension, ``drake:`` elements) come back unchanged in the same element:
  :func:`carried_copies`.
* ``<urdf:gazebo>`` content, which urdf2sdf could not map to SDF, becomes a ``<gazebo>``
  block referencing the same link or joint again: :func:`gazebo_blocks`. The converter
  writes it after the blocks of SDF content it keeps, so that urdf2sdf, reading them in
  order, writes the same SDF again (kept content extends what those blocks make).
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.base.custom import DRAKE_NS, URDF_NS, custom_children, markup, plain_copy
from urdf_sdf.core.base.diagnostics import Code, Source
from urdf_sdf.core.base.model import Link


def carried_children(el) -> list:
    """What urdf2sdf carried in ``el`` (its ``<urdf:carried>`` containers' children), and
    elements of other namespaces that ``el`` holds itself (custom SDF content)."""
    if el is None:
        return []
    found: list = []
    for container in custom_children(el, "carried"):
        found.extend(c for c in container if isinstance(c.tag, str))
    found.extend(c for c in el if isinstance(c.tag, str) and c.tag.startswith("{")
                 and not c.tag.startswith(f"{{{URDF_NS}}}"))
    return found


def carried_copies(sdf_el) -> list:
    """Copies of what urdf2sdf carried in ``sdf_el``, unchanged, for the URDF element it
    came from."""
    return [plain_copy(child) for child in carried_children(sdf_el)]


def model_carried(model_el, warn) -> list:
    """:func:`carried_copies` of a model, but for Drake's ``<drake:joint>``: libsdformat,
    whose reading the URDF follows, ignores it, and Drake's URDF parser refuses its
    SDFormat form (``<drake:parent>``: "joint doesn't have a parent node"), so a copy
    would make a file Drake cannot load. It is left out, named by ``warn``
    (``JOINT_DROPPED``)."""
    kept = []
    for child in carried_children(model_el):
        if child.tag == f"{{{DRAKE_NS}}}joint":
            warn(Code.JOINT_DROPPED,
                 f"<drake:joint> [{child.get('name')}] dropped: libsdformat ignores Drake's "
                 "joint and Drake refuses its SDFormat form in a URDF",
                 Source(None, child.sourceline))
        else:
            kept.append(plain_copy(child))
    return kept


def gazebo_blocks(sdf_el, reference: str | None) -> list:
    """``<gazebo reference=...>`` blocks for the ``<urdf:gazebo>`` content of ``sdf_el``
    (a link, joint or model); a model-level block keeps the reference it was kept with."""
    blocks = []
    for kept in custom_children(sdf_el, "gazebo"):
        block = etree.Element("gazebo")
        target = kept.get("reference") or reference
        if target:
            block.set("reference", target)
        block.extend(plain_copy(child) for child in kept if isinstance(child.tag, str))
        blocks.append(block)
    return blocks


def has_implicit_inertial(link: Link) -> bool:
    """The SDF inertial urdf2sdf wrote for a URDF link without ``<inertial>`` (mass 0,
    ``urdf:implicit``): the URDF gets no ``<inertial>`` back, as it had none."""
    return link.inertial is not None and markup(link.inertial, "implicit") == "true"
