#!/usr/bin/env python3
"""The measuring half of scripts/bench-model.sh (which builds and calls it).

For every workload: the whole process timed from start to exit (set-up, driver,
checker and JSON output included), best of RUNS; its peak RSS (wait4's ru_maxrss);
with --baseline, the baseline binary timed in the same loop, interleaved with ours,
and the speed-up = baseline's best time / our best time.  Instructions per
flit-hop: valgrind --tool=callgrind over a whole run of a smaller instance of the
workload (the instance named in the table), total Ir / flit_hops of its JSON.

--scaling instead prints how the cost grows with the network's size and the
message's length (issue 15): the SCALING table below, one row per run, as a
markdown table; the instructions per flit-hop of the run itself wherever it has
at most CALLGRIND_MAX_HOPS flit-hops (callgrind runs the model ~20x slower), its
wall time (best of RUNS) and peak RSS everywhere.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import time

# name, arguments, the smaller instance callgrind counts (or None)
WORKLOADS = [
    ("pbcast Q_10, L = 4096",
     "run --topology hypercube:10 --algorithm pbcast --flits 4096",
     "run --topology hypercube:10 --algorithm pbcast --flits 1024"),
    ("pbcast Q_12, L = 4096",
     "run --topology hypercube:12 --algorithm pbcast --flits 4096", None),
    ("direx Q_10, L = 8",
     "run --topology hypercube:10 --algorithm direx --flits 8",
     "run --topology hypercube:8 --algorithm direx --flits 8"),
    ("direx Q_12, L = 8",
     "run --topology hypercube:12 --algorithm direx --flits 8", None),
    ("uniform 8x8, 0.1, 400,000 cycles",
     "traffic --topology mesh:8x8 --rate 0.1 --flits 8 --cycles 400000 --seed 1",
     "traffic --topology mesh:8x8 --rate 0.1 --flits 8 --cycles 30000 --seed 1"),
    ("uniform 8x8, 0.3, 100,000 cycles",
     "traffic --topology mesh:8x8 --rate 0.3 --flits 8 --cycles 100000 --seed 1", None),
    ("uniform 32x32, 0.1, 10,000 cycles",
     "traffic --topology mesh:32x32 --rate 0.1 --flits 8 --cycles 10000 --seed 1", None),
    ("uniform 32x32, 0.3, 5,000 cycles",
     "traffic --topology mesh:32x32 --rate 0.3 --flits 8 --cycles 5000 --seed 1", None),
    ("broadcast mix Q_8 (b 0.05), 20,000 cycles",
     "traffic --topology hypercube:8 --rate 0.1 --flits 8 --b-fraction 0.05 --cycles 20000 --seed 1",
     None),
    ("uniform torus 8x8, 0.1, 200,000 cycles",
     "traffic --topology torus:8x8 --rate 0.1 --flits 8 --cycles 200000 --seed 1", None),
    ("trace of 800,000 messages, Q_6",
     "trace --topology hypercube:6 --trace {trace}", None),
]

# How cost grows (--scaling): the broadcast and the exchange on Q_6..Q_12 with the
# issue's message lengths, the broadcast's message length on Q_8, uniform traffic on
# 8x8..64x64.  The traffic's load, 0.02 flits per node and cycle, leaves 64x64 below
# saturation (0.05 does not: its mean latency grows from 172 to 445 cycles between
# 1,000 and 4,000 cycles; at 0.02 it stays at 65), and every mesh is offered the same
# flits (cycles x nodes = 4,096,000).
SCALING = (
    [(f"pbcast Q_{n}, L = 4096",
      f"run --topology hypercube:{n} --algorithm pbcast --flits 4096") for n in (6, 8, 10, 12)] +
    [(f"pbcast Q_8, L = {l}",
      f"run --topology hypercube:8 --algorithm pbcast --flits {l}") for l in (16, 64, 256, 1024)] +
    [(f"direx Q_{n}, L = 8",
      f"run --topology hypercube:{n} --algorithm direx --flits 8") for n in (6, 8, 10, 12)] +
    [(f"uniform {k}x{k}, 0.02, {4096000 // (k * k):,} cycles",
      f"traffic --topology mesh:{k}x{k} --rate 0.02 --flits 8 "
      f"--cycles {4096000 // (k * k)} --seed 1") for k in (8, 16, 32, 64)])

# Callgrind on more would take minutes a row: direx Q_10 (42 M flit-hops) takes
# about 40 s, direx Q_12 (805 M) would take about 12 minutes.
CALLGRIND_MAX_HOPS = 50_000_000


def run(binary, args, out_path):
    """One whole process: (wall seconds, peak RSS in KiB, its JSON)."""
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 2)
        out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        try:
            os.execv(binary, [binary] + args + ["--json"])
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    secs = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code == 2:
        return None  # bad input: an older baseline without this option or topology
    if code != 0:
        sys.exit(f"bench-model: {binary} {' '.join(args)}: exit {code}")
    with open(out_path) as f:
        out = json.load(f)
    return secs, ru.ru_maxrss, out


def callgrind(binary, args, tmp):
    """Instructions per flit-hop of a whole run, and the flit-hops."""
    cg = os.path.join(tmp, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
                        binary] + args + ["--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=True)
    hops = json.loads(p.stdout)["flit_hops"]
    with open(cg) as f:
        total = next(int(line.split()[1]) for line in f
                     if line.startswith(("summary:", "totals:")))
    os.unlink(cg)
    return total / hops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wormcast", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--baseline")
    ap.add_argument("--baseline-name", default="baseline")
    ap.add_argument("--only")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--scaling", action="store_true")
    o = ap.parse_args()
    runs = int(os.environ.get("RUNS", "3"))
    out_path = os.path.join(o.tmp, "out.json")
    if o.scaling:
        scaling(o, runs, out_path)
        return

    trace = os.path.join(o.tmp, "bench.tr")
    # 800,000 unicasts of 4 flits on Q_6, all due at cycle 0: many messages in flight.
    rnd = random.Random(1)
    with open(trace, "w") as f:
        for _ in range(800000):
            s = rnd.randrange(64)
            d = rnd.randrange(63)
            f.write(f"0 {s} R {d + (d >= s)} 4\n")

    bins = [("ours", o.wormcast)]
    if o.baseline:
        bins.append((o.baseline_name, o.baseline))
    rows = []
    for name, args, cg_args in WORKLOADS:
        if o.only and not re.search(o.only, name):
            continue
        argv = args.format(trace=trace).split()
        best = {}
        rss = {}
        out = {}
        for _ in range(runs):
            # Interleaved: a burst of load on the machine hits both alike.
            for label, binary in bins:
                r = run(binary, argv, out_path)
                if r is None:
                    if label == "ours":
                        sys.exit(f"bench-model: {' '.join(argv)}: refused (exit 2)")
                    continue
                secs, kib, js = r
                if label not in best or secs < best[label]:
                    best[label] = secs
                rss[label] = max(rss.get(label, 0), kib)
                out[label] = js
        js = out["ours"]
        cyc = js.get("cycles_simulated", js.get("cycles", 0))
        hops = js.get("flit_hops", 0)
        secs = best["ours"]
        line = (f"{name:42s} {cyc:>9d} cyc {hops:>11d} hops {secs:8.3f} s "
                f"{cyc / secs:>11,.0f} cyc/s {hops / secs / 1e6:7.1f} M hops/s "
                f"{rss['ours'] / 1024:8.1f} MB")
        if o.baseline and o.baseline_name not in out:
            line += f" | {o.baseline_name}: cannot run it"
        elif o.baseline:
            b = out[o.baseline_name]
            same = (b.get("flit_hops") == hops and
                    b.get("cycles_simulated", b.get("cycles")) == cyc)
            line += (f" | {o.baseline_name}: {best[o.baseline_name]:8.3f} s "
                     f"{rss[o.baseline_name] / 1024:8.1f} MB  speed-up "
                     f"{best[o.baseline_name] / secs:5.2f}x"
                     f"{'' if same else '  RESULTS DIFFER'}")
        line += f"  ok={js.get('delivered_ok')}"
        print(line, flush=True)
        rows.append((name, cg_args))

    if o.no_callgrind:
        return
    print("\ninstructions per flit-hop (valgrind --tool=callgrind, whole process):")
    for name, cg_args in rows:
        if not cg_args:
            continue
        line = f"  {cg_args:80s} {callgrind(o.wormcast, cg_args.split(), o.tmp):7.1f}"
        if o.baseline:
            line += (f"   {o.baseline_name}: "
                     f"{callgrind(o.baseline, cg_args.split(), o.tmp):7.1f}")
        print(line, flush=True)


def best_run(binary, argv, runs, out_path):
    """Best wall time of RUNS whole processes, their largest peak RSS, the JSON."""
    secs, kib = float("inf"), 0
    for _ in range(runs):
        r = run(binary, argv, out_path)
        if r is None:
            sys.exit(f"bench-model: {' '.join(argv)}: refused (exit 2)")
        secs, kib, js = min(secs, r[0]), max(kib, r[1]), r[2]
    return secs, kib, js


def scaling(o, runs, out_path):
    """The SCALING table as markdown, a row as soon as it is measured."""
    print("| workload | cycles | flit-hops | instructions per flit-hop | wall s "
          "| M flit-hops/s | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|", flush=True)
    for name, args in SCALING:
        if o.only and not re.search(o.only, name):
            continue
        argv = args.split()
        secs, kib, js = best_run(o.wormcast, argv, runs, out_path)
        cyc = js.get("cycles_simulated", js.get("cycles", 0))
        hops = js["flit_hops"]
        ipf = "-"
        if not o.no_callgrind and hops <= CALLGRIND_MAX_HOPS:
            ipf = f"{callgrind(o.wormcast, argv, o.tmp):.1f}"
        print(f"| {name} | {cyc:,} | {hops:,} | {ipf} | {secs:.3f} "
              f"| {hops / secs / 1e6:.1f} | {kib / 1024:.1f} |", flush=True)


if __name__ == "__main__":
    main()
