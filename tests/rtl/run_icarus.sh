#!/bin/bash
# Compile and run the directed RTL testbench with Icarus Verilog.
# Exits non-zero if compilation fails, if Icarus warns, or if the testbench does not
# print "TB RESULT: PASS" (or prints any FAIL / ERROR line).
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root" || exit 1
# Build products go to $BUILD_DIR if set, else to a temporary directory.
if [ -n "${BUILD_DIR:-}" ]; then
  out_dir="$BUILD_DIR"
  mkdir -p "$out_dir"
else
  out_dir="$(mktemp -d)"
  trap 'rm -rf "$out_dir"' EXIT
fi
# Optional: INJECT_BUG=n builds the DUT with that fault (the test must then fail).
bug_flag=()
if [ -n "${INJECT_BUG:-}" ]; then
  bug_flag=(-Ptb_router_directed.InjectBug="$INJECT_BUG")
fi
vvp_file="$out_dir/tb_router_directed.vvp"
log="$out_dir/tb_router_directed.log"

if ! iverilog -g2005 -Wall -I rtl "${bug_flag[@]}" -s tb_router_directed -o "$vvp_file" \
     rtl/*.v tests/rtl/tb_router_directed.v 2> "$out_dir/iverilog.err"; then
  cat "$out_dir/iverilog.err"
  echo "run_icarus: compilation failed"
  exit 1
fi
if [ -s "$out_dir/iverilog.err" ]; then
  cat "$out_dir/iverilog.err"
  echo "run_icarus: iverilog printed warnings"
  exit 1
fi

vvp -n "$vvp_file" | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "run_icarus: vvp exited with $status"
  exit 1
fi
if grep -qE '^(FAIL|  ERROR)' "$log" || ! grep -q '^TB RESULT: PASS' "$log"; then
  echo "run_icarus: FAILED"
  exit 1
fi
echo "run_icarus: passed"
exit 0
