#!/usr/bin/env bash
# Fuzz one input reader with libFuzzer for a given time (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer; the build is build-asan, as in scripts/test.sh).
# Usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   TARGET: trace (the trace reader), config (configuration files), options (option
#   values and the command line)
# The committed corpus tests/fuzz/TARGET/ is the seed; what the fuzzer adds goes to
# build-asan/fuzz/TARGET/ (kept between runs).  An input that crashes is saved as
# tests/fuzz/TARGET/crash-<sha1>: commit it with the fix, and the test fuzz_TARGET
# (scripts/test.sh) replays it from then on.  Runs at low priority (nice).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options]  (TARGET: trace, config, options)" >&2; exit 2; }
[ $# -ge 2 ] || usage
target=$1 seconds=$2
shift 2
case $target in trace|config|options) ;; *) echo "fuzz: unknown target '$target' (trace, config, options)" >&2; exit 2 ;; esac
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: SECONDS must be a whole number above 0, not '$seconds'" >&2; exit 2; }
"$top/scripts/build-asan.sh" "fuzz_$target"
work="$top/build-asan/fuzz/$target"
mkdir -p "$work"
cd "$top"
exec nice -n 19 "build-asan/tests/fuzz_$target" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="tests/fuzz/$target/" "$@" "$work" "tests/fuzz/$target"
