"""``urdf_sdf.cli.packaging``: a batch of ``--model-dir``/``--package-dir`` outputs.

Each input of a batch is written to its own folder or skipped with the reason: its own
(found when the batch was listed: then it has no folder), or its folder written already
by an earlier input. Only the inputs written reach the conversion. ``--report`` says what
each conversion changed.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from urdf_sdf.cli.batch import BatchItem
from urdf_sdf.cli.declare import UsageError
from urdf_sdf.cli.main import sdf2urdf_app, urdf2sdf_app
from urdf_sdf.cli.packaging import Target, directory_batch, model_name_problem


def _item(tmp_path: Path, name: str, skip: str | None = None) -> BatchItem:
    source = tmp_path / name
    source.write_text("<robot name='r'/>")
    return BatchItem(source, Path(name), Path(name).with_suffix(".sdf"), skip)


def test_a_batch_writes_each_folder_once_and_says_why_it_skips(tmp_path, capsys):
    first, second = _item(tmp_path, "a.urdf"), _item(tmp_path, "b.urdf")
    listed_skip = _item(tmp_path, "c.urdf", skip="not a URDF file")
    out = tmp_path / "out"
    targets = {id(first): Target(out / "robot"), id(second): Target(out / "robot")}
    converted: list[tuple[Path, Path]] = []

    def convert_one(item: BatchItem, target: Target) -> int:
        converted.append((item.relative, target.directory))
        return 0

    code = directory_batch("urdf2sdf", [first, second, listed_skip], targets, convert_one,
                           quiet=False)

    assert code == 0
    assert converted == [(Path("a.urdf"), out / "robot")]
    err = capsys.readouterr().err
    assert f"urdf2sdf: b.urdf: skipped: a.urdf is written to {out / 'robot'} already\n" in err
    assert "urdf2sdf: c.urdf: skipped: not a URDF file\n" in err
    assert err.endswith("urdf2sdf: 1 converted, 0 failed, 2 skipped\n")


def test_a_batch_exits_with_its_worst_conversion(tmp_path, capsys):
    items = [_item(tmp_path, "a.urdf"), _item(tmp_path, "b.urdf")]
    targets = {id(item): Target(tmp_path / item.relative.stem) for item in items}
    codes = iter([1, 0])

    code = directory_batch("urdf2sdf", items, targets, lambda item, target: next(codes),
                           quiet=True)

    assert code == 1
    assert capsys.readouterr().err == "urdf2sdf: 1 converted, 1 failed, 0 skipped\n"


@pytest.mark.parametrize("name", ["ctl\x01x", os.fsdecode(b"m\xfe")])
def test_a_model_dir_whose_name_cannot_be_text_is_a_usage_error(tmp_path, name):
    """``model.config`` and ``model://NAME`` hold the folder's name as text: a control
    character or a byte that is not UTF-8 was an INTERNAL_ERROR; now a usage error, and
    nothing is written."""
    with pytest.raises(UsageError, match="the model directory's name .* (control|UTF-8)"):
        model_name_problem(tmp_path / name)
    model_name_problem(tmp_path / "robot_ü")
    assert list(tmp_path.iterdir()) == []


def test_model_dir_and_package_dir_report_what_the_conversion_changed(tmp_path):
    samples = Path(__file__).resolve().parents[3] / "samples"
    runner = CliRunner()
    model = runner.invoke(urdf2sdf_app, [str(samples / "pendulum.urdf"), "--report",
                                         "--model-dir", str(tmp_path / "pendulum")])
    assert model.exit_code == 0, model.output
    assert f"{samples / 'pendulum.urdf'}: report: exact" in model.stderr.splitlines()
    package = runner.invoke(sdf2urdf_app, [str(samples / "pendulum.sdf"), "--report", "--json",
                                           "--package-dir", str(tmp_path / "pendulum_pkg")])
    assert package.exit_code == 0, package.output
    assert '"text": "exact, with defaults made explicit"' in package.stdout
