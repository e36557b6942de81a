#!/usr/bin/env python3
"""wormcast reproduce, tree, run --formula-only and the progress bar.

usage: test_reproduce.py WORMCAST

- reproduce on a small experiment of its own (a few seconds): CSV, JSON, PNG and SVG
  written; every measured point equals what 'wormcast run' reports for it, every
  formula point what 'run --formula-only' predicts; the repository's own experiment
  files all read and check (without running them); one of them (the trace histogram)
  runs for real;
- bad experiment files: one line naming FILE:LINE, exit 2, nothing written; a missing
  plotter: one line, exit 1, nothing run;
- tree: the replication tree of Jeon & Kim's Fig. 4 (Q_4, root 0000) and an algorithm's
  steps from its contention-free schedule;
- the progress bar: on a pseudo-terminal it is drawn, into a file or with --quiet not.
"""
import csv
import json
import os
import pty
import select
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch_dir  # noqa: E402

WC = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = scratch_dir("wc-reproduce-")


def run(*args, env=None, timeout=600):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([WC, *args], capture_output=True, text=True, timeout=timeout, env=e)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def one_line(r, status):
    return r.returncode == status and len(r.stderr.strip().splitlines()) == 1


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# ---- reproduce on a small experiment ----

EXP = os.path.join(TMP, "exp")
write(os.path.join(EXP, "small.ini"), """\
; A small experiment: the Fig. 6 comparison on Q_1..Q_4, measured at d = 1 and 3 only
[experiment]
title = A small experiment
source = Jeon & Kim eqs. 1-3
; A quick.KEY alone sets its option under --quick only.
quick.seed = 3
command = run
plot = lines
x = dimension
values = 1..4
measure = 1,3
quick.measure = 2,4
curves = formula,bound

[panel small]
title = 4 bytes
bytes = 4

[panel large]
title = 512 bytes, t_s = 345, in us
bytes = 512
startup = 345
cycle_time_us = 0.0029

[series pipelined]
label = pipelined, T_r = T_f
algorithm = pbcast
replication-cost = 1

[series hk]
algorithm = hk
panels = large
""")
OUT = os.path.join(TMP, "out")
r = run("reproduce", "--experiments", EXP, "--out", OUT, "--quick", "--jobs", "2")
check(r.returncode == 0 and "small" in r.stdout,
      "reproduce --quick on a small experiment: exit %d %s" % (r.returncode, r.stderr.strip()[-300:]))
files = {ext: os.path.join(OUT, "small." + ext) for ext in ("csv", "json", "png", "svg")}
check(all(os.path.getsize(p) > 0 for p in files.values() if os.path.exists(p))
      and all(os.path.exists(p) for p in files.values()),
      "it writes small.csv, small.json, small.png and small.svg")
with open(files["png"], "rb") as f:
    check(f.read(8) == b"\x89PNG\r\n\x1a\n", "small.png is a PNG")
try:
    svg = ET.parse(files["svg"]).getroot()
    check(svg.tag.endswith("svg"), "small.svg is an SVG document")
except ET.ParseError as e:
    check(False, "small.svg is an SVG document: %s" % e)
table = rows(files["csv"])
check(len(table) == 4 + 4 + 4, "the CSV has a row per panel, series and x (12): %d" % len(table))
check(table[0]["panel"] == "small" and table[0]["series"] == "pipelined" and table[0]["x"] == "1",
      "the rows carry panel, series and x in the file's order")
measured = [t for t in table if t["simulated"] == "true"]
check(sorted({t["x"] for t in measured}) == ["2", "4"],
      "--quick measures at quick.measure (d = 2, 4): %s" % sorted({t["x"] for t in measured}))
check(all(t["cycles"] == "" and t["predicted_cycles"] for t in table if t["simulated"] == "false"),
      "the other points are formulas only: no cycles, a prediction")
check(all(t["flits"] == ("2" if t["panel"] == "small" else "129") for t in table),
      "bytes become flits with 4-byte flits: 4 bytes -> L = 2, 512 bytes -> L = 129")
with open(files["json"]) as f:
    j = json.load(f)
check(j.get("quick") is True and j["figure"]["kind"] == "lines"
      and [p["title"] for p in j["figure"]["panels"]] == ["4 bytes", "512 bytes, t_s = 345, in us"]
      and j["figure"]["panels"][1]["cycle_time_us"] == 0.0029 and len(j["runs"]) == 12,
      "small.json holds the figure (panels, their time unit) and the runs")
check([s["label"] for s in j["figure"]["panels"][0]["series"]] == ["pipelined, T_r = T_f"],
      "a series with 'panels' is only in those panels")

# A few reproduced points against 'wormcast run' itself.
same = []
for t in measured[:2] + [t for t in measured if t["series"] == "hk"][:1]:
    r = run("run", "--topology", t["topology"], "--algorithm", t["algorithm"], "--flits", t["flits"],
            "--startup", t["startup"], "--replication-cost", t["replication_cost"], "--json")
    jr = json.loads(r.stdout) if r.returncode == 0 else {}
    same.append((t["topology"], t["algorithm"], t["cycles"], jr.get("cycles"), jr.get("predicted_cycles")))
    check(str(jr.get("cycles")) == t["cycles"] and str(jr.get("predicted_cycles")) == t["predicted_cycles"]
          and str(jr.get("lower_bound_cycles")) == t["lower_bound_cycles"],
          "reproduced %s %s L = %s: %s cycles, as 'wormcast run' reports (%s)"
          % (t["topology"], t["algorithm"], t["flits"], t["cycles"], jr.get("cycles")))
t = next(t for t in table if t["simulated"] == "false" and t["series"] == "hk")
r = run("run", "--topology", t["topology"], "--algorithm", "hk", "--flits", t["flits"],
        "--startup", t["startup"], "--formula-only", "--json")
jf = json.loads(r.stdout) if r.returncode == 0 else {}
check(jf.get("cycles", 0) is None and jf.get("simulated") is False
      and str(jf.get("predicted_cycles")) == t["predicted_cycles"],
      "a formula point equals 'run --formula-only' (%s: %s)" % (t["topology"], jf.get("predicted_cycles")))
r2 = run("run", "--topology", t["topology"], "--algorithm", "hk", "--flits", t["flits"],
         "--startup", t["startup"], "--json")
j2 = json.loads(r2.stdout) if r2.returncode == 0 else {}
check(j2.get("predicted_cycles") == jf.get("predicted_cycles") == j2.get("cycles")
      and j2.get("schedule_cycles") == jf.get("schedule_cycles"),
      "--formula-only predicts what the simulation measures (hk, eq. 1): %s" % j2.get("cycles"))
r = run("run", "--topology", "hypercube:3", "--algorithm", "hk", "--flits", "5", "--formula-only",
        "--engine", "model")
check(one_line(r, 2) and "formula-only" in r.stderr, "--formula-only with --engine: one line, exit 2")
r = run("run", "--topology", "hypercube:3", "--algorithm", "hk", "--flits", "5", "--formula-only")
check(r.returncode == 0 and "not simulated" in r.stdout, "--formula-only prints the table")

# The full run measures at 'measure' (d = 1, 3) instead.
r = run("reproduce", "--experiments", EXP, "--out", OUT, "--only", "small", "--quiet")
table = rows(files["csv"])
check(r.returncode == 0 and sorted({t["x"] for t in table if t["simulated"] == "true"}) == ["1", "3"],
      "without --quick it measures at measure (d = 1, 3)")

# ---- the repository's experiments ----
# Every file reads and every run checks; the output directory comes after that (and
# cannot be made under /dev/null): nothing runs.
r = run("reproduce", "--quick", "--out", "/dev/null/x")
check(one_line(r, 2) and "--out" in r.stderr,
      "every experiment of experiments/ reads and checks (then --out stops it): %s" % r.stderr.strip())
r = run("reproduce", "--out", "/dev/null/x")
check(one_line(r, 2) and "--out" in r.stderr, "... and without --quick: %s" % r.stderr.strip())
REAL = os.path.join(TMP, "real")
r = run("reproduce", "--quick", "--only", "trace-histogram", "--out", REAL)
check(r.returncode == 0 and all(os.path.exists(os.path.join(REAL, "trace-histogram." + e))
                                for e in ("csv", "json", "png", "svg", "latencies.csv")),
      "reproduce --only trace-histogram writes its files and the trace's latencies: %s" % r.stderr.strip()[-200:])
r = run("reproduce", "--only", "nosuch", "--out", REAL)
check(one_line(r, 2) and "fig6" in r.stderr, "--only with an unknown name lists the experiments")

# ---- bad experiment files: FILE:LINE, exit 2, nothing written ----
GOOD = open(os.path.join(EXP, "small.ini")).read()


def line_of(text, needle):
    """':N:', N the number of the first line of text that holds needle."""
    return ":%d:" % next(k + 1 for k, l in enumerate(text.splitlines()) if needle in l)


def bad_case(what, old, new, needle, word):
    text = GOOD.replace(old, new) if old else GOOD + new
    return what, text, line_of(text, needle), word


BAD = [
    bad_case("unknown key", "algorithm = hk", "algorithm = hk\nbogus = 1", "bogus", "bogus"),
    bad_case("bad option value", "startup = 345", "startup = 0", "startup = 0", "out of range"),
    bad_case("unknown algorithm", "algorithm = hk", "algorithm = nosuch", "nosuch", "nosuch"),
    bad_case("unknown section", None, "[plot x]\ntitle = y\n", "title = y", "unknown section"),
    bad_case("the axis set twice", "bytes = 4", "bytes = 4\ntopology = hypercube:3", "topology",
             "x axis"),
    bad_case("a value list", "values = 1..4", "values = 1..4,3", "values", "twice"),
    bad_case("measure outside values", "measure = 1,3", "measure = 1,9", "measure = 1,9", "9"),
    # A combination: the series' first line is named, with the panel and the point.
    bad_case("an unsupported pair", "algorithm = hk", "algorithm = mstcf", "mstcf",
             "does not run on a hypercube"),
    # A section is named at its first key (inih reports no header lines).
    bad_case("no plot", "plot = lines\n", "", "title = A small", "plot"),
    bad_case("a reserved option", "algorithm = hk", "algorithm = hk\njson = yes", "json",
             "json"),
    bad_case("a panel twice", None, "[panel small]\ntitle = again\n", "title = again", "twice"),
]
for what, text, line, word in BAD:
    d = os.path.join(TMP, "bad-" + what.replace(" ", "-"))
    path = write(os.path.join(d, "e.ini"), text)
    out = os.path.join(d, "out")
    r = run("reproduce", "--experiments", d, "--out", out)
    check(one_line(r, 2) and r.stderr.startswith("wormcast: " + path + line) and word in r.stderr
          and not os.path.exists(out),
          "bad experiment file (%s): one line '%s%s...', exit 2, nothing written: %s"
          % (what, os.path.basename(path), line, r.stderr.strip()))

# ---- the plotter missing: one line before anything runs ----
r = run("reproduce", "--experiments", EXP, "--out", os.path.join(TMP, "noplot"),
        env={"WORMCAST_PYTHON": "/nonexistent/python3"})
check(one_line(r, 1) and "matplotlib" in r.stderr and not os.path.exists(os.path.join(TMP, "noplot")),
      "no plotter: one line, exit 1, nothing run or written: %s" % r.stderr.strip())

# ---- tree ----
r = run("tree", "--topology", "hypercube:4")
lines = r.stdout.splitlines()[2:]
edges = {}
for l in lines:
    depth = (len(l) - len(l.lstrip("|` -"))) // 4 - 1
    node = int(l.split("(")[1].split(")")[0])
    edges[node] = depth
check(r.returncode == 0 and sorted(edges) == list(range(1, 16)),
      "tree: the Q_4 replication tree has every other node once")
check(all(edges[v] == bin(v).count("1") - 1 for v in edges),
      "tree: node T of Q_4 from 0000 is at depth popcount(T) (level = hops)")
# Fig. 4: T forwards on the dimensions below last_one(S xor T).
parents = {}
stack = []
for l in lines:
    depth = (len(l) - len(l.lstrip("|` -"))) // 4 - 1
    node = int(l.split("(")[1].split(")")[0])
    stack[depth:] = [node]
    parents[node] = stack[depth - 1] if depth else 0
check(all(parents[v] == v & ~(v & -v) for v in parents),
      "tree: every node's parent clears its lowest set bit (Jeon & Kim, Algorithm B; Fig. 4)")
r = run("tree", "--topology", "hypercube:3", "--algorithm", "sbt", "--flits", "5")
steps = [l for l in r.stdout.splitlines() if l.startswith("step ")]
sends = [l for l in r.stdout.splitlines() if "->" in l]
check(r.returncode == 0 and len(steps) == 3 and len(sends) == 7 and "= 45" in r.stdout,
      "tree --algorithm sbt on Q_3: 7 sends in 3 steps, 45 cycles (the contention-free schedule)")
r = run("tree", "--topology", "hypercube:4", "--algorithm", "hk", "--flits", "5")
check(r.returncode == 0 and r.stdout.count("step ") == 2 and r.stdout.count("->") == 15,
      "tree --algorithm hk on Q_4: 15 sends in 2 steps (alpha_4 = 2)")
r = run("tree", "--topology", "mesh:4x4", "--root", "5", "--format", "dot")
check(r.returncode == 0 and r.stdout.startswith("digraph") and r.stdout.count("->") == 15,
      "tree --format dot: a Graphviz graph with 15 edges on a 4 x 4 mesh")
svgpath = os.path.join(TMP, "tree.svg")
r = run("tree", "--topology", "hypercube:4", "--format", "svg", "--output", svgpath)
try:
    ok = ET.parse(svgpath).getroot().tag.endswith("svg")
except (ET.ParseError, OSError):
    ok = False
check(r.returncode == 0 and ok, "tree --format svg --output FILE: an SVG drawn by dot")
r = run("tree", "--topology", "hypercube:4", "--flits", "5")
check(one_line(r, 2), "tree --flits without --algorithm: one line, exit 2")
r = run("tree", "--topology", "hypercube:4", "--root", "16")
check(one_line(r, 2), "tree --root outside the network: one line, exit 2")

# ---- the progress bar ----
# The bar is drawn when the sweep starts and after every run, however short the runs.
SWEEP = ["sweep", "--topology", "hypercube:4", "--algorithms", "pbcast,hk,sbt",
         "--flits", "10,20,30,40", "--jobs", "2"]


def on_pty(args):
    """Run with stderr on a pseudo-terminal; returns what the terminal got."""
    master, slave = pty.openpty()
    p = subprocess.Popen([WC, *args], stdout=subprocess.DEVNULL, stderr=slave, close_fds=True)
    os.close(slave)
    got = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                break
            if not data:
                break
            got += data
        elif p.poll() is not None:
            break
    p.wait()
    os.close(master)
    return p.returncode, got.decode(errors="replace")


rc, tty = on_pty(SWEEP)
check(rc == 0 and "\r[" in tty and "12/12 runs" in tty and "elapsed" in tty and "left" in tty,
      "sweep on a terminal: a progress bar with the time left on stderr (%d bytes)" % len(tty))
rc, tty = on_pty(SWEEP + ["--quiet"])
check(rc == 0 and tty == "", "sweep --quiet on a terminal: no bar")
with open(os.path.join(TMP, "err.txt"), "w") as f:
    p = subprocess.run([WC, *SWEEP], stdout=subprocess.DEVNULL, stderr=f)
check(p.returncode == 0 and os.path.getsize(os.path.join(TMP, "err.txt")) == 0,
      "sweep with stderr in a file: no bar, nothing on stderr")
rc, tty = on_pty(["reproduce", "--experiments", EXP, "--out", OUT, "--quick"])
check(rc == 0 and "\r[" in tty and "runs" in tty, "reproduce on a terminal: a progress bar")

finish()
