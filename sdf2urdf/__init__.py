"""SDFormat -> URDF conversion: ``convert_sdf(load(path), Options())``."""
from urdf_sdf.sdf2urdf.convert import Conversion, Options, convert_sdf

__all__ = ["Conversion", "Options", "convert_sdf"]
