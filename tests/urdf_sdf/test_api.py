"""The Python API (``urdf_sdf.to_sdf``, ``to_urdf``, ``diff``, ``check``, ``load``): what the
command lines do, from paths or loaded results, typed and documented, with an API
reference generated from the docstrings by pdoc."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

import urdf_sdf
from urdf_sdf import Code
from urdf_sdf.api import REFERENCE_MODULES

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
BAD = ROOT / "tests" / "fixtures" / "urdf" / "urdf_duplicate_link.urdf"
PUBLIC_CALLS = ("load", "to_sdf", "to_urdf", "diff", "check", "round_trip", "json_schema",
                "assert_equivalent", "assert_round_trip")


def test_to_sdf_takes_a_path_or_a_loaded_result():
    from_path = urdf_sdf.to_sdf(SAMPLES / "pendulum.urdf", relative=True)
    from_result = urdf_sdf.to_sdf(urdf_sdf.load(str(SAMPLES / "pendulum.urdf")), relative=True)
    assert from_path.ok and from_path.xml == from_result.xml and from_path.version == "1.7"
    assert etree.fromstring(from_path.xml).find("model/joint/pose").get("relative_to")


def test_to_urdf_chooses_a_model_of_a_world():
    world = ROOT / "tests" / "fixtures" / "realworld" / "sdf_world_all_models.sdf"
    assert not urdf_sdf.to_urdf(world).ok
    rover = urdf_sdf.to_urdf(world, model_name="rover")
    assert rover.ok and etree.fromstring(rover.xml).get("name") == "rover"
    assert not urdf_sdf.to_urdf(world, all_models=True).ok  # the free rover: several trees
    assert urdf_sdf.to_urdf(world, all_models=True, approximate=True).ok


def test_diff_is_empty_for_equivalent_descriptions_and_names_differences():
    assert urdf_sdf.diff(SAMPLES / "arm6.urdf", SAMPLES / "arm6.sdf") == []
    differences = urdf_sdf.diff(SAMPLES / "pendulum.urdf", SAMPLES / "arm6.urdf")
    assert differences and all(isinstance(d, urdf_sdf.Difference) for d in differences)


def test_check_reports_validity_parity_and_meshes():
    good = urdf_sdf.check(SAMPLES / "diff_drive.sdf", urdf_parity=True)
    assert good.ok and good.valid and good.parity.holds
    bad = urdf_sdf.check(BAD)
    assert not bad.ok and [d.code for d in bad.diagnostics] == [Code.DUPLICATE_NAME]
    meshes = urdf_sdf.check(SAMPLES / "diff_drive.urdf", meshes=True)
    assert meshes.valid == all(d.code is not Code.MESH_UNRESOLVED for d in meshes.diagnostics)


def test_bad_input_is_a_diagnostic_never_an_exception(tmp_path):
    missing = tmp_path / "missing.urdf"
    assert not urdf_sdf.to_sdf(missing).ok
    assert not urdf_sdf.to_urdf(missing).ok
    assert not urdf_sdf.check(missing).ok
    assert urdf_sdf.diff(missing, SAMPLES / "arm6.urdf")[0].kind == "model"


def test_public_calls_stay_callable_when_every_module_is_imported():
    """No public call shares its name with a module of the package: importing that module
    (the pytest plugin imports urdf_sdf.testing, which imports the round trip's) would make
    ``urdf_sdf.NAME`` the module (``urdf_sdf.round_trip`` was)."""
    for module in pkgutil.iter_modules(urdf_sdf.__path__):
        importlib.import_module(f"urdf_sdf.{module.name}")
    for name in PUBLIC_CALLS:
        assert callable(getattr(urdf_sdf, name)), name


@pytest.mark.parametrize("name", PUBLIC_CALLS)
def test_public_calls_are_typed_and_documented(name):
    call = getattr(urdf_sdf, name)
    assert name in urdf_sdf.__all__
    signature = inspect.signature(call)
    assert signature.return_annotation is not inspect.Signature.empty, name
    assert all(p.annotation is not inspect.Parameter.empty
               for p in signature.parameters.values()), name
    assert (call.__doc__ or "").strip(), name


def test_api_reference_builds_from_the_docstrings(tmp_path):
    """pdoc (in the test extra) renders the package's public modules to HTML."""
    done = subprocess.run([sys.executable, "-m", "pdoc", "-o", str(tmp_path),
                           *REFERENCE_MODULES],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    api = (tmp_path / "urdf_sdf" / "api.html").read_text()
    for name in ("to_sdf", "to_urdf", "diff", "check", "CheckReport"):
        assert f'id="{name}"' in api, name
    assert "SDFormat -&gt; URDF, as" in api  # a docstring, rendered
    assert (tmp_path / "urdf_sdf" / "testing.html").is_file()
    assert "pdoc" in (ROOT / "docs" / "python.md").read_text()  # how to build it is documented


def test_a_conversion_s_report_is_typed_data():
    conversion = urdf_sdf.to_sdf(ROOT / "samples" / "arm6.urdf", lump_fixed=True)
    report = conversion.report
    assert isinstance(report, urdf_sdf.ConversionReport)
    assert report.verdict_kind is urdf_sdf.Verdict.APPROXIMATED
    assert report.verdict == "approximated: links lumped into their parent by --lump-fixed (2)"
    assert report.read["links"] == 11 and report.wrote["links"] == 9
    assert urdf_sdf.to_urdf(ROOT / "samples" / "pendulum.sdf").report.verdict == \
        "exact, with defaults made explicit"
