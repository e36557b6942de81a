#!/usr/bin/env bash
# The main job: install what is missing, build, run the pipelined broadcast on Q_6
# and print its latency table beside the other broadcasts and their cost models.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/build.sh"
wc="$top/build/wormcast"
"$wc" sweep --topology hypercube:6 --algorithms pbcast,hk,sbt,irham --flits 1,2,17,64,256 --root 0
