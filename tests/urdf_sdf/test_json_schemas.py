"""``check --json``, ``diff --json`` and the converters' ``--json`` (with ``--report``)
against the JSON Schemas shipped in
``urdf_sdf/schemas``: every shape the commands print (valid, invalid, parity held or not,
xacro line mapping, equivalent, different, not comparable) validates, and the schemas
stay in step with the code (every diagnostic code, every difference kind)."""
from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import urdf_sdf.core
from urdf_sdf import Code, json_schema
from urdf_sdf.cli.main import app, sdf2urdf_app, urdf2sdf_app
from urdf_sdf.json_schemas import SCHEMAS, schema_path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"


def run_json(*args: str) -> dict:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code in (0, 1, 3), result.output  # diff: 3 not compared
    return json.loads(result.stdout)


def assert_valid(output: dict, name: str) -> None:
    jsonschema.Draft202012Validator(json_schema(name)).validate(output)


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_a_valid_draft_2020_12_schema(name):
    jsonschema.Draft202012Validator.check_schema(json_schema(name))


CHECK_CASES = {
    "valid": ("check", str(ROOT / "samples" / "pendulum.urdf")),
    "invalid": ("check", str(FIXTURES / "urdf" / "urdf_duplicate_link.urdf")),
    "warnings": ("check", str(FIXTURES / "cli" / "massless_link_warning.urdf")),
    "parity holds": ("check", str(FIXTURES / "parity" / "parity_holds_relative_to.sdf"),
                     "--urdf-parity"),
    "parity fails": ("check", str(FIXTURES / "parity" / "parity_axis_frame.sdf"),
                     "--urdf-parity"),
    "xacro": ("check", str(FIXTURES / "cli" / "expands_to_invalid.urdf.xacro"), "--xacro"),
}


@pytest.mark.parametrize("case", sorted(CHECK_CASES))
def test_check_json_follows_its_schema(case):
    output = run_json(*CHECK_CASES[case])
    assert_valid(output, "check")
    if case.startswith("parity"):
        assert output["parity"]["holds"] is (case == "parity holds")
    else:
        assert output["parity"] is None
    assert output["valid"] is (case not in ("invalid", "xacro"))


def test_check_json_of_a_xacro_error_maps_its_line():
    output = run_json(*CHECK_CASES["xacro"])
    assert any("expanded_line" in d for d in output["diagnostics"])


DIFF_CASES = {
    "equivalent": (ROOT / "samples" / "arm6.urdf", ROOT / "samples" / "arm6.sdf"),
    "different": (ROOT / "samples" / "pendulum.urdf", ROOT / "samples" / "arm6.urdf"),
    "not comparable": (ROOT / "samples" / "pendulum.urdf",
                       FIXTURES / "urdf" / "urdf_duplicate_link.urdf"),
}


@pytest.mark.parametrize("case", sorted(DIFF_CASES))
def test_diff_json_follows_its_schema(case):
    a, b = DIFF_CASES[case]
    output = run_json("diff", str(a), str(b))
    assert_valid(output, "diff")
    assert output["equivalent"] is (case == "equivalent")
    assert output["compared"] is (case != "not comparable")


def test_diff_json_marks_causes_and_dependents(tmp_path):
    fixtures = FIXTURES / "diff"
    output = run_json("diff", str(fixtures / "cause_one_rpy_edit.urdf"),
                      str(fixtures / "cause_one_rpy_edit.edited.urdf"))
    assert_valid(output, "diff")
    roles = [d["role"] for d in output["differences"]]
    assert roles == ["cause"] + ["dependent"] * 9
    assert output["summary"] == "1 cause, 9 dependent differences"


def test_schema_rejects_an_output_that_breaks_it():
    """The schemas constrain: a wrong shape fails (the tests above cannot pass vacuously)."""
    with pytest.raises(jsonschema.ValidationError):
        assert_valid({"equivalent": True, "compared": True, "summary": "equivalent",
                      "differences": [{"kind": "pose", "name": "tip", "message": "moved",
                                       "role": "cause"}]}, "diff")
    with pytest.raises(jsonschema.ValidationError):  # a dependent names its causes
        assert_valid({"equivalent": False, "compared": True, "summary": "1 cause",
                      "differences": [{"kind": "pose", "name": "tip", "message": "moved",
                                       "role": "dependent"}]}, "diff")
    with pytest.raises(jsonschema.ValidationError):
        assert_valid({"ok": True, "file": "f", "valid": True, "parity": None,
                      "diagnostics": [{"code": "NO_SUCH_CODE", "severity": "error",
                                       "message": "m", "file": "f", "line": 1}]}, "check")


def test_schema_lists_every_diagnostic_code():
    codes = json_schema("check")["$defs"]["diagnostic"]["properties"]["code"]["enum"]
    assert codes == [code.value for code in Code]


def test_schema_lists_every_difference_kind():
    source = "".join(path.read_text() for path in sorted((ROOT / "core" / "diff").glob("*.py")))
    kinds = json_schema("diff")["properties"]["differences"]["items"]["properties"]["kind"]
    assert {k for k in kinds["enum"] if f'Difference("{k}"' in source} == set(kinds["enum"])
    assert source.count("Difference(\"") == sum(source.count(f'Difference("{k}"')
                                                 for k in kinds["enum"])


def test_schemas_are_installed_with_the_package():
    """A regular (non-editable) install ships the schema files as package data."""
    if ROOT in Path(urdf_sdf.core.__file__).resolve().parents:
        pytest.skip("an editable install: the package is the clone itself")
    files = metadata.files("urdf-sdf") or []
    shipped = {str(f) for f in files if str(f).startswith("urdf_sdf/schemas/")}
    assert shipped == {f"urdf_sdf/schemas/{name}.schema.json" for name in SCHEMAS}
    assert all(schema_path(name).is_file() for name in SCHEMAS)


@pytest.mark.parametrize("args", [("urdf2sdf", "samples/arm6.urdf"),
                                  ("urdf2sdf", "samples/arm6.urdf", "--report"),
                                  ("sdf2urdf", "samples/diff_drive.sdf", "--report"),
                                  ("urdf2sdf", "tests/fixtures/urdf/urdf_duplicate_link.urdf",
                                   "--report")], ids=" ".join)
def test_converter_json_follows_the_conversion_schema(args):
    app_of = {"urdf2sdf": urdf2sdf_app, "sdf2urdf": sdf2urdf_app}
    result = CliRunner().invoke(app_of[args[0]], [str(ROOT / args[1]), *args[2:], "--json"])
    output = json.loads(result.stdout)
    assert_valid(output, "conversion")
    assert ("report" in output) is ("--report" in args)
    assert output["ok"] is (result.exit_code == 0)
