#!/usr/bin/env bash
# Benchmark of the C model (one core): per workload, simulated cycles/s, flit-hops/s,
# peak RSS, and instructions per flit-hop counted by callgrind.
#
# Usage: scripts/bench-model.sh [--baseline REV] [--pgo] [--only REGEX] [--no-callgrind]
#                               [--scaling]
#   --baseline REV   also build revision REV beside the tree (scripts/build-revision.sh:
#                    a temp directory, C only: -DWORMCAST_RTL=OFF) and time both builds side
#                    by side, interleaved, best of RUNS; prints the speed-up of each
#                    workload (its wall time / ours) and both instruction counts
#   --pgo            build this tree (unless WORMCAST is given) and REV with profile-guided
#                    optimisation (scripts/build-pgo.sh: build-pgo/, both trained alike);
#                    a profile-guided build against the plain one of the same commit:
#                    scripts/build.sh --pgo; WORMCAST=build-pgo/wormcast bench-model.sh
#                    --baseline HEAD
#   --only REGEX     only the workloads whose name matches (Python re.search)
#   --no-callgrind   skip the instruction counts (valgrind is slow: about 2 minutes)
#   --scaling        instead, how the cost grows with the network's size and the message's
#                    length (issue 15): a markdown table of the broadcast and the exchange on
#                    Q_6..Q_12, the broadcast's L on Q_8 and uniform traffic on 8x8..64x64;
#                    about 1.5 minutes on two cores (direx Q_12 RUNS times, callgrind on
#                    direx Q_10 ~40 s; no --baseline)
#   WORMCAST=path    benchmark that binary instead of building the tree
#   RUNS=n           best of n runs (default 3)
# See docs/performance.md for the figures, docs/performance-history.md for their history.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
baseline=""
pgo=""
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --baseline) [ $# -ge 2 ] || { echo "bench-model.sh: --baseline needs a revision" >&2; exit 2; }
                baseline=$2; shift 2 ;;
    --pgo) pgo=--pgo; shift ;;
    --only) [ $# -ge 2 ] || { echo "bench-model.sh: --only needs a pattern" >&2; exit 2; }
            args+=(--only "$2"); shift 2 ;;
    --no-callgrind) args+=(--no-callgrind); shift ;;
    --scaling) args+=(--scaling); shift ;;
    *) echo "bench-model.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ -n "$baseline" ] && [[ " ${args[*]-} " == *" --scaling "* ]]; then
  echo "bench-model.sh: --scaling measures one binary: no --baseline" >&2; exit 2
fi

if [ -n "${WORMCAST:-}" ]; then
  wc=$WORMCAST
else
  "$top/scripts/build.sh" $pgo
  wc="$top/build${pgo:+-pgo}/wormcast"
fi
if [[ " ${args[*]-} " != *" --no-callgrind "* ]] && ! command -v valgrind >/dev/null; then
  "$top/scripts/install-deps.sh"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$baseline" ]; then
  rev=$(git -C "$top" rev-parse --verify "$baseline^{commit}") ||
    { echo "bench-model.sh: --baseline $baseline: no such revision" >&2; exit 2; }
  base_wc=$("$top/scripts/build-revision.sh" $pgo "$rev" "$tmp")
  args+=(--baseline "$base_wc" --baseline-name "$(git -C "$top" rev-parse --short "$rev")${pgo:+ pgo}")
fi

echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
RUNS=${RUNS:-3} python3 "$top/scripts/bench_model.py" --wormcast "$wc" --tmp "$tmp" ${args[@]+"${args[@]}"}
