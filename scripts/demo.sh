#!/usr/bin/env bash
# The main job: install what is missing, build, run the pipelined broadcast on Q_6
# through the cosimulation (C model and Verilated RTL in lockstep) with its waveform in
# waves/pbcast_q6.vcd, then print the latency table of the broadcasts on Q_6.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
wc="$top/build/wormcast"
mkdir -p "$top/waves"

echo "== pipelined broadcast on Q_6, 64 flits, through the cosimulation =="
"$wc" run --topology hypercube:6 --algorithm pbcast --flits 64 --engine cosim \
    --vcd "$top/waves/pbcast_q6.vcd"
echo "waveform: waves/pbcast_q6.vcd (open: gtkwave waves/pbcast_q6.vcd waves/pbcast_q6.gtkw)"
echo
echo "== latency table on Q_6 (t_s = 10 cycles, h = 1 cycle/hop), cosimulated =="
"$wc" sweep --topology hypercube:6 --algorithms pbcast,hk,hampath,irruns,sbt --flits 1,2,17,64,256 \
    --engine cosim
