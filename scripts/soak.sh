#!/usr/bin/env bash
# Soak the cosimulation: random seeds of random R / R+IR / B traffic with random
# back-pressure on random configurations, for a given number of seconds.
# Usage: scripts/soak.sh SECONDS [FIRST_SEED]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/soak.sh SECONDS [FIRST_SEED]" >&2; exit 2; }
[[ $1 =~ ^[0-9]+$ ]] || { echo "soak: SECONDS must be a whole number" >&2; exit 2; }
"$top/scripts/build.sh"
wc="$top/build/wormcast"
end=$(( $(date +%s) + $1 ))
seed=${2:-1000}
configs=("hypercube:4" "hypercube:6" "hypercube:8" "mesh:4x4" "mesh:5x3" "mesh:8x8"
         "hypercube:4 --one-port" "hypercube:6 --one-port" "mesh:4x4 --one-port" "mesh:5x3 --one-port")
cycles=0 runs=0
while [ "$(date +%s)" -lt "$end" ]; do
  cfg=${configs[$(( seed % ${#configs[@]} ))]}
  rate=$(python3 -c "import random; random.seed($seed); print(round(random.uniform(0.05, 0.8), 3))")
  stall=$(python3 -c "import random; random.seed($seed + 1); print(round(random.choice([0, 0.1, 0.5]), 2))")
  # One-port routers with IR can deadlock by design (docs/microarchitecture.md section 8):
  # their single ejection channel is held by an IR copy waiting for its link.
  ir=0.3
  [[ $cfg == *--one-port* ]] && ir=0
  # shellcheck disable=SC2086
  out=$("$wc" traffic --topology $cfg --rate "$rate" --flits 1-32 --cycles 20000 \
        --ir-fraction "$ir" --b-fraction 0.002 --sink-stall "$stall" --seed "$seed" \
        --engine cosim --mismatch-vcd "soak-mismatch-$seed.vcd" --json) || {
    echo "soak: seed $seed on $cfg (rate $rate, stall $stall) FAILED:"; echo "$out"; exit 1; }
  n=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['cycles_compared'])" "$out")
  cycles=$(( cycles + n )); runs=$(( runs + 1 ))
  echo "seed $seed $cfg rate $rate stall $stall: $n cycles, 0 mismatches"
  seed=$(( seed + 1 ))
done
echo "soak: $runs runs, $cycles cycles compared, 0 mismatches"
