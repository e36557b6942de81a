#!/usr/bin/env python3
"""Run every algorithm that applies to a network, on the model and through the cosim.

usage: every-algorithm.py WORMCAST TOPOLOGY... [--engine E]... [--flits L]... [--startup T]
                          [--all-apply]

The algorithms are those of `WORMCAST list --json` (the one algorithm table,
algos/registry.c) whose topologies include the network's kind: nothing is listed here by
hand.  Every one is run with every --flits L (default 5; 5 suits aabham2's even L - 1)
and every --engine (default model and cosim), one-to-all algorithms and reductions from
two roots (0 and a node in the middle).  A run passes when it exits 0 with every
node's data intact and everything delivered, measures the predicted cycles exactly where
the formula is exact, and, on an engine that compares, compared cycles with zero
mismatches.  A run an algorithm's constraints refuse (exit 2, e.g. aabham2 with an odd
L - 1, binexch on a side that is not a power of two) is listed as refused; an algorithm
the table lists for the kind that runs with none of the given lengths does not apply to
that network, and with --all-apply that is a failure (the done-when check: on
torus:8x8 and ring:16 every listed algorithm must run).

One line per run (measured, predicted, lower bound, conflict cycles, mismatches) and a
summary; exit 0 if every run passed, 1 otherwise, 2 on bad arguments.  The RTL of each
configuration is built on its first use (one per topology and port model).

The issue-12 done-when check (docs/algorithms.md#aas-on-tori):
    scripts/every-algorithm.py build/wormcast torus:8x8 ring:16 --all-apply
The test suite runs it on torus:4x4 and ring:8 (tests/CMakeLists.txt, every_algorithm).
"""
import argparse
import json
import subprocess
import sys
import time


def topology_kind(topo):
    return topo.split(":", 1)[0]


def topology_nodes(topo):
    kind, size = topo.split(":", 1)
    if kind == "hypercube":
        return 2 ** int(size)
    if kind == "ring":
        return int(size)
    r, c = size.split("x")
    return int(r) * int(c)


def run_one(wc, topo, algo, flits, root, engine, startup):
    args = [wc, "run", "--topology", topo, "--algorithm", algo["name"], "--flits", str(flits),
            "--startup", str(startup), "--engine", engine, "--json"]
    if root is not None:
        args += ["--root", str(root)]
    t0 = time.time()
    r = subprocess.run(args, capture_output=True, text=True)
    secs = time.time() - t0
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {}
    if r.returncode == 2 and not j:
        return None, [r.stderr.strip()], secs
    why = []
    if r.returncode != 0:
        why.append("exit %d: %s" % (r.returncode, (r.stderr.strip() or "no message")[-300:]))
    if not j.get("data_ok"):
        why.append("data not ok")
    if not j.get("delivered_ok"):
        why.append("not everything delivered")
    if j.get("formula_exact") and j.get("cycles") != j.get("predicted_cycles"):
        why.append("measured %s != exact prediction %s" % (j.get("cycles"), j.get("predicted_cycles")))
    if engine != "model" and not (j.get("cycles_compared") or 0) > 0:
        why.append("no cycle compared")
    if engine != "model" and j.get("mismatches") != 0:
        why.append("%s mismatches: %s" % (j.get("mismatches"), j.get("first_mismatch", "")))
    return j, why, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("wormcast")
    ap.add_argument("topologies", nargs="+", metavar="TOPOLOGY")
    ap.add_argument("--engine", action="append", dest="engines")
    ap.add_argument("--flits", action="append", type=int)
    ap.add_argument("--startup", type=int, default=10)
    ap.add_argument("--all-apply", action="store_true",
                    help="an algorithm listed for the kind that never runs is a failure")
    a = ap.parse_args()
    engines = a.engines or ["model", "cosim"]
    flits_list = a.flits or [5]

    listing = subprocess.run([a.wormcast, "list", "--json"], capture_output=True, text=True)
    if listing.returncode != 0:
        print("every-algorithm: %s list --json failed: %s" % (a.wormcast, listing.stderr.strip()),
              file=sys.stderr)
        return 2
    table = json.loads(listing.stdout)["algorithms"]
    runs = failed = refused = 0
    for topo in a.topologies:
        kind = topology_kind(topo)
        algos = [al for al in table if kind in al["topologies"]]
        if not algos:
            print("every-algorithm: no algorithm lists the topology kind of %s" % topo, file=sys.stderr)
            return 2
        n = topology_nodes(topo)
        print("%s: %d algorithms apply: %s" % (topo, len(algos), " ".join(al["name"] for al in algos)))
        for engine in engines:
            for al in algos:
                roots = [0, n // 2 + 1] if al["kind"] in ("one-to-all", "reduction") else [None]
                ran = False
                for flits in flits_list:
                    for root in roots:
                        j, why, secs = run_one(a.wormcast, topo, al, flits, root, engine, a.startup)
                        if j is None:
                            refused += 1
                            print("  n/a    %-5s %-13s %-9s L=%-3d refused: %s"
                                  % (engine, al["name"], al["port_mode"], flits, why[0]))
                            continue
                        ran = True
                        runs += 1
                        failed += bool(why)
                        print("  %-6s %-5s %-13s %-9s L=%-3d root %-4s %6s cycles, predicted %s%s, "
                              "bound %s, %s conflict cycles, %s mismatches in %s cycles (%.1f s)%s"
                              % ("FAIL" if why else "ok", engine, al["name"], al["port_mode"], flits,
                                 "-" if root is None else root, j.get("cycles"),
                                 j.get("predicted_cycles"), "" if j.get("formula_exact") else " (est.)",
                                 j.get("lower_bound_cycles"), j.get("link_conflict_cycles"),
                                 j.get("mismatches"), j.get("cycles_compared"), secs,
                                 "".join("\n         " + w for w in why)))
                        sys.stdout.flush()
                if not ran:
                    failed += a.all_apply
                    print("  %-6s %-5s %-13s refused every length given: it does not apply to %s"
                          % ("FAIL" if a.all_apply else "n/a", engine, al["name"], topo))
    print("every-algorithm: %d runs, %d failed, %d refused by an algorithm's constraints"
          % (runs, failed, refused))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
