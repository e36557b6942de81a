#!/usr/bin/env python3
"""Mutation score of the RTL: how many small faults the cosimulation regression catches.

usage: scripts/mutate.py [--jobs N] [--file F]... [--only ID]... [--limit N] [--list]
                         [--resume] [--report-only] [--wormcast PATH] [--out DIR]

Each mutant is ONE operator mutation of rtl/ (docs/verification.md, "Mutation score"):
  ==  <-> !=          relational  <  -> <=,  <= -> <,  >  -> >=,  >= -> >
  &   <-> |           &&  <-> ||           constants: a literal's lowest bit flipped
  a dropped negation (! or ~)
applied to the synthesizable logic of wc_router.v, wc_route.v, wc_fifo.v, wc_hypercube.v
and wc_mesh.v. Not mutated: comments, the module headers (ports), parameter defaults
(every build sets them), for-loop bounds, part-select indices, the checks (`ifdef FORMAL,
`ifndef SYNTHESIS, `WC_ASSERT) and the InjectBug test hooks (the faults the
cosimulation's self-test injects on purpose, tests/test_cosim.py bugs; a mutant of a
hook is a mutant of a build that the regression does not use).

For each mutant the script lints the mutated file (verilator --lint-only -Wall, the
project's standard: a mutant that does not lint is STILLBORN), then runs the short
cosimulation regression (REGRESSION: algorithms and random traffic on Q_3, Q_4 and a
3x3 mesh, every register compared every cycle) with WORMCAST_RTL_DIR pointing at a copy
of rtl/ with the mutation: wormcast builds every configuration a run needs from it on
first use, in a cache of the worker's own that is emptied after each mutant (a build
that fails: STILLBORN). The first run that fails KILLS the mutant. A mutant that passes
every run SURVIVED; it is then either argued equivalent in
scripts/mutate-equivalent.txt (its key, a tab, the argument; docs/verification.md
summarises them) or a gap of the regression, which the next test closes. The exit code
is 0 iff every survivor is argued equivalent (and no argument names a mutant that was
killed or no longer exists). The mutants are taken from the files in turn, so that a
run stopped early (Ctrl-C; --resume goes on) has verdicts of every file.

Output: one line per mutant on stdout, the summary, and DIR/mutants.json
(default build-mutate/); DIR/results.json keeps the verdicts for --resume.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RTL = os.path.join(TOP, "rtl")
EQUIVALENT = os.path.join(TOP, "scripts", "mutate-equivalent.txt")

# The files mutated, and which group of builds checks them: the router modules through
# the router array (one Verilated router per node), the network tops through their own
# builds.
FILES = {
    "wc_fifo.v": "router",
    "wc_route.v": "router",
    "wc_router.v": "router",
    "wc_hypercube.v": "top",
    "wc_mesh.v": "top",
}

# The configurations a mutated file is linted with (verilator --lint-only -Wall).
LINT_CONFIGS = {"wc_fifo.v": ["hc4_ap"], "wc_route.v": ["hc4_ap", "m3x3_op_rd_td"],
                "wc_router.v": ["hc4_ap", "m3x3_op", "hc4_ap_tr2"],
                "wc_hypercube.v": ["hc3_ap", "hc4_op"], "wc_mesh.v": ["m3x3_ap", "m3x3_op"]}

# The short cosimulation regression: the quickest and the most likely to fail first.
TRAFFIC = ["--rate", "0.3", "--flits", "1-8", "--cycles", "1500", "--ir-fraction", "0.3",
           "--b-fraction", "0.03", "--sink-stall", "0.3", "--startup", "1",
           "--injection", "random"]


def traffic(topo, *extra, seed=1):
    return ["traffic", "--topology", topo] + TRAFFIC + ["--seed", str(seed)] + list(extra)


def algo(topo, name, flits, root, *extra):
    return ["run", "--topology", topo, "--algorithm", name, "--flits", str(flits),
            "--root", str(root), "--startup", "3"] + list(extra)


# Per group and stage, the runs (each needs a configuration of that stage's build).
REGRESSION = {
    "router": [[
        traffic("hypercube:4"),
        traffic("hypercube:4", "--rate", "0.6", seed=4),
        algo("hypercube:4", "pbcast", 9, 5),
        algo("hypercube:4", "hk", 5, 3),
        algo("hypercube:4", "irruns", 5, 6),
        algo("hypercube:4", "direx", 3, 0),
        algo("hypercube:4", "aabbcast", 3, 0),
        algo("hypercube:4", "hampath", 3, 9),
        traffic("hypercube:4", "--flits", "1-2", "--rate", "0.8", seed=5),
    ], [
        traffic("mesh:3x3"),
        traffic("mesh:3x3", "--rate", "0.6", seed=3),
        algo("mesh:3x3", "pbcast", 9, 4),
        algo("mesh:3x3", "irrowcol", 5, 7),
        algo("mesh:3x3", "hampath", 3, 4),
        traffic("mesh:3x3", "--flits", "1-2", "--rate", "0.8", seed=6),
    ], [
        traffic("hypercube:4", "--one-port", "--ir-fraction", "0"),
        traffic("hypercube:4", "--replication-cost", "2"),
        traffic("hypercube:4", "--route-order", "descending", "--tree-order", "ascending"),
        traffic("mesh:3x3", "--replication-cost", "1", "--route-order", "descending",
                "--tree-order", "descending"),
        algo("hypercube:4", "sbt", 5, 9),
        algo("hypercube:4", "pbcast", 9, 6, "--replication-cost", "2"),
    ]],
    "top": [[
        traffic("hypercube:3", "--rtl-top"),
        traffic("mesh:3x3", "--rtl-top"),
        traffic("hypercube:4", "--rtl-top"),
        algo("hypercube:3", "pbcast", 9, 5, "--rtl-top"),
        algo("mesh:3x3", "pbcast", 9, 4, "--rtl-top"),
        traffic("hypercube:3", "--rtl-top", "--rate", "0.7", seed=2),
        traffic("mesh:3x3", "--rtl-top", "--rate", "0.7", seed=3),
    ]],
}
# Seconds; a mutant that hangs a run is killed by it.  The first run of a configuration
# builds it (a minute or two on a busy 2-core machine).
RUN_TIMEOUT = 600


# ---------------------------------------------------------------------------------------
# Mutant generation.
# ---------------------------------------------------------------------------------------
SIZED = re.compile(r"(\d+)'([bdh])([0-9a-fA-F_]+)")
BARE = re.compile(r"(?<![\w'$.])(\d+)(?![\w'])")
# A line that only declares (no logic) or starts a for loop.
DECL = re.compile(r"^\s*(input|output|inout|parameter|integer|genvar|module|for\s*\()")
ASSIGNING_DECL = re.compile(r"^\s*(localparam|wire|reg)\b[^=]*?=(?!=)")


def strip_comment(line):
    """The code of a line, with // comments and /* */ metacomments blanked (same length)."""
    out = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), line)
    i = out.find("//")
    return out if i < 0 else out[:i] + " " * (len(out) - i)


def masked_hooks(code):
    """Columns of a line that belong to an InjectBug hook: '(InjectBug ...)' and, if a '?'
    follows it, the branch taken only with that fault (up to the matching ':')."""
    mask = [False] * len(code)
    for m in re.finditer(r"\(\s*InjectBug\b", code):
        depth, j = 0, m.start()
        while j < len(code):
            depth += code[j] == "("
            depth -= code[j] == ")"
            j += 1
            if depth == 0:
                break
        k = j
        while k < len(code) and code[k] == " ":
            k += 1
        if k < len(code) and code[k] == "?":
            depth, k = 0, k + 1
            while k < len(code) and not (depth == 0 and code[k] == ":"):
                depth += code[k] in "({["
                depth -= code[k] in ")}]"
                k += 1
            j = k
        for c in range(m.start(), j):
            mask[c] = True
    return mask


def candidates(code, lo):
    """(column, original, replacement, kind) of every mutation of code[lo:]."""
    out = []
    paren = bracket = 0
    i = lo
    n = len(code)
    # Brackets and parentheses opened before lo still count.
    for ch in code[:lo]:
        paren += ch == "("
        paren -= ch == ")"
        bracket += ch == "["
        bracket -= ch == "]"
    while i < n:
        ch = code[i]
        two = code[i:i + 2]
        if ch == "(":
            paren += 1
        elif ch == ")":
            paren -= 1
        elif ch == "[":
            bracket += 1
        elif ch == "]":
            bracket -= 1
        if bracket > 0 and ch != "[":
            i += 1
            continue
        if two in ("==", "!="):
            if code[i:i + 3] in ("===", "!=="):
                i += 3
                continue
            out.append((i, two, "!=" if two == "==" else "==", "relational"))
            i += 2
            continue
        if two in ("&&", "||"):
            out.append((i, two, "||" if two == "&&" else "&&", "logical"))
            i += 2
            continue
        if two in ("<<", ">>", "+:", "-:"):
            i += 2
            continue
        if two in ("<=", ">="):
            if paren > 0:  # at depth 0, <= is a non-blocking assignment
                out.append((i, two, two[0], "relational"))
            i += 2
            continue
        if ch in "<>" and paren > 0:
            out.append((i, ch, ch + "=", "relational"))
        elif ch in "&|" and code[i - 1] not in "~":
            out.append((i, ch, "|" if ch == "&" else "&", "bitwise"))
        elif ch == "!" or (ch == "~" and code[i + 1:i + 2] not in ("&", "|", "^")):
            out.append((i, ch, "", "negation"))
        elif ch.isdigit() and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] in "_'$")):
            m = SIZED.match(code, i)
            if m:
                width, base, digits = m.groups()
                value = int(digits.replace("_", ""), {"b": 2, "d": 10, "h": 16}[base]) ^ 1
                body = {"b": format(value, "0%db" % len(digits.replace("_", ""))),
                        "d": str(value), "h": format(value, "x")}[base]
                out.append((i, m.group(0), "%s'%s%s" % (width, base, body), "constant"))
                i = m.end()
                continue
            m = BARE.match(code, i)
            if m:
                value = int(m.group(1))
                out.append((i, m.group(1), str(value + 1 if value != 1 else 0), "constant"))
                i = m.end()
                continue
        i += 1
    return out


def mutants_of(name):
    path = os.path.join(RTL, name)
    lines = open(path).read().split("\n")
    result = []
    in_header = False
    hook_depth = None  # begin/end depth at which an InjectBug block started
    depth = 0
    ifdefs = []  # the open `ifdef/`ifndef regions: True for a test-only one
    for no, line in enumerate(lines, 1):
        code = strip_comment(line)
        # The proofs' properties (`ifdef FORMAL) and the simulation assertions
        # (`ifndef SYNTHESIS) are checks, not logic: no mutants there.
        d = re.match(r"^\s*`(ifdef|ifndef|else|endif)\b\s*(\w*)", code)
        if d:
            if d.group(1) in ("ifdef", "ifndef"):
                ifdefs.append((d.group(1), d.group(2)) in (("ifdef", "FORMAL"), ("ifndef", "SYNTHESIS")))
            elif d.group(1) == "else" and ifdefs:
                ifdefs[-1] = False
            elif ifdefs:
                ifdefs.pop()
            continue
        if any(ifdefs) or re.search(r"`WC_ASSERT|\bgen_assert", code):
            continue
        words = re.findall(r"\b(begin|end|module|endmodule)\b|(\);)", code)
        starts_hook = hook_depth is None and "InjectBug" in code and re.search(r"\bbegin\b", code)
        in_hook = hook_depth is not None
        if re.match(r"^\s*module\b", code):
            in_header = True
        skip = in_header or in_hook or DECL.match(code)
        if not skip and not starts_hook:
            lo = 0
            m = ASSIGNING_DECL.match(code)
            if m:
                lo = m.end()
            elif re.match(r"^\s*(localparam|wire|reg)\b", code):
                lo = len(code)  # a declaration without a value
            mask = masked_hooks(code)
            for col, orig, repl, kind in candidates(code, lo):
                if mask[col]:
                    continue
                key_src = "%s|%s|%d|%s|%s" % (name, line.strip(), col - (len(line) - len(line.lstrip())), orig, repl)
                key = "%s:%s" % (name, hashlib.sha1(key_src.encode()).hexdigest()[:10])
                result.append({"id": key, "file": name, "line": no, "col": col + 1,
                               "orig": orig, "repl": repl, "kind": kind,
                               "text": line.strip()})
        # begin / end depth, for the InjectBug blocks.
        for w, close in words:
            if close and in_header:
                in_header = False
            if w == "begin":
                if starts_hook and hook_depth is None:
                    hook_depth = depth
                depth += 1
            elif w == "end":
                depth -= 1
                if hook_depth is not None and depth == hook_depth:
                    hook_depth = None
    # The same key twice (the same line twice in a file) would be ambiguous.
    seen = {}
    for m in result:
        seen[m["id"]] = seen.get(m["id"], 0) + 1
        if seen[m["id"]] > 1:
            m["id"] += "-%d" % seen[m["id"]]
    return result


def apply(m, text):
    lines = text.split("\n")
    line = lines[m["line"] - 1]
    c = m["col"] - 1
    assert line[c:c + len(m["orig"])] == m["orig"], m
    lines[m["line"] - 1] = line[:c] + m["repl"] + line[c + len(m["orig"]):]
    return "\n".join(lines)


def describe(m):
    repl = m["repl"] if m["repl"] else "(dropped)"
    return "%s:%d:%d %s %s -> %s: %s" % (m["file"], m["line"], m["col"], m["kind"], m["orig"],
                                        repl, m["text"])


# ---------------------------------------------------------------------------------------
# Building and running, through the RTL cache (cosim/rtl_cache.h): a run with
# WORMCAST_RTL_DIR pointing at a copy of rtl/ with one file mutated builds the
# configurations it needs from that copy on first use.  The cache keys a build by the
# bytes of the sources, so a mutant never meets another mutant's build, nor the
# original's.  Each worker has a cache of its own, emptied after every mutant (the disk
# does not fill); the builds of the original RTL, for the check that every run passes
# without a mutant, are in one more cache, kept.
# ---------------------------------------------------------------------------------------
def rtl_copy(path):
    """A copy of rtl/ (.v and .vh) in path, made or refreshed."""
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(RTL):
        if f.endswith((".v", ".vh")):
            shutil.copyfile(os.path.join(RTL, f), os.path.join(path, f))


class Worker:
    """One mutated copy of rtl/ and the cache of its builds."""

    def __init__(self, out, index, wormcast):
        self.rtl = os.path.join(out, "rtl%d" % index)
        self.cache = os.path.join(out, "cache%d" % index)
        self.wormcast = wormcast

    def env(self):
        return dict(os.environ, WORMCAST_RTL_DIR=self.rtl, XDG_CACHE_HOME=self.cache)

    def run_mutant(self, name, text, group, check_stage):
        """(status, reason, stage) of the mutant text of rtl/NAME: every stage's runs
        until one fails (stage: the one that decided, None if none did);
        check_stage(stage) first makes sure that the original passes them."""
        rtl_copy(self.rtl)
        with open(os.path.join(self.rtl, name), "w") as f:
            f.write(text)
        try:
            for stage, runs in enumerate(REGRESSION[group]):
                check_stage(stage)
                r = regress(self.wormcast, runs, self.env())
                if r and r[2]:
                    return "stillborn", "build failed: %s" % r[1], stage
                if r:
                    return "killed", "%s: %s" % r[:2], stage
            return "survived", "", None
        finally:
            rtl_copy(self.rtl)
            subprocess.run([self.wormcast, "cache", "clear"], env=self.env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def check_original(out, wormcast, group, stage, lock, checked):
    """Every run of the stage passes with the original RTL (once per stage): a run that
    fails without a mutant would kill every mutant."""
    with lock:
        if (group, stage) in checked:
            return
        base = os.path.join(out, "original")
        rtl_copy(os.path.join(base, "rtl"))
        env = dict(os.environ, WORMCAST_RTL_DIR=os.path.join(base, "rtl"),
                   XDG_CACHE_HOME=os.path.join(base, "cache"))
        r = regress(wormcast, REGRESSION[group][stage], env)
        if r:
            raise SystemExit("mutate: the unmutated RTL fails: wormcast %s: %s" % r[:2])
        checked.add((group, stage))


def lint(name, text):
    """verilator --lint-only -Wall of the mutated file with every configuration of its
    group. None if clean, else the first message."""
    group = FILES[name]
    with tempfile.TemporaryDirectory() as d:
        for f in os.listdir(RTL):
            if f.endswith((".v", ".vh")):
                shutil.copyfile(os.path.join(RTL, f), os.path.join(d, f))
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        # Both topologies of the router, or the network top of the file.
        configs = [lint_params(c, group == "top") for c in LINT_CONFIGS[name]]
        for top, params in configs:
            srcs = [os.path.join(d, f) for f in ("wc_router.v", "wc_fifo.v", "wc_route.v")]
            if top != "wc_router":
                srcs.insert(0, os.path.join(d, top + ".v"))
            r = subprocess.run(["verilator", "--lint-only", "-Wall", "-I" + d, "--top-module", top]
                               + params + srcs, capture_output=True, text=True)
            if r.returncode != 0:
                msg = [l for l in r.stderr.splitlines() if l.startswith("%")]
                return (msg[0] if msg else r.stderr.strip()[:200]).replace(d + "/", "")
    return None


def lint_params(cfg, is_top):
    """The -G parameters of a configuration name (cosim/CMakeLists.txt rtl_params)."""
    m = re.match(r"^(hc(\d+)|m(\d+)x(\d+))_(ap|op)(?:_d(\d+))?(?:_w(\d+))?(?:_tr(\d+))?"
                 r"(?:_r([ad]))?(?:_t([ad]))?$", cfg)
    hc = m.group(2) is not None
    p = ["-GAllPort=%d" % (m.group(5) == "ap"), "-GBufferDepth=%s" % (m.group(6) or 4),
         "-GPayloadWidth=%s" % (m.group(7) or 32), "-GReplicationCost=%s" % (m.group(8) or 0),
         "-GRouteOrder=%d" % (m.group(9) == "d"),
         "-GTreeOrder=%d" % (m.group(10) == "d" if m.group(10) else hc)]
    if hc:
        p += ["-GDim=" + m.group(2)]
    else:
        p += ["-GRows=" + m.group(3), "-GCols=" + m.group(4)]
    if is_top:
        return ("wc_hypercube" if hc else "wc_mesh"), p
    return "wc_router", p + ["-GTopology=%d" % (0 if hc else 1)]


def regress(wormcast, runs, env):
    """None if every run passes, else (the run, what it said, whether the build failed)."""
    for args in runs:
        cmd = [wormcast] + args + ["--engine", "cosim", "--compare", "all"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
        except subprocess.TimeoutExpired:
            return " ".join(args), "timeout after %d s" % RUN_TIMEOUT, False
        if r.returncode != 0:
            lines = r.stderr.strip().splitlines() or ["exit %d" % r.returncode]
            built = [l for l in lines if "cannot build the RTL" in l]
            if built:
                return " ".join(args), built[0][:200], True
            return " ".join(args), "exit %d: %s" % (r.returncode, lines[0][:160]), False
    return None


def save_results(path, results):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(results, f, indent=1)
    os.replace(tmp, path)


def load_equivalent():
    """key -> the argument that the mutant is equivalent."""
    eq = {}
    if os.path.exists(EQUIVALENT):
        for no, line in enumerate(open(EQUIVALENT), 1):
            if not line.strip() or line.startswith("#"):
                continue
            if "\t" not in line:
                sys.exit("%s:%d: expected KEY<tab>argument" % (EQUIVALENT, no))
            key, why = line.rstrip("\n").split("\t", 1)
            eq[key.strip()] = why.strip()
    return eq


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=1, help="mutants evaluated at once (default 1)")
    ap.add_argument("--wormcast", default=os.path.join(TOP, "build", "wormcast"),
                    help="the wormcast that builds and runs them (default build/wormcast)")
    ap.add_argument("--file", action="append", choices=sorted(FILES))
    ap.add_argument("--only", action="append", help="a mutant key (repeatable)")
    ap.add_argument("--limit", type=int, help="the first N mutants only")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    ap.add_argument("--out", default=os.path.join(TOP, "build-mutate"))
    ap.add_argument("--report-only", action="store_true",
                    help="build and run nothing: report the verdicts of DIR/results.json "
                         "(mutants without one are 'not run')")
    ap.add_argument("--skip-argued", action="store_true",
                    help="run no mutant argued equivalent in scripts/mutate-equivalent.txt (they "
                         "are reported as 'argued, not run' and count as neither killed nor live)")
    ap.add_argument("--resume", action="store_true",
                    help="reuse the verdicts of DIR/results.json for mutants whose mutated "
                         "file and regression are unchanged")
    a = ap.parse_args()
    # Absolute: the workers' caches are XDG_CACHE_HOME, where a relative path is ignored
    # (the XDG specification), which would put the mutants into the user's own cache.
    a.out, a.wormcast = os.path.abspath(a.out), os.path.abspath(a.wormcast)

    files = a.file or sorted(FILES)
    # The files in turn (the first mutant of each, then the second, ...): a run stopped
    # early has verdicts spread over every file.
    per_file = [mutants_of(f) for f in files]
    mutants = [m for k in range(max(map(len, per_file))) for ms in per_file if k < len(ms) for m in [ms[k]]]
    if a.only:
        mutants = [m for m in mutants if m["id"] in a.only]
    if a.limit:
        mutants = mutants[:a.limit]
    if a.list:
        for m in mutants:
            print("%-26s %s" % (m["id"], describe(m)))
        print("%d mutants" % len(mutants))
        return 0
    os.makedirs(a.out, exist_ok=True)
    equivalent = load_equivalent()
    results_path = os.path.join(a.out, "results.json")
    results = json.load(open(results_path)) if os.path.exists(results_path) else {}

    def regression_digest(m, stage):
        """What a verdict depends on besides the mutated file: the file's lint
        configurations and its group's runs up to the stage that decided it (-1: the
        lint; None: every stage), so that a run added to a later stage keeps the kills
        of the earlier ones."""
        g = FILES[m["file"]]
        runs = REGRESSION[g] if stage is None else REGRESSION[g][:stage + 1]
        return hashlib.sha1(json.dumps([runs, LINT_CONFIGS[m["file"]]]).encode()).hexdigest()

    originals = {f: open(os.path.join(RTL, f)).read() for f in files}
    print("mutate: %d mutants of %s" % (len(mutants), ", ".join(files)), file=sys.stderr)
    todo = mutants
    workers = [Worker(a.out, i, a.wormcast) for i in range(a.jobs)]
    free = list(workers)
    lock, original_lock, checked = threading.Lock(), threading.Lock(), set()
    start = time.time()
    done = [0]

    def lint_msg(m, text):
        m["lint"] = lint(m["file"], text)
        return m["lint"]

    def record(m, digest):
        with lock:
            results[m["id"]] = {"digest": digest, "regression": regression_digest(m, m["stage"]),
                                "stage": m["stage"], "status": m["status"],
                                "reason": m.get("reason", ""), "seconds": m["seconds"]}
            save_results(results_path, results)

    def evaluate(m):
        g = FILES[m["file"]]
        text = apply(m, originals[m["file"]])
        digest = hashlib.sha1(text.encode()).hexdigest()
        old = results.get(m["id"])
        fresh = (old and old.get("digest") == digest
                 and old.get("regression") == regression_digest(m, old.get("stage")))
        if (a.resume or a.report_only) and fresh:
            m.update({k: old[k] for k in ("status", "reason", "seconds")})
        elif a.skip_argued and m["id"] in equivalent:
            m["status"], m["reason"] = "argued, not run", equivalent[m["id"]]
        elif a.report_only:
            m["status"], m["reason"] = "not run", "no verdict in %s" % results_path
        elif lint_msg(m, text):
            m["status"], m["reason"], m["seconds"], m["stage"] = "stillborn", "lint: " + m["lint"], 0, -1
            record(m, digest)
        else:
            with lock:
                w = free.pop()
            try:
                t0 = time.time()
                m["status"], m["reason"], m["stage"] = w.run_mutant(
                    m["file"], text, g,
                    lambda stage: check_original(a.out, a.wormcast, g, stage, original_lock, checked))
                m["seconds"] = round(time.time() - t0, 1)
            finally:
                with lock:
                    free.append(w)
            record(m, digest)
        if m["status"] == "survived":
            m["reason"] = equivalent.get(m["id"], "GAP: no run of the regression fails")
        with lock:
            done[0] += 1
            print("[%d/%d %.0fs] %-9s %s%s" % (done[0], len(todo), time.time() - start,
                                               m["status"], describe(m),
                                               "" if m["status"] == "killed" else
                                               "\n      " + m["reason"]), flush=True)
        return m

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(evaluate, todo))

    counts = {s: sum(1 for m in mutants if m["status"] == s)
              for s in ("killed", "survived", "stillborn", "not run", "argued, not run")}
    gaps = [m for m in mutants if m["status"] == "survived" and m["id"] not in equivalent]
    argued = [m for m in mutants if m["status"] == "survived" and m["id"] in equivalent]
    stale = [k for k in equivalent
             if k not in {m["id"] for m in mutants if m["status"] in ("survived", "argued, not run")}]
    live = counts["killed"] + counts["survived"]
    score = counts["killed"] / (live - len(argued)) if live - len(argued) else None
    report = {"files": files, "mutants": len(mutants), **counts,
              "survived_equivalent": len(argued), "survived_gap": len(gaps),
              "score_non_equivalent": score, "regression": REGRESSION,
              "list": mutants}
    tmp = os.path.join(a.out, "mutants.json.tmp")
    with open(tmp, "w") as f:
        json.dump(report, f, indent=1)
    os.replace(tmp, os.path.join(a.out, "mutants.json"))
    print("\nmutants: %d; killed %d, survived %d (%d argued equivalent, %d gaps), stillborn %d%s"
          % (len(mutants), counts["killed"], counts["survived"], len(argued), len(gaps),
             counts["stillborn"], ", NOT RUN %d" % counts["not run"] if counts["not run"] else "")
          + (", argued equivalent and not run %d" % counts["argued, not run"] if counts["argued, not run"] else ""))
    if score is not None:
        print("mutation score (killed / non-equivalent built mutants): %.1f %%" % (100 * score))
    for m in gaps:
        print("GAP %s %s" % (m["id"], describe(m)))
    if not (a.only or a.limit or a.file):
        for k in stale:
            print("STALE equivalence argument for %s (not a surviving mutant)" % k)
    print("details: %s" % os.path.join(a.out, "mutants.json"))
    return 1 if gaps or counts["not run"] or (stale and not (a.only or a.limit or a.file)) else 0


if __name__ == "__main__":
    sys.exit(main())
