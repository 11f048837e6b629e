"""Serialising a document a batch of children at a time (core.write.stream).

The streamed bytes must be the bytes of the whole tree, indented and serialised at once,
whatever the batch size, the namespaces (declared on ``<sdf>`` or on a child), mixed
content or the number of children; and the container must never hold more than a batch
(what bounds the memory of a 100,000-link conversion).
"""
from __future__ import annotations

import random

import pytest
from lxml import etree

from urdf_sdf import Context
from urdf_sdf.cli.printing import compose_xml, print_document
from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.write.common import to_bytes
from urdf_sdf.core.write.stream import ChildStream, serialise_spent
from urdf_sdf.core.write.urdf import to_bytes as urdf_to_bytes

URDF_NS = "urn:urdf-sdf:urdf"
OTHER_NS = "urn:example:other"


def add_child(container, i: int, rng: random.Random) -> None:
    """A child like a converter writes: plain, with custom markup, or a foreign element."""
    kind = rng.randrange(5)
    if kind == 0:
        link = etree.SubElement(container, "link", name=f"link_{i}")
        etree.SubElement(link, "pose", relative_to=f"joint_{i}").text = "1 2 3 0 0 0"
    elif kind == 1:
        joint = etree.SubElement(container, "joint", name=f"joint_{i}", type="fixed")
        joint.set(f"{{{URDF_NS}}}name", f"j{i}")
        etree.SubElement(etree.SubElement(joint, f"{{{URDF_NS}}}carried"), "x").text = "a & b"
    elif kind == 2:
        plugin = etree.SubElement(container, f"{{{OTHER_NS}}}plugin", nsmap={"o": OTHER_NS})
        etree.SubElement(plugin, f"{{{OTHER_NS}}}value").text = " é < 1 "
    elif kind == 3:
        container.append(etree.Comment(f" comment {i} "))
    else:
        etree.SubElement(container, "frame", name=f"f{i}", attached_to="link_0")


def write(count: int, batch: int | None, seed: int, serialise=to_bytes) -> tuple[bytes, int]:
    """The document with ``count`` children under ``<sdf><model>``, streamed in batches of
    ``batch`` (None: serialised whole), and the most children the model ever held."""
    rng = random.Random(seed)
    root = etree.Element("sdf", nsmap={"urdf": URDF_NS})
    root.set("version", "1.9")
    model = etree.SubElement(root, "model", name="m")
    stream = ChildStream(root, model, serialise, batch) if batch else None
    most = 0
    for i in range(count):
        add_child(model, i, rng)
        most = max(most, len(model))
        if stream is not None:
            stream.flush_if_full()
    return (stream.finish() if stream is not None else serialise(root)), most


@pytest.mark.parametrize("count", [0, 1, 2, 3, 10, 257])
@pytest.mark.parametrize("batch", [1, 2, 7, 64])
def test_streamed_bytes_are_the_whole_documents(count, batch):
    whole, _ = write(count, None, seed=count)
    streamed, most = write(count, batch, seed=count)
    assert streamed == whole
    assert most <= batch + 1


def test_the_container_may_be_the_root_as_in_sdf2urdf():
    """A ``<robot>``'s children, with the URDF writer's options (``pretty_print``)."""
    def document(batch):
        robot = etree.Element("robot", name="r")
        stream = ChildStream(robot, robot, urdf_to_bytes, batch) if batch else None
        for i in range(50):
            etree.SubElement(robot, "link", name=f"l{i}")
            if stream is not None:
                stream.flush_if_full()
        return stream.finish() if stream is not None else urdf_to_bytes(robot)
    assert document(4) == document(None)


def test_mixed_content_and_a_last_child_with_text_after_it():
    """Text between children (kept by the indentation) and after the last child."""
    def document(batch):
        root = etree.Element("sdf")
        model = etree.SubElement(root, "model")
        stream = ChildStream(root, model, to_bytes, batch) if batch else None
        for i in range(10):  # the last one has text after it
            child = etree.SubElement(model, "a")
            child.tail = f" text {i} " if i % 2 else None
            if stream is not None:
                stream.flush_if_full()
        return stream.finish() if stream is not None else to_bytes(root)
    assert document(2) == document(None)


def test_a_prepare_step_that_declines_stops_the_streaming():
    """``prepare`` readies each batch; when it says no, the rest is serialised whole."""
    calls = []

    def prepare(root):
        calls.append(len(root[0]))
        return len(calls) < 3

    root = etree.Element("sdf")
    model = etree.SubElement(root, "model")
    stream = ChildStream(root, model, to_bytes, 3, prepare=prepare)
    for i in range(20):
        etree.SubElement(model, "link", name=str(i))
        stream.flush_if_full()
    text = stream.finish()
    assert len(calls) == 3  # two batches streamed, then nothing more was asked
    assert len(model) > 3   # the rest stayed in the tree
    assert text.count(b"<link") == 20
    assert etree.fromstring(text)[0][19].get("name") == "19"


def whole_and_spent(root_bytes: bytes, batch: int) -> tuple[bytes, bytes]:
    """A parsed document serialised whole, and by :func:`serialise_spent`."""
    whole = to_bytes(etree.fromstring(root_bytes))
    return whole, serialise_spent(etree.fromstring(root_bytes), to_bytes, batch)


def test_a_complete_tree_is_written_a_batch_at_a_time_as_it_would_be_whole():
    """``urdf-sdf print``'s tree: a model's children, the namespace declared on <sdf>."""
    links = "".join(f'<link name="l{i}"><u:carried>{i} &amp; more</u:carried></link> tail {i}'
                    if i % 3 == 0 else f'<!-- c{i} --><joint name="j{i}" u:name="x"/>'
                    for i in range(40))
    document = (f'<sdf xmlns:u="{URDF_NS}" version="1.9"><world name="w"><model name="m">'
                f'{links}</model></world></sdf>').encode()
    whole, spent = whole_and_spent(document, batch=4)
    assert spent == whole


def test_print_writes_a_large_model_a_batch_at_a_time_as_it_would_be_whole(tmp_path):
    """Links that repeat the namespace declarations of <sdf>, or declare their own:
    ``urdf-sdf print`` declares every namespace once, then writes in batches."""
    links = "".join(f'<link name="l{i}" xmlns:o="urn:first"><o:x/></link>' if i % 5 == 0 else
                    f'<link name="l{i}" xmlns:o="{OTHER_NS}"><o:y/></link>' if i % 7 == 0 else
                    f'<link name="l{i}"><pose>0 0 {i} 0 0 0</pose></link>' for i in range(600))
    source = tmp_path / "many.sdf"
    source.write_text(f'<sdf xmlns:o="urn:first" version="1.9"><model name="m">{links}'
                      '</model></sdf>')
    diagnostics = Diagnostics()
    expected = to_bytes(compose_xml(source, Context(), diagnostics))
    printed, _ = print_document(source, Context())
    assert printed == expected
    assert printed.count(b"xmlns:o=\"urn:first\"") == 1
