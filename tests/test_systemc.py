#!/usr/bin/env python3
"""The SystemC harness: --engine systemc, the network tops verilated with --sc under the
SystemC kernel, loaded into wormcast as a plugin (cosim/rtl_plugin.h).

usage: test_systemc.py WORMCAST

The router array and the plain Verilated network tops (--engine cosim) are the
reference its runs must agree with cycle for cycle.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, run, scratch_dir  # noqa: E402

WC = sys.argv[1]


def sc(*args, expect_json=True):
    """wormcast with --engine systemc appended (the option may come last)."""
    return run(WC, *args, "--engine", "systemc", expect_json=expect_json)



def shape(topo):
    """nodes, NOut of an all-port network (docs/microarchitecture.md section 3)."""
    kind, size = topo.split(":")
    if kind == "hypercube":
        d = int(size)
        nodes, ports = 1 << d, d
    else:
        rows, cols = (int(x) for x in size.split("x"))
        nodes, ports = rows * cols, 4
    return nodes, ports + ports  # all-port: J = E = P


def signals_ok(j, topo):
    # --compare all (the default): per router, every input's count, rd_ptr, wr_ptr,
    # 4 FIFO entries, route_q, credit_out_q and hold_q, every output's out_valid_q,
    # out_flit_q and credits_q, rr_q, and every link's out_vc_q (with one virtual
    # channel the constant 0 on link_vc_o; model/router_state.h).
    nodes, n = shape(topo)
    return (j.get("compare") == "all" and
            j.get("signals_compared") == j.get("cycles_compared", -1) * nodes * (n * 10 + 3 * n + 1 + n // 2))


def listing():
    r, j = run(WC, "list", "--json")
    check(r.returncode == 0 and "systemc" in j.get("engines", []),
          "list --json has the systemc engine: %s" % j.get("engines"))


def algorithms():
    for topo in ("hypercube:3", "mesh:3x3"):
        for flits, root in ((17, 0), (1, 5)):
            args = ["run", "--topology", topo, "--algorithm", "pbcast", "--flits", str(flits),
                    "--root", str(root), "--json"]
            r, j = sc(*args)
            # The reference: the router array on Q_3, the network top on 3 x 3.
            extra, kind = ([], "router array") if topo.startswith("hypercube") else (["--rtl-top"], "network top")
            _, ref = run(WC, *args, "--engine", "cosim", *extra)
            check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
                  and j.get("data_ok") and j.get("cycles") == j.get("predicted_cycles")
                  and j.get("cycles_compared", 0) > j.get("cycles", 0)
                  and j.get("rtl") == "SystemC network top" and j.get("engine") == "systemc",
                  "pbcast on %s L=%d root %d under SystemC: %s cycles (predicted %s), %s mismatches"
                  % (topo, flits, root, j.get("cycles"), j.get("predicted_cycles"), j.get("mismatches")))
            # The first run of a configuration builds it: one line saying so.
            quiet = [l for l in r.stderr.splitlines() if not l.startswith("wormcast: building the RTL of ")]
            check(quiet == [], "%s L=%d: nothing on stderr (no SystemC banner or kernel message): %r"
                  % (topo, flits, r.stderr[:200]))
            check(signals_ok(j, topo),
                  "%s: %s register values = %s cycles x %d nodes x (13 NOut + 1 + P), NOut = %d"
                  % (topo, j.get("signals_compared"), j.get("cycles_compared"), *shape(topo)))
            check(ref.get("rtl") == kind and ref.get("mismatches") == 0 and ref.get("cycles") == j.get("cycles")
                  and ref.get("cycles_compared") == j.get("cycles_compared")
                  and ref.get("flit_hops") == j.get("flit_hops"),
                  "%s L=%d: the same cycles (%s) and flit-hops (%s) as wormcast's %s"
                  % (topo, flits, ref.get("cycles"), ref.get("flit_hops"), kind))

def random_traffic():
    fields = ("cycles_simulated", "messages", "broadcasts", "deliveries", "flit_hops", "max_latency")
    for topo in ("hypercube:3", "mesh:3x3"):
        for seed in (1, 2, 3):
            args = ["traffic", "--topology", topo, "--rate", "0.2", "--flits", "8", "--cycles", "5000",
                    "--ir-fraction", "0.3", "--b-fraction", "0.05", "--seed", str(seed), "--json"]
            r, j = sc(*args)
            check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok")
                  and j.get("cycles_compared", 0) >= 5000 and signals_ok(j, topo),
                  "random traffic on %s seed %d: %s cycles, %s messages (%s broadcasts), %s signals, %s mismatches"
                  % (topo, seed, j.get("cycles_compared"), j.get("messages"), j.get("broadcasts"),
                     j.get("signals_compared"), j.get("mismatches")))
            _, ref = run(WC, *args, "--engine", "cosim", "--rtl-top")
            same = [f for f in fields if ref.get(f) != j.get(f)]
            check(ref.get("rtl") == "network top" and not same,
                  "%s seed %d: the same run as wormcast's Verilated network top%s"
                  % (topo, seed, " (differ: %s)" % same if same else ""))
    # Back-pressure from the NIs too.
    r, j = sc("traffic", "--topology", "hypercube:3", "--rate", "0.5", "--flits", "1-16",
              "--cycles", "5000", "--ir-fraction", "0.5", "--b-fraction", "0.01", "--sink-stall", "0.3",
              "--seed", "9", "--json")
    check(r.returncode == 0 and j.get("mismatches") == 0 and j.get("delivered_ok"),
          "rate 0.5, sink stalls 0.3: %s cycles, %s mismatches" % (j.get("cycles_compared"), j.get("mismatches")))


def bug():
    tmp = scratch_dir("wormcast-systemc-")
    vcd = os.path.join(tmp, "bug3.vcd")
    r, j = sc("traffic", "--topology", "hypercube:3", "--rate", "0.2", "--flits", "8", "--cycles",
              "5000", "--ir-fraction", "0.3", "--b-fraction", "0.05", "--seed", "1",
              "--inject-bug", "3", "--mismatch-vcd", vcd, "--json")
    first = j.get("first_mismatch", "")
    # The first register that differs, by its name in docs/microarchitecture.md section 6.
    ok = (r.returncode == 1 and (j.get("mismatches") or 0) > 0 and first.startswith("cycle ")
          and re.search(r" node \d+ ((input|output) \d+ [a-z_]+(\[\d+\] \(count \d+\))?|rr_q): "
                        r"model 0x[0-9a-f]+, RTL 0x[0-9a-f]+", first) is not None)
    check(ok, "bug 3 (a replication branch missing) is caught through SystemC: %s"
          % (first or r.stderr.strip()[:200]))
    check("cosim mismatch: " + first in r.stderr, "the mismatch is reported on stderr as well")
    conv = subprocess.run(["vcd2fst", vcd, vcd + ".fst"], capture_output=True)
    check(os.path.exists(vcd) and conv.returncode == 0, "the mismatch window VCD is readable (vcd2fst)")


def waves():
    tmp = scratch_dir("wormcast-systemc-")
    vcd = os.path.join(tmp, "sc.vcd")
    r, j = sc("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "9",
              "--vcd", vcd, "--json")
    conv = subprocess.run(["vcd2fst", vcd, vcd + ".fst"], capture_output=True)
    check(r.returncode == 0 and j.get("mismatches") == 0 and conv.returncode == 0,
          "--vcd writes a VCD of the SystemC run that vcd2fst reads")
    with open(vcd) as f:
        text = f.read()
    check("gen_node" in text and "u_router" in text and "obs_link_flit_o" in text,
          "the VCD has the network top's ports and every router inside it")
    # One cycle is 10 ns: the clock rises at 10n + 5 and NI inputs change at 10n.
    clk = None
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0] == "$var" and parts[4] == "clk_i":
            clk = parts[3]
            break
    ps = {"1ps": 1, "1ns": 1000}.get(text.split("$timescale")[1].split("$end")[0].strip() if "$timescale" in text else "", 0)
    t, rises = 0, []
    for line in text.split("$enddefinitions")[-1].splitlines():
        if line.startswith("#"):
            t = int(line[1:])
        elif clk and line == "1" + clk:
            rises.append(t * ps)
    check(len(rises) > 10 and all(x == 5000 + 10000 * k for k, x in enumerate(rises)),
          "the clock rises at 5 ns, 15 ns, ... (%d rising edges, first %s ps)" % (len(rises), rises[:3]))
    # The same traced build as the VCD above (a traced SystemC top is the costliest build
    # of the suite; the 3 x 3 mesh is cosimulated under SystemC without a trace above).
    fst = os.path.join(tmp, "sc.fst")
    r, j = sc("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "5",
              "--fst", fst, "--json")
    out = subprocess.run(["fst2vcd", fst, "-o", fst + ".vcd"], capture_output=True)
    check(r.returncode == 0 and out.returncode == 0 and os.path.getsize(fst + ".vcd") > 0,
          "--fst writes an FST that fst2vcd reads")


def errors():
    # SystemC elaborates once per process; a sweep's runs are processes of their own.
    r, j = sc("sweep", "--topology", "hypercube:3", "--algorithms", "pbcast", "--flits", "1,2",
              "--json")
    runs = j.get("runs", [])
    check(r.returncode == 0 and len(runs) == 2 and all(x.get("mismatches") == 0 for x in runs),
          "sweep --engine systemc: each run a process (and a SystemC kernel) of its own, "
          "0 mismatches: exit %d %s" % (r.returncode, r.stderr.strip()[-200:]))
    r, _ = sc("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "9",
              "--inject-bug", "99", expect_json=False)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
          "a bug the RTL does not have: exit 2, one line: %s" % r.stderr.strip())


for part in (listing, algorithms, random_traffic, bug, waves, errors):
    part()
finish()
