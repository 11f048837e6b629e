"""The URDF ``<gazebo>`` extension vocabulary urdf2sdf maps (``urdf2sdf.gazebo``): each
Gazebo-classic tag of a link, joint or model block, and the SDFormat element it sets."""
from __future__ import annotations

from urdf_sdf.core.read.version import MODEL_SELF_COLLIDE, OLDEST_WRITTEN

GAZEBO_MATERIAL_URI = "file://media/materials/scripts/gazebo.material"

# The scalar tags: (path below the element, value type[, first SDFormat version]).
COLLISION_VALUES = {
    "mu1": (("surface", "friction", "ode", "mu"), "number"),
    "mu2": (("surface", "friction", "ode", "mu2"), "number"),
    "fdir1": (("surface", "friction", "ode", "fdir1"), "vector3"),
    "kp": (("surface", "contact", "ode", "kp"), "number"),
    "kd": (("surface", "contact", "ode", "kd"), "number"),
    "maxVel": (("surface", "contact", "ode", "max_vel"), "number"),
    "minDepth": (("surface", "contact", "ode", "min_depth"), "number"),
    "laserRetro": (("laser_retro",), "number"),
    "maxContacts": (("max_contacts",), "integer"),
}
LINK_VALUES: dict[str, tuple[tuple[str, ...], str]] = {
    "selfCollide": (("self_collide",), "bool"),
    "turnGravityOff": (("gravity",), "negated bool"),
}
JOINT_VALUES = {
    "stopCfm": (("physics", "ode", "limit", "cfm"), "number"),
    "stopErp": (("physics", "ode", "limit", "erp"), "number"),
    "fudgeFactor": (("physics", "ode", "fudge_factor"), "number"),
}
MODEL_VALUES = {
    "static": (("static",), "bool", OLDEST_WRITTEN),
    "selfCollide": (("self_collide",), "bool", MODEL_SELF_COLLIDE),
}
SPRING_VALUES = {"springReference": "spring_reference", "springStiffness": "spring_stiffness"}
LUMPING_TAGS = ("preserveFixedJoint", "disableFixedJointLumping")
LINK_TAGS = {*COLLISION_VALUES, *LINK_VALUES, "material", "dampingFactor"}
JOINT_TAGS = {*JOINT_VALUES, *SPRING_VALUES, *LUMPING_TAGS, "provideFeedback",
              "implicitSpringDamper", "cfmDamping"}
# Every tag of the URDF extension vocabulary (canonicalBody: libsdformat ignores it).
VOCABULARY = {*LINK_TAGS, *JOINT_TAGS, *MODEL_VALUES, "canonicalBody"}

# Link children whose <pose> is relative to the link frame by default.
POSED_LINK_CHILDREN = {"sensor", "light", "projector", "visual", "collision",
                       "particle_emitter", "audio_source"}
