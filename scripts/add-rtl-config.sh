#!/usr/bin/env bash
# Add RTL configurations to the build and build them: each NAME is verilated once and
# then available to --engine rtl|cosim (wormcast list shows them).
#   scripts/add-rtl-config.sh hc5_ap m6x6_op_d8 hc4_ap_w48_bug3 hc6_ap_tr2 hc6_ap_rd_td
#   scripts/add-rtl-config.sh --top hc4_ap        # a generate-loop network top (--rtl-top)
# NAME: hc<D>_<ap|op>[_d<B>][_w<W>][_tr<T>][_r<a|d>][_t<a|d>][_bug<N>] or
# m<R>x<C>_<ap|op>[...the same] (buffer depth B, default 4; payload width W, default 32;
# replication cost T, default 0; route and tree order, a = ascending, d = descending,
# default the topology's; injected bug N). The names are
# kept in build/CMakeCache.txt; a fresh build/ starts again from the default list.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
var=WORMCAST_RTL_ROUTERS
if [ "${1:-}" = "--top" ]; then var=WORMCAST_RTL_TOPS; shift; fi
[ $# -ge 1 ] || { echo "usage: scripts/add-rtl-config.sh [--top] NAME..." >&2; exit 2; }
for name in "$@"; do
  [[ $name =~ ^(hc[0-9]+|m[0-9]+x[0-9]+)_(ap|op)(_d[0-9]+)?(_w[0-9]+)?(_tr[0-9]+)?(_r[ad])?(_t[ad])?(_bug[0-9]+)?$ ]] || {
    echo "add-rtl-config: bad name '$name' (expected e.g. hc5_ap, m6x6_op_d8, hc4_ap_w48_bug3, hc6_ap_tr2)" >&2
    exit 2; }
done
"$top/scripts/install-deps.sh"
# Configure once so that the cache holds the current list.
[ -f "$top/build/CMakeCache.txt" ] ||
  cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
list=$(sed -n "s/^$var:STRING=//p" "$top/build/CMakeCache.txt")
for name in "$@"; do
  case ";$list;" in *";$name;"*) ;; *) list="$list;$name" ;; esac
done
list=${list#;}
# cmake checks the names and their ranges (cosim/CMakeLists.txt) and stops on a bad one.
cmake -S "$top" -B "$top/build" "-D$var=$list" >/dev/null
cmake --build "$top/build" -j "$(nproc)" >/dev/null
echo "add-rtl-config: built $*; $var is now: $list"
