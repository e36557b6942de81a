#!/usr/bin/env bash
# Soak the deadlock-free schedule of concurrent B broadcasts (docs/algorithms.md#aabbcast):
#  1. soak_bcast: RUNS random networks, random sets and orders of roots in head-gated
#     rounds of disjoint trees, random L, t_s, buffer depth, T_r and sink stalls, on the
#     model: no deadlock, every delivery checked (and, for comparison, how often the same
#     broadcasts all sent at cycle 0 deadlock);
#  2. aabbcast itself through the command line on random configurations with random sink
#     stalls: data ok, never faster than its bound;
#  3. if the build has the RTL: aabbcast through the cosimulation on the builds that
#     exist, with sink stalls: zero mismatches.
# Usage: scripts/soak-gossip.sh [RUNS [FIRST_SEED]]     (default 2000 runs from seed 1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-2000}
seed=${2:-1}
[[ $runs =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ ]] ||
  { echo "soak-gossip: RUNS and FIRST_SEED must be whole numbers" >&2; exit 2; }
"$top/scripts/build.sh"
wc="$top/build/wormcast"

echo "== soak_bcast $runs $seed"
"$top/build/tests/soak_bcast" "$runs" "$seed" | grep -v '^PASS' | tail -4

echo "== aabbcast through the command line"
n=$(( runs / 20 + 1 ))
for (( k = 0; k < n; k++ )); do
  s=$(( seed + k ))
  read -r topo L ts depth tr stall < <(python3 - "$s" <<'EOF'
import random, sys
r = random.Random(int(sys.argv[1]))
topo = ("hypercube:%d" % r.randint(1, 6)) if r.random() < 0.5 else \
       ("mesh:%dx%d" % (r.randint(1, 7), r.randint(2, 7)))
tr = r.choice([0, 0, 1, 2])
print(topo, r.randint(1, 64), r.randint(1, 20), r.randint(max(2, tr + 2), 8), tr,
      r.choice([0, 0.2, 0.5]))
EOF
)
  out=$("$wc" run --algorithm aabbcast --topology "$topo" --flits "$L" --startup "$ts" \
        --buffer-depth "$depth" --replication-cost "$tr" --sink-stall "$stall" --seed "$s" \
        --json) || { echo "soak-gossip: aabbcast on $topo L $L t_s $ts depth $depth T_r $tr" \
                          "stall $stall seed $s FAILED:"; echo "$out"; exit 1; }
  python3 - "$out" "$stall" "$topo L $L t_s $ts depth $depth T_r $tr stall $stall" <<'EOF'
import json, sys
j = json.loads(sys.argv[1])
ok = j["data_ok"] and j["cycles"] >= j["lower_bound_cycles"] and \
     (float(sys.argv[2]) > 0 or not j["formula_exact"] or j["cycles"] == j["predicted_cycles"])
print("%s %s: %d cycles, predicted %s, bound %s" % ("ok  " if ok else "FAIL", sys.argv[3],
      j["cycles"], j["predicted_cycles"], j["lower_bound_cycles"]))
sys.exit(0 if ok else 1)
EOF
done

if "$wc" list | grep -q '^engines:.*cosim'; then
  echo "== aabbcast through the cosimulation"
  for cfg in "hypercube:3" "hypercube:4" "mesh:4x4" "mesh:5x3" "mesh:1x6" \
             "hypercube:4 --replication-cost 2"; do
    for stall in 0 0.3; do
      # shellcheck disable=SC2086
      out=$("$wc" run --algorithm aabbcast --topology $cfg --flits 9 --startup 3 \
            --sink-stall "$stall" --seed "$seed" --engine cosim --json) ||
        { echo "soak-gossip: cosim aabbcast on $cfg stall $stall FAILED:"; echo "$out"; exit 1; }
      echo "cosim $cfg stall $stall: $(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(j["cycles"], "cycles,", j["mismatches"], "mismatches")' "$out")"
    done
  done
fi
echo "soak-gossip: done"
