"""The URDF-parity checker (core.inspect.parity) and ``urdf-sdf check --urdf-parity``.

tests/fixtures/parity/ holds one tiny SDF per rule: ``parity_holds_*`` files keep URDF
parity (the two spec examples "Parity with URDF" and its //model/frame variant, and a
world holding one such model); every other file breaks exactly one ``URDF_PARITY_*``
rule, named in its third-line comment. For each, the report must name the rule's code,
the element that breaks it, where (file:line of that element) and why (the rule's text).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from urdf_sdf.cli.main import app
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code, Severity
from urdf_sdf.core.graph import Kind
from urdf_sdf.core.inspect.parity import RULES, check_parity
from urdf_sdf.core.loader import load

HERE = Path(__file__).resolve().parents[2]
PARITY = HERE / "fixtures" / "parity"
DIAGNOSTIC_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): "
                             r"error\[(?P<code>URDF_PARITY_[A-Z_]+)\]: "
                             r"(?P<message>.+)$")
runner = CliRunner()

HOLDS = ["parity_holds_relative_to.sdf", "parity_holds_model_frames.sdf"]

# fixture -> (code, what the message must name, the element's (tag, name) in the file)
BREAKS = {
    "parity_nested_model.sdf": ("URDF_PARITY_NESTED_MODEL", "gripper", ("model", "gripper")),
    "parity_joint_type.sdf": ("URDF_PARITY_JOINT_TYPE", "shoulder", ("joint", "shoulder")),
    "parity_not_a_tree_loop.sdf": ("URDF_PARITY_NOT_A_TREE", "closing", ("joint", "closing")),
    "parity_joint_pose_relative_to_model.sdf": ("URDF_PARITY_JOINT_POSE", "elbow",
                                                ("joint", "elbow")),
    "parity_joint_pose_two_poses_through_frames.sdf": ("URDF_PARITY_JOINT_POSE", "shoulder",
                                                       ("joint", "shoulder")),
    "parity_joint_pose_degrees.sdf": ("URDF_PARITY_JOINT_POSE", "shoulder",
                                      ("joint", "shoulder")),
    "parity_child_link_pose.sdf": ("URDF_PARITY_CHILD_LINK_POSE", "arm", ("link", "arm")),
    "parity_root_link_pose.sdf": ("URDF_PARITY_ROOT_LINK_POSE", "base", ("link", "base")),
    "parity_axis_frame.sdf": ("URDF_PARITY_AXIS_FRAME", "shoulder", ("joint", "shoulder")),
    "parity_frame_pose.sdf": ("URDF_PARITY_FRAME_POSE", "camera", ("frame", "camera")),
}
TWO_ROOTS = "parity_not_a_tree_two_roots.sdf"


def parity(name: str, scope_name: str | None = None):
    path = PARITY / name
    result = load(str(path), Context())
    assert result.ok, [d.format() for d in result.diagnostics]
    scope = None
    if scope_name is not None:
        graph = result.graph
        scope = next(graph.vertices[v].inner for v in graph.root.vertices
                     if graph.vertices[v].kind is Kind.MODEL
                     and graph.vertices[v].name == scope_name)
    return check_parity(result, scope)


def element_lines(name: str, tag: str, element_name: str) -> set[int]:
    """Source lines of the element and of its direct children (an axis finding may point at
    <axis> or <xyz>; a pose finding at the element or its <pose>)."""
    tree = etree.parse(str(PARITY / name))
    element = next(el for el in tree.iter(tag) if el.get("name") == element_name)
    lines = {element.sourceline}
    for child in element.iter():
        if isinstance(child.tag, str):
            lines.add(child.sourceline)
    return lines


def comment_rule(name: str) -> str:
    """The rule the fixture's third-line comment says it breaks (or HOLDS; the two
    copies of spec fixtures keep the spec's VALID)."""
    third = (PARITY / name).read_text().splitlines()[2]
    match = re.search(r"<!-- (HOLDS|VALID|BREAKS (URDF_PARITY_[A-Z_]+)):", third)
    assert match, f"{name}: the third line must say HOLDS or BREAKS <code>: {third!r}"
    return match.group(2) or "HOLDS"


# ---- the rules themselves ----------------------------------------------------------------

def test_every_rule_has_a_stable_code_and_a_docstring():
    assert set(RULES) == {
        "URDF_PARITY_NESTED_MODEL", "URDF_PARITY_JOINT_TYPE", "URDF_PARITY_NOT_A_TREE",
        "URDF_PARITY_JOINT_POSE", "URDF_PARITY_CHILD_LINK_POSE", "URDF_PARITY_ROOT_LINK_POSE",
        "URDF_PARITY_AXIS_FRAME", "URDF_PARITY_FRAME_POSE"}
    for code, text in RULES.items():
        assert Code(code).value == code  # a diagnostic code, stable by name
        assert len(text.split()) >= 8, f"{code} needs a real explanation, not {text!r}"


def test_every_rule_has_a_breaking_fixture():
    covered = {code for code, _, _ in BREAKS.values()} | {"URDF_PARITY_NOT_A_TREE"}
    assert covered == set(RULES)
    on_disk = {p.name for p in PARITY.glob("*.sdf")}
    assert on_disk == set(BREAKS) | {TWO_ROOTS} | set(HOLDS) | {"parity_holds_world_model.sdf"}


@pytest.mark.parametrize("name", sorted(p.name for p in PARITY.glob("*.sdf")))
def test_fixture_comment_names_its_rule(name):
    expected = "HOLDS" if name.startswith("parity_holds") else \
        (BREAKS[name][0] if name in BREAKS else "URDF_PARITY_NOT_A_TREE")
    assert comment_rule(name) == expected


# ---- parity holds --------------------------------------------------------------------------

@pytest.mark.parametrize("name", HOLDS)
def test_spec_parity_examples_hold(name):
    report = parity(name)
    assert report.holds, [f.format() for f in report.findings]
    assert report.findings == []
    assert report.model == "model"


def test_spec_parity_examples_are_the_spec_fixtures():
    spec = HERE / "fixtures" / "spec"
    assert (PARITY / HOLDS[0]).read_bytes() == (spec / "urdf_parity_relative_to.sdf").read_bytes()
    assert (PARITY / HOLDS[1]).read_bytes() == (spec / "urdf_parity_model_frames.sdf").read_bytes()


def test_copyable_pose_text_is_the_joint_pose_text():
    """Under parity, each joint's origin is the one non-identity pose on its way to the
    parent link: the joint's own pose, or (//frame variant) the frame's."""
    expected = {"joint1": "0.1 0.2 0.3 0.4 0.5 0.6", "joint2": "-0.2 0.3 0.5 0.1 -0.2 0.3",
                "joint3": "0.3 -0.1 0.2 -0.3 0.2 0.1"}
    for name in HOLDS:
        report = parity(name)
        for joint, text in expected.items():
            assert report.copyable[joint] is not None, (name, joint)
            assert report.copyable[joint].text.split() == text.split(), (name, joint)


def test_copyable_frames_of_the_frame_variant():
    report = parity(HOLDS[1])
    assert report.copyable["joint1_frame"].text.split() == "0.1 0.2 0.3 0.4 0.5 0.6".split()
    assert report.copyable["joint3_frame"].text.split() == "0.3 -0.1 0.2 -0.3 0.2 0.1".split()
    # attached to a joint whose child sits at it: identity in that child link
    for frame in ("link2_frame", "link3_frame", "link4_frame"):
        assert frame in report.copyable and report.copyable[frame] is None


def test_world_model_parity_holds():
    report = parity("parity_holds_world_model.sdf", "robot")
    assert report.holds, [f.format() for f in report.findings]
    assert report.model.split("::")[-1] == "robot"


# ---- each rule broken ----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(BREAKS))
def test_breaking_fixture_reports_its_rule_element_and_line(name):
    code, named, (tag, element_name) = BREAKS[name]
    report = parity(name)
    assert not report.holds
    findings = [f for f in report.findings if f.code.value == code]
    assert findings, f"{name}: no {code} in {[f.format() for f in report.findings]}"
    finding = findings[0]
    assert finding.severity is Severity.ERROR
    assert f"[{named}]" in finding.message
    assert finding.file == str(PARITY / name)
    assert finding.line in element_lines(name, tag, element_name), finding.format()
    assert RULES[code] in finding.message  # ... and why


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_breaking_fixture_reports_only_its_rule(name):
    """Each fixture breaks one rule; a second finding would be a false claim."""
    code = BREAKS[name][0]
    report = parity(name)
    assert [f.code.value for f in report.findings] == [code], \
        [f.format() for f in report.findings]


def test_several_root_links_are_named_with_file_and_line():
    report = parity(TWO_ROOTS)
    assert [f.code.value for f in report.findings] == ["URDF_PARITY_NOT_A_TREE"]
    finding = report.findings[0]
    assert "[left]" in finding.message or "left" in finding.message
    assert "right" in finding.message
    assert RULES["URDF_PARITY_NOT_A_TREE"] in finding.message
    # Every finding points somewhere: the model, or one of the root links.
    assert finding.file == str(PARITY / TWO_ROOTS)
    assert finding.line in (element_lines(TWO_ROOTS, "model", "model")
                            | element_lines(TWO_ROOTS, "link", "left")), finding.format()


def test_degrees_finding_says_why():
    """The degrees pose is relative_to the parent link; the reason it cannot be copied is
    its unit, and the message must say so rather than claim another relative_to."""
    finding = parity("parity_joint_pose_degrees.sdf").findings[0]
    assert "degree" in finding.message, finding.message


def test_report_names_every_breaking_element():
    """Two joints breaking the same rule: both are reported."""
    text = (PARITY / "parity_joint_pose_relative_to_model.sdf").read_text()
    result_text = text.replace('<pose relative_to="base">0 0 1 0 0 0</pose>',
                               '<pose relative_to="__model__">0 0 1 0 0 0</pose>')
    from urdf_sdf.core.loader import load_string
    result = load_string(result_text, "two.sdf")
    assert result.ok
    report = check_parity(result)
    named = sorted(re.search(r"joint \[(\w+)\]", f.message).group(1) for f in report.findings
                   if f.code is Code.URDF_PARITY_JOINT_POSE)
    assert named == ["elbow", "shoulder"]


# ---- the command line ----------------------------------------------------------------------

def check(*args):
    return runner.invoke(app, ["check", "--urdf-parity", *[str(a) for a in args]])


@pytest.mark.parametrize("name", HOLDS)
def test_cli_parity_holds_exits_zero(name):
    path = PARITY / name
    result = check(path)
    assert result.exit_code == 0, result.output
    assert f"{path}: URDF parity holds for model [model]" in result.stdout
    assert "error[" not in result.stdout


def test_cli_world_model_parity_holds():
    path = PARITY / "parity_holds_world_model.sdf"
    for args in ([path], [path, "--model", "robot"]):
        result = check(*args)
        assert result.exit_code == 0, result.output
        assert "URDF parity holds" in result.stdout


@pytest.mark.parametrize("name", sorted(BREAKS) + [TWO_ROOTS])
def test_cli_parity_broken_exits_one_with_file_line_code(name):
    path = PARITY / name
    result = check(path)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stdout.splitlines() if "error[URDF_PARITY_" in line]
    assert lines, result.stdout
    for line in lines:
        match = DIAGNOSTIC_LINE.match(line)
        assert match, f"not file:line: error[CODE]: message: {line!r}"
        assert match["file"] == str(path)
    expected = BREAKS[name][0] if name in BREAKS else "URDF_PARITY_NOT_A_TREE"
    assert expected in {DIAGNOSTIC_LINE.match(line)["code"] for line in lines}
    assert "parity holds" not in result.stdout


def test_cli_without_parity_flag_only_validates():
    result = runner.invoke(app, ["check", str(PARITY / "parity_root_link_pose.sdf")])
    assert result.exit_code == 0
    assert "URDF_PARITY" not in result.stdout


def test_cli_invalid_file_exits_one_before_parity(tmp_path):
    bad = tmp_path / "bad.sdf"
    bad.write_text('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="m">\n'
                   '    <link name="a"/>\n    <link name="a"/>\n  </model>\n</sdf>\n')
    result = check(bad)
    assert result.exit_code == 1
    assert f"{bad}:5: error[DUPLICATE_NAME]" in result.stdout
    assert "URDF_PARITY" not in result.stdout


def test_cli_world_with_unknown_model_is_a_usage_error():
    result = check(PARITY / "parity_holds_world_model.sdf", "--model", "nope")
    assert result.exit_code == 2


def test_cli_parity_as_a_subprocess():
    path = PARITY / "parity_child_link_pose.sdf"
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main",
                           "check", "--urdf-parity", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"{path}:12: error[URDF_PARITY_CHILD_LINK_POSE]: link [arm]")
    assert "Traceback" not in proc.stderr
    ok = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "check", "--urdf-parity",
                         str(PARITY / HOLDS[1])], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
