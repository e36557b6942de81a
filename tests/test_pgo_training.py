#!/usr/bin/env python3
"""The profile-guided build's training table (scripts/pgo-training.txt) follows the CLI:
every run in it succeeds on this build's wormcast, as scripts/build-pgo.sh runs it (from
the top of the tree, --json added). A renamed algorithm or option would otherwise break
only `scripts/build.sh --pgo`, which the suite does not run (it takes a build of its
own). Also: build-pgo.sh refuses bad arguments with one line and exit 2.

usage: test_pgo_training.py WORMCAST
"""
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
TABLE = os.path.join(TOP, "scripts", "pgo-training.txt")
wormcast = sys.argv[1]

runs = 0
with open(TABLE, encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        args = shlex.split(line.split("#", 1)[0])
        if not args:
            continue
        runs += 1
        p = subprocess.run([wormcast, *args, "--json"], cwd=TOP, capture_output=True,
                           text=True, stdin=subprocess.DEVNULL, timeout=120)
        check(p.returncode == 0,
              f"{TABLE}:{number}: wormcast {' '.join(args)}: exit {p.returncode}, "
              f"{p.stderr.strip()[:200]}")
check(runs >= 10, f"{TABLE}: {runs} training runs (expected the table's ~20)")

SCRIPT = os.path.join(TOP, "scripts", "build-pgo.sh")
for args, says in [([], "usage"), (["/nonexistent", "/tmp/x"], "not a directory"),
                   ([os.path.join(TOP, "docs"), "/tmp/x"], "no CMakeLists.txt")]:
    p = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=60)
    lines = p.stderr.splitlines()
    check(p.returncode == 2 and len(lines) == 1 and says in lines[0] and not p.stdout,
          f"build-pgo.sh {' '.join(args)}: exit {p.returncode}, stderr {lines}")
print(f"test_pgo_training: {runs} training runs succeeded")
finish()
