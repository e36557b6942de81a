#!/usr/bin/env python3
"""The wormcast command line: JSON contract, exact pbcast cycles, and one-line errors
with exit code 2 for every class of bad input."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch_dir  # noqa: E402

WC = sys.argv[1]


def run(*args):
    return subprocess.run([WC, *args], capture_output=True, text=True, timeout=120)


# The acceptance run.
r = run("run", "--topology", "hypercube:10", "--algorithm", "pbcast", "--flits", "256", "--json")
try:
    j = json.loads(r.stdout)
except ValueError:
    j = {}
check(r.returncode == 0 and j.get("delivered_ok") is True, "pbcast on Q_10, 256 flits: delivered_ok")
check(j.get("cycles") == j.get("predicted_cycles") == 10 + 10 + 256 - 1,
      "pbcast on Q_10: cycles == predicted_cycles == t_s + d + L - 1 (%s)" % j.get("cycles"))
for key in ("topology", "algorithm", "flits", "root", "startup", "per_hop_latency", "cycles",
            "predicted_cycles", "formula", "delivered_ok", "link_conflict_cycles"):
    check(key in j, "run --json has '%s'" % key)
check(r.stdout.count("\n") == 1, "run --json prints exactly one line (one JSON object)")

r = run("run", "--topology", "mesh:5x3", "--algorithm", "pbcast", "--flits", "9", "--root", "7",
        "--startup", "4", "--buffer-depth", "3", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("root") == 7 and j.get("startup") == 4 and j.get("buffer_depth") == 3,
      "run --json echoes root, startup, buffer depth")

# The replication cost: Jeon & Kim eq. 2 exactly, and the JSON says which router ran.
r = run("run", "--topology", "hypercube:7", "--algorithm", "pbcast", "--flits", "33",
        "--replication-cost", "5", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("replication_cost") == 5 and j.get("cycles") == j.get("predicted_cycles") == 10 + 7 + 32 + 7 * 5,
      "pbcast on Q_7 with --replication-cost 5: %s cycles == t_s + d + L - 1 + d*T_r = 84" % j.get("cycles"))
# The pair walk (a speed option, on by default): the same exact cycles, and the JSON names the
# core that ran, the routers where the pair walk does not cover the run (T_r > 0, stalling
# sinks); --no-pair-walk forces the routers, and says so.
for extra, core in (((), "pair-walk"), (("--replication-cost", "5"), "routers"),
                    (("--sink-stall", "0.3"), "routers"), (("--no-pair-walk",), "routers")):
    r = run("run", "--topology", "hypercube:7", "--algorithm", "pbcast", "--flits", "33",
            *extra, "--json")
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    exact = "--sink-stall" not in extra  # stalling sinks take longer than the formula
    check(j.get("network_core") == core and j.get("delivered_ok") is True
          and (not exact or j.get("cycles") == j.get("predicted_cycles")),
          "pbcast on Q_7 %s: network_core %s (%s)%s"
          % (" ".join(extra) or "by default", core, j.get("network_core"),
             ", cycles as predicted" if exact else ""))
walk, routers = (json.loads(run("traffic", "--topology", "mesh:4x4", "--rate", "0.2", "--flits", "1-9",
                                "--cycles", "600", *extra, "--json").stdout)
                 for extra in ((), ("--no-pair-walk",)))
for k in ("network_core", "wall_seconds", "cycles_per_second", "flit_hops_per_second"):
    walk.pop(k, None)
    routers.pop(k, None)
check(walk == routers and walk.get("flit_hops", 0) > 0,
      "traffic on mesh:4x4: the default (the pair walk) and --no-pair-walk report the same")
r = run("run", "--topology", "mesh:4x4", "--algorithm", "pbcast", "--flits", "8")
check(r.returncode == 0 and "network core" in r.stdout and "pair-walk" in r.stdout,
      "run: the text report names the network core (the pair walk by default)")
r = run("run", "--topology", "mesh:4x4", "--algorithm", "pbcast", "--flits", "8", "--no-pair-walk")
check(r.returncode == 0 and "network core" in r.stdout and "routers" in r.stdout,
      "run --no-pair-walk: the text report names the routers")
r = run("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "8", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("replication_cost") == 0 and j.get("route_order") == "ascending"
      and j.get("tree_order") == "descending",
      "run --json reports replication_cost 0, routes ascending, trees descending by default on Q_d")
r = run("run", "--topology", "mesh:4x4", "--algorithm", "pbcast", "--flits", "8", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("route_order") == "ascending" and j.get("tree_order") == "ascending",
      "run --json: the mesh's default tree is ascending (row first)")
r = run("run", "--topology", "hypercube:6", "--algorithm", "hk", "--flits", "9", "--route-order",
        "descending", "--tree-order", "ascending", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("route_order") == "descending" and j.get("tree_order") == "ascending"
      and j.get("cycles") == j.get("predicted_cycles") and j.get("link_conflict_cycles") == 0,
      "hk with --route-order descending (the seed's own routing): %s cycles as predicted, no conflicts"
      % j.get("cycles"))

# The new router parameters from a configuration file, and a bad one named by FILE:LINE.
with tempfile.TemporaryDirectory() as tmp:
    ini = os.path.join(tmp, "router.ini")
    with open(ini, "w") as f:
        f.write("[network]\ntopology = mesh:5x3\nreplication_cost = 3\nroute_order = descending\n"
                "tree_order = descending\n")
    r = run("run", "--config", ini, "--algorithm", "pbcast", "--flits", "5", "--root", "7", "--json")
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    check(j.get("replication_cost") == 3 and j.get("route_order") == "descending"
          and j.get("tree_order") == "descending" and j.get("cycles") == 10 + 3 + 4 + 3 * 3,
          "[network] replication_cost, route_order, tree_order from a file: pbcast on 5x3 from 7 "
          "in %s cycles = t_s + D + L - 1 + D*T_r" % j.get("cycles"))
    with open(ini, "w") as f:
        f.write("[network]\ntopology = mesh:5x3\ntree_order = sideways\n")
    r = run("run", "--config", ini, "--algorithm", "pbcast", "--flits", "5")
    check(r.returncode == 2 and r.stderr.startswith("wormcast: %s:3: " % ini) and "ascending|descending" in r.stderr,
          "a bad tree_order in a file: exit 2, FILE:LINE: %s" % r.stderr.strip())

r = run("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "8")
check(r.returncode == 0 and "measured cycles" in r.stdout and "predicted cycles" in r.stdout,
      "run without --json prints a readable table")

# Rings and tori (docs/microarchitecture.md section 12): the hardware broadcast is exact.
for topo, D, vcs in (("torus:8x8", 8, None), ("ring:16", 8, None), ("torus:5x4", 4, "3")):
    r = run("run", "--topology", topo, "--algorithm", "pbcast", "--flits", "17", "--root", "3",
            "--replication-cost", "1", *(("--virtual-channels", vcs) if vcs else ()), "--json")
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    check(j.get("cycles") == j.get("predicted_cycles") == 10 + D + 16 + D
          and j.get("virtual_channels") == int(vcs or 2) and j.get("delivered_ok") is True,
          "pbcast on %s, V = %s: %s cycles == t_s + D + L - 1 + D*T_r, D = %d"
          % (topo, vcs or 2, j.get("cycles"), D))
for args, what in ((("--topology", "mesh:4x4", "--virtual-channels", "2"), "V = 2 on a mesh"),
                   (("--topology", "torus:4x4", "--virtual-channels", "1"), "V = 1 on a torus"),
                   (("--topology", "torus:1x4"), "a 1-row torus"),
                   (("--topology", "ring:4097"), "a ring of 4097 nodes"),
                   (("--topology", "torus:4x4", "--coverage", os.devnull), "coverage of VCs")):
    r = run("run", "--algorithm", "pbcast", "--flits", "3", *args)
    check(r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == "",
          "%s is refused in one line, exit 2: %s" % (what, r.stderr.strip()))

r = run("list", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
algos = {a["name"]: a for a in j.get("algorithms", [])}
check(set(j.get("topologies", [])) == {"hypercube", "mesh", "ring", "torus"}
      and set(algos.get("pbcast", {}).get("topologies", [])) == {"hypercube", "mesh", "ring", "torus"},
      "list --json names the four topologies; pbcast runs on all of them")
check(all(k in algos for k in ("pbcast", "sbt", "hk", "irruns", "direx")),
      "list --json names pbcast, sbt, hk, irruns, direx")
check(all({"name", "topologies", "source", "description"} <= set(a) for a in algos.values()),
      "every listed algorithm has name, topologies, source, description")
check(set(j.get("topologies", [])) >= {"hypercube", "mesh"}, "list --json names the topologies")
check(all(a.get("kind") in ("one-to-all", "AAS", "AAB", "reduction") and a.get("port_mode")
          in ("all-port", "one-port") and a.get("formula_source") and a.get("networks")
          for a in algos.values()),
      "every listed algorithm has its kind, port mode, formula source and networks")
check({n for n, a in algos.items() if a.get("kind") == "AAS"} >= {
          "direx", "standexch", "rowcol", "linexch1", "linexch2", "binexch", "quadexch"},
      "list --json: the AAS catalogue")

# An AAS result says where its prediction comes from and carries its lower bound.
r = run("run", "--topology", "hypercube:3", "--algorithm", "standexch", "--flits", "5", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("kind") == "AAS" and j.get("formula_source", "").startswith("derived (docs/algorithms.md#")
      and j.get("published_source", "").startswith("Lecture 11") and j.get("formula_exact") is True
      and j.get("cycles") == j.get("predicted_cycles") == 3 * (10 + 1 + 4 * 4)
      and j.get("lower_bound_cycles") == 10 + 1 + 7 * 4
      and abs(j.get("bound_ratio", 0) - j["cycles"] / j["lower_bound_cycles"]) < 1e-9,
      "run --json of standexch: formula_source, published formula, exact cycles, lower bound and "
      "ratio (%s, %s, %s)" % (j.get("formula_source"), j.get("cycles"), j.get("lower_bound_cycles")))
r = run("run", "--topology", "hypercube:3", "--algorithm", "sbt", "--flits", "5", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("lower_bound_cycles") == 10 + 3 + 4 and j.get("lower_bound", "").startswith("one-to-all, one-port")
      and j.get("schedule_cycles") == j.get("cycles"),
      "a one-port broadcast's bound is its latency, t_s + d + mu (%s)" % j.get("lower_bound_cycles"))
r = run("run", "--topology", "mesh:4x4", "--algorithm", "binexch", "--flits", "3")
check(r.returncode == 0 and "lower bound" in r.stdout and "Lecture 11, BINEXCH formula (1)" in r.stdout,
      "run without --json prints the lower bound and the formula's source")

# The pipelined DEF broadcast: --packets sets k, the JSON says which k ran (null for an
# algorithm that sends its message whole), and the cycles are the derived formula's.
r = run("run", "--topology", "mesh:5x3", "--algorithm", "def", "--flits", "25", "--packets", "4",
        "--root", "14", "--startup", "6", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("packets") == 4 and j.get("data_ok") is True and j.get("formula_exact") is True
      and j.get("cycles") == j.get("predicted_cycles") == 2 * (3 * 6 + 24 - 6) + 6 * (6 + 6 + 1)
      and j.get("published_source", "").startswith("Barnett et al."),
      "def on 5x3 from corner 14, 4 packets: packets, exact derived cycles 150, Barnett et al.'s "
      "formula beside it (%s, %s)" % (j.get("packets"), j.get("cycles")))
r = run("run", "--topology", "mesh:5x3", "--algorithm", "def", "--flits", "25", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(j.get("packets") == 4, "def's default k is Barnett et al.'s k_opt: round(sqrt(8 * 24 / 10)) = 4 (%s)"
      % j.get("packets"))
r = run("run", "--topology", "mesh:5x3", "--algorithm", "rsbcast", "--flits", "25", "--json")
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(r.returncode == 0 and "packets" in j and j["packets"] is None,
      "run --json: packets is null for an algorithm that sends its message whole")
r = run("run", "--topology", "mesh:5x3", "--algorithm", "def", "--flits", "25", "--packets", "4")
check(r.returncode == 0 and "packets                4, of 6 or 6 payload words" in r.stdout,
      "run without --json prints the packets")

bad = [
    (["run", "--topology", "mesh:4x4", "--algorithm", "rdmesh", "--flits", "9", "--packets", "2"], "--packets for an algorithm that sends its message whole"),
    (["run", "--topology", "mesh:4x4", "--algorithm", "def", "--flits", "9", "--packets", "9"], "more packets than payload words"),
    (["run", "--topology", "mesh:4x4", "--algorithm", "def", "--flits", "9", "--packets", "0"], "no packets"),
    (["run", "--topology", "mesh:4x4", "--algorithm", "def", "--flits", "9", "--root", "5"], "DEF from a root that is not a corner"),
    (["sweep", "--topology", "mesh:4x4", "--algorithms", "def,pbcast", "--flits", "9", "--packets", "2"], "sweep --packets with an algorithm that refuses it"),
    (["run", "--topology", "hypercube:4", "--algorithm", "nosuch", "--flits", "4"], "unknown algorithm"),
    (["run", "--topology", "hypercube:0", "--algorithm", "pbcast", "--flits", "4"], "hypercube:0"),
    (["run", "--topology", "hypercube:13", "--algorithm", "pbcast", "--flits", "4"], "hypercube:13"),
    (["run", "--topology", "mesh:0x3", "--algorithm", "pbcast", "--flits", "4"], "mesh:0x3"),
    (["run", "--topology", "mesh:65x2", "--algorithm", "pbcast", "--flits", "4"], "mesh:65x2"),
    (["run", "--topology", "torus:4", "--algorithm", "pbcast", "--flits", "4"], "unknown topology"),
    (["run", "--topology", "hypercube:x", "--algorithm", "pbcast", "--flits", "4"], "non-numeric dimension"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "0"], "flits 0"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "abc"], "flits abc"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--root", "16"], "root outside"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--root", "-1"], "negative root"),
    (["run", "--topology", "mesh:4x4", "--algorithm", "standexch", "--flits", "4"], "algorithm on a topology it does not support"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--startup", "0"], "startup 0"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--buffer-depth", "1"], "buffer depth 1"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--bogus"], "unknown flag"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast"], "missing --flits"),
    (["run", "--algorithm", "pbcast", "--flits", "4"], "missing --topology"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--engine", "spice"], "unknown engine"),
    (["traffic", "--topology", "mesh:4x4", "--rate", "-1", "--flits", "8"], "negative rate"),
    (["traffic", "--topology", "mesh:4x4", "--rate", "0.1", "--flits", "9-2"], "inverted length range"),
    (["traffic", "--topology", "mesh:4x4", "--rate", "0.1", "--flits", "8", "--sink-stall", "1.5"], "sink stall above 1"),
    (["traffic", "--topology", "mesh:4x4", "--flits", "8"], "traffic without --rate"),
    (["sweep", "--topology", "hypercube:4", "--algorithms", "pbcast,nosuch", "--flits", "4"], "sweep with an unknown algorithm"),
    (["sweep", "--topology", "hypercube:4", "--algorithms", "pbcast", "--flits", "4,0"], "sweep with flits 0"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--vcd", "/nonexistent/x.vcd"], "unwritable waveform"),
    (["run", "--topology", "mesh:3x3", "--algorithm", "mstcf", "--flits", "4"], "algorithm constraint (powers of two)"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--replication-cost", "256"], "replication cost 256"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--replication-cost", "-1"], "negative replication cost"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--replication-cost", "50", "--watchdog", "50"], "watchdog not longer than T_r"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--route-order", "up"], "bad route order"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--tree-order", ""], "empty tree order"),
    (["run", "--topology", "hypercube:4", "--algorithm", "irrunssf", "--flits", "4", "--route-order", "descending"], "an algorithm that needs e-cube routes"),
    (["run", "--topology", "mesh:4x4", "--algorithm", "sc1d", "--flits", "17", "--route-order", "descending"], "sc1d with YX routes"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--compare", "outputs"], "--compare without a cosimulation"),
    (["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "4", "--engine", "cosim", "--compare", "some"], "--compare with an unknown value"),
    (["frobnicate"], "unknown command"),
    ([], "no command"),
]
for args, what in bad:
    r = run(*args)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("wormcast: ") and r.stdout == "",
          "bad input (%s): exit 2 and one line on stderr: %s" % (what, lines[0] if lines else "(none)"))

# docs/config.md is generated from the options table: the committed file is what the
# program prints (regenerate: build/wormcast help --markdown docs/config.md).
r = run("help", "--markdown")
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "config.md")) as f:
    committed = f.read()
check(r.returncode == 0 and r.stdout == committed,
      "docs/config.md is 'wormcast help --markdown' (regenerate it after changing src/options.def)")
md = os.path.join(scratch_dir("wormcast-cli-"), "config.md")
r = run("help", "--markdown", md)
with open(md) as f:
    check(r.returncode == 0 and f.read() == committed, "wormcast help --markdown FILE writes the same page")

# A deadlock is a report and exit 1, not a hang: one-port routers share their single
# ejection channel, which IR copies hold (docs/microarchitecture.md section 8).  The
# report is the chain of blocked messages, read from the routers' state, closing into
# the cycle of the deadlock.
r = run("traffic", "--topology", "hypercube:4", "--one-port", "--rate", "0.3", "--flits", "1-24",
        "--cycles", "20000", "--ir-fraction", "0.3", "--seed", "4", "--watchdog", "2000")
check(r.returncode == 1 and "deadlock: no flit moved for 2000 cycles" in r.stderr
      and "blocked chain 1:" in r.stderr and "waits for output" in r.stderr and "held by" in r.stderr
      and "which has no credit" in r.stderr and "the cycle closes" in r.stderr
      and "missing: message" in r.stderr,
      "a deadlocked workload stops with the chain of blocked messages closing into a cycle, exit 1")

finish()
