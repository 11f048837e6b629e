"""Format-neutral description of a robot: plain dataclasses filled by the readers.

Every element remembers its source file and line (``Source``) and, where it came
from XML, the lxml element itself (``xml``) so that converters can carry over
what the core does not interpret.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from urdf_sdf.core.base.diagnostics import Source
from urdf_sdf.core.base.pose import IDENTITY, Pose

# The world frame's name: URDF's fixed root link, a joint's parent in SDFormat.
WORLD = "world"
# The implicit frame of every SDFormat model (its own pose), a reference of poses and frames.
MODEL_FRAME = "__model__"

@dataclass(slots=True)
class PoseSpec:
    """A ``<pose>`` as written: its text and attributes beside its value.

    ``relative_to`` is ``None`` when no attribute was given (or it was empty):
    the element's default frame applies.
    """
    value: Pose = IDENTITY
    relative_to: str | None = None
    text: str = ""
    degrees: bool = False
    rotation_format: str = "euler_rpy"
    source: Source = field(default_factory=Source)
    # URDF <origin>: the xyz and rpy attribute texts as written (None when absent).
    xyz_text: str | None = None
    rpy_text: str | None = None
    # SDF: the <pose> element itself.
    xml: Any = None
    # SDF: the element's ``urdf:`` attributes by local name (core.base.custom.markup_of):
    # what urdf2sdf marked for sdf2urdf, held when the XML is not kept.
    markup: dict[str, str] | None = None




@dataclass(slots=True)
class Inertial:
    mass: float = 1.0
    pose: PoseSpec = field(default_factory=PoseSpec)
    ixx: float = 1.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 1.0
    iyz: float = 0.0
    izz: float = 1.0
    # The numbers' texts as written (mass, ixx...), for emitters that copy them.
    texts: dict[str, str] = field(default_factory=dict)
    source: Source = field(default_factory=Source)
    # SDF: the element's ``urdf:`` attributes (see PoseSpec.markup).
    markup: dict[str, str] | None = None


@dataclass(slots=True)
class Geometry:
    """A shape: ``kind`` is box, cylinder, sphere, mesh, plane, capsule, ellipsoid,
    heightmap...; ``size`` (box), ``radius``, ``length``, ``uri`` and ``scale`` (mesh)
    hold the numbers, ``texts`` the attribute or element text they came from."""
    kind: str
    size: tuple[float, float, float] | None = None
    radius: float | None = None
    length: float | None = None
    uri: str | None = None
    scale: tuple[float, float, float] | None = None
    texts: dict[str, str] = field(default_factory=dict)
    source: Source = field(default_factory=Source)
    xml: Any = None


@dataclass(slots=True)
class Material:
    name: str | None = None
    color: tuple[float, float, float, float] | None = None
    color_text: str | None = None
    texture: str | None = None
    source: Source = field(default_factory=Source)
    xml: Any = None
    # URDF: the material only names a robot-level one (no <color>, no <texture>).
    reference: bool = False
    # SDF: the element's ``urdf:`` attributes (see PoseSpec.markup).
    markup: dict[str, str] | None = None


@dataclass(slots=True)
class Shape:
    """A link's visual or collision."""
    name: str | None
    pose: PoseSpec = field(default_factory=PoseSpec)
    geometry: Geometry | None = None
    material: Material | None = None
    source: Source = field(default_factory=Source)
    xml: Any = None
    # URDF: the shape came from a <gazebo reference="LINK"> block (SDF syntax).
    from_gazebo: bool = False
    # SDF: the element's ``urdf:`` attributes (see PoseSpec.markup).
    markup: dict[str, str] | None = None
    # URDF children this project does not read, carried through SDF as urdf: elements
    # (None when there are none: most shapes).
    carried: list[Any] | None = None


@dataclass(slots=True)
class Link:
    name: str
    pose: PoseSpec = field(default_factory=PoseSpec)
    inertial: Inertial | None = None
    visuals: list[Shape] = field(default_factory=list)
    collisions: list[Shape] = field(default_factory=list)
    source: Source = field(default_factory=Source)
    xml: Any = None
    # URDF children this project does not read, carried through SDF as urdf: elements.
    carried: list[Any] = field(default_factory=list)
    # URDF attributes URDF does not define (core.read.urdf_attributes), carried through SDF
    # (read back from it by core.read.carried_attributes).
    attributes: dict[str, str] | None = None
    # Those of the elements below it, by the element's path in it (``visual[1]/geometry/box``).
    part_attributes: dict[str, dict[str, str]] | None = None


@dataclass(slots=True)
class Limit:
    lower: float | None = None
    upper: float | None = None
    effort: float | None = None
    velocity: float | None = None
    texts: dict[str, str] = field(default_factory=dict)
    # URDF attributes URDF does not define (core.read.urdf_attributes), carried through SDF
    # (read back from it by core.read.carried_attributes).
    attributes: dict[str, str] | None = None


@dataclass(slots=True)
class Dynamics:
    damping: float | None = None
    friction: float | None = None
    texts: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Mimic:
    joint: str
    multiplier: float = 1.0
    offset: float = 0.0
    texts: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Axis:
    xyz: tuple[float, float, float] = (0.0, 0.0, 1.0)
    expressed_in: str | None = None
    xyz_text: str | None = None
    source: Source = field(default_factory=Source)
    xml: Any = None
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    mimic: Mimic | None = None


@dataclass(slots=True)
class Joint:
    name: str
    type: str
    parent: str
    child: str
    pose: PoseSpec = field(default_factory=PoseSpec)
    axes: list[Axis] = field(default_factory=list)
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    mimic: Mimic | None = None
    # URDF-only elements kept as their XML (calibration, safety_controller).
    extras: dict[str, Any] = field(default_factory=dict)
    # URDF children this project does not read, carried through SDF as urdf: elements.
    carried: list[Any] = field(default_factory=list)
    # URDF attributes URDF does not define (core.read.urdf_attributes), carried through SDF
    # (read back from it by core.read.carried_attributes).
    attributes: dict[str, str] | None = None
    # Those of the elements below it, by the element's path in it (``visual[1]/geometry/box``).
    part_attributes: dict[str, dict[str, str]] | None = None
    # URDF: the joint's own name when it had to be renamed (a link has the same name).
    urdf_name: str | None = None
    source: Source = field(default_factory=Source)
    xml: Any = None
    # SDF: the element's ``urdf:`` attributes (see PoseSpec.markup).
    markup: dict[str, str] | None = None


@dataclass(slots=True)
class Frame:
    name: str
    attached_to: str | None = None
    pose: PoseSpec = field(default_factory=PoseSpec)
    source: Source = field(default_factory=Source)
    xml: Any = None
    # URDF (Drake's <frame>): attributes URDF does not define, carried through SDF.
    attributes: dict[str, str] | None = None
    # SDF: those of the parts of the URDF link (and fixed joint) the frame stands for.
    part_attributes: dict[str, dict[str, str]] | None = None


@dataclass(slots=True)
class Model:
    name: str
    pose: PoseSpec = field(default_factory=PoseSpec)
    canonical_link: str | None = None
    placement_frame: str | None = None
    static: bool = False
    links: list[Link] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    models: list[Model] = field(default_factory=list)
    source: Source = field(default_factory=Source)
    xml: Any = None
    # URDF: robot-level materials, transmissions and <gazebo> blocks, kept as XML.
    materials: dict[str, Material] = field(default_factory=dict)
    transmissions: list[Any] = field(default_factory=list)
    gazebo: list[Any] = field(default_factory=list)
    # URDF children this project does not read, carried through SDF as urdf: elements.
    carried: list[Any] = field(default_factory=list)
    # URDF attributes URDF does not define (core.read.urdf_attributes), carried through SDF
    # (read back from it by core.read.carried_attributes).
    attributes: dict[str, str] | None = None
    # The SDFormat version of the file the model was written in (core.read.version): naming
    # rules differ below 1.7, and an included model keeps its own file's version. Always
    # given by whoever makes the model.
    version: tuple[int, int] = field(kw_only=True)
    # Where the model came from when it was included (the included file's path).
    included_from: str | None = None
    # A model a custom parser provided (core.compose.interface.InterfaceModel), for reposturing.
    interface: Any = None


@dataclass(slots=True)
class World:
    name: str
    models: list[Model] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    joints: list[Joint] = field(default_factory=list)
    source: Source = field(default_factory=Source)
    xml: Any = None
    version: tuple[int, int] = field(kw_only=True)  # as Model.version


@dataclass(slots=True)
class Document:
    """What a file holds: one root model or one or more worlds."""
    version: str
    model: Model | None = None
    worlds: list[World] = field(default_factory=list)
    file: str | None = None
    format: str = "sdf"

    @property
    def world(self) -> World | None:
        return self.worlds[0] if self.worlds else None
