"""What a URDF's ``<transmission>``s name that some consumer refuses, though urdfdom and
libsdformat never look: a joint the robot does not have (URDF_TRANSMISSION_JOINT_UNKNOWN), an
actuator an earlier transmission names (URDF_TRANSMISSION_ACTUATOR_REPEATED). Drake refuses
both; the transmissions are carried as written, with a warning each."""
from __future__ import annotations

from urdf_sdf.core.base.diagnostics import Code
from urdf_sdf.core.base.model import Joint
from urdf_sdf.core.read.urdf_elements import UrdfState


def check_transmissions(transmissions: list, joints: dict[str, Joint], state: UrdfState) -> None:
    """A ``<transmission>`` whose ``<joint name>`` is no joint of the robot, or whose
    ``<actuator name>`` an earlier transmission names: urdfdom and libsdformat never look,
    Drake refuses the file. Carried as written, with a warning."""
    if not transmissions:
        return
    names = {joint.urdf_name or joint.name for joint in joints.values()}
    actuators: dict[str, str | None] = {}  # actuator name -> the first transmission naming it
    for transmission in transmissions:
        for joint_el in transmission.iter("joint"):
            name = joint_el.get("name")
            if name not in names:
                state.warning(Code.URDF_TRANSMISSION_JOINT_UNKNOWN,
                              f"transmission [{transmission.get('name')}] names joint [{name}], "
                              "which is not a joint of the robot (Drake refuses the file)",
                              joint_el)
        for actuator_el in transmission.iter("actuator"):
            check_actuator(actuator_el, transmission.get("name"), actuators, state)


def check_actuator(actuator_el, transmission: str | None, actuators: dict[str, str | None],
                   state: UrdfState) -> None:
    """URDF_TRANSMISSION_ACTUATOR_REPEATED when an earlier transmission (in ``actuators``)
    named the same actuator; else ``actuator_el``'s name is recorded there."""
    name = actuator_el.get("name")
    if name is None:
        return
    if name in actuators and actuators[name] != transmission:
        state.warning(Code.URDF_TRANSMISSION_ACTUATOR_REPEATED,
                      f"transmission [{transmission}] names actuator [{name}], which "
                      f"transmission [{actuators[name]}] names too (Drake refuses the file: "
                      "actuator names are unique in a model)", actuator_el)
    actuators.setdefault(name, transmission)
