#!/usr/bin/env python3
"""Code coverage of the RTL (scripts/rtl-coverage.sh --quick, docs/verification.md).

usage: test_rtl_coverage.py BUILD_DIR

Builds the coverage flavour of one configuration (Q_3 all-port) into BUILD_DIR, runs
the script's two quick workloads and checks the lcov files it writes: line and toggle
records of wc_router.v, wc_route.v and wc_fifo.v, each kind in its own file; counts on
the lines the workloads must execute and the signals they must toggle, a count of 0 on
a line they cannot execute; the HTML report and the printed figures.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1])


def read_info(path):
    """file name -> {line: hits} of an lcov .info file."""
    info, cur = {}, None
    with open(path) as f:
        for rec in f:
            rec = rec.strip()
            if rec.startswith("SF:"):
                cur = info.setdefault(os.path.basename(rec[3:]), {})
            elif rec.startswith("DA:") and cur is not None:
                line, hits = rec[3:].split(",")[:2]
                cur[int(line)] = cur.get(int(line), 0) + int(hits)
    return info


def line_of(name, pattern):
    """The first line of rtl/NAME matching pattern (a regex)."""
    with open(os.path.join(TOP, "rtl", name)) as f:
        for no, text in enumerate(f, 1):
            if re.search(pattern, text):
                return no
    raise SystemExit("test_rtl_coverage: no line of rtl/%s matches %r" % (name, pattern))


r = subprocess.run([os.path.join(TOP, "scripts", "rtl-coverage.sh"), "--quick", BUILD],
                   capture_output=True, text=True, timeout=1500)
check(r.returncode == 0, "scripts/rtl-coverage.sh --quick exits 0 (%s)"
      % (r.returncode if r.returncode else "ok") + ("" if r.returncode == 0 else ": " + r.stderr[-400:]))
data = os.path.join(BUILD, "rtl-coverage")
paths = {k: os.path.join(data, k + ".info") for k in ("line", "toggle", "merged")}
if not all(os.path.exists(p) for p in paths.values()):
    check(False, "the .info files exist: %s" % ", ".join(paths.values()))
    finish()
line, toggle = read_info(paths["line"]), read_info(paths["toggle"])

# Lines the two workloads (a B broadcast, random R / R+IR / B traffic with sink stalls)
# must execute, and registers and wires they must toggle. Toggle points belong to the
# line that declares the signal, line points to the statement.
executed = [
    ("wc_fifo.v", r"count_q <= count_q \+ 1'b1"),
    ("wc_fifo.v", r"mem_q\[wr_ptr_q\] <= data_i"),
    ("wc_route.v", r"low\s+= x & \(~x \+ 1'b1\)"),
    ("wc_route.v", r"b_links = b_tree;"),
    ("wc_router.v", r"move\[mi\]\s+= 1'b1"),
    ("wc_router.v", r"route_d\[mi\*NOut \+: NOut\] = \{NOut\{1'b0\}\}"),
]
toggled = [
    ("wc_fifo.v", r"reg\s+\[CntW-1:0\]\s+count_q"),
    ("wc_fifo.v", r"reg\s+\[PtrW-1:0\]\s+rd_ptr_q"),
    ("wc_route.v", r"wire\s+hdr_b\s"),
    ("wc_router.v", r"reg\s+\[RrW-1:0\]\s+rr_q"),
    ("wc_router.v", r"reg\s+\[NOut-1:0\]\s+out_valid_q"),
]
for name in ("wc_router.v", "wc_route.v", "wc_fifo.v"):
    lc, tc = line.get(name, {}), toggle.get(name, {})
    check(len(lc) > 0 and any(lc.values()),
          "line records of %s: %d lines, %d executed" % (name, len(lc), sum(1 for v in lc.values() if v)))
    check(len(tc) > 0 and any(tc.values()),
          "toggle records of %s: %d lines, %d toggled" % (name, len(tc), sum(1 for v in tc.values() if v)))
for name, pattern in executed:
    no = line_of(name, pattern)
    check(line.get(name, {}).get(no, 0) > 0,
          "%s:%d executed: %s hits" % (name, no, line.get(name, {}).get(no)))
for name, pattern in toggled:
    no = line_of(name, pattern)
    check(toggle.get(name, {}).get(no, 0) > 0,
          "%s:%d toggled: %s" % (name, no, toggle.get(name, {}).get(no)))
    # A declaration is no statement: the line file has no record of it.
    check(no not in line.get(name, {}), "%s:%d (a declaration) is only in the toggle file" % (name, no))

# A line the workloads never execute is counted, as 0: the InjectBug 3 branch of the
# hypercube route computation in a build without the fault.
bug = line_of("wc_route.v", r"b_links = b_tree & \(b_tree - 1'b1\)")
check(line.get("wc_route.v", {}).get(bug) == 0,
      "wc_route.v:%d (InjectBug 3 only) is a line record with 0 hits: %s"
      % (bug, line.get("wc_route.v", {}).get(bug)))

html = os.path.join(BUILD, "rtl-coverage-html", "index.html")
check(os.path.exists(html), "genhtml wrote %s" % html)
figures = re.findall(r"^(line|toggle)\s+lines\.+:\s+([\d.]+)%", r.stdout, re.M)
check(sorted(k for k, _ in figures) == ["line", "toggle"] and all(0 < float(v) <= 100 for _, v in figures),
      "the line and toggle figures are printed: %s" % figures)
finish()
