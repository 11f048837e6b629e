"""``urdf-sdf print`` (``urdf_sdf.cli.printing`` over ``core.compose.inline``): the
composed model as one SDFormat file.

Every printed file must mean what the original means: our core resolves the same
frames (1e-12) and joint axes from it, and the reference implementation (libsdformat
12) loads it without errors to the same poses (1e-9). A few are also compared with
the reference's own ``--print``. The fixtures are copied to a temporary directory so
that printed files, which may keep relative includes, can sit beside them.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree
from typer.testing import CliRunner

from tests.reference import TIMEOUT, compare_reports, pose_gap
from urdf_sdf import Context, frames_report, load, load_string
from urdf_sdf.cli.main import app
from urdf_sdf.cli.printing import compose_xml, print_document
from urdf_sdf.core.base.diagnostics import Code, Diagnostics

FIXTURES = Path(__file__).parents[2] / "fixtures" / "print"
SECTIONS = ("links", "joints", "frames", "models")
EXACT = 1e-12
REFERENCE_TOL = 1e-9
runner = CliRunner()

# Files whose includes all inline (and whose printed file the reference can read).
CASES = [
    "include_relative.sdf",       # relative path and file:// relative to the file
    "include_model_uri.sdf",      # model:// through the model path and model.config
    "include_overrides.sdf",      # name, pose relative_to + degrees, static, placement_frame
    "nested_outer.sdf",           # an included model that includes two more
    "include_urdf.sdf",           # a URDF include, converted
    "include_children.sdf",       # //include/frame, joint and plugin
    "include_legacy.sdf",         # 1.6 and 1.4 models in a 1.8 file
    "legacy_root_1_6.sdf",        # 1.4 and 1.8 models in a 1.6 file
    "legacy_root_1_4.sdf",        # a 1.8 model in a 1.4 file: printed as 1.8
    "include_merge.sdf",          # a merge include is kept
    "include_merging.sdf",        # ... with an absolute URI when it comes from another file
    "world_includes.sdf",         # includes in a world
    "root_include.sdf",           # an include directly under <sdf>
]
# Compared with the reference's own --print (no include children, which libsdformat 12
# drops, and no legacy renaming, which its printed 1.9 file would turn into an error).
REFERENCE_PRINT_CASES = ["include_relative.sdf", "include_model_uri.sdf",
                         "include_overrides.sdf", "nested_outer.sdf", "include_urdf.sdf",
                         "world_includes.sdf", "root_include.sdf"]


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("print") / "print"
    shutil.copytree(FIXTURES, copy)
    (copy / "include_absolute.sdf").write_text(
        '<?xml version="1.0"?>\n<sdf version="1.8">\n  <model name="absolute">\n'
        '    <link name="l"/>\n'
        f'    <include><uri>file://{copy / "part.sdf"}</uri><name>by_file_uri</name></include>\n'
        f'    <include><uri>{copy / "sub" / "leaf.sdf"}</uri></include>\n'
        '  </model>\n</sdf>\n')
    return copy


def context(root: Path) -> Context:
    return Context(model_paths=[str(root / "models")])


def printed(root: Path, name: str, preserve: bool = False) -> tuple[bytes, Diagnostics]:
    data, diagnostics = print_document(root / name, context(root), preserve)
    assert data is not None, "\n".join(d.format() for d in diagnostics)
    assert not diagnostics.has_errors
    return data, diagnostics


def reload(root: Path, name: str, data: bytes):
    """Our core's reading of a printed file, as if it sat where the original does."""
    return load_string(data, str(root / name), context(root))


def xml(data: bytes):
    return etree.fromstring(data)


def version(data: bytes) -> tuple[int, int]:
    major, minor = xml(data).get("version").split(".")
    return int(major), int(minor)


def assert_same_frames(original, again) -> None:
    a, b = frames_report(original), frames_report(again)
    assert a["ok"] and b["ok"], (a["diagnostics"], b["diagnostics"])
    for section in SECTIONS:
        assert a[section].keys() == b[section].keys(), section
        for name, pose in a[section].items():
            assert pose_gap(pose, b[section][name]) <= EXACT, (section, name, pose,
                                                               b[section][name])


def assert_same_axes(original, again) -> None:
    for joint in frames_report(original)["joints"]:
        for index in (0, 1):
            a = original.axis_in_joint_frame(joint, index)
            b = again.axis_in_joint_frame(joint, index)
            assert (a is None) == (b is None), joint
            if a is not None:
                assert max(abs(x - y) for x, y in zip(a, b)) <= EXACT, (joint, a, b)


def reference_env(root: Path) -> dict:
    # libsdformat 12 resolves a relative include against the working directory and
    # SDF_PATH, not the including file: give it the fixture folders.
    return {**os.environ, "SDF_PATH": os.pathsep.join(
        str(p) for p in (root / "models", root, root / "sub"))}


def run_reference(binary, path: Path, root: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary), *options, str(path)], capture_output=True, text=True,
                          cwd=root, env=reference_env(root), timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)


# ---- every printed file means what the original means ---------------------------------

@pytest.mark.parametrize("preserve", [False, True], ids=["inlined", "preserved"])
@pytest.mark.parametrize("name", CASES + ["include_absolute.sdf"])
def test_core_reads_the_printed_file_as_the_original(root, name, preserve):
    data, _ = printed(root, name, preserve)
    original = load(root / name, context(root))
    again = reload(root, name, data)
    assert_same_frames(original, again)
    assert_same_axes(original, again)
    includes = list(xml(data).iter("include"))
    if preserve:
        assert includes, "--preserve-includes keeps the includes"
    else:
        assert all(i.get("merge") == "true" for i in includes), "only merge includes stay"


@pytest.mark.parametrize("preserve", [False, True], ids=["inlined", "preserved"])
@pytest.mark.parametrize("name", CASES + ["include_absolute.sdf"])
def test_reference_reads_the_printed_file_to_the_same_poses(root, name, preserve,
                                                            sdf_reference):
    data, _ = printed(root, name, preserve)
    if version(data) > (1, 9):
        pytest.skip("libsdformat 12 reads SDFormat <= 1.9")
    out = root / f"printed_{'preserved' if preserve else 'inlined'}_{name}"
    out.write_bytes(data)
    reference = json.loads(run_reference(sdf_reference.binary, out, root).stdout)
    assert reference["ok"], reference["diagnostics"]
    ours = frames_report(reload(root, name, data))
    problems = compare_reports(reference, ours, REFERENCE_TOL)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", REFERENCE_PRINT_CASES)
def test_same_entities_and_poses_as_the_reference_print(root, name, sdf_reference):
    data, _ = printed(root, name)
    proc = run_reference(sdf_reference.binary, root / name, root, "--print")
    assert proc.returncode == 0, proc.stderr
    theirs = frames_report(reload(root, name, proc.stdout.encode()))
    ours = frames_report(reload(root, name, data))
    assert theirs["ok"] and ours["ok"]
    for section in SECTIONS:
        assert ours[section].keys() == theirs[section].keys(), section
        for entity, pose in theirs[section].items():
            assert pose_gap(pose, ours[section][entity]) <= REFERENCE_TOL, (section, entity)


# ---- what the printed file holds --------------------------------------------------------

def model(data: bytes, path: str):
    found = xml(data).xpath(path)
    assert len(found) == 1, path
    return found[0]


def test_relative_and_file_uris_inline_the_model_under_the_include_name(root):
    data, _ = printed(root, "include_relative.sdf")
    a = model(data, "/sdf/model/model[@name='a']")
    b = model(data, "/sdf/model/model[@name='b']")
    assert a.findtext("pose") == "0 0 0.5 0 0 0.3"  # the included model's own pose
    assert b.findtext("pose") == "1 0 0 0 0 1.2"    # the include's pose replaces it
    assert len(b.findall("pose")) == 1
    assert [link.get("name") for link in b.iter("link")] == ["base", "tip", "loose"]


def test_model_uri_takes_the_newest_version_of_model_config(root):
    data, _ = printed(root, "include_model_uri.sdf")
    assert model(data, "/sdf/model/model[@name='box']").find("link").get("name") == "body"
    box2 = model(data, "/sdf/model/model[@name='box2']")
    assert box2.find("pose").get("relative_to") == "box::lid"


def test_path_option_and_environment_find_model_uris(root, monkeypatch):
    monkeypatch.delenv("SDF_PATH", raising=False)
    result = runner.invoke(app, ["print", str(root / "include_model_uri.sdf"),
                                 "--path", str(root / "models")])
    assert result.exit_code == 0, result.stderr
    assert xml(result.stdout.encode()).find("model/model").get("name") == "box"
    monkeypatch.setenv("SDF_PATH", str(root / "models"))
    assert runner.invoke(app, ["print", str(root / "include_model_uri.sdf")]).exit_code == 0


def test_overrides_name_pose_static_placement_frame(root):
    data, _ = printed(root, "include_overrides.sdf")
    fixed = model(data, "/sdf/model/model[@name='fixed_part']")
    pose = fixed.find("pose")
    assert (pose.get("relative_to"), pose.get("degrees"), pose.text) == \
        ("spot", "true", "0 0 1 0 0 90")
    assert fixed.findtext("static") == "true"
    placed = model(data, "/sdf/model/model[@name='placed']")
    assert placed.get("placement_frame") == "mount"
    assert placed.find("pose").get("relative_to") == "fixed_part::mount"


def test_nested_includes_resolve_relative_to_their_own_file(root):
    data, _ = printed(root, "nested_outer.sdf")
    mid = model(data, "/sdf/model/model[@name='mid']")
    assert mid.findtext("pose") == "0 0 1 0 0.2 0"
    assert [m.get("name") for m in mid.findall("model")] == ["leaf", "inner_part"]
    assert mid.find("model[@name='leaf']/pose").get("relative_to") == "hub"


def test_urdf_include_becomes_a_converted_model(root):
    data, _ = printed(root, "include_urdf.sdf")
    arm = model(data, "/sdf/model/model[@name='arm']")
    assert arm.findtext("pose") == "0.5 0 0.8 0 0 1"
    joint = arm.find("joint[@name='elbow']")
    assert joint.find("pose").get("relative_to") == "shoulder"
    assert joint.findtext("pose") == "0 0.1 0.4 0.3 0 -0.2"  # the URDF's own numbers


def test_include_children_join_the_included_model(root):
    data, _ = printed(root, "include_children.sdf")
    p = model(data, "/sdf/model/model[@name='p']")
    assert p.find("frame[@name='probe']").get("attached_to") == "tip"
    assert p.find("joint[@name='tie']").findtext("child") == "loose"
    assert p.find("plugin").get("name") == "probe_plugin"
    report = frames_report(reload(root, "include_children.sdf", data))
    assert "p::probe" in report["frames"] and "p::tie" in report["joints"]


def test_legacy_models_are_rewritten_in_the_including_version(root):
    data, diagnostics = printed(root, "include_legacy.sdf")
    assert version(data) == (1, 8)
    old = model(data, "/sdf/model/model[@name='old']")
    assert old.find("link[@name='B']/pose").get("relative_to") == "A"
    assert not xml(data).xpath("//pose[@frame] | //use_parent_model_frame")
    assert [j.get("name") for j in old.findall("joint")] == ["B_joint", "J2"]
    assert old.find("joint[@name='B_joint']/axis/xyz").get("expressed_in") == "__model__"
    assert old.find("joint[@name='J2']/axis/xyz").get("expressed_in") is None
    ancient = model(data, "/sdf/model/model[@name='ancient']")
    assert ancient.find("joint/axis/xyz").get("expressed_in") == "__model__"
    warnings = [d for d in diagnostics if d.code is Code.VERSION_REWRITTEN]
    assert any("legacy_arm.sdf] is SDFormat 1.6" in d.message and "@frame" in d.message
               and "use_parent_model_frame" in d.message and "[B_joint]" in d.message
               and d.line == 7 for d in warnings)
    assert any("legacy_1_4.sdf] is SDFormat 1.4" in d.message and d.line == 12
               for d in warnings)


def test_a_1_6_file_keeps_its_version_and_legacy_forms(root):
    data, _ = printed(root, "legacy_root_1_6.sdf")
    assert version(data) == (1, 6)
    assert model(data, "/sdf/model/link[@name='post']/pose").get("frame") == "ground"
    ancient = model(data, "/sdf/model/model[@name='ancient']")
    assert ancient.findtext("joint/axis/use_parent_model_frame") == "true"


def test_a_1_4_file_including_a_newer_model_is_printed_in_the_newer_version(root):
    data, diagnostics = printed(root, "legacy_root_1_4.sdf")
    assert version(data) == (1, 8)
    assert model(data, "/sdf/model/joint/axis/xyz").get("expressed_in") == "__model__"
    assert model(data, "/sdf/model/model/joint/axis/xyz").get("expressed_in") is None
    assert any(d.code is Code.VERSION_REWRITTEN and "SDFormat 1.4" in d.message and d.line == 2
               for d in diagnostics)


def test_merge_include_is_kept_with_a_uri_that_still_resolves(root):
    data, _ = printed(root, "include_merge.sdf")
    assert model(data, "/sdf/model/include[@merge='true']").findtext("uri") == "part.sdf"
    data, _ = printed(root, "include_merging.sdf")
    uri = model(data, "/sdf/model/model[@name='merging']/include").findtext("uri")
    assert Path(uri).is_absolute() and Path(uri) == (root / "sub" / "leaf.sdf").resolve()


def test_world_includes_are_inlined(root):
    data, _ = printed(root, "world_includes.sdf")
    crate = model(data, "/sdf/world/model[@name='crate']")
    assert crate.find("pose").get("relative_to") == "corner"
    assert model(data, "/sdf/world/model[@name='part']").findtext("static") == "true"


def test_a_root_level_include_becomes_the_documents_model(root):
    data, _ = printed(root, "root_include.sdf")
    top = model(data, "/sdf/model")
    assert top.get("name") == "renamed" and top.findtext("pose") == "1 2 3 0 0 0"
    assert not xml(data).xpath("/sdf/include")


def test_preserve_includes_prints_the_file_as_read(root):
    data, _ = printed(root, "include_legacy.sdf", preserve=True)
    assert [i.findtext("uri") for i in xml(data).iter("include")] == \
        ["model://legacy_arm", "legacy_1_4.sdf"]
    assert not xml(data).xpath("//model/model")


def test_a_urdf_file_prints_as_sdformat(root):
    data, _ = printed(root, "arm.urdf")
    assert xml(data).find("model").get("name") == "urdf_arm"
    assert_same_frames(load(root / "arm.urdf"), reload(root, "arm.urdf", data))


def test_a_custom_parser_keeps_its_include(root):
    ctx = context(root)
    ctx.register_model_parser(lambda include, errors: None)
    diagnostics = Diagnostics()
    doc = compose_xml(root / "include_urdf.sdf", ctx, diagnostics)
    assert doc.find("model/include").findtext("uri") == "arm.urdf"
    assert any("custom model parser" in d.message for d in diagnostics)


# ---- errors are diagnostics at the include's file:line --------------------------------

# The last column: whether the core (load) reports the same code at the same place. For a
# malformed included file the core reports only the XML error inside it.
@pytest.mark.parametrize("name, code, file, line, core_too", [
    ("cycle_a.sdf", Code.INCLUDE_CYCLE, "cycle_b.sdf", 6, True),
    ("missing_uri.sdf", Code.URI_LOOKUP, "missing_uri.sdf", 6, True),
    ("malformed_include.sdf", Code.FILE_READ, "malformed_include.sdf", 6, False),
    ("malformed_include.sdf", Code.FILE_READ, "malformed_part.sdf", 5, True),
])
def test_include_errors_have_file_and_line(root, name, code, file, line, core_too):
    data, diagnostics = print_document(root / name, context(root))
    assert data is None
    assert any(d.code is code and d.file == str(root / file) and d.line == line
               for d in diagnostics), [d.format() for d in diagnostics]
    # compose_xml alone reports it too (with the core's code), and never raises.
    found = Diagnostics()
    assert compose_xml(root / name, context(root), found) is not None
    assert any(d.code is code and d.line == line for d in found)
    if core_too:
        core = {(d.code, d.file, d.line) for d in load(root / name, context(root)).diagnostics}
        assert (code, str(root / file), line) in core


def test_include_errors_exit_one_with_file_line_on_stderr(root):
    result = runner.invoke(app, ["print", str(root / "cycle_a.sdf")])
    assert result.exit_code == 1
    assert f"{root / 'cycle_b.sdf'}:6: error[INCLUDE_CYCLE]" in result.stderr
    assert result.stdout == ""
    result = runner.invoke(app, ["print", str(root / "missing_uri.sdf")])
    assert result.exit_code == 1
    assert f"{root / 'missing_uri.sdf'}:6: error[URI_LOOKUP]" in result.stderr


def test_unreadable_input_is_a_diagnostic(root):
    data, diagnostics = print_document(root / "no_such_file.sdf", context(root))
    assert data is None and diagnostics.has_errors
    assert len([d for d in diagnostics if d.code is Code.FILE_READ]) == 1  # reported once


# ---- the command ------------------------------------------------------------------------

def test_print_to_stdout_and_to_a_file(root, tmp_path):
    args = ["print", str(root / "include_relative.sdf")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.stderr
    expected, _ = printed(root, "include_relative.sdf")
    assert result.stdout.encode() == expected
    out = tmp_path / "flat.sdf"
    result = runner.invoke(app, args + ["-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_bytes() == expected
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_preserve_includes_option(root):
    result = runner.invoke(app, ["print", "--preserve-includes",
                                 str(root / "include_relative.sdf")])
    assert result.exit_code == 0
    assert len(list(xml(result.stdout.encode()).iter("include"))) == 2


def test_usage_errors_exit_two(root, tmp_path):
    assert runner.invoke(app, ["print"]).exit_code == 2
    assert runner.invoke(app, ["print", str(root / "part.sdf"), "--bogus"]).exit_code == 2
    result = runner.invoke(app, ["print", str(root / "part.sdf"), "-o", str(tmp_path)])
    assert result.exit_code == 2 and "directory" in result.stderr


def test_output_that_is_the_input_is_refused(root):
    before = (root / "part.sdf").read_bytes()
    result = runner.invoke(app, ["print", str(root / "part.sdf"), "-o", str(root / "part.sdf")])
    assert result.exit_code == 1 and "error[OUTPUT_IS_INPUT]" in result.stderr
    assert (root / "part.sdf").read_bytes() == before


def test_console_script_prints(root):
    proc = subprocess.run([sys.executable, "-m", "urdf_sdf.cli.main", "print",
                           str(root / "nested_outer.sdf")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "<include" not in proc.stdout and "Traceback" not in proc.stderr
