#!/usr/bin/env python3
"""Functional coverage of router events (model/coverage.h, docs/verification.md).

usage: test_coverage.py WORMCAST {model|rtl}

  model  exact counts of a broadcast; a small case with known holes, merged with a run
         that fills them; unreachable bins reported as such; path broadcasts (hampath,
         traffic --path-fraction) hit only bins called reachable; bad coverage files
  rtl    the RTL's bins, measured from the RTL's registers, equal the model's: in a
         cosimulation (both counted in one run) and the RTL alone against the model
         alone on the same workload
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, run, scratch_dir  # noqa: E402

WC, MODE = sys.argv[1], sys.argv[2]
TMP = scratch_dir("wormcast-coverage-")


def wormcast(*args, expect_json=True):
    return run(WC, *args, expect_json=expect_json)


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc["groups"][0]


def counts(group):
    return {b["name"]: b["count"] for b in group["bins"]}


def path(name):
    return os.path.join(TMP, name)


def broadcast_counts(engine):
    """pbcast on Q_3 from node 0: every node's head granted once, in Jeon & Kim's tree."""
    out = path("pbcast-%s.json" % engine)
    r, j = wormcast("run", "--topology", "hypercube:3", "--algorithm", "pbcast", "--flits", "5",
                    "--engine", engine, "--coverage", out, "--json")
    g = load(out)
    c = counts(g)
    # The root replicates onto d0, d1, d2 (fanout 3); node T receives on dimension k
    # (the lowest set bit of T), forwards on d0..d(k-1) and delivers: fanout k + 1,
    # 2^(2-k) nodes each.  Levels: the number of nodes k hops away, C(3, k).
    expect = {"fanout 1": 4, "fanout 2": 2, "fanout 3": 2, "fanout 4": 0,
              "tree level 0": 1, "tree level 1": 3, "tree level 2": 3, "tree level 3": 1,
              "B inj0->d0": 1, "B inj0->d1": 1, "B inj0->d2": 1,
              "B d0->ej0": 4, "B d1->d0": 2, "B d1->ej1": 2, "B d2->d0": 1, "B d2->d1": 1,
              "B d2->ej2": 1, "port model all-port": 8, "arbitration held": 0,
              "ejection pair d0": 4, "ejection pair d1": 2, "ejection pair d2": 1}
    seen = {k: c.get(k) for k in expect}
    check(r.returncode == 0 and seen == expect and sum(v for k, v in c.items() if k.startswith("R ")) == 0,
          "%s: pbcast on Q_3 counts exactly the replication tree's bins: %s" % (engine, seen))
    return g


def holes_and_merge():
    # Q_2 with the NI's own channel choice (an R message's first hop, channel 0 for B):
    # an injection channel never sends to the other link, a B never starts on channel 1;
    # and without path broadcasts no B goes from d0 on to d1 (the tree forwards from d1
    # to d0 only; the Gray-code path S, S^1, S^3 turns from d0 to d1).
    a, b = path("a.json"), path("b.json")
    common = ["traffic", "--topology", "hypercube:2", "--rate", "0.4", "--flits", "1-8",
              "--cycles", "3000", "--ir-fraction", "0.3", "--b-fraction", "0.02", "--sink-stall",
              "0.3", "--startup", "1", "--json"]
    ra, _ = wormcast(*common, "--seed", "1", "--coverage", a)
    rb, _ = wormcast(*common, "--seed", "2", "--injection", "random", "--replication-cost", "2",
                     "--path-fraction", "0.5", "--coverage", b)
    ga, gb = load(a), load(b)
    known = {"R inj0->d1", "R inj1->d0", "B inj1->d0", "B inj1->d1", "B d0->d1"}
    check(ra.returncode == 0 and rb.returncode == 0 and set(ga["holes"]) == known,
          "the NI's own channel choice leaves exactly the known holes: %s" % ga["holes"])
    unreach = {x["name"]: x.get("why") for x in ga["bins"] if not x["reachable"]}
    check(unreach.get("hold charged") == "T_r = 0: no replication hold"
          and unreach.get("port model one-port") == "the routers are all-port"
          and "R d1->d0" in unreach and "fanout 4" in unreach and not (known & set(unreach)),
          "bins the configuration cannot reach are unreachable with a reason, not holes: %d of %d"
          % (len(unreach), len(ga["bins"])))
    r, _ = wormcast("coverage", a, expect_json=False)
    lines = r.stdout.splitlines()
    hole_lines = [l for l in lines if l.endswith("HOLE")]
    check(r.returncode == 0 and {l.split()[0] + " " + l.split()[1] for l in hole_lines} == known
          and any(l.strip().startswith("holes (5): ") for l in lines)
          and any("T_r = 0: no replication hold: hold charged, hold leaf, hold wait" in l for l in lines)
          and not any("hold charged" in l and "HOLE" in l for l in lines),
          "wormcast coverage lists the 5 holes and the unreachable bins by reason")
    merged = path("merged.json")
    r, j = wormcast("coverage", a, b, "--json", "--output", merged)
    with open(merged) as f:
        written = json.load(f)
    g = j["groups"][0] if j else {}
    ca, cb, cm = counts(ga), counts(gb), counts(g) if g else {}
    check(r.returncode == 0 and written == j and g.get("runs") == 2
          and len(g.get("configurations", [])) == 2
          and all(cm[k] == ca[k] + cb[k] for k in ca) and g.get("holes") == []
          and all(x["reachable"] for x in g["bins"] if x["name"].startswith("hold ")),
          "merged with a run of random channels and T_r = 2: counts add up (%d + %d = %d), "
          "the holes are filled, the hold bins become reachable, --output is --json's document"
          % (sum(ca.values()), sum(cb.values()), sum(cm.values())))


def path_broadcasts():
    # The path broadcast (B with IR, docs/microarchitecture.md section 8) forwards where
    # no replication tree does (Q_4: from d0 to a higher dimension; a mesh: turning at
    # the end of a row): the reachability analysis walks it too, so every bin it hits is
    # reachable, and random traffic sends it.
    only_path = {"hypercube:4": "B d0->d1", "mesh:4x3": "B N->W"}
    for topo, roots in (("hypercube:4", (0, 6)), ("mesh:4x3", (0, 5, 11))):
        for root in roots:
            out = path("hampath.json")
            r, _ = wormcast("run", "--topology", topo, "--algorithm", "hampath", "--flits", "3",
                            "--root", str(root), "--coverage", out, "--json")
            g = load(out)
            bad = [b["name"] for b in g["bins"] if b["count"] and not b["reachable"]]
            check(r.returncode == 0 and not bad and g["hit_bins"] > 0,
                  "hampath on %s from %d: every bin it hits is reachable (%d hit; unreachable "
                  "but hit: %s)" % (topo, root, g["hit_bins"], bad))
        hits = {}
        for fraction in ("0", "0.5"):
            out = path("traffic-path-%s.json" % fraction)
            r, j = wormcast("traffic", "--topology", topo, "--rate", "0.3", "--flits", "1-8",
                            "--cycles", "4000", "--b-fraction", "0.05", "--path-fraction",
                            fraction, "--seed", "3", "--coverage", out, "--json")
            g = load(out)
            bad = [b["name"] for b in g["bins"] if b["count"] and not b["reachable"]]
            hits[fraction] = counts(g).get(only_path[topo])
            check(r.returncode == 0 and j.get("delivered_ok") and j.get("path_fraction") == float(fraction)
                  and j.get("broadcasts", 0) >= 10 and not bad,
                  "traffic on %s --path-fraction %s: %s broadcasts delivered, every bin hit "
                  "reachable (%s)" % (topo, fraction, j.get("broadcasts"), bad))
        check(hits["0"] == 0 and (hits["0.5"] or 0) > 0,
              "%s: %s only with path broadcasts (%s without, %s with)"
              % (topo, only_path[topo], hits["0"], hits["0.5"]))
    r, _ = wormcast("traffic", "--topology", "ring:8", "--rate", "0.3", "--flits", "3",
                    "--b-fraction", "0.1", "--path-fraction", "0.5", expect_json=False)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "--path-fraction" in lines[0],
          "--path-fraction on a ring: exit 2, one line: %s" % (lines[0] if lines else "(none)"))


def bad_files():
    bad = path("bad.json")
    with open(bad, "w") as f:
        f.write("{\"format\": \"something else\"}\n")
    notjson = path("notjson.json")
    with open(notjson, "w") as f:
        f.write("hello\n")
    a = path("a.json")
    cases = [([], "no file"), ([bad], "another format"), ([notjson], "not JSON"),
             ([path("missing.json")], "a missing file"), ([a, "--output", a], "output over an input")]
    for args, what in cases:
        r, _ = wormcast("coverage", *args, expect_json=False)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and lines[0].startswith("wormcast: "),
              "coverage with %s: exit 2, one line: %s" % (what, lines[0] if lines else "(none)"))


def model_and_rtl():
    # Both counted in one run: the cosimulation fails if they differ.
    for topo, extra in (("hypercube:4", ["--replication-cost", "2"]),
                        ("mesh:5x3", ["--b-fraction", "0.03", "--path-fraction", "0.5"]),
                        ("hypercube:4", ["--one-port", "--ir-fraction", "0"])):
        out = path("cosim.json")
        r, j = wormcast("traffic", "--topology", topo, "--rate", "0.4", "--flits", "1-16",
                        "--cycles", "3000", "--ir-fraction", "0.3", "--b-fraction", "0.01",
                        "--sink-stall", "0.2", "--seed", "5", "--injection", "random", *extra,
                        "--engine", "cosim", "--coverage", out, "--json")
        g = load(out)
        check(r.returncode == 0 and j.get("mismatches") == 0 and "coverage_mismatch" not in j
              and g["measured_by"] == "model and rtl" and g["hit_bins"] > 0,
              "cosim %s %s: the model's and the RTL's counts agree (%d of %d reachable bins hit)"
              % (topo, " ".join(extra), g["hit_bins"], g["reachable_bins"]))
    # The RTL alone, from its own registers, against the model alone, with sink stalls:
    # every engine lists its ejections in node order, the order the stalls are drawn in
    # (docs/microarchitecture.md section 9).
    alone = {}
    for engine in ("model", "rtl"):
        out = path("alone-%s.json" % engine)
        r, _ = wormcast("traffic", "--topology", "mesh:4x4", "--rate", "0.4", "--flits", "1-16",
                        "--cycles", "3000", "--ir-fraction", "0.3", "--b-fraction", "0.01",
                        "--seed", "6", "--injection", "random", "--sink-stall", "0.2",
                        "--engine", engine, "--coverage", out, "--json")
        alone[engine] = (r.returncode, load(out))
    (rm, gm), (rr, gr) = alone["model"], alone["rtl"]
    check(rm == 0 and rr == 0 and counts(gm) == counts(gr) and gr["measured_by"] == "rtl"
          and sum(counts(gr).values()) > 10000,
          "mesh:4x4: the RTL alone counts every bin as the model alone does (%d events)"
          % sum(counts(gr).values()))
    broadcast_counts("cosim")


if MODE == "model":
    broadcast_counts("model")
    holes_and_merge()
    path_broadcasts()
    bad_files()
else:
    model_and_rtl()
finish()
