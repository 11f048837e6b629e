"""Numbers as robot description files write them: the XML-schema ``double`` lexical form
that libsdformat and urdfdom read (``1``, ``-0.5``, ``.5``, ``5.``, ``1e-3``, ``+2E+10``).

Python's ``float()`` is far more lenient (``1_0``, ``infinity``, ``nan``, surrounding
whitespace of any kind), and a file that only this tool reads is a broken file for every
other one, so both readers and the value checks parse numbers here, never with ``float()``
alone. Finite values only, except where a reader allows infinity (an SDFormat joint
limit): then ``inf``/``INF``/``infinity`` with an optional sign too. ``nan`` never.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable

_NUMBER = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_DOUBLE = re.compile(_NUMBER)
# A blank-separated list of them, blanks around allowed: ``\s`` is exactly the set of
# characters ``str.split()`` splits at, so the list's tokens are ``text.split()``.
_DOUBLES = re.compile(rf"\s*(?:{_NUMBER}(?:\s+{_NUMBER})*)?\s*")
_INFINITY = re.compile(r"[+-]?(?:inf|infinity)", re.IGNORECASE)
# A character no number of the form above has (besides blanks): where ``float()`` reads
# more than the form (``1_0``, ``inf``, ``nan``, non-ASCII digits), the text has one.
_NOT_IN_A_NUMBER = re.compile(r"[^0-9eE.+\- \t\r\n]")
# Distinct texts a :class:`NumberMemo` remembers before it starts again (a few megabytes at
# most): more than the distinct values a 10,000-link robot's checks meet; fewer than its
# distinct poses, which mostly occur once, so the repeated ones come back after a restart.
KNOWN_TEXTS = 16384


def parse_double(text: str, allow_infinite: bool = False) -> float | None:
    """The number ``text`` (one token, blanks around it allowed), or None when it is not
    one: not the XML-schema form, or not finite (``1e400`` overflows) unless
    ``allow_infinite``."""
    token = text.strip(" \t\r\n")
    if _DOUBLE.fullmatch(token):
        value = float(token)
        return value if allow_infinite or math.isfinite(value) else None
    if allow_infinite and _INFINITY.fullmatch(token):
        return -math.inf if token.startswith("-") else math.inf
    return None


def parse_doubles(text: str, allow_infinite: bool = False) -> list[float] | None:
    """The numbers of a blank-separated list, or None when any token is not a number.

    The common case costs one ``float()`` per token: a text of the characters numbers are
    written with, each token of which ``float()`` reads, is a list of numbers of the form
    above (``float()`` reads a superset of the form, and what the form lacks needs another
    character). Other texts (other blanks, say) are matched against the form.
    ``tests/test_hardening_crashes.py`` checks the two ways agree."""
    if text.isascii() and not _NOT_IN_A_NUMBER.search(text):
        values = _floats(text)
    elif _DOUBLES.fullmatch(text):
        values = list(map(float, text.split()))
    else:
        values = None
    if values is not None:
        if allow_infinite or (math.inf not in values and -math.inf not in values):
            return values
        return None  # a number too large for a double
    if not allow_infinite:
        return None
    values = []
    for token in text.split():
        value = parse_double(token, allow_infinite)
        if value is None:
            return None
        values.append(value)
    return values


def _floats(text: str) -> list[float] | None:
    try:
        return list(map(float, text.split()))
    except ValueError:
        return None


def matches_number_form(text: str) -> bool:
    """Whether ``text`` is a blank-separated list of numbers of the form above: the
    definition :func:`parse_doubles` agrees with (infinity aside)."""
    return _DOUBLES.fullmatch(text) is not None


def finite_numbers(text: str) -> tuple[float, ...] | None:
    """:func:`parse_doubles` of ``text`` (finite numbers only) as a tuple, what the readers
    keep; the common case (number characters only) without a list in between."""
    if text.isascii() and not _NOT_IN_A_NUMBER.search(text):
        try:
            values = tuple(map(float, text.split()))
        except ValueError:
            return None
        if math.inf in values or -math.inf in values:
            return None  # a number too large for a double
        return values
    parsed = parse_doubles(text)
    return tuple(parsed) if parsed is not None else None


def limit_number(text: str) -> float | None:
    """The one number ``text`` where infinity is allowed (an SDFormat joint limit:
    :func:`parse_double` with ``allow_infinite``), else the one finite number of a list
    of one (:func:`finite_numbers`, which takes other blanks around it); None when it is
    neither."""
    value = parse_double(text, allow_infinite=True)
    if value is None:
        values = finite_numbers(text)
        if values is not None and len(values) == 1:
            value = values[0]
    return value


class NumberMemo(dict):
    """What ``parse`` makes of each distinct text, parsed once: robots repeat a few texts
    (``0``, ``0 0 1``, ``0.01``) everywhere, and a value check parses a text the reader
    reads next. ``memo.get(text)`` (a plain dictionary look-up) or, when that is None (a
    text not met yet, or one that is not numbers), ``memo.read(text)``. After
    :data:`KNOWN_TEXTS` distinct texts the memo starts again, so that memory stays bounded
    whatever the robot, and a run of texts written once (each link's mass) cannot keep
    the repeated ones that follow from being remembered."""
    __slots__ = ("parse",)

    def __init__(self, parse: Callable[[str], object]):
        super().__init__()
        self.parse = parse

    def read(self, text: str):
        """``text`` parsed, and remembered."""
        value = self.parse(text)
        if len(self) >= KNOWN_TEXTS:
            self.clear()
        self[text] = value
        return value

    def value(self, text: str):
        """What ``text`` parses to (:meth:`read` when it is not known)."""
        value = self.get(text)
        return self.read(text) if value is None else value
