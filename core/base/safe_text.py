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
  and paragraph separators U+2028, U+2029 as ``\\u202e``;
* bytes that are not UTF-8 (a file name, a command-line argument or an environment
  variable holding them reaches Python as a lone surrogate, U+DC80-U+DCFF: the
  ``surrogateescape`` of ``os.fsdecode``) as the byte they stand for, ``\\xff``; any
  other lone surrogate as ``\\udc00``.

A backslash is shown as it is. The commands escape at the rendering layer, where a name
or a message is printed, never where a message is made: whatever a message holds, it is
shown safely. JSON outputs escape the same characters as ``\\u`` escapes
(:func:`escape_json`), and an undecodable byte as the same ``\\xff`` text as the
terminal shows (:func:`json_strings`): the JSON is valid UTF-8 and holds no lone
surrogate, which strict parsers refuse.
"""
from __future__ import annotations

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
         0x2028, 0x2029]
UNSAFE = [*range(0x20), 0x7F, *range(0x80, 0xA0), *_BIDI]
# A lone surrogate: U+DC80-U+DCFF is the byte 0x80-0xFF that was not UTF-8.
_SURROGATES = {code: f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"
               for code in range(0xD800, 0xE000)}
_ESCAPES = {**{code: _NAMED.get(chr(code), f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
               for code in UNSAFE}, **_SURROGATES}
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


def undecodable_escaped(text: str) -> str:
    """``text`` with each byte that was not UTF-8 (a lone surrogate) as ``\\xff`` text,
    every other character as it is."""
    if text.isascii():  # the common case (cheap)
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.translate(_SURROGATES)
    return text


def json_strings(value):
    """``value`` (what a JSON output holds: dicts, lists, tuples, strings, numbers, None)
    with every string, key or value, :func:`undecodable_escaped`."""
    if isinstance(value, str):
        return undecodable_escaped(value)
    if isinstance(value, dict):
        return {json_strings(key): json_strings(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_strings(item) for item in value]
    return value
