#!/bin/bash
# Generic Yosys synthesis of one wormcast router node per configuration, with a one-line
# summary each: total cells and flip-flops (every $_DFF*/$_DFFE*/$_SDFF* style cell in
# `stat`). The hierarchy is flattened (synth -flatten) so that the constant input-port
# index of each wc_route instance and the all-port ejection pairing are propagated, as
# they would be in any real implementation.
#
# Usage: scripts/synth.sh [NAME...]  every configuration below, or the named ones (logs
#                                    go to a temporary directory, or $BUILD_DIR)
# Exits non-zero if yosys fails or the netlist contains latches; 2 for an unknown NAME.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root" || exit 1
if ! command -v yosys > /dev/null; then
  echo "synth: yosys not found" >&2
  exit 1
fi
if [ -n "${BUILD_DIR:-}" ]; then
  out_dir="$BUILD_DIR"
  mkdir -p "$out_dir"
else
  out_dir="$(mktemp -d)"
  trap 'rm -rf "$out_dir"' EXIT
fi

# name | chparam arguments
configs=(
  "q6_allport|-chparam Topology 0 -chparam Dim 6 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  "mesh8x8_allport|-chparam Topology 1 -chparam Rows 8 -chparam Cols 8 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  "mesh4x4_allport|-chparam Topology 1 -chparam Rows 4 -chparam Cols 4 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  # What a replication cost adds (a hold counter per input; docs/microarchitecture.md 7).
  "q6_allport_tr2|-chparam Topology 0 -chparam Dim 6 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32 -chparam ReplicationCost 2"
  # Virtual channels (docs/microarchitecture.md section 12): a torus node with V = 2.
  "torus8x8_v2_allport|-chparam Topology 3 -chparam Rows 8 -chparam Cols 8 -chparam NumVcs 2 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  "torus4x4_v2_allport|-chparam Topology 3 -chparam Rows 4 -chparam Cols 4 -chparam NumVcs 2 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  "ring8_v2_allport|-chparam Topology 2 -chparam Rows 1 -chparam Cols 8 -chparam NumVcs 2 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
  # For scale only (a torus needs V = 2 to be deadlock-free): the torus node without
  # VCs, beside the mesh node of the same size.
  "torus4x4_v1_allport|-chparam Topology 3 -chparam Rows 4 -chparam Cols 4 -chparam NumVcs 1 -chparam AllPort 1 -chparam BufferDepth 4 -chparam PayloadWidth 32"
)

# The configurations asked for (all by default).
if [ $# -gt 0 ]; then
  chosen=()
  for want in "$@"; do
    found=
    for entry in "${configs[@]}"; do
      if [ "${entry%%|*}" = "$want" ]; then
        chosen+=("$entry")
        found=1
      fi
    done
    if [ -z "$found" ]; then
      echo "synth: unknown configuration '$want' (one of: $(printf '%s ' "${configs[@]%%|*}" | sed 's/ $//'))" >&2
      exit 2
    fi
  done
  configs=("${chosen[@]}")
fi

status=0
for entry in "${configs[@]}"; do
  name="${entry%%|*}"
  params="${entry#*|}"
  log="$out_dir/synth_$name.log"
  stat_file="$out_dir/stat_$name.txt"
  start=$(date +%s)
  if ! yosys -q -l "$log" -p "read_verilog rtl/*.v; hierarchy -check -top wc_router $params; synth -flatten -top wc_router; tee -o $stat_file stat" > /dev/null 2>&1; then
    echo "synth: yosys failed for $name (log: $log)" >&2
    tail -20 "$log" >&2
    status=1
    continue
  fi
  cells=$(awk '/Number of cells:/ {n = $4} END {print n}' "$stat_file")
  ffs=$(awk '$1 ~ /^\$_(S|A|ALD)?DFF/ {s += $2} END {print s + 0}' "$stat_file")
  latches=$(awk '$1 ~ /^\$_DLATCH/ {s += $2} END {print s + 0}' "$stat_file")
  desc=$(echo "$params" | sed -e 's/-chparam \([A-Za-z]*\) \([0-9]*\)/\1=\2/g')
  echo "synth $name: wc_router $desc: cells $cells, flip-flops $ffs ($(( $(date +%s) - start )) s)"
  if [ "$latches" -ne 0 ]; then
    echo "synth: $name has $latches latches" >&2
    status=1
  fi
done
exit $status
