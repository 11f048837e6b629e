"""URDF -> SDFormat conversion: ``convert_urdf(load(path), Options(relative=True))``."""
from urdf_sdf.urdf2sdf.convert import Conversion, Options, convert_urdf

__all__ = ["Conversion", "Options", "convert_urdf"]
