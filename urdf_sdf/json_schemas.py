"""The JSON Schemas of the commands' machine output (``urdf-sdf check --json``,
``urdf-sdf diff --json``, ``urdf2sdf``/``sdf2urdf FILE --json`` with its ``--report``),
shipped with the package in ``urdf_sdf/schemas/``.

Their ``$id`` ends in a version (``urn:urdf-sdf:schema:check:1``): a change that could
break a reader (a field removed or retyped) makes a new version; new optional fields do
not. ``tests/urdf_sdf/test_json_schemas.py`` checks every output shape against them.
"""
from __future__ import annotations

import json
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SCHEMAS = ("check", "diff", "conversion")


def schema_path(name: str) -> Path:
    """The file of schema ``name`` (one of :data:`SCHEMAS`)."""
    if name not in SCHEMAS:
        raise ValueError(f"no JSON schema named {name!r} (there are {', '.join(SCHEMAS)})")
    return SCHEMA_DIR / f"{name}.schema.json"


def json_schema(name: str) -> dict:
    """Schema ``name`` as a dict, e.g. ``jsonschema.validate(output, json_schema("diff"))``."""
    return json.loads(schema_path(name).read_text(encoding="utf-8"))
