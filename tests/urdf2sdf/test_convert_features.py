"""URDF -> SDFormat feature rules (``urdf2sdf``): what each URDF element becomes, one
fixture of ``tests/fixtures/urdf2sdf/features/`` per rule: joints and their elements, the
``urdf:`` custom elements, the world link, massless links, materials, transmissions,
meshes, geometry, inertials, visuals and collisions.
"""
from __future__ import annotations

import pytest
from lxml import etree

from tests.urdf2sdf_helpers import (
    FEATURES,
    by_name,
    converted,
    custom_joint,
    feature_output,
    load_output,
    sdf_model,
    warnings_of,
)
from urdf_sdf.core.base.custom import URDF_NS

# ---- joints ----------------------------------------------------------------------------------

def test_every_joint_type_and_its_elements():
    _, _, model = feature_output("joint_revolute_limit_dynamics")
    joint = by_name(model, "joint", "shoulder")
    assert joint.get("type") == "revolute"
    assert joint.findtext("parent") == "base" and joint.findtext("child") == "arm"
    assert joint.findtext("axis/xyz") == "0 0 1"
    assert [(el.tag, el.text) for el in joint.find("axis/limit")] == [
        ("lower", "-1.57"), ("upper", "1.57"), ("effort", "10"), ("velocity", "2.5")]
    assert [(el.tag, el.text) for el in joint.find("axis/dynamics")] == [
        ("damping", "0.5"), ("friction", "0.1")]

    _, _, model = feature_output("joint_continuous")
    left, right = by_name(model, "joint", "left"), by_name(model, "joint", "right")
    assert left.get("type") == right.get("type") == "continuous"
    assert left.find("axis/limit/lower") is None and left.find("axis/limit/upper") is None
    assert left.findtext("axis/limit/effort") == "5"
    assert left.findtext("axis/limit/velocity") == "10"
    assert right.findtext("axis/xyz") == "0 0 -1"

    _, _, model = feature_output("joint_prismatic")
    slide = by_name(model, "joint", "slide")
    assert slide.get("type") == "prismatic"
    assert slide.findtext("axis/limit/lower") == "0"
    assert slide.findtext("axis/limit/upper") == "0.5"

    _, _, model = feature_output("joint_fixed_massive_child")
    mount = by_name(model, "joint", "camera_mount")
    assert mount.get("type") == "fixed" and mount.find("axis") is None
    assert by_name(model, "link", "camera") is not None

    _, _, model = feature_output("joint_axis_default")
    assert by_name(model, "joint", "hinge").findtext("axis/xyz") == "1 0 0"
    assert by_name(model, "joint", "rail").findtext("axis/xyz") == "1 0 0"


def test_calibration_and_safety_controller_travel_as_custom_elements():
    _, _, model = feature_output("joint_calibration_safety_controller")
    joint = by_name(model, "joint", "elbow")
    calibration = joint.find(f"{{{URDF_NS}}}calibration")
    safety = joint.find(f"{{{URDF_NS}}}safety_controller")
    assert dict(calibration.attrib) == {"rising": "0.1", "falling": "0.2",
                                        "reference_position": "0.05"}
    assert dict(safety.attrib) == {"soft_lower_limit": "-1.9", "soft_upper_limit": "1.9",
                                   "k_position": "15", "k_velocity": "10"}


@pytest.mark.parametrize("relative", [False, True])
def test_floating_joint_makes_a_free_link_and_a_custom_element(relative):
    conversion, _, model = feature_output("joint_floating_free_link", relative=relative)
    assert by_name(model, "joint", "free") is None
    (custom,) = custom_joint(model, "free")
    assert custom.get("type") == "floating"
    assert custom.find(f"{{{URDF_NS}}}parent").get("link") == "base"
    assert custom.find(f"{{{URDF_NS}}}child").get("link") == "ball"
    assert custom.find(f"{{{URDF_NS}}}origin").attrib == {"xyz": "1 2 3", "rpy": "0 0 0.5"}
    assert by_name(model, "link", "ball") is not None
    assert any("free" in d.message and "floating" in d.message for d in warnings_of(conversion))


def test_planar_joint_makes_a_custom_element():
    conversion, _, model = feature_output("joint_planar_custom_element")
    assert by_name(model, "joint", "table") is None
    (custom,) = custom_joint(model, "table")
    assert custom.get("type") == "planar"
    assert custom.find(f"{{{URDF_NS}}}axis").get("xyz") == "0 0 1"
    assert custom.find(f"{{{URDF_NS}}}limit") is not None
    assert by_name(model, "link", "puck") is not None
    assert any("table" in d.message and "planar" in d.message for d in warnings_of(conversion))


def test_world_parent_link_becomes_a_joint_to_the_world():
    for relative in (False, True):
        _, _, model = feature_output("world_parent_joint", relative=relative)
        assert by_name(model, "link", "world") is None
        joint = by_name(model, "joint", "world_to_base")
        assert joint.findtext("parent") == "world" and joint.findtext("child") == "base"
    _, _, model = feature_output("world_parent_moving_joint")
    spin = by_name(model, "joint", "spin")
    assert spin.get("type") == "continuous" and spin.findtext("parent") == "world"


@pytest.mark.parametrize("relative", [False, True])
def test_world_parent_massless_leaf_makes_a_valid_sdf(relative):
    """A massless leaf fixed to the world link cannot be a frame attached to ``world``
    (libsdformat: FRAME_ATTACHED_TO_INVALID); whatever the converter makes of it must load,
    with the leaf at its URDF pose."""
    urdf = FEATURES / "world_parent_massless_leaf.urdf"
    conversion = converted(urdf, {"relative": relative})
    _, model = sdf_model(conversion.xml)
    for frame in model.findall("frame"):
        assert frame.get("attached_to") != "world", etree.tostring(frame).decode()
    load_output(conversion.xml, "world_parent_massless_leaf.sdf")


# ---- massless links --------------------------------------------------------------------------

@pytest.mark.parametrize("relative", [False, True])
def test_massless_leaf_on_fixed_joint_becomes_a_frame(relative):
    conversion, _, model = feature_output("link_massless_leaf_fixed_becomes_frame",
                                          relative=relative)
    for name, parent, joint in (("tool0", "arm", "tool_joint"),
                                ("camera_optical", "base", "camera_optical_joint")):
        assert by_name(model, "link", name) is None
        assert by_name(model, "joint", joint) is None
        frame = by_name(model, "frame", name)
        assert frame is not None, name
        assert frame.get("attached_to") == parent
        assert frame.get(f"{{{URDF_NS}}}joint") == joint
    assert not any(d.is_error for d in conversion.diagnostics)


def test_massless_link_on_moving_joint_stays_a_link_with_a_warning_naming_it():
    conversion, _, model = feature_output("link_massless_moving_joint_warning")
    assert by_name(model, "link", "ghost") is not None
    assert by_name(model, "frame", "ghost") is None
    warnings = [d for d in warnings_of(conversion) if "[ghost]" in d.message]
    assert warnings, [d.format() for d in conversion.diagnostics]
    assert warnings[0].line == 6 and warnings[0].file.endswith(
        "link_massless_moving_joint_warning.urdf")


def test_massless_links_that_are_not_bare_leaves_stay_links():
    _, _, model = feature_output("link_massless_fixed_not_leaf_stays_link")
    for name in ("mount", "decoration"):
        assert by_name(model, "link", name) is not None, name
        assert by_name(model, "frame", name) is None, name
    assert model.find("frame") is None


# ---- materials, transmissions, geometry, inertials, shapes -----------------------------------

def visual(model, link: str, name: str):
    return by_name(by_name(model, "link", link), "visual", name)


def test_materials_map_rgba_to_ambient_and_diffuse():
    _, _, model = feature_output("material_inline_color")
    material = visual(model, "base", "body").find("material")
    assert material.findtext("ambient") == material.findtext("diffuse") == \
        "1.0 0.423529 0.039216 1.0"
    assert material.get(f"{{{URDF_NS}}}name") == "orange"

    _, _, model = feature_output("material_inline_texture")
    textured = visual(model, "base", "textured").find("material")
    assert textured.find("ambient") is None and textured.find("diffuse") is None
    assert textured.find(f"{{{URDF_NS}}}texture").get("filename") == \
        "package://my_robot/textures/wood.png"
    tinted = visual(model, "base", "tinted").find("material")
    assert tinted.findtext("ambient") == tinted.findtext("diffuse") == "0.5 0.5 0.5 0.8"
    assert tinted.find(f"{{{URDF_NS}}}texture") is not None


def test_robot_level_materials_are_resolved_and_kept():
    _, _, model = feature_output("material_robot_level_reference")
    body = visual(model, "base", "body").find("material")
    assert body.findtext("ambient") == body.findtext("diffuse") == "0 0 0.8 1"
    assert body.get(f"{{{URDF_NS}}}name") == "blue"
    assert body.get(f"{{{URDF_NS}}}reference") == "true"
    panel = visual(model, "base", "panel").find("material")
    assert panel.find(f"{{{URDF_NS}}}texture").get("filename") == \
        "package://my_robot/textures/checker.png"
    definitions = {el.get("name"): el for el in model.findall(f"{{{URDF_NS}}}material")}
    assert set(definitions) == {"blue", "checker"}
    assert definitions["blue"].find(f"{{{URDF_NS}}}color").get("rgba") == "0 0 0.8 1"


def test_undefined_material_reference_warns():
    conversion, _, model = feature_output("material_undefined_reference")
    material = visual(model, "base", "body").find("material")
    assert material.get(f"{{{URDF_NS}}}name") == "nowhere"
    assert material.find("ambient") is None
    assert any("nowhere" in d.message and d.line == 9 for d in warnings_of(conversion))


def test_transmission_travels_whole():
    _, _, model = feature_output("transmission")
    (transmission,) = model.findall(f"{{{URDF_NS}}}transmission")
    assert transmission.get("name") == "shoulder_trans"
    assert transmission.findtext(f"{{{URDF_NS}}}type") == \
        "transmission_interface/SimpleTransmission"
    joint = transmission.find(f"{{{URDF_NS}}}joint")
    assert joint.get("name") == "shoulder"
    assert joint.findtext(f"{{{URDF_NS}}}hardwareInterface") == \
        "hardware_interface/EffortJointInterface"
    assert transmission.findtext(f"{{{URDF_NS}}}actuator/{{{URDF_NS}}}mechanicalReduction") \
        == "50"


@pytest.mark.parametrize("scheme, expected", [
    ("package", ["package://my_robot/meshes/base.dae", "file:///opt/meshes/cover.stl",
                 "package://my_robot/meshes/base_collision.stl"]),
    ("model", ["model://my_robot/meshes/base.dae", "file:///opt/meshes/cover.stl",
               "model://my_robot/meshes/base_collision.stl"]),
])
def test_mesh_uris_and_scale(scheme, expected):
    _, _, model = feature_output("mesh_package_uri_scale", uri_scheme=scheme)
    link = by_name(model, "link", "base")
    meshes = [link.find("visual[@name='scaled']/geometry/mesh"),
              link.find("visual[@name='file_mesh']/geometry/mesh"),
              link.find("collision[@name='unscaled']/geometry/mesh")]
    assert [m.findtext("uri") for m in meshes] == expected
    assert [m.findtext("scale") for m in meshes] == ["0.001 0.001 0.002", None, None]


def test_primitive_geometry_sizes_are_copied():
    _, _, model = feature_output("geometry_box_cylinder_sphere")
    link = by_name(model, "link", "base")
    for kind in ("visual", "collision"):
        assert link.findtext(f"{kind}[@name='box']/geometry/box/size") == "1 2.5 0.125"
        assert link.findtext(f"{kind}[@name='cylinder']/geometry/cylinder/radius") == "0.05"
        assert link.findtext(f"{kind}[@name='cylinder']/geometry/cylinder/length") == "0.3"
        assert link.findtext(f"{kind}[@name='sphere']/geometry/sphere/radius") == "0.25"


def test_inertial_origin_and_numbers_are_copied():
    _, _, model = feature_output("link_inertial_origin")
    inertial = by_name(model, "link", "base").find("inertial")
    assert inertial.findtext("pose") == "0.01 -0.02 0.03 0.1 0.2 0.3"
    assert inertial.findtext("mass") == "2.5"
    assert [(el.tag, el.text) for el in inertial.find("inertia")] == [
        ("ixx", "0.2"), ("ixy", "0.001"), ("ixz", "-0.002"), ("iyy", "0.25"), ("iyz", "0.003"),
        ("izz", "0.3")]
    assert by_name(model, "link", "arm").find("inertial/pose") is None


def test_visual_and_collision_origins_and_names():
    _, _, model = feature_output("link_visual_collision_origin")
    link = by_name(model, "link", "base")
    visuals = link.findall("visual")
    collisions = link.findall("collision")
    assert [v.get("name") for v in visuals] == ["body", "base_visual"]
    assert [v.findtext("pose") for v in visuals] == ["0 0 0.1 0 0 1.5707963267948966",
                                                     "0 0 0 0.5 0 0"]
    assert visuals[1].get(f"{{{URDF_NS}}}unnamed") == "true"
    assert [c.get("name") for c in collisions] == ["body_collision", "base_collision"]
    assert [c.findtext("pose") for c in collisions] == ["0 0 0.1 0 0 0", None]


def test_explicit_shape_names_are_kept_when_an_unnamed_shape_comes_first(tmp_path):
    """A generated name must not take a name the URDF gives explicitly: the named visual
    keeps its name (no rename, no "repeats" warning, since it does not repeat)."""
    urdf = tmp_path / "names.urdf"
    urdf.write_text(
        '<robot name="names"><link name="base">'
        '<visual><geometry><sphere radius="1"/></geometry></visual>'
        '<visual name="base_visual"><geometry><sphere radius="2"/></geometry></visual>'
        '<collision><geometry><sphere radius="1"/></geometry></collision>'
        '<collision name="base_collision"><geometry><sphere radius="2"/></geometry></collision>'
        '</link></robot>')
    conversion = converted(urdf, {})
    _, model = sdf_model(conversion.xml)
    link = by_name(model, "link", "base")
    for kind, radius in (("visual", "2"), ("collision", "2")):
        shapes = link.findall(kind)
        names = [s.get("name") for s in shapes]
        assert len(set(names)) == len(names) == 2, names
        named = by_name(link, kind, f"base_{kind}")
        assert named is not None and named.findtext("geometry/sphere/radius") == radius, \
            etree.tostring(link).decode()
        assert named.get(f"{{{URDF_NS}}}name") is None
    assert not [d.format() for d in conversion.diagnostics if "repeats" in d.message]
