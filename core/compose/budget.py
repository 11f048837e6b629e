"""How much includes may bring to one composed model.

A few small files, each including the next twice, grow a model exponentially: 21 files of
160 bytes make a million copies. Every included document is counted as it is read, every
copy of a file as often as it is included: the number of documents and the number of
their elements (``Context.max_included_documents``, ``Context.max_included_elements``).
The include that passes either bound is ``INCLUDE_TOO_LARGE`` at its file:line, and no
include is read after it, so a bomb stops as soon as it passes the bound, never after
expanding. The including file itself is bounded by its size (``core.read.xmlio.MAX_BYTES``).
"""
from __future__ import annotations

from dataclasses import dataclass

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.compose.uri import shown


@dataclass
class IncludeBudget:
    """What the includes of one composition have brought so far (shared by the read
    states of every file it includes)."""
    documents: int = 0
    elements: int = 0
    exhausted: bool = False


def budget_of(state) -> IncludeBudget:
    """The budget of the composition ``state`` (a ``ReadState``) belongs to."""
    if state.include_budget is None:
        state.include_budget = IncludeBudget()
    return state.include_budget


def admit_document(state, uri: str, el) -> bool:
    """Count one more included document for the include ``el``; False (with
    INCLUDE_TOO_LARGE the first time) once the bound on documents is passed."""
    budget = budget_of(state)
    if budget.exhausted:
        return False
    budget.documents += 1
    limit = state.context.max_included_documents
    if budget.documents > limit:
        refuse(state, budget, el, f"<include> of [{shown(uri)}] would read more than {limit:,} "
                                  "included documents into one model (each copy of a file "
                                  "counts)")
        return False
    return True


def admit_elements(state, uri: str, el, root) -> bool:
    """Count the elements of ``root``, the document the include ``el`` read; False (with
    INCLUDE_TOO_LARGE the first time) once the bound on elements is passed."""
    budget = budget_of(state)
    if budget.exhausted:
        return False
    budget.elements += int(root.xpath("count(//*)"))
    limit = state.context.max_included_elements
    if budget.elements > limit:
        refuse(state, budget, el, f"<include> of [{shown(uri)}] brings the elements included "
                                  f"into one model past {limit:,} ({budget.elements:,}, each "
                                  "copy of a file counted)")
        return False
    return True


def refuse(state, budget: IncludeBudget, el, message: str) -> None:
    budget.exhausted = True
    state.error(Code.INCLUDE_TOO_LARGE, message, el)
