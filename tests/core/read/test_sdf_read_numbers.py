"""The SDF reader parses each number text once (``ReadState``'s remembered texts): what
it reads does not depend on how many distinct texts came before, nor on which of its
caches (value checks, poses, joint limits, other values) a text was found in."""
from __future__ import annotations

import math

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.loader import load_string
from urdf_sdf.core.read.numbers import KNOWN_TEXTS, parse_double


def link(i: int) -> str:
    return (f'<link name="l{i}"><pose>{i}.5 -0 {i * 1e-3} 0 -0 {i / 7}</pose><inertial>'
            f'<mass>{1 + i / 3}</mass><inertia><ixx>{i}e-4</ixx><iyy>1</iyy><izz>1</izz>'
            '</inertia></inertial></link>')


def joint(i: int) -> str:
    return (f'<joint name="j{i}" type="revolute"><parent>l{i - 1}</parent><child>l{i}</child>'
            f'<axis><xyz>0 0 1</xyz><limit><lower>-{i}.25</lower><upper>inf</upper>'
            '<effort>-1</effort><velocity>1e400</velocity></limit>'
            f'<dynamics><damping>{i}e-3</damping></dynamics></axis></joint>')


def test_more_distinct_texts_than_remembered_read_as_parsed():
    count = KNOWN_TEXTS + 300
    sdf = ('<sdf version="1.9"><model name="m">' + "".join(map(link, range(count)))
           + "".join(joint(i) for i in range(1, count)) + "</model></sdf>")
    result = load_string(sdf, "many.sdf", Context())
    assert result.ok, [d.format() for d in result.diagnostics]
    model = result.document.model
    for i, read in enumerate(model.links):
        assert read.inertial.mass == parse_double(str(1 + i / 3))
        assert read.inertial.ixx == parse_double(f"{i}e-4")
        assert read.pose.value.position == (i + 0.5, -0.0, i * 1e-3)
        assert math.copysign(1, read.pose.value.position[1]) == -1
    for i, read in enumerate(model.joints, start=1):
        assert read.limit.lower == -(i + 0.25) and read.limit.upper == math.inf
        assert read.limit.velocity == math.inf and read.limit.effort == -1
        assert read.dynamics.damping == parse_double(f"{i}e-3")
        assert read.axes[0].xyz == (0.0, 0.0, 1.0)


def test_an_unreadable_value_is_reported_once_whatever_the_caches():
    sdf = ('<sdf version="1.9"><model name="m"><link name="a"><inertial><mass>x</mass>'
           '</inertial><pose>1 2 3</pose></link><link name="b"><inertial><mass>x</mass>'
           '</inertial><pose>1 2 3</pose></link></model></sdf>')
    result = load_string(sdf, "bad.sdf", Context())
    messages = [d.message for d in result.diagnostics]
    assert messages.count("<mass> value 'x' is not a number") == 2
    assert sum("is not six numbers" in m for m in messages) == 2
