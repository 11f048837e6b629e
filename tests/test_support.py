"""The test suite's own machinery (``tests/support.py``, ``tests/conftest.py``): what skips
and what fails without ``../shared`` or a program, the golden comparison, and the
``diagnostics_checked`` fixture. Each check is shown failing where it must fail: a check
that cannot fail would let the suite pass on nothing.
"""
from __future__ import annotations

import pytest

from tests import support
from tests.conftest import pytest_runtest_setup
from tests.support import (
    CheckedDiagnostics,
    assert_xml_equivalent,
    ci_is_set,
    examples,
    full_budgets,
    require,
    shared_cases,
    shared_dir,
    shared_root,
)
from urdf_sdf import Code, load_string
from urdf_sdf.core.base.diagnostics import Diagnostics

A_CYCLE = ('<sdf version="1.9"><model name="m"><link name="A"><pose relative_to="B"/></link>'
           '<link name="B"><pose relative_to="A"/></link></model></sdf>')


@pytest.fixture
def outside_ci(monkeypatch):
    monkeypatch.setattr(support, "IN_CI", False)


@pytest.fixture
def under_ci(monkeypatch):
    monkeypatch.setattr(support, "IN_CI", True)


@pytest.fixture
def shared_elsewhere(monkeypatch, tmp_path):
    """An empty shared directory: every file of it is missing."""
    monkeypatch.setattr(support, "SHARED", tmp_path)
    return tmp_path


# ---- CI and the shared directory ------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [("", False), ("0", False), ("false", False),
                                             ("No", False), (" FALSE ", False), ("true", True),
                                             ("1", True), ("yes", True), ("github", True)])
def test_ci_is_set_unless_empty_zero_false_or_no(value, expected):
    assert ci_is_set({"CI": value}) is expected
    assert ci_is_set({}) is False


def test_shared_root_honours_urdf_sdf_shared(tmp_path):
    assert shared_root({"URDF_SDF_SHARED": str(tmp_path)}) == tmp_path
    assert shared_root({}) == support.REPO.parent / "shared"
    assert shared_root({"URDF_SDF_SHARED": ""}) == support.REPO.parent / "shared"


def test_require_does_nothing_when_available(under_ci):
    require(True, "anything", "no hint needed")


def test_require_skips_outside_ci(outside_ci):
    with pytest.raises(pytest.skip.Exception, match="^the thing is not available: get it$"):
        require(False, "the thing", "get it")


def test_require_fails_under_ci(under_ci):
    with pytest.raises(pytest.fail.Exception, match="^CI is set but the thing is missing: get it$"):
        require(False, "the thing", "get it")


def test_shared_dir_requires_the_path(shared_elsewhere, under_ci):
    (shared_elsewhere / "conformance").mkdir()
    assert shared_dir("conformance") == shared_elsewhere / "conformance"
    with pytest.raises(pytest.fail.Exception, match="URDF_SDF_SHARED"):
        shared_dir("conformance", "expected.json")


def test_shared_cases_stand_in_for_a_missing_folder(shared_elsewhere):
    (shared_elsewhere / "present").mkdir()
    assert shared_cases(["a"], "present") == ["a"]
    cases = shared_cases(["a"], "missing", "folder", arity=2)
    assert cases[0] == "a" and len(cases) == 2
    placeholder = cases[1]
    assert placeholder.id == "shared-missing" and placeholder.values == (None, None)
    [marker] = placeholder.marks
    assert marker.name == "needs_shared" and marker.args == ("missing", "folder")


PLACEHOLDER_TEST = """
import pytest

@pytest.mark.needs_shared("no", "such", "folder")
def test_stands_in_for_shared_files():
    raise AssertionError("the body of a placeholder must never run")
"""


def run_inline(pytester, source: str):
    """``source`` as a test module, run in-process with this suite's conftest."""
    pytester.makeconftest('pytest_plugins = ["tests.conftest"]\n')
    pytester.makepyfile(test_inline=source)
    return pytester.runpytest("-p", "no:cacheprovider", "-rsf")


def test_placeholder_case_skips_outside_ci(pytester, outside_ci):
    result = run_inline(pytester, PLACEHOLDER_TEST)
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*folder is not available: put the project's shared*"])


def test_placeholder_case_fails_under_ci(pytester, under_ci):
    result = run_inline(pytester, PLACEHOLDER_TEST)
    result.assert_outcomes(failed=1)  # a failure of the test, not an error of its setup
    result.stdout.fnmatch_lines(["*CI is set but *folder is missing: put the project's*"])


def test_a_missing_program_skips_outside_ci_and_fails_under_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on it
    monkeypatch.setattr(support, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="liburdfdom-tools"):
        support.check_urdf(tmp_path / "robot.urdf")
    monkeypatch.setattr(support, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="CI is set but Graphviz's dot"):
        support.graphviz_dot()


# ---- goldens compare numbers by value ---------------------------------------------------------

GOLDEN = b"""<?xml version='1.0' encoding='utf-8'?>
<sdf version="1.7">
  <model name="m">
    <!-- a comment -->
    <link name="a"><pose>0.1 0 0.8740325505145430711 0 0 1.5707963267948966</pose></link>
    <joint name="j" type="fixed" xyz="0 0 1e-3"/>
  </model>
</sdf>
"""


def golden_with(old: str, new: str) -> bytes:
    assert old.encode() in GOLDEN, old
    return GOLDEN.replace(old.encode(), new.encode())


@pytest.mark.parametrize("old, new", [
    ("0.8740325505145430711", "0.8740325505145430712"),  # the last printed digit
    ("0.8740325505145430711", "0.87403255051454"),        # within 1e-12 relative
    ("1.5707963267948966", "1.5707963267948963"),
    ("0 0 1e-3", "0 0 0.001"),                            # an attribute, another spelling
    ("0.1 0 0.874", "0.1 1e-16 0.874"),                   # near zero: 1e-15 absolute
    ("<?xml version='1.0' encoding='utf-8'?>\n", ""),     # elements only
], ids=["last-digit", "rel-1e-12", "pi-over-2", "attribute", "near-zero", "declaration"])
def test_goldens_equal_within_the_tolerance(old, new):
    assert_xml_equivalent(golden_with(old, new), GOLDEN)
    assert_xml_equivalent(GOLDEN.decode(), golden_with(old, new))


@pytest.mark.parametrize("old, new", [
    ("0.8740325505145430711", "0.8740325505"),            # beyond 1e-12 relative
    ("0.1 0 0.874", "0.1 1e-14 0.874"),                   # beyond 1e-15 absolute
    ('xyz="0 0 1e-3"', 'xyz="0 0 1e-3 0"'),               # one number more
    ('type="fixed"', 'type="revolute"'),                  # text that is no number
    ('name="a"', 'name="b"'),
    ('<joint name="j" type="fixed" xyz="0 0 1e-3"/>', '<joint name="j" type="fixed"/>'),
    ("<!-- a comment -->", "<!-- another comment -->"),
    ('<joint name="j"', '<frame name="j"'),
    ("</link>", "<visual/></link>"),                      # a child more
    ("0.1 0 0.874", "0.1  0 0.874"),                      # the spacing of a pose
    ('<sdf version="1.7">', '<sdf xmlns:urdf="urn:urdf-sdf:urdf" version="1.7">'),
], ids=["rel", "abs", "count", "word", "name", "attribute-gone", "comment", "tag", "child",
        "spacing", "namespace"])
def test_goldens_differ_beyond_the_tolerance(old, new):
    with pytest.raises(AssertionError, match="differences from"):
        assert_xml_equivalent(golden_with(old, new), GOLDEN)


def test_golden_difference_names_where(tmp_path):
    golden = tmp_path / "robot.sdf"
    golden.write_bytes(GOLDEN)
    with pytest.raises(AssertionError) as info:
        assert_xml_equivalent(golden_with('xyz="0 0 1e-3"', 'xyz="0 0 2e-3"'), golden)
    assert str(golden) in str(info.value)
    assert "/sdf/model[m]/joint[j]/@xyz: '0 0 2e-3' instead of '0 0 1e-3'" in str(info.value)


# ---- diagnostics_checked ----------------------------------------------------------------------

def cycle_diagnostics() -> Diagnostics:
    return load_string(A_CYCLE).diagnostics


def test_taking_returns_the_diagnostic_by_code_or_name():
    checked = CheckedDiagnostics()
    result = load_string(A_CYCLE)
    assert checked.watch(result) is result
    checked.watch(result)  # watched twice, registered once
    taken = checked.take_error("POSE_RELATIVE_TO_CYCLE")
    assert taken.code is Code.POSE_RELATIVE_TO_CYCLE and checked.left == []


def test_take_error_of_a_missing_code_fails():
    checked = CheckedDiagnostics()
    checked.watch(cycle_diagnostics())
    with pytest.raises(pytest.fail.Exception, match=r"no error\[DUPLICATE_NAME\]"):
        checked.take_error(Code.DUPLICATE_NAME)
    with pytest.raises(pytest.fail.Exception, match=r"no warning\[POSE_RELATIVE_TO_CYCLE\]"):
        checked.take_warning(Code.POSE_RELATIVE_TO_CYCLE)  # the severity counts too
    assert len(checked.left) == 1  # a failed take takes nothing


FIXTURE_TESTS = f"""
from urdf_sdf import Code, load_string

A_CYCLE = {A_CYCLE!r}

def test_leaves_a_diagnostic(diagnostics_checked):
    diagnostics_checked.watch(load_string(A_CYCLE))

def test_takes_every_diagnostic(diagnostics_checked):
    diagnostics_checked.watch(load_string(A_CYCLE))
    diagnostics_checked.take_error(Code.POSE_RELATIVE_TO_CYCLE)

def test_takes_a_code_that_is_not_there(diagnostics_checked):
    diagnostics_checked.watch(load_string(A_CYCLE))
    diagnostics_checked.take_error(Code.POSE_RELATIVE_TO_CYCLE)
    diagnostics_checked.take_error(Code.DUPLICATE_NAME)

def test_fails_on_its_own(diagnostics_checked):
    diagnostics_checked.watch(load_string(A_CYCLE))
    assert False, "the test's own failure"
"""


@pytest.fixture
def fixture_run(pytester):
    return run_inline(pytester, FIXTURE_TESTS)


def test_a_diagnostic_left_unchecked_fails_the_test(fixture_run):
    fixture_run.assert_outcomes(passed=2, failed=2, errors=1)
    fixture_run.stdout.fnmatch_lines([
        "*ERROR at teardown of test_leaves_a_diagnostic*",
        "*1 diagnostics left unchecked*",
        "*<input>:1: error[[]POSE_RELATIVE_TO_CYCLE[]]: relative_to cycle: A -> B -> A*"])


def test_take_error_of_a_code_not_there_fails_the_test(fixture_run):
    fixture_run.stdout.fnmatch_lines([
        "*_ test_takes_a_code_that_is_not_there _*",
        "E * Failed: no error[[]DUPLICATE_NAME[]] among the diagnostics not yet taken:",
        "FAILED test_inline.py::test_takes_a_code_that_is_not_there*"])


def test_a_failing_test_is_not_reported_twice(fixture_run):
    output = fixture_run.stdout.str()
    assert "FAILED test_inline.py::test_fails_on_its_own" in output
    assert "teardown of test_fails_on_its_own" not in output


# ---- budgets: full under CI (or URDF_SDF_FULL=1), a share elsewhere --------------------------

def test_full_budgets_under_ci_or_when_asked():
    assert full_budgets({"CI": "true"}) and full_budgets({"URDF_SDF_FULL": "1"})
    assert not full_budgets({}) and not full_budgets({"CI": "false", "URDF_SDF_FULL": "0"})


def test_a_hypothesis_budget_is_whole_under_full_budgets_and_a_share_elsewhere(monkeypatch):
    monkeypatch.setattr(support, "FULL", True)
    assert (examples(300), examples(20)) == (300, 20)
    monkeypatch.setattr(support, "FULL", False)
    assert (examples(300), examples(20)) == (300 // support.LOCAL_SHARE, 10)


class _Marked:
    def get_closest_marker(self, name):
        return object() if name == "slow" else None


def test_a_slow_test_skips_only_outside_full_budgets(monkeypatch):
    monkeypatch.setattr(support, "FULL", True)
    pytest_runtest_setup(_Marked())
    monkeypatch.setattr(support, "FULL", False)
    with pytest.raises(pytest.skip.Exception, match="URDF_SDF_FULL=1"):
        pytest_runtest_setup(_Marked())
