"""Every VALID and INVALID example of the specification documents, as fixtures.

``tests/fixtures/spec/manifest.json`` labels each fixture as the spec does (the
spec is the law; the reference implementation's outcome is recorded beside it):
a valid fixture loads without errors, an invalid one produces its stated codes.
"""
import json
from pathlib import Path

import pytest

from urdf_sdf import Context, load

SPEC = Path(__file__).parent / "fixtures" / "spec"
MANIFEST = json.loads((SPEC / "manifest.json").read_text())


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_spec_example(name):
    entry = MANIFEST[name]
    result = load(SPEC / name, Context())
    errors = [d for d in result.diagnostics if d.is_error]
    if entry["valid"]:
        assert result.ok, "\n".join(d.format() for d in errors)
        warned = {d.code.value for d in result.diagnostics if not d.is_error}
        assert set(entry.get("warnings", [])) <= warned, warned
    else:
        assert not result.ok
        found = {d.code.value for d in errors}
        missing = set(entry["codes"]) - found
        assert not missing, f"missing {missing}; found:\n" + "\n".join(d.format() for d in errors)
        assert all(d.line is not None and d.file for d in errors)


def test_manifest_covers_every_fixture():
    on_disk = {str(p.relative_to(SPEC)) for p in SPEC.rglob("*.sdf")}
    assert on_disk == set(MANIFEST)
