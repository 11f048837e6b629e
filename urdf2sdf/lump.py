"""``--lump-fixed``: merge fixed-joint children into their parents."""
from __future__ import annotations

from core.diagnostics import Code, Diagnostics


def lump_fixed_joints(model, result, diagnostics: Diagnostics):
    diagnostics.error(Code.WARNING, "--lump-fixed is not available yet", model.source.file)
    return model, []
