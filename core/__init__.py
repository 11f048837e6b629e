"""The core of urdf-sdf (installed as ``urdf_sdf.core``): the pipeline and its data.

    read/     SDFormat and URDF text -> core.model dataclasses (hardened XML, values,
              version normalisation)
    compose/  //include: URIs, overrides, merge, custom model parsers
    graph/    frame graphs per scope: build, validate, resolve poses
    write/    serialisation: SDF and URDF elements, numbers and poses as text, DOT
    cli/      the command lines (urdf2sdf, sdf2urdf, urdf-sdf) on top of everything

Beside them: ``model``, ``pose``, ``diagnostics``, ``context``, ``custom`` (the data every
layer shares), ``sdformat_tree`` (SDFormat's element tree per version, a table that
``sdformat_tree_derive`` derives from SDFormat's description files), ``loader`` (read +
compose + graph in one call) and the analyses on a loaded model (``kinematics``,
``parity``, ``diff``, ``report``). The public API is the
top-level package ``urdf_sdf``.
"""
