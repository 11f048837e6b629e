"""Round trips and equivalence, for tests and hooks: does a description survive
``urdf2sdf | sdf2urdf`` (a URDF) or ``sdf2urdf | urdf2sdf`` (an SDF) with nothing changed?

Used by ``urdf-sdf roundtrip`` (the ``urdf-sdf-roundtrip`` pre-commit hook) and by the
pytest plugin (:mod:`urdf_sdf.testing`). The intermediate files are never written: each
is loaded from memory under a name beside the original, so relative mesh and include
paths resolve as they do for the original. The original and what came back are compared as
``urdf-sdf diff`` compares an SDF with its URDF: a link at its joint frame, where a URDF link
frame always is (``core.diff.compare.joint_frame_rule``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Diagnostic
from urdf_sdf.core.base.safe_text import escape
from urdf_sdf.core.diff.compare import Difference, diff_results
from urdf_sdf.core.loader import LoadResult, load, load_string
from urdf_sdf.sdf2urdf import Conversion as UrdfConversion
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import Conversion as SdfConversion
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf


@dataclass
class RoundTrip:
    """What became of one file: the steps taken (``urdf2sdf``, ``sdf2urdf``), the step that
    failed and its errors, or the differences between the original and what came back."""
    path: str
    steps: list[str] = field(default_factory=list)
    failed_step: str | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed_step is None and not self.differences

    def report(self) -> str:
        """A readable account: one line when it survived, else what went wrong, item by item."""
        pipeline = " | ".join(self.steps)
        if self.failed_step is not None:
            where = f"{self.failed_step} failed in {pipeline}" if self.steps else \
                "does not load" if self.failed_step == "loading" else f"{self.failed_step} failed"
            lines = [f"{escape(str(self.path))}: {where}:"]
            lines += [f"  {d.format()}" for d in self.errors]
            return "\n".join(lines)
        if self.differences:
            count = len(self.differences)
            lines = [f"{escape(str(self.path))} does not survive {pipeline}: {count} "
                     f"difference{'s' if count != 1 else ''}:"]
            lines += [f"  {d.format()}" for d in self.differences]
            return "\n".join(lines)
        return f"{escape(str(self.path))} survives {pipeline}"


def round_trip(path: str | Path, context: Context | None = None) -> RoundTrip:
    """Convert ``path`` to the other format and back, and compare with the original."""
    context = context if context is not None else Context.from_environment()
    original = load(str(path), context)
    trip = RoundTrip(str(path))
    if not original.ok or original.document is None:
        trip.failed_step = "loading"
        trip.errors = [d for d in original.diagnostics if d.is_error]
        return trip
    is_urdf = original.document.format == "urdf"
    trip.steps = ["urdf2sdf", "sdf2urdf"] if is_urdf else ["sdf2urdf", "urdf2sdf"]
    there = _step(trip, trip.steps[0], original, context, Path(path))
    back = _step(trip, trip.steps[1], there, context, Path(path)) if there else None
    if back is not None:
        trip.differences = diff_results(original, back, through_urdf=True)
    return trip


def _step(trip: RoundTrip, step: str, result: LoadResult, context: Context,
          path: Path) -> LoadResult | None:
    """One conversion, loaded back from memory; None (and the trip marked failed) on error."""
    conversion: SdfConversion | UrdfConversion
    if step == "urdf2sdf":
        conversion, suffix = convert_urdf(result, ToSdf()), ".sdf"
    else:
        conversion, suffix = convert_sdf(result, ToUrdf()), ".urdf"
    loaded = None
    if conversion.ok and conversion.xml is not None:
        beside = path.with_name(f"{path.stem}.round_trip{suffix}")  # never written
        loaded = load_string(conversion.xml, str(beside), context)
    if loaded is None or not loaded.ok:
        trip.failed_step = step
        source = conversion.diagnostics if loaded is None else loaded.diagnostics
        trip.errors = [d for d in source if d.is_error]
        return None
    return loaded

