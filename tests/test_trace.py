#!/usr/bin/env python3
"""Trace-driven traffic and configuration files: exact latencies derived from
docs/microarchitecture.md, broadcast serialisation, the latency CSV, the cosimulation
of traces, and one-line errors with exit code 2 naming the file and line.

usage: test_trace.py WORMCAST
"""
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch_dir  # noqa: E402

WC = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "traces")
CONFIGS = os.path.join(HERE, "..", "configs")
TMP = scratch_dir("wormcast-trace-")



def run(*args, cwd=None):
    return subprocess.run([WC, *args], capture_output=True, text=True, timeout=600, cwd=cwd)


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def trace(topology, text, *extra, name="t.tr"):
    """Run a trace given as text; returns (process, json, csv rows)."""
    path = write(name, text)
    lat = os.path.join(TMP, name + ".csv")
    if os.path.exists(lat):
        os.remove(lat)
    r = run("trace", "--topology", topology, "--trace", path, "--latencies", lat, "--json", *extra)
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {}
    rows = []
    if os.path.exists(lat):
        with open(lat) as f:
            rows = list(csv.DictReader(f))
    return r, j, rows


def hamming(a, b):
    return bin(a ^ b).count("1")


def manhattan(a, b, cols):
    return abs(a // cols - b // cols) + abs(a % cols - b % cols)


def ecube_path(s, d):
    """Nodes after s on the e-cube path from s to d (lowest differing bit first)."""
    path, t = [], s
    while t != d:
        k = (t ^ d) & -(t ^ d)
        t ^= k
        path.append(t)
    return path


# ---- one message on an idle network: latency = t_s + hops + L - 1 (section 9) ----
for ts in (1, 10):
    for s, d, L in ((0, 15, 8), (5, 6, 1), (3, 11, 20)):
        r, j, rows = trace("hypercube:4", "0 %d R %d %d\n" % (s, d, L), "--startup", str(ts))
        want = ts + hamming(s, d) + L - 1
        check(r.returncode == 0 and j.get("delivered_ok") is True and j.get("max_latency") == want
              and rows and int(rows[0]["latency"]) == want,
              "hypercube:4 t_s=%d: R %d->%d, L=%d alone: latency %s == t_s + hops + L - 1 = %d"
              % (ts, s, d, L, j.get("max_latency"), want))
for s, d, L in ((0, 15, 8), (13, 2, 3), (6, 5, 1)):
    r, j, rows = trace("mesh:4x4", "7 %d R %d %d\n" % (s, d, L), "--startup", "4")
    want = 4 + manhattan(s, d, 4) + L - 1
    check(r.returncode == 0 and j.get("max_latency") == want and rows
          and int(rows[0]["send_cycle"]) == 7 and int(rows[0]["delivered_cycle"]) == 7 + want,
          "mesh:4x4: R %d->%d, L=%d sent at cycle 7: latency %s == t_s + Manhattan + L - 1 = %d"
          % (s, d, L, j.get("max_latency"), want))

# ---- two messages contending for one link ----
# On Q_4, A = 0 -> 3 takes 0 -> 1 -> 3 (e-cube, dimension 0 then 1) and B = 1 -> 3 takes
# the link 1 -> 3 alone.  Both sent at cycle 0: B's head is offered at t_s - 1 and
# granted at once (router 1's injection input), so B holds 1 -> 3 from t_s - 1 until its
# tail moves at t_s + LB - 2 (section 7, steps 4 and 9).  A's head reaches router 1 at
# t_s, waits, is granted in cycle t_s + LB - 1, is on link 1 -> 3 at t_s + LB, on node
# 3's ejection channel at t_s + LB + 1 and its tail LA - 1 cycles later (the buffered
# flits stream at one per cycle: BufferDepth >= 2 covers the credit round trip).
for ts, LA, LB in ((10, 5, 9), (3, 12, 4)):
    r, j, rows = trace("hypercube:4", "0 0 R 3 %d\n0 1 R 3 %d\n" % (LA, LB), "--startup", str(ts))
    lat = {int(x["source"]): int(x["latency"]) for x in rows if x["latency"]}
    want_a, want_b = ts + LB + LA, ts + 1 + LB - 1
    check(r.returncode == 0 and lat.get(1) == want_b and lat.get(0) == want_a
          and j.get("link_conflict_cycles", 0) > 0,
          "contention on link 1->3 (t_s=%d, LA=%d, LB=%d): B %s == t_s + LB = %d, A %s == t_s + LB + LA = %d "
          "(alone: %d)" % (ts, LA, LB, lat.get(1), want_b, lat.get(0), want_a, ts + 2 + LA - 1))

# ---- R+IR: every router on the path after the source receives it ----
for topo, s, d, nodes_on_path in (("hypercube:4", 0, 15, len(ecube_path(0, 15))),
                                  ("hypercube:4", 9, 6, len(ecube_path(9, 6))),
                                  ("mesh:4x4", 0, 15, manhattan(0, 15, 4))):
    cols = 4
    hops = hamming(s, d) if topo.startswith("hyper") else manhattan(s, d, cols)
    r, j, rows = trace(topo, "0 %d R %d 6 ir\n" % (s, d), "--startup", "5")
    check(r.returncode == 0 and j.get("delivered_ok") is True and j.get("deliveries") == nodes_on_path
          and j.get("delivered") == 1 and j.get("max_latency") == 5 + hops + 6 - 1
          and rows and rows[0]["type"] == "R+IR",
          "%s: R+IR %d->%d delivered at all %d nodes on its path (deliveries %s), latency %s == t_s + hops + L - 1"
          % (topo, s, d, nodes_on_path, j.get("deliveries"), j.get("max_latency")))

# ---- a broadcast reaches every node; alone it takes t_s + eccentricity + L - 1 ----
for topo, nodes, root, ecc in (("hypercube:4", 16, 6, 4), ("hypercube:6", 64, 0, 6),
                               ("mesh:4x4", 16, 5, max(manhattan(5, n, 4) for n in range(16))),
                               ("mesh:5x3", 15, 0, 4 + 2)):
    r, j, rows = trace(topo, "0 %d B 10\n" % root, "--startup", "3")
    check(r.returncode == 0 and j.get("delivered_ok") is True and j.get("deliveries") == nodes - 1
          and j.get("max_latency") == 3 + ecc + 10 - 1 and rows and rows[0]["dest"] == "",
          "%s: B from %d reached all %d other nodes (deliveries %s), latency %s == t_s + %d + L - 1"
          % (topo, root, nodes - 1, j.get("deliveries"), j.get("max_latency"), ecc))

# ---- broadcasts are serialised (docs/traces.md) ----
text = "0 0 R 15 8\n0 2 R 9 4\n2 7 B 5\n2 3 R 12 6\n3 4 R 1 2\n"
r, j, rows = trace("hypercube:4", text)
by_line = {int(x["line"]): x for x in rows}
ok = r.returncode == 0 and len(rows) == 5
if ok:
    before = max(int(by_line[n]["delivered_cycle"]) for n in (1, 2))
    b = by_line[3]
    ok = (int(b["send_cycle"]) == before + 1
          and int(by_line[4]["send_cycle"]) == int(b["delivered_cycle"]) + 1
          and int(by_line[5]["send_cycle"]) == int(b["delivered_cycle"]) + 1
          and j.get("max_send_delay") == max(int(x["send_cycle"]) - int(x["cycle"]) for x in rows))
check(ok, "a B line is sent the cycle after the earlier messages' last delivery, the lines after it "
      "the cycle after its own; max_send_delay = %s" % j.get("max_send_delay"))

# ---- the CSV: one row per message, consistent with the JSON ----
for topo, name in (("mesh:4x4", "hotspot-mesh4x4.tr"), ("hypercube:4", "mixed-q4.tr"),
                   ("hypercube:4", "bitrev-q4.tr")):
    path = os.path.join(TRACES, name)
    with open(path) as f:
        msg_lines = [n for n, l in enumerate(f, 1) if l.split("#")[0].strip()]
    lat = os.path.join(TMP, name + ".csv")
    r = run("trace", "--topology", topo, "--trace", path, "--latencies", lat, "--json")
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    with open(lat) as f:
        rows = list(csv.DictReader(f))
    lats = sorted(int(x["latency"]) for x in rows)
    ok = (r.returncode == 0 and j.get("delivered_ok") is True
          and [int(x["line"]) for x in rows] == msg_lines and j.get("messages") == len(rows)
          and all(int(x["delivered_cycle"]) - int(x["send_cycle"]) == int(x["latency"])
                  and int(x["send_cycle"]) >= int(x["cycle"]) for x in rows)
          and j.get("max_latency") == lats[-1] and j.get("min_latency") == lats[0]
          and abs(j.get("avg_latency", -1) - sum(lats) / len(lats)) < 1e-9
          and j.get("p50_latency") == lats[(len(lats) * 50 + 99) // 100 - 1]
          and j.get("p99_latency") == lats[(len(lats) * 99 + 99) // 100 - 1]
          and j.get("broadcasts") == sum(x["type"] == "B" for x in rows))
    check(ok, "traces/%s on %s: %d CSV rows, one per message line; latency = delivered - sent; "
          "avg/min/p50/p99/max agree with the JSON" % (name, topo, len(rows)))

r = run("trace", "--topology", "hypercube:4", "--trace", os.path.join(TRACES, "mixed-q4.tr"))
check(r.returncode == 0 and "latency" in r.stdout and "p99" in r.stdout and "delivered ok" in r.stdout,
      "trace without --json prints a readable summary")

# ---- a deadlock is a report and exit 1 (one-port routers with IR, section 8) ----
rnd = __import__("random").Random(4)
lines, c = [], 0
for k in range(3000):
    s = int(rnd.random() * 16)
    d = int(rnd.random() * 15)
    d += d >= s
    lines.append("%d %d R %d %d%s" % (c, s, d, 1 + int(rnd.random() * 24), " ir" if rnd.random() < 0.3 else ""))
    c += int(rnd.random() * 3)
r, j, rows = trace("hypercube:4", "\n".join(lines) + "\n", "--one-port", "--watchdog", "2000")
check(r.returncode == 1 and j.get("delivered_ok") is False and "deadlock" in r.stderr,
      "a dense one-port trace with IR deadlocks: exit 1 and a deadlock report")

# ---- cosimulation: the same results as the model, no mismatch ----
r = run("list", "--json")
rtl = "cosim" in json.loads(r.stdout).get("engines", []) if r.returncode == 0 else False
for topo, port, name in (("hypercube:4", "all-port", "mixed-q4.tr"),
                         ("mesh:4x4", "all-port", "hotspot-mesh4x4.tr"),
                         ("hypercube:4", "one-port", "bitrev-q4.tr")):
    if not rtl:
        print("SKIP: this build has no RTL engines")
        continue
    path = os.path.join(TRACES, name)
    res = {}
    for engine in ("model", "cosim"):
        lat = os.path.join(TMP, "%s.%s.csv" % (name, engine))
        r = run("trace", "--topology", topo, "--trace", path, "--engine", engine, "--json",
                "--latencies", lat, "--port-model", port)
        j = json.loads(r.stdout) if r.stdout.strip() else {}
        with open(lat) as f:
            res[engine] = (r.returncode, j, f.read())
    (rm, jm, cm), (rc, jc, cc) = res["model"], res["cosim"]
    same = all(jm.get(k) == jc.get(k) for k in ("cycles", "deliveries", "avg_latency", "max_latency",
                                                  "p99_latency", "flit_hops", "link_conflict_cycles"))
    check(rm == 0 and rc == 0 and jc.get("mismatches") == 0 and jc.get("cycles_compared", 0) > 0
          and same and cm == cc,
          "traces/%s on %s %s: cosim gives the model's results (%s cycles compared, %s mismatches, "
          "identical CSV)" % (name, topo, port, jc.get("cycles_compared"), jc.get("mismatches")))

# ---- bad traces: exit 2, one line naming file:line ----
bad = [
    ("0 0 R x 8\n", 1, "not a whole number", "bad number"),
    ("0 0 R 3 8\n5 0 Q 3 8\n", 2, "unknown message type", "unknown type"),
    ("0 0 R 16 8\n", 1, "not a node", "destination out of range"),
    ("# c\n\n0 16 B 8\n", 3, "not a node", "source out of range"),
    ("0 3 R 3 8\n", 1, "itself", "dest == source"),
    ("0 0 R 3 0\n", 1, "out of range", "flits 0"),
    ("0 0 R 3 99999999\n", 1, "out of range", "flits too large"),
    ("5 0 R 3 4\n4 1 R 3 4\n", 2, "before cycle 5", "cycles going backwards"),
    ("0 0 B 4 ir\n", 1, "'ir' on a B message", "IR on a B message"),
    ("0 0 R 3 4 ir x\n", 1, "unexpected 'x'", "trailing junk"),
    ("0 0 B 4 4\n", 1, "unexpected '4'", "trailing number"),
    ("0 0 R 3\n", 1, "missing flits", "missing field"),
    ("-1 0 R 3 4\n", 1, "not a whole number", "negative cycle"),
    ("0 0 R 3 4.5\n", 1, "not a whole number", "fractional flits"),
    ("999999999999 0 R 3 4\n", 1, "out of range", "cycle beyond the limit"),
]
for text, line, words, what in bad:
    path = write("bad.tr", text)
    r = run("trace", "--topology", "hypercube:4", "--trace", path)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("wormcast: %s:%d: " % (path, line))
          and words in lines[0] and r.stdout == "",
          "bad trace (%s): exit 2, one line naming line %d: %s" % (what, line, lines[0] if lines else "(none)"))
for text, what in (("", "empty file"), ("# only a comment\n\n   \n", "only comments")):
    path = write("empty.tr", text)
    r = run("trace", "--topology", "hypercube:4", "--trace", path)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "no messages" in lines[0] and path in lines[0],
          "empty trace (%s): exit 2, one line: %s" % (what, lines[0] if lines else "(none)"))
for args, what in ((["--trace", os.path.join(TMP, "nonexistent.tr")], "unreadable trace"),
                   ([], "no --trace"),
                   (["--trace", os.path.join(TRACES, "mixed-q4.tr"), "--latencies", "/nonexistent/l.csv"],
                    "unwritable latency file")):
    r = run("trace", "--topology", "hypercube:4", *args)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("wormcast: "),
          "%s: exit 2, one line: %s" % (what, lines[0] if lines else "(none)"))
path = write("m.tr", "0 0 R 15 4\n")
r = run("trace", "--topology", "mesh:2x2", "--trace", path)
check(r.returncode == 2 and "m.tr:1: destination 15 is not a node of mesh:2x2" in r.stderr,
      "node range is the topology's: %s" % r.stderr.strip())

# ---- configuration files ----
cfg = write("c.ini", """; a configuration
[network]
topology = mesh:4x4
port_model = all-port
buffer_depth = 6
payload_width = 40

[ni]
startup = 7

[run]
watchdog = 5000

[trace]
file = %s

[traffic]
rate = 0.2
flits = 2-9
cycles = 300
ir_fraction = 0.25
""" % write("c.tr", "0 0 R 15 8\n"))
r = run("trace", "--config", cfg, "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("topology") == "mesh:4x4" and j.get("buffer_depth") == 6 and j.get("payload_width") == 40
      and j.get("startup") == 7 and j.get("watchdog") == 5000 and j.get("port_mode") == "all-port"
      and j.get("max_latency") == 7 + 6 + 8 - 1,
      "trace --config: topology, buffer depth, payload width, startup, watchdog from the file "
      "(latency %s == 7 + 6 + 8 - 1)" % j.get("max_latency"))
r = run("trace", "--config", cfg, "--json", "--startup", "3", "--topology", "hypercube:4",
        "--port-model", "one-port")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("startup") == 3 and j.get("topology") == "hypercube:4" and j.get("buffer_depth") == 6
      and j.get("port_mode") == "one-port" and j.get("max_latency") == 3 + 4 + 8 - 1,
      "command-line options override the file (startup 3, hypercube:4, one-port), the rest stays")
r = run("traffic", "--config", cfg, "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("rate") == 0.2 and j.get("min_flits") == 2 and j.get("max_flits") == 9
      and j.get("cycles") == 300 and j.get("ir_fraction") == 0.25 and j.get("startup") == 7
      and j.get("delivered_ok") is True,
      "traffic --config: rate, flits, cycles, ir_fraction from [traffic], startup from [ni]")
r = run("traffic", "--config", cfg, "--json", "--rate", "0.05", "--flits", "4")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("rate") == 0.05 and j.get("min_flits") == 4 and j.get("max_flits") == 4,
      "traffic: --rate and --flits override [traffic]")
cfg2 = write("r.ini", "[network]\ntopology = hypercube:5\n[ni]\nstartup = 4\n"
             "[algorithm]\nname = pbcast\nflits = 9\nroot = 3\n[traffic]\nflits = 1-4\n")
r = run("run", "--config", cfg2, "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("algorithm") == "pbcast" and j.get("flits") == 9 and j.get("root") == 3
      and j.get("cycles") == 4 + 5 + 9 - 1,
      "run --config: [algorithm] gives name, flits, root; [traffic] does not apply to run "
      "(pbcast on Q_5: %s cycles == t_s + d + L - 1)" % j.get("cycles"))
r = run("sweep", "--config", cfg2, "--json", "--flits", "2,5")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check([x.get("flits") for x in j.get("runs", [])] == [2, 5]
      and all(x.get("startup") == 4 and x.get("root") == 3 for x in j.get("runs", [])),
      "sweep --config with --flits overriding the file's flits")
example = os.path.join(CONFIGS, "example.ini")
r = run("trace", "--config", example, "--json", cwd=os.path.join(HERE, ".."))  # file = traces/...
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(r.returncode == 0 and j.get("delivered_ok") is True, "configs/example.ini runs a trace: %s"
      % (r.stderr.strip() or "ok"))

bad_cfg = [
    ("[network]\ntopology = hypercube:4\n[nosuch]\nx = 1\n", 4, "unknown section", "unknown section"),
    ("[network]\nbogus = 1\n", 2, "unknown key 'bogus'", "unknown key"),
    ("startup = 3\n", 1, "outside a section", "key outside a section"),
    ("[ni]\n\nstartup = zero\n", 3, "startup", "bad number"),
    ("[network]\nbuffer_depth = 1\n", 2, "buffer_depth", "out of range"),
    ("[network]\nport_model = two-port\n", 2, "not one of all-port|one-port", "bad port model"),
    ("[network]\ntopology = torus:4\n", 2, "torus", "bad topology"),
    ("[run]\nengine = spice\n", 2, "spice", "bad engine"),
    ("[traffic]\nflits = 9-2\n", 2, "MAX is below MIN", "bad flit range (checked for every command)"),
    ("[algorithm]\nname = nosuch\n", 2, "nosuch", "unknown algorithm"),
    ("[ni]\nstartup = 3\nstartup = 4\n", 3, "given twice", "key given twice"),
    ("[ni\nstartup = 3\n", 1, "syntax error", "syntax error"),
    ("[ni]\njust some words\n", 2, "syntax error", "line without '='"),
]
for text, line, words, what in bad_cfg:
    path = write("bad.ini", text)
    r = run("trace", "--config", path, "--topology", "hypercube:4",
            "--trace", os.path.join(TRACES, "mixed-q4.tr"))
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("wormcast: %s:%d: " % (path, line))
          and words in lines[0] and r.stdout == "",
          "bad config (%s): exit 2, one line naming FILE:%d: %s" % (what, line, lines[0] if lines else "(none)"))
r = run("run", "--config", os.path.join(TMP, "nonexistent.ini"), "--topology", "hypercube:4",
        "--algorithm", "pbcast", "--flits", "4")
lines = r.stderr.strip().splitlines()
check(r.returncode == 2 and len(lines) == 1 and "nonexistent.ini" in lines[0],
      "unreadable config: exit 2, one line: %s" % (lines[0] if lines else "(none)"))

finish()
