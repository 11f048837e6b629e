"""URDF names with whitespace around them (``<link name="a ">``).

URDF keeps such a name as written, but SDFormat readers trim every attribute value and
element text they read (libsdformat does; so does ``core.read``): the SDF's link ``a `` is
link ``a``, and its joints' ``<parent>a </parent>`` finds it. So the name is written as it
is, which every SDFormat reader reads as the trimmed name, with a warning that says so;
where trimming makes the name another link's or joint's, the SDF would hold one name
twice, and nothing is written.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import Model


def check_padded_names(model: Model, diagnostics: Diagnostics) -> bool:
    """Warn about each link and joint whose name has whitespace around it; report an error
    and return False when a trimmed name is already another link's or joint's."""
    padded = [("link", link) for link in model.links if link.name != link.name.strip()] + \
        [("joint", joint) for joint in model.joints if joint.name != joint.name.strip()]
    if not padded:
        return True
    taken = {link.name for link in model.links} | {joint.name for joint in model.joints}
    ok = True
    for kind, element in padded:
        trimmed = element.name.strip()
        if trimmed in taken:
            diagnostics.error_at(Code.DUPLICATE_NAME, f"{kind} [{element.name}]: SDFormat "
                                 "readers trim the whitespace around a name, and "
                                 f"[{trimmed}] is already the name of another link or joint",
                                 element.source)
            ok = False
        else:
            diagnostics.warning_at(Code.NAME_RENAMED, f"{kind} [{element.name}]: SDFormat readers "
                                   "trim the whitespace around a name: the SDF's "
                                   f"{kind} is [{trimmed}]", element.source)
        taken.add(trimmed)
    return ok
