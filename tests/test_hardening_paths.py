"""Issue 12, paths never escape: ``..`` may not climb out of the package, model directory
or search path entry an include was resolved in (URI_INVALID naming the URI), and a huge
URI is neither a crash nor printed whole. A path the user wrote relative to the including
file (or absolute) is taken as written: there ``..`` is what they meant."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import urdf_sdf.core.compose.included
from tests.compose_helpers import including
from urdf_sdf.cli.main import app as umbrella
from urdf_sdf.cli.main import sdf2urdf_app as sdf2urdf
from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.compose.uri import MAX_SHOWN_URI, model_config_files
from urdf_sdf.core.loader import load

runner = CliRunner()
PART = ('<?xml version="1.0"?>\n<sdf version="1.9">\n  <model name="{name}">\n'
        '    <link name="a"/>\n  </model>\n</sdf>\n')


def workspace(tmp_path: Path) -> Path:
    """``ws/src/pkg`` (a ROS package) and, outside it, ``outside.sdf``."""
    package = tmp_path / "ws" / "src" / "pkg"
    package.mkdir(parents=True)
    (package / "package.xml").write_text("<package><name>pkg</name></package>\n")
    (package / "part.sdf").write_text(PART.format(name="part"))
    (tmp_path / "outside.sdf").write_text(PART.format(name="outside"))
    return tmp_path / "ws"


def errors(result):
    return [d for d in result.diagnostics if d.is_error]


def test_package_uri_inside_the_package_resolves(tmp_path):
    ws = workspace(tmp_path)
    result = load(including(tmp_path, "package://pkg/part.sdf"), Context(package_paths=[str(ws)]))
    assert result.ok, [d.format() for d in result.diagnostics]


def test_package_uri_climbing_out_is_refused(tmp_path):
    ws = workspace(tmp_path)
    uri = "package://pkg/../../../outside.sdf"
    result = load(including(tmp_path, uri), Context(package_paths=[str(ws)]))
    invalid = [d for d in errors(result) if d.code is Code.URI_INVALID]
    assert len(invalid) == 1 and uri in invalid[0].message and invalid[0].line == 5  # the <include>
    assert all("outside" not in m.name for m in result.document.model.models)


def test_package_uri_to_etc_passwd_is_refused(tmp_path):
    ws = workspace(tmp_path)
    uri = "package://pkg/" + "../" * 30 + "etc/passwd"
    result = load(including(tmp_path, uri), Context(package_paths=[str(ws)]))
    assert [d.code for d in errors(result)] == [Code.URI_INVALID]


def test_model_uri_climbing_out_of_the_search_path_is_refused(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    result = load(including(tmp_path, "model://../outside.sdf"),
                  Context(model_paths=[str(models)]))
    assert [d.code for d in errors(result)] == [Code.URI_INVALID]


def test_model_config_entry_climbing_out_is_refused(tmp_path):
    models = tmp_path / "models"
    (models / "arm").mkdir(parents=True)
    (models / "arm" / "model.config").write_text(
        '<?xml version="1.0"?>\n<model><sdf version="1.9">../../outside.sdf</sdf></model>\n')
    (tmp_path / "outside.sdf").write_text(PART.format(name="outside"))
    result = load(including(tmp_path, "model://arm"), Context(model_paths=[str(models)]))
    invalid = [d for d in errors(result) if d.code is Code.URI_INVALID]
    assert len(invalid) == 1 and "model://arm" in invalid[0].message
    assert model_config_files(models / "arm" / "model.config", str(tmp_path)) == []


def test_relative_dotdot_inside_the_inputs_package_is_read(tmp_path):
    (tmp_path / "package.xml").write_text("<package/>")
    (tmp_path / "sub").mkdir()
    (tmp_path / "part.sdf").write_text(PART.format(name="part"))
    result = load(including(tmp_path / "sub", "../part.sdf"), Context())
    assert result.ok, [d.format() for d in result.diagnostics]


def test_relative_dotdot_out_of_the_inputs_folder_is_refused_unless_searched(tmp_path):
    """No package.xml or model.config above the input: its folder is its package."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "part.sdf").write_text(PART.format(name="part"))
    source = including(tmp_path / "sub", "../part.sdf")
    refused = load(source, Context())
    (error,) = errors(refused)
    assert error.code is Code.RESOURCE_OUTSIDE_PACKAGE and "-p/--path" in error.message
    assert load(source, Context(model_paths=[str(tmp_path)])).ok


@pytest.mark.parametrize("written", ["/etc/shadow", "file:///etc/passwd",
                                     "../" * 40 + "etc/passwd"])
def test_an_include_outside_the_package_is_never_opened(tmp_path, written, monkeypatch):
    """A system file named by an include is refused before it is opened (not read, not
    parsed), whatever the spelling."""
    opened = []
    real_read = urdf_sdf.core.compose.included.read_bytes
    monkeypatch.setattr(urdf_sdf.core.compose.included, "read_bytes",
                        lambda path, *args: opened.append(path) or real_read(path, *args))
    result = load(including(tmp_path, written), Context())
    assert [e.code for e in errors(result)] == [Code.RESOURCE_OUTSIDE_PACKAGE]
    assert opened == []


def test_a_100_kb_uri_is_a_diagnostic_with_the_uri_cut(tmp_path):
    uri = "a" * 100_000
    for written in (uri, f"model://{uri}", f"file://{uri}", f"package://p/{uri}"):
        result = runner.invoke(umbrella, ["check", str(including(tmp_path, written))])
        assert result.exit_code == 1, result.output
        assert "error[URI_LOOKUP]" in result.stdout
        assert "Traceback" not in result.output and "too long" not in result.output
        assert len(result.output) < 2 * MAX_SHOWN_URI + 1000  # neither the URI nor its line


@pytest.mark.parametrize("command", ["sdf2urdf", "print"])
def test_an_included_file_is_never_the_output(tmp_path, command):
    """-o naming a file the input includes is OUTPUT_IS_INPUT, the file intact: it is an
    input too."""
    part = tmp_path / "part.sdf"
    part.write_text(PART.format(name="part"))
    top = tmp_path / "top.sdf"
    top.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><model name="top">'
                   '<link name="b"/><include><uri>part.sdf</uri></include>'
                   '<joint name="j" type="fixed"><parent>b</parent><child>part::a</child>'
                   '</joint></model></sdf>\n')
    before = part.read_bytes()
    app, args = (sdf2urdf, []) if command == "sdf2urdf" else (umbrella, [command])
    result = runner.invoke(app, [*args, str(top), "-o", str(part)])
    assert result.exit_code == 1, result.output
    assert "OUTPUT_IS_INPUT" in result.output
    assert part.read_bytes() == before


# ---- a folder swapped for a link between an include's check and its opening ---------------

def swappable_include(tmp_path: Path) -> tuple[Path, Path, object]:
    """``pkg/robot.sdf`` including ``parts/part.sdf`` and, outside the package, a file of
    the same name holding the model ``secret``: (the input, the folder, the swap)."""
    package = tmp_path / "pkg"
    (package / "parts").mkdir(parents=True)
    (package / "package.xml").write_text("<package/>")
    (package / "parts" / "part.sdf").write_text(PART.format(name="part"))
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "part.sdf").write_text(PART.format(name="secret"))
    (tmp_path / "outside" / "model.config").write_text(
        '<?xml version="1.0"?>\n<model><sdf version="1.9">secret_name.sdf</sdf></model>\n')

    def swap(folder: Path = package / "parts") -> None:
        if not folder.is_symlink():
            folder.rename(folder.with_name(folder.name + ".was"))
            folder.symlink_to(tmp_path / "outside", target_is_directory=True)

    return including(package, "parts/part.sdf"), package / "parts", swap


def swapped_after(monkeypatch, module, name: str, swap) -> None:
    """``module.name`` (a check) answers, then the folder is swapped for a link."""
    checked = getattr(module, name)

    def checked_then_swapped(*args, **kwargs):
        answer = checked(*args, **kwargs)
        swap()
        return answer

    monkeypatch.setattr(module, name, checked_then_swapped)


def test_an_include_whose_folder_is_swapped_after_its_check_is_not_read(tmp_path, monkeypatch):
    """The include confined by its real path, then its folder replaced by a link out of
    the package before the file is opened: the file outside is never read."""
    from urdf_sdf.core.compose import included
    source, _, swap = swappable_include(tmp_path)
    swapped_after(monkeypatch, included, "resolve_uri", swap)
    result = load(source, Context())
    assert Code.FILE_READ in [e.code for e in errors(result)]
    assert any(f"resolves to {tmp_path / 'outside' / 'part.sdf'}, outside the input's "
               "package" in e.message for e in errors(result))
    assert all(m.name != "secret" for m in result.document.model.models)


def test_printing_reads_no_include_whose_folder_is_swapped_after_its_check(tmp_path,
                                                                         monkeypatch):
    from urdf_sdf.core.compose import included
    source, _, swap = swappable_include(tmp_path)
    swapped_after(monkeypatch, included, "resolve_uri", swap)
    result = runner.invoke(umbrella, ["print", str(source)])
    assert result.exit_code == 1, result.output
    assert "error[FILE_READ]" in result.output and "secret" not in result.output


def test_an_include_whose_folder_is_swapped_in_the_narrowest_window_is_refused(tmp_path,
                                                                            monkeypatch):
    """Swapped after the real path is checked inside the package, before it is opened:
    the real path is opened one folder at a time, no link followed."""
    from urdf_sdf.core.read import xmlio
    source, _, swap = swappable_include(tmp_path)
    swapped_after(monkeypatch, xmlio, "is_within", swap)
    result = load(source, Context())
    assert any("a symbolic link on its path" in e.message for e in errors(result))
    assert all(m.name != "secret" for m in result.document.model.models)


def test_a_model_config_whose_folder_is_swapped_after_its_check_is_not_read(tmp_path,
                                                                          monkeypatch):
    from urdf_sdf.core.compose import uri
    models = tmp_path / "models"
    (models / "arm").mkdir(parents=True)
    (models / "arm" / "model.config").write_text(
        '<?xml version="1.0"?>\n<model><sdf version="1.9">model.sdf</sdf></model>\n')
    (models / "arm" / "model.sdf").write_text(PART.format(name="arm"))
    _, _, swap = swappable_include(tmp_path)
    swapped_after(monkeypatch, uri, "readable_here", lambda: swap(models / "arm"))
    (tmp_path / "top").mkdir()
    result = load(including(tmp_path / "top", "model://arm"),
                  Context(model_paths=[str(models)]))
    messages = " ".join(e.message for e in errors(result))
    assert f"resolves to {tmp_path / 'outside' / 'model.config'}, outside" in messages
    assert "secret_name" not in messages


# ---- -o never replaces a file the input references ------------------------------------------

STL = b"solid m\nendsolid m\n"
MESH_URDF = ('<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n'
             '    <visual><geometry><mesh filename="meshes/base.stl"/></geometry></visual>\n'
             '  </link>\n</robot>\n')


def robot_with_mesh(tmp_path: Path, name: str = "base.stl") -> tuple[Path, Path]:
    """``robot.urdf`` naming ``meshes/NAME`` at line 4: (the URDF, the mesh)."""
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / name).write_bytes(STL)
    (tmp_path / "robot.urdf").write_text(MESH_URDF.replace("base.stl", name))
    return tmp_path / "robot.urdf", tmp_path / "meshes" / name


@pytest.mark.parametrize("command", [["urdf2sdf"], ["urdf2sdf", "--relative"], ["graph"]])
def test_an_output_never_replaces_a_mesh_the_input_names(tmp_path, command):
    """(graph: a mesh file named as a graph may be, since graph knows its outputs by
    their suffix.)"""
    from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
    name = "base.gv" if command == ["graph"] else "base.stl"
    urdf, mesh = robot_with_mesh(tmp_path, name)
    app, args = (umbrella, command) if command == ["graph"] else (urdf2sdf, command[1:])
    result = runner.invoke(app, [*args, str(urdf), "-o", str(mesh)])
    assert result.exit_code == 1, result.output
    assert "error[OUTPUT_IS_INPUT]" in result.output
    assert f"the mesh [meshes/{name}] at {urdf}:4 references it" in result.output
    assert mesh.read_bytes() == STL


def test_an_output_never_replaces_a_texture_or_an_included_model_config(tmp_path):
    """sdf2urdf and print: a texture of a URDF the SDF includes, the model.config of an
    included model directory."""
    models = tmp_path / "models"
    (models / "arm").mkdir(parents=True)
    config = models / "arm" / "model.config"
    config.write_text('<?xml version="1.0"?>\n<model><sdf version="1.9">model.sdf</sdf>'
                      "</model>\n")
    (models / "arm" / "model.sdf").write_text(PART.format(name="arm"))
    (tmp_path / "top").mkdir()
    source = tmp_path / "top" / "top.sdf"
    source.write_text('<?xml version="1.0"?>\n<sdf version="1.9"><model name="top">'
                      '<link name="b"/><include><uri>model://arm</uri></include>'
                      '<joint name="j" type="fixed"><parent>b</parent><child>arm::a</child>'
                      '</joint></model></sdf>\n')
    before = config.read_bytes()
    for app, args in ((sdf2urdf, []), (umbrella, ["print"])):
        result = runner.invoke(app, [*args, str(source), "-p", str(models), "-o", str(config)])
        assert result.exit_code == 1, result.output
        assert "error[OUTPUT_IS_INPUT]" in result.output
        assert f"the <include> of the model directory {models / 'arm'}" in result.output
        assert config.read_bytes() == before


def test_an_output_never_replaces_a_urdf_texture(tmp_path):
    from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
    (tmp_path / "wood.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    urdf = tmp_path / "robot.urdf"
    urdf.write_text('<?xml version="1.0"?>\n<robot name="r">\n  <link name="base">\n'
                    '    <visual><geometry><box size="1 1 1"/></geometry>\n'
                    '      <material name="m"><texture filename="wood.png"/></material>\n'
                    '    </visual>\n  </link>\n</robot>\n')
    result = runner.invoke(urdf2sdf, [str(urdf), "-o", str(tmp_path / "wood.png")])
    assert result.exit_code == 1, result.output
    assert f"the texture [wood.png] at {urdf}:5 references it" in result.output
    assert (tmp_path / "wood.png").read_bytes() == b"\x89PNG\r\n\x1a\n"


def test_a_model_dir_holding_a_mesh_the_input_names_is_never_replaced(tmp_path):
    """--model-dir --force over an earlier output of ours that holds the very mesh the
    input names: OUTPUT_EXISTS, the mesh intact."""
    from urdf_sdf.cli.main import urdf2sdf_app as urdf2sdf
    urdf, mesh = robot_with_mesh(tmp_path)
    out = tmp_path / "out"
    first = runner.invoke(urdf2sdf, [str(urdf), "--model-dir", str(out)])
    assert first.exit_code == 0, first.output
    urdf.write_text(MESH_URDF.replace("meshes/base.stl", "out/meshes/base.stl"))
    result = runner.invoke(urdf2sdf, [str(urdf), "--model-dir", str(out), "--force"])
    assert result.exit_code == 1, result.output
    assert "error[OUTPUT_EXISTS]" in result.output
    assert f"it holds {out / 'meshes' / 'base.stl'}, which the mesh " \
        f"[out/meshes/base.stl] at {urdf}:4 references" in result.output
    assert (out / "meshes" / "base.stl").read_bytes() == STL


# Meshes are read only where includes are: the input's package or model directory and
# the search paths (RESOURCE_OUTSIDE_PACKAGE, naming -p/--path).

SECRET_STL = ("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
       "vertex 0 1 0\nendloop\nendfacet\nendsolid s\n")


def mesh_outside(tmp_path: Path, text: str = SECRET_STL) -> Path:
    """``robot/r.urdf`` (no package.xml: its folder is its package) naming
    ``../secret/s.stl``, which holds ``text``."""
    (tmp_path / "secret").mkdir(exist_ok=True)
    (tmp_path / "secret" / "s.stl").write_text(text)
    (tmp_path / "robot").mkdir(exist_ok=True)
    urdf = tmp_path / "robot" / "r.urdf"
    urdf.write_text('<?xml version="1.0"?>\n<robot name="r">\n  <link name="a">\n    <visual>'
                    '<geometry><mesh filename="../secret/s.stl"/></geometry></visual>\n'
                    '  </link>\n</robot>\n')
    return urdf


def test_view_never_draws_a_mesh_outside_the_package(tmp_path):
    from urdf_sdf.view.scene import build_scene
    urdf = mesh_outside(tmp_path)
    scene = build_scene(load(str(urdf), Context()), "r")
    (shape,) = scene.sides[0].shapes
    assert shape.missing is not None and len(shape.faces) == 0  # a marker box
    (warning,) = scene.diagnostics
    assert warning.code is Code.RESOURCE_OUTSIDE_PACKAGE and "-p/--path" in warning.message
    admitted = Context(model_paths=[str(tmp_path / "secret")])
    (drawn,) = build_scene(load(str(urdf), admitted), "r").sides[0].shapes
    assert drawn.missing is None and len(drawn.faces) == 1


def test_check_meshes_never_opens_a_mesh_outside_the_package(tmp_path, monkeypatch):
    import urdf_sdf.core.inspect.resources as resources
    opened: list = []
    real_open = resources.open_regular
    monkeypatch.setattr(resources, "open_regular",
                        lambda path, *a, **k: opened.append(path) or real_open(path, *a, **k))
    urdf = mesh_outside(tmp_path)
    refused = runner.invoke(umbrella, ["check", "--meshes", str(urdf)])
    assert refused.exit_code == 1 and "r.urdf:4: error[RESOURCE_OUTSIDE_PACKAGE]" in \
        refused.output and "-p/--path" in refused.output and opened == []
    admitted = runner.invoke(umbrella, ["check", "--meshes", "-p", str(tmp_path / "secret"),
                                        str(urdf)])
    assert admitted.exit_code == 0, admitted.output


def test_diff_never_hashes_a_mesh_outside_the_package(tmp_path):
    """Two robots naming ``../secret/s.stl``, whose secrets differ: compared by the URI,
    never by the outside files' content."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = mesh_outside(tmp_path / "a")
    second = mesh_outside(tmp_path / "b", SECRET_STL.replace("vertex 1 0 0", "vertex 2 0 0"))
    result = runner.invoke(umbrella, ["diff", str(first), str(second)])
    assert result.exit_code == 0 and "equivalent" in result.output, result.output
