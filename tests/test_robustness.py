#!/usr/bin/env python3
"""Hostile and careless input, as a new user would give it: the regression tests of the
findings of issue 10 (docs/robustness.md lists each class of bad input, its message and
the check here that covers it).

usage: test_robustness.py WORMCAST
"""
import json
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, finish, quiet, scratch_dir  # noqa: E402

WC = os.path.abspath(sys.argv[1])
HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "traces")
TMP = scratch_dir("wormcast-robust-")
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
    lines = quiet(r.stderr).strip().splitlines()
    return r.returncode == status and len(lines) == 1 and lines[0].startswith("wormcast: ")


def err(r):
    return r.stderr.strip().replace("\n", " | ") or "(nothing on stderr)"


def json_of(r):
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def rtl_engines():
    """This build has the RTL engines ('wormcast list --json'): every configuration is
    then built on its first use (cosim/rtl_cache.h)."""
    r = run("list", "--json")
    return "cosim" in json_of(r).get("engines", [])


def has_rtl(topo, port="all-port"):
    return RTL


def leftovers(directory):
    """Temporary files an output left behind (".NAME.XXXXXX")."""
    return [n for n in os.listdir(directory) if n.startswith(".")]


RTL = rtl_engines()
if RTL:
    # The RTL configurations below are built on their first use (up to a minute each on a
    # busy machine): built here, so that the checks with short time limits time the run,
    # not the build.
    for build in (["--topology", "hypercube:4"], ["--topology", "hypercube:4", "--one-port"],
                  ["--topology", "hypercube:4", "--inject-bug", "3"],
                  ["--topology", "mesh:4x4", "--one-port"]):
        run("traffic", *build, "--rate", "0.1", "--flits", "2", "--cycles", "10", "--engine", "rtl",
            timeout=1200)


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
        ("[algorithm]\nname = pbcast\n\n\nflits = 8\nroot = x\n", 6, "root: 'x' is not a whole number", "bad root"),
        ("[run]\nmismatch_vcd = x.vcd\n", 2, "mismatch_vcd: only a cosimulation has mismatches",
         "a mismatch window without a cosimulation")):
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

# ---- finding 1: a waveform on a full disk (/dev/full) hung the RTL engines ----
for engine in ("model", "rtl", "cosim"):
    if engine != "model" and not has_rtl("hypercube:4"):
        print("SKIP: no RTL build of hypercube:4 (finding 1, --engine %s)" % engine)
        continue
    for flag in ("--vcd", "--fst"):
        try:
            r = run(*PBCAST, "--engine", engine, flag, "/dev/full", timeout=60)
            ok = one_line(r, 1) and "No space left on device" in r.stderr
            what = err(r)
        except subprocess.TimeoutExpired:
            ok, what = False, "still running after 60 s (hangs)"
        check(ok, "finding 1: --engine %s %s /dev/full ends with one line and exit 1: %s"
              % (engine, flag, what))

# ---- finding 4: failed writes exit 0; failures on stdout or nowhere ----
with open("/dev/full", "w") as full:
    for args in ([*PBCAST, "--json"], PBCAST, ["list"], ["--help"], ["help", "--markdown"]):
        r = subprocess.run([WC, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        check(r.returncode == 1 and r.stderr.strip() == "wormcast: cannot write the standard output: "
              "No space left on device",
              "finding 4: wormcast %s > /dev/full: exit 1 and one line: %s"
              % (" ".join(args[:2]), r.stderr.strip()))
tr = os.path.join(TRACES, "mixed-q4.tr")
r = run("trace", *Q4, "--trace", tr, "--latencies", "/dev/full", "--json")
check(one_line(r, 1) and "--latencies: cannot write '/dev/full': No space left on device" in r.stderr
      and json_of(r).get("ok") is True,
      "finding 4: --latencies /dev/full: the report is printed, then one line and exit 1: %s" % err(r))
if has_rtl("hypercube:4"):
    r = run("run", *Q4, "--algorithm", "pbcast", "--flits", "17", "--engine", "cosim",
            "--inject-bug", "3", "--mismatch-vcd", "/dev/full", "--json")
    check(r.returncode == 1 and "cannot write" in r.stderr and "/dev/full" in r.stderr
          and "mismatch" in r.stderr and "/dev/full" not in r.stdout.replace('"mismatch_vcd"', ""),
          "finding 4: --mismatch-vcd /dev/full: the failure is on stderr, exit 1: %s" % err(r))
    cwd = tempfile.mkdtemp(dir=TMP)
    r = run("run", *Q4, "--algorithm", "pbcast", "--flits", "17", "--engine", "cosim",
            "--inject-bug", "3", cwd=cwd)
    check(r.returncode == 1 and os.listdir(cwd) == [] and "--mismatch-vcd FILE writes" in r.stderr,
          "a cosim mismatch without --mismatch-vcd writes no file into the current directory: %s"
          % os.listdir(cwd))
else:
    print("SKIP: no RTL build of hypercube:4 with bug 3 (finding 4, --mismatch-vcd)")

# ---- finding 5: --fst unlinked what it did not create (a device node) ----
d = tempfile.mkdtemp(dir=TMP)
fifo = os.path.join(d, "waves.fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
reader.start()
r = run(*PBCAST, "--fst", fifo)
reader.join(30)
check(r.returncode == 0 and stat.S_ISFIFO(os.lstat(fifo).st_mode) and got and got[0][:1] == b"\x00"
      and len(got[0]) > 100 and leftovers(d) == [],
      "finding 5: --fst FIFO writes the FST into the FIFO and leaves it a FIFO, nothing else in "
      "the directory (%s bytes, %s)" % (len(got[0]) if got else None, os.listdir(d)))
target = os.path.join(d, "target.fst")
link = os.path.join(d, "link.fst")
with open(target, "w") as f:
    f.write("OLD")
os.symlink("target.fst", link)
r = run(*PBCAST, "--fst", link)
check(r.returncode == 0 and os.path.islink(link) and os.readlink(link) == "target.fst"
      and os.path.getsize(target) > 100 and leftovers(d) == [],
      "finding 5: --fst SYMLINK replaces the file it points to and keeps the link: %s" % err(r))
for path in ("/dev/null",):
    r = run(*PBCAST, "--fst", path)
    check(r.returncode == 0 and stat.S_ISCHR(os.stat(path).st_mode),
          "finding 5: --fst %s is written to, never unlinked or renamed onto" % path)

# ---- finding 6: outputs truncated at the start, half a file after a failure ----
d = tempfile.mkdtemp(dir=TMP)
outs = {n: os.path.join(d, n) for n in ("w.vcd", "lat.csv")}
for path in outs.values():
    with open(path, "w") as f:
        f.write("OLD")
bad = write("bad6.tr", "0 0 R 3 4\n1 0 Q 3 4\n")
r = run("trace", *Q4, "--trace", bad, "--vcd", outs["w.vcd"], "--latencies", outs["lat.csv"])
check(one_line(r) and all(open(p).read() == "OLD" for p in outs.values()) and leftovers(d) == [],
      "finding 6: a bad trace leaves the outputs as they were, no temporary file: %s" % err(r))
r = run("run", *Q4, "--algorithm", "pbcast", "--flits", "8", "--vcd", outs["w.vcd"],
        "--watchdog", "50", "--replication-cost", "50")
check(one_line(r) and open(outs["w.vcd"]).read() == "OLD",
      "finding 6: a run refused before it starts does not touch its output: %s" % err(r))
# A run that cannot finish (memory runs out) leaves the old file, not half a new one.  The
# model keeps every message but not its payload (generated on the fly), so it takes many
# messages, not long ones, to run out of memory.
big = write("big.tr", "0 1 R 2 2\n" * 1000000)


def limited(mb):
    return lambda: resource.setrlimit(resource.RLIMIT_DATA, (mb << 20, mb << 20))


# The sanitizer build (build-asan, scripts/test.sh) says so: AddressSanitizer reserves its
# shadow memory at start and cannot run under a data limit, so the out-of-memory checks
# run only in build/.
SANITIZED = os.environ.get("WORMCAST_SANITIZED") == "1"
SANITIZED_SKIP = "%s: a memory limit and AddressSanitizer do not mix (checked in the release build)"


if SANITIZED:
    print("SKIP: " + SANITIZED_SKIP % "finding 6, out of memory")
else:
    r = subprocess.run([WC, "trace", *Q4, "--trace", big, "--vcd", outs["w.vcd"]], capture_output=True,
                       text=True, timeout=120, preexec_fn=limited(64))
    check(r.returncode == 1 and r.stderr == "wormcast: out of memory\n"
          and open(outs["w.vcd"]).read() == "OLD" and leftovers(d) == [],
          "finding 6: a run that runs out of memory leaves the old waveform whole and no temporary "
          "file: %s" % err(r))
r = run("trace", *Q4, "--trace", tr, "--vcd", outs["w.vcd"], "--latencies", outs["lat.csv"])
with open(outs["w.vcd"]) as f:
    vcd_text = f.read()
with open(outs["lat.csv"]) as f:
    csv_text = f.read()
check(r.returncode == 0 and vcd_text.startswith("$date") and "$enddefinitions" in vcd_text
      and csv_text.startswith("line,cycle") and leftovers(d) == [],
      "finding 6: a run that succeeds replaces both outputs whole")

# ---- finding 7: outputs overwrote inputs ----
d = tempfile.mkdtemp(dir=TMP)
tin = os.path.join(d, "in.tr")
with open(tin, "w") as f:
    f.write("0 0 R 15 8\n")
os.link(tin, os.path.join(d, "hard.tr"))
os.symlink("in.tr", os.path.join(d, "soft.tr"))
cfg7 = os.path.join(d, "c.ini")
with open(cfg7, "w") as f:
    f.write("[ni]\nstartup = 3\n")
for args, what in ((["--latencies", tin], "--latencies is the trace"),
                   (["--latencies", os.path.join(d, "hard.tr")], "--latencies is a hard link to the trace"),
                   (["--vcd", os.path.join(d, "soft.tr")], "--vcd is a symbolic link to the trace"),
                   (["--config", cfg7, "--vcd", cfg7], "--vcd is the configuration file"),
                   (["--vcd", os.path.join(d, "x"), "--latencies", os.path.join(d, "x")],
                    "two outputs, one new file"),
                   (["--vcd", os.path.join(d, "x"), "--latencies", os.path.join(d, ".", "x")],
                    "two outputs, one new file by two names")):
    r = run("trace", *Q4, "--trace", tin, *args)
    with open(tin) as f:
        intact = f.read() == "0 0 R 15 8\n"
    check(one_line(r) and intact and not os.path.exists(os.path.join(d, "x")),
          "finding 7: %s is refused (exit 2), the input intact: %s" % (what, err(r)))
r = run("trace", *Q4, "--trace", tin, "--vcd", "/dev/null", "--latencies", "/dev/null")
check(r.returncode == 0, "two outputs into /dev/null are fine: %s" % (err(r) if r.returncode else "ok"))

# ---- finding 11: endless runs; Ctrl-C ----
for opt_, value in (("--cycles", "1099511627776"), ("--watchdog", "1099511627776"),
                    ("--cycles", "100000001")):
    r = run("traffic", *Q4, "--rate", "0.1", "--flits", "4", opt_, value)
    check(one_line(r) and "out of range 1..100000000" in r.stderr,
          "finding 11: %s %s is beyond the ceiling: %s" % (opt_, value, err(r)))
for sig, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
    d = tempfile.mkdtemp(dir=TMP)
    vcd = os.path.join(d, "long.vcd")
    p = subprocess.Popen([WC, "traffic", "--topology", "mesh:8x8", "--rate", "0.2", "--flits", "1-8",
                          "--cycles", "100000000", "--vcd", vcd, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    p.send_signal(sig)
    try:
        out, errs = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, errs = p.communicate()
    try:
        j = json.loads(out)
    except ValueError:
        j = {}
    with open(vcd) as f:
        head = f.read(200)
    check(p.returncode == 128 + sig and j.get("interrupted") is True and j.get("ok") is False
          and 0 < j.get("cycles_simulated", 0) < 100000000 and "interrupted at cycle" in errs
          and head.startswith("$date") and leftovers(d) == [],
          "finding 11: %s ends a long run at once: exit %d, a partial report marked interrupted "
          "(%s cycles), the waveform written whole: %s"
          % (name, p.returncode, j.get("cycles_simulated"), errs.strip()[:120]))

# ---- finding 12 and 16: out of memory is one message, exit 1, never a crash ----
if SANITIZED:
    print("SKIP: " + SANITIZED_SKIP % "findings 12 and 16")
else:
    for args, what in ((["trace", *Q4, "--trace", big], "trace"),
                       (["traffic", "--topology", "hypercube:10", "--rate", "64", "--flits", "8",
                         "--cycles", "100000"], "traffic (finding 2: no message dropped silently)"),
                       # A reduction keeps its partial sums as words (a broadcast's words are
                       # generated: pbcast with these 16 M flits runs in 2.5 MB).
                       (["run", *Q4, "--algorithm", "reduce", "--flits", "16777216"], "run")):
        r = subprocess.run([WC, *args, "--json"], capture_output=True, text=True, timeout=120,
                           preexec_fn=limited(64))
        check(r.returncode == 1 and r.stderr == "wormcast: out of memory\n" and r.stdout == "",
              "finding 12: %s out of memory: exactly 'wormcast: out of memory', exit 1: %r"
              % (what, r.stderr[:200]))
    crashes = []
    for mb in (6, 8, 10, 12, 16, 20, 24, 32, 48):
        for args in (["traffic", "--topology", "mesh:16x16", "--rate", "0.9", "--flits", "64",
                      "--cycles", "300", "--json"],
                     ["trace", *Q4, "--trace", tr, "--latencies", os.path.join(TMP, "oom.csv"), "--json"]):
            r = subprocess.run([WC, *args], capture_output=True, text=True, timeout=120,
                               preexec_fn=limited(mb))
            fine = (r.returncode == 0 and json_of(r).get("ok") is True) or (
                r.returncode == 1 and r.stderr == "wormcast: out of memory\n" and r.stdout == "")
            if not fine:
                crashes.append("%s at %d MB: exit %d %r" % (args[0], mb, r.returncode, r.stderr[-200:]))
    check(not crashes, "finding 16: under memory limits from 6 to 48 MB every run is a whole report "
          "or 'wormcast: out of memory' with exit 1, never a crash%s" % ("; " + "; ".join(crashes[:3]) if crashes else ""))

# ---- finding 13: a figure an engine does not measure is null, never 0 ----
workloads = [(["traffic", *Q4, "--rate", "0.5", "--flits", "1-24", "--cycles", "2000", "--seed", "3"],
              ("hypercube:4", "all-port")),
             (["trace", *Q4, "--trace", tr], ("hypercube:4", "all-port")),
             # Barnett et al.'s naive tree has XY link conflicts by design.
             (["run", "--topology", "mesh:4x4", "--algorithm", "mstnaive", "--flits", "9"],
              ("mesh:4x4", "one-port"))]
for w, build in workloads:
    jm = json_of(run(*w, "--json"))
    check(jm.get("link_conflict_cycles", 0) > 0, "finding 13: %s --engine model measures %s link "
          "conflict cycles" % (w[0], jm.get("link_conflict_cycles")))
    if not has_rtl(*build):
        print("SKIP: no RTL build of %s %s (finding 13)" % build)
        continue
    jr, jc = json_of(run(*w, "--engine", "rtl", "--json")), json_of(run(*w, "--engine", "cosim", "--json"))
    check("link_conflict_cycles" in jr and jr["link_conflict_cycles"] is None
          and jc.get("link_conflict_cycles") == jm.get("link_conflict_cycles")
          and jr.get("cycles_compared", 0) is None and jr.get("flit_hops") == jm.get("flit_hops"),
          "finding 13: %s --engine rtl reports link_conflict_cycles null (cosim, with the model: "
          "%s), and what it measures as the model does" % (w[0], jc.get("link_conflict_cycles")))
    t = run(*w, "--engine", "rtl")
    check("not measured" in t.stdout and "conflict" in t.stdout,
          "finding 13: %s --engine rtl says 'not measured' in its table" % w[0])

# ---- the deadlock report: the same chain of blocked messages from every engine ----
dead = ["traffic", "--topology", "hypercube:4", "--one-port", "--rate", "0.3", "--flits", "1-24",
        "--cycles", "20000", "--ir-fraction", "0.3", "--seed", "4", "--watchdog", "2000"]
rm = run(*dead)
check(rm.returncode == 1 and "blocked chain 1:" in rm.stderr and "the cycle closes" in rm.stderr,
      "a one-port IR deadlock is reported as a chain of blocked messages closing into a cycle")
if has_rtl("hypercube:4", "one-port"):
    for engine in ("rtl", "cosim"):
        r = run(*dead, "--engine", engine)
        check(r.returncode == 1 and quiet(r.stderr) == rm.stderr,
              "the deadlock report of --engine %s, read from the RTL's registers, is the model's, "
              "line for line" % engine)
else:
    print("SKIP: no RTL build of hypercube:4 one-port (the deadlock chain from the RTL)")

finish()
