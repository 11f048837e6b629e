"""One difference ``urdf-sdf diff`` reports (``core.diff.compare``; its JSON is the schema's
``differences`` item)."""
from __future__ import annotations

from dataclasses import dataclass

from urdf_sdf.core.base.safe_text import escape


@dataclass(frozen=True)
class Difference:
    kind: str      # links, joints, pose, inertial, geometry, model
    name: str
    message: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "message": self.message}

    def format(self) -> str:
        """``kind name: message``, one line: control characters escaped
        (:func:`urdf_sdf.core.base.safe_text.escape`)."""
        return f"{self.kind} {escape(self.name)}: {escape(self.message)}"


def fmt(values) -> str:
    """Numbers as a difference's message writes them: ``[a, b, ...]``, six digits each."""
    return "[" + ", ".join(f"{v:.6g}" for v in values) + "]"
