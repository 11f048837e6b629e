"""``<gazebo>`` extension blocks: mapped into the SDF elements they refer to."""
from __future__ import annotations

import copy

from core.diagnostics import Code, Diagnostics


def apply_gazebo_extensions(model_el, blocks, elements: dict, diagnostics: Diagnostics,
                            version: str) -> None:
    """Copy each block's content into the link or joint it references (the model when
    it references nothing)."""
    for block in blocks:
        reference = block.get("reference")
        target = model_el if not reference else elements.get(reference)
        if target is None:
            diagnostics.warning(Code.WARNING, f"<gazebo reference='{reference}'> names no link "
                                "or joint; its content is kept on the model",
                                None, block.sourceline)
            target = model_el
        for child in block:
            if isinstance(child.tag, str):
                target.append(copy.deepcopy(child))
