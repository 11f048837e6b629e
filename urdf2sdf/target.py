"""The Gazebo a conversion is written for (``urdf2sdf --gazebo``): the newest SDFormat
version its libsdformat reads (``core.read.version.GAZEBO_VERSIONS``), and what a model
whose content needs a newer version becomes.

Only ``<mimic>`` needs more than the oldest target reads (SDFormat 1.11's
``//axis/mimic``; frames need 1.7 and nested scopes 1.8, which every target reads). With
the default target (Gazebo Harmonic) a mimic raises the version to 1.11 and a note
(``VERSION_RAISED``) names the joints and the flag for older Gazebo releases; with a
target or ``--sdf-version`` below 1.11 the mimic is carried as ``<urdf:mimic>``
(``JOINT_MIMIC_CARRIED``), which sdf2urdf restores and Gazebo ignores.
"""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code, Diagnostics
from urdf_sdf.core.base.model import Model
from urdf_sdf.core.read.version import (
    AXIS_MIMIC,
    DEFAULT_GAZEBO,
    GAZEBO_VERSIONS,
    OLDEST_GAZEBO,
    Version,
    gazebo_readers,
    version_text,
    written_version,
)


def gazebo_name(target: str) -> str:
    return "Gazebo " + target.capitalize()


def version_ceiling(gazebo: str | None, sdf_version: str | None, file: str | None,
                    diagnostics: Diagnostics) -> Version | None:
    """The newest version the conversion may write: the target's (``gazebo``, else the
    default), or ``--sdf-version`` when it alone is given. None, with VERSION_UNSUPPORTED,
    when ``--sdf-version`` asks for a version the named target cannot read."""
    asked = written_version(sdf_version)
    target = gazebo or DEFAULT_GAZEBO
    ceiling = GAZEBO_VERSIONS[target]
    if asked is None:
        return ceiling
    if gazebo is None:
        return max(asked, ceiling)
    if asked > ceiling:
        diagnostics.error(Code.VERSION_UNSUPPORTED, f"--sdf-version {sdf_version} is newer "
                          f"than {gazebo_name(gazebo)} reads (SDFormat "
                          f"{version_text(ceiling)}); drop --sdf-version or pick a later "
                          "--gazebo", file)
        return None
    return ceiling


def mimic_joints(model: Model) -> list[str]:
    return [joint.name for joint in model.joints if joint.mimic is not None]


def joints_text(names: list[str]) -> str:
    """``joint [a] mimics`` or ``joint [a] and 2 more mimic``."""
    if len(names) == 1:
        return f"joint [{names[0]}] mimics"
    return f"joint [{names[0]}] and {len(names) - 1} more mimic"


def mimic_in_axis(model: Model, gazebo: str | None, ceiling: Version,
                  diagnostics: Diagnostics) -> bool:
    """Whether the model's mimics are written as ``//axis/mimic`` (the version raised to
    1.11), with a VERSION_RAISED note when the target was not chosen: the default then
    decided for the user that Gazebo Fortress and Garden cannot load the file."""
    names = mimic_joints(model)
    if AXIS_MIMIC > ceiling:
        return False
    if gazebo is None and AXIS_MIMIC > GAZEBO_VERSIONS[OLDEST_GAZEBO]:
        older = [gazebo_name(name) for name, newest in GAZEBO_VERSIONS.items()
                 if newest < AXIS_MIMIC]
        diagnostics.warning(Code.VERSION_RAISED, f"{joints_text(names)} another joint: "
                            f"written as SDFormat {version_text(AXIS_MIMIC)} (//axis/mimic), "
                            f"which Gazebo {gazebo_readers(AXIS_MIMIC)} read and "
                            f"{' and '.join(older)} cannot; --gazebo {OLDEST_GAZEBO} writes "
                            f"an SDF they load (the mimic kept as <urdf:mimic>), --gazebo "
                            f"{DEFAULT_GAZEBO} says this is meant", model.source.file)
    return True


def mimic_carried(model: Model, gazebo: str | None, sdf_version: str | None,
                  version: Version, diagnostics: Diagnostics) -> None:
    """JOINT_MIMIC_CARRIED: the mimics of a model written below 1.11 (``version``), as
    ``--sdf-version`` asked or the target allowed."""
    names = mimic_joints(model)
    if not names or version >= AXIS_MIMIC:
        return
    why = f"--sdf-version asks for {sdf_version}" if sdf_version or not gazebo else \
        f"{gazebo_name(gazebo)} reads up to {version_text(GAZEBO_VERSIONS[gazebo])}"
    diagnostics.warning(Code.JOINT_MIMIC_CARRIED, f"{joints_text(names)} another joint, "
                        f"which needs SDFormat {version_text(AXIS_MIMIC)} (//axis/mimic); "
                        f"{why}: the mimic is kept as <urdf:mimic> "
                        "(sdf2urdf restores it; Gazebo does not simulate it)",
                        model.source.file)
