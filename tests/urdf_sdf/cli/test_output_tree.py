"""A batch writes only inside its output directory, even when someone who can write
there swaps a folder for a symbolic link (to ``/etc``, to ``~``) between our check and
our write: each folder is opened in the one before it, never through a link, and the file
is written relative to the folder opened."""
from __future__ import annotations

from pathlib import Path

import pytest

from urdf_sdf.cli import output_tree
from urdf_sdf.cli.batch import BatchItem, run_batch
from urdf_sdf.cli.output_tree import output_folder
from urdf_sdf.core.write.folders import LINKED_OUTPUT_FOLDER, OutsideOutputTree


def batch_of_one(tmp_path: Path) -> tuple[list[BatchItem], Path, Path]:
    """One input ``sub/robot.urdf``; the output folder and a victim folder beside it."""
    source = tmp_path / "in" / "sub" / "robot.urdf"
    source.parent.mkdir(parents=True)
    source.write_text("<robot name='r'/>")
    victim = tmp_path / "victim"
    victim.mkdir()
    item = BatchItem(source, Path("sub/robot.urdf"), Path("sub/robot.sdf"))
    return [item], tmp_path / "out", victim


def test_a_folder_swapped_for_a_link_right_before_the_write_takes_nothing_out(
        tmp_path, monkeypatch, capsys):
    items, out, victim = batch_of_one(tmp_path)
    checked = output_tree.check_destination

    def swapped_after_the_check(target, inputs=(), through_links=False):
        kind = checked(target, inputs, through_links)
        (out / "sub").rename(out / "sub.was")
        (out / "sub").symlink_to(victim, target_is_directory=True)
        return kind

    monkeypatch.setattr(output_tree, "check_destination", swapped_after_the_check)
    code = run_batch(items, out, lambda item, sources: (b"<sdf/>\n", []), prog="urdf2sdf",
                     jobs=1)
    assert code == 0, capsys.readouterr().err
    assert list(victim.iterdir()) == []
    assert (out / "sub.was" / "robot.sdf").read_bytes() == b"<sdf/>\n"


def test_a_folder_that_is_a_link_is_refused(tmp_path, capsys):
    items, out, victim = batch_of_one(tmp_path)
    out.mkdir()
    (out / "sub").symlink_to(victim, target_is_directory=True)
    assert run_batch(items, out, lambda item, sources: (b"<sdf/>\n", []), prog="urdf2sdf",
                     jobs=1) == 1
    assert LINKED_OUTPUT_FOLDER in capsys.readouterr().out
    assert list(victim.iterdir()) == []
    with pytest.raises(OutsideOutputTree, match="symbolic link in the output tree"):
        output_folder(out, Path("sub"))
    (out / "sub").unlink()
    (out / "sub").write_text("a file")
    with pytest.raises(OutsideOutputTree, match="is not a directory"):
        output_folder(out, Path("sub/deeper"))
