#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with ctest.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
cd "$top/build"
ctest --output-on-failure -j "$(nproc)" "$@"
