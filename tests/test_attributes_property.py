"""Property: attributes URDF does not define, added at random to any element of random URDF
trees (the robot, links, joints and every element below them; plain names and names in
a declared namespace), come back through URDF -> SDF -> URDF on the element they were on,
with both pose styles, under the prefix the URDF gave them (a floating or planar
joint's too), and ``urdf-sdf diff`` finds no attribute that differs between the
URDF, its SDF and the URDF made back.

The trees are ``tests.test_urdf2sdf_property``'s. Two elements get none: a URDF's ``world``
root link is the world frame, which the SDF has no element for, and the ``<axis>`` of a
fixed joint means nothing to URDF and is not written back (its attributes are named as
left out, as the diff says: ``tests/core/diff/test_attributes.py``).
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from lxml import etree

from tests.support import examples
from tests.test_urdf2sdf_property import urdf_trees
from urdf_sdf import Context, load_string
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

DRAKE = "http://drake.mit.edu"
NAMES = ("bar", "units", "x-y", "a.b", f"{{{DRAKE}}}acceleration", f"{{{DRAKE}}}foo")
VALUES = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=6)


@st.composite
def urdfs_with_attributes(draw) -> tuple[bytes, dict[str, dict[str, str]]]:
    """A random tree's URDF with random attributes added, and what was added by element
    path (:func:`paths`)."""
    tree = draw(urdf_trees(max_links=6))
    text = tree.urdf().replace('<robot name="random_tree">',
                               f'<robot name="random_tree" xmlns:drake="{DRAKE}">')
    root = etree.fromstring(text.encode())
    elements = [(path, el) for path, el in paths(root) if "link[@name='world']" not in path
                and not (el.tag == "axis" and el.getparent().get("type") == "fixed")]
    added: dict[str, dict[str, str]] = {}
    for _ in range(draw(st.integers(1, 6))):
        path, el = draw(st.sampled_from(elements))
        name = draw(st.sampled_from(NAMES))
        value = draw(VALUES)
        el.set(name, value)
        added.setdefault(path, {})[name] = value
    return etree.tostring(root), added


def paths(root):
    """Each element with its path: links and joints by name, others by tag and position."""
    yield "robot", root
    stack = [(root, "robot")]
    while stack:
        el, path = stack.pop()
        counts: dict[str, int] = {}
        for child in el:
            counts[child.tag] = counts.get(child.tag, 0) + 1
            step = f"{child.tag}[@name='{child.get('name')}']" if child.tag in ("link", "joint") \
                and el is root else f"{child.tag}[{counts[child.tag]}]"
            yield f"{path}/{step}", child
            stack.append((child, f"{path}/{step}"))


def element_at(root, path: str):
    return root if path == "robot" else root.find(path[len("robot/"):])


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(urdfs_with_attributes(), st.booleans())
def test_random_unknown_attributes_survive_the_round_trip(case, relative):
    urdf, added = case
    note(urdf.decode())
    original = load_string(urdf, "random.urdf", Context())
    assert original.ok
    to_sdf = convert_urdf(original, ToSdf(relative=relative))
    assert to_sdf.ok, to_sdf.diagnostics
    sdf = load_string(to_sdf.xml, "random.sdf", Context())
    assert sdf.ok, sdf.diagnostics
    note(to_sdf.xml.decode())
    to_urdf = convert_sdf(sdf, ToUrdf())
    assert to_urdf.ok, to_urdf.diagnostics
    note(to_urdf.xml.decode())
    back = etree.fromstring(to_urdf.xml)
    for path, attributes in added.items():
        el = element_at(back, path)
        assert el is not None, path
        for name, value in attributes.items():
            assert el.get(name) == value, (path, name)
    assert b"ns0" not in to_urdf.xml  # written with the URDF's own prefix, drake:
    again = load_string(to_urdf.xml, "random.back.urdf", Context())
    assert attribute_differences(diff_results(original, sdf)) == []
    assert attribute_differences(diff_results(original, again, through_urdf=True)) == []


def attribute_differences(differences) -> list:
    """The differences of carried attributes (the others are the other properties' own)."""
    return [d for d in differences if d.property.startswith("attribute ")]
