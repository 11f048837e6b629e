"""Pause Python's cycle collector while a large model is built.

Loading or converting a model allocates hundreds of thousands of small objects
that live as long as the model; the cycle collector would scan them again and
again as they accumulate (about a quarter of the load time at 10,000 links).
Collection simply resumes afterwards, and nothing cyclic is lost.
"""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def gc_paused():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
