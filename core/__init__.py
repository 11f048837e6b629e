"""The library of urdf-sdf (installed as ``urdf_sdf.core``): the pipeline and its data.
Folders in the order data flows through them; each imports only the ones above it
(but ``compose`` uses ``graph``: a merged include's placement frame is resolved on the
included model):

    base/        what every layer shares: model dataclasses, poses, diagnostics and their
                 codes, the context, custom parsers, inertia rules, SDFormat's element tree
    read/        SDFormat and URDF text -> model (hardened XML, values, versions, files)
    compose/     //include: URIs, overrides, merge, custom model parsers
    graph/       frame graphs per scope: build, validate, resolve poses
    loader.py    read + compose + graph in one call (``load``)
    kinematics/  kinematic trees and forward kinematics of a loaded model
    inspect/     analyses of a loaded model: URDF parity, frames report, resources
    diff/        comparison of two loaded robots
    write/       serialisation: SDF and URDF elements, numbers and poses as text, DOT

Nothing here imports a converter (``urdf_sdf.urdf2sdf``, ``urdf_sdf.sdf2urdf``) or the face
(``urdf_sdf``: the API, the command line ``urdf_sdf.cli``, ``urdf_sdf.view``).
The data flow, who may import whom and how to extend it: ``docs/architecture.md``.
"""
