"""``core.read.carried_attributes``: the URDF attributes an SDF element carries, read back
by name (``urdf:bar`` is ``bar``, urdf2sdf's own markup is none) and by path
(``<urdf:attributes urdf:of=...>``), and given by the SDF reader to the model values."""
from __future__ import annotations

from lxml import etree

from urdf_sdf import Context, load_string
from urdf_sdf.core.read.carried_attributes import own_attributes, part_attributes
from urdf_sdf.core.read.prefixes import UNDECLARED_URI

LINK = etree.fromstring(b"""<link xmlns:urdf="urn:urdf-sdf:urdf" xmlns:drake="http://drake.mit.edu"
    name="a" urdf:bar="1" urdf:name="a link" drake:foo="2">
  <urdf:attributes urdf:of="visual[2]/geometry/box" size_hint="3" drake:lod="1"/>
  <urdf:attributes urdf:of="inertial/mass" unit="kg"/>
  <urdf:attributes bar="no path: not a carrier"/>
</link>""")


def test_own_attributes_are_the_urdf_ones_and_namespaced_ones():
    assert own_attributes(LINK) == {"bar": "1", "{http://drake.mit.edu}foo": "2"}
    assert own_attributes(None) == {}


def test_part_attributes_are_read_by_path():
    assert part_attributes(LINK) == {
        "visual[2]/geometry/box": {"size_hint": "3", "{http://drake.mit.edu}lod": "1"},
        "inertial/mass": {"unit": "kg"}}
    assert part_attributes(None) == {}


def test_an_undeclared_prefix_names_its_placeholder_namespace():
    parser = etree.XMLParser(recover=True)
    link = etree.fromstring(b'<link xmlns:urdf="urn:urdf-sdf:urdf" name="a" gz:x="1">'
                            b'<urdf:attributes urdf:of="visual" gz:y="2"/></link>', parser)
    assert own_attributes(link) == {f"{{{UNDECLARED_URI}gz}}x": "1"}
    assert part_attributes(link) == {"visual": {f"{{{UNDECLARED_URI}gz}}y": "2"}}


def test_the_sdf_reader_gives_them_to_the_model_values():
    sdf = b"""<sdf version="1.9" xmlns:urdf="urn:urdf-sdf:urdf" xmlns:drake="http://drake.mit.edu">
      <model name="m" urdf:bar="0">
        <link name="a" urdf:bar="1"><urdf:attributes urdf:of="inertial/mass" unit="kg"/></link>
        <link name="b"/>
        <joint name="j" type="revolute"><parent>a</parent><child>b</child>
          <axis><xyz>0 0 1</xyz><limit drake:acceleration="15"><lower>-1</lower><upper>1</upper>
          </limit></axis><urdf:attributes urdf:of="origin" o="1"/></joint>
        <frame name="f" attached_to="b" urdf:joint="k"><urdf:attributes urdf:of="joint" z="2"/>
        </frame>
      </model></sdf>"""
    model = load_string(sdf, "m.sdf", Context()).document.model
    assert model.attributes == {"bar": "0"}
    a, b = model.links
    assert (a.attributes, a.part_attributes) == ({"bar": "1"}, {"inertial/mass": {"unit": "kg"}})
    assert (b.attributes, b.part_attributes) == (None, None)
    joint = model.joints[0]
    assert joint.part_attributes == {"origin": {"o": "1"}}
    assert joint.limit.attributes == {"{http://drake.mit.edu}acceleration": "15"}
    assert model.frames[0].part_attributes == {"joint": {"z": "2"}}
