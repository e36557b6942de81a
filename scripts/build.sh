#!/usr/bin/env bash
# Configure and build wormcast into build/ (installs missing packages first).
# Usage: scripts/build.sh [--pgo]
#   --pgo   instead, the C model alone with profile-guided optimisation into build-pgo/
#           (scripts/build-pgo.sh: GCC, trained on scripts/pgo-training.txt); build/ is
#           left alone
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
case "${1-}${2+ x}" in
  "") pgo=0 ;;
  --pgo) pgo=1 ;;
  *) echo "build.sh: usage: build.sh [--pgo]" >&2; exit 2 ;;
esac
"$top/scripts/install-deps.sh"
if [ $pgo -eq 1 ]; then
  "$top/scripts/build-pgo.sh" "$top" "$top/build-pgo" >/dev/null
  exit
fi
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$top/build" -j "$(nproc)" >/dev/null
