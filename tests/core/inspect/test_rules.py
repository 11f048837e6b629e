"""The rules ``check`` shares with both converters (``core.inspect.rules``): what
``urdf2sdf --strict`` refuses, ``check`` reports, in the same words; a ``<mimic>`` naming
no joint (reduced from alex_psyonic_hands.urdf, which Drake refuses) is refused by
``check``, ``urdf2sdf`` and ``sdf2urdf`` alike."""
from __future__ import annotations

from pathlib import Path

from urdf_sdf import ToSdf, ToUrdf, convert_sdf, convert_urdf, load, load_string
from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.inspect.rules import source_rules

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" ' \
           'izz="1"/></inertial>'


def rules_of(result) -> Diagnostics:
    found = Diagnostics()
    source_rules(result.document, found)
    return found


def converter_codes(result) -> list:
    return [(d.code, d.message, d.line) for d in convert_urdf(result, ToSdf()).diagnostics
            if d.code in (Code.GAZEBO_REFERENCE_UNRESOLVED, Code.LINK_MASSLESS_MOVING,
                          Code.MIMIC_JOINT_UNKNOWN)]


def test_a_mimic_naming_no_joint_is_refused_by_check_and_urdf2sdf():
    result = load(FIXTURES / "physics" / "mimic_joint_unknown.urdf")
    (rule,) = rules_of(result)
    assert (rule.code, rule.line, rule.is_error) == (Code.MIMIC_JOINT_UNKNOWN, 12, True)
    assert "[Left_index_q2]" in rule.message and "[index_q1]" in rule.message
    conversion = convert_urdf(result, ToSdf())
    assert conversion.xml is None
    assert [d.code for d in conversion.diagnostics if d.is_error] == [Code.MIMIC_JOINT_UNKNOWN]


def test_an_sdf_mimic_naming_no_joint_is_refused_by_sdf2urdf_and_a_nested_one_resolves():
    def model(mimicked: str, nested: bool) -> str:
        joint = ('<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis>'
                 f'<xyz>0 0 1</xyz><mimic joint="{mimicked}" axis="axis"><multiplier>1'
                 '</multiplier></mimic></axis></joint>')
        inner = '<link name="a"/><link name="b"/><joint name="k" type="revolute"><parent>a' \
                '</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>'
        body = f'<model name="inner">{inner}{joint}</model>' if nested else \
            f'<link name="a"/><link name="b"/>{joint}'
        return f'<sdf version="1.11"><model name="m">{body}</model></sdf>'

    refused = load_string(model("nothing", False), "m.sdf")
    assert [d.code for d in rules_of(refused)] == [Code.MIMIC_JOINT_UNKNOWN]
    conversion = convert_sdf(refused, ToUrdf())
    assert conversion.xml is None
    assert Code.MIMIC_JOINT_UNKNOWN in [d.code for d in conversion.diagnostics]
    assert list(rules_of(load_string(model("k", True), "m.sdf"))) == []


def test_check_reports_the_gazebo_reference_urdf2sdf_cannot_place_in_its_words():
    result = load(FIXTURES / "codes" / "gazebo_reference_unresolved.urdf")
    (rule,) = rules_of(result)
    assert rule.code is Code.GAZEBO_REFERENCE_UNRESOLVED and not rule.is_error
    (converted,) = converter_codes(result)
    assert converted[0] is rule.code and converted[2] == rule.line
    assert converted[1].startswith(rule.message)  # urdf2sdf adds where the content went


def test_check_reports_a_massless_moving_link_as_urdf2sdf_does():
    text = (f'<robot name="r"><link name="a">{INERTIAL}</link><link name="b"/><link name="c"/>'
            '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            '<joint name="f" type="fixed"><parent link="a"/><child link="c"/></joint></robot>')
    result = load_string(text, "r.urdf")
    (rule,) = rules_of(result)
    assert rule.code is Code.LINK_MASSLESS_MOVING and "[b]" in rule.message
    assert converter_codes(result) == [(rule.code, rule.message, rule.line)]


def test_a_world_link_reference_and_sdf_links_without_mass_are_no_rule_of_check():
    sdf = load_string('<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>'
                      '<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
                      '<axis><xyz>0 0 1</xyz></axis></joint></model></sdf>', "m.sdf")
    assert list(rules_of(sdf)) == []  # SDFormat's default inertial weighs 1 kg
