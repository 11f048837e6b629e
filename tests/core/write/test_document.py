"""The document converters write through (core.write.document): whichever way a child
becomes bytes (text, an lxml element, streamed or held), the document is exactly what
serialising the same children built as lxml elements gives; and the converters' output,
``<gazebo>`` blocks included, is the same as when every child is an lxml element.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from lxml import etree

import urdf_sdf.core.write.document as document_module
from urdf_sdf.api import to_sdf, to_urdf
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.document import Document
from urdf_sdf.core.write.text import to_element

URDF_NS = "urn:urdf-sdf:urdf"
FIXTURES = Path(__file__).parents[2] / "fixtures"
GAZEBO_URDFS = sorted((FIXTURES / "urdf2sdf" / "gazebo").glob("*.urdf")) + \
    [FIXTURES / "urdf" / "urdf_every_element.urdf"]


def sdf_root():
    root = etree.Element("sdf", nsmap={"urdf": URDF_NS})
    return root, etree.SubElement(root, "model", name="m")


def children(rng: random.Random, count: int) -> list:
    """Plain nodes, nodes holding a copied element, and copied elements, mixed."""
    made = []
    for i in range(count):
        kind = rng.random()
        pose = ("pose", {"relative_to": f"j{i}"}, f"{i} 0 0 0 0 0")
        if kind < 0.6:
            made.append(("link", {"name": f"l{i}"}, [pose, ("inertial", {}, [])]))
        elif kind < 0.8:
            copied = etree.Element(f"{{{URDF_NS}}}carried")
            etree.SubElement(copied, "contact").text = f"c{i}"
            made.append(("joint", {"name": f"j{i}", f"{{{URDF_NS}}}name": "x"}, [pose, copied]))
        else:
            made.append(etree.Element(f"{{{URDF_NS}}}transmission", name=f"t{i}"))
    return made


def expected_bytes(made: list, changed: set[int]) -> bytes:
    root, model = sdf_root()
    for i, child in enumerate(made):
        el = to_element(child, model) if isinstance(child, tuple) else child
        if child.__class__ is not tuple:
            model.append(el)
        if i in changed:
            etree.SubElement(el, "changed").text = "later"
    return to_bytes(root)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("streamed", [True, False])
def test_a_document_writes_what_lxml_writes_for_the_same_children(seed, streamed):
    rng = random.Random(seed)
    count = rng.randrange(1, 60)
    changed = {i for i in range(count) if rng.random() < 0.05}
    root, model = sdf_root()
    document = Document(root, model, depth=2, serialise=to_bytes, prefixes={URDF_NS: "urdf"},
                        streamed=streamed, batch=rng.choice([1, 2, 5]))
    later = []
    for i, child in enumerate(children(random.Random(seed), count)):
        if i in changed:
            later.append(document.add_element(child))
        else:
            document.add(child)
    for el in later:  # changed once everything is written, as <gazebo> blocks do
        etree.SubElement(el, "changed").text = "later"
    # the same children made again: a written batch is gone
    assert document.to_bytes() == expected_bytes(children(random.Random(seed), count), changed)


def test_a_held_document_gives_its_tree_with_every_child_an_element():
    root, model = sdf_root()
    document = Document(root, model, depth=2, serialise=to_bytes, streamed=False, batch=1)
    made = children(random.Random(3), 40)
    document.extend(made)
    tree = document.to_tree()
    assert tree is root
    assert all(isinstance(child.tag, str) for child in model)  # no marker left
    assert [child.get("name") for child in model] == \
        [child[1]["name"] if isinstance(child, tuple) else child.get("name") for child in made]


@pytest.fixture
def every_child_an_element(monkeypatch):
    """Converters run with every node built as an lxml element (no text)."""
    monkeypatch.setattr(document_module, "holds_elements", lambda node: True)


def conversions(path: Path) -> list[bytes | None]:
    return [to_sdf(path).xml, to_sdf(path, relative=True).xml, to_sdf(path, lump_fixed=True).xml]


@pytest.mark.parametrize("path", GAZEBO_URDFS, ids=lambda p: p.stem)
def test_urdf2sdf_with_gazebo_blocks_writes_what_the_element_path_writes(path, request):
    written = conversions(path)
    request.getfixturevalue("every_child_an_element")
    assert written == conversions(path)


def test_sdf2urdf_writes_what_the_element_path_writes(tmp_path, monkeypatch):
    """Round trips through what urdf2sdf carried (gazebo content, frames, free joints)."""
    sdfs = []
    for i, path in enumerate(GAZEBO_URDFS):
        xml = to_sdf(path, relative=True).xml
        if xml is not None:
            sdfs.append(tmp_path / f"{i}.sdf")
            sdfs[-1].write_bytes(xml)
    written = [to_urdf(sdf).xml for sdf in sdfs]
    monkeypatch.setattr(document_module, "holds_elements", lambda node: True)
    assert written == [to_urdf(sdf).xml for sdf in sdfs]


def test_a_block_without_reference_extends_the_link_it_names(tmp_path):
    """A link written as text would be invisible to the blocks: the one a block without
    reference names is an element, which the block's content extends."""
    urdf = tmp_path / "r.urdf"
    urdf.write_text("""<robot name="r">
  <link name="base"/>
  <link name="arm"/>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>
  <gazebo><link name="base"><gravity>false</gravity></link></gazebo>
</robot>""")
    conversion = to_sdf(urdf)
    assert conversion.ok
    model = etree.fromstring(conversion.xml).find("model")
    links = model.findall("link")
    assert [link.get("name") for link in links] == ["base", "arm"]
    assert links[0].findtext("gravity") == "false"
