#!/usr/bin/env bash
# Formal proofs of the router (docs/verification.md, "Formal proofs"); see scripts/prove.py.
set -euo pipefail
exec python3 "$(dirname "$0")/prove.py" "$@"
