#!/usr/bin/env python3
"""Build time, cosimulation speed and memory of the RTL engines by network size
(docs/performance.md, "Networks of every size").

usage: scripts/bench-rtl-sizes.py [--scale F] [NETWORK...]

For each network (default: hypercube:4 hypercube:6 hypercube:8 hypercube:10 mesh:8x8
mesh:16x16) in a cache of its own, so that the build is timed:
  1. the first cosimulation builds the configuration (router array, all-port, depth 4,
     payload width 32): its build time is the cache's build_seconds (wall), and the
     processor time of that run (user + system, Verilator and the compilers included),
     which a busy machine inflates less;
  2. a second, cached cosimulation under uniform random traffic (8-flit messages at 0.1
     flits/node/cycle, seed 1, every register compared) gives cycles/s, router-cycles/s
     (from the run's wall_seconds, set-up excluded) and the process's peak RSS
     (/usr/bin/time), with the mismatches (must be 0); and router-cycles per second of
     processor time ("cpu"): the run's user + system time less that of a 10-cycle run
     (the set-up), which a busy machine inflates less than the wall time.
The number of cycles per network is its default below times --scale.
WORMCAST=path uses that binary (default build/wormcast, built by scripts/build.sh).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# network -> (routers, cycles of the timed run)
NETWORKS = {"hypercube:4": (16, 20000), "hypercube:6": (64, 20000), "hypercube:8": (256, 5000),
            "hypercube:10": (1024, 1000), "mesh:8x8": (64, 20000), "mesh:16x16": (256, 5000)}


def main():
    args = sys.argv[1:]
    scale = 1.0
    if args[:1] == ["--scale"]:
        scale, args = float(args[1]), args[2:]
    nets = args or list(NETWORKS)
    for n in nets:
        if n not in NETWORKS:
            sys.exit("bench-rtl-sizes.py: unknown network '%s' (one of %s)" % (n, ", ".join(NETWORKS)))
    wc = os.environ.get("WORMCAST")
    if not wc:
        subprocess.run([os.path.join(TOP, "scripts", "build.sh")], check=True)
        wc = os.path.join(TOP, "build", "wormcast")
    print("%-13s %7s %8s %9s %8s %10s %16s %16s %8s %10s"
          % ("network", "routers", "build s", "build cpu", "cycles", "cycles/s", "router-cycles/s",
             "r-cycles/cpu-s", "peak MB", "mismatches"))
    for n in nets:
        routers, cycles = NETWORKS[n]
        cycles = max(100, int(cycles * scale))
        cache = tempfile.mkdtemp(prefix="wormcast-bench-")
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        traffic = [wc, "traffic", "--topology", n, "--rate", "0.1", "--flits", "8", "--seed", "1",
                   "--engine", "cosim", "--json"]
        try:
            cpu = os.path.join(cache, "cpu")
            first = subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", cpu, *traffic, "--cycles", "10"],
                                   env=env, capture_output=True, text=True)
            if first.returncode:
                sys.exit("bench-rtl-sizes.py: %s: the first run failed: %s" % (n, first.stderr.strip()))
            with open(cpu) as f:
                build_cpu = sum(float(x) for x in f.read().split()[-2:])
            c = subprocess.run([wc, "cache", "--json"], env=env, capture_output=True, text=True, check=True)
            build = json.loads(c.stdout)["rtl_cache"]["builds"][0]["build_seconds"]
            subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", cpu, *traffic, "--cycles", "10"],
                           env=env, capture_output=True, text=True, check=True)
            with open(cpu) as f:
                setup_cpu = sum(float(x) for x in f.read().split()[-2:])
            rss = os.path.join(cache, "rss")
            r = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rss, *traffic, "--cycles", str(cycles)],
                               env=env, capture_output=True, text=True)
            j = json.loads(r.stdout)
            with open(rss) as f:
                m = f.read().split()[-3:]
            peak_mb = int(m[0]) / 1024.0
            loop_cpu = max(1e-3, float(m[1]) + float(m[2]) - setup_cpu)
            cps = j["cycles_per_second"]
            print("%-13s %7d %8.1f %9.1f %8d %10.0f %16.0f %16.0f %8.1f %10s"
                  % (n, routers, build, build_cpu, j["cycles_simulated"], cps, cps * routers,
                     j["cycles_simulated"] * routers / loop_cpu, peak_mb, j["mismatches"]), flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)


main()
