"""Elements written as text (core.write.text): the bytes must be exactly what lxml writes
for the same elements, escaping, qualified names, empty texts and indentation included,
also when the document is streamed a batch at a time (the last child of a batch is
serialised twice) and when the placed nodes are made lxml elements.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from tests.support import examples
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.stream import ChildStream
from urdf_sdf.core.write.text import RUN, TextChildren, holds_elements, to_element
from urdf_sdf.core.write.urdf import to_bytes as urdf_to_bytes

URDF_NS = "urn:urdf-sdf:urdf"
PREFIXES = {URDF_NS: "urdf"}

# XML characters, those escaped in attributes and texts among them.
xml_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"))
                   | st.sampled_from("&<>\"'\n\r\t ]"), max_size=12)
names = st.sampled_from(["name", "xyz", "relative_to", f"{{{URDF_NS}}}origin"])
tags = st.sampled_from(["link", "pose", "geometry", f"{{{URDF_NS}}}carried"])


def nodes(depth: int = 0):
    attributes = st.dictionaries(names, xml_text, max_size=3)
    content = xml_text if depth >= 3 else \
        st.one_of(xml_text, st.lists(st.deferred(lambda: nodes(depth + 1)), max_size=3))
    return st.tuples(tags, attributes, content)


def document():
    """``<sdf><model name="m"/></sdf>``, and the model."""
    root = etree.Element("sdf", nsmap={"urdf": URDF_NS})
    return root, etree.SubElement(root, "model", name="m")


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(nodes(), min_size=1, max_size=4), st.sampled_from([to_bytes, urdf_to_bytes]))
def test_placed_nodes_serialise_as_their_lxml_elements(trees, serialise):
    root, model = document()
    text = TextChildren(depth=2, prefixes=PREFIXES)
    for tree in trees:
        text.place(model, tree)
    expected_root, expected_model = document()
    for tree in trees:
        to_element(tree, expected_model)
    assert text.expand(serialise(root)) == serialise(expected_root)


def test_streamed_text_children_give_the_whole_document():
    """Batches of 3: each batch's last child is serialised with it and with the next one."""
    rng = random.Random(7)
    trees = [("link", {"name": f"l{i}"}, [("pose", {"relative_to": f"j{i}"}, "1 2 3 0 0 0")])
             for i in range(20)]
    root, model = document()
    text = TextChildren(depth=2, prefixes=PREFIXES)
    stream = ChildStream(root, model, lambda r: text.expand(to_bytes(r)), batch=3)
    expected_root, expected_model = document()
    for tree in trees:
        if rng.random() < 0.3:  # an lxml child between text ones
            etree.SubElement(model, "frame", name="f")
            etree.SubElement(expected_model, "frame", name="f")
        text.place(model, tree)
        to_element(tree, expected_model)
        stream.flush_if_full()
    assert stream.finish() == to_bytes(expected_root)
    assert not text.nodes


def test_runs_of_nodes_made_elements_keep_their_order():
    """Nodes placed one after another share a marker (up to ``RUN`` of them): making every
    marker of a parent elements keeps the document order."""
    def links(count):
        return [("link", {"name": f"l{i}"}, [("pose", {}, f"{i} 0 0 0 0 0")])
                for i in range(count)]

    root, model = document()
    text = TextChildren(depth=2, prefixes=PREFIXES)
    for tree in links(RUN + 3):
        text.place(model, tree)
    assert len(model) == 2  # a run of RUN nodes, then one of three
    etree.SubElement(model, "frame", name="f")
    text.place(model, ("link", {"name": "after"}, []))
    text.realise_all(model)
    assert [child.get("name") for child in model] == \
        [f"l{i}" for i in range(RUN + 3)] + ["f", "after"]
    assert not text.nodes
    expected_root, expected_model = document()
    for tree in links(RUN + 3):
        to_element(tree, expected_model)
    etree.SubElement(expected_model, "frame", name="f")
    etree.SubElement(expected_model, "link", name="after")
    assert to_bytes(root) == to_bytes(expected_root)


def test_holds_elements_finds_a_copied_element_at_any_depth():
    copied = etree.Element("copied")
    assert not holds_elements(("link", {}, [("visual", {}, [("geometry", {}, "x")])]))
    assert not holds_elements(("pose", {}, "0 0 0 0 0 0"))
    assert holds_elements(("link", {}, [copied]))
    assert holds_elements(("link", {}, [("visual", {}, []),
                                        ("visual", {}, [("geometry", {}, [copied])])]))
