#!/usr/bin/env python3
"""Cosimulation of the Verilated RTL against the C model.

usage: test_cosim.py WORMCAST {algos|random|bugs|top|waves|configs|rings}

  algos   every algorithm driver on Q_4, Q_6, 4x4 and 5x3, and every all-to-all
          exchange and broadcast on a small network: zero mismatches, and the cycles the
          model predicts; concurrent B broadcasts deadlock as on the model
  random  22 seeds x 20,000 cycles of random R / R+IR / B traffic with back-pressure
  bugs    every deliberately broken RTL build is caught (a mismatch, exit 1, a report
          naming both sides, a readable waveform of the window); faults in internal
          state are caught at the register by the full comparison, before (or
          without) reaching an output; a bug that breaks an invariant may be caught
          first by the RTL assertion that names it
  top     the generate-loop network tops agree with the model as the router array does
  waves   VCD and FST output of the model and the RTL is readable by GTKWave's tools
  configs configurations no other test uses, each built on its first run (the RTL
          of every configuration is built on demand and cached: cosim/rtl_cache.h)
  rings   rings and tori with virtual channels (docs/microarchitecture.md section 12):
          the B broadcast's exact cycles, the ring and torus collectives, random
          traffic, zero mismatches on every register, and the faults in the VC logic
          (InjectBug 14-16) caught

Every configuration is built the first time a test asks for it, in the suite's own
cache (XDG_CACHE_HOME, tests/CMakeLists.txt).
"""
import json
import re
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, quiet, run, scratch_dir  # noqa: E402

WC, MODE = sys.argv[1], sys.argv[2]



def wormcast(*args, expect_json=True):
    return run(WC, *args, expect_json=expect_json)


def algos():
    cases = []
    for algo in ("pbcast", "hampath", "hk", "irruns", "irrunssf", "direx"):
        for d in (4, 6):
            cases.append((algo, "hypercube:%d" % d))
    for algo in ("sbt", "reduce"):
        for d in (4, 6):
            cases.append((algo, "hypercube:%d" % d))
    for algo in ("pbcast", "hampath", "rdmesh", "rsbcast"):
        for m in ("4x4", "5x3"):
            cases.append((algo, "mesh:" + m))
    for algo in ("mstnaive", "mstcf"):
        cases.append((algo, "mesh:4x4"))
    for algo, topo in cases:
        for flits, root in ((1, 0), (17, 5)):
            if algo == "direx" and topo == "hypercube:6" and flits == 17:
                flits = 5
            r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                            "--root", str(root), "--startup", "3", "--engine", "cosim", "--json")
            ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
                  and j.get("data_ok") and j.get("cycles_compared", 0) > 0
                  and (not j.get("formula_exact") or j.get("cycles") == j.get("predicted_cycles")))
            check(ok, "cosim %s on %s, L=%d root %d: %s cycles (predicted %s), %s signals compared, %s mismatches"
                  % (algo, topo, flits, root, j.get("cycles"), j.get("predicted_cycles"),
                     j.get("signals_compared"), j.get("mismatches", r.stderr.strip()[:200])))
    # The other dimension orders (each its own RTL build): the same
    # exact times, the routes and trees of those orders on both sides.
    flipped = [("hypercube:4", ["--route-order", "descending", "--tree-order", "ascending"]),
               ("mesh:5x3", ["--replication-cost", "1", "--route-order", "descending",
                             "--tree-order", "descending"])]
    for topo, extra in flipped:
        for algo in (("pbcast", "hampath", "hk", "direx") if topo.startswith("hyper") else ("pbcast", "hampath")):
            for flits, root in ((1, 0), (17, 5)):
                r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                                "--root", str(root), "--startup", "3", *extra, "--engine", "cosim", "--json")
                ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
                      and j.get("route_order") == "descending" and j.get("cycles") == j.get("predicted_cycles")
                      and j.get("link_conflict_cycles") == 0)
                check(ok, "cosim %s on %s %s, L=%d root %d: %s cycles (predicted %s), %s mismatches"
                      % (algo, topo, " ".join(extra), flits, root, j.get("cycles"), j.get("predicted_cycles"),
                         j.get("mismatches", r.stderr.strip()[:200])))
    # The replication cost (its own RTL build): Jeon & Kim eq. 2, n*T_r included, exactly.
    for algo, flits, root, stall in (("pbcast", 9, 0, "0"), ("pbcast", 1, 11, "0"),
                                     ("pbcast", 17, 6, "0.3"), ("hk", 9, 3, "0"),
                                     ("hampath", 9, 5, "0"), ("hampath", 17, 2, "0.3")):
        r, j = wormcast("run", "--topology", "hypercube:4", "--algorithm", algo, "--flits", str(flits),
                        "--root", str(root), "--startup", "3", "--replication-cost", "2",
                        "--sink-stall", stall, "--engine", "cosim", "--json")
        exact = stall == "0"
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("replication_cost") == 2
              and (not exact or j.get("cycles") == j.get("predicted_cycles"))
              and (algo != "pbcast" or not exact or j.get("cycles") == 3 + 4 + flits - 1 + 4 * 2)
              and (algo != "hampath" or not exact or j.get("cycles") == 3 + 15 + flits - 1 + 15 * 2))
        check(ok, "cosim %s on Q_4 with T_r = 2, L=%d root %d, sink stall %s: %s cycles (predicted %s), %s mismatches"
              % (algo, flits, root, stall, j.get("cycles"), j.get("predicted_cycles"),
                 j.get("mismatches", r.stderr.strip()[:200])))


    # The other mesh broadcasts: packets of a split message (def, defap, scatter-collect
    # with its resent pieces), R+IR rows then columns, cut-through; exact cycles.
    bcasts = [("def", "mesh:4x4", 9, 15, []), ("def", "mesh:5x3", 13, 2, ["--packets", "5"]),
              ("defap", "mesh:5x3", 9, 14, []), ("sc1d", "mesh:5x3", 16, 7, []),
              ("sc2d", "mesh:4x4", 17, 6, []), ("irrowcol", "mesh:4x4", 9, 6, []),
              ("irrowcolct", "mesh:5x3", 9, 7, []), ("defap", "mesh:8x8", 17, 63, [])]
    for algo, topo, flits, root, extra in bcasts:
        r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                        "--root", str(root), "--startup", "3", *extra, "--engine", "cosim", "--json")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("cycles_compared", 0) > 0 and j.get("formula_exact") is True
              and j.get("cycles") == j.get("predicted_cycles") == j.get("schedule_cycles"))
        check(ok, "cosim %s on %s, L=%d root %d%s: %s cycles (predicted %s), %s mismatches"
              % (algo, topo, flits, root, " " + " ".join(extra) if extra else "", j.get("cycles"),
                 j.get("predicted_cycles"), j.get("mismatches", r.stderr.strip()[:200])))

    # All-to-all personalized exchange: small blocks, every algorithm once, on builds
    # that exist (one-port Q_4 for the standard exchange, a 1x6 line for the pipelines).
    aas = [("standexch", "hypercube:4", 3), ("direx", "hypercube:3", 3), ("direx", "mesh:4x4", 2),
           ("rowcol", "mesh:4x4", 2), ("rowcol", "mesh:5x3", 2), ("binexch", "mesh:4x4", 2),
           ("quadexch", "mesh:4x4", 2), ("quadexchh", "mesh:4x4", 2),
           ("linexch1", "mesh:1x6", 3), ("linexch2", "mesh:1x6", 3)]
    for algo, topo, flits in aas:
        r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                        "--startup", "3", "--engine", "cosim", "--json")
        congested = algo == "direx" and topo.startswith("mesh")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("cycles_compared", 0) > 0
              and (not j.get("formula_exact") or j.get("cycles") == j.get("predicted_cycles"))
              and j.get("lower_bound_cycles") is not None
              and j.get("cycles", 0) >= j.get("lower_bound_cycles")
              and (j.get("link_conflict_cycles", 0) > 0) == congested)
        check(ok, "cosim AAS %s on %s, L=%d: %s cycles (predicted %s, bound %s), %s conflict cycles, "
              "%s signals compared, %s mismatches"
              % (algo, topo, flits, j.get("cycles"), j.get("predicted_cycles"),
                 j.get("lower_bound_cycles"), j.get("link_conflict_cycles"),
                 j.get("signals_compared"), j.get("mismatches", r.stderr.strip()[:200])))


    # All-to-all broadcast: every algorithm on builds that exist, concurrent B broadcasts
    # (aabbcast's head-gated rounds) included, with T_r and with sink stalls.
    aab = [("aabdimex", "hypercube:4", 5, []), ("aabflood", "hypercube:3", 5, []),
           ("aabflood", "hypercube:4", 3, []), ("aabmeshxy", "mesh:5x3", 3, []),
           ("aabmeshyx", "mesh:5x3", 3, []), ("aabmeshxy", "mesh:4x4", 2, []),
           ("aabmeshyx", "mesh:3x4", 3, ["--buffer-depth", "3"]),
           ("aabbcast", "hypercube:3", 9, []), ("aabbcast", "hypercube:4", 17, []),
           ("aabbcast", "mesh:4x4", 9, []), ("aabbcast", "mesh:5x3", 9, []),
           ("aabbcast", "mesh:1x6", 9, []),
           ("aabbcast", "hypercube:4", 9, ["--replication-cost", "2"]),
           ("aabbcast", "hypercube:4", 9, ["--sink-stall", "0.3", "--seed", "5"])]
    for algo, topo, flits, extra in aab:
        r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                        "--startup", "3", *extra, "--engine", "cosim", "--json")
        exact = "--sink-stall" not in extra
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("cycles_compared", 0) > 0 and j.get("kind") == "AAB"
              and (not exact or not j.get("formula_exact") or j.get("cycles") == j.get("predicted_cycles"))
              and j.get("lower_bound_cycles") is not None
              and j.get("cycles", 0) >= j.get("lower_bound_cycles"))
        check(ok, "cosim AAB %s on %s%s, L=%d: %s cycles (predicted %s, bound %s), %s signals "
              "compared, %s mismatches" % (algo, topo, "".join(" " + x for x in extra), flits,
                                           j.get("cycles"),
                                           j.get("predicted_cycles"), j.get("lower_bound_cycles"),
                                           j.get("signals_compared"),
                                           j.get("mismatches", r.stderr.strip()[:200])))
    # Every node broadcasting at cycle 0 deadlocks on the RTL as on the model: the cosim
    # ends with the model's deadlock report (the chain of blocked B messages, read from the
    # RTL's routers), not a mismatch.
    for topo, flits in (("hypercube:2", 64), ("hypercube:3", 9)):
        runs = {}
        for engine in ("model", "cosim"):
            runs[engine] = wormcast("run", "--topology", topo, "--algorithm", "aabbcastnaive",
                                    "--flits", str(flits), "--watchdog", "300",
                                    "--engine", engine, "--json")
        (rm, jm), (rc, jc) = runs["model"], runs["cosim"]
        ok = (rm.returncode == 1 and rc.returncode == 1 and "deadlock" in rc.stderr
              and "the cycle closes" in rc.stderr and "message B from" in rc.stderr
              and quiet(rc.stderr) == rm.stderr and jc.get("mismatches") == 0
              and jc.get("cycles_compared", 0) > 300 and not jc.get("data_ok"))
        check(ok, "cosim aabbcastnaive on %s, L=%d: deadlock, the same report as the model's, "
              "%s cycles compared, %s mismatches: %s" % (topo, flits, jc.get("cycles_compared"),
                                                         jc.get("mismatches"),
                                                         rc.stderr.strip().splitlines()[:1]))
    same_order()


# The fields only an engine's kind decides (docs/microarchitecture.md section 11).
ENGINE_FIELDS = {"engine", "network_core", "rtl", "compare", "cycles_compared", "signals_compared",
                 "mismatches", "link_conflict_cycles", "wall_seconds", "cycles_per_second",
                 "flit_hops_per_second"}


def same_order():
    # Every engine lists a cycle's ejections in node order, then channel order
    # (docs/microarchitecture.md section 9), so the sink stalls, drawn in that order,
    # and the drivers, told in that order, give the same run on every engine: the
    # same JSON from the model, the RTL and the cosimulation.  (When the C model
    # listed them in the order its routers were woken, each of these runs differed.)
    runs = [("run", "--topology", "hypercube:4", "--algorithm", "direx", "--flits", "9"),
            ("run", "--topology", "hypercube:4", "--algorithm", "aabbcast", "--flits", "9"),
            ("run", "--topology", "mesh:4x4", "--algorithm", "direx", "--flits", "9"),
            ("traffic", "--topology", "mesh:4x4", "--rate", "0.4", "--flits", "1-16",
             "--cycles", "3000", "--ir-fraction", "0.3", "--b-fraction", "0.01")]
    for args in runs:
        out = {}
        for engine in ("model", "rtl", "cosim"):
            r, j = wormcast(*args, "--sink-stall", "0.3", "--seed", "5", "--engine", engine,
                            "--json")
            out[engine] = (r.returncode, {k: v for k, v in j.items() if k not in ENGINE_FIELDS})
        m = out["model"][1]
        differ = sorted({k for e in ("rtl", "cosim") for k in set(m) | set(out[e][1])
                         if m.get(k) != out[e][1].get(k)})
        check(out["model"][0] == out["rtl"][0] == out["cosim"][0] == 0 and m.get("cycles")
              and not differ,
              "%s with sink stalls 0.3: the model, the RTL and the cosimulation give the same "
              "JSON (%s cycles%s)" % (" ".join(args[:5]), m.get("cycles"),
                                      "; differ: " + ", ".join(differ) if differ else ""))


def registers(topo, extra):
    """Register values compared per cycle by --compare all: every router's count,
    rd_ptr, wr_ptr, BufferDepth FIFO entries, route_q, credit_out_q, hold_q per input,
    out_valid_q, out_flit_q, credits_q per output, rr_q, out_vc_q per link (with V = 1
    the constant 0 on link_vc_o), and with V > 1 sw_rr_q (model/router_state.h)."""
    kind, size = topo.split(":")
    vcs = 1
    if kind == "hypercube":
        nodes, ports = 1 << int(size), int(size)
    elif kind == "ring":
        nodes, ports, vcs = int(size), 2, 2
    else:
        rows, cols = (int(x) for x in size.split("x"))
        nodes, ports = rows * cols, 4
        vcs = 2 if kind == "torus" else 1
    if "--virtual-channels" in extra:
        vcs = int(extra[extra.index("--virtual-channels") + 1])
    # Virtual ports (section 12): P*V link ports, then J = P injection and E = P*V
    # ejection channels (one of each one-port).
    n_in = ports * vcs + (1 if "--one-port" in extra else ports)
    n_out = ports * vcs + (1 if "--one-port" in extra else ports * vcs)
    depth = int(extra[extra.index("--buffer-depth") + 1]) if "--buffer-depth" in extra else 4
    vc_regs = ports + (1 if vcs > 1 else 0)
    return nodes * (n_in * (6 + depth) + 3 * n_out + 1 + vc_regs)


def random_traffic():
    # One-port routers share one ejection channel, which an IR copy holds while it
    # waits for its link: IR traffic can deadlock them (docs/microarchitecture.md
    # section 8), so they get plain unicasts and serialised broadcasts.
    configs = [("hypercube:4", []), ("hypercube:6", []), ("mesh:4x4", []), ("mesh:5x3", []),
               ("hypercube:4", ["--one-port", "--ir-fraction", "0"]),
               ("mesh:5x3", ["--one-port", "--ir-fraction", "0"]),
               # Other parameters than the defaults: the smallest buffer that keeps a link
               # at full rate, a wider payload, an odd depth.
               ("hypercube:3", ["--buffer-depth", "2", "--payload-width", "48"]),
               ("mesh:3x4", ["--one-port", "--ir-fraction", "0", "--buffer-depth", "3"]),
               # The replication hold under load (broadcasts more often than elsewhere).
               ("hypercube:4", ["--replication-cost", "2", "--b-fraction", "0.01"]),
               # The other dimension orders.
               ("hypercube:4", ["--route-order", "descending", "--tree-order", "ascending",
                                "--b-fraction", "0.01"]),
               ("mesh:5x3", ["--replication-cost", "1", "--route-order", "descending",
                             "--tree-order", "descending", "--b-fraction", "0.01"])]
    total = 0
    for seed in range(1, 23):
        topo, extra = configs[seed % len(configs)]
        rate = ("0.15", "0.3", "0.6")[seed % 3]
        r, j = wormcast("traffic", "--topology", topo, "--rate", rate, "--flits", "1-24",
                        "--cycles", "20000", "--ir-fraction", "0.3", "--b-fraction", "0.002", *extra,
                        "--sink-stall", "0.2" if seed % 2 else "0", "--seed", str(seed),
                        "--engine", "cosim", "--json")
        total += j.get("cycles_compared", 0)
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
              and j.get("compare") == "all"
              and j.get("signals_compared") == j.get("cycles_compared", -1) * registers(topo, extra)
              and j.get("cycles_compared", 0) >= 20000 and j.get("messages", 0) > 100)
        check(ok, "random traffic seed %d on %s %s rate %s: %s messages (%s broadcasts), %s cycles, %s signals compared, %s mismatches"
              % (seed, topo, " ".join(extra), rate, j.get("messages"), j.get("broadcasts"),
                 j.get("cycles_compared"), j.get("signals_compared"), j.get("mismatches")))
    print("random traffic: %d cycles compared in all" % total)


# Bug number: (what it is, the options of the build that has it).
BUGS = {
    1: ("wrong routing bit", []),
    2: ("lost credit", []),
    3: ("one replication branch missing", []),
    4: ("IR not delivering", []),
    5: ("a FIFO that accepts one flit too many", []),
    6: ("an arbiter that releases an output before the tail", []),
    7: ("a replication hold one cycle too long", ["--replication-cost", "2"]),
    12: ("the tree order not passed down to the route computation",
        ["--route-order", "descending", "--tree-order", "ascending"]),
}
# Bugs that break an invariant of the router trip one of its assertions
# (rtl/wc_assert.vh) before the registers differ: the run stops at that cycle.
ASSERTED = {
    5: ("credits_in_range",),
    6: ("granted_outputs_free", "one_sender_per_output", "one_owner_per_output"),
}


def bugs():
    tmp = scratch_dir("wormcast-cosim-")
    # The clean build passes the same workload.
    workload = ["traffic", "--topology", "hypercube:4", "--rate", "0.6", "--flits", "1-24",
                "--cycles", "5000", "--ir-fraction", "0.5", "--b-fraction", "0.01",
                "--sink-stall", "0.3", "--seed", "7", "--engine", "cosim", "--json"]
    for extra in sorted({tuple(x) for _, x in BUGS.values()}):
        r, j = wormcast(*workload, *extra)
        check(r.returncode == 0 and j.get("mismatches") == 0,
              "the clean RTL %s passes the bug-hunting workload: %s cycles, 0 mismatches"
              % (" ".join(extra), j.get("cycles_compared")))
    for bug, (what, extra) in sorted(BUGS.items()):
        vcd = os.path.join(tmp, "bug%d.vcd" % bug)
        r, j = wormcast(*workload, *extra, "--inject-bug", str(bug), "--mismatch-vcd", vcd)
        first = j.get("first_mismatch", "")
        if bug in ASSERTED:
            lines = [l for l in r.stderr.splitlines() if "Assertion failed in gen_node[" in l]
            # (A difference in the registers of the same cycle may be the reason given.)
            ok = (r.returncode == 1 and lines and any(name in lines[0] for name in ASSERTED[bug])
                  and ((j.get("error") or "").startswith("RTL assertion failed in cycle ")
                       or (j.get("mismatches") or 0) > 0))
            check(ok, "bug %d (%s) is caught by an RTL assertion: %s; %s"
                  % (bug, what, j.get("error"), lines[0] if lines else r.stderr.strip()[:200]))
        else:
            ok = (r.returncode == 1 and (j.get("mismatches") or 0) > 0 and "model 0x" in first
                  and "RTL 0x" in first and first.startswith("cycle ") and " node " in first)
            check(ok, "bug %d (%s) is caught: %s" % (bug, what, first or r.stderr.strip()[:200]))
        fst = vcd + ".fst"
        conv = subprocess.run(["vcd2fst", vcd, fst], capture_output=True)
        check(os.path.exists(vcd) and conv.returncode == 0 and os.path.getsize(fst) > 0,
              "bug %d: the waveform of the cycles around the mismatch is readable (vcd2fst)" % bug)
    internal_state(tmp)
    link_vc_one_channel(tmp)
    # The path broadcast's own logic (InjectBug 13): random traffic sends no path
    # broadcast, so hampath drives it; the clean builds pass (algos above).
    for topo in ("hypercube:4", "mesh:4x4"):
        vcd = os.path.join(tmp, "path-%s.vcd" % topo.replace(":", ""))
        r, j = wormcast("run", "--topology", topo, "--algorithm", "hampath", "--flits", "9",
                        "--root", "5", "--startup", "3", "--engine", "cosim", "--inject-bug", "13",
                        "--mismatch-vcd", vcd, "--json")
        first = j.get("first_mismatch", "")
        check(r.returncode == 1 and (j.get("mismatches") or 0) > 0 and "model 0x" in first
              and "RTL 0x" in first and "B+IR from 5" in first,
              "bug 13 (the path broadcast leaves its Hamiltonian path) is caught on %s: %s"
              % (topo, first or r.stderr.strip()[:200]))
    # The mesh build with Y-before-X routing.
    r, j = wormcast("traffic", "--topology", "mesh:4x4", "--rate", "0.3", "--flits", "2-8",
                    "--cycles", "3000", "--seed", "3", "--engine", "cosim", "--inject-bug", "1",
                    "--mismatch-vcd", os.path.join(tmp, "mesh.vcd"), "--json")
    check(r.returncode == 1 and (j.get("mismatches") or 0) > 0,
          "mesh bug 1 (Y before X) is caught: %s" % j.get("first_mismatch"))


# Faults in internal state (rtl/wc_router.v, InjectBug): number -> (what, network,
# the register the full comparison must name, whether the fault ever reaches an
# output on this workload).
INTERNAL = {
    8: ("a mesh border input's FIFO fills with the idle link", "mesh:4x4",
        r"node 0 input 1 count: model 0x0, RTL 0x1", False),
    9: ("a border output's credit counter counts the opposite output", "mesh:4x4",
        r"output [0-3] credits_q: model 0x4, RTL 0x3", False),
    10: ("the round-robin counter wraps one early", "hypercube:4", r"node \d+ rr_q: model 0x7, RTL 0x0", True),
    11: ("a flit stored behind another has its top bit flipped", "hypercube:4",
         r"input \d+ fifo\[[1-3]\] \(count [2-4]\)", True),
}


def first_cycle(j):
    m = re.match(r"cycle (\d+) ", j.get("first_mismatch") or "")
    return int(m.group(1)) if m else None


def link_vc_one_channel(tmp):
    """With one virtual channel a link's class is the constant 0 on link_vc_o
    (docs/microarchitecture.md section 12), which no receiver reads; the cosimulation
    compares it as out_vc_q all the same.  A copy of rtl/ whose routers drive 1 there
    (the mutant scripts/mutate.py calls wc_router.v:22eccaac96) is caught in the first
    cycle by the full comparison, idle links included, and by the outputs-only one when
    a link first sends (its flit shows on the wrong output)."""
    rtl = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "rtl")
    copy = os.path.join(tmp, "rtl-link-vc")
    shutil.copytree(rtl, copy)
    path = os.path.join(copy, "wc_router.v")
    with open(path) as f:
        text = f.read()
    tie = "assign link_vc_o = {P*VcW{1'b0}};"
    check(text.count(tie) == 1, "rtl/wc_router.v ties link_vc_o to zeros with V = 1 (%s)" % tie)
    with open(path, "w") as f:
        f.write(text.replace(tie, tie.replace("1'b0", "1'b1")))
    env = dict(os.environ, WORMCAST_RTL_DIR=copy)
    args = [WC, "traffic", "--topology", "hypercube:3", "--rate", "0.3", "--flits", "1-4",
            "--cycles", "300", "--seed", "1", "--engine", "cosim", "--json"]
    for compare, want in (("all", r"^cycle 1 node 0 link 0 out_vc_q: model 0x0, RTL 0x1 "),
                          ("outputs", r"^cycle \d+ node \d+ port \d+ \(link output, dimension \d+\) out_valid: ")):
        r = subprocess.run(args + ["--compare", compare], capture_output=True, text=True,
                           timeout=1200, env=env)
        try:
            j = json.loads(r.stdout)
        except ValueError:
            j = {}
        first = j.get("first_mismatch") or ""
        check(r.returncode == 1 and j.get("compare") == compare and re.search(want, first) is not None,
              "link_vc_o driven to 1 with V = 1 is caught (--compare %s): %s"
              % (compare, first or r.stderr.strip()[:200]))


def internal_state(tmp):
    workload = ["traffic", "--rate", "0.6", "--flits", "1-24", "--cycles", "5000",
                "--ir-fraction", "0.5", "--b-fraction", "0.01", "--sink-stall", "0.3", "--seed", "7",
                "--engine", "cosim", "--json"]
    for bug, (what, topo, register, reaches) in sorted(INTERNAL.items()):
        vcd = os.path.join(tmp, "internal%d.vcd" % bug)
        r, j = wormcast(*workload, "--topology", topo, "--inject-bug", str(bug), "--mismatch-vcd", vcd)
        first = j.get("first_mismatch", "")
        check(r.returncode == 1 and j.get("compare") == "all" and re.search(register, first) is not None,
              "bug %d (%s) is caught at the register by the full comparison: %s"
              % (bug, what, first or r.stderr.strip()[:200]))
        with open(vcd) as f:
            text = f.read()
        check("in0_count" in text and "out0_credits_q" in text and "rr_q" in text
              and subprocess.run(["vcd2fst", vcd, vcd + ".fst"], capture_output=True).returncode == 0,
              "bug %d: the mismatch window holds every register by its name, model and RTL" % bug)
        ro, jo = wormcast(*workload, "--topology", topo, "--inject-bug", str(bug), "--compare", "outputs")
        c_all, c_out = first_cycle(j), first_cycle(jo)
        if reaches:
            ok = (ro.returncode == 1 and c_all is not None and c_out is not None and c_all < c_out)
        else:
            # The outputs never differ; the RTL's assertions (rtl/wc_assert.vh) may still
            # stop the run where the fault breaks an invariant of the router.
            ok = (jo.get("mismatches") == 0 and jo.get("compare") == "outputs"
                  and (ro.returncode == 0
                       or (jo.get("error") or "").startswith("RTL assertion failed in cycle ")))
        check(ok, "bug %d: the outputs-only comparison %s (full comparison: cycle %s, outputs only: %s)"
              % (bug, "reports it later" if reaches else "never reports it", c_all,
                 c_out if c_out is not None else "no mismatch in %s cycles" % jo.get("cycles_compared")))


def top():
    for topo in ("hypercube:3", "mesh:3x3"):
        for seed in (1, 2):
            r, j = wormcast("traffic", "--topology", topo, "--rate", "0.4", "--flits", "1-16",
                            "--cycles", "5000", "--ir-fraction", "0.3", "--b-fraction", "0.005",
                            "--sink-stall", "0.2", "--seed", str(seed), "--engine", "cosim",
                            "--rtl-top", "--json")
            check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("rtl") == "network top",
                  "network top %s seed %d: %s cycles, %s signals compared, %s mismatches"
                  % (topo, seed, j.get("cycles_compared"), j.get("signals_compared"), j.get("mismatches")))
    r, j = wormcast("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "9",
                    "--engine", "cosim", "--rtl-top", "--json")
    check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("cycles") == j.get("predicted_cycles"),
          "pbcast through the Q_3 network top: %s cycles as predicted" % j.get("cycles"))
    # Two small tops the mutation score found missing (docs/verification.md, "Mutation
    # score"): Q_2 one-port, whose generate loop splits the node index otherwise than
    # Q_3's could (Dim / 2 = 1, Dim / 3 = 0: the readout finds every router by that
    # hierarchy), and a mesh that is not square (rows and columns not interchangeable).
    for topo, extra in (("hypercube:2", ["--one-port", "--ir-fraction", "0"]),
                        ("mesh:2x3", ["--ir-fraction", "0.3"])):
        r, j = wormcast("traffic", "--topology", topo, "--rate", "0.4", "--flits", "1-16",
                        "--cycles", "3000", "--b-fraction", "0.01", "--sink-stall", "0.2",
                        "--seed", "3", *extra, "--engine", "cosim", "--rtl-top", "--json")
        check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("rtl") == "network top"
              and j.get("delivered_ok") and j.get("cycles_compared", 0) >= 3000,
              "network top %s %s: %s cycles, %s signals compared, %s mismatches"
              % (topo, " ".join(extra), j.get("cycles_compared"), j.get("signals_compared"),
                 j.get("mismatches", r.stderr.strip()[-200:])))


def fst_ok(path):
    out = path + ".vcd"
    r = subprocess.run(["fst2vcd", path, "-o", out], capture_output=True)
    return r.returncode == 0 and os.path.getsize(out) > 0


def waves():
    tmp = scratch_dir("wormcast-cosim-")
    for engine in ("model", "rtl", "cosim"):
        vcd = os.path.join(tmp, engine + ".vcd")
        r, j = wormcast("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "9",
                        "--engine", engine, "--vcd", vcd, "--json")
        conv = subprocess.run(["vcd2fst", vcd, vcd + ".fst"], capture_output=True)
        check(r.returncode == 0 and os.path.exists(vcd) and conv.returncode == 0,
              "--engine %s --vcd writes a VCD that vcd2fst reads" % engine)
        with open(vcd) as f:
            text = f.read()
        check("gen_node[15]" in text and "link_flit_o" in text and "ej_valid_o" in text,
              "--engine %s VCD has every node's router ports by their RTL names" % engine)
        # One cycle is 10 ns, registers change at 10n + 5, in every engine's VCD, so
        # the model's and the RTL's waves line up in one GTKWave window.
        times = [int(l[1:]) for l in text.splitlines() if l.startswith("#")]
        check(re.search(r"\$timescale\s+1\s*ns\s+\$end", text) is not None
              and times[:4] == [0, 5, 10, 15],
              "--engine %s VCD: timescale 1 ns, first times %s (cycle = 10 ns)" % (engine, times[:4]))
        # The FST of the same build as the VCD: the RTL's traced variant is a build of its
        # own (Verilator's --trace), and a mesh's would test the same writer again.
        fst = os.path.join(tmp, engine + ".fst")
        r, j = wormcast("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "5",
                        "--engine", engine, "--fst", fst, "--json")
        check(r.returncode == 0 and os.path.exists(fst) and fst_ok(fst),
              "--engine %s --fst writes an FST that fst2vcd reads" % engine)
    r, _ = wormcast("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "9",
                    "--vcd", "/nonexistent/dir/x.vcd", expect_json=False)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
          "an unwritable waveform path is a one-line error, exit 2")
    r, _ = wormcast("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "9",
                    "--engine", "cosim", "--inject-bug", "99", expect_json=False)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
          and "the RTL has InjectBug 0.." in r.stderr,
          "an injected bug the RTL does not have is a one-line error, exit 2: %s" % r.stderr.strip())


def configs():
    """Configurations that only this test uses: each is built on its first run."""
    def cosim_run(what, *args, exact=True):
        r, j = wormcast("run", *args, "--engine", "cosim", "--json")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("cycles_compared", 0) > 0
              and (not exact or j.get("cycles") == j.get("predicted_cycles")))
        check(ok, "%s: %s cycles (predicted %s), %s signals compared, %s mismatches"
              % (what, j.get("cycles"), j.get("predicted_cycles"), j.get("signals_compared"),
                 j.get("mismatches", r.stderr.strip()[-300:])))

    # The example: Q_7, Ho and Kao's broadcast.
    cosim_run("hk on Q_7 (128 routers)", "--topology", "hypercube:7", "--algorithm", "hk",
              "--flits", "9")
    cosim_run("pbcast on Q_5", "--topology", "hypercube:5", "--algorithm", "pbcast", "--flits",
              "17", "--root", "21")
    cosim_run("pbcast on Q_5, buffer depth 8", "--topology", "hypercube:5", "--algorithm", "pbcast",
              "--flits", "33", "--buffer-depth", "8")
    cosim_run("pbcast on Q_4, payload width 48", "--topology", "hypercube:4", "--algorithm",
              "pbcast", "--flits", "9", "--payload-width", "48")
    cosim_run("pbcast on Q_5 with T_r = 3", "--topology", "hypercube:5", "--algorithm", "pbcast",
              "--flits", "9", "--replication-cost", "3")
    cosim_run("rsbcast (one-port) on a 6 x 6 mesh", "--topology", "mesh:6x6", "--algorithm",
              "rsbcast", "--flits", "17", "--root", "14", exact=False)
    r, j = wormcast("traffic", "--topology", "mesh:6x6", "--one-port", "--rate", "0.2", "--flits",
                    "1-12", "--cycles", "3000", "--seed", "4", "--engine", "cosim", "--json")
    check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok"),
          "random traffic on a one-port 6 x 6 mesh: %s cycles, %s mismatches"
          % (j.get("cycles_compared"), j.get("mismatches")))
    # An injected bug in a configuration no other test builds is caught the same way.
    r, j = wormcast("traffic", "--topology", "mesh:6x6", "--one-port", "--rate", "0.2", "--flits",
                    "1-12", "--cycles", "3000", "--seed", "4", "--engine", "cosim",
                    "--inject-bug", "2", "--json")
    check(r.returncode == 1 and (j.get("mismatches") or 0) > 0
          and j.get("first_mismatch", "").startswith("cycle "),
          "bug 2 (a lost credit) in the one-port 6 x 6 mesh is caught: %s" % j.get("first_mismatch"))



# The ring and torus builds (a router with V > 1 costs two to three times the build of
# one with V = 1): ring:8 and torus:4x4 with V = 2 (and one-port, for the one-port
# algorithms); V = 3 on an odd torus with the smallest buffers.
V3_ODD = ("torus:3x5", ["--virtual-channels", "3", "--buffer-depth", "2"])


def rings():
    # The hardware broadcast, exact (docs/algorithms.md#pbcast), from several roots.
    for topo, extra, D in (("ring:8", [], 4), ("torus:4x4", [], 4), V3_ODD + (3,)):
        for flits, root in ((1, 0), (17, 5), (40, 7)):
            r, j = wormcast("run", "--topology", topo, "--algorithm", "pbcast", "--flits", str(flits),
                            "--root", str(root), "--startup", "3", *extra, "--engine", "cosim", "--json")
            ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
                  and j.get("cycles") == j.get("predicted_cycles") == 3 + D + flits - 1
                  and j.get("signals_compared") == j.get("cycles_compared", -1) * registers(topo, extra))
            check(ok, "cosim pbcast on %s %s, L=%d root %d: %s cycles (t_s + D + L - 1 = %d), %s signals, %s mismatches"
                  % (topo, " ".join(extra), flits, root, j.get("cycles"), 3 + D + flits - 1,
                     j.get("signals_compared"), j.get("mismatches", r.stderr.strip()[:200])))
    # The source algorithms on rings and tori (docs/algorithms.md): exact, zero mismatches,
    # one-port (ringaas1, aabtorus*; Lemma 7's odd schedule on ring:7) and all-port
    # (ringaas2, aabham2) builds.  (scripts/every-algorithm.py, ctest every_algorithm,
    # runs every algorithm that applies on torus:4x4 and ring:8.)
    for algo, topo, flits in (("ringaas1", "ring:8", 3), ("ringaas2", "ring:8", 5),
                              ("aabtorusxy", "ring:8", 5), ("aabtorusyx", "torus:4x4", 3),
                              ("aabham2", "torus:4x4", 5), ("aabtorusxy", "ring:7", 4)):
        r, j = wormcast("run", "--topology", topo, "--algorithm", algo, "--flits", str(flits),
                        "--startup", "3", "--engine", "cosim", "--json")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("data_ok")
              and j.get("cycles") == j.get("predicted_cycles") and j.get("cycles_compared", 0) > 0)
        check(ok, "cosim %s on %s, L=%d: %s cycles (predicted %s), %s mismatches"
              % (algo, topo, flits, j.get("cycles"), j.get("predicted_cycles"),
                 j.get("mismatches", r.stderr.strip()[-300:])))
    # Random traffic at and beyond saturation, IR and (one at a time) broadcasts, stalls.
    for seed, (topo, extra) in enumerate((("ring:8", []), ("torus:4x4", []), V3_ODD, V3_ODD,
                                          ("ring:8", []), ("torus:4x4", [])), 1):
        rate = ("0.3", "0.6", "0.15")[seed % 3]
        r, j = wormcast("traffic", "--topology", topo, "--rate", rate, "--flits", "1-24",
                        "--cycles", "10000", "--ir-fraction", "0.3", "--b-fraction", "0.002", *extra,
                        "--sink-stall", "0.2" if seed % 2 else "0", "--seed", str(seed),
                        "--engine", "cosim", "--json")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
              and j.get("signals_compared") == j.get("cycles_compared", -1) * registers(topo, extra)
              and j.get("cycles_compared", 0) >= 10000 and j.get("messages", 0) > 100)
        check(ok, "cosim random traffic seed %d on %s %s rate %s: %s messages (%s broadcasts), %s cycles, %s mismatches"
              % (seed, topo, " ".join(extra), rate, j.get("messages"), j.get("broadcasts"),
                 j.get("cycles_compared"), j.get("mismatches", r.stderr.strip()[:200])))
    # Faults in the VC logic: each is caught, at a register named with its VC.  (Each
    # fault is in the router's per-link logic: a ring's cheaper build carries it too.)
    for bug, what, topo in ((14, "no dateline: every hop in class 0", "ring:8"),
                            (15, "two VCs on one link in one cycle", "ring:8"),
                            (16, "the link's class register never loads", "ring:8")):
        r, j = wormcast("traffic", "--topology", topo, "--rate", "0.6", "--flits", "1-24",
                        "--cycles", "5000", "--ir-fraction", "0.3", "--seed", "7",
                        "--engine", "cosim", "--inject-bug", str(bug), "--json")
        first = j.get("first_mismatch", "")
        check(r.returncode == 1 and (j.get("mismatches") or 0) > 0 and "model 0x" in first
              and "RTL 0x" in first, "VC bug %d (%s) is caught on %s: %s" % (bug, what, topo, first
                                                                          or r.stderr.strip()[:200]))
    # The generate-loop top rtl/wc_torus.v, alone (a torus) and under SystemC (a ring),
    # agrees with the model.  (Small networks: a network top takes minutes to build.)
    for topo, extra, engine in (("torus:2x2", ["--rtl-top"], "cosim"),
                                ("ring:3", ["--virtual-channels", "3"], "systemc")):
        r, j = wormcast("traffic", "--topology", topo, "--rate", "0.4", "--flits", "1-12",
                        "--cycles", "2000", "--ir-fraction", "0.3", "--b-fraction", "0.002",
                        "--seed", "3", *extra, "--engine", engine, "--json")
        ok = (r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
              and j.get("cycles_compared", 0) >= 2000 and j.get("messages", 0) > 50)
        check(ok, "%s %s through the network top (%s): %s messages, %s mismatches"
              % (topo, " ".join(extra), j.get("rtl"), j.get("messages"),
                 j.get("mismatches", r.stderr.strip()[-300:])))
    # Waves: the model's and the RTL's VCDs both carry the links' classes.
    tmp = scratch_dir("wormcast-cosim-")
    for engine in ("model", "rtl"):
        vcd = os.path.join(tmp, engine + ".vcd")
        r, j = wormcast("run", "--topology", "ring:8", "--algorithm", "pbcast", "--flits", "5",
                        "--engine", engine, "--vcd", vcd, "--json")
        text = open(vcd).read() if os.path.exists(vcd) else ""
        check(r.returncode == 0 and " link_vc_o " in text and " link_credit_o " in text,
              "--vcd on ring:8 (%s): the links' vc is traced as link_vc_o" % engine)



{"algos": algos, "random": random_traffic, "bugs": bugs, "top": top, "waves": waves,
 "configs": configs, "rings": rings}[MODE]()
finish()
