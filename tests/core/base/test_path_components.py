"""The one rule of a path component taken from an input: never empty, ``.``, ``..``, a
separator, a control character or a byte that is not UTF-8 (which XML, JSON and
``model://NAME`` cannot hold as text)."""
from __future__ import annotations

import os

import pytest

from urdf_sdf.core.base.path_components import component_problem, without_unsafe_characters


@pytest.mark.parametrize("name, problem", [
    ("", "is empty"), ("..", "is empty, '.' or '..'"), ("a/b", "holds a path separator"),
    ("a\\b", "holds a path separator"), ("a\x1bb", "holds a control character"),
    (os.fsdecode(b"r\xff"), "is not UTF-8 text"), ("robot_ü名", None), ("-x", None)])
def test_component_problem(name, problem):
    assert component_problem(name) == problem


def test_unsafe_characters_become_underscores():
    assert without_unsafe_characters(os.fsdecode(b"r\xff\x1b/\\x\xc3\xa9")) == "r____xé"
