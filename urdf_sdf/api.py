"""The Python API in five calls: what the command lines do, for scripts and tests.

    import urdf_sdf

    robot = urdf_sdf.load("robot.urdf")             # LoadResult: .ok, .diagnostics, .pose()
                                                     # (core.loader.load)
    sdf = urdf_sdf.to_sdf(robot, relative=True)      # urdf2sdf: .ok, .xml, .diagnostics
    sdf.report.verdict                               # "exact", ... (urdf2sdf --report)
    urdf = urdf_sdf.to_urdf("robot.sdf")             # sdf2urdf (a path is loaded first)
    urdf_sdf.diff("robot.urdf", "robot.sdf")         # [] when equivalent (urdf-sdf diff)
    report = urdf_sdf.check("robot.sdf", meshes=True)   # urdf-sdf check: .ok, .diagnostics

Nothing here raises on bad input: every problem is a coded diagnostic with file and line
(:class:`urdf_sdf.Diagnostic`). A path is loaded with the search paths of the environment
(``Context.from_environment``); pass ``context=`` to choose them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from urdf_sdf.core.base.context import Context
from urdf_sdf.core.base.diagnostics import Diagnostic
from urdf_sdf.core.diff.compare import Difference, diff_results
from urdf_sdf.core.inspect.parity import ParityReport, check_parity
from urdf_sdf.core.inspect.resources import check_meshes
from urdf_sdf.core.loader import LoadResult, load
from urdf_sdf.sdf2urdf import Conversion as UrdfConversion
from urdf_sdf.sdf2urdf import ToUrdf, convert_sdf
from urdf_sdf.urdf2sdf import Conversion as SdfConversion
from urdf_sdf.urdf2sdf import ToSdf, convert_urdf

# The modules of the API reference: python -m pdoc -o build/api <these> (docs/python.md).
REFERENCE_MODULES = ("urdf_sdf", "urdf_sdf.api", "urdf_sdf.testing", "urdf_sdf.json_schemas")

Source = LoadResult | str | Path
"""A loaded description, or the path of a URDF or SDFormat file to load."""


def to_sdf(model: Source, *, relative: bool = False, sdf_version: str | None = None,
           lump_fixed: bool = False, fix_inertia: bool = True, gazebo: str | None = None,
           context: Context | None = None) -> SdfConversion:
    """URDF -> SDFormat, as ``urdf2sdf``: ``.ok``, ``.xml`` (bytes), ``.version``,
    ``.diagnostics``, ``.report`` (what the conversion changed: a
    :class:`~urdf_sdf.ConversionReport`, as ``--report``). ``relative``: joint poses
    relative to the parent link, the URDF's ``xyz``/``rpy`` text copied; ``sdf_version``:
    the version to write (default: the lowest that expresses the result); ``lump_fixed``:
    merge fixed-joint children into their parent; ``fix_inertia``: repair tensors
    libsdformat refuses (False keeps them as written, ``--keep-inertia``); ``gazebo``: the
    Gazebo release the SDF must load in (``"fortress"`` ... ``"jetty"``, default Harmonic's
    rules, ``--gazebo``)."""
    options = ToSdf(relative=relative, sdf_version=sdf_version, lump_fixed=lump_fixed,
                    fix_inertia=fix_inertia, gazebo=gazebo)
    return convert_urdf(_loaded(model, context), options)


def to_urdf(model: Source, *, model_name: str | None = None, all_models: bool = False,
            separator: str = "::", drop_frames: bool = False, approximate: bool = False,
            context: Context | None = None) -> UrdfConversion:
    """SDFormat -> URDF, as ``sdf2urdf``: ``.ok``, ``.xml`` (bytes), ``.diagnostics``,
    ``.parity_holds`` (the origins were copied as text), ``.report`` (as :func:`to_sdf`'s).
    ``model_name``: the model of a world to convert; ``all_models``: every model of a
    world, in one URDF; ``separator`` joins nested model names; ``drop_frames``: leave
    ``//frame``s out; ``approximate``: map joint types URDF lacks to revolute joints."""
    options = ToUrdf(model=model_name, all_models=all_models, separator=separator,
                     drop_frames=drop_frames, approximate=approximate)
    return convert_sdf(_loaded(model, context), options)


def diff(a: Source, b: Source, *, tol: float = 1e-9, configurations: int = 20, seed: int = 0,
         model: str | None = None, context: Context | None = None) -> list[Difference]:
    """The differences between two descriptions in any mix of formats, as ``urdf-sdf
    diff``: kinematics at the zero and ``configurations`` random joint configurations,
    frames, inertials and geometry, each within ``tol``; ``[]`` when equivalent.
    ``model``: compare that model of each file holding it."""
    return diff_results(_loaded(a, context), _loaded(b, context), tol, configurations, seed,
                        model)


@dataclass
class CheckReport:
    """What ``urdf-sdf check`` says of one file."""
    result: LoadResult
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parity: ParityReport | None = None

    @property
    def valid(self) -> bool:
        """No error: the file loads (and with ``meshes``, every mesh resolves)."""
        return not any(d.is_error for d in self.diagnostics)

    @property
    def ok(self) -> bool:
        """The verdict: valid, and URDF parity holds when it was asked for."""
        return self.valid and (self.parity is None or self.parity.holds)


def check(path: Source, *, meshes: bool = False, urdf_parity: bool = False,
          model: str | None = None, context: Context | None = None) -> CheckReport:
    """Validate a file as ``urdf-sdf check``: its diagnostics; with ``meshes``, every mesh
    must resolve to a mesh file; with ``urdf_parity``, whether the model (``model``: of a
    world) converts to URDF by copying ``xyz``/``rpy`` text (``parity`` stays None for a
    world whose models ``model`` does not choose from)."""
    context = context if context is not None else Context.from_environment()
    result = _loaded(path, context)
    report = CheckReport(result, list(result.diagnostics))
    if meshes and result.ok:
        report.diagnostics += result.policy.apply(check_meshes(result, context))
    if urdf_parity and report.valid and result.graph is not None:
        scope = result.graph.model_scope(model)
        if scope is not None:
            report.parity = check_parity(result, scope)
    return report


def _loaded(model: Source, context: Context | None) -> LoadResult:
    """``model`` itself, or the file it names loaded with ``context`` (default: the
    environment's search paths)."""
    if isinstance(model, LoadResult):
        return model
    return load(str(model), context if context is not None else Context.from_environment())
