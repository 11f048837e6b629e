"""What sdf2urdf is asked to do (:class:`ToUrdf`) and what it gives back
(:class:`Conversion`); ``sdf2urdf.convert`` does it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from urdf_sdf.core.base.diagnostics import Diagnostics
from urdf_sdf.core.write.result import Converted


@dataclass
class ToUrdf:
    model: str | None = None
    # Every model of a world into one URDF under ``world`` (sdf2urdf.world).
    all_models: bool = False
    separator: str = "::"
    drop_frames: bool = False
    approximate: bool = False
    uri_scheme: str | None = None
    # The folder the output is written to (see urdf2sdf.ToSdf.output_dir).
    output_dir: str | None = None


@dataclass
class Conversion(Converted):
    xml: bytes | None
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    parity_holds: bool = False
    # The SDF read (core.base.model.Document), for the report (Converted.report).
    source: Any = field(default=None, repr=False, compare=False)
    target_format: ClassVar[str] = "urdf"
