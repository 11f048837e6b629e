#!/usr/bin/env bash
# The project's widening of the real-robot corpus: installs the pinned robot-description
# wheels of wheels.txt (beside this script) into the corpus venv of
# ../shared/realworld/corpus.sh, and prints their URDF/SDF files and the project's own
# models (models/ beside this script) in corpus.sh's format: one path a line, or
# "label<TAB>path" with --labels. Per-label counts go to stderr.
#
# usage: corpus_extra.sh VENV_DIR [--no-install] [--labels] [--ext urdf,sdf]
#   VENV_DIR      the corpus venv (created with python3 when missing)
#   --no-install  only list files (packages already installed)
#   --labels      print "label<TAB>path" instead of bare paths
#   --ext LIST    extensions to list (default urdf,sdf)
#
# Every wheel is installed with --no-deps: only its data files are read, nothing of it
# runs, and none of them downloads anything at run time.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV=""
INSTALL=1
LABELS=0
EXTS=urdf,sdf
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) INSTALL=0 ;;
    --labels) LABELS=1 ;;
    --ext) EXTS="$2"; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) VENV="$1" ;;
  esac
  shift
done
if [ -z "$VENV" ]; then
  echo "usage: corpus_extra.sh VENV_DIR [--no-install] [--labels] [--ext urdf,sdf]" >&2
  exit 2
fi
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" >&2
fi
PY="$VENV/bin/python"

# wheels.txt: "package==version  DATA_ROOT  # what it ships, size"; DATA_ROOT is relative
# to the venv's site-packages.
mapfile -t WHEELS < <(sed 's/#.*//; /^[[:space:]]*$/d' "$HERE/wheels.txt")
if [ "$INSTALL" = 1 ]; then
  "$PY" -m pip install -q --disable-pip-version-check --no-deps \
      $(printf '%s\n' "${WHEELS[@]}" | awk '{print $1}') >&2
fi
SP=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

FIND_EXPR=()
IFS=, read -ra EXT_ARR <<< "$EXTS"
for e in "${EXT_ARR[@]}"; do
  [ ${#FIND_EXPR[@]} -gt 0 ] && FIND_EXPR+=(-o)
  FIND_EXPR+=(-iname "*.$e")
done

list_root() {  # label root
  local label="$1" root="$2" files counts e n
  if [ ! -d "$root" ]; then
    echo "# $label: not installed ($root missing)" >&2
    return 0
  fi
  files=$(find "$root" -type f \( "${FIND_EXPR[@]}" \) | LC_ALL=C sort)
  counts=""
  for e in "${EXT_ARR[@]}"; do
    n=$(printf '%s\n' "$files" | grep -ci "\.$e\$" || true)
    counts="$counts $e=$n"
  done
  echo "# $label:$counts  ($root)" >&2
  [ -z "$files" ] && return 0
  if [ "$LABELS" = 1 ]; then
    printf '%s\n' "$files" | sed "s|^|$label\t|"
  else
    printf '%s\n' "$files"
  fi
}

for row in "${WHEELS[@]}"; do
  read -r pin root _ <<< "$row"
  case "$root" in
    @venv/*) root="$VENV/${root#@venv/}" ;;
    *) root="$SP/$root" ;;
  esac
  list_root "${pin%%==*}" "$root"
done
list_root project-models "$HERE/models"
