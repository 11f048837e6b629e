"""One difference ``urdf-sdf diff`` reports (``core.diff``; its JSON is the schema's
``differences`` item)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difference:
    kind: str      # links, joints, pose, inertial, geometry, model
    name: str
    message: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "message": self.message}

    def format(self) -> str:
        return f"{self.kind} {self.name}: {self.message}"


def fmt(values) -> str:
    """Numbers as a difference's message writes them: ``[a, b, ...]``, six digits each."""
    return "[" + ", ".join(f"{v:.6g}" for v in values) + "]"
