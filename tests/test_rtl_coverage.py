#!/usr/bin/env python3
"""Code coverage of the RTL (scripts/rtl-coverage.sh --quick, docs/verification.md).

usage: test_rtl_coverage.py WORMCAST OUT_DIR

Runs the script's quick workloads (a 3x3 mesh: a tree broadcast and random R, R+IR and
B traffic, no path broadcast) with WORMCAST through the code coverage variant of the
RTL build (built into the suite's cache on first use) and checks the lcov files it
writes: line and toggle records of wc_router.v, wc_route.v and wc_fifo.v, each kind in
its own file; counts on the lines the workloads must execute and the signals they must
toggle; a count of 0 on the lines of the path broadcast, which they never send (the
hole the report must show); no record at all for the hypercube's generate branch, which
a mesh build does not elaborate; the HTML report and the printed figures.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORMCAST = os.path.abspath(sys.argv[1])
OUT = os.path.abspath(sys.argv[2])


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


env = dict(os.environ, WORMCAST=WORMCAST)
env.pop("WORMCAST_RTL_DIR", None)
r = subprocess.run([os.path.join(TOP, "scripts", "rtl-coverage.sh"), "--quick", OUT],
                   capture_output=True, text=True, timeout=1500, env=env)
check(r.returncode == 0, "scripts/rtl-coverage.sh --quick exits 0 (%s)"
      % (r.returncode if r.returncode else "ok") + ("" if r.returncode == 0 else ": " + r.stderr[-400:]))
paths = {k: os.path.join(OUT, k + ".info") for k in ("line", "toggle", "merged")}
if not all(os.path.exists(p) for p in paths.values()):
    check(False, "the .info files exist: %s" % ", ".join(paths.values()))
    finish()
line, toggle = read_info(paths["line"]), read_info(paths["toggle"])

# Lines the two workloads must execute, and registers and wires they must toggle.
# Toggle points belong to the line that declares the signal, line points to the
# statement.
executed = [
    ("wc_fifo.v", r"count_q <= count_q \+ 1'b1"),
    ("wc_fifo.v", r"mem_q\[wr_ptr_q\] <= data_i"),
    ("wc_route.v", r"links = r_hop & exist;"),           # an R hop on the mesh
    ("wc_route.v", r"links = \(InjectBug == 3\) \?"),    # a B tree's children
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

# The hole: the workloads send no path broadcast (B with ir), so the mesh's path
# broadcast branch is a record with 0 hits.
for pattern in (r"links = p_raw & exist;", r"if \(hdr_b & hdr_ir\) begin"):
    no = line_of("wc_route.v", pattern)
    check(line.get("wc_route.v", {}).get(no) == 0,
          "wc_route.v:%d (the path broadcast, never sent) is a line record with 0 hits: %s"
          % (no, line.get("wc_route.v", {}).get(no)))
# A generate branch the build does not elaborate has no record at all.
no = line_of("wc_route.v", r"b_links = b_tree;")
check(no not in line.get("wc_route.v", {}),
      "wc_route.v:%d (the hypercube's branch) has no record in a mesh build" % no)

# Bad input: a coverage directory that is not one is refused before anything is built,
# in one line naming it (exit 2).
for bad, why in (("/nonexistent/wormcast-cov", "No such file or directory"), (paths["line"], "not a directory")):
    b = subprocess.run([WORMCAST, "run", "--topology", "mesh:3x3", "--algorithm", "pbcast", "--flits", "3",
                        "--engine", "cosim"], capture_output=True, text=True, timeout=60,
                       env=dict(env, WORMCAST_RTL_COVERAGE_DIR=bad))
    check(b.returncode == 2 and b.stderr.strip() == "wormcast: WORMCAST_RTL_COVERAGE_DIR=%s: %s" % (bad, why),
          "WORMCAST_RTL_COVERAGE_DIR=%s: exit 2 and one line: %d %r" % (bad, b.returncode, b.stderr[-200:]))

html = os.path.join(OUT, "html", "index.html")
check(os.path.exists(html), "genhtml wrote %s" % html)
figures = re.findall(r"^(line|toggle)\s+lines\.+:\s+([\d.]+)%", r.stdout, re.M)
check(sorted(k for k, _ in figures) == ["line", "toggle"] and all(0 < float(v) < 100 for _, v in figures),
      "the line and toggle figures are printed, each below 100 %%: %s" % figures)
finish()
