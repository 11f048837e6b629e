"""Values of an SDFormat file are checked where they are read, once.

``core.read.values`` checks the common scalar elements (a number, three numbers, a
colour, a boolean); the reader reads some of them (mass, inertia, sizes, radii): an
unreadable one is reported once, by the check, at its line, and an empty one (which the
check leaves alone) by the reader."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import Code, load, load_string

FIXTURES = Path(__file__).parents[2] / "fixtures" / "core"


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


MODEL = """<sdf version="1.9"><model name="m"><frame name="f"/>
<link name="l"><visual name="v"><pose relative_to="{target}"/><geometry><box><size>1 1 1</size>
</box></geometry><material>{material}</material></visual></link></model></sdf>"""


def test_a_link_element_posed_relative_to_no_frame_of_its_model_is_an_error():
    assert load_string(MODEL.format(target="f", material="")).ok
    result = load_string(MODEL.format(target="nowhere", material=""))
    assert [d.code for d in result.diagnostics if d.is_error] == [Code.POSE_RELATIVE_TO_INVALID]
    assert "relative_to name [nowhere] of the <visual> pose" in result.diagnostics[0].message


def test_a_material_script_without_uri_or_name_is_an_error():
    script = "<script><uri>file://a.material</uri><name>{name}</name></script>"
    assert load_string(MODEL.format(target="f", material=script.format(name="Red"))).ok
    result = load_string(MODEL.format(target="f", material=script.format(name="")))
    assert [(d.code, d.message) for d in result.diagnostics if d.is_error] == [
        (Code.ELEMENT_MISSING, "material <script> has no <name>")]
