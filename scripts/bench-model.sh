#!/usr/bin/env bash
# Benchmark of the C model (one core): simulated cycles/s and flit-hops/s.
# Usage: scripts/bench-model.sh        (builds first; prints one line per workload)
#   WORMCAST=path/to/wormcast  benchmark that binary instead (no build), e.g. an
#                              older build for a before/after comparison
#   RUNS=n                     best of n runs (default 3)
# See docs/performance.md for figures and what bounds them.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${WORMCAST:-}" ]; then
  wc=$WORMCAST
else
  "$top/scripts/build.sh"
  wc="$top/build/wormcast"
fi
runs=${RUNS:-3}
echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# A run's wall time is measured around the process (including set-up), best of $runs.
bench() {
  local label=$1; shift
  local best=""
  local out
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    out=$("$@" --json)
    t1=$(date +%s.%N)
    local secs
    secs=$(echo "$t1 - $t0" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$secs < $best" | bc -l)" = 1 ]; then best=$secs; fi
  done
  python3 - "$label" "$best" "$out" <<'PY'
import json, sys
label, secs, out = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
# (a trace's JSON has "cycles", the cycles simulated)
cyc = out.get("cycles_simulated", out.get("cycles", 0))
hops = out.get("flit_hops", 0)
ok = out.get("delivered_ok")
print(f"{label:44s} {cyc:>10d} cycles {hops:>12d} flit-hops {secs:7.3f} s "
      f"{cyc/secs:>12,.0f} cycles/s {hops/secs/1e6:>8.1f} M flit-hops/s  ok={ok}")
PY
}

bench "pbcast Q_10, L = 4096"            "$wc" run --topology hypercube:10 --algorithm pbcast --flits 4096
bench "direx Q_8, L = 16"                "$wc" run --topology hypercube:8 --algorithm direx --flits 16
bench "uniform 8-flit, 0.1 flit/node/cycle, Q_10" "$wc" traffic --topology hypercube:10 --rate 0.1 --flits 8 --cycles 20000 --seed 1
bench "uniform 8-flit, 0.1 flit/node/cycle, 8x8"  "$wc" traffic --topology mesh:8x8 --rate 0.1 --flits 8 --cycles 200000 --seed 1
# The same on the torus of the same size: two VCs per link, switch allocation
# (docs/microarchitecture.md section 12).
bench "uniform 8-flit, 0.1 flit/node/cycle, torus 8x8" "$wc" traffic --topology torus:8x8 --rate 0.1 --flits 8 --cycles 200000 --seed 1
bench "pbcast mesh 8x8, L = 4096"        "$wc" run --topology mesh:8x8 --algorithm pbcast --flits 4096
bench "pbcast torus 8x8, L = 4096"       "$wc" run --topology torus:8x8 --algorithm pbcast --flits 4096

# Many messages in flight: 800,000 unicasts of 4 flits on Q_6, all due at cycle 0 (up
# to 12,500 outstanding per node); the checker's cost per head must not grow with them.
trace=$(mktemp --suffix=.tr)
trap 'rm -f "$trace"' EXIT
python3 - "$trace" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    for _ in range(800000):
        s = random.randrange(64)
        d = random.randrange(63)
        f.write(f"0 {s} R {d + (d >= s)} 4\n")
PY
bench "trace of 800,000 messages, Q_6"   "$wc" trace --topology hypercube:6 --trace "$trace"
