"""URDF -> SDFormat conversion: ``convert_urdf(load(path), ToSdf(relative=True))``."""
from urdf_sdf.urdf2sdf.convert import Conversion, ToSdf, convert_urdf

__all__ = ["Conversion", "ToSdf", "convert_urdf"]
