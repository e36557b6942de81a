#!/usr/bin/env bash
# Code coverage of the RTL: line and toggle coverage of rtl/*.v under the regression's
# workloads, as lcov .info files and an HTML report (docs/verification.md, "Code
# coverage").
#
# Usage: scripts/rtl-coverage.sh [--quick] [OUT_DIR]       (default build-rtlcov)
#
# 1. runs the workloads through the code coverage variant of the RTL builds
#    (WORMCAST_RTL_COVERAGE_DIR, cosim/rtl_cache.h): every configuration a run needs is
#    verilated with --coverage-line --coverage-toggle into the RTL cache on its first
#    use, like any other build, and every network writes its counts into OUT_DIR/data
#    when it is destroyed.  The workloads: every algorithm driver on the networks it
#    runs on, and the coverage-directed regression's random traffic mixes, on both port
#    models, T_r > 0, the other dimension orders, another depth and width, a linear
#    array and both network tops; every run is a cosimulation, so it is also checked
#    against the model;
# 2. merges the counts with verilator_coverage into lcov .info files: all points
#    (merged.info), the line and branch points (line.info), the toggle points
#    (toggle.info);
# 3. writes the HTML report with genhtml (OUT_DIR/html/index.html);
# 4. prints the line and toggle figures, in total and per file.
# --quick: a 3x3 mesh, a tree broadcast and 500 cycles of random traffic (no path
# broadcast), for the test suite (tests/test_rtl_coverage.py).
#
# The wormcast used is $WORMCAST (default build/wormcast, built if missing); the RTL
# is the one it carries, or $WORMCAST_RTL_DIR's; the cache is the usual one
# ($XDG_CACHE_HOME/wormcast/rtl): the coverage builds have keys of their own.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
out=$(mkdir -p "${1:-$top/build-rtlcov}" && cd "${1:-$top/build-rtlcov}" && pwd)
wc=${WORMCAST:-$top/build/wormcast}
if [ ! -x "$wc" ]; then "$top/scripts/build.sh"; fi
for tool in verilator_coverage genhtml lcov perl; do
  command -v "$tool" >/dev/null || { echo "rtl-coverage: $tool is not on PATH (scripts/install-deps.sh)" >&2; exit 2; }
done
rtl=$(cd "${WORMCAST_RTL_DIR:-$top/rtl}" && pwd)
data="$out/data"
rm -rf "$data" "$out/html"
mkdir -p "$data"
export WORMCAST_RTL_COVERAGE_DIR="$data"

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
echo "rtl-coverage: running the workloads with the code coverage builds (each built once: about a minute)" >&2
if [ $quick = 1 ]; then
  run run --topology mesh:3x3 --algorithm pbcast --flits 5 --root 4 --startup 3
  run traffic --topology mesh:3x3 --rate 0.5 --flits 1-8 --cycles 500 --ir-fraction 0.3 \
      --b-fraction 0.05 --sink-stall 0.3 --startup 1 --injection random --seed 1
else
  # Every algorithm on the networks it runs on (one-port algorithms on one-port builds).
  for algo in pbcast hk irruns irrunssf hampath direx aabflood aabbcast; do
    run run --topology hypercube:4 --algorithm "$algo" --flits 5 --root 5 --startup 3
  done
  run run --topology hypercube:4 --algorithm pbcast --flits 9 --replication-cost 2
  run run --topology hypercube:4 --algorithm pbcast --flits 9 --route-order descending \
      --tree-order ascending
  run run --topology hypercube:4 --algorithm hampath --flits 9 --route-order descending \
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
  for algo in mstnaive mstcf; do  # powers of two only
    run run --topology mesh:4x4 --algorithm "$algo" --flits 5 --root 5 --startup 3
  done
  run run --topology mesh:5x3 --algorithm pbcast --flits 9 --root 7 --replication-cost 1 \
      --route-order descending --tree-order descending
  run run --topology mesh:5x3 --algorithm hampath --flits 9 --root 7 --replication-cost 1 \
      --route-order descending --tree-order descending
  run run --topology mesh:1x6 --algorithm linexch1 --flits 3 --startup 3
  run run --topology mesh:1x6 --algorithm linexch2 --flits 3 --startup 3
  run run --topology hypercube:3 --algorithm pbcast --flits 9 --rtl-top
  run run --topology hypercube:3 --algorithm hampath --flits 9 --rtl-top
  run run --topology mesh:3x3 --algorithm pbcast --flits 9 --rtl-top
  run run --topology mesh:3x3 --algorithm hampath --flits 9 --rtl-top
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

# The counts name the sources where the build read them (a temporary directory of the
# cache, gone now): name rtl/ instead, so that genhtml finds them.  In a .dat file a
# point's fields are separated by \001 and a field's name from its value by \002.
shopt -s nullglob
dats=("$data"/wormcast-*.dat)
[ ${#dats[@]} -gt 0 ] || { echo "rtl-coverage: no coverage data was written into $data" >&2; exit 1; }
RTL="$rtl" perl -pi -e 's{\x02[^\x01]*/src/rtl/}{\x02$ENV{RTL}/}g' "${dats[@]}"
verilator_coverage --write "$data/merged.dat" "${dats[@]}"
# Each point is one line; its "page" says which kind it is: v_line, v_branch, v_toggle.
grep -v -e "page.v_toggle" "$data/merged.dat" > "$data/line.dat"
{ head -n 1 "$data/merged.dat"; grep -e "page.v_toggle" "$data/merged.dat"; } > "$data/toggle.dat"
for kind in merged line toggle; do
  verilator_coverage --write-info "$out/$kind.info" "$data/$kind.dat"
done
genhtml --quiet --legend --title "wormcast RTL: line and toggle coverage" \
        --output-directory "$out/html" "$out/merged.info" >/dev/null
echo "rtl-coverage: $runs runs, ${#dats[@]} coverage files; report: $out/html/index.html"
for kind in line toggle merged; do
  printf '%-7s ' "$kind"
  lcov --summary "$out/$kind.info" 2>&1 | grep -E "lines\.*:" | sed 's/^ *//'
done
# Per file, line and toggle apart (lcov's own listing).
for kind in line toggle; do
  echo "$kind points per file:"
  lcov --list "$out/$kind.info" 2>/dev/null | grep -E "\.v|Total" | sed 's/^/  /'
done
