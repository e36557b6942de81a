#!/usr/bin/env python3
"""Coverage-directed random regression (docs/verification.md).

usage: scripts/coverage-regress.py [--engine cosim|model|rtl] [--runs N] [--cycles N]
                                   [--out DIR] [TOPOLOGY ...]

For every topology (default: hypercube:4 mesh:4x4 mesh:5x3) the random traffic
generator ('wormcast traffic') is run again and again, each run counting the
functional coverage of router events (--coverage FILE), until every bin that the
configurations of the topology can reach has been hit or N runs (default 16) are spent.
The first runs use the generator's plain settings; after each run the holes left (the
reachable bins with a count of 0) decide the next run's configuration and knobs:

  a hole only one configuration reaches        that configuration (one-port, T_r = 2)
  R inj*->* / B inj*->*                        --injection random (every channel)
  stall ejection                               --sink-stall 0.5 (full NI buffers)
  stall link, arbitration, ejection concurrent higher --rate
  back-to-back                                 --startup 1, short messages, higher rate
  ir ...                                       --ir-fraction 0.5 (all-port only)
  B pairs, fanout, tree level, hold            --b-fraction 0.05
  B pairs                                      --path-fraction 0.5 (half of them path
                                               broadcasts: the pairs only a path takes)

Every run is a cosimulation by default, so every bin is measured from the RTL's own
registers and checked against the model's counts (every configuration's RTL is built
on its first use: cosim/rtl_cache.h).  The merged coverage of each topology
is written to DIR/TOPOLOGY.json (default DIR: build/coverage-regress) and printed with
'wormcast coverage'.  Exit status 0 iff every reachable bin of every topology was hit
and every run passed.
"""
import argparse
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WC = os.environ.get("WORMCAST", os.path.join(TOP, "build", "wormcast"))

# The configurations of a topology whose union reaches every bin: all-port, all-port
# with a replication cost (the hold bins), one-port (its shared ejection channel).
CONFIGS = {
    "all-port": [],
    "all-port T_r 2": ["--replication-cost", "2"],
    "one-port": ["--one-port"],
}

# The generator's plain settings, where every topology starts.
PLAIN = {"rate": 0.2, "flits": "1-16", "ir": 0.0, "b": 0.002, "path": 0.0, "sink": 0.0,
         "startup": 10, "injection": "first-hop"}


def wormcast(*args):
    return subprocess.run([WC, *args], capture_output=True, text=True)


def holes_of(path):
    with open(path) as f:
        g = json.load(f)["groups"][0]
    return set(g["holes"]), {b["name"] for b in g["bins"] if b["reachable"]}


def steer(knobs, holes, config):
    """The next run's knobs, from the holes left."""
    k = dict(knobs)
    for h in holes:
        if h.startswith(("R inj", "B inj")):
            k["injection"] = "random"
        if h == "stall ejection":
            k["sink"] = 0.5
        if h in ("stall link", "arbitration held", "arbitration lost", "ejection concurrent"):
            k["rate"] = min(0.8, k["rate"] + 0.2)
        if h == "back-to-back":
            k["startup"], k["flits"] = 1, "1-4"
            k["rate"] = min(0.8, k["rate"] + 0.2)
        if h.startswith("ir ") and config != "one-port":
            k["ir"] = 0.5
        if h.startswith(("B ", "fanout", "tree level", "hold")):
            k["b"] = 0.05
        if h.startswith("B "):
            k["path"] = 0.5
    return k


def run_one(topo, config, knobs, seed, cycles, engine, out):
    ir = knobs["ir"] if config != "one-port" else 0.0  # IR deadlocks one-port routers
    args = ["traffic", "--topology", topo, *CONFIGS[config], "--rate", str(knobs["rate"]),
            "--flits", knobs["flits"], "--cycles", str(cycles), "--ir-fraction", str(ir),
            "--b-fraction", str(knobs["b"]), "--path-fraction", str(knobs["path"]),
            "--sink-stall", str(knobs["sink"]),
            "--startup", str(knobs["startup"]), "--injection", knobs["injection"],
            "--seed", str(seed), "--engine", engine, "--coverage", out, "--json"]
    r = wormcast(*args)
    return r.returncode, " ".join(args), r.stderr.strip()


def regress(topo, args):
    base = os.path.join(args.out, topo.replace(":", "-"))
    os.makedirs(base, exist_ok=True)
    files, reach_of, hit = [], {}, set()
    knobs = {c: dict(PLAIN) for c in CONFIGS}
    order = list(CONFIGS)  # every configuration once, then where the holes are
    failed = 0
    print("== %s" % topo)
    print("%4s  %-15s %-71s %5s %5s" % ("run", "configuration", "knobs", "new", "holes"))
    holes = None
    for n in range(args.runs):
        if n < len(order):
            config = order[n]
        else:
            # The configuration that reaches the most holes.
            config = max(CONFIGS, key=lambda c: len(holes & reach_of.get(c, set())))
        if holes is not None:
            knobs[config] = steer(knobs[config], holes & reach_of.get(config, holes), config)
        out = os.path.join(base, "run%02d.json" % n)
        rc, cmd, err = run_one(topo, config, knobs[config], 1000 + n, args.cycles, args.engine, out)
        if rc != 0 or not os.path.exists(out):
            failed += 1
            print("run %d FAILED (exit %d): %s\n  %s" % (n, rc, cmd, err))
            continue
        files.append(out)
        with open(out) as f:
            g = json.load(f)["groups"][0]
        reach_of[config] = reach_of.get(config, set()) | {b["name"] for b in g["bins"] if b["reachable"]}
        new = {b["name"] for b in g["bins"] if b["count"] > 0} - hit
        hit |= new
        merged = os.path.join(args.out, topo.replace(":", "-") + ".json")
        r = wormcast("coverage", *files, "--output", merged, "--json")
        holes, _ = holes_of(merged)
        k = knobs[config]
        desc = "rate %.1f flits %s ir %.1f b %.3f path %.1f sink %.1f t_s %d inj %s" % (
            k["rate"], k["flits"], k["ir"] if config != "one-port" else 0, k["b"], k["path"],
            k["sink"], k["startup"], k["injection"])
        print("%4d  %-15s %-71s %5d %5d" % (n, config, desc, len(new), len(holes)))
        if not holes and n + 1 >= len(order):
            break
    r = wormcast("coverage", *files)
    print(r.stdout, end="")
    return failed == 0 and not holes and r.returncode == 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("topologies", nargs="*", default=["hypercube:4", "mesh:4x4", "mesh:5x3"])
    p.add_argument("--engine", default="cosim", choices=["cosim", "model", "rtl"])
    p.add_argument("--runs", type=int, default=16)
    p.add_argument("--cycles", type=int, default=4000)
    p.add_argument("--out", default=os.path.join(TOP, "build", "coverage-regress"))
    args = p.parse_args()
    ok = True
    for topo in args.topologies:
        ok = regress(topo, args) and ok
    print("coverage regression: %s" % ("every reachable bin hit" if ok else "HOLES LEFT or runs failed"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
