#!/usr/bin/env python3
"""scripts/bench-model.sh refuses bad arguments before it builds or runs anything:
one line on stderr naming the problem, exit status 2 (the project's rule for bad input).

usage: test_bench_model_args.py
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts",
                      "bench-model.sh")
# A binary that does not exist: an argument wrongly accepted fails otherwise, and
# nothing is built.
ENV = dict(os.environ, WORMCAST="/nonexistent/wormcast")

for args, says in [(["--bogus"], "unknown argument '--bogus'"),
                   (["--only"], "--only needs a pattern"),
                   (["--baseline"], "--baseline needs a revision"),
                   (["--scaling", "--baseline", "HEAD"], "--scaling"),
                   (["--baseline", "HEAD", "--scaling"], "--scaling")]:
    p = subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True,
                       env=ENV, timeout=60)
    lines = p.stderr.splitlines()
    check(p.returncode == 2 and len(lines) == 1 and says in lines[0] and not p.stdout,
          f"bench-model.sh {' '.join(args)}: exit {p.returncode}, stderr {lines}")
finish()
