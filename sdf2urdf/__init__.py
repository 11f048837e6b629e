"""SDFormat -> URDF conversion: ``convert_sdf(load(path), ToUrdf())``."""
from urdf_sdf.sdf2urdf.convert import Conversion, ToUrdf, convert_sdf

__all__ = ["Conversion", "ToUrdf", "convert_sdf"]
