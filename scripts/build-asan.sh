#!/usr/bin/env bash
# Configure and build the sanitizer build into build-asan/: clang, Debug (the model's
# invariants are checked every cycle, model/router_sanity.h), AddressSanitizer and
# UndefinedBehaviorSanitizer, no RTL, the libFuzzer targets.
# Usage: scripts/build-asan.sh [TARGET...]     (default: everything)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
cmake -S "$top" -B "$top/build-asan" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
    -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ -DWORMCAST_RTL=OFF -DWORMCAST_SANITIZE=ON \
    -DWORMCAST_FUZZ=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$top/build-asan" -j "$(nproc)" "${targets[@]}" >/dev/null
