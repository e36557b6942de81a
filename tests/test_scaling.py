#!/usr/bin/env python3
"""A sweep spread over processes or machines joins back into the same results.

usage: test_scaling.py WORMCAST

'sweep --emit-jobs' writes one command line per run; GNU parallel runs them here (as it
would on many machines with --sshloginfile) in the two ways docs/scaling.md shows, a
file per job (as a Slurm array writes them) and one JSON Lines file; 'wormcast merge'
joins them.  The merged CSV, table and JSON must equal the local sweep's, byte for byte.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, scratch_dir  # noqa: E402

WC = sys.argv[1]
TMP = scratch_dir("wc-scaling-")
# 3 algorithms x 5 lengths = 15 runs: more than 9, so file names 1..15 test the order.
SWEEP = ["sweep", "--topology", "hypercube:5", "--algorithms", "pbcast,hk,sbt",
         "--flits", "1,2,5,9,17", "--startup", "7"]


def run(*args, **kw):
    return subprocess.run([WC, *args], capture_output=True, text=True, timeout=600, **kw)


def read(path):
    with open(path) as f:
        return f.read()


def path(*names):
    return os.path.join(TMP, *names)


def one_line(r, status):
    return r.returncode == status and len(r.stderr.strip().splitlines()) == 1


# The local sweep, on every core.
r = run(*SWEEP, "--jobs", "2", "--csv", path("local.csv"))
check(r.returncode == 0 and r.stdout.count("\n") == 2 + 15, "local sweep: 15 rows (exit %d)" % r.returncode)
local_table = r.stdout
r = run(*SWEEP, "--json", "--jobs", "1")
local_json = json.loads(r.stdout) if r.returncode == 0 else {}
check([(x["algorithm"], x["flits"]) for x in local_json.get("runs", [])]
      == [(a, L) for a in ("pbcast", "hk", "sbt") for L in (1, 2, 5, 9, 17)],
      "sweep --json: the runs in the sweep's order, whatever order they ended in")

# The same sweep as command lines.
r = run(*SWEEP, "--emit-jobs", path("jobs.txt"))
jobs = read(path("jobs.txt")).splitlines()
check(r.returncode == 0 and len(jobs) == 15 and all(" run " in j and j.endswith(" --json") for j in jobs)
      and all("--startup 7" in j for j in jobs),
      "sweep --emit-jobs: 15 self-contained 'wormcast run ... --json' lines")
r = run(*SWEEP, "--emit-jobs", path("jobs2.txt"), "--csv", path("x.csv"))
check(one_line(r, 2) and not os.path.exists(path("jobs2.txt")),
      "--emit-jobs with --csv: one line, exit 2 (merge writes the CSV)")

parallel = shutil.which("parallel")
check(parallel is not None, "GNU parallel is installed (Debian: parallel; scripts/install-deps.sh)")
if parallel:
    # A file per job, named by its number, as a Slurm array's --output=results/%a.json.
    os.makedirs(path("files"))
    p = subprocess.run([parallel, "--will-cite", "--jobs", "2", "sh -c {} > %s/{#}.json" % path("files")],
                       stdin=open(path("jobs.txt")), capture_output=True, text=True, timeout=600)
    check(p.returncode == 0 and len(os.listdir(path("files"))) == 15,
          "GNU parallel runs the 15 lines, a JSON file each (exit %d %s)" % (p.returncode, p.stderr[-200:]))
    # One JSON Lines file, in the jobs' order (--keep-order), as over --sshloginfile.
    os.makedirs(path("lines"))
    with open(path("lines", "runs.jsonl"), "w") as out:
        p = subprocess.run([parallel, "--will-cite", "--jobs", "2", "--keep-order"],
                           stdin=open(path("jobs.txt")), stdout=out, stderr=subprocess.PIPE,
                           text=True, timeout=600)
    check(p.returncode == 0, "GNU parallel --keep-order writes one JSON Lines file")
    for d in ("files", "lines"):
        r = run("merge", path(d), "--csv", path(d + ".csv"))
        check(r.returncode == 0 and read(path(d + ".csv")) == read(path("local.csv")),
              "merge %s: the CSV equals the local sweep's, byte for byte" % d)
        check(r.stdout == local_table, "merge %s: the table equals the local sweep's" % d)
    r = run("merge", path("files"), "--json")
    merged = json.loads(r.stdout) if r.returncode == 0 else {}
    check(merged == local_json, "merge --json equals sweep --json")

# merge's bad input: one line, FILE:LINE where there is a line.
os.makedirs(path("bad"))
with open(path("bad", "1.json"), "w") as f:
    f.write(json.dumps(local_json["runs"][0]) + "\n{\"topology\": \n")
r = run("merge", path("bad"))
check(one_line(r, 2) and "1.json:2: not JSON" in r.stderr, "merge: a broken file, FILE:LINE: %s" % r.stderr.strip())
open(path("bad", "1.json"), "w").close()
r = run("merge", path("bad"))
check(one_line(r, 2) and "1.json: empty" in r.stderr, "merge: an empty file (a job that failed): %s" % r.stderr.strip())
with open(path("bad", "1.json"), "w") as f:
    f.write('{"rate": 1}\n')
r = run("merge", path("bad"))
check(one_line(r, 2) and "1.json:1:" in r.stderr, "merge: JSON that is not a run's: %s" % r.stderr.strip())
r = run("merge", path("nosuch"))
check(one_line(r, 2), "merge: a directory that does not exist: one line, exit 2")
r = run("merge")
check(one_line(r, 2) and "DIR" in r.stderr, "merge without a directory: one line, exit 2")
os.makedirs(path("empty"))
r = run("merge", path("empty"))
check(one_line(r, 2), "merge: a directory without results: one line, exit 2")

# A plot of the merged runs (matplotlib), and of the local sweep.
r = run("merge", path("files"), "--plot", path("merged.svg"))
check(r.returncode == 0 and read(path("merged.svg")).lstrip().startswith("<?xml"),
      "merge --plot FILE.svg draws the runs: %s" % r.stderr.strip()[-200:])
r = run(*SWEEP, "--plot", path("sweep.png"))
with open(path("sweep.png"), "rb") as f:
    check(r.returncode == 0 and f.read(4) == b"\x89PNG", "sweep --plot FILE.png")
r = run(*SWEEP, "--plot", path("sweep.pdf"))
check(one_line(r, 2) and not os.path.exists(path("sweep.pdf")), "--plot FILE.pdf: one line, exit 2")

finish()
