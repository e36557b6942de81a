#!/usr/bin/env python3
"""The RTL's assertions (rtl/wc_assert.vh) bite: a broken contract or an injected bug
stops the simulation with the assertion's name and a failure exit status, under Icarus
and in the Verilated cosimulation, while clean runs pass (rtl_icarus, cosim_*).

usage: test_rtl_assertions.py ROOT [WORMCAST]    (WORMCAST: a build with the RTL)
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, run, scratch_dir  # noqa: E402

ROOT = sys.argv[1]
WC = sys.argv[2] if len(sys.argv) > 2 else None
TMP = scratch_dir("wormcast-assertions-")


def icarus(top, sources, params=()):
    """Compile and run a testbench; returns (vvp exit status, output)."""
    with tempfile.TemporaryDirectory() as tmp:
        vvp = os.path.join(tmp, "tb.vvp")
        c = subprocess.run(["iverilog", "-g2005", "-Wall", "-I", "rtl", "-s", top, "-o", vvp,
                            *["-P%s.%s" % (top, p) for p in params], *sources],
                           cwd=ROOT, capture_output=True, text=True)
        if c.returncode or c.stderr:
            return -1, c.stdout + c.stderr
        r = subprocess.run(["vvp", "-n", vvp], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
        return r.returncode, r.stdout + r.stderr


def fatal_line(out):
    return next((l for l in out.splitlines() if l.startswith("FATAL:")), "")


# A FIFO used against its contract, alone.
for misuse, name in ((0, "push_not_full"), (1, "pop_not_empty")):
    rc, out = icarus("tb_fifo_misuse", ["rtl/wc_fifo.v", "tests/rtl/tb_fifo_misuse.v"],
                     ["Misuse=%d" % misuse])
    line = fatal_line(out)
    check(rc == 1 and ("dut.%s failed" % name) in line and "NOT CAUGHT" not in out,
          "Icarus: wc_fifo %s: exit %d, %s" % (name, rc, line or out.strip()[-200:]))

# Injected bugs in the router network of the directed testbench.
tb = ["rtl/wc_router.v", "rtl/wc_fifo.v", "rtl/wc_route.v", "rtl/wc_hypercube.v",
      "rtl/wc_mesh.v", "tests/rtl/tb_router_directed.v"]
for bug, names in ((5, ("credits_in_range",)),
                   (6, ("granted_outputs_free", "one_sender_per_output", "one_owner_per_output"))):
    rc, out = icarus("tb_router_directed", tb, ["InjectBug=%d" % bug])
    line = fatal_line(out)
    check(rc == 1 and any("%s failed" % n in line for n in names) and "TB RESULT: PASS" not in out,
          "Icarus: injected bug %d trips an assertion: exit %d, %s" % (bug, rc, line or out[-200:]))

if WC:
    # The Verilated RTL, with --assert: the engine stops the run at the failing cycle.
    base = ["traffic", "--topology", "hypercube:4", "--rate", "0.6", "--flits", "1-24",
            "--cycles", "3000", "--ir-fraction", "0.5", "--sink-stall", "0.3", "--seed", "7",
            "--json"]
    for engine in ("cosim", "rtl"):
        window = ["--mismatch-vcd", os.path.join(TMP, "bug5.vcd")] if engine == "cosim" else []
        r, j = run(WC, *base, "--engine", engine, "--inject-bug", "5", *window)
        asserted = [l for l in r.stderr.splitlines() if "%Error" in l and "Assertion failed in" in l]
        check(r.returncode == 1 and j.get("error", "").startswith("RTL assertion failed in cycle 0")
              and asserted and "gen_node[0].wc_router.gen_assert_out[0].gen_bound.credits_in_range" in asserted[0]
              and "above BufferDepth" in asserted[0] and not r.stdout.count("Assertion"),
              "--engine %s, bug 5: exit %d, %s; stderr: %s"
              % (engine, r.returncode, j.get("error"), asserted[0] if asserted else r.stderr[-300:]))
        # Only the first failing router is reported (its 8 outputs), not all 16.
        check(len(asserted) <= 8, "--engine %s, bug 5: %d assertion lines" % (engine, len(asserted)))
    r, j = run(WC, "run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "9",
               "--engine", "cosim", "--inject-bug", "5", "--mismatch-vcd",
               os.path.join(TMP, "run.vcd"), expect_json=False)
    check(r.returncode == 1 and "wormcast: " in r.stderr and "RTL assertion failed in cycle 0" in r.stderr,
          "run --engine cosim, bug 5: exit %d, %s" % (r.returncode, r.stderr.strip().splitlines()[-1:]))

shutil.rmtree(TMP)
finish()
