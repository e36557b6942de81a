#!/usr/bin/env python3
"""Same results as another revision?  A speed-up of the model must not change any.

usage: scripts/same-results.py --baseline REV [--wormcast PATH] [--extra-args=ARGS] [--jobs N] [--list]
  --baseline REV   the revision to compare with: built beside the tree in a temporary
                   directory, C only, by scripts/build-revision.sh (as bench-model.sh);
                   or the path of a wormcast binary
  --wormcast PATH  the binary to check (default: scripts/build.sh, then build/wormcast)
  --extra-args=ARGS  words added to every run's command (run, sweep, traffic, trace) for
                   the binary checked only: a speed option against the baseline without
                   it (--extra-args=--no-pair-walk: the routers, against a baseline whose
                   default is the pair walk or the routers)
  --jobs N         runs at once (default: the processors)
  --list           print the commands and stop

Runs one set of CLI commands with both binaries and compares, per command, the exit
status, stderr, stdout with the JSON's wall-clock fields removed (the only fields that
may differ between two correct builds), and the VCD a run writes (without its $date).
Every step of a speed-up of the model runs this before it is kept (issue 15: "optional
speed-ups must not change any result").

The set: every algorithm of `wormcast list --json` on eight networks at two message
lengths; a few algorithms with sink stalls, T_s = 1, T_r = 2 and two-flit buffers;
random traffic on five networks with sink stalls, IR, B, path broadcasts, one-port,
random injection channels, W = 62, virtual channels; the traces of traces/; three
waveforms. About 460 runs, a minute on two cores.

Exit status: 0 when every command gives the same, 1 otherwise (the first differences
are printed with a diff), 2 on bad usage.
"""
import argparse
import concurrent.futures as cf
import difflib
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The JSON fields that measure the host, not the simulation (src/report.c).
WALL_CLOCK = {"wall_seconds", "cycles_per_second", "flit_hops_per_second"}
NETWORKS = ["hypercube:4", "hypercube:5", "mesh:4x5", "mesh:4x4", "mesh:1x6", "mesh:3x3",
            "torus:4x4", "ring:8"]


def commands(wormcast):
    out = subprocess.run([wormcast, "list", "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("same_results: %s list --json failed: %s" % (wormcast, out.stderr.strip()))
    algorithms = json.loads(out.stdout)["algorithms"]
    cmds = []
    for net in NETWORKS:
        kind = net.split(":")[0]
        for a in algorithms:
            if kind in a["topologies"]:
                for flits in ("5", "17"):
                    cmds.append(["run", "--topology", net, "--algorithm", a["name"], "--flits", flits])
    for net in ("hypercube:4", "mesh:4x4", "torus:4x4"):
        for a in ("pbcast", "direx", "aabbcast", "sbt", "hk", "standexch"):
            if not any(x["name"] == a and net.split(":")[0] in x["topologies"] for x in algorithms):
                continue
            cmds.append(["run", "--topology", net, "--algorithm", a, "--flits", "9", "--sink-stall", "0.3",
                         "--seed", "5"])
            cmds.append(["run", "--topology", net, "--algorithm", a, "--flits", "6", "--startup", "1",
                         "--replication-cost", "2", "--buffer-depth", "2"])
    traffic = ["traffic", "--rate", "0.2", "--cycles", "800"]
    for net in ("mesh:4x4", "hypercube:4", "mesh:3x5", "torus:4x4", "ring:8"):
        for extra in ([], ["--sink-stall", "0.3"], ["--ir-fraction", "0.4"], ["--b-fraction", "0.05"],
                      ["--replication-cost", "2", "--buffer-depth", "2", "--b-fraction", "0.05"],
                      ["--one-port"], ["--injection", "random"], ["--payload-width", "62"],
                      ["--seed", "7", "--ir-fraction", "0.3", "--b-fraction", "0.03", "--sink-stall", "0.2"]):
            for flits in ("5", "1-9", "1"):
                cmds.append(traffic + ["--topology", net, "--flits", flits] + extra)
    for net in ("hypercube:4", "mesh:4x4"):
        cmds.append(traffic + ["--topology", net, "--flits", "2-12", "--b-fraction", "0.05",
                               "--path-fraction", "0.5"])
    for vcs in ("2", "3"):
        for net in ("torus:4x4", "ring:8"):
            cmds.append(traffic + ["--topology", net, "--flits", "1-9", "--virtual-channels", vcs,
                                   "--b-fraction", "0.02", "--sink-stall", "0.2"])
    cmds.append(["traffic", "--topology", "mesh:8x8", "--rate", "0.3", "--flits", "8", "--cycles", "3000"])
    traces = os.path.join(TOP, "traces")
    for name in sorted(os.listdir(traces)):
        if name.endswith(".tr"):
            net = trace_topology(os.path.join(traces, name))
            if not net:
                continue
            for extra in ([], ["--sink-stall", "0.25"]):
                cmds.append(["trace", "--topology", net, "--trace", os.path.join(traces, name)] + extra)
    waves = [["traffic", "--topology", "mesh:4x4", "--rate", "0.3", "--flits", "2-8", "--cycles", "300",
              "--seed", "2", "--b-fraction", "0.2"],
             ["run", "--topology", "torus:4x4", "--algorithm", "direx", "--flits", "5", "--virtual-channels", "2"],
             ["run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "6",
              "--replication-cost", "2"]]
    return [c + ["--json"] for c in cmds], [c + ["--json"] for c in waves]


def trace_topology(path):
    """The topology a trace's header names in its example command ("--topology T")."""
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                return None
            words = line.split()
            if "--topology" in words and words.index("--topology") + 1 < len(words):
                return words[words.index("--topology") + 1]
    return None


# The commands that run a simulation: those that take the speed options (options.def's CMD_RUNS).
RUNS = ("run", "sweep", "traffic", "trace")
# Fields a speed option adds to say what it did: which core stepped the network (the pair
# walk, on by default since the fifteenth session, or the routers: in every report since,
# null for another engine), absent from the reports of revisions before (or, before the
# walk was the default, present only with --pair-walk).
OPTION_FIELDS = {"network_core"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in WALL_CLOCK and k not in OPTION_FIELDS}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def outcome(wormcast, cmd, vcd_dir, extra=()):
    """What a run gives that must not change: exit status, stderr, stdout (JSON without
    its wall-clock fields), and the VCD without its date when the run writes one."""
    args = list(cmd)
    if extra and args and args[0] in RUNS:
        args += list(extra)
    vcd = None
    if vcd_dir:
        vcd = os.path.join(vcd_dir, "run.vcd")
        args += ["--vcd", vcd]
    p = subprocess.run([wormcast] + args, capture_output=True, text=True, cwd=TOP)
    try:
        stdout = json.dumps(strip(json.loads(p.stdout)), indent=1, sort_keys=True)
    except ValueError:
        stdout = p.stdout
    text = "exit %d\n--- stderr\n%s--- stdout\n%s\n" % (p.returncode, p.stderr, stdout)
    if vcd:
        with open(vcd) as f:
            lines = f.read().split("\n")
        # $date ... $end is the only line of the header that depends on the host.
        keep, skip = [], False
        for line in lines:
            if line.startswith("$date"):
                skip = True
            if not skip:
                keep.append(line)
            if skip and line.rstrip().endswith("$end"):
                skip = False
        text += "--- vcd\n" + "\n".join(keep)
    return text


def build_revision(rev, tmp):
    """Revision REV built C-only under tmp by scripts/build-revision.sh; the binary's path."""
    out = subprocess.run([os.path.join(TOP, "scripts", "build-revision.sh"), rev, tmp], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return out.strip()


def compare(wormcast, baseline, jobs_n, listing, extra=()):
    cmds, waves = commands(wormcast)
    if listing:
        for c in cmds + waves:
            print("wormcast " + " ".join(c))
        return 0

    def both(job):
        cmd, with_vcd = job
        if not with_vcd:
            return cmd, outcome(wormcast, cmd, None, extra), outcome(baseline, cmd, None)
        with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
            return cmd, outcome(wormcast, cmd, d1, extra), outcome(baseline, cmd, d2)

    jobs = [(c, False) for c in cmds] + [(c, True) for c in waves]
    differ = []
    with cf.ThreadPoolExecutor(max(1, jobs_n)) as ex:
        for cmd, mine, theirs in ex.map(both, jobs):
            if mine != theirs:
                differ.append((cmd, mine, theirs))
    for cmd, mine, theirs in differ[:5]:
        print("DIFFERENT: wormcast " + " ".join(cmd))
        diff = difflib.unified_diff(theirs.split("\n"), mine.split("\n"), "baseline", "wormcast",
                                    lineterm="", n=2)
        for line in list(diff)[:40]:
            print("  " + line)
    print("%d runs (%d with a VCD) compared: %d identical, %d different" %
          (len(jobs), len(waves), len(jobs) - len(differ), len(differ)))
    return 1 if differ else 0


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n")[2].replace("usage: ", ""), add_help=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--wormcast")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--extra-args", default="")
    a = ap.parse_args()
    extra = a.extra_args.split()
    wormcast = a.wormcast
    if not wormcast:
        subprocess.run([os.path.join(TOP, "scripts", "build.sh")], check=True)
        wormcast = os.path.join(TOP, "build", "wormcast")
    if not os.access(wormcast, os.X_OK):
        print("same-results: --wormcast %s: not an executable" % wormcast, file=sys.stderr)
        return 2
    if os.path.isfile(a.baseline) and os.access(a.baseline, os.X_OK):
        return compare(wormcast, a.baseline, a.jobs, a.list, extra)
    rev = subprocess.run(["git", "-C", TOP, "rev-parse", "--verify", "--quiet", a.baseline + "^{commit}"],
                         capture_output=True, text=True).stdout.strip()
    if not rev:
        print("same-results: --baseline %s: no such revision or binary" % a.baseline, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            baseline = build_revision(rev, tmp)
        except subprocess.CalledProcessError as e:
            return e.returncode
        return compare(wormcast, baseline, a.jobs, a.list, extra)


if __name__ == "__main__":
    sys.exit(main())
