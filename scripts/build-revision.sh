#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Usage: scripts/build-revision.sh [--pgo] REV DIR
#
# Builds revision REV of this repository beside the working tree, the way every
# side-by-side comparison needs it: the C model only (Release, -DWORMCAST_RTL=OFF, the
# wormcast target, the options a user's scripts/build.sh gives the C targets), from
# `git archive` into DIR/src (no worktree to register or remove: deleting DIR is the
# whole clean-up), and prints the binary's path on stdout. One place for the baseline
# build of scripts/same-results.py and scripts/bench-model.sh, so that their baselines
# cannot drift apart.  --pgo: the same C model with profile-guided optimisation
# (scripts/build-pgo.sh, trained on this tree's scripts/pgo-training.txt), for a
# comparison of two profile-guided builds.
#
# Exit 2: bad arguments or no such revision (one line on stderr); 1: the build failed.
set -euo pipefail

pgo=0
if [ "${1-}" = --pgo ]; then pgo=1; shift; fi
[ $# -eq 2 ] || { echo "build-revision.sh: usage: build-revision.sh [--pgo] REV DIR" >&2; exit 2; }
rev_in=$1 dir=$2
top=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$top" rev-parse --verify --quiet "$rev_in^{commit}") ||
  { echo "build-revision.sh: $rev_in: no such revision" >&2; exit 2; }
[ -d "$dir" ] || { echo "build-revision.sh: $dir: not a directory" >&2; exit 2; }
src=$dir/src
[ ! -e "$src" ] || { echo "build-revision.sh: $src exists already" >&2; exit 2; }

mkdir "$src"
git -C "$top" archive "$rev" | tar -x -C "$src"
echo "building $(git -C "$top" log --oneline -1 "$rev" | cut -c1-72) in $src" >&2
if [ $pgo -eq 1 ]; then
  "$top/scripts/build-pgo.sh" --older "$src" "$src/build"
  exit
fi
if ! cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DWORMCAST_RTL=OFF > "$dir/build.log" 2>&1 ||
   ! cmake --build "$src/build" -j "$(nproc)" --target wormcast >> "$dir/build.log" 2>&1; then
  echo "build-revision.sh: the build of $rev_in failed (log: $dir/build.log)" >&2
  tail -20 "$dir/build.log" >&2
  exit 1
fi
echo "$src/build/wormcast"
