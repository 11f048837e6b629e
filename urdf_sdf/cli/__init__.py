"""The command line: the console scripts ``urdf2sdf``, ``sdf2urdf`` and ``urdf-sdf``
(:mod:`urdf_sdf.cli.quick`), also run as ``python -m urdf_sdf.cli NAME ARGS...``.

``python -m urdf_sdf.cli.MODULE`` is decided here, while Python locates the module and
before its code runs (:mod:`urdf_sdf.cli.module_run`): a module named as a console script
runs it, any other that is not a program says how to run the commands (exit 2).
"""
import sys

if sys.argv[:1] == ["-m"]:  # python -m ...: the module to run is being located
    from urdf_sdf.cli.module_run import script_run_as

    _SCRIPT = script_run_as(sys.orig_argv)
    if _SCRIPT is not None:
        from urdf_sdf.cli.quick import run_script

        run_script(_SCRIPT, sys.argv[1:])
