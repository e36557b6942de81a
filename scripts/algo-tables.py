#!/usr/bin/env python3
"""Print the measured / predicted / published / lower-bound table of every algorithm in
the catalogue, as Markdown, for docs/algorithms.md.

usage: scripts/algo-tables.py [WORMCAST]      (default build/wormcast)

Each algorithm runs on the first three networks of NETWORKS that it supports, with t_s = 10
and L = 5 and 17; the columns are wormcast's JSON fields.  The catalogue itself comes from
`wormcast list --json`, so a new algorithm gets its table without a change here.
"""
import json
import subprocess
import sys

WC = sys.argv[1] if len(sys.argv) > 1 else "build/wormcast"
NETWORKS = ["hypercube:3", "hypercube:6", "mesh:4x4", "mesh:5x3", "mesh:1x8", "mesh:8x8"]
LENGTHS = [5, 17]


def wormcast(*args):
    r = subprocess.run([WC, *args], capture_output=True, text=True, timeout=600)
    return r.returncode, (json.loads(r.stdout) if r.stdout.strip().startswith("{") else {})


def fmt(v):
    if v is None:
        return "-"
    return "%g" % v if isinstance(v, float) and v != int(v) else "%d" % v


def main():
    _, cat = wormcast("list", "--json")
    for a in cat["algorithms"]:
        rows, nets = [], 0
        for net in NETWORKS:
            kind = net.split(":")[0]
            if kind not in a["topologies"] or nets == 3:
                continue
            nets += 1
            for L in LENGTHS:
                rc, j = wormcast("run", "--topology", net, "--algorithm", a["name"], "--flits",
                                 str(L), "--startup", "10", "--json")
                if not j or not j.get("data_ok"):
                    nets -= L == LENGTHS[0]
                    break   # not supported here: the next network
                rows.append("| %s | %d | %s | %s%s | %s | %s | %s | %s | %s |" % (
                    net, L, fmt(j["cycles"]), fmt(j["predicted_cycles"]),
                    "" if j["formula_exact"] else " (est.)", fmt(j.get("published_cycles")),
                    fmt(j.get("schedule_cycles")), fmt(j.get("lower_bound_cycles")),
                    fmt(round(j["bound_ratio"], 2)) if j.get("bound_ratio") else "-",
                    fmt(j.get("link_conflict_cycles"))))
        print("`%s` (%s, %s; prediction: %s):\n" % (a["name"], a["kind"], a["port_mode"],
                                                     a["formula_source"]))
        print("| network | L | measured | predicted | published | schedule | bound | measured/bound | conflicts |")
        print("|---|---|---|---|---|---|---|---|---|")
        print("\n".join(rows) + "\n")


main()
