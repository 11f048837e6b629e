"""Gazebo-classic forms in ``<gazebo>`` blocks, translated to the layout of the SDFormat
version written (``urdf2sdf.gazebo`` calls :func:`modernise` on each copied element).

* ``<sensor><imu><noise>`` with ``<type>``, ``<rate>`` and ``<accel>`` (SDFormat 1.4, and
  what ROS robots' URDFs still carry): from SDFormat 1.5 on, the noise of each axis is
  ``imu/angular_velocity/{x,y,z}/noise`` (from ``rate``) and
  ``imu/linear_acceleration/{x,y,z}/noise`` (from ``accel``), with the type as the
  ``type`` attribute. libsdformat warns about, and Drake refuses, the old form in a newer
  file.
"""
from __future__ import annotations

from lxml import etree

from urdf_sdf.core.read.version import PER_AXIS_IMU_NOISE, Version

IMU_NOISE_PARTS = (("rate", "angular_velocity"), ("accel", "linear_acceleration"))
NOISE_VALUES = ("mean", "stddev", "bias_mean", "bias_stddev", "precision")


def modernise(el, version: Version) -> list[str]:
    """Rewrite the legacy forms inside ``el`` (a copy the caller owns) for ``version``;
    the list says what was rewritten, for a warning."""
    done = []
    if version >= PER_AXIS_IMU_NOISE:
        for imu in el.iter("imu"):
            if not in_plugin(imu) and translate_imu_noise(imu):
                done.append("<imu><noise> (Gazebo classic) as angular_velocity and "
                            "linear_acceleration x/y/z noise")
    return done


def in_plugin(el) -> bool:
    """A plugin's content is its own (``copy_data``): never rewritten."""
    return el.tag == "plugin" or any(a.tag == "plugin" for a in el.iterancestors())


def translate_imu_noise(imu) -> bool:
    """``imu/noise`` -> per-axis noise; False when there is no legacy noise to translate."""
    noise = imu.find("noise")
    if noise is None or (noise.find("rate") is None and noise.find("accel") is None):
        return False
    kind = (noise.findtext("type") or "gaussian").strip()
    for legacy, modern in IMU_NOISE_PARTS:
        values = noise.find(legacy)
        if values is None:
            continue
        group = imu.find(modern)
        if group is None:
            group = etree.SubElement(imu, modern)
        for axis in ("x", "y", "z"):
            axis_el = group.find(axis)
            if axis_el is None:
                axis_el = etree.SubElement(group, axis)
            if axis_el.find("noise") is not None:
                continue  # the modern form already given wins
            axis_noise = etree.SubElement(axis_el, "noise", type=kind)
            for tag in NOISE_VALUES:
                text = values.findtext(tag)
                if text is not None:
                    etree.SubElement(axis_noise, tag).text = text.strip()
    imu.remove(noise)
    return True
