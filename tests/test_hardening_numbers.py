"""Issue 24, numbers and sizes: a computed pose that overflows is NUMBER_NOT_FINITE at the
element that produced it, in every command (never ``nan nan nan`` written, never "valid",
never "equivalent"); JSON never holds NaN; ``inf`` in a sensor or light pose is refused as
in every other pose; an include bomb is INCLUDE_TOO_LARGE as it expands; ``<gazebo>``
blocks convert in linear time."""
from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.support import TIMEOUT, examples
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
from urdf_sdf.cli.render import print_json
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.compose import included as included_module
from urdf_sdf.core.diff.compare import diff_results
from urdf_sdf.core.inspect.report import frames_report
from urdf_sdf.core.loader import load, load_string
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf, gazebo

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile"
OVERFLOW = HOSTILE / "offset_overflow_is_not_finite.urdf"
CANCELLING = HOSTILE / "offsets_large_but_finite.urdf"
JOINT_OVERFLOW = HOSTILE / "joint_pose_in_parent_overflows.sdf.xml"
VISUAL_OVERFLOW = HOSTILE / "visual_pose_overflows.sdf.xml"
runner = CliRunner()


def refuse_constants(text: str):
    raise AssertionError(f"JSON holds {text}")


def strict_json(text: str):
    """``text`` as JSON, failing on NaN and Infinity (which are not JSON)."""
    return json.loads(text, parse_constant=refuse_constants)


def assert_refused_not_finite(result, line: int, exit_code: int = 1) -> None:
    assert result.exit_code == exit_code, result.output
    assert f":{line}: error[NUMBER_NOT_FINITE]" in result.output
    assert "nan nan nan" not in result.output.split("NUMBER_NOT_FINITE")[0]
    assert "Traceback" not in result.output and "INTERNAL_ERROR" not in result.output


# ---- item 9: overflowing offsets ------------------------------------------------------

def test_offset_overflow_is_not_finite_at_the_joint_that_overflows(diagnostics_checked):
    result = diagnostics_checked.watch(load(OVERFLOW))
    assert not result.ok
    diagnostic = diagnostics_checked.take_error(Code.NUMBER_NOT_FINITE)
    assert diagnostic.line == 12 and "[j2]" in diagnostic.message  # j2, not j1 nor link b


@pytest.mark.parametrize("app, args", [
    (urdf2sdf, []), (urdf2sdf, ["--relative"]), (umbrella, ["check"]),
    (umbrella, ["frames"]), (umbrella, ["print"]), (umbrella, ["roundtrip"])],
    ids=["urdf2sdf", "urdf2sdf-relative", "check", "frames", "print", "roundtrip"])
def test_offset_overflow_is_refused_by_every_command(app, args):
    result = runner.invoke(app, [*args, str(OVERFLOW)])
    assert_refused_not_finite(result, 12, 3 if args == ["roundtrip"] else 1)  # not loaded
    assert "<sdf" not in result.output  # nothing written


def test_frames_json_of_an_overflow_is_json_without_nan():
    result = runner.invoke(umbrella, ["frames", "--json", str(OVERFLOW)])
    assert result.exit_code == 1
    report = strict_json(result.stdout)
    assert report["ok"] is False
    assert [d["code"] for d in report["diagnostics"]] == ["NUMBER_NOT_FINITE"]
    assert "b" not in report["links"] and "j2" not in report["joints"]
    assert report["links"]["a"][0] == 1e308


def test_diff_of_an_overflow_is_never_equivalent():
    for other in (OVERFLOW, CANCELLING):
        result = runner.invoke(umbrella, ["diff", "--json", str(OVERFLOW), str(other)])
        assert result.exit_code == 3  # A does not load: not compared
        report = strict_json(result.stdout)
        assert report["equivalent"] is False
        assert "NUMBER_NOT_FINITE" in report["differences"][0]["message"]


def test_diff_never_says_equivalent_when_a_pose_is_nan():
    """Whatever the loader lets through: a pose that is no number differs, also from
    another NaN (the comparisons are ``not gap <= tol``)."""
    a = load(CANCELLING)
    b = load(CANCELLING)
    assert a.ok and b.ok and not diff_results(a, b)
    for result in (a, b):
        joint = result.graph.find("j2")
        joint.pose = Pose((math.nan, 0.0, 0.0))
        result.graph.local_poses.clear()
        result.graph.root_poses.clear()
    differences = diff_results(a, b)
    assert {(d.kind, d.name) for d in differences} >= {("pose", "b")}


def test_large_offsets_that_cancel_are_valid():
    result = load(CANCELLING)
    assert result.ok, [d.format() for d in result.diagnostics]
    assert result.pose("b").position == (0.0, 0.0, 0.0)
    assert runner.invoke(urdf2sdf, [str(CANCELLING)]).exit_code == 0


def test_joint_pose_in_parent_overflow_is_not_finite():
    """Both links are finite relative to the model: the joint in its parent link (what
    sdf2urdf writes as the joint's origin) is not."""
    for app, args in ((umbrella, ["check"]), (sdf2urdf, [])):
        result = runner.invoke(app, [*args, str(JOINT_OVERFLOW)])
        assert_refused_not_finite(result, 7)
        assert "<robot" not in result.output  # no URDF with a nan origin


def test_visual_pose_overflow_is_not_finite_at_the_visual():
    for app, args in ((umbrella, ["check"]), (sdf2urdf, [])):
        result = runner.invoke(app, [*args, str(VISUAL_OVERFLOW)])
        assert_refused_not_finite(result, 9)  # its <pose>
        assert "<robot" not in result.output


def test_lump_fixed_inertia_overflow_is_not_finite():
    """--lump-fixed combines inertials with squared distances: 1e200 apart, they overflow;
    an error at the surviving link's inertial, not an INTERNAL_ERROR or an inf written."""
    path = str(HOSTILE / "lump_fixed_inertia_overflow.urdf")
    assert runner.invoke(urdf2sdf, [path]).exit_code == 0
    result = runner.invoke(urdf2sdf, ["--lump-fixed", path])
    assert_refused_not_finite(result, 5)
    assert "[a]" in result.output and "<sdf" not in result.output


def test_print_json_refuses_nan():
    """JSON never holds NaN: one that reaches the printer is a bug, never invalid JSON."""
    with pytest.raises(ValueError):
        print_json({"pose": [math.nan]})


CHAIN = ('<robot name="r"><link name="l0"/>{links}{joints}</robot>')


def chain_urdf(offsets: list[float]) -> str:
    links = "".join(f'<link name="l{i + 1}"/>' for i in range(len(offsets)))
    joints = "".join(f'<joint name="j{i + 1}" type="fixed"><parent link="l{i}"/>'
                     f'<child link="l{i + 1}"/><origin xyz="{x!r} 0 0" rpy="0 0 {i}"/></joint>'
                     for i, x in enumerate(offsets))
    return CHAIN.format(links=links, joints=joints)


HUGE = st.floats(min_value=1e306, max_value=1.7e308) | st.floats(min_value=-1.7e308,
                                                                   max_value=-1e306)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(HUGE | st.floats(min_value=-10, max_value=10), min_size=1, max_size=6))
def test_a_chain_of_huge_offsets_is_finite_or_refused(offsets):
    """Either the file is refused with NUMBER_NOT_FINITE, or every pose it reports (and
    its JSON) is finite."""
    result = load_string(chain_urdf(offsets), "chain.urdf")
    codes = {d.code for d in result.diagnostics if d.is_error}
    assert codes <= {Code.NUMBER_NOT_FINITE}
    report = frames_report(result)
    poses = [p for section in ("links", "joints") for p in report[section].values()]
    assert all(math.isfinite(v) for pose in poses for v in pose)
    strict_json(json.dumps(report, allow_nan=False))
    if result.ok:
        assert len(poses) == 2 * len(offsets) + 1


# ---- item 9: sensor and light poses ---------------------------------------------------

def test_sensor_pose_infinite_is_refused_as_every_pose(diagnostics_checked):
    result = diagnostics_checked.watch(load(HOSTILE / "sensor_pose_infinite.sdf.xml"))
    lines = sorted(diagnostics_checked.take_error(Code.ELEMENT_INVALID).line for _ in range(3))
    assert lines == [7, 10, 18]
    assert not result.ok


def test_gazebo_sensor_pose_infinite_is_refused():
    path = str(HOSTILE / "gazebo_sensor_pose_infinite.urdf")
    for app, args in ((umbrella, ["check"]), (urdf2sdf, [])):
        result = runner.invoke(app, [*args, path])
        assert result.exit_code == 1
        assert ":7: error[ELEMENT_INVALID]" in result.output
        assert "<sdf" not in result.output


# ---- item 11: <gazebo> blocks in linear time ---------------------------------------------

GAZEBO_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "urdf2sdf" / "gazebo"


def gazebo_blocks_for_one_link(count: int, blobs: bool = False) -> str:
    """``count`` blocks for one link, each adding a sensor, an unnamed visual (renamed), a
    collision, a value of every collision (the same each time), a link value (later wins)
    and content kept as ``<urdf:gazebo>``; with ``blobs``, every seventh block also sets
    another friction value and extends the collisions with a ``<collision>`` without
    geometry (which may change what the values set)."""
    def block(i: int) -> str:
        blob = (f'<mu2>{i % 3}</mu2><collision><surface><friction><ode><mu>{i}</mu></ode>'
                '</friction></surface></collision>') if blobs and i % 7 == 3 else ""
        return (f'<gazebo reference="base"><sensor name="s{i}" type="imu"><pose>0 0 {i} 0 0 0'
                '</pose></sensor><visual><geometry><box><size>1 1 1</size></box></geometry>'
                '</visual><collision><geometry><sphere><radius>1</radius></sphere></geometry>'
                f'</collision><mu1>0.5</mu1>{blob}<selfCollide>{"true" if i % 2 else "false"}'
                f'</selfCollide><unknown{i % 5}/></gazebo>')
    blocks = "".join(block(i) for i in range(count))
    return (f'<robot name="r"><link name="base"><visual name="base_visual"><geometry>'
            f'<box size="1 1 1"/></geometry></visual></link>{blocks}</robot>')


def steps_converting(text: str) -> int:
    """Lines of Python run converting ``text`` (loops over children included): a count of
    steps, not a time."""
    steps = [0]

    def trace(frame, event, arg):
        steps[0] += 1
        return trace
    result = load_string(text, "blocks.urdf")
    sys.settrace(trace)
    try:
        conversion = convert_urdf(result, ToSdf())
    finally:
        sys.settrace(None)
    assert conversion.ok
    return steps[0]


def test_gazebo_blocks_for_one_link_cost_linear_steps():
    """Four times the blocks, about four times the steps (it was sixteen: each block
    scanned the link's children, which every block adds to, and merged its collision value
    into every collision again)."""
    small, large = (steps_converting(gazebo_blocks_for_one_link(n)) for n in (150, 600))
    assert large < 5 * small, (small, large)


class ScanningIndex:
    """``gazebo_index.ChildIndex`` as a scan of the children at each question: what the
    index must answer, without an index (and, with ``already_applied`` giving 0, every
    block value merged into every shape again, as before)."""

    def named(self, parent, tag, name):
        return next((c for c in parent.iterchildren(tag) if c.get("name") == name), None)

    def of_tag(self, parent, tag):
        return parent.findall(tag)

    def free_name(self, parent, tag, base):
        taken = {c.get("name") for c in parent.findall(tag)}
        name, i = base, 1
        while name in taken:
            name, i = f"{base}_{i}", i + 1
        return name

    def replaced(self, parent, old, new):
        pass


@pytest.mark.parametrize("case", [*sorted(GAZEBO_FIXTURES.glob("*.urdf")),
                                  *sorted((GAZEBO_FIXTURES / "lump").glob("*.urdf")), None],
                         ids=lambda p: p.stem if p is not None else "many_blocks")
def test_gazebo_index_converts_as_a_scan_does(case, monkeypatch):
    text = case.read_text() if case is not None else gazebo_blocks_for_one_link(60, True)
    name = str(case) if case is not None else "blocks.urdf"
    options = ToSdf(lump_fixed=case is not None and case.parent.name == "lump")

    def converted():
        conversion = convert_urdf(load_string(text, name), options)
        return conversion.xml, [d.format() for d in conversion.diagnostics]
    indexed = converted()
    monkeypatch.setattr(gazebo, "ChildIndex", ScanningIndex)
    monkeypatch.setattr(gazebo, "already_applied", lambda last, content: 0)  # merge all again
    assert converted() == indexed


# ---- item 10: include bombs -------------------------------------------------------------

def write_include_bomb(folder: Path, files: int = 21) -> Path:
    """``files`` files of about 150 bytes, each including the next twice: 2**20 copies of
    the last one when expanded. The first file is returned."""
    for i in range(files):
        if i < files - 1:
            body = "".join(f'<include><uri>f{i + 1}.sdf</uri><name>{side}</name></include>'
                           for side in "ab")
        else:
            body = '<link name="l"/>'
        (folder / f"f{i}.sdf").write_text(f'<sdf version="1.9"><model name="m{i}">{body}'
                                          '</model></sdf>\n')
    return folder / "f0.sdf"


def test_include_bomb_is_include_too_large(tmp_path):
    """The reproducer: refused with the code at an include, long before it expands (the
    timeout is a hang guard, not a measure)."""
    top = write_include_bomb(tmp_path)
    done = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "check", str(top)],
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp_path,
                          check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 1
    assert re.search(r"f\d+\.sdf:1: error\[INCLUDE_TOO_LARGE\]: <include> of \[f\d+\.sdf\] "
                     r"would read more than 10,000 included documents", output)
    assert output.count("INCLUDE_TOO_LARGE") == 1
    assert "Traceback" not in output and "INTERNAL_ERROR" not in output


def test_include_bomb_stops_reading_as_it_expands(tmp_path, monkeypatch):
    """The bound is checked as each include is read: past it, no file is read again."""
    top = write_include_bomb(tmp_path)
    reads = []
    real_read_bytes = included_module.read_bytes
    monkeypatch.setattr(included_module, "read_bytes",
                        lambda path, diagnostics, **options: reads.append(path) or
                        real_read_bytes(path, diagnostics, **options))
    result = load(top, Context(max_included_documents=40))
    assert not result.ok
    assert [d.code for d in result.diagnostics if d.code is Code.INCLUDE_TOO_LARGE] == \
        [Code.INCLUDE_TOO_LARGE]
    assert len(reads) == 40


def repeated_includes(folder: Path, copies: int) -> Path:
    """A model including one small file ``copies`` times, one include a line."""
    (folder / "part.sdf").write_text('<sdf version="1.9"><model name="part"><link name="l">'
                                     '<pose>0 0 1 0 0 0</pose></link></model></sdf>\n')
    includes = "".join(f'\n<include><uri>part.sdf</uri><name>p{i}</name></include>'
                       for i in range(copies))
    top = folder / "top.sdf"
    top.write_text(f'<sdf version="1.9"><model name="top"><link name="base"/>{includes}'
                   '\n</model></sdf>\n')
    return top


@pytest.mark.parametrize("bound, line", [({"max_included_elements": 100}, 27),
                                         ({"max_included_documents": 7}, 9)])
def test_every_copy_of_an_include_counts(tmp_path, bound, line, diagnostics_checked):
    """Each copy of ``part.sdf`` (4 elements) counts: the 26th passes 100 elements, the 8th
    7 documents; the error is at that include's line (the first on line 2)."""
    top = repeated_includes(tmp_path, 30)
    assert load(top, Context()).ok
    result = diagnostics_checked.watch(load(top, Context(**bound)))
    diagnostic = diagnostics_checked.take_error(Code.INCLUDE_TOO_LARGE)
    assert (diagnostic.file, diagnostic.line) == (str(top), line)
    assert "[part.sdf]" in diagnostic.message
    assert not result.ok and result.graph is None


# ---- a direction's length: huge or tiny components neither overflow nor vanish -------------

@pytest.mark.parametrize("scale", [1e200, 1e-200])
def test_a_quaternion_of_huge_or_tiny_components_keeps_its_rotation(scale):
    """``1e200 0 0 1e200`` (xyzw) is 90 degrees about x, as ``1 0 0 1`` is: its squares
    overflow to inf (or underflow to 0), which must not make it the identity."""
    pose = Pose.from_quat_xyzw((0.0, 0.0, 0.0), (scale, 0.0, 0.0, scale))
    assert pose.rotation == pytest.approx(Pose.from_quat_xyzw((0, 0, 0), (1, 0, 0, 1)).rotation)


@pytest.mark.parametrize("scale", ["1e200", "1e-200"])
def test_an_axis_of_huge_or_tiny_components_keeps_its_direction(scale):
    """URDF ``<axis xyz="1e200 1e200 0">`` and SDF ``<xyz>`` of that size are the unit
    axis (0.707, 0.707, 0), never (0, 0, 0) nor a zero-norm error."""
    urdf = (f'<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute">'
            f'<parent link="a"/><child link="b"/><axis xyz="{scale} {scale} 0"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>').encode()
    result = load_string(urdf, file="axis.urdf")
    assert result.ok, [d.format() for d in result.diagnostics]
    half = math.sqrt(0.5)
    joint = next(iter(result.document.model.joints))
    assert joint.axes[0].xyz == pytest.approx((half, half, 0))
    sdf = convert_urdf(result, ToSdf()).xml
    back = load_string(sdf, file="axis.sdf")
    assert back.ok, [d.format() for d in back.diagnostics]
    sdf_axis = next(iter(back.document.model.joints)).axes[0].xyz
    assert sdf_axis == pytest.approx((half, half, 0))
