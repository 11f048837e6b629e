"""Text that is safe to show on a terminal or in a log: :func:`escape`.

File names and file contents reach what the commands print (diagnostics, their source
lines, the batch summary, the progress bar), and a file from a pull request is not to be
trusted: an ESC or BEL in a name could drive the terminal (an OSC 52 clipboard write, a
cleared line, colours hiding an error), a newline or carriage return could forge a line
("0 errors"), and a bidi override could make a name read other than it is. So every
character of those kinds is shown as an escape instead:

* the C0 controls U+0000-U+001F (tab, newline and carriage return included) and DEL as
  ``\\x1b``, ``\\n``, ``\\t``, ``\\r``, ``\\x7f``;
* the C1 controls U+0080-U+009F (``\\x9b`` is a CSI on some terminals) as ``\\x9b``;
* the bidi controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line
  and paragraph separators U+2028, U+2029 as ``\\u202e``.

A backslash is shown as it is. The commands escape at the rendering layer, where a name
or a message is printed, never where a message is made: whatever a message holds, it is
shown safely. JSON outputs escape the same characters as ``\\u`` escapes.
"""
from __future__ import annotations

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
         0x2028, 0x2029]
UNSAFE = [*range(0x20), 0x7F, *range(0x80, 0xA0), *_BIDI]
_ESCAPES = {code: _NAMED.get(chr(code), f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
            for code in UNSAFE}
_JSON_ESCAPES = {code: f"\\u{code:04x}" for code in UNSAFE if code >= 0x7F}


def escape(text: str) -> str:
    """``text`` with every control, bidi and line-separator character shown as an escape
    (``\\x1b``, ``\\n``, ``\\u202e``): one line, inert on any terminal."""
    if text.isprintable():  # the common case: nothing to escape (cheap)
        return text
    return text.translate(_ESCAPES)


def escape_json(text: str) -> str:
    """A JSON document's text with DEL, the C1 controls and the bidi controls written as
    ``\\u`` escapes too (``json.dumps`` escapes only U+0000-U+001F; with ``ensure_ascii``
    only DEL is left): the same JSON value, safe to print."""
    return text if text.isprintable() else text.translate(_JSON_ESCAPES)
