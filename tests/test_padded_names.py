"""Names with whitespace around them: SDFormat readers trim them, URDF keeps them.

Found converting a URDF whose link name ended in a tab: urdf2sdf wrote the name as it was,
and the core's SDF reader kept the link's ``name`` attribute whole but trimmed the joint's
``<parent>`` text, so the SDF it had just written did not load. libsdformat trims both.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.loader import load_string
from urdf_sdf.urdf2sdf.convert import ToSdf, convert_urdf

PADDED_SDF = """<sdf version="1.9">
  <model name=" padded ">
    <link name="a&#9;"/>
    <link name=" b"/>
    <joint name="j " type="revolute">
      <parent>a</parent>
      <child> b </child>
      <axis><xyz>0 0 1</xyz></axis>
    </joint>
    <frame name="f " attached_to=" b"/>
  </model>
</sdf>
"""

PADDED_URDF = """<robot name="r">
  <link name="a&#9;"/>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="continuous">
    <parent link="a&#9;"/>
    <child link="b"/>
  </joint>
</robot>
"""

# Trimmed, the second link's name is the first's.
COLLIDING_URDF = """<robot name="r">
  <link name="a"/>
  <link name=" a"/>
  <joint name="j" type="fixed">
    <parent link="a"/>
    <child link=" a"/>
  </joint>
</robot>
"""


def test_sdf_names_are_read_trimmed_as_libsdformat_reads_them(tmp_path, sdf_reference):
    path = tmp_path / "padded.sdf"
    path.write_text(PADDED_SDF)
    result = load_string(PADDED_SDF, str(path))
    assert result.ok, [d.format() for d in result.diagnostics]
    model = result.document.model
    assert model.name == "padded"
    assert [link.name for link in model.links] == ["a", "b"]
    assert [(j.name, j.parent, j.child) for j in model.joints] == [("j", "a", "b")]
    assert [frame.name for frame in model.frames] == ["f"]
    reference = sdf_reference(path)
    assert reference["ok"] and sorted(reference["links"]) == ["a", "b"]
    assert list(reference["joints"]) == ["j"] and list(reference["frames"]) == ["f"]


def test_urdf2sdf_warns_of_a_padded_name_and_writes_an_sdf_that_loads(diagnostics_checked):
    urdf = load_string(PADDED_URDF, "padded.urdf")
    conversion = convert_urdf(urdf, ToSdf(relative=True))
    diagnostics_checked.watch(conversion.diagnostics)
    warning = diagnostics_checked.take_warning(Code.NAME_RENAMED)
    assert "link [a\t]" in warning.message and "the SDF's link is [a]" in warning.message
    assert warning.line == 2
    sdf = load_string(conversion.xml, "padded.sdf")
    assert sdf.ok, [d.format() for d in sdf.diagnostics]
    assert [link.name for link in sdf.document.model.links] == ["a", "b"]
    assert sdf.document.model.joints[0].parent == "a"


def test_urdf2sdf_refuses_a_name_that_trimmed_is_another(diagnostics_checked):
    urdf = load_string(COLLIDING_URDF, "colliding.urdf")
    conversion = convert_urdf(urdf, ToSdf())
    diagnostics_checked.watch(conversion.diagnostics)
    error = diagnostics_checked.take_error(Code.DUPLICATE_NAME)
    assert "link [ a]" in error.message and "[a] is already" in error.message
    assert error.line == 3
    assert conversion.xml is None
