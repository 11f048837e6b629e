"""``urdf-sdf graph`` (core.write.dot): frame graphs and kinematic trees as Graphviz DOT.

Goldens sit beside the inputs in ``fixtures/graph`` as ``<input>.<kind>.dot``;
regenerate them with ``UPDATE_GOLDENS=1`` after a deliberate change (and read the
diff). Every output is also parsed by a small DOT reader here (balanced braces,
every edge endpoint declared, one node per frame, labels decoded back to the
names), and, where Graphviz is installed, by ``dot`` itself. Without ``dot`` the
Graphviz tests skip, except under CI (``$CI`` set), where they fail.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from tests.support import graphviz_dot
from urdf_sdf.cli.graph import (
    GraphvizFailed,
    GraphvizUnavailable,
    OutputFormatUnknown,
    RenderError,
    check_output,
    graph_command,
    render,
    write_graph,
)
from urdf_sdf.cli.main import app as urdf_sdf_app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.core.write.dot import (
    GraphKind,
    format_pose,
    frame_graph_dot,
    kinematic_tree_dot,
    quote,
)

FIXTURES = Path(__file__).parents[2] / "fixtures" / "graph"
UPDATE = os.environ.get("UPDATE_GOLDENS", "") not in ("", "0")
FRAME_KINDS = ("attached_to", "relative_to", "both")

GOLDENS = [(name, kind) for name in ("nested_model_frames.sdf", "arm.urdf",
                                     "world_two_models.sdf")
           for kind in (*FRAME_KINDS, "tree")] + [
    ("special_names.urdf", "both"), ("special_names.urdf", "tree"),
    ("special_names.sdf", "both"), ("special_names.sdf", "tree"),
    ("frame_cycles.sdf", "both"),
]
VALID = [case for case in GOLDENS if case[0] != "frame_cycles.sdf"]


def load_fixture(name: str):
    return load(FIXTURES / name, Context())


def make_dot(result, kind: str) -> str:
    return kinematic_tree_dot(result) if kind == "tree" else frame_graph_dot(result, kind)


def no_temp_files(directory: Path) -> bool:
    return not [p for p in directory.iterdir() if p.name.endswith(".tmp")]


# ---- a small DOT reader --------------------------------------------------------------

TOKEN = re.compile(r'\s+|(?P<str>"(?:[^"\\]|\\.)*")|(?P<id>[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?)'
                   r"|(?P<op>->|[{}\[\]=;,])", re.S)


def decode(quoted: str) -> str:
    """A quoted DOT string as Graphviz shows it in a label: ``\\"`` is a quote, ``\\\\``
    a backslash, ``\\n`` a line break; any other escape (``\\N``, ``\\l``, ...) would be
    interpreted by Graphviz, so it must not occur."""
    out, body, i = [], quoted[1:-1], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1]
            if nxt not in '"\\n':
                raise AssertionError(f"unescaped Graphviz escape \\{nxt} in {quoted}")
            out.append({'"': '"', "\\": "\\", "n": "\n"}[nxt])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        assert m is not None, f"cannot lex DOT at {text[pos:pos + 40]!r}"
        pos = m.end()
        if m.lastgroup == "str":
            tokens.append(("id", decode(m.group())))
        elif m.lastgroup is not None:
            tokens.append((m.lastgroup, m.group()))
    return tokens


class ParsedDot:
    """Nodes (id -> attributes, enclosing clusters) and edges of a digraph."""

    def __init__(self, text: str):
        assert text.count("{") - text.count("}") == sum(
            s.count("{") - s.count("}") for s in re.findall(r'"(?:[^"\\]|\\.)*"', text)), \
            "unbalanced braces outside strings"
        self.tokens = tokenize(text)
        self.pos = 0
        self.nodes: dict[str, dict[str, str]] = {}
        self.clusters: dict[str, list[str]] = {}
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        self.graph_attrs: dict[str, str] = {}
        self.expect("id", "digraph")
        self.name = self.take("id")
        self.expect("op", "{")
        self.statements([])
        assert self.pos == len(self.tokens), "text after the closing brace"

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("eof", "")

    def take(self, kind: str) -> str:
        token = self.peek()
        assert token[0] == kind, f"expected {kind}, got {token}"
        self.pos += 1
        return token[1]

    def expect(self, kind: str, value: str) -> None:
        token = self.peek()
        assert token == (kind, value), f"expected {value!r}, got {token}"
        self.pos += 1

    def attributes(self) -> dict[str, str]:
        attrs: dict[str, str] = {}
        if self.peek() != ("op", "["):
            return attrs
        self.pos += 1
        while self.peek() != ("op", "]"):
            key = self.take("id")
            self.expect("op", "=")
            assert key not in attrs, f"attribute {key} twice"
            attrs[key] = self.take("id")
            if self.peek() in (("op", ","), ("op", ";")):
                self.pos += 1
        self.pos += 1
        return attrs

    def statements(self, clusters: list[str]) -> None:
        while self.peek() != ("op", "}"):
            token = self.peek()
            assert token[0] == "id", f"unexpected {token}"
            if token[1] in ("graph", "node", "edge"):
                self.pos += 1
                attrs = self.attributes()
                if token[1] == "graph" and not clusters:
                    self.graph_attrs.update(attrs)
            elif token[1] == "subgraph":
                self.pos += 1
                name = self.take("id")
                assert name not in self.clusters, f"subgraph {name} twice"
                self.clusters[name] = clusters + [name]
                self.expect("op", "{")
                self.statements(clusters + [name])
            else:
                first = self.take("id")
                if self.peek() == ("op", "->"):
                    self.pos += 1
                    second = self.take("id")
                    self.edges.append((first, second, self.attributes()))
                else:
                    assert first not in self.nodes, f"node {first} declared twice"
                    attrs = self.attributes()
                    attrs["_clusters"] = clusters
                    self.nodes[first] = attrs
            if self.peek() == ("op", ";"):
                self.pos += 1
        self.pos += 1


def check_dot(text: str) -> ParsedDot:
    parsed = ParsedDot(text)
    for tail, head, attrs in parsed.edges:
        assert tail in parsed.nodes, f"edge from undeclared node {tail}"
        assert head in parsed.nodes, f"edge to undeclared node {head}"
        assert "label" in attrs
    for node, attrs in parsed.nodes.items():
        assert "label" in attrs and "shape" in attrs, node
    return parsed


def test_dot_reader_rejects_broken_text():
    with pytest.raises(AssertionError):
        check_dot('digraph "g" {\n  a [label="x"];\n')
    with pytest.raises(AssertionError):
        check_dot('digraph "g" {\n  a [label="x", shape=box];\n  a -> b [label="e"];\n}\n')
    with pytest.raises(AssertionError):
        check_dot('digraph "g" {\n  a [label="\\N", shape=box];\n}\n')
    check_dot('digraph "g" {\n  a [label="{", shape=box];\n}\n')


# ---- goldens, structure, determinism --------------------------------------------------

@pytest.mark.parametrize("name,kind", GOLDENS, ids=[f"{n}-{k}" for n, k in GOLDENS])
def test_golden(name, kind):
    result = load_fixture(name)
    assert result.ok == (name != "frame_cycles.sdf"), [d.format() for d in result.diagnostics]
    text = make_dot(result, kind)
    golden = FIXTURES / f"{name}.{kind}.dot"
    if UPDATE:
        golden.write_bytes(text.encode("utf-8"))
    assert golden.exists(), f"missing golden {golden.name}: run with UPDATE_GOLDENS=1"
    assert text.encode("utf-8") == golden.read_bytes()


@pytest.mark.parametrize("name,kind", GOLDENS, ids=[f"{n}-{k}" for n, k in GOLDENS])
def test_structure(name, kind):
    """One node per frame (or per link), styled per kind, in its model's cluster; one
    edge per attached_to / relative_to edge (or per joint); labels are the names."""
    result = load_fixture(name)
    graph = result.graph
    parsed = check_dot(make_dot(result, kind))
    by_id = {f"v{v.id}": v for v in graph.vertices}
    shapes = {Kind.WORLD: "doubleoctagon", Kind.MODEL: "tab", Kind.LINK: "box",
              Kind.JOINT: "hexagon", Kind.FRAME: "ellipse"}
    if kind == "tree":
        expected = {f"v{v.id}" for v in graph.vertices if v.kind is Kind.LINK}
        assert set(parsed.nodes) - {"world"} == expected
    else:
        assert set(parsed.nodes) == set(by_id)
    for node, attrs in parsed.nodes.items():
        if node == "world":
            continue
        vertex = by_id[node]
        assert attrs["label"].split("\n")[0] == vertex.name
        assert attrs["shape"] == shapes[vertex.kind]
        assert attrs["tooltip"] == (vertex.scoped_name or "__model__")
        owners = []
        scope = vertex.scope
        while scope is not None and scope.owner.scope is not None:
            owners.append(f"cluster_v{scope.owner.id}")
            scope = scope.owner.scope
        if vertex.kind is Kind.MODEL and vertex.scope is not None:
            owners.insert(0, f"cluster_v{vertex.id}")  # a model's frame is in its cluster
        assert attrs["_clusters"] == owners[::-1], node
    edges = [(t, h, a["label"].split("\n")[0]) for t, h, a in parsed.edges]
    if kind == "tree":
        joints = [v.scoped_name for v in graph.vertices if v.kind is Kind.JOINT]
        assert sorted(label for *_, label in edges) == sorted(joints)
        return
    expected_edges = []
    for v in graph.vertices:
        if kind != "relative_to" and v.attached_to is not None:
            expected_edges.append((f"v{v.id}", f"v{v.attached_to}", "attached_to"))
        if kind != "attached_to" and v.relative_to is not None and v.scope is not None:
            expected_edges.append((f"v{v.id}", f"v{v.relative_to}", "relative_to"))
    assert edges == expected_edges


def test_relative_to_edges_carry_the_pose():
    parsed = check_dot(frame_graph_dot(load_fixture("nested_model_frames.sdf"), "relative_to"))
    labels = {(t, h): a["label"] for t, h, a in parsed.edges}
    graph = load_fixture("nested_model_frames.sdf").graph
    v = {vertex.scoped_name: f"v{vertex.id}" for vertex in graph.vertices}
    assert labels[(v["mount_point"], v["base"])] == "relative_to\n0.1 0 0.25 0 0 1.571"
    assert labels[(v["camera"], v["base"])] == "relative_to\n0.5 -0.25 1 0 0.7854 0"
    # A model placed by a placement frame: the model frame's pose, and the frame's name.
    assert labels[(v["arm"], v["mount_point"])] == \
        "relative_to\n0 0 -0.5 0 0 0\nplacement_frame flange"


def test_format_pose():
    assert format_pose(Pose()) == "0 0 0 0 0 0"
    assert format_pose(Pose.from_rpy((1 / 3, -0.0, 12345.678), (0, 0, -3.141592653589793))) == \
        "0.3333 0 1.235e+04 0 0 3.142"
    assert format_pose(Pose((1e-17, -2e-13, 2.5e-5))) == "0 0 2.5e-05 0 0 0"


def test_broken_chains_are_outlined():
    result = load_fixture("frame_cycles.sdf")
    for kind, red in (("attached_to", {"a", "b", "dangling"}),
                      ("relative_to", {"a", "b", "c", "d", "dangling"})):
        parsed = check_dot(frame_graph_dot(result, kind))
        outlined = {attrs["label"].split("\n")[0] for attrs in parsed.nodes.values()
                    if attrs.get("color") == "#cc0000"}
        assert outlined == red, kind


@pytest.mark.parametrize("name", ["special_names.urdf", "special_names.sdf"])
def test_special_names_round_trip(name):
    result = load_fixture(name)
    names = {v.name for v in result.graph.vertices}
    assert any('"' in n for n in names) and any("\\" in n for n in names)
    for kind in ("both", "tree"):
        parsed = check_dot(make_dot(result, kind))
        shown = {a["label"].split("\n")[0] for a in parsed.nodes.values()}
        if kind == "both":
            assert shown == names
        else:
            assert shown == {v.name for v in result.graph.vertices if v.kind is Kind.LINK}


@pytest.mark.parametrize("text", ['a::b', 'say "hi"', 'back\\slash\\', '\\N\\l\\G', '{x} -> [y];',
                                  'two\nlines', 'ünï ☃', ''])
def test_quote(text):
    assert tokenize(quote(text)) == [("id", text)]


def test_quoted_names_from_any_string():
    xml = ('<robot name="r"><link name="a\\&quot;b"/><link name="c"/><joint name="digraph" '
           'type="fixed"><parent link="a\\&quot;b"/><child link="c"/></joint></robot>')
    result = load_string(xml)
    assert result.ok
    parsed = check_dot(frame_graph_dot(result, "both"))
    assert {a["label"].split("\n")[0] for a in parsed.nodes.values()} == \
        {"r", 'a\\"b', "c", "digraph"}


@pytest.mark.parametrize("name,kind", VALID[:5], ids=[f"{n}-{k}" for n, k in VALID[:5]])
def test_deterministic_across_processes(name, kind):
    """Same input, same bytes: within a process and across hash seeds."""
    first = make_dot(load_fixture(name), kind)
    assert make_dot(load_fixture(name), kind) == first
    code = ("import sys; from urdf_sdf.core.base.context import Context; "
            "from urdf_sdf.core.loader import load; "
            "from urdf_sdf.core.write.dot import frame_graph_dot, kinematic_tree_dot; "
            "r = load(sys.argv[1], Context()); k = sys.argv[2]; "
            "sys.stdout.write(kinematic_tree_dot(r) if k == 'tree' else frame_graph_dot(r, k))")
    for seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code, str(FIXTURES / name), kind],
                             capture_output=True, env=env, check=True,
                             cwd=Path(__file__).parents[3])
        assert out.stdout.decode("utf-8") == first


def test_bad_arguments():
    result = load_fixture("arm.urdf")
    with pytest.raises(ValueError):
        frame_graph_dot(result, "tree")
    unread = load(FIXTURES / "does_not_exist.sdf", Context())
    with pytest.raises(ValueError):
        frame_graph_dot(unread)
    with pytest.raises(ValueError):
        kinematic_tree_dot(unread)
    assert frame_graph_dot(result, GraphKind.both) == frame_graph_dot(result)


# ---- rendering -----------------------------------------------------------------------

SMALL = 'digraph "g" {\n  v0 [label="a", shape=box];\n}\n'


def test_render_text_files(tmp_path, capsysbinary):
    for suffix in (".dot", ".gv", ".DOT"):
        target = tmp_path / f"graph{suffix}"
        assert render(SMALL, target) == ""
        assert target.read_text() == SMALL
    render(SMALL, None)
    render(SMALL, "-")
    assert capsysbinary.readouterr().out == SMALL.encode() * 2
    assert no_temp_files(tmp_path)


def test_render_bad_destinations(tmp_path):
    with pytest.raises(OutputFormatUnknown) as info:
        render(SMALL, tmp_path / "graph.txt")
    assert info.value.code == "GRAPH_FORMAT_UNKNOWN" and info.value.exit_code == 2
    assert ".dot" in str(info.value) and ".svg" in str(info.value)
    with pytest.raises(OutputFormatUnknown):
        render(SMALL, tmp_path / "graph")
    for target in (tmp_path, tmp_path / "missing" / "graph.dot", tmp_path / "missing" / "g.svg"):
        with pytest.raises(RenderError) as info:
            render(SMALL, target)
        assert info.value.exit_code == 2
    source = tmp_path / "input.dot"
    source.write_text("keep")
    with pytest.raises(RenderError):
        render(SMALL, source, [str(source)])
    assert source.read_text() == "keep"
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())


def without_dot(monkeypatch):
    real = shutil.which
    monkeypatch.setattr(shutil, "which",
                        lambda name, *a, **k: None if name == "dot" else real(name, *a, **k))


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_missing_dot(tmp_path, monkeypatch, suffix):
    without_dot(monkeypatch)
    target = tmp_path / f"graph{suffix}"
    with pytest.raises(GraphvizUnavailable) as info:
        render(SMALL, target)
    error = info.value
    assert error.code == "GRAPHVIZ_UNAVAILABLE" and error.exit_code == 1
    assert "apt-get install graphviz" in str(error) and "-o graph.dot" in str(error)
    assert error.format().startswith(f"{target}: error[GRAPHVIZ_UNAVAILABLE]: ")
    assert not target.exists() and not list(tmp_path.iterdir())
    target.write_text("old")  # an existing file stays as it was
    with pytest.raises(GraphvizUnavailable):
        render(SMALL, target)
    assert target.read_text() == "old"
    with pytest.raises(GraphvizUnavailable):
        check_output(target)
    render(SMALL, tmp_path / "graph.dot")  # DOT text needs no Graphviz
    assert (tmp_path / "graph.dot").read_text() == SMALL


def test_failing_dot_leaves_nothing(tmp_path, monkeypatch):
    """A ``dot`` that writes half a file and fails: the target is untouched."""
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\nprintf "<svg"\n'
                    'echo "Error: <stdin>: syntax error in line 1" >&2\nexit 1\n')
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: str(fake))
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "graph.svg"
    with pytest.raises(GraphvizFailed) as info:
        render(SMALL, target)
    assert info.value.code == "GRAPHVIZ_FAILED" and "syntax error" in str(info.value)
    assert list(out_dir.iterdir()) == []
    target.write_text("old")
    with pytest.raises(GraphvizFailed):
        render(SMALL, target)
    assert target.read_text() == "old" and list(out_dir.iterdir()) == [target]


def test_dot_accepts_every_golden():
    dot = graphviz_dot()
    for name, kind in GOLDENS:
        text = (FIXTURES / f"{name}.{kind}.dot").read_bytes()
        done = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, timeout=60)
        assert done.returncode == 0, (name, kind, done.stderr.decode())
        assert b"syntax" not in done.stderr and b"Error" not in done.stderr, done.stderr


def svg_texts(path: Path) -> tuple[etree._Element, list[str]]:
    root = etree.parse(str(path)).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    return root, ["".join(t.itertext()) for t in root.iterfind(".//s:text", ns)]


@pytest.mark.parametrize("name", ["special_names.urdf", "special_names.sdf",
                                  "nested_model_frames.sdf"])
def test_render_svg_shows_the_names(tmp_path, name):
    """Graphviz draws each name verbatim: nothing lost or interpreted (``\\N``...)."""
    graphviz_dot()
    result = load_fixture(name)
    for kind in ("both", "tree"):
        target = tmp_path / f"{kind}.svg"
        render(make_dot(result, kind), target)
        root, texts = svg_texts(target)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        expected = {v.name for v in result.graph.vertices}
        if kind == "tree":
            expected = {v.name for v in result.graph.vertices if v.kind is Kind.LINK}
        assert expected <= set(texts), expected - set(texts)
    assert no_temp_files(tmp_path)


def test_render_png_and_pdf(tmp_path):
    graphviz_dot()
    text = frame_graph_dot(load_fixture("world_two_models.sdf"))
    render(text, tmp_path / "graph.png")
    render(text, tmp_path / "graph.PDF")
    assert (tmp_path / "graph.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (tmp_path / "graph.PDF").read_bytes().startswith(b"%PDF")
    mode = (tmp_path / "graph.png").stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # not mkstemp's private 0600
    assert no_temp_files(tmp_path)


# ---- the command ---------------------------------------------------------------------

class Stream:
    def __init__(self):
        self.parts: list[str] = []

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(self.parts)


def test_graph_command_writes_dot(tmp_path, capsysbinary):
    err = Stream()
    assert graph_command(FIXTURES / "arm.urdf", "tree", None, [], err) == 0
    assert capsysbinary.readouterr().out.decode() == \
        (FIXTURES / "arm.urdf.tree.dot").read_text()
    assert err.text == ""
    target = tmp_path / "g.gv"
    assert graph_command(str(FIXTURES / "nested_model_frames.sdf"), GraphKind.relative_to,
                         target, None, err) == 0
    assert target.read_text() == \
        (FIXTURES / "nested_model_frames.sdf.relative_to.dot").read_text()


def test_graph_command_invalid_input(tmp_path):
    err = Stream()
    target = tmp_path / "g.dot"
    # The frame graphs of an invalid file are written (broken chains in red); exit 1.
    assert graph_command(FIXTURES / "frame_cycles.sdf", "both", target, None, err) == 1
    assert "error[FRAME_ATTACHED_TO_CYCLE]" in err.text
    assert target.read_text() == (FIXTURES / "frame_cycles.sdf.both.dot").read_text()
    err = Stream()
    assert graph_command(FIXTURES / "frame_cycles.sdf", "tree", tmp_path / "t.dot", None,
                         err) == 1
    assert "--kind both" in err.text and not (tmp_path / "t.dot").exists()
    err = Stream()
    assert graph_command(tmp_path / "missing.sdf", "both", tmp_path / "m.dot", None, err) == 1
    assert "error[FILE_READ]" in err.text and not (tmp_path / "m.dot").exists()


def test_graph_command_usage_errors(tmp_path, monkeypatch):
    err = Stream()
    assert graph_command(FIXTURES / "arm.urdf", "nope", None, None, err) == 2
    assert "attached_to, relative_to, both, tree" in err.text
    err = Stream()
    assert graph_command(FIXTURES / "arm.urdf", "both", tmp_path / "g.jpeg", None, err) == 2
    assert "error[GRAPH_FORMAT_UNKNOWN]" in err.text
    err = Stream()
    assert graph_command(FIXTURES / "arm.urdf", "both", tmp_path / "no" / "g.dot", None,
                         err) == 2
    without_dot(monkeypatch)
    err = Stream()
    # No Graphviz: fails before loading anything, says how to install it.
    assert graph_command(tmp_path / "missing.sdf", "both", tmp_path / "g.svg", None, err) == 1
    assert "error[GRAPHVIZ_UNAVAILABLE]" in err.text and "FILE_READ" not in err.text
    assert "apt-get install graphviz" in err.text
    assert list(tmp_path.iterdir()) == []


def test_graph_command_hooks(tmp_path):
    """The CLI loads (stdin, xacro) and prints diagnostics its own way."""
    calls = []

    def loader(file, paths):
        calls.append(("load", file, paths))
        return load(FIXTURES / "frame_cycles.sdf", Context())

    def report(result, stream):
        calls.append(("report", len(result.diagnostics)))
        stream.write("reported\n")

    err = Stream()
    target = tmp_path / "g.dot"
    assert graph_command("-", "attached_to", target, ["dir"], err, loader=loader,
                         report=report) == 1
    assert calls == [("load", "-", ["dir"]), ("report", 4)]
    assert err.text == "reported\n"
    assert target.read_text() == frame_graph_dot(load_fixture("frame_cycles.sdf"),
                                                 "attached_to")
    assert write_graph(load_fixture("arm.urdf"), "tree", target, [], err) == 0
    assert target.read_text() == (FIXTURES / "arm.urdf.tree.dot").read_text()
    assert write_graph(load_fixture("arm.urdf"), "bad", target, [], err) == 2


def test_graph_command_renders_svg(tmp_path):
    graphviz_dot()
    err = Stream()
    target = tmp_path / "graph.svg"
    assert graph_command(FIXTURES / "world_two_models.sdf", "both", target, None, err) == 0
    root, texts = svg_texts(target)
    assert "gripper" in texts and "bolt" in texts
    assert no_temp_files(tmp_path)


def test_cli(tmp_path):
    runner = CliRunner()
    app = urdf_sdf_app
    out = runner.invoke(app, ["graph", "--help"])
    assert out.exit_code == 0
    for choice in ("attached_to", "relative_to", "both", "tree"):
        assert choice in out.output
    out = runner.invoke(app, ["graph", str(FIXTURES / "arm.urdf"), "--kind", "both"])
    assert out.exit_code == 0
    assert out.stdout == (FIXTURES / "arm.urdf.both.dot").read_text()
    target = tmp_path / "tree.dot"
    out = runner.invoke(app, ["graph", str(FIXTURES / "world_two_models.sdf"), "--kind", "TREE",
                              "-o", str(target)])
    assert out.exit_code == 0, out.output
    assert target.read_text() == (FIXTURES / "world_two_models.sdf.tree.dot").read_text()
    # the kinematic tree is the default, for an SDF world as for a URDF
    out = runner.invoke(app, ["graph", str(FIXTURES / "world_two_models.sdf"),
                              "-o", str(target)])
    assert out.exit_code == 0, out.output
    assert target.read_text() == (FIXTURES / "world_two_models.sdf.tree.dot").read_text()
    out = runner.invoke(app, ["graph", str(FIXTURES / "arm.urdf"), "--kind", "tree-ish"])
    assert out.exit_code == 2
