#!/usr/bin/env python3
"""Mutation score of the RTL: how many small faults the cosimulation regression catches.

usage: scripts/mutate.py [--jobs N] [--file F]... [--only ID]... [--limit N] [--list]
                         [--resume] [--report-only] [--wormcast PATH] [--out DIR]

Each mutant is ONE operator mutation of rtl/ (docs/verification.md, "Mutation score"):
  ==  <-> !=          relational  <  -> <=,  <= -> <,  >  -> >=,  >= -> >
  &   <-> |           &&  <-> ||           constants: a literal's lowest bit flipped
  a dropped negation (! or ~)
applied to the synthesizable logic of wc_router.v, wc_route.v, wc_fifo.v and of the
network tops wc_hypercube.v, wc_mesh.v and wc_torus.v. Not mutated: comments, the module
headers (ports), parameter defaults (every build sets them), for-loop bounds, part-select
indices, the checks (`ifdef FORMAL, `ifndef SYNTHESIS, `WC_ASSERT) and the InjectBug test
hooks (the faults the cosimulation's self-test injects on purpose, tests/test_cosim.py
bugs: the blocks taken only with a fault, "if (InjectBug == N) begin", the branch a
"(InjectBug == N) ?" selects, and every comparison "InjectBug == N" / "!= N"; a mutant
of a hook is a mutant of a build that the regression does not use).

The regression (REGRESSION) is a list of entries per group of files (the router modules
through the router array, the network tops through their own builds); an entry is the
runs that share ONE build, i.e. one configuration (topology, port model, T_r, orders,
virtual channels, depth): algorithms and random traffic on Q_4, 3 x 3 and 3 x 4 meshes,
a ring and tori, every register compared every cycle. First, once per invocation, every
run passes with the unmutated RTL, and the manifest of each entry's build gives
Verilator's exact options (so the script names no parameter itself). Then, per mutant:

  1. Verilator's lint (-Wall, in the build's options) in every configuration whose
     sources include the mutated file: a message makes it STILLBORN (the project's
     standard: the RTL lints clean); so does a build that fails.  Except a mutant
     whose only messages are WIDTH warnings at the mutated line itself (x + 1'b1 ->
     x + 1'b0: a real change of behaviour that Verilator's width rule happens to
     flag): it goes on, built with -Wno-WIDTH, and its reason says so; and one that
     stops Verilator with an internal error of its gate optimisation (V3Gate) goes on
     built with -fno-gate (the unmutated regression passes with it too).
  2. Entry by entry (the most likely to kill first): Verilator's C++ for that
     configuration (a fraction of a second).  If it is byte for byte the original's
     (the waveform trace's functions aside: no run writes a VCD), the plugin runs as
     the original's, whose runs pass: the entry is skipped (counted "identical").  Otherwise wormcast builds it (WORMCAST_RTL_DIR = a copy of rtl/ with
     the mutation, a cache of the worker's own) and runs the entry's runs; the first run
     that fails KILLS the mutant.
  3. A mutant that no entry kills SURVIVED: every run of the regression passes on it.
     It is then either argued equivalent in scripts/mutate-equivalent.txt (its key, a
     tab, the argument; docs/verification.md summarises them) or a gap of the
     regression, which the next entry or run closes.

The exit code is 0 iff every survivor is argued equivalent (and no argument names a
mutant that was killed or no longer exists). The mutants are taken from the files in
turn, so that a run stopped early (Ctrl-C; --resume goes on) has verdicts of every file.

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
    "wc_torus.v": "top",
}

# The short cosimulation regression: the quickest and the most likely to fail first.
TRAFFIC = ["--rate", "0.3", "--flits", "1-8", "--cycles", "1500", "--ir-fraction", "0.3",
           "--b-fraction", "0.03", "--sink-stall", "0.3", "--startup", "1",
           "--injection", "random"]


def traffic(topo, *extra, seed=1):
    return ["traffic", "--topology", topo] + TRAFFIC + ["--seed", str(seed)] + list(extra)


def algo(topo, name, flits, root, *extra):
    return ["run", "--topology", topo, "--algorithm", name, "--flits", str(flits),
            "--root", str(root), "--startup", "3"] + list(extra)


# Per group, the BUILDS of the regression in the order they are tried (the most likely
# to kill first), each with the runs that use it: every run of an entry needs the same
# configuration (check_original verifies it: one build per entry), so that a mutant
# whose Verilated code for that configuration is the original's can skip the entry
# (Worker.run_mutant).
ROUTER_RING = ["--flits", "1-8", "--b-fraction", "0.01"]
REGRESSION = {
    "router": [[  # Q_4 all-port
        traffic("hypercube:4"),
        traffic("hypercube:4", "--rate", "0.6", seed=4),
        algo("hypercube:4", "pbcast", 9, 5),
        algo("hypercube:4", "hk", 5, 3),
        algo("hypercube:4", "irruns", 5, 6),
        algo("hypercube:4", "direx", 3, 0),
        algo("hypercube:4", "aabbcast", 3, 0),
        algo("hypercube:4", "hampath", 3, 9),
        traffic("hypercube:4", "--flits", "1-2", "--rate", "0.8", seed=5),
    ], [  # 3 x 3 mesh all-port
        traffic("mesh:3x3"),
        traffic("mesh:3x3", "--rate", "0.6", seed=3),
        algo("mesh:3x3", "pbcast", 9, 4),
        algo("mesh:3x3", "irrowcol", 5, 7),
        algo("mesh:3x3", "hampath", 3, 4),
        traffic("mesh:3x3", "--flits", "1-2", "--rate", "0.8", seed=6),
    ], [  # ring of 8, two virtual channels (the dateline classes)
        traffic("ring:8", *ROUTER_RING),
        traffic("ring:8", "--rate", "0.6", *ROUTER_RING, seed=2),
        algo("ring:8", "pbcast", 9, 5),
        algo("ring:8", "ringaas2", 5, 0),
    ], [  # 4 x 4 torus, two virtual channels
        traffic("torus:4x4", *ROUTER_RING),
        traffic("torus:4x4", "--rate", "0.6", *ROUTER_RING, seed=3),
        algo("torus:4x4", "pbcast", 9, 6),
        algo("torus:4x4", "aabham2", 5, 0),
    ], [  # Q_4 one-port
        traffic("hypercube:4", "--one-port", "--ir-fraction", "0"),
        traffic("hypercube:4", "--one-port", "--ir-fraction", "0", "--rate", "0.6", seed=7),
        algo("hypercube:4", "sbt", 5, 9),
    ], [  # Q_4, replication cost 2
        traffic("hypercube:4", "--replication-cost", "2"),
        algo("hypercube:4", "pbcast", 9, 6, "--replication-cost", "2"),
    ], [  # Q_4, the other dimension orders
        traffic("hypercube:4", "--route-order", "descending", "--tree-order", "ascending"),
    ], [  # 3 x 4 mesh (not square), replication cost 1, the other dimension orders
        traffic("mesh:3x4", "--replication-cost", "1", "--route-order", "descending",
                "--tree-order", "descending"),
    ], [  # 4 x 4 torus, three virtual channels (B in a class of its own)
        traffic("torus:4x4", "--virtual-channels", "3", *ROUTER_RING, seed=4),
    ], [  # 3 x 5 torus, buffer depth 2 (the smallest FIFO)
        traffic("torus:3x5", "--buffer-depth", "2", *ROUTER_RING, seed=5),
    ], [  # 3 x 3 mesh one-port
        traffic("mesh:3x3", "--one-port", "--ir-fraction", "0.2", seed=8),
    ], [  # ring of 8 one-port
        algo("ring:8", "ringaas1", 3, 0),
        traffic("ring:8", "--one-port", "--ir-fraction", "0", *ROUTER_RING, seed=6),
    ], [  # 4 x 3 mesh: a path broadcast rooted at the east end of an odd row (which runs
        # westwards), so that nodes of that row after the root go on westwards; from
        # the 3 x 3 mesh's centre only the root itself is in that case
        algo("mesh:4x3", "hampath", 3, 5),
        traffic("mesh:4x3", seed=9),
    ], [  # 5 x 3 torus (odd in both dimensions, columns not a power of two), three
        # virtual channels, the other dimension orders: R goes Y before X and B's tree
        # covers the root's column first (gen_torus's YX route and descending tree,
        # which no other entry takes)
        traffic("torus:5x3", "--virtual-channels", "3", "--route-order", "descending",
                "--tree-order", "descending", *ROUTER_RING, seed=10),
        algo("torus:5x3", "pbcast", 9, 7, "--virtual-channels", "3", "--route-order",
             "descending", "--tree-order", "descending"),
    ]],
    "top": [[
        traffic("hypercube:3", "--rtl-top"),
        traffic("hypercube:3", "--rtl-top", "--rate", "0.7", seed=2),
        algo("hypercube:3", "pbcast", 9, 5, "--rtl-top"),
    ], [  # not square: rows and columns are not interchangeable (small: a network
        # top's build grows with its routers)
        traffic("mesh:2x3", "--rtl-top"),
        traffic("mesh:2x3", "--rtl-top", "--rate", "0.7", seed=3),
        algo("mesh:2x3", "pbcast", 9, 4, "--rtl-top"),
    ], [
        traffic("ring:4", "--rtl-top", *ROUTER_RING),
        algo("ring:4", "pbcast", 9, 1, "--rtl-top"),
    ], [
        traffic("torus:2x3", "--rtl-top", *ROUTER_RING),
        algo("torus:2x3", "pbcast", 9, 4, "--rtl-top"),
    ], [  # Q_2 (Dim / 2 = 1 and Dim / 3 = 0: the generate hierarchy's split)
        traffic("hypercube:2", "--rtl-top", "--one-port", "--ir-fraction", "0"),
    ], [
        traffic("mesh:3x2", "--rtl-top", "--one-port", "--ir-fraction", "0"),
    ], [
        traffic("ring:3", "--rtl-top", "--one-port", "--ir-fraction", "0", *ROUTER_RING),
    ]],
}
# Seconds; a mutant that hangs a run is killed by it.  The first run of an entry builds
# its configuration first (a few seconds on an idle machine, minutes for a network top on
# a busy one): a timeout before the build is complete decides nothing.
RUN_TIMEOUT = 600
BUILD_TIMEOUT = 3600


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
    # A comparison with InjectBug outside parentheses ("... && InjectBug != 15"): its
    # operator and constant are the hook's.
    for m in re.finditer(r"\bInjectBug\s*(==|!=)\s*\d+", code):
        for c in range(m.start(), m.end()):
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
        if ch in "<>":
            # A lone < or > is a comparison wherever it is (<=, the non-blocking
            # assignment, is handled above), also in a concatenation across lines.
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
        # A block taken only with a fault ("if (InjectBug == 3) begin"); one taken
        # without it ("if (InjectBug != 16) begin") is the correct logic, mutated.
        starts_hook = (hook_depth is None and re.search(r"\bInjectBug\s*==", code)
                       and re.search(r"\bbegin\b", code))
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
def rtl_copy(path, src=RTL):
    """A copy of the .v and .vh files of src (default rtl/) in path, made or refreshed."""
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(src):
        if f.endswith((".v", ".vh")):
            shutil.copyfile(os.path.join(src, f), os.path.join(path, f))


class Build:
    """One configuration of the regression as wormcast builds it: Verilator and its exact
    options, read from the manifest of the original's cached build (cosim/rtl_cache.h), so
    that the script names no parameter itself; digest: Verilator's C++ for the original."""

    def __init__(self, manifest):
        self.verilator = self.options = self.module = None
        for line in open(manifest):
            if line.startswith("verilator options "):
                self.options = line.split()[2:]
            elif line.startswith("verilator "):
                self.verilator = line.split()[1]
            elif line.startswith("module "):
                self.module = line.split()[1]
        if not (self.verilator and self.options and self.module):
            raise SystemExit("mutate: %s: not a build manifest this script knows" % manifest)
        self.label = " ".join(o[2:] for o in self.options if o.startswith("-G"))
        self.digest = None
        self.reads = set()  # the files Verilator read for the original
        self.original_rtl = None  # the unmutated rtl/ copy (Original)
        self.digests = {}  # extra options -> the original's digest with them
        self.lock = threading.Lock()

    def original_digest(self, extra, scratch):
        """The digest of the original's C++ with the extra options (a warning option
        should not change the code; if it does, no entry is skipped as identical)."""
        key = tuple(extra)
        if not key:
            return self.digest
        with self.lock:
            if key not in self.digests:
                self.digests[key] = self.verilate(self.original_rtl, scratch, extra=extra)[1]
            return self.digests[key]

    def verilate(self, rtl, scratch, lint_only=False, extra=()):
        """Verilator on the .v/.vh of rtl with this build's options (and extra), in
        scratch (the same relative paths every time, so that two runs are comparable
        byte for byte): (None, digest of the C++ it wrote) or (its first message, None);
        every message in self.last_messages."""
        shutil.rmtree(scratch, ignore_errors=True)
        rtl_copy(os.path.join(scratch, "src", "rtl"), rtl)
        opts = self.options + list(extra)
        self.last_messages = []
        if lint_only:
            opts = [o for o in opts if o not in ("--cc", "--sc")] + ["--lint-only"]
        cmd = [self.verilator] + opts + ["-Mdir", "obj", "-y", "src/rtl", "-Isrc/rtl",
                                         "src/rtl/%s.v" % self.module]
        r = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True)
        if r.returncode != 0:
            msg = [l.replace("src/rtl/", "") for l in r.stderr.splitlines() if l.startswith("%")]
            self.last_messages = msg
            return (msg[0] if msg else r.stderr.strip()[:200]).replace("src/rtl/", ""), None
        if lint_only:
            return None, None
        h = hashlib.sha256()
        obj = os.path.join(scratch, "obj")
        # Its dependency list: "targets : verilator_bin ... wc_router.v ...".
        with open(os.path.join(obj, "Vwc__ver.d")) as f:
            self.last_reads = {os.path.basename(w) for w in f.read().split(":", 1)[1].split()}
        for f in sorted(os.listdir(obj)):
            # The generated code; not the dependency lists (Vwc__ver.d, __verFiles.dat:
            # timestamps), which the builder does not compile, nor the waveform trace's
            # functions (Vwc__Trace*: declarations and dumps, called only while a run
            # writes a VCD, which no run of the regression does; a parameter's value,
            # traced as a signal, changes them and nothing else).
            if f.endswith((".cpp", ".h")) and "__Trace" not in f:
                h.update(f.encode() + b"\0" + open(os.path.join(obj, f), "rb").read())
        return None, h.hexdigest()


class Original:
    """The regression's builds of the unmutated RTL: every run passes with them (a run
    that fails without a mutant would kill every mutant), and every entry of
    REGRESSION[group] uses exactly ONE build, whose Verilator options it keeps."""

    def __init__(self, out, wormcast):
        self.base = os.path.join(out, "original")
        self.wormcast = wormcast
        self.lock = threading.Lock()
        self.groups = {}

    def builds(self, group):
        with self.lock:
            if group not in self.groups:
                self.groups[group] = self._check(group)
            return self.groups[group]

    def _check(self, group):
        rtl = os.path.join(self.base, "rtl")
        shutil.rmtree(rtl, ignore_errors=True)
        rtl_copy(rtl)
        sources = hashlib.sha1()
        for f in sorted(os.listdir(rtl)):
            sources.update(f.encode() + open(os.path.join(rtl, f), "rb").read())
        # And the wormcast that builds them: another one (its harness, its cache keys)
        # would add a second build to a kept cache.
        sources.update(open(self.wormcast, "rb").read())
        builds = []
        for k, runs in enumerate(REGRESSION[group]):
            # A cache per entry and per version of the RTL, wormcast and the runs: kept between
            # invocations; one of an older version is removed.
            tag = hashlib.sha1((sources.hexdigest() + json.dumps(runs)).encode()).hexdigest()[:12]
            cache = os.path.join(self.base, "cache-%s%d-%s" % (group, k, tag))
            for old in os.listdir(self.base):
                if old.startswith("cache-%s%d-" % (group, k)) and old != os.path.basename(cache):
                    shutil.rmtree(os.path.join(self.base, old), ignore_errors=True)
            env = dict(os.environ, WORMCAST_RTL_DIR=rtl, XDG_CACHE_HOME=cache)
            t0 = time.time()
            r = regress(self.wormcast, runs, env)
            if r:
                raise SystemExit("mutate: the unmutated RTL fails: wormcast %s: %s" % r[:2])
            top = os.path.join(cache, "wormcast", "rtl")
            manifests = [os.path.join(top, d, "manifest.txt") for d in sorted(os.listdir(top))
                         if os.path.exists(os.path.join(top, d, "manifest.txt"))]
            if len(manifests) != 1:
                raise SystemExit("mutate: REGRESSION[%r][%d] uses %d builds, not one: split it"
                                 % (group, k, len(manifests)))
            b = Build(manifests[0])
            err, b.digest = b.verilate(rtl, os.path.join(self.base, "scratch"))
            b.reads = b.last_reads
            b.original_rtl = rtl
            if err:
                raise SystemExit("mutate: Verilator fails on the unmutated RTL (%s): %s" % (b.label, err))
            print("mutate: original %s build %d (%s): %d runs pass (%.0f s)"
                  % (group, k, b.label, len(runs), time.time() - t0), file=sys.stderr, flush=True)
            builds.append(b)
        return builds


class Worker:
    """One mutated copy of rtl/, the cache of its builds and a scratch directory."""

    def __init__(self, out, index, wormcast):
        self.rtl = os.path.join(out, "rtl%d" % index)
        self.cache = os.path.join(out, "cache%d" % index)
        self.scratch = os.path.join(out, "scratch%d" % index)
        self.wormcast = wormcast

    def env(self, extra=()):
        e = dict(os.environ, WORMCAST_RTL_DIR=self.rtl, XDG_CACHE_HOME=self.cache)
        if extra:
            e["WORMCAST_VERILATOR_FLAGS"] = " ".join(extra)
        return e

    def run_mutant(self, name, line, text, group, builds, start=0):
        """(status, reason, stage, counts) of the mutant text of rtl/NAME.

        First Verilator's lint (its options include -Wall; warnings are errors) in every
        configuration of the regression: a message makes it STILLBORN (stage -1).  Then,
        entry by entry, Verilator's C++ for that configuration: if it is byte for byte
        the original's, the plugin wormcast would build is the original's, whose runs
        pass (Original), and the entry is skipped; otherwise wormcast builds it and runs
        the entry until one run fails (KILLED at that stage).  A mutant that no entry
        kills SURVIVED every run of the regression.  counts: entries built and run,
        entries skipped as identical.

        Except: a mutant whose only lint messages are WIDTH warnings at the mutated line
        itself (x + 1'b1 -> x + 1'b0: Verilator accepts the 1'b1 idiom, not 1'b0) is a
        change of behaviour that the width rule hides, not a broken structure: it is
        built and run with -Wno-WIDTH (its reason says so, WIDTH_ONLY) and is killed or
        survives like any other.  And one that stops Verilator 5.006 with an internal
        error of its gate optimisation is built with -fno-gate (NO_GATE).

        start: the entries before it are known to pass (a survivor of a shorter
        regression, --resume); they are neither built nor counted."""
        rtl_copy(self.rtl)
        with open(os.path.join(self.rtl, name), "w") as f:
            f.write(text)
        counts = {"built": 0, "identical": 0}
        # A configuration whose sources do not include the mutated file (a network top
        # of another topology) is the original's: Verilator never reads the mutant.
        builds_reading = [b for b in builds if name in b.reads]
        tag, extra = "", []  # retry_options
        try:
            for b in builds_reading:
                err, _ = b.verilate(self.rtl, self.scratch, lint_only=True, extra=extra)
                if err and not extra:
                    tag, extra = retry_options(b.last_messages, name, line)
                    if extra:
                        err, _ = b.verilate(self.rtl, self.scratch, lint_only=True, extra=extra)
                if err:
                    return "stillborn", "lint (%s): %s" % (b.label, err), -1, counts
            for stage, (b, runs) in enumerate(zip(builds, REGRESSION[group])):
                if stage < start:
                    continue
                if b not in builds_reading:
                    counts["identical"] += 1
                    continue
                err, digest = b.verilate(self.rtl, self.scratch, extra=extra)
                if err:
                    return "stillborn", tag + "Verilator (%s): %s" % (b.label, err), stage, counts
                if digest == b.original_digest(extra, self.scratch + "-orig"):
                    counts["identical"] += 1
                    continue
                counts["built"] += 1
                # One build in the cache at a time (regress tells a build that timed
                # out by its absence).
                shutil.rmtree(self.cache, ignore_errors=True)
                r = regress(self.wormcast, runs, self.env(extra))
                if r and r[2]:
                    return "stillborn", tag + "build failed: %s" % r[1], stage, counts
                if r:
                    return "killed", tag + "%s: %s" % r[:2], stage, counts
            return "survived", tag, None, counts
        finally:
            rtl_copy(self.rtl)
            shutil.rmtree(self.cache, ignore_errors=True)


WIDTH_ONLY = "(lint: WIDTH at the mutated line only; built with -Wno-WIDTH) "


NO_GATE = "(Verilator's internal error in V3Gate; built with -fno-gate) "


def internal_error(messages):
    return any(l.startswith("%Error: Internal Error:") and "V3Gate" in l for l in messages)


def retry_options(messages, name, line):
    """(tag, the Verilator options to try again with) for a mutant whose lint failed
    with these messages: WIDTH_ONLY, NO_GATE, or ("", []): stillborn."""
    if width_only(messages, name, line):
        return WIDTH_ONLY, ["-Wno-WIDTH"]
    if internal_error(messages):
        return NO_GATE, ["-fno-gate"]
    return "", []


def width_only(messages, name, line):
    """Verilator's messages are WIDTH warnings at NAME:LINE and nothing else."""
    msgs = [l for l in messages if not l.startswith("%Error: Exiting due to")]
    here = re.compile(r"%%Warning-WIDTH: %s:%d:" % (re.escape(name), line))
    return bool(msgs) and all(here.match(l) for l in msgs)


class BuildTimeout(Exception):
    """The build of a configuration did not finish in BUILD_TIMEOUT: no verdict."""


def regress(wormcast, runs, env):
    """None if every run passes, else (the run, what it said, whether the build failed)."""
    for k, args in enumerate(runs):
        cmd = [wormcast] + args + ["--engine", "cosim", "--compare", "all"]
        limit = BUILD_TIMEOUT if k == 0 else RUN_TIMEOUT
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, env=env)
        except subprocess.TimeoutExpired:
            cache = os.path.join(env["XDG_CACHE_HOME"], "wormcast", "rtl")
            if not any(os.path.exists(os.path.join(cache, d, "plugin.so"))
                       for d in (os.listdir(cache) if os.path.isdir(cache) else [])):
                raise BuildTimeout(" ".join(args))
            return " ".join(args), "timeout after %d s" % limit, False
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
                         "file and regression are unchanged (a survivor of a regression "
                         "that has gained entries at its end runs the new entries only)")
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
        """What a verdict depends on besides the mutated file: its group's regression
        up to the entry that decided it (-1: the lint, in every entry's configuration;
        None: every entry), so that an entry added at the end keeps the kills of the
        earlier ones.  (The lint and the identity test depend on every entry: the
        digest of a stillborn mutant is that of the whole regression.)"""
        g = FILES[m["file"]]
        runs = REGRESSION[g] if stage is None or stage < 0 else REGRESSION[g][:stage + 1]
        return hashlib.sha1(json.dumps(runs).encode()).hexdigest()

    # Group -> {digest of the first n entries of its regression: n}, n < all of them.
    prefixes = {g: {hashlib.sha1(json.dumps(REGRESSION[g][:n]).encode()).hexdigest(): n
                    for n in range(1, len(REGRESSION[g]))} for g in REGRESSION}
    originals = {f: open(os.path.join(RTL, f)).read() for f in files}
    print("mutate: %d mutants of %s" % (len(mutants), ", ".join(files)), file=sys.stderr)
    todo = mutants
    workers = [Worker(a.out, i, a.wormcast) for i in range(a.jobs)]
    free = list(workers)
    lock = threading.Lock()
    original = Original(a.out, a.wormcast)
    start = time.time()
    done = [0]

    def record(m, digest):
        with lock:
            results[m["id"]] = {"digest": digest, "regression": regression_digest(m, m["stage"]),
                                "stage": m["stage"], "status": m["status"],
                                "reason": m.get("reason", ""), "seconds": m["seconds"],
                                **m["counts"]}
            save_results(results_path, results)

    def evaluate(m):
        g = FILES[m["file"]]
        text = apply(m, originals[m["file"]])
        digest = hashlib.sha1(text.encode()).hexdigest()
        old = results.get(m["id"])
        same = (old and old.get("digest") == digest
                # A verdict from before the WIDTH_ONLY and NO_GATE rules.
                and not (old["status"] == "stillborn"
                         and retry_options([old["reason"].split(": ", 1)[-1]], m["file"], m["line"])[1]))
        fresh = same and old.get("regression") == regression_digest(m, old.get("stage"))
        # A survivor or a stillborn mutant of a regression that has since gained entries
        # at its end (old["regression"] is the digest of the first n entries): a
        # stillborn one stays stillborn (it fails the lint of an entry still there); a
        # survivor runs the new entries only (first = n).
        first = 0
        if same and not fresh and old["status"] in ("survived", "stillborn") and old.get("stage") in (None, -1):
            first = prefixes[g].get(old["regression"], 0)
            fresh = first > 0 and old["status"] == "stillborn"
        if (a.resume or a.report_only) and fresh:
            m.update({k: old[k] for k in ("status", "reason", "seconds", "stage")})
            m["counts"] = {k: old.get(k) for k in ("built", "identical")}
            if first and not a.report_only:
                record(m, digest)
        elif a.skip_argued and m["id"] in equivalent and not (a.resume and first):
            m["status"], m["reason"] = "argued, not run", equivalent[m["id"]]
        elif a.report_only:
            m["status"], m["reason"] = "not run", "no verdict in %s" % results_path
        else:
            builds = original.builds(g)
            with lock:
                w = free.pop()
            try:
                t0 = time.time()
                m["status"], m["reason"], m["stage"], m["counts"] = w.run_mutant(
                    m["file"], m["line"], text, g, builds, first if a.resume else 0)
                m["seconds"] = round(time.time() - t0, 1)
                if a.resume and first:
                    # The time and counts of the entries run before, too.
                    m["seconds"] = round(m["seconds"] + (old.get("seconds") or 0), 1)
                    for k in ("built", "identical"):
                        m["counts"][k] += old.get(k) or 0
                record(m, digest)
            except BuildTimeout as e:
                m["status"], m["reason"] = "not run", "the build for %s took over %d s" % (e, BUILD_TIMEOUT)
            finally:
                with lock:
                    free.append(w)
        if m["status"] == "survived":
            m["reason"] = m.get("reason", "") + equivalent.get(m["id"], "GAP: no run of the regression fails")
        with lock:
            done[0] += 1
            c = m.get("counts") or {}
            print("[%d/%d %.0fs] %-9s %s (%ss, %s built, %s identical)%s" % (
                done[0], len(todo), time.time() - start, m["status"], describe(m),
                m.get("seconds"), c.get("built"), c.get("identical"),
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
    # Per file, as docs/verification.md tabulates it.  A stillborn mutant whose build
    # Verilator itself could not finish (an internal error) is told apart from one that
    # does not lint: that one is the tool's limit, not the mutant's fault.
    print("\n%-15s %7s %6s %8s %5s %9s %8s %6s %7s" % ("file", "mutants", "killed", "argued eq", "gaps",
                                                   "stillborn", "(intern)", "argued", "not run"))
    for f in files:
        ms = [m for m in mutants if m["file"] == f]
        st = lambda s: sum(1 for m in ms if m["status"] == s)
        print("%-15s %7d %6d %8d %5d %9d %8d %6d %7d" % (
            f, len(ms), st("killed"), sum(1 for m in ms if m in argued), sum(1 for m in ms if m in gaps),
            st("stillborn"), sum(1 for m in ms if m["status"] == "stillborn" and "Internal Error" in m["reason"]),
            st("argued, not run"), st("not run")))
    for tag in (WIDTH_ONLY, NO_GATE):
        wide = [m for m in mutants if m.get("reason", "").startswith(tag)]
        if wide:
            print("%s: %s" % (tag.strip(), ", ".join("%s %d" % (s_, sum(1 for m in wide if m["status"] == s_))
                                                      for s_ in ("killed", "survived", "stillborn"))))
    timed = [m for m in mutants if m["status"] in ("killed", "survived", "stillborn") and m.get("seconds") is not None]
    for s_ in ("killed", "survived", "stillborn"):
        t = sorted(m["seconds"] for m in timed if m["status"] == s_)
        if t:
            print("%s: %d evaluated here or resumed, median %.1f s, mean %.1f s, max %.1f s per mutant"
                  % (s_, len(t), t[len(t) // 2], sum(t) / len(t), t[-1]))
    for m in gaps:
        print("GAP %s %s" % (m["id"], describe(m)))
    if not (a.only or a.limit or a.file):
        for k in stale:
            print("STALE equivalence argument for %s (not a surviving mutant)" % k)
    print("details: %s" % os.path.join(a.out, "mutants.json"))
    return 1 if gaps or counts["not run"] or (stale and not (a.only or a.limit or a.file)) else 0


if __name__ == "__main__":
    sys.exit(main())
