#!/usr/bin/env python3
"""The cache of RTL builds (cosim/rtl_cache.h): a configuration is built on its first
run and found again, the key follows what changes the build, concurrent first use
builds once, and a failed or killed build leaves nothing behind.

usage: test_rtl_cache.py WORMCAST RTL_DIR

Runs in a cache of its own (XDG_CACHE_HOME in a temporary directory), so that it can
count what was built; the configurations are small hypercubes (a build of a few seconds).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch_dir  # noqa: E402

WC, RTL = sys.argv[1], sys.argv[2]
HOME = scratch_dir("wormcast-cache-test-")
ROOT = os.path.join(HOME, "wormcast", "rtl")
BUILDING = "wormcast: building the RTL of "


def env(**extra):
    e = dict(os.environ, XDG_CACHE_HOME=HOME)
    for k in ("WORMCAST_RTL_DIR", "WORMCAST_VERILATOR_FLAGS"):
        e.pop(k, None)
    e.update(extra)
    return e


def cosim(*extra, environ=None):
    """A short cosimulation of Q_2; returns (CompletedProcess, JSON, seconds)."""
    t = time.monotonic()
    r = subprocess.run([WC, "traffic", "--topology", "hypercube:2", "--rate", "0.3", "--flits", "1-8",
                        "--cycles", "2000", "--ir-fraction", "0.3", "--b-fraction", "0.01", "--seed", "3",
                        "--engine", "cosim", "--json", *extra],
                       capture_output=True, text=True, env=environ or env(), timeout=1200)
    try:
        j = json.loads(r.stdout)
    except ValueError:
        j = {}
    return r, j, time.monotonic() - t


def passed(r, j):
    return r.returncode == 0 and j.get("mismatches") == 0 and j.get("cycles_compared", 0) >= 2000


def builds():
    """The builds in the cache, from 'wormcast cache --json'."""
    r = subprocess.run([WC, "cache", "--json"], capture_output=True, text=True, env=env())
    return json.loads(r.stdout)["rtl_cache"]["builds"] if r.returncode == 0 else None


def leftovers():
    """What is in the cache directory besides builds, their locks, .lock and the
    precompiled headers (whose directory holds only headers and their locks)."""
    names = os.listdir(ROOT) if os.path.isdir(ROOT) else []
    left = [n for n in names if not (len(n) == 32 or n.endswith(".lock") or n == "pch")]
    return left + ["pch/" + n for n in pchs(all_names=True) if not (len(n) == 32 or n.endswith(".lock"))]


def pchs(all_names=False):
    """The precompiled headers in the cache: {key: manifest}."""
    d = os.path.join(ROOT, "pch")
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    if all_names:
        return names
    out = {}
    for n in names:
        if len(n) == 32:
            with open(os.path.join(d, n, "manifest.txt")) as f:
                out[n] = f.read()
    return out


def options(manifest):
    """The compiler options a precompiled header was made with."""
    return [l for l in manifest.splitlines() if l.startswith("compiler options ")][0].split()[2:]


def progress_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith(BUILDING)]


# ---- first run builds, with one progress line; the second starts at once ----
r1, j1, t1 = cosim()
lines = progress_lines(r1.stderr)
check(passed(r1, j1) and len(lines) == 1 and r1.stderr.strip() == lines[0]
      and "hypercube:2 all-port, buffer depth 4, payload width 32, routes ascending, trees descending, router array" in lines[0]
      and " about " in lines[0] and ROOT in lines[0],
      "first run: built (%.1f s), one line on stderr: %s" % (t1, r1.stderr.strip()[:300]))
b = builds()
check(b is not None and len(b) == 1 and b[0]["parameters"]["Dim"] == 2
      and b[0]["parameters"]["BufferDepth"] == 4 and b[0]["harness"] == "router array"
      and b[0]["build_seconds"] > 0 and b[0]["bytes"] > 0
      and os.path.exists(os.path.join(ROOT, b[0]["key"], "plugin.so")),
      "one build in the cache: %s" % (b and [x["description"] for x in b]))
# The key is the hash of the manifest: the plugin interface's version, the tools, every
# option (the Verilog parameters among Verilator's, the injected bug too) and every file.
with open(os.path.join(ROOT, b[0]["key"], "manifest.txt")) as f:
    manifest = f.read()
need = ["ABI ", "verilator ", "compiler ", "-GInjectBug=0", "-GDim=2", "-GBufferDepth=4",
        "-GRouteOrder=", "-GTreeOrder=", "file rtl/wc_router.v ", "file cosim/rtl_plugin.cpp ",
        "file cosim/rtl_models.h ", "file cosim/vl_state.h ", "file model/router_state.h "]
check(b and all(n in manifest for n in need),
      "the manifest names the interface version, the tools, the parameters and the harness "
      "files: missing %s" % [n for n in need if n not in manifest])
r2, j2, t2 = cosim()
check(passed(r2, j2) and r2.stderr == "" and t2 < t1 / 4 and len(builds()) == 1,
      "second run: nothing built, nothing on stderr, %.2f s against %.1f s" % (t2, t1))
r, _, _ = cosim("--engine", "rtl")
check(r.returncode == 0 and r.stderr == "" and len(builds()) == 1,
      "--engine rtl uses the same build: %s" % r.stderr.strip()[:200])

# ---- the waveform: only a run that writes one builds (and then reuses) the traced variant ----
check(b and "--trace" not in manifest and "-DVM_TRACE=0" in manifest,
      "a run without a waveform builds without Verilator's trace")
vcd = os.path.join(HOME, "q2.vcd")
r, j, _ = cosim("--vcd", vcd)
lines = progress_lines(r.stderr)
traced = [x for x in (builds() or []) if x["description"].endswith(", with the VCD trace")]
check(passed(r, j) and len(lines) == 1 and "with the VCD trace" in lines[0] and len(traced) == 1
      and os.path.getsize(vcd) > 0 and "u_fifo" in open(vcd).read(),
      "--vcd builds the traced variant once and writes Verilator's trace: %s" % r.stderr.strip()[:200])
r, j, _ = cosim("--vcd", vcd)
check(passed(r, j) and r.stderr == "" and len(builds()) == 2,
      "a second --vcd run reuses the traced build: %s" % r.stderr.strip()[:200])
if traced:
    with open(os.path.join(ROOT, traced[0]["key"], "manifest.txt")) as f:
        tm = f.read()
    check("--trace" in tm and "-DVM_TRACE=1" in tm, "the traced variant's manifest has --trace and VM_TRACE=1")

# ---- the precompiled headers: one per compiler and options, shared by every build ----
# (cosim/rtl_builder.h, rtl_pch_manifest).  The plain and the traced builds compile with
# different options (VM_TRACE), so each has its own pair (evaluation code -O2, set-up
# code -O0); the manifest names the compiler, Verilator and every option.
p = pchs()
plain = [k for k, m in p.items() if "-DVM_TRACE=0" in options(m)]
trace = [k for k, m in p.items() if "-DVM_TRACE=1" in options(m)]
check(len(p) == 4 and len(plain) == 2 and len(trace) == 2
      and all("compiler /" in m and "verilator /" in m and "file cosim/vl_hooks.h " in m for m in p.values())
      and sorted(o for k in plain for o in options(p[k]) if o in ("-O0", "-O2")) == ["-O0", "-O2"]
      and all(os.path.getsize(os.path.join(ROOT, "pch", k, "wc_pch.h.gch")) > 0 for k in p)
      and not leftovers(),
      "two builds with different compiler options: two pairs of precompiled headers, each "
      "manifest names the compiler, Verilator and the options: %d headers" % len(p))
first_cpu = (b[0].get("build_cpu_seconds") or {}) if b else {}
check(all(first_cpu.get(s, 0) > 0 for s in ("pch_fast", "pch_slow", "verilator", "wc_fast0", "wc_slow", "link")),
      "the first build's entry has the processor time of each step, the precompiled headers "
      "among them: %s" % first_cpu)

# ---- the key: a changed parameter is a new build; the same bytes elsewhere are not ----
# The plain evaluation code's precompiled header is replaced by the traced one (made
# with VM_TRACE=1): the compiler must refuse it, build correctly without it, and say so.
fast_plain = [k for k in plain if "-O2" in options(p[k])]
fast_trace = [k for k in trace if "-O2" in options(p[k])]
gch = os.path.join(ROOT, "pch", fast_plain[0], "wc_pch.h.gch") if fast_plain else ""
if fast_plain and fast_trace:
    shutil.copy(gch, gch + ".good")
    shutil.copy(os.path.join(ROOT, "pch", fast_trace[0], "wc_pch.h.gch"), gch)
r, j, _ = cosim("--buffer-depth", "3")
check(passed(r, j) and len(progress_lines(r.stderr)) == 1 and "buffer depth 3" in r.stderr
      and len(builds()) == 3, "--buffer-depth 3 builds a second entry: %s" % r.stderr.strip()[:200])
check("did not use the precompiled header" in r.stderr and "VM_TRACE" in r.stderr,
      "a precompiled header made with other options is refused by the compiler, the build "
      "is correct without it, and stderr says so: %s" % r.stderr.strip().splitlines()[1:3])
if fast_plain and fast_trace:
    os.replace(gch + ".good", gch)
depth3 = [x for x in (builds() or []) if "buffer depth 3" in x["description"]]
check(len(pchs()) == 4 and depth3 and "pch_fast" not in depth3[0].get("build_cpu_seconds", {"pch_fast": 0})
      and depth3[0]["build_cpu_seconds"].get("wc_fast0", 0) > 0,
      "a new configuration with the same options reuses the precompiled headers: %d headers, steps %s"
      % (len(pchs()), depth3 and depth3[0].get("build_cpu_seconds")))
copy = os.path.join(HOME, "rtl-copy")
shutil.copytree(RTL, copy)
r, j, _ = cosim(environ=env(WORMCAST_RTL_DIR=copy))
check(passed(r, j) and r.stderr == "" and len(builds()) == 3,
      "WORMCAST_RTL_DIR with the same files: the same key, nothing built: %s" % r.stderr.strip()[:200])

# ---- concurrent first use: one build, both runs pass ----
procs = [subprocess.Popen([WC, "run", "--topology", "hypercube:2", "--algorithm", "pbcast", "--flits", "9",
                           "--buffer-depth", "5", "--engine", "cosim", "--json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
         for _ in range(2)]
outs = [p.communicate(timeout=1200) for p in procs]
js = [json.loads(o[0]) if o[0].strip() else {} for o in outs]
built = sum(len(progress_lines(o[1])) for o in outs)
waited = sum("waiting for another wormcast that builds" in o[1] for o in outs)
check(all(p.returncode == 0 for p in procs) and all(j.get("mismatches") == 0 for j in js)
      and all(j.get("cycles") == j.get("predicted_cycles") for j in js) and built == 1
      and len(builds()) == 4 and not leftovers(),
      "two processes start the same new configuration at once: %d build, %d waited, both pass, "
      "%d entries" % (built, waited, len(builds())))

# ---- a failed build leaves nothing and reports the tool's error ----
broken = os.path.join(HOME, "rtl-broken")
shutil.copytree(RTL, broken)
with open(os.path.join(broken, "wc_fifo.v"), "a") as f:
    f.write("\nthis is not verilog\n")
r, j, _ = cosim(environ=env(WORMCAST_RTL_DIR=broken))
err = r.stderr.strip().splitlines()
check(r.returncode == 1 and j == {} and len(err) >= 3 and err[0].startswith(BUILDING)
      and err[-1].startswith("wormcast: cannot build the RTL of hypercube:2")
      and "Verilator failed (exit status" in err[-1] and any("%Error" in l and "wc_fifo.v" in l for l in err)
      and len(builds()) == 4 and not leftovers(),
      "a broken RTL copy: exit %d, Verilator's error reported, no entry, nothing left: %s"
      % (r.returncode, err[-1:] + [l for l in err if "%Error" in l][:1]))
r, j, _ = cosim(environ=env(WORMCAST_VERILATOR_FLAGS="--no-such-option"))
err = r.stderr.strip().splitlines()
check(r.returncode == 1 and "Verilator failed" in err[-1] and any("no-such-option" in l for l in err[1:-1])
      and len(builds()) == 4 and not leftovers(),
      "a bad Verilator option: exit %d, no entry, nothing left: %s" % (r.returncode, err[-1:]))

# ---- a killed build: its directory is removed by the next build of that key ----
p = subprocess.Popen([WC, "run", "--topology", "hypercube:2", "--algorithm", "pbcast", "--flits", "9",
                      "--payload-width", "40", "--engine", "cosim", "--json"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
deadline = time.monotonic() + 600
while time.monotonic() < deadline and not [n for n in os.listdir(ROOT) if n.startswith(".build-")]:
    time.sleep(0.05)
time.sleep(0.5)
p.send_signal(signal.SIGKILL)
p.communicate()
left = leftovers()
r = subprocess.run([WC, "run", "--topology", "hypercube:2", "--algorithm", "pbcast", "--flits", "9",
                    "--payload-width", "40", "--engine", "cosim", "--json"],
                   capture_output=True, text=True, env=env(), timeout=1200)
check(left and r.returncode == 0 and json.loads(r.stdout).get("mismatches") == 0
      and len(progress_lines(r.stderr)) == 1 and len(builds()) == 5 and not leftovers(),
      "a build killed midway left %s; the next run of it removed that, built and passed" % left)

# ---- list and clear ----
r = subprocess.run([WC, "list"], capture_output=True, text=True, env=env())
check(r.returncode == 0 and "RTL builds in %s: 5" % ROOT in r.stdout and "buffer depth 5" in r.stdout,
      "list shows the 5 builds")
header_bytes = sum(os.path.getsize(os.path.join(ROOT, "pch", k, "wc_pch.h.gch")) for k in pchs())
check("precompiled headers shared by the builds: %d, %.0f MB" % (len(pchs()), header_bytes / 1e6) in r.stdout
      and len(pchs()) >= 4, "list shows the precompiled headers, their number and size: %s"
      % [x for x in r.stdout.splitlines() if "precompiled" in x])
r = subprocess.run([WC, "cache", "--json"], capture_output=True, text=True, env=env())
h = json.loads(r.stdout)["rtl_cache"].get("precompiled_headers") if r.returncode == 0 else None
check(h == {"count": len(pchs()), "bytes": header_bytes},
      "cache --json counts the precompiled headers and their bytes: %s (files: %d, %d bytes)"
      % (h, len(pchs()), header_bytes))
r = subprocess.run([WC, "cache", "clear"], capture_output=True, text=True, env=env())
check(r.returncode == 0 and r.stdout.startswith("removed 5 RTL builds (") and builds() == []
      and sorted(os.listdir(ROOT)) == [".lock"],
      "cache clear: %s; the directory holds only its lock" % r.stdout.strip())
r = subprocess.run([WC, "cache", "--json"], capture_output=True, text=True, env=env())
check(r.returncode == 0 and json.loads(r.stdout)["rtl_cache"].get("precompiled_headers") == {"count": 0, "bytes": 0},
      "after clear, cache --json counts no precompiled header: %s" % r.stdout.strip()[:200])
r = subprocess.run([WC, "cache", "nonsense"], capture_output=True, text=True, env=env())
check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1,
      "cache nonsense: exit 2, one line: %s" % r.stderr.strip())

shutil.rmtree(HOME)
finish()
