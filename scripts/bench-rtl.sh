#!/usr/bin/env bash
# Benchmark of the RTL engines (one thread): simulated cycles/s and router-cycles/s of
# the Verilated RTL alone and of the cosimulation (model + RTL + every register compared,
# or with --compare outputs the output and credit registers only;
# waves off), under uniform random traffic of 8-flit messages at 0.1 flits/node/cycle.
# Usage: scripts/bench-rtl.sh [CYCLES]     (WORMCAST=path times another binary, no build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "${WORMCAST:-}" ] || "$top/scripts/build.sh"
wc=${WORMCAST:-$top/build/wormcast}
cycles=${1:-20000}
report() {
  python3 -c '
import json, sys
topo, engine, nodes = sys.argv[1], sys.argv[2], int(sys.argv[3])
j = json.load(sys.stdin)
cps = j["cycles_per_second"]
print("%-12s %-7s %8d cycles %7.2f s %10.0f cycles/s %12.0f router-cycles/s  mismatches=%s"
      % (topo, engine, j["cycles_simulated"], j["wall_seconds"], cps, cps * nodes, j["mismatches"]))
' "$@"
}
for spec in hypercube:6/64 hypercube:8/256 mesh:8x8/64; do
  topo=${spec%/*} nodes=${spec#*/}
  # cosim compares every register (the default); cosim/o only the output registers.
  for engine in rtl cosim cosim/o; do
    args=(--engine "${engine%/o}")
    [ "$engine" = cosim/o ] && args+=(--compare outputs)
    "$wc" traffic --topology "$topo" --rate 0.1 --flits 8 --cycles "$cycles" --seed 1 \
        "${args[@]}" --json | report "$topo" "$engine" "$nodes"
  done
done
