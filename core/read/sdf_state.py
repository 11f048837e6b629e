"""What every SDFormat reader function shares: the read state (where we are, where
findings go), children looked up by tag, and values (numbers, booleans) read and checked
where they are read.

Numbers are parsed once per distinct text: ``core.read.values`` checks a value before
the reader reads it, and robots repeat a few texts (``0``, ``0 0 0``, ``0.01``)
everywhere; the state's memos (``core.read.numbers.NumberMemo``) remember what each text
parsed to. A value the check found unreadable (``ReadState.reported``) is not reported a
second time by the reader.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, overload

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Diagnostics, Source
from urdf_sdf.core.read.consume import Consumer
from urdf_sdf.core.read.numbers import NumberMemo, finite_numbers, limit_number
from urdf_sdf.core.read.prefixes import tag_of

# Makes a Source as ``Source(file, line)`` does, without the Python-level ``__new__`` of
# a named tuple: the reader makes one per element it reads.
_new_tuple = tuple.__new__


@dataclass
class ReadState:
    """What every reader function needs: where we are and where findings go."""
    file: str | None
    version: tuple[int, int]
    diagnostics: Diagnostics
    context: Context
    include_stack: tuple[str, ...] = ()
    # Names of the models being read, outermost first (for absolute model names).
    model_path: list[str] = field(default_factory=list)
    # Reads an <include> into the model or world being read: composition's
    # read_include(el, state, parent), given by the loader.
    include_reader: Callable[[Any, ReadState, Any], None] | None = None
    # Deletes the link and joint elements once read when the XML is not kept (made from
    # the context's keep_xml).
    consumer: Consumer = field(init=False)
    # What the includes of the composition have brought so far (core.compose.budget),
    # shared by the states of every file it includes; made at the first include.
    include_budget: Any = None
    # What each number text parsed to: ``numbers``, the finite numbers of a blank-separated
    # text (None: not a list of numbers), for the value checks and the reader; ``poses``
    # the same for ``<pose>`` texts, remembered apart (a model's poses are mostly written
    # once each, and would take the place of the values written again and again);
    # ``limits`` a number that may be infinite (joint limits).
    numbers: NumberMemo = field(default_factory=lambda: NumberMemo(finite_numbers))
    poses: NumberMemo = field(default_factory=lambda: NumberMemo(finite_numbers))
    limits: NumberMemo = field(default_factory=lambda: NumberMemo(limit_number))
    # Value elements core.read.values found unreadable (and reported).
    reported: set = field(default_factory=set)
    # Counts the elements read that hold what the model does not and a converter copies
    # as XML (sensors, surfaces, rich materials, custom content...): their link or joint
    # keeps its XML even when the XML is not kept (core.read.sdf.read_model_children).
    extra_content: int = 0

    def __post_init__(self) -> None:
        self.consumer = Consumer(self.context.keep_xml)

    def src(self, el) -> Source:
        return _new_tuple(Source, (self.file, el.sourceline if el is not None else None))

    def error(self, code: Code, message: str, el=None) -> None:
        self.diagnostics.error_at(code, message, self.src(el))

    def warning(self, code: Code, message: str, el=None) -> None:
        self.diagnostics.warning_at(code, message, self.src(el))

    def read_include(self, el, parent) -> None:
        """Add what ``<include>`` ``el`` brings to ``parent`` (a Model or World)."""
        if self.include_reader is None:
            self.error(Code.ELEMENT_INVALID, "<include> is not read here: this reader was "
                       "called without composition (use core.loader.load)", el)
            return
        self.include_reader(el, self, parent)


def children(el, tag: str):
    return [c for c in el if c.tag == tag]


def child(el, tag: str):
    for c in el:
        if c.tag == tag:
            return c
    return None


def child_text(el, tag: str) -> str | None:
    c = child(el, tag)
    if c is None:
        return None
    return (c.text or "").strip()


def parts_of(el, tags: tuple[str, ...], allowed) -> tuple[dict, bool]:
    """The first child of ``el`` of each tag in ``tags``, and whether ``el`` has an
    element child whose tag is not in ``allowed`` (one pass over the children)."""
    found: dict = {}
    other = False
    for c in el:
        tag = c.tag
        if tag in tags:
            if tag not in found:
                found[tag] = c
        elif tag not in allowed and isinstance(tag, str):
            other = True
    return found, other


def required_name(el, state: ReadState) -> str | None:
    """The ``name`` attribute, without surrounding whitespace: libsdformat trims every
    attribute value it reads (``<link name="a ">`` is link ``a``)."""
    name = el.get("name")
    if name is None:
        state.error(Code.ATTRIBUTE_MISSING,
                    f"required attribute [name] in element <{tag_of(el)}> is not specified", el)
        return None
    return name.strip()


def read_bool(el, state: ReadState, default: bool = False) -> bool:
    if el is None:
        return default
    text = (el.text or "").strip().lower()
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    state.error(Code.ELEMENT_INVALID, f"<{tag_of(el)}> value {text!r} is not a boolean", el)
    return default


def read_vector3(el, state: ReadState) -> tuple[float, float, float] | None:
    numbers = state.numbers.value(el.text or "")
    if numbers is None or len(numbers) != 3:
        report_unreadable(el, "three numbers", state)
        return None
    return numbers


@overload
def read_double(el, state: ReadState, default: float, allow_infinite: bool = False) -> float:
    ...


@overload
def read_double(el, state: ReadState, default: None,
                allow_infinite: bool = False) -> float | None:
    ...


def read_double(el, state: ReadState, default: float | None,
                allow_infinite: bool = False) -> float | None:
    """The number ``el`` holds; ``default`` when there is no ``el`` or (reported) it holds
    none."""
    if el is None:
        return default
    text = el.text or ""
    if allow_infinite:
        value = state.limits.get(text)  # None: not known, or not a number
        if value is None:
            value = state.limits.read(text)
        if value is None:
            report_unreadable(el, "a number", state)
            return default
        return value
    numbers = state.numbers.get(text)
    if numbers is None:
        numbers = state.numbers.read(text)
    if numbers is None or len(numbers) != 1:
        report_unreadable(el, "a number", state)
        return default
    return numbers[0]


def report_unreadable(el, what: str, state: ReadState) -> None:
    """ELEMENT_INVALID for a value of ``el`` that is not ``what``, once per element."""
    if el not in state.reported:
        state.error(Code.ELEMENT_INVALID, f"<{tag_of(el)}> value {(el.text or '').strip()!r} "
                    f"is not {what}", el)
