#!/usr/bin/env python3
"""Formal proofs of one wc_router (formal/wc_router_formal.v) with Yosys and ABC.

usage: prove.py [--quick | --config NAME ... | --all] [--bugs] [--depth N]
                [--bmc-timeout S] [--prove-timeout S] [--waves DIR] [--keep DIR]

  (none), --all    every configuration of CONFIGS below
  --quick          the test suite's subset: BMC of Q_3 all-port, depth 2, to 6 steps,
                   and InjectBug 1 must fail a property there
  --config NAME    that configuration (repeatable)
  --bugs           every InjectBug variant must fail a property (see BUGS)
  --bug K          only InjectBug K (repeatable; implies --bugs)
  --depth N        BMC steps instead of the configuration's own
  --bmc-timeout S  processor seconds of BMC per configuration (default 900; 0: no limit;
                   ABC counts processor time, so on a busy machine it takes longer). When
                   the time runs out before the depth, the properties that held are
                   reported "bounded to depth K (time limit)", K the steps BMC completed
  --prove-timeout S  seconds of pdr per property (default 20; 0: BMC only; --quick: 0)
  --waves DIR      where counterexamples go (default waves/)
  --keep DIR       keep the work directories (Yosys scripts, AIGER, ABC logs) there

For every configuration: Yosys reads the RTL with its `ifdef FORMAL properties and the
harness, and writes the design as an AIGER circuit whose outputs are the properties (the
assumptions become constraints). ABC then runs
  - bmc3 to the configuration's depth over all properties at once (a failure gives the
    step and a counterexample), and
  - pdr (IC3) on each property that held, with a time limit: "proven" means for every
    reachable state after reset, with no bound; otherwise the property is "bounded to
    depth N".
A failure writes the counterexample as waves/formal-<config>[-bug<k>].vcd (replayed by
Yosys' simulator from ABC's witness) and a GTKWave save file beside it.

--bugs builds every InjectBug variant of the RTL (rtl/wc_router.v) on the configuration
that can show it and requires at least one property to fail with a counterexample.
Exit status: 0 when every property held (or, with --bugs, every bug was caught), 1
otherwise, 2 on bad usage.

Needs yosys and yosys-abc (Debian's yosys package: scripts/install-deps.sh).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = ["rtl/wc_fifo.v", "rtl/wc_route.v", "rtl/wc_router.v", "formal/wc_router_formal.v"]
HARNESS = "wc_router_formal"

# The configurations: one table; everything else (names, parameters, the bug runs) is
# derived from it. depth: BMC steps (the cycle after reset is step 1).
CONFIGS = [
    # name           topology  dim rows cols allport depth  extra parameters     bmc
    ("hc3_ap_d2",    0, 3, 0, 0, 1, 2, {}, 12),
    ("hc3_ap_d4",    0, 3, 0, 0, 1, 4, {}, 12),
    ("hc3_op_d2",    0, 3, 0, 0, 0, 2, {}, 12),
    ("hc3_op_d4",    0, 3, 0, 0, 0, 4, {}, 12),
    ("hc4_ap_d2",    0, 4, 0, 0, 1, 2, {}, 10),
    ("hc4_ap_d4",    0, 4, 0, 0, 1, 4, {}, 10),
    ("hc4_op_d2",    0, 4, 0, 0, 0, 2, {}, 10),
    ("hc4_op_d4",    0, 4, 0, 0, 0, 4, {}, 10),
    ("m3x3_ap_d2",   1, 0, 3, 3, 1, 2, {}, 10),
    ("m3x3_ap_d4",   1, 0, 3, 3, 1, 4, {}, 10),
    ("m3x3_op_d2",   1, 0, 3, 3, 0, 2, {}, 10),
    ("m3x3_op_d4",   1, 0, 3, 3, 0, 4, {}, 10),
    # The non-default router parameters: T_r = 2, descending R routes, ascending tree.
    ("hc3_ap_d2_tr2_rd_ta", 0, 3, 0, 0, 1, 2,
     {"ReplicationCost": 2, "RouteOrder": 1, "TreeOrder": 0}, 12),
    # Rings and tori with virtual channels (section 12): topology 2 = ring of `cols`
    # nodes, 3 = torus. An even ring (the tie rule), an odd one-port ring, V = 3 (B in
    # its own class), a torus.
    ("r4_ap_v2_d2",  2, 0, 1, 4, 1, 2, {"NumVcs": 2}, 10),
    ("r5_op_v2_d2",  2, 0, 1, 5, 0, 2, {"NumVcs": 2}, 10),
    ("r4_ap_v3_d2",  2, 0, 1, 4, 1, 2, {"NumVcs": 3}, 8),
    ("t3x4_ap_v2_d2", 3, 0, 3, 4, 1, 2, {"NumVcs": 2}, 8),
]
QUICK = [("hc3_ap_d2", 6)]
# ... and one injected fault, so that the suite's subset shows the proofs are not vacuous
# (a harness whose assumptions exclude every trace would "hold" everything).
QUICK_BUGS = [1]
MAX_FAILS = 8  # BMC stops looking for more failed properties after so many

# InjectBug k -> the configuration that can show it (8, 9: a mesh border; 7: T_r > 0;
# 12: a non-default tree order; 13, the path broadcast off its path: Q_3, where the Gray
# decoding matters; 14..16, the virtual channels: a ring), and the BMC depth that
# suffices.
BUGS = {1: ("hc3_ap_d2", 6), 2: ("hc3_ap_d2", 6), 3: ("hc3_ap_d2", 6),
        4: ("hc3_ap_d2", 6), 5: ("hc3_ap_d2", 6), 6: ("hc3_ap_d2", 8),
        7: ("hc3_ap_d2_tr2_rd_ta", 6), 8: ("m3x3_ap_d2", 6), 9: ("m3x3_ap_d2", 6),
        10: ("hc3_ap_d2", 12), 11: ("hc3_ap_d2", 8), 12: ("hc3_ap_d2_tr2_rd_ta", 6),
        13: ("hc3_ap_d2", 6), 14: ("r4_ap_v2_d2", 6), 15: ("r4_ap_v2_d2", 6),
        16: ("r4_ap_v2_d2", 6)}


def die(msg):
    print("prove: " + msg, file=sys.stderr)
    sys.exit(2)


def config(name):
    for c in CONFIGS:
        if c[0] == name:
            return c
    die("unknown configuration '%s' (one of: %s)" % (name, ", ".join(c[0] for c in CONFIGS)))


def params(cfg, bug):
    name, topo, dim, rows, cols, allport, depth, extra, _ = cfg
    p = {"Topology": topo, "AllPort": allport, "BufferDepth": depth, "InjectBug": bug}
    if topo == 0:
        p["Dim"] = dim
    else:
        p["Rows"], p["Cols"] = rows, cols
    p.update(extra)
    return p


def run(cmd, log, timeout=None):
    """Run cmd, output into log; returns (exit status, output, seconds)."""
    t0 = time.time()
    try:
        r = subprocess.run(cmd, cwd=TOP, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
        out, rc = r.stdout, r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -1
    with open(log, "a") as f:
        f.write("$ %s\n%s\n" % (" ".join(cmd), out))
    return rc, out, time.time() - t0


def build(work, cfg, bug):
    """Yosys: the AIGER circuit, its witness map, the property names in output order
    and the word-level design (for the counterexample replay)."""
    chparam = " ".join("-set %s %d" % kv for kv in sorted(params(cfg, bug).items()))
    script = """
read_verilog -formal -I rtl {rtl}
chparam {chparam} {top}
prep -top {top}
async2sync
dffunmap
flatten
setundef -anyseq
opt -keepdc -fast
write_rtlil {work}/design.il
setattr -unset keep
delete -output
opt -full
techmap
opt -fast
memory_map
opt -full
simplemap
dffunmap
abc -g AND -fast
opt_clean
tee -q -o {work}/asserts.txt select -list t:$assert
write_aiger -I -B -zinit -map {work}/design.aim -ywmap {work}/design.ywm {work}/design.aig
""".format(rtl=" ".join(RTL), chparam=chparam, top=HARNESS, work=work)
    with open(os.path.join(work, "build.ys"), "w") as f:
        f.write(script)
    rc, out, secs = run(["yosys", "-q", os.path.join(work, "build.ys")],
                        os.path.join(work, "log.txt"))
    if rc != 0:
        sys.exit("prove: yosys failed on %s (log %s/log.txt):\n%s" % (cfg[0], work, out[-2000:]))
    with open(os.path.join(work, "asserts.txt")) as f:
        names = [l.strip().split("/")[-1] for l in f if l.strip()]
    return names, secs


def abc(work, commands, timeout=None):
    return run(["yosys-abc", "-c", "read_aiger %s/design.aig; fold; strash; %s" % (work, commands)],
               os.path.join(work, "log.txt"), timeout)


def bmc(work, depth, budget):
    """Failures {output index: step} of bmc3 to depth, the steps checked with no failure
    by the last pass, and the seconds it took. bmc3 stops at the first failure (its -a
    mode crashes when several outputs fail in one frame), so each failed output is set to
    constant 0 and BMC runs again. budget (seconds of processor time, as ABC's -T
    counts them; 0: none) bounds all passes together; a pass that runs out reports the
    frames it completed, which is the depth the other properties are bounded to. The
    counterexample of the first failure is kept as cex.aiw."""
    fails, total, cpu, reached = {}, 0.0, 0.0, depth
    while len(fails) < MAX_FAILS:
        left = budget - cpu if budget else 0
        if budget and left < 1:
            reached = 0 if not fails else min(fails.values())
            break
        zero = "".join("zeropo -N %d; " % k for k in sorted(fails))
        cex = "" if fails else "; write_cex -a %s/cex.aiw" % work
        limit = " -T %d" % left if budget else ""
        t = os.times()
        rc, out, secs = abc(work, "%sbmc3 -F %d%s%s" % (zero, depth, limit, cex))
        t2 = os.times()
        total += secs
        cpu += (t2.children_user - t.children_user) + (t2.children_system - t.children_system)
        if rc != 0:
            sys.exit("prove: yosys-abc failed (log %s/log.txt)" % work)
        m = re.search(r"Output\s+(\d+) of miter .* was asserted in frame\s+(\d+)", out)
        if m:
            fails[int(m.group(1))] = int(m.group(2))
            continue
        # "No output asserted in N frames." -- N complete frames; frame 0 is the reset
        # step, so N frames are steps 0..N-1 (as -F N checks).
        m = re.search(r"No output (?:asserted|failed) in\s+(\d+) frames", out)
        if not m:
            sys.exit("prove: yosys-abc's bmc3 said neither a failure nor a depth (log %s/log.txt)"
                     % work)
        reached = min(depth, int(m.group(1)))
        break
    return fails, reached, total


def pdr(work, index, limit):
    """True if pdr proves output index within limit seconds."""
    rc, out, secs = abc(work, "cone -O %d -s; pdr -T %d" % (index, limit), timeout=limit + 30)
    return bool(re.search(r"Property proved", out)), secs


def counterexample(work, vcd, names):
    """Replay ABC's first counterexample as a VCD with a GTKWave save file."""
    aiw = os.path.join(work, "cex.aiw")
    if not os.path.exists(aiw):
        return None
    # ABC writes the initial latches and one line of inputs per step, without the
    # status lines, and with fold's extra latch and inputs at the end of the lines:
    # cut them to the circuit Yosys wrote. Yosys' simulator replays it through the
    # latch and input map on the word-level design.
    with open(os.path.join(work, "design.ywm")) as f:
        ywm = json.load(f)
    with open(aiw) as f:
        rows = [l.strip() for l in f if l.strip() and l.strip() != "."]
    fixed = os.path.join(work, "cex-fixed.aiw")
    with open(fixed, "w") as f:
        f.write("1\nb0\n%s\n" % rows[0][:ywm["latch_count"]])
        for r in rows[1:]:
            f.write(r[:ywm["input_count"]] + "\n")
        f.write(".\n")
    tmp = vcd + ".tmp"
    rc, out, _ = run(["yosys", "-q", "-p", "read_rtlil %s/design.il; sim -clock clk_i -r %s "
                      "-map %s/design.aim -scope %s -vcd %s" % (work, fixed, work, HARNESS, tmp)],
                     os.path.join(work, "log.txt"))
    if rc != 0 or not os.path.exists(tmp):
        return None
    os.replace(tmp, vcd)
    write_gtkw(vcd, names)
    return vcd


def shown(path):
    """path as a user reads it: relative to the working directory when it is below it,
    absolute otherwise (never a chain of ../)."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def write_gtkw(vcd, names):
    """A GTKWave save file beside vcd: the harness ports, the per-port failure vectors
    (one bit per port: the failing one is set) and the router's registers."""
    widths = {}
    with open(vcd) as f:
        for line in f:
            m = re.match(r"\$var \S+ (\d+) \S+ (\S+)", line)
            if m:
                widths[m.group(2)] = int(m.group(1))
            elif line.startswith("$enddefinitions"):
                break
    sigs = ["clk_i", "rst_ni", "node_i", "in_valid_i", "in_flit_i", "lk_vc", "credit_o",
            "out_valid", "out_flit", "lo_vc", "credit_i", "pend_q", "track_in_i",
            "track_n_i"]
    bad = sorted(n for n in widths if n.startswith("bad_"))
    dut = ["u_dut.route_q", "u_dut.credits_q", "u_dut.rr_q", "u_dut.out_valid_q",
           "u_dut.gen_move_vc.out_vc_q", "u_dut.out_flit_q", "u_dut.credit_out_q", "u_dut.grant",
           "u_dut.move", "u_dut.gen_move_vc.sw_rr_q", "u_dut.f_wait_q"]
    lines = ['[dumpfile] "%s"' % os.path.basename(vcd), "[timestart] 0", "[size] 1600 900",
             "[sst_expanded] 1"]

    def group(title, members):
        lines.extend(["@800200", "-" + title])
        for n in members:
            if n not in widths:
                continue
            w = widths[n]
            lines.append("@28" if w == 1 else "@22")
            lines.append("%s.%s%s" % (HARNESS, n, "[%d:0]" % (w - 1) if w > 1 else ""))
        lines.extend(["@1000200", "-" + title])

    group("failing properties (bit k: port k)", bad)
    group("harness: inputs and outputs of the router", sigs)
    group("router registers", dut)
    path = os.path.splitext(vcd)[0] + ".gtkw"
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def prove(cfg, depth, bug, limit, budget, waves, keep):
    label = cfg[0] + ("-bug%d" % bug if bug else "")
    work = tempfile.mkdtemp(prefix="wc-prove-", dir=keep)
    names, ysecs = build(work, cfg, bug)
    fails, reached, bsecs = bmc(work, depth, budget)
    bound = "bounded to depth %d" % reached + (" (time limit)" if reached < depth else "")
    results = []
    for i, n in enumerate(names):
        if i in fails:
            results.append((n, "FAILED at step %d" % fails[i], bsecs))
        elif len(fails) >= MAX_FAILS:
            results.append((n, "not checked (%d failed)" % MAX_FAILS, bsecs))
        elif limit > 0:
            ok, psecs = pdr(work, i, limit)
            results.append((n, "proven" if ok else bound, psecs if ok else bsecs))
        else:
            results.append((n, bound, bsecs))
    vcd = None
    if fails:
        os.makedirs(waves, exist_ok=True)
        vcd = counterexample(work, os.path.join(waves, "formal-%s.vcd" % label), names)
    print("== %s (yosys %.1f s, bmc depth %d%s %.1f s)"
          % (label, ysecs, reached, "" if reached == depth else " of %d" % depth, bsecs))
    # One line per property: the instances of a module's property (a FIFO per input)
    # together, the weakest status of them, the longest time.
    groups = {}
    for n, status, secs in results:
        key = re.sub(r"^u_dut\.gen_input\[\d+\]\.u_fifo\.", "wc_fifo.", n)
        key = re.sub(r"^u_dut\.", "wc_router.", key)
        if "." not in key:
            key = "harness." + key
        rank = 0 if status.startswith("FAILED") else 1 if status.startswith("bounded") else 2
        old = groups.get(key)
        if old is None or rank < old[0]:
            groups[key] = (rank, status, max(secs, old[2] if old else 0))
        else:
            groups[key] = (old[0], old[1], max(secs, old[2]))
    for key in sorted(groups):
        _, status, secs = groups[key]
        print("  %-40s %-22s %7.1f s" % (key, status, secs))
    if fails:
        print("  counterexample: %s" % (shown(vcd) if vcd else "(replay failed)"))
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)
    sys.stdout.flush()
    return fails, vcd


def main(argv):
    args = list(argv)
    def opt(name, default, conv=str):
        if name in args:
            i = args.index(name)
            if i + 1 >= len(args):
                die("%s needs a value" % name)
            v = args[i + 1]
            del args[i:i + 2]
            try:
                return conv(v)
            except ValueError:
                die("%s: bad value '%s'" % (name, v))
        return default
    depth = opt("--depth", None, int)
    limit = opt("--prove-timeout", None, int)
    budget = opt("--bmc-timeout", 900, int)
    if budget < 0 or (limit is not None and limit < 0):
        die("--bmc-timeout and --prove-timeout take seconds >= 0")
    # --waves is relative to the working directory, like every path a user types.
    waves = os.path.abspath(opt("--waves", os.path.join(TOP, "waves")))
    keep = opt("--keep", None)
    names = []
    while "--config" in args:
        names.append(opt("--config", None))
    only_bugs = []
    while "--bug" in args:
        only_bugs.append(opt("--bug", None, int))
    quick, bugs, full = "--quick" in args, "--bugs" in args, "--all" in args
    bugs = bugs or bool(only_bugs)
    for a in ("--quick", "--bugs", "--all"):
        while a in args:
            args.remove(a)
    if args:
        die("unknown argument '%s' (see the header of scripts/prove.py)" % args[0])
    for tool in ("yosys", "yosys-abc"):
        if not shutil.which(tool):
            die("%s not found (scripts/install-deps.sh installs yosys)" % tool)
    if keep:
        os.makedirs(keep, exist_ok=True)
    if limit is None:
        limit = 0 if quick else 20

    status = 0
    t0 = time.time()
    if quick:
        runs = [(config(n), depth or d) for n, d in QUICK]
    elif names:
        runs = [(config(n), depth or config(n)[8]) for n in names]
    elif full or not (bugs or only_bugs):
        runs = [(c, depth or c[8]) for c in CONFIGS]
    else:
        runs = []
    for cfg, d in runs:
        fails, _ = prove(cfg, d, 0, limit, budget, waves, keep)
        if fails:
            status = 1
    if quick and not only_bugs and not bugs:
        only_bugs = list(QUICK_BUGS)
    if only_bugs:
        bugs = True
        for b in only_bugs:
            if b not in BUGS:
                die("--bug %d: no such InjectBug (1..%d)" % (b, max(BUGS)))
    if bugs:
        missed = []
        for bug, (name, d) in sorted(BUGS.items()):
            if only_bugs and bug not in only_bugs:
                continue
            fails, vcd = prove(config(name), depth or d, bug, 0, budget, waves, keep)
            if not fails or not vcd:
                missed.append(bug)
        if missed:
            print("NOT CAUGHT: InjectBug %s" % ", ".join(map(str, missed)))
            status = 1
        else:
            print("every InjectBug variant run (%d) fails a proof with a counterexample"
                  % (len(only_bugs) or len(BUGS)))
    print("total %.1f s" % (time.time() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
