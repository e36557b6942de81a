#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Usage: scripts/build-pgo.sh [--older] SRC BUILD
#
# Builds the C model of the source tree SRC (this tree or an older revision's, unpacked
# by scripts/build-revision.sh --pgo) into BUILD with GCC's profile-guided optimisation:
#   1. Release, C only (-DWORMCAST_RTL=OFF), the wormcast target, instrumented
#      (-fprofile-generate, the counts in BUILD/pgo-profile);
#   2. the training runs of THIS tree's scripts/pgo-training.txt, from SRC (one table
#      for every revision: a like-with-like comparison trains both builds alike; with
#      --older, SRC is an older revision and skips the runs it refuses as bad input,
#      exit 2: a topology or an algorithm it does not have yet);
#   3. the same directory configured again with -fprofile-use and rebuilt.
# The profile's file names carry each object's path, so both builds use one directory.
# Progress on stderr; the binary's path on stdout.  What it gains and costs:
# docs/performance-history.md, "Ninth session (skel)".
#
# Exit 2: bad arguments (one line on stderr); 1: a build or a training run failed.
set -euo pipefail

older=0
if [ "${1-}" = --older ]; then older=1; shift; fi
[ $# -eq 2 ] || { echo "build-pgo.sh: usage: build-pgo.sh [--older] SRC BUILD" >&2; exit 2; }
src=$(cd "$1" 2>/dev/null && pwd) || { echo "build-pgo.sh: $1: not a directory" >&2; exit 2; }
[ -f "$src/CMakeLists.txt" ] || { echo "build-pgo.sh: $src: no CMakeLists.txt" >&2; exit 2; }
# GCC's profile files (clang's need llvm-profdata and other flags).
"${CC:-cc}" -v 2>&1 | grep -q '^gcc version' ||
  { echo "build-pgo.sh: ${CC:-cc} is not GCC: the profile-guided build needs GCC" >&2; exit 2; }
mkdir -p "$2"
build=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
training=$top/scripts/pgo-training.txt
prof=$build/pgo-profile
log=$build/pgo.log

# -fprofile-update=single: wormcast runs one thread (its jobs are processes), so the
# counters need no atomic updates.
# -fprofile-partial-training: code the training never ran is optimised as usual instead
# of for size, since the training is small and the users' runs are not its runs.
# -Wno-missing-profile: the static libraries' objects that wormcast does not link
# (router_sanity.c, router_state.c: the debug checks and the RTL's register readout)
# never run, have no profile, and would warn on every build.
pass() {
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWORMCAST_RTL=OFF \
        -DCMAKE_C_FLAGS="$1" -DCMAKE_EXE_LINKER_FLAGS="$2" >> "$log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target wormcast >> "$log" 2>&1 ||
    { echo "build-pgo.sh: the $3 build failed (log: $log)" >&2; tail -20 "$log" >&2; exit 1; }
}

: > "$log"
rm -rf "$prof"
echo "build-pgo.sh: instrumented build in $build" >&2
pass "-fprofile-generate=$prof -fprofile-update=single" "-fprofile-generate=$prof" instrumented

echo "build-pgo.sh: training runs ($training)" >&2
n=0 skipped=0
while read -r line; do
  line=${line%%#*}
  [ -n "${line// }" ] || continue
  read -r -a args <<< "$line"
  rc=0
  (cd "$src" && "$build/wormcast" "${args[@]}" --json) < /dev/null > /dev/null 2>> "$log" || rc=$?
  if [ $rc -eq 2 ] && [ $older -eq 1 ]; then
    skipped=$((skipped + 1))
    continue
  elif [ $rc -ne 0 ]; then
    echo "build-pgo.sh: training run failed (exit $rc): wormcast $line (log: $log)" >&2
    tail -1 "$log" >&2
    exit 1
  fi
  n=$((n + 1))
done < "$training"
ls "$prof"/*.gcda > /dev/null 2>&1 && [ $n -gt 0 ] ||
  { echo "build-pgo.sh: the training runs ($n) wrote no profile in $prof" >&2; exit 1; }

echo "build-pgo.sh: profile-guided build ($n training runs, $skipped refused)" >&2
pass "-fprofile-use=$prof -fprofile-partial-training -Wno-missing-profile" \
      "-fprofile-use=$prof" profile-guided
echo "$build/wormcast"
