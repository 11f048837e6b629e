"""Bytes that are not UTF-8 (a file name, an argument: lone surrogates once Python has
decoded them) are shown as ``\\xNN`` text, on the terminal (:func:`escape`) and in JSON
(:func:`json_strings`): one rule, and never a lone surrogate in what we print."""
from __future__ import annotations

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from urdf_sdf.core.base.safe_text import escape, escape_json, json_strings, undecodable_escaped

NAME = os.fsdecode(b"robot\xff\x9b\xc3\xa9.urdf")  # 0xff, 0x9b: not UTF-8; then a real é


def test_an_undecodable_byte_is_shown_as_the_byte_it_was():
    assert escape(NAME) == "robot\\xff\\x9bé.urdf"
    assert undecodable_escaped(NAME) == "robot\\xff\\x9bé.urdf"


def test_a_surrogate_that_stands_for_no_byte_is_shown_as_its_code_point():
    assert escape("a\ud800b\udfffc") == "a\\ud800b\\udfffc"
    assert undecodable_escaped("a\ud800b") == "a\\ud800b"


def test_the_terminal_keeps_control_escapes_and_json_leaves_them_to_the_encoder():
    assert escape(NAME + "\x1b") == "robot\\xff\\x9bé.urdf\\x1b"
    assert undecodable_escaped(NAME + "\x1b") == "robot\\xff\\x9bé.urdf\x1b"


def test_text_that_is_utf_8_is_kept_as_it_is():
    for text in ("plain", "ünïcode 名前 \U0001f916", ""):
        assert undecodable_escaped(text) is text
        assert json_strings({text: [text]}) == {text: [text]}


def test_json_strings_reach_keys_values_and_nested_lists():
    data = {"file": NAME, NAME: [NAME, (1, None, True, 2.5)], "n": 3}
    assert json_strings(data) == {"file": "robot\\xff\\x9bé.urdf",
                                  "robot\\xff\\x9bé.urdf": ["robot\\xff\\x9bé.urdf",
                                                            [1, None, True, 2.5]],
                                  "n": 3}


@settings(deadline=None)  # the first example imports the JSON writer: slow on a busy machine
@given(st.binary(max_size=20), st.text(max_size=5))
def test_any_bytes_give_valid_utf_8_json_and_terminal_text(raw, text):
    name = os.fsdecode(raw) + text
    printed = escape_json(json.dumps({"file": json_strings(name)})).encode("utf-8")
    value = json.loads(printed.decode("utf-8", "strict"))["file"]
    value.encode("utf-8")  # no lone surrogate: a strict parser takes it
    assert value == undecodable_escaped(name)  # the value, every other character kept
    escape(name).encode("utf-8")
