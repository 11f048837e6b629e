"""``sdf2urdf.inertia``: the URDF inertia as written (``<urdf:inertia>``) given back while the
SDF's tensor is still its repair; the SDF's tensor, and the record dropped with a warning,
once it is not."""
from __future__ import annotations

from lxml import etree

from urdf_sdf import Context, load_string
from urdf_sdf.core.base.custom import URDF_NS
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS, repaired
from urdf_sdf.core.base.model import Inertial
from urdf_sdf.core.write.common import NumberTexts
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.sdf2urdf.inertia import SAME_REPAIR, is_repair_of, recorded_inertial, urdf_inertial

RECORD = {"ixx": "1", "ixy": "0", "ixz": "0", "iyy": "1.0", "iyz": "0", "izz": "3e0"}
WRITTEN = Inertial(mass=1, ixx=1, iyy=1, izz=3)
REPAIR = repaired(WRITTEN)
assert REPAIR is not None


def link_element(record: dict[str, str] | None):
    link = etree.Element("link", nsmap={"urdf": URDF_NS})
    inertial = etree.SubElement(link, "inertial")
    if record is not None:
        etree.SubElement(inertial, f"{{{URDF_NS}}}inertia", record)
    return link


def given_back(inertial: Inertial, record: dict[str, str] | None):
    warnings: list = []
    node = urdf_inertial(inertial, None, link_element(record), "palm", NumberTexts(),
                         lambda *warning: warnings.append(warning))
    tag, _, (mass, inertia) = node
    assert tag == "inertial" and mass[0] == "mass"
    return inertia[1], [code for code, *_ in warnings]


def test_the_repair_of_the_record_gives_back_the_text_as_written():
    assert given_back(REPAIR, RECORD) == (RECORD, [])


def test_a_repair_computed_a_few_roundings_away_is_still_the_repair():
    nudged = Inertial(mass=1, ixx=REPAIR.ixx * (1 + 1e-14), iyy=REPAIR.iyy, izz=REPAIR.izz)
    assert given_back(nudged, RECORD) == (RECORD, [])


def test_an_edited_tensor_wins_and_the_record_is_dropped_with_a_warning():
    edited = Inertial(mass=1, ixx=REPAIR.ixx, iyy=1.5, izz=REPAIR.izz)
    attributes, codes = given_back(edited, RECORD)
    assert attributes == {"ixx": "2.000003", "ixy": "0", "ixz": "0", "iyy": "1.5", "iyz": "0",
                          "izz": "3"}
    assert codes == [Code.LINK_INERTIA_RECORD_DROPPED]


def test_an_edit_just_beyond_the_tolerance_is_an_edit():
    edited = Inertial(mass=1, ixx=REPAIR.ixx, iyy=REPAIR.iyy, izz=REPAIR.izz + 10 * SAME_REPAIR * 3)
    assert given_back(edited, RECORD)[1] == [Code.LINK_INERTIA_RECORD_DROPPED]


def test_a_record_that_is_not_numbers_is_dropped_with_a_warning():
    for broken in ({**RECORD, "izz": "three"}, {**RECORD, "izz": "1 2"}, {**RECORD, "izz": "nan"},
                   {key: value for key, value in RECORD.items() if key != "ixy"}):
        attributes, codes = given_back(REPAIR, broken)
        assert attributes["izz"] == "3" and codes == [Code.LINK_INERTIA_RECORD_DROPPED]


def test_without_a_record_the_tensor_is_written_with_no_word():
    assert given_back(WRITTEN, None) == ({"ixx": "1", "ixy": "0", "ixz": "0", "iyy": "1",
                                          "iyz": "0", "izz": "3"}, [])


def test_a_record_needing_no_repair_is_its_own_repair():
    valid = Inertial(mass=1, ixx=1, iyy=1, izz=1.5)
    record = recorded_inertial({key: repr(getattr(valid, key)) for key in INERTIA_KEYS})
    assert record is not None and is_repair_of(valid, record)
    assert not is_repair_of(WRITTEN, record)


def test_the_reader_keeps_a_link_holding_a_record_for_the_converter():
    """An SDF link element is freed once read unless it holds content a converter copies;
    a record in its <inertial> is such content (the command line reads without keeping XML)."""
    sdf = f"""<sdf version="1.6" xmlns:urdf="{URDF_NS}"><model name="m"><link name="palm">
      <inertial><mass>1</mass><inertia><ixx>{REPAIR.ixx!r}</ixx><iyy>1</iyy><izz>3</izz>
      </inertia><urdf:inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"/></inertial>
      </link></model></sdf>""".encode()
    conversion = convert_sdf(load_string(sdf, "robot.sdf", Context(keep_xml=False)), ToUrdf())
    assert conversion.ok and conversion.diagnostics == []
    inertia = etree.fromstring(conversion.xml).find("link/inertial/inertia")
    assert dict(inertia.attrib) == {key: "3" if key == "izz" else "1" if key[1] == key[2] else "0"
                                    for key in INERTIA_KEYS}
