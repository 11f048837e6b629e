"""``urdf2sdf.inertia``: a URDF inertial as written, repaired with the tensor as written kept
beside the repair (``<urdf:inertia>``), or kept invalid (``--keep-inertia``)."""
from __future__ import annotations

from lxml import etree

from urdf_sdf import load_string
from urdf_sdf.core.base.custom import INERTIA_AS_WRITTEN, INERTIA_KEPT
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.inertia import INERTIA_KEYS, inertia_problem, repaired
from urdf_sdf.core.base.model import Inertial
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf
from urdf_sdf.urdf2sdf.inertia import as_written_node

# Written as a hand-made URDF may write them: a sign, a leading dot, a capital exponent.
BROKEN = b"""<robot name="r"><link name="palm"><inertial><mass value="2"/>
<inertia ixx="+1.0" ixy="0" ixz="0.0" iyy=".5E+0" iyz="0" izz="3"/></inertial></link></robot>"""
VALID = BROKEN.replace(b'izz="3"', b'izz="1.2"')


def converted(urdf: bytes, **options):
    conversion = convert_urdf(load_string(urdf, "robot.urdf"), ToSdf(**options))
    assert conversion.ok, [d.format() for d in conversion.diagnostics]
    inertial = etree.fromstring(conversion.xml).find("model/link/inertial")
    return conversion, inertial


def sdf_tensor(inertial) -> list[float]:
    return [float(inertial.findtext(f"inertia/{key}")) for key in INERTIA_KEYS]


def test_a_repaired_inertia_keeps_the_one_as_written_beside_it_text_for_text():
    conversion, inertial = converted(BROKEN)
    (record,) = inertial.findall(INERTIA_AS_WRITTEN)
    assert dict(record.attrib) == {"ixx": "+1.0", "ixy": "0", "ixz": "0.0", "iyy": ".5E+0",
                                   "iyz": "0", "izz": "3"}
    fixed = repaired(Inertial(mass=2, ixx=1, iyy=0.5, izz=3))
    assert fixed is not None
    assert sdf_tensor(inertial) == [getattr(fixed, key) for key in INERTIA_KEYS]
    assert inertial.get(INERTIA_KEPT) is None
    # one warning says what was done, in place of the reader's
    assert [d.code for d in conversion.diagnostics] == [Code.LINK_INERTIA_REPAIRED]


def test_an_inertia_libsdformat_accepts_has_no_record():
    conversion, inertial = converted(VALID)
    assert inertial.find(INERTIA_AS_WRITTEN) is None
    assert inertial.findtext("inertia/iyy") == ".5E+0"
    assert conversion.diagnostics == []


def test_keep_inertia_marks_the_tensor_invalid_and_records_nothing():
    conversion, inertial = converted(BROKEN, fix_inertia=False)
    assert inertial.find(INERTIA_AS_WRITTEN) is None
    assert inertial.get(INERTIA_KEPT) == "invalid"
    assert inertial.findtext("inertia/izz") == "3"
    assert [d.code for d in conversion.diagnostics] == [Code.LINK_INERTIA_INVALID]


def test_a_tensor_too_large_to_repair_is_kept_as_written_with_a_warning():
    """A moment of 1.8e308 (found by the fuzz test): its repair would overflow, so it is
    kept as written and marked invalid, named by LINK_INERTIA_INVALID; never an internal
    error from a numpy warning."""
    huge = BROKEN.replace(b'izz="3"', b'izz="1.7976931348623157e308"')
    conversion, inertial = converted(huge)
    assert inertial.get(INERTIA_KEPT) == "invalid"
    assert inertial.find(INERTIA_AS_WRITTEN) is None
    assert inertial.findtext("inertia/izz") == "1.7976931348623157e308"
    [warning] = conversion.diagnostics
    assert warning.code is Code.LINK_INERTIA_INVALID and "too large to repair" in warning.message


def test_a_computed_tensor_is_recorded_at_round_trip_precision():
    """--lump-fixed combines inertials into numbers no file wrote: their shortest text."""
    computed = Inertial(ixx=0.1 + 0.2, ixy=0.0, ixz=-1e-300, iyy=1.0, iyz=0.0, izz=3.0)
    assert inertia_problem(computed) is not None
    tag, attributes, children = as_written_node(computed)
    assert tag == INERTIA_AS_WRITTEN and children == []
    assert attributes == {"ixx": "0.30000000000000004", "ixy": "0", "ixz": "-1e-300",
                          "iyy": "1", "iyz": "0", "izz": "3"}
