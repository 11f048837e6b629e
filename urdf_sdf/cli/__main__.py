"""``python -m urdf_sdf.cli NAME ARGS...``: the console script NAME (``urdf2sdf``,
``sdf2urdf``, ``urdf-sdf``) run as the installed one runs, without its launcher."""
import sys

from urdf_sdf.cli.module_run import COMMANDS_USAGE
from urdf_sdf.cli.quick import SCRIPTS, run_script

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in SCRIPTS:
        print(f"usage: {COMMANDS_USAGE}", file=sys.stderr)
        sys.exit(2)
    run_script(sys.argv[1], sys.argv[2:])
