#!/usr/bin/env python3
"""Hostile and careless input, as a new user would give it: the regression tests of the
findings of issue 10 (docs/robustness.md lists each class of bad input, its message and
the check here that covers it).

usage: test_robustness.py WORMCAST
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish  # noqa: E402

WC = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "traces")
TMP = tempfile.mkdtemp(prefix="wormcast-robust-")
Q4 = ["--topology", "hypercube:4"]
PBCAST = ["run", *Q4, "--algorithm", "pbcast", "--flits", "8"]


def run(*args, timeout=120, **kw):
    return subprocess.run([WC, *args], capture_output=True, text=True, timeout=timeout, **kw)


def write(name, text, mode="w"):
    path = os.path.join(TMP, name)
    with open(path, mode) as f:
        f.write(text)
    return path


def one_line(r, status=2):
    """The process printed exactly one 'wormcast: ' line on stderr and exited with status."""
    lines = r.stderr.strip().splitlines()
    return r.returncode == status and len(lines) == 1 and lines[0].startswith("wormcast: ")


def err(r):
    return r.stderr.strip() or "(nothing on stderr)"


def json_of(r):
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


# ---- finding 8: empty lists run nothing and exit 0 ----
for args, what in ((["--algorithms", "pbcast", "--flits", ""], "--flits ''"),
                   (["--algorithms", "", "--flits", "4"], "--algorithms ''"),
                   (["--algorithms", ",", "--flits", "4"], "--algorithms ','"),
                   (["--algorithms", "pbcast", "--flits", "4,"], "--flits '4,'"),
                   (["--algorithms", "pbcast", "--flits", ",4"], "--flits ',4'"),
                   (["--algorithms", "pbcast,,hk", "--flits", "4"], "--algorithms 'pbcast,,hk'")):
    r = run("sweep", *Q4, *args)
    check(one_line(r) and r.stdout == "", "finding 8: sweep %s is refused (exit 2, one line): %s"
          % (what, err(r)))
cfg = write("empty-list.ini", "[algorithm]\nname = pbcast\nflits = 4,,8\n")
r = run("sweep", *Q4, "--config", cfg)
check(one_line(r) and "empty-list.ini:3: flits:" in r.stderr and "empty item" in r.stderr,
      "finding 8: an empty item in a configuration file's list names FILE:LINE: %s" % err(r))

# ---- finding 9: misleading messages ----
r = run(*PBCAST, "--config", TMP)
check(one_line(r) and "Is a directory" in r.stderr and "memory" not in r.stderr,
      "finding 9: --config DIRECTORY says it is a directory, not 'out of memory': %s" % err(r))
for ends, name in (("\r", "CR"), ("\r\n", "CR LF"), ("\n", "LF")):
    cfg = write("ends.ini", ends.join(["[ni]", "startup = 7", "[network]", "buffer_depth = 5", ""]),
                mode="w")
    with open(cfg, "wb") as f:
        f.write(ends.join(["[ni]", "startup = 7", "[network]", "buffer_depth = 5", ""]).encode())
    r = run(*PBCAST, "--config", cfg, "--json")
    j = json_of(r)
    check(r.returncode == 0 and j.get("startup") == 7 and j.get("buffer_depth") == 5
          and j.get("cycles") == 7 + 4 + 8 - 1,
          "finding 9: a configuration file with %s line ends is read (startup %s, buffer depth %s)"
          % (name, j.get("startup"), j.get("buffer_depth")))
with open(os.path.join(TMP, "cr-bad.ini"), "wb") as f:
    f.write(b"[ni]\rstartup = 7\r[network]\rbogus = 1\r")
r = run(*PBCAST, "--config", os.path.join(TMP, "cr-bad.ini"))
check(one_line(r) and "cr-bad.ini:4: unknown key 'bogus'" in r.stderr,
      "finding 9: errors in a CR-only file name the right line: %s" % err(r))
# Errors that need several values still name the file and the line the value came from.
for text, line, words, what in (
        ("[algorithm]\nname = pbcast\nflits = 8\nroot = 16\n", 4, "root: 16 is not a node", "root outside"),
        ("[network]\ntopology = hypercube:4\nport_model = one-port\n", 3, "port_model: pbcast is an algorithm "
         "for all-port routers", "a port model the algorithm does not use"),
        ("[algorithm]\nname = pbcast\n\n\nflits = 8\nroot = x\n", 6, "root: 'x' is not a whole number", "bad root")):
    cfg = write("cross.ini", text)
    r = run("run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "8", "--config", cfg)
    check(one_line(r) and ("cross.ini:%d: %s" % (line, words)) in r.stderr,
          "finding 9: %s in a configuration file names FILE:LINE: %s" % (what, err(r)))
with open(os.path.join(TMP, "nul.ini"), "wb") as f:
    f.write(b"[ni]\nstartup = 3\x00\n")
r = run(*PBCAST, "--config", os.path.join(TMP, "nul.ini"))
check(one_line(r) and "nul.ini:2: contains a NUL byte" in r.stderr,
      "finding 9: a NUL byte in a configuration file is named, not read as the end: %s" % err(r))
cfg = write("indent.ini", "[ni]\nstartup = 3\n  buffer_depth = 4\n")
r = run(*PBCAST, "--config", cfg)
check(one_line(r) and "indent.ini:3: indented line" in r.stderr,
      "finding 9: an indented key (inih's continuation line) is refused: %s" % err(r))

# ---- finding 10: one strict number parser for the command line, the files and traces ----
for value in ("+8", " 8", "8 ", "0x8", "8.0", "1e1", "-8", "", "8a", "99999999999999999999999"):
    r = run(*PBCAST[:-2], "--flits", "8", "--startup", value)
    check(one_line(r) and "--startup: " in r.stderr,
          "finding 10: --startup %r is refused: %s" % (value, err(r)))
for value in ("+0.1", "0x1p-3", "inf", "nan", " 0.1", "0.1 ", "1e400", "65", "-0", ".", "1e", "0.1.2"):
    r = run("traffic", *Q4, "--flits", "4", "--cycles", "10", "--rate", value)
    check(one_line(r) and "--rate: " in r.stderr,
          "finding 10: --rate %r is refused: %s" % (value, err(r)))
for value, want in (("010", 10), ("1e-1", None), (".5", None), ("0.25", None)):
    r = run("traffic", *Q4, "--flits", "4", "--cycles", "10", "--rate", value, "--json")
    check(r.returncode == 0, "finding 10: --rate %r is a number: %s" % (value, err(r) if r.returncode else "ok"))
r = run(*PBCAST, "--startup", "010", "--json")
check(r.returncode == 0 and json_of(r).get("startup") == 10,
      "finding 10: leading zeros are decimal, not octal (--startup 010 is 10)")
for value in ("hypercube:+4", "hypercube: 4", "hypercube:4 ", "hypercube:0x4", "mesh:4x+4", "mesh:4x4x4",
              "mesh:4X4", "hypercube:99999999999999999999"):
    r = run("run", "--topology", value, "--algorithm", "pbcast", "--flits", "8")
    check(one_line(r) and "topology" in r.stderr,
          "finding 10: --topology %r is refused: %s" % (value, err(r)))
for value in ("+8", "8 ", "0x8"):
    cfg = write("num.ini", "[ni]\nstartup = %s\n" % value)
    r = run(*PBCAST, "--config", cfg)
    # inih strips the blanks around a value (its syntax): "8 " is 8 there.
    if value == "8 ":
        check(r.returncode == 0, "finding 10: 'startup = 8 ' in a file is 8 (inih trims values)")
    else:
        check(one_line(r) and "num.ini:2: startup: '%s' is not a whole number" % value in r.stderr,
              "finding 10: 'startup = %s' in a file is refused with FILE:LINE: %s" % (value, err(r)))
for line, what in (("+5 0 R 3 4", "cycle"), ("5 +0 R 3 4", "source"), ("5 0 R 0x3 4", "destination"),
                   ("5 0 R 3 +4", "flits"), ("5 0 B 4e0", "flits")):
    tr = write("num.tr", line + "\n")
    r = run("trace", *Q4, "--trace", tr)
    check(one_line(r) and "num.tr:1: %s" % what in r.stderr and "not a whole number" in r.stderr,
          "finding 10: trace line %r is refused: %s" % (line, err(r)))
with open(os.path.join(TMP, "cr.tr"), "wb") as f:
    f.write(b"0 0 R 15 8\r1 1 R 14 4\r\r# comment\r2 2 B 3\r")
r = run("trace", *Q4, "--trace", os.path.join(TMP, "cr.tr"), "--json")
check(r.returncode == 0 and json_of(r).get("messages") == 3,
      "finding 9: a trace with CR-only line ends is read line by line (%s messages)" % json_of(r).get("messages"))
with open(os.path.join(TMP, "nul.tr"), "wb") as f:
    f.write(b"0 0 R 15 8\n1 1 R 14 4\x00\n")
r = run("trace", *Q4, "--trace", os.path.join(TMP, "nul.tr"))
check(one_line(r) and "nul.tr:2: contains a NUL byte" in r.stderr,
      "finding 9: a NUL byte in a trace is named with its line: %s" % err(r))
r = run("trace", *Q4, "--trace", TMP)
check(one_line(r) and "Is a directory" in r.stderr, "--trace DIRECTORY says so: %s" % err(r))
r = run("run", "--top", "hypercube:4", "--algorithm", "pbcast", "--flits", "8")
check(one_line(r) and "not abbreviated" in r.stderr,
      "finding 10: abbreviated options are refused (--top): %s" % err(r))
r = run("run", *Q4, "--algorithm", "pbcast", "--flits", "8", "--rate", "0.1")
check(one_line(r) and "unknown option '--rate' for run" in r.stderr,
      "an option another command takes is refused by this one: %s" % err(r))

# ---- finding 14: --one-port / --port-model for an algorithm of the other port model ----
for args, what in ((["--one-port"], "--one-port"), (["--port-model", "one-port"], "--port-model one-port")):
    r = run(*PBCAST, *args)
    check(one_line(r) and "pbcast is an algorithm for all-port routers" in r.stderr,
          "finding 14: run pbcast %s is refused, not ignored: %s" % (what, err(r)))
r = run("run", *Q4, "--algorithm", "sbt", "--flits", "8", "--port-model", "all-port")
check(one_line(r) and "sbt is an algorithm for one-port routers" in r.stderr,
      "finding 14: run sbt --port-model all-port is refused: %s" % err(r))
r = run("sweep", *Q4, "--algorithms", "pbcast,sbt", "--flits", "8", "--one-port")
check(one_line(r) and "pbcast" in r.stderr and r.stdout == "",
      "finding 14: sweep with --one-port and an all-port algorithm runs nothing: %s" % err(r))
r = run("run", *Q4, "--algorithm", "sbt", "--flits", "8", "--port-model", "one-port", "--json")
check(r.returncode == 0 and json_of(r).get("port_mode") == "one-port",
      "finding 14: the algorithm's own port model may be given")

# ---- finding 15: help ----
r = run("--help")
check(r.returncode == 0 and all(c in r.stdout for c in ("run", "sweep", "traffic", "trace", "list"))
      and "Exit status" in r.stdout and r.stderr == "",
      "finding 15: wormcast --help lists the commands and the exit statuses")
doc = run("help", "--markdown").stdout
rows = [l for l in doc.splitlines() if l.startswith("| `--")]
for cmd in ("run", "sweep", "traffic", "trace", "list"):
    r = run(cmd, "--help")
    ok = r.returncode == 0 and r.stderr == "" and r.stdout.startswith("usage: wormcast %s" % cmd)
    missing = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        name = cells[0].strip("`").split(" ")[0]
        commands = cells[4]
        if cmd in commands or commands == "every command" or (
                commands == "run, sweep, traffic, trace" and cmd != "list"):
            text = " ".join(r.stdout.split())
            # The option, its range and its default as docs/config.md has them.
            for part in (name, cells[1].replace("\\|", "|"), cells[2].replace("\\|", "|")):
                if part and part != "required" and " ".join(part.split()) not in text:
                    missing.append("%s (%s)" % (name, part))
    check(ok and not missing, "finding 15: wormcast %s --help lists each of its options with range and "
          "default%s" % (cmd, "; missing: " + ", ".join(missing) if missing else ""))
r = run(*PBCAST, "--bogus", "--help")
check(r.returncode == 0 and r.stdout.startswith("usage: wormcast run"),
      "finding 15: --help wins over other arguments")
r = run("help", "nosuch")
check(one_line(r), "wormcast help nosuch: exit 2, one line: %s" % err(r))

finish()
