#!/usr/bin/env python3
"""Write the example trace traces/hotspot-mesh8x8.tr (docs/traces.md format), the one
whose latencies docs/results.md shows as a histogram.

usage: scripts/make-trace.py > traces/hotspot-mesh8x8.tr

On an 8 x 8 mesh (node = row * 8 + col), for 4,000 cycles: uniform background traffic
of 4-flit unicasts (every node, with probability 0.01 per cycle), a hot spot (node 27
receives a 16-flit message from a random node with probability 0.05 per cycle, a
third of them with intermediate reception), and a broadcast of 32 flits every 1,000
cycles.  Seeded: the same file every time.
"""
import random

NODES, COLS, CYCLES, HOT = 64, 8, 4000, 27
rng = random.Random(2001)
print("# Hot-spot traffic on mesh:8x8 (nodes 0..63, node = row * 8 + col), made by")
print("# scripts/make-trace.py: uniform 4-flit unicasts, 16-flit messages to node 27")
print("# (a third with IR), a 32-flit broadcast every 1000 cycles.")
print("#   wormcast trace --topology mesh:8x8 --trace traces/hotspot-mesh8x8.tr")
print("# cycle source type dest flits")
for cycle in range(CYCLES):
    if cycle and cycle % 1000 == 0:
        print("%d %d B 32" % (cycle, rng.randrange(NODES)))
    for src in range(NODES):
        if rng.random() < 0.01:
            dst = rng.randrange(NODES - 1)
            dst += dst >= src
            print("%d %d R %d 4" % (cycle, src, dst))
    if rng.random() < 0.05:
        src = rng.randrange(NODES - 1)
        src += src >= HOT
        print("%d %d R %d 16%s" % (cycle, src, HOT, " ir" if rng.random() < 1 / 3 else ""))
