"""The classification of every diagnostic code (core.inspect.changes): complete, one
category each, and in step with the severities docs/codes.md gives."""
from __future__ import annotations

from collections import Counter

from tests.core.base.test_diagnostics import documented
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.inspect.changes import _BY_CATEGORY, CATEGORY, Category, category_of


def test_every_code_has_a_category():
    """A code added to the enum without a category here fails: the conversion report
    would not know whether a warning of it changed the output."""
    assert [code.name for code in Code if code not in CATEGORY] == []


def test_every_code_has_exactly_one_category():
    listed = Counter(code for codes in _BY_CATEGORY.values() for code in codes)
    assert [code.name for code, count in listed.items() if count > 1] == []


def test_a_refusal_is_a_code_that_is_only_ever_an_error():
    """A code docs/codes.md gives as a warning, or as an error that is a warning in some
    case, says what a written output holds: it may not be filed as a refusal."""
    rows = {row["code"]: row for row in documented()}
    sometimes_warnings = {Code[name] for name, row in rows.items()
                          if "warning" in row["severity"] or "warning" in row["meaning"]}
    refusals = {code for code, category in CATEGORY.items() if category is Category.REFUSED}
    assert sorted(code.name for code in refusals & sometimes_warnings) == []


def test_the_converters_warnings_that_change_the_output_are_not_notes():
    """The warnings the issue names as carried, approximated, repaired, defaulted and
    dropped content."""
    assert category_of(Code.LINK_INERTIA_REPAIRED) is Category.REPAIRED
    assert category_of(Code.JOINT_APPROXIMATED) is Category.APPROXIMATED
    assert category_of(Code.JOINT_LIMIT_DEFAULTED) is Category.DEFAULTED
    assert category_of(Code.CONTENT_KEPT_IN_GAZEBO) is Category.CARRIED
    assert category_of(Code.URDF_ATTRIBUTE_UNKNOWN) is Category.CARRIED
    assert category_of(Code.FRAME_DROPPED) is Category.DROPPED
    assert category_of(Code.NAME_RENAMED) is Category.RENAMED
