#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with ctest; then
# the fast tests again (model, drivers, CLI, traces, flit layout, fuzz corpora) in the
# sanitizer build, build-asan/ (scripts/build-asan.sh: clang, AddressSanitizer and
# UndefinedBehaviorSanitizer, the model's invariants checked every cycle).  Arguments
# go to both ctest runs (e.g. -R model).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
(cd "$top/build" && ctest --output-on-failure -j "$(nproc)" "$@")
"$top/scripts/build-asan.sh"
cd "$top/build-asan"
# The Icarus tests and the proofs do not depend on the C build; they ran above.
UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$(nproc)" -E '^(rtl_(icarus|assertions)|formal_quick)$' "$@"
