#!/usr/bin/env bash
# Install the Debian packages wormcast needs, only those that are missing.
# Usage: scripts/install-deps.sh            (quiet when everything is there)
set -euo pipefail

packages=(cmake make gcc g++ pkg-config python3 libcjson-dev libinih-dev
          verilator iverilog yosys gtkwave libsystemc-dev nettle-dev clang libclang-rt-14-dev
          python3-matplotlib graphviz parallel lcov)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "wormcast: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "wormcast: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
