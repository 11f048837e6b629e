"""Model composition: custom model parsers (the composition proposal's interface API,
``urdf_sdf.core.compose.interface``), with a tiny TOML format defined here (``gizmo``, see
``tests/fixtures/compose/custom/gizmo.toml``): the parsed model joins the frame graph, the
parser receives the nested include and its names, the latest registered parser answers
first, ``None`` passes the file on, errors are diagnostics at the ``<include>``, and
``reposture`` receives the resolved poses.
"""
from __future__ import annotations

import pytest

from tests.compose_helpers import (
    CUSTOM,
    FIX,
    PLATE_MODEL,
    P,
    assert_diagnostic_at,
    assert_pose,
    assert_poses,
    error_codes,
    formatted,
    joint_links,
    line_of,
    loaded,
    plate,
    same_file,
)
from urdf_sdf import Code, Context, load
from urdf_sdf.core.base.pose import Pose
from urdf_sdf.core.compose.interface import (
    InterfaceFrame,
    InterfaceLink,
    InterfaceModel,
    ResolvedModel,
)
from urdf_sdf.core.graph import Kind

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None


def read_toml(path: str) -> dict:
    if tomllib is None:
        pytest.skip("the gizmo format is parsed with tomllib (Python >= 3.11)")
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def pose6(values) -> Pose:
    return P(*values)


def gizmo_interface(data: dict) -> InterfaceModel:
    model = InterfaceModel(name=data["name"], canonical_link=data["canonical_link"])
    model.links = [InterfaceLink(link["name"], pose6(link["pose"])) for link in data["links"]]
    model.frames = [InterfaceFrame(frame["name"], frame.get("attached_to", "__model__"),
                                   pose6(frame["pose"])) for frame in data.get("frames", [])]
    model.models = [gizmo_interface(nested) for nested in data.get("models", [])]
    return model


class GizmoParser:
    """Reads gizmo TOML files; None for anything else (another suffix or format)."""

    def __init__(self, log: list | None = None):
        self.log = log if log is not None else []
        self.includes = []
        self.resolved: list[ResolvedModel] = []
        self.seen: list[tuple] = []

    def __call__(self, include, errors):
        self.log.append(("gizmo", include.resolved_file_name))
        self.includes.append(include)
        if not include.resolved_file_name.endswith(".toml"):
            return None
        data = read_toml(include.resolved_file_name)
        if data.get("format") != "gizmo":
            return None
        names = {link["name"] for link in data.get("links", [])}
        if data["canonical_link"] not in names:
            errors.append((Code.MODEL_CANONICAL_LINK_INVALID,
                           f"canonical link [{data['canonical_link']}] is not a link"))
            return None
        model = gizmo_interface(data)
        model.reposture = self.reposture
        return model

    def reposture(self, resolved: ResolvedModel):
        self.resolved.append(resolved)
        self.seen.append((resolved.scoped_name, resolved.model_pose_in_world(),
                          resolved.frame_pose("tool"), resolved.frame_pose("tool", "tip"),
                          resolved.frame_pose("base")))


def widget_parser(log: list):
    """Reads any TOML whose format is widget: a model with one link."""
    def parse(include, errors):
        log.append(("widget", include.resolved_file_name))
        if not include.resolved_file_name.endswith(".toml"):
            return None
        data = read_toml(include.resolved_file_name)
        if data.get("format") != "widget":
            return None
        return InterfaceModel(data["name"], "hub", links=[InterfaceLink("hub", P(0, 0, 0.5))])
    return parse


def gizmo_context() -> tuple[Context, GizmoParser]:
    parser = GizmoParser()
    # The fixtures include each other across their folders: all of them are searched.
    context = Context(model_paths=[str(FIX)])
    context.register_model_parser(parser)
    return context, parser


GIZMO_BASE = P(0.1, 0.0, 0.05, 0, 0, 0.3)
GIZMO_TIP = P(0.4, 0.1, 0.2, 0, 0.35, 0)
GIZMO_TOOL_IN_TIP = P(0, 0, 0.08, 0.2, 0, -0.4)
GIZMO_BADGE = P(0, -0.05, 0)
X_G = P(0.5, -0.25, 0.1, 0, 0, 0.8)


def test_custom_parser_model_joins_the_graph():
    context, parser = gizmo_context()
    result = loaded(CUSTOM / "include_gizmo.sdf", context)
    tool = X_G * GIZMO_TIP * GIZMO_TOOL_IN_TIP
    assert_poses(result, {"g": X_G, "g::base": X_G * GIZMO_BASE, "g::tip": X_G * GIZMO_TIP,
                          "g::tool": tool, "g::badge": X_G * GIZMO_BADGE,
                          # posed against, attached to and jointed to from the includer
                          "attachment": tool * P(0, 0, 0.02),
                          "near_tip": X_G * GIZMO_BADGE * P(0.01, 0, 0),
                          "to_gizmo": tool * P(0, 0, 0.02)})
    assert result.attached_link("g::tool") == "g::tip"
    assert result.attached_link("g::badge") == "g::base"  # __model__ -> canonical link
    assert result.attached_link("g") == "g::base"
    assert result.attached_link("near_tip") == "g::tip"
    assert joint_links(result, "to_gizmo") == ("g::tip", "attachment")
    assert result.graph.find("g").kind is Kind.MODEL


def test_custom_parser_receives_the_nested_include():
    context, parser = gizmo_context()
    loaded(CUSTOM / "include_gizmo.sdf", context)
    (include,) = parser.includes
    assert include.uri == "gizmo.toml"
    assert same_file(include.resolved_file_name, CUSTOM / "gizmo.toml")
    assert include.local_model_name == "g"
    assert include.absolute_model_name == "holder::g"
    assert include.is_static is False
    custom = [el for el in include.virtual_custom_elements
              if el.tag == "{urn:example:gizmo}paint"]
    assert len(custom) == 1 and custom[0].text == "orange"
    standard = {"uri", "name", "pose", "static", "placement_frame"}
    assert not [el for el in include.virtual_custom_elements if el.tag in standard]


def test_custom_parser_nested_include_names():
    """NestedInclude.absolute_model_name is the name in the absolute hierarchy
    (proposal 1.5: ``top_model::middle_model::my_new_model``)."""
    context, parser = gizmo_context()
    result = loaded(CUSTOM / "nested_gizmo.sdf", context)
    (include,) = parser.includes
    assert include.local_model_name == "g2"
    assert include.is_static is True
    assert include.absolute_model_name == "holder::rack::g2"
    X = P(0, 1, 0) * P(0, 0, 0.3)
    assert_pose(result.pose("rack::g2::tool"), X * GIZMO_TIP * GIZMO_TOOL_IN_TIP, "tool")
    assert result.graph.find("rack::g2").static


def test_custom_parser_include_without_name(tmp_path):
    """Without //include/name the local name is unknown: the absolute name must still not
    be a dangling scope (``holder::``)."""
    (tmp_path / "top.sdf").write_text(f"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="holder">
    <link name="frame_link"/>
    <include>
      <uri>{CUSTOM / 'gizmo.toml'}</uri>
    </include>
  </model>
</sdf>
""")
    context, parser = gizmo_context()
    result = loaded(tmp_path / "top.sdf", context)
    (include,) = parser.includes
    assert not include.local_model_name
    assert not include.absolute_model_name.endswith("::"), include.absolute_model_name
    # the model keeps the name the parser gave it
    assert_pose(result.pose("gizmo::tip"), GIZMO_TIP, "gizmo::tip")


def test_custom_parser_with_placement_frame_and_merge(tmp_path):
    (tmp_path / "top.sdf").write_text(f"""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="holder">
    <link name="frame_link"/>
    <frame name="spot">
      <pose>1 1 1 0 0 1</pose>
    </frame>
    <include>
      <uri>{CUSTOM / 'gizmo.toml'}</uri>
      <name>placed</name>
      <placement_frame>tool</placement_frame>
      <pose relative_to="spot"/>
    </include>
    <include merge="true">
      <uri>{CUSTOM / 'gizmo.toml'}</uri>
      <pose>0 0 5 0 0 0</pose>
    </include>
  </model>
</sdf>
""")
    context, parser = gizmo_context()
    result = loaded(tmp_path / "top.sdf", context)
    spot = P(1, 1, 1, 0, 0, 1)
    assert_pose(result.pose("placed::tool"), spot, "placed::tool")
    assert_pose(result.pose("placed"), spot * (GIZMO_TIP * GIZMO_TOOL_IN_TIP).inverse(), "placed")
    merged = P(0, 0, 5)
    assert_poses(result, {"_merged__gizmo__model__": merged, "base": merged * GIZMO_BASE,
                          "tool": merged * GIZMO_TIP * GIZMO_TOOL_IN_TIP})
    assert {r.scoped_name for r in parser.resolved} >= {"placed"}


def test_custom_parsers_latest_first_and_none_passes_on():
    log: list = []
    gizmo = GizmoParser(log)
    context = Context()
    context.register_model_parser(gizmo)
    context.register_model_parser(widget_parser(log))
    # other.toml is a widget: the widget parser (registered last) answers first.
    result = loaded(CUSTOM / "include_other_toml.sdf", context)
    assert [who for who, _ in log] == ["widget"]
    assert_pose(result.pose("widget::hub"), P(0, 0, 0.5), "widget::hub")
    # gizmo.toml: the widget parser returns None, the gizmo parser reads it.
    log.clear()
    loaded(CUSTOM / "include_gizmo.sdf", context)
    assert [who for who, _ in log] == ["widget", "gizmo"]


def test_latest_registered_parser_wins():
    first, second = [], []

    def make(log, link):
        def parse(include, errors):
            log.append(include.uri)
            if not include.resolved_file_name.endswith(".toml"):
                return None
            return InterfaceModel("gizmo", link, links=[InterfaceLink(link, P(0, 0, 1))])
        return parse

    context = Context()
    context.register_model_parser(make(first, "from_first"))
    context.register_model_parser(make(second, "from_second"))
    result = loaded(CUSTOM / "include_other_toml.sdf", context)
    assert second == ["other.toml"] and first == []
    assert result.graph.find("gizmo::from_second") is not None
    assert result.graph.find("gizmo::from_first") is None


def test_custom_parser_errors_are_diagnostics_at_the_include():
    context, parser = gizmo_context()
    path = CUSTOM / "include_gizmo_errors.sdf"
    result = load(path, context)
    assert not result.ok
    assert_diagnostic_at(result, Code.MODEL_CANONICAL_LINK_INVALID, path,
                         line_of(path, "<include>"))
    assert any("missing" in d.message for d in result.diagnostics)


def test_custom_parser_string_errors_are_diagnostics_at_the_include():
    def parse(include, errors):
        errors.append("this parser refuses everything")
        return None

    context = Context()
    context.register_model_parser(parse)
    path = CUSTOM / "include_other_toml.sdf"
    result = load(path, context)
    assert not result.ok
    found = [d for d in result.diagnostics if d.is_error and "refuses everything" in d.message]
    assert found and same_file(found[0].file, path)
    assert found[0].line == line_of(path, "<include>")


def test_sdf_and_world_files_never_go_to_custom_parsers():
    log: list = []
    context = Context(model_paths=[str(FIX)])  # it includes ../parts/plate.sdf
    context.register_model_parser(GizmoParser(log))
    result = loaded(CUSTOM / "include_sdf_not_custom.sdf", context)
    assert log == []
    assert_poses(result, plate("plate::", PLATE_MODEL))
    assert_pose(result.pose("lamp::bulb"), P(0, 0, 2), "lamp::bulb")


def test_urdf_goes_to_custom_parsers_first():
    log: list = []

    def urdf_parser(include, errors):
        log.append(include.resolved_file_name)
        if include.resolved_file_name.endswith(".urdf") and accept:
            return InterfaceModel("custom_urdf", "only", links=[InterfaceLink("only", P(1, 0, 0))])
        return None

    context = Context()
    context.register_model_parser(urdf_parser)
    accept = True
    result = load(FIX / "include_urdf.sdf", context)
    assert log and log[0].endswith("two_link.urdf")
    # the parser's model replaced the URDF: limb::fore is gone, so wrist/mount break
    assert result.graph.find("limb::only") is not None
    assert result.graph.find("limb::fore") is None
    # returning None hands the file to the URDF reader
    accept = False
    log.clear()
    result = loaded(FIX / "include_urdf.sdf", context)
    assert log and result.graph.find("limb::fore") is not None


def test_reposture_receives_resolved_poses():
    context, parser = gizmo_context()
    result = loaded(CUSTOM / "include_gizmo.sdf", context)
    assert len(parser.seen) == 1
    scoped, model_pose, tool, tool_in_tip, base = parser.seen[0]
    assert scoped == "g"
    assert_pose(model_pose, X_G, "model_pose_in_world")
    assert_pose(model_pose, result.pose("g"), "model_pose_in_world vs result")
    assert_pose(tool, X_G * GIZMO_TIP * GIZMO_TOOL_IN_TIP, "frame_pose(tool)")
    assert_pose(tool_in_tip, GIZMO_TOOL_IN_TIP, "frame_pose(tool, tip)")
    assert_pose(base, X_G * GIZMO_BASE, "frame_pose(base)")


def test_reposture_of_nested_custom_model_in_world_frame():
    context, parser = gizmo_context()
    loaded(CUSTOM / "nested_gizmo.sdf", context)
    ((scoped, model_pose, tool, _, _),) = parser.seen
    assert scoped == "rack::g2"
    X = P(0, 1, 0) * P(0, 0, 0.3)
    assert_pose(model_pose, X, "model_pose_in_world")
    assert_pose(tool, X * GIZMO_TIP * GIZMO_TOOL_IN_TIP, "frame_pose(tool)")


def test_custom_parser_nested_interface_models(tmp_path):
    (tmp_path / "nest.toml").write_text("""
format = "gizmo"
name = "nest"
canonical_link = "base"
links = [{ name = "base", pose = [0.0, 0.0, 0.1, 0.0, 0.0, 0.0] }]
[[models]]
name = "inner"
canonical_link = "core"
links = [{ name = "core", pose = [0.2, 0.0, 0.0, 0.0, 0.0, 0.5] }]
frames = [{ name = "port", attached_to = "core", pose = [0.0, 0.1, 0.0, 0.0, 0.0, 0.0] }]
""")
    (tmp_path / "top.sdf").write_text("""<?xml version="1.0"?>
<sdf version="1.9">
  <model name="top">
    <link name="frame_link"/>
    <include>
      <uri>nest.toml</uri>
      <pose>1 0 0 0 0 0</pose>
    </include>
    <frame name="at_port" attached_to="nest::inner::port"/>
  </model>
</sdf>
""")
    context, _ = gizmo_context()
    result = loaded(tmp_path / "top.sdf", context)
    assert result.graph.find("nest::inner").kind is Kind.MODEL
    # A nested interface model has no pose of its own: its frame is the parent's.
    port = P(1, 0, 0) * P(0.2, 0, 0, 0, 0, 0.5) * P(0, 0.1, 0)
    assert_poses(result, {"nest::inner::port": port, "at_port": port})
    assert result.attached_link("at_port") == "nest::inner::core"


def test_custom_model_name_with_scope_delimiter_is_a_diagnostic():
    """InterfaceModel names must not contain '::' (proposal 1.5): an error value at the
    include, not an exception out of load()."""
    def parse(include, errors):
        if not include.resolved_file_name.endswith(".toml"):
            return None
        return InterfaceModel("bad::name", "hub", links=[InterfaceLink("hub")])

    context = Context()
    context.register_model_parser(parse)
    path = CUSTOM / "include_other_toml.sdf"
    result = load(path, context)  # must not raise
    assert not result.ok
    found = [d for d in result.diagnostics if d.is_error]
    assert found and same_file(found[0].file, path), formatted(result)
    assert any(d.line == line_of(path, "<include>") for d in found)


def test_custom_model_with_bad_canonical_link_is_invalid():
    def parse(include, errors):
        if not include.resolved_file_name.endswith(".toml"):
            return None
        return InterfaceModel("odd", "nowhere", links=[InterfaceLink("hub")])

    context = Context()
    context.register_model_parser(parse)
    path = CUSTOM / "include_other_toml.sdf"
    result = load(path, context)
    assert not result.ok
    assert Code.MODEL_CANONICAL_LINK_INVALID.value in error_codes(result), formatted(result)
    assert all(d.line is not None for d in result.diagnostics if d.is_error)


def offset_hub_parser(model_in_canonical_link):
    """A parser whose canonical link ``hub`` sits 1 m up in the model frame, stating the
    model frame in that link as ``model_in_canonical_link``."""
    def parse(include, errors):
        if not include.resolved_file_name.endswith(".toml"):
            return None
        return InterfaceModel("odd", "hub", model_in_canonical_link=model_in_canonical_link,
                              links=[InterfaceLink("hub", P(0, 0, 1, 0, 0, 0))])
    return parse


def test_model_in_canonical_link_agreeing_with_the_link_pose_is_honoured():
    """Composition proposal 1.5: InterfaceModel(name, reposture, canonical_link_name, X_LcM),
    "X_LcM: model frame pose relative to canonical link's frame"; with the canonical link
    at X_MLc in the model frame, X_LcM is its inverse."""
    context = Context()
    context.register_model_parser(offset_hub_parser(P(0, 0, -1, 0, 0, 0)))
    result = load(CUSTOM / "include_other_toml.sdf", context)
    assert result.ok, formatted(result)
    assert result.pose("odd::hub", "odd").position == (0.0, 0.0, 1.0)


def test_model_in_canonical_link_contradicting_the_link_pose_is_an_error():
    context = Context()
    context.register_model_parser(offset_hub_parser(P(0, 0, 1, 0, 0, 0)))
    path = CUSTOM / "include_other_toml.sdf"
    result = load(path, context)
    assert not result.ok
    error = next(d for d in result.diagnostics if d.is_error)
    assert error.code is Code.MODEL_CANONICAL_LINK_INVALID, formatted(result)
    assert error.line == line_of(path, "<include>")
    assert "model_in_canonical_link" in error.message and "[hub]" in error.message
