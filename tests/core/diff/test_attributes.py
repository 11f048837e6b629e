"""``core.diff.attributes``: an attribute URDF does not define whose value differs, or that
one side only has, is a difference naming the element, the attribute and both values, in
any mix of URDF and SDF; what the converters carry compares equal."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import Context, load
from urdf_sdf.core.diff.compare import diff_files
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "urdf" / \
    "urdf_attributes_unknown_on_every_element.urdf"


def edited(tmp_path: Path, old: str, new: str, name: str = "edited.urdf") -> Path:
    text = FIXTURE.read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


def as_sdf(path: Path, tmp_path: Path, relative: bool = False) -> Path:
    conversion = convert_urdf(load(path, Context()), ToSdf(relative=relative))
    assert conversion.ok, conversion.diagnostics
    out = tmp_path / f"{path.stem}{'.relative' if relative else ''}.sdf"
    out.write_bytes(conversion.xml)
    return out


def test_what_urdf2sdf_carries_compares_equal(tmp_path):
    assert diff_files(str(FIXTURE), str(as_sdf(FIXTURE, tmp_path))) == []
    assert diff_files(str(FIXTURE), str(as_sdf(FIXTURE, tmp_path, relative=True))) == []


def test_a_changed_value_names_the_element_the_attribute_and_both_values(tmp_path):
    other = edited(tmp_path, 'drake:acceleration="15"', 'drake:acceleration="3"')
    differences = diff_files(str(FIXTURE), str(other))
    assert [(d.kind, d.name, d.property, d.message) for d in differences] == [
        ("joint", "shoulder_pan_joint", "attribute drake:acceleration",
         '<limit> attribute drake:acceleration "15" in A, "3" in B')]


def test_an_attribute_of_one_side_only_is_a_difference(tmp_path):
    other = edited(tmp_path, ' drake:margin="0.001"', "")
    differences = diff_files(str(FIXTURE), str(other))
    assert [(d.kind, d.name, d.message) for d in differences] == [
        ("link", "base_link",
         '<collision[1]/geometry/box> attribute drake:margin only in A ("0.001")')]
    differences = diff_files(str(other), str(FIXTURE))
    assert [d.message for d in differences] == [
        '<collision[1]/geometry/box> attribute drake:margin only in B ("0.001")']


def test_an_sdf_whose_carried_value_changed_differs_from_the_urdf(tmp_path):
    sdf = as_sdf(FIXTURE, tmp_path)
    text = sdf.read_text()
    assert 'unit="kg"' in text
    sdf.write_text(text.replace('unit="kg"', 'unit="g"'))
    differences = diff_files(str(FIXTURE), str(sdf))
    assert [(d.kind, d.name, d.message) for d in differences] == [
        ("link", "base_link", '<inertial/mass> attribute unit "kg" in A, "g" in B')]


def test_a_link_attribute_of_the_robot_and_a_frame(tmp_path):
    plain = edited(tmp_path, "</robot>", '<frame name="tool" link="shoulder_link" drake:f="1"/>'
                   "</robot>", "frame.urdf")
    other = edited(tmp_path, "</robot>", '<frame name="tool" link="shoulder_link" drake:f="2"/>'
                   "</robot>", "frame2.urdf")
    differences = diff_files(str(plain), str(other))
    assert [(d.kind, d.name, d.message) for d in differences] == [
        ("frame", "tool", 'attribute drake:f "1" in A, "2" in B')]
    assert diff_files(str(plain), str(as_sdf(plain, tmp_path))) == []


SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "sdf2urdf" / \
    "shape_attributes_carried_or_named.sdf"


def test_a_shapes_attribute_sdf2urdf_cannot_carry_is_lost(tmp_path):
    """sdf2urdf carries a visual's and a collision's attributes onto the URDF shape (equal)
    and drops the one of a box's ``<size>``: only in the SDF."""
    conversion = convert_sdf(load(SHAPES, Context()), ToUrdf())
    assert conversion.ok, conversion.diagnostics
    out = tmp_path / "robot.urdf"
    out.write_bytes(conversion.xml)
    differences = diff_files(str(SHAPES), str(out))
    assert [(d.kind, d.name, d.message) for d in differences] == [
        ("link", "chassis",
         '<visual[1]/geometry/box/size> attribute custom:test only in A ("bar")')]
    assert diff_files(str(SHAPES), str(SHAPES)) == []
