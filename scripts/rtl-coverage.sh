#!/usr/bin/env bash
# Code coverage of the RTL: line and toggle coverage of rtl/*.v from a Verilator
# --coverage build, under the regression's workloads, as an lcov HTML report
# (docs/verification.md, "Code coverage").
#
# Usage: scripts/rtl-coverage.sh [--quick] [BUILD_DIR]      (default build-rtlcov)
#
# 1. builds the coverage flavour of wormcast into BUILD_DIR (cmake
#    -DWORMCAST_RTL_COVERAGE=ON: every router configuration and the two network tops
#    verilated with --coverage; each network writes its counts when it is destroyed);
# 2. runs the workloads: every algorithm driver, random traffic on every configuration
#    of the build (the coverage-directed regression's mixes and others), each through
#    the cosimulation, so that every run is also checked against the model;
# 3. merges the counts with verilator_coverage into lcov .info files (all points, and
#    line and toggle points apart) and writes the HTML report with genhtml;
# 4. prints the line and toggle figures, in total and per file.
# --quick: one configuration (Q_3 all-port) and two runs, for the test suite
# (tests/test_rtl_coverage.py), which checks the .info files.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
build=${1:-$top/build-rtlcov}
"$top/scripts/install-deps.sh"

# The configurations: both port models of a hypercube and of a mesh (one odd), a
# replication cost, the other dimension orders, another depth and width, a linear array,
# and the network tops.
routers="hc4_ap;hc4_op;m4x4_ap;m5x3_op;m1x6_ap;hc4_ap_tr2;hc4_ap_rd_ta;m5x3_ap_tr1_rd_td;hc3_ap_d2_w48"
tops="hc3_ap;m3x3_ap"
if [ $quick = 1 ]; then routers="hc3_ap"; tops=""; fi
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWORMCAST_RTL_COVERAGE=ON \
      -DWORMCAST_RTL_ROUTERS="$routers" -DWORMCAST_RTL_TOPS="$tops" -DWORMCAST_RTL_SC_TOPS="" \
      >/dev/null
echo "rtl-coverage: building the coverage flavour into $build ($routers${tops:+; tops $tops})" >&2
if ! cmake --build "$build" -j "$(nproc)" --target wormcast >"$build/rtl-coverage-build.log" 2>&1; then
  echo "rtl-coverage: the build failed; see $build/rtl-coverage-build.log" >&2
  exit 1
fi
wc="$build/wormcast"
data="$build/rtl-coverage"
rm -rf "$data" "$build/rtl-coverage-html"
mkdir -p "$data"

runs=0
run() {
  runs=$((runs + 1))
  if ! "$wc" "$@" --engine cosim >/dev/null; then
    echo "rtl-coverage: a run failed: wormcast $* --engine cosim" >&2
    exit 1
  fi
}
# Random traffic: the coverage-directed regression's mixes (scripts/coverage-regress.py).
traffic() {
  local topo=$1
  shift
  for seed in 1 2; do
    run traffic --topology "$topo" --rate 0.5 --flits 1-16 --cycles 4000 --ir-fraction 0.3 \
        --b-fraction 0.02 --sink-stall 0.3 --startup 1 --injection random --seed "$seed" "$@"
  done
}
echo "rtl-coverage: running the workloads" >&2
if [ $quick = 1 ]; then
  run run --topology hypercube:3 --algorithm pbcast --flits 5 --root 5 --startup 3
  run traffic --topology hypercube:3 --rate 0.5 --flits 1-8 --cycles 500 --ir-fraction 0.3 \
      --b-fraction 0.05 --sink-stall 0.3 --startup 1 --injection random --seed 1
else
  # Every algorithm on the networks it runs on (one-port algorithms on one-port builds).
  for algo in pbcast hk irruns irrunssf hampath direx aabflood aabbcast; do
    run run --topology hypercube:4 --algorithm "$algo" --flits 5 --root 5 --startup 3
  done
  run run --topology hypercube:4 --algorithm pbcast --flits 9 --replication-cost 2
  run run --topology hypercube:4 --algorithm pbcast --flits 9 --route-order descending \
      --tree-order ascending
  for algo in sbt reduce standexch aabdimex; do
    run run --topology hypercube:4 --algorithm "$algo" --flits 5 --startup 3
  done
  for algo in pbcast irrowcol irrowcolct hampath defap rowcol binexch quadexch direx aabbcast; do
    run run --topology mesh:4x4 --algorithm "$algo" --flits 5 --root 3 --startup 3
  done
  run run --topology mesh:4x4 --algorithm defap --flits 5 --root 0 --startup 3
  for algo in rdmesh rsbcast sc1d sc2d aabmeshxy aabmeshyx; do
    run run --topology mesh:5x3 --algorithm "$algo" --flits 5 --root 3 --startup 3
  done
  run run --topology mesh:5x3 --algorithm def --flits 5 --root 0 --startup 3
  run run --topology mesh:5x3 --algorithm pbcast --flits 9 --root 7 --replication-cost 1 \
      --route-order descending --tree-order descending
  run run --topology mesh:1x6 --algorithm linexch1 --flits 3 --startup 3
  run run --topology mesh:1x6 --algorithm linexch2 --flits 3 --startup 3
  run run --topology hypercube:3 --algorithm pbcast --flits 9 --rtl-top
  run run --topology mesh:3x3 --algorithm pbcast --flits 9 --rtl-top
  traffic hypercube:4
  traffic hypercube:4 --replication-cost 2
  traffic hypercube:4 --route-order descending --tree-order ascending
  traffic hypercube:4 --one-port --ir-fraction 0
  traffic hypercube:3 --buffer-depth 2 --payload-width 48
  traffic mesh:4x4
  traffic mesh:5x3 --one-port --ir-fraction 0
  traffic mesh:5x3 --replication-cost 1 --route-order descending --tree-order descending
  traffic mesh:1x6
  traffic hypercube:3 --rtl-top
  traffic mesh:3x3 --rtl-top
fi

# Merge: every point; and the line and toggle points apart (each point of a .dat file
# is one line, and its "page" says which kind it is: v_line, v_branch, v_toggle).
shopt -s nullglob
dats=("$data"/*.dat)
[ ${#dats[@]} -gt 0 ] || { echo "rtl-coverage: no coverage data was written" >&2; exit 1; }
verilator_coverage --write "$data/merged.dat" "${dats[@]}"
grep -v -e "page.v_toggle" "$data/merged.dat" > "$data/line.dat"
{ head -n 1 "$data/merged.dat"; grep -e "page.v_toggle" "$data/merged.dat"; } > "$data/toggle.dat"
for kind in merged line toggle; do
  verilator_coverage --write-info "$data/$kind.info" "$data/$kind.dat"
done
genhtml --quiet --legend --title "wormcast RTL: line and toggle coverage" \
        --output-directory "$build/rtl-coverage-html" "$data/merged.info" >/dev/null
echo "rtl-coverage: $runs runs, $(ls "${dats[@]}" | wc -l) coverage files; report: $build/rtl-coverage-html/index.html"
for kind in line toggle merged; do
  printf '%-7s ' "$kind"
  lcov --summary "$data/$kind.info" 2>&1 | grep -E "lines\.*:" | sed 's/^ *//'
done
# Per file, line and toggle apart (lcov's own listing).
for kind in line toggle; do
  echo "$kind points per file:"
  lcov --list "$data/$kind.info" 2>/dev/null | grep -E "\.v|Total" | sed 's/^/  /'
done
