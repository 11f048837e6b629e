"""Values of an SDFormat file are checked where they are read, once.

``core.read.values`` checks the common scalar elements (a number, three numbers, a
colour, a boolean); the reader reads some of them (mass, inertia, sizes, radii): an
unreadable one is reported once, by the check, at its line, and an empty one (which the
check leaves alone) by the reader."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import Code, load

FIXTURES = Path(__file__).parent / "fixtures" / "core"


def test_an_unreadable_value_is_reported_once_at_its_line(diagnostics_checked):
    result = diagnostics_checked.watch(load(FIXTURES / "sdf_unreadable_values_reported_once.sdf"))
    assert not result.ok
    found = [diagnostics_checked.take_error(Code.ELEMENT_INVALID) for _ in range(4)]
    assert [(d.line, d.message) for d in found] == [
        (6, "<mass> value 'heavy' is not a number"),
        (8, "<ixx> value '1_0' is not a number"),
        (16, "<size> value '1 2' is not three numbers"),
        (23, "<radius> value '' is not a number"),
    ]
