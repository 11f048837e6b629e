"""The explicit context passed through loading: search paths and policy, no globals."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env_paths(*names: str) -> list[str]:
    paths: list[str] = []
    for name in names:
        paths.extend(p for p in os.environ.get(name, "").split(os.pathsep) if p)
    return paths


@dataclass
class Context:
    """Everything loading depends on besides the file itself.

    ``model_paths`` are searched for ``model://NAME`` URIs. ``from_environment``
    fills them from ``SDF_PATH``, ``GZ_SIM_RESOURCE_PATH`` and
    ``GAZEBO_MODEL_PATH``; nothing reads the environment behind the caller's back.
    """
    model_paths: list[str] = field(default_factory=list)
    package_paths: list[str] = field(default_factory=list)
    max_include_depth: int = 64

    @staticmethod
    def from_environment(extra_paths: list[str] | None = None) -> "Context":
        return Context(
            model_paths=list(extra_paths or []) + _env_paths(
                "SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH",
                "GAZEBO_MODEL_PATH"),
            package_paths=_env_paths("ROS_PACKAGE_PATH"),
        )
