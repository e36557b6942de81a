#!/usr/bin/env bash
# Soak rings and tori (docs/microarchitecture.md section 12): random R / R+IR / B
# traffic at and beyond saturation for CYCLES cycles (default 10^6) on ring:16 and
# torus:8x8, V = 2 and 3, with the watchdog on (its default, 10,000 cycles without a
# move): every run must end with everything delivered, nothing lost, no deadlock.
# The C model runs it; the suite runs a short version (tests/test_model.c: random
# unicasts beyond saturation and one broadcast at a time among unicasts).
# Usage: scripts/soak-rings.sh [CYCLES]
#   WORMCAST=path/to/wormcast  soak that binary instead (no build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cycles=${1:-1000000}
[[ $cycles =~ ^[0-9]+$ ]] || { echo "soak-rings: CYCLES must be a whole number" >&2; exit 2; }
if [ -n "${WORMCAST:-}" ]; then
  wc=$WORMCAST
else
  "$top/scripts/build.sh"
  wc="$top/build/wormcast"
fi
seed=1
for cfg in "ring:16" "torus:8x8" "ring:16 --virtual-channels 3" "torus:8x8 --virtual-channels 3"; do
  # Saturation of these networks is near 0.1-0.2 messages per node per cycle for these
  # lengths; 0.05 is below it, 0.3 and 0.9 beyond.
  for rate in 0.05 0.3 0.9; do
    # shellcheck disable=SC2086
    out=$("$wc" traffic --topology $cfg --rate "$rate" --flits 1-32 --cycles "$cycles" \
          --ir-fraction 0.3 --b-fraction 0.001 --sink-stall 0.1 --seed "$seed" --json) || {
      echo "soak-rings: $cfg rate $rate seed $seed FAILED:"; echo "$out"; exit 1; }
    python3 - "$cfg" "$rate" "$out" <<'PY'
import json, sys
cfg, rate, j = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
assert j["delivered_ok"] is True, j
print("%-32s rate %-4s: %d cycles, %d messages (%d broadcasts), %d deliveries, "
      "avg latency %.1f, delivered ok" % (cfg, rate, j["cycles"], j["messages"], j["broadcasts"],
                                          j["deliveries"], j["avg_latency"]))
PY
    seed=$((seed + 1))
  done
done
echo "soak-rings: every run delivered everything, no deadlock"
