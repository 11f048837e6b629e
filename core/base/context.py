"""The explicit context passed through loading: search paths and policy, no globals."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from urdf_sdf.core.base.diagnostics import Policy


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
    # Packages named explicitly (``--package NAME=DIR``): package://NAME is DIR, nothing else.
    packages: dict[str, str] = field(default_factory=dict)
    ament_prefixes: list[str] = field(default_factory=list)
    # Folders an include may read from besides the input's package and the search paths,
    # never searched for a URI (a batch's input tree: core.compose.uri.roots_of).
    read_roots: list[str] = field(default_factory=list)
    # A batch's input directory (a real path): each input file must still resolve inside
    # it when it is opened, and is opened with no link followed after that check
    # (core.read.xmlio.read_bytes): a folder swapped for a link after the listing is refused.
    inputs_within: str | None = None
    # Custom model parsers (core.compose.interface): the latest registered is tried first.
    model_parsers: list = field(default_factory=list)
    max_include_depth: int = 64
    # What the includes of one composed model may bring at most, every copy of an
    # included file counted (core.compose.budget): documents, and their elements.
    max_included_documents: int = 10_000
    max_included_elements: int = 1_000_000
    # What counts as an error (--strict: every warning); applied where results are made.
    policy: Policy = field(default_factory=Policy)
    # Whether the model keeps the XML of every link and joint (their ``xml`` fields).
    # Without it each link and joint element is freed once read (core.read.consume), so
    # that a large file's element tree is never whole in memory beside its model; the
    # elements holding what the model does not (what the converters copy as XML:
    # carried content, calibration, sensors, surfaces, geometry the other format lacks)
    # are kept all the same. The commands load so; the library keeps everything.
    keep_xml: bool = True

    def register_model_parser(self, parser) -> None:
        """Add ``parser(include: NestedInclude, errors: list) -> InterfaceModel | None``."""
        self.model_parsers.append(parser)

    @staticmethod
    def from_environment(extra_paths: list[str] | None = None,
                         policy: Policy | None = None,
                         package_paths: list[str] | None = None,
                         packages: dict[str, str] | None = None) -> Context:
        """Search paths from the command line first, then SDF_PATH, GZ_SIM_RESOURCE_PATH,
        GAZEBO_MODEL_PATH (model://), ROS_PACKAGE_PATH and AMENT_PREFIX_PATH
        (package://). Extra paths (``--path``) are searched for package:// URIs too, after
        ``package_paths`` (``--package-path``); ``packages`` (``--package NAME=DIR``)
        name single packages."""
        extra = list(extra_paths or [])
        return Context(
            model_paths=extra + _env_paths(
                "SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH",
                "GAZEBO_MODEL_PATH"),
            package_paths=list(package_paths or []) + extra + _env_paths("ROS_PACKAGE_PATH"),
            packages=dict(packages or {}),
            ament_prefixes=_env_paths("AMENT_PREFIX_PATH"),
            policy=policy if policy is not None else Policy(),
        )
