#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with ctest; and
# at the same time the fast tests again (model, drivers, CLI, traces, flit layout, fuzz
# corpora) in the sanitizer build, build-asan/ (scripts/build-asan.sh: clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, the model's invariants checked every
# cycle).  The two runs share the processors: the sanitizer build's tests fill the
# time the RTL tests leave idle (waiting for a build another test makes, the last long
# cosimulation); its report follows the main one.  Arguments go to both ctest runs
# (e.g. -R model).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
mkdir -p "$top/build-asan"
asan_log="$top/build-asan/test-sh.log"
# A process group of its own, so that an interrupted suite stops it too.
setsid bash -c '
    set -euo pipefail
    top=$1; shift
    "$top/scripts/build-asan.sh"
    cd "$top/build-asan"
    # The Icarus tests and the proofs do not depend on the C build; the main run has them.
    UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j "$(nproc)" \
        -E "^(rtl_(icarus|assertions)|formal_quick)$" "$@"' bash "$top" "$@" >"$asan_log" 2>&1 &
asan=$!
trap 'kill -TERM -- "-$asan" 2>/dev/null || true' INT TERM EXIT
rc=0
(cd "$top/build" && ctest --output-on-failure -j "$(nproc)" "$@") || rc=1
asan_rc=0
wait "$asan" || asan_rc=$?
trap - INT TERM EXIT
echo
echo "== The sanitizer build (build-asan/, clang, ASan + UBSan) =="
cat "$asan_log"
[ "$asan_rc" -eq 0 ] || { echo "scripts/test.sh: the sanitizer build or its tests failed (exit $asan_rc)"; rc=1; }
exit "$rc"
