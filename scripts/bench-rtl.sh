#!/usr/bin/env bash
# Benchmark of the RTL engines (one thread): simulated cycles/s and router-cycles/s of
# the Verilated RTL alone and of the cosimulation (model + RTL + every signal compared,
# waves off), under uniform random traffic of 8-flit messages at 0.1 flits/node/cycle.
# Usage: scripts/bench-rtl.sh [CYCLES]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
wc="$top/build/wormcast"
cycles=${1:-5000}
for topo in hypercube:6 hypercube:8 mesh:8x8; do
  for engine in rtl cosim; do
    "$wc" traffic --topology "$topo" --rate 0.1 --flits 8 --cycles "$cycles" --seed 1 \
        --engine "$engine" --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
topo, engine = sys.argv[1], sys.argv[2]
nodes = {"hypercube:6": 64, "hypercube:8": 256, "mesh:8x8": 64}[topo]
cps = j["cycles_per_second"]
print(f"{topo:12s} {engine:6s} {j[\"cycles_simulated\"]:>8d} cycles {j[\"wall_seconds\"]:7.2f} s "
      f"{cps:>10,.0f} cycles/s {cps * nodes:>12,.0f} router-cycles/s  mismatches={j[\"mismatches\"]}")
' "$topo" "$engine"
  done
done
