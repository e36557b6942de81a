"""checks.py - the one reporting convention of the Python test suites: one line per
check ("PASS: ..." / "FAIL: ..."), then "N passed, M failed", exit status 1 if any
check failed.

    from checks import check, finish
    check(result == expected, "what was checked, with the values seen")
    finish()

Temporary files go in scratch_dir(): removed at exit, so that a suite run leaves nothing
in /tmp (the traces and builds of some tests are gigabytes), kept after a failure.
"""
import atexit
import json
import shutil
import subprocess
import sys
import tempfile

_counts = {"passed": 0, "failed": 0}


def check(ok, what):
    """Record one check; returns ok so a caller can stop early after a failure."""
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    _counts["passed" if ok else "failed"] += 1
    return ok


def scratch_dir(prefix="wormcast-test-"):
    """A new temporary directory, removed when the program exits if every check passed
    and it did not die of an exception; otherwise kept and named on stdout, to look at."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(_remove_scratch, d)
    return d


def _remove_scratch(d):
    if _counts["failed"] or getattr(sys, "last_value", None) is not None:
        print("kept for inspection: %s" % d, flush=True)
    else:
        shutil.rmtree(d, ignore_errors=True)


def finish():
    """Print the summary and exit: 0 if every check passed, 1 otherwise."""
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] or not _counts["passed"] else 0)


# What the cache of RTL builds says on stderr when a run builds a configuration or waits
# for another process that builds it (cosim/rtl_cache.cpp): which runs say it depends
# on which test ran first, so comparisons of stderr leave these lines out.
BUILD_LINES = ("wormcast: building the RTL of ", "wormcast: waiting for another wormcast that builds ",
               "wormcast: waiting for 'wormcast cache clear'")


def quiet(stderr):
    """stderr without the RTL cache's lines about building (BUILD_LINES)."""
    return "".join(l for l in stderr.splitlines(True) if not l.startswith(BUILD_LINES))


def run(prog, *args, expect_json=True, timeout=600, cwd=None):
    """Run a program; returns (CompletedProcess, parsed stdout JSON or {})."""
    r = subprocess.run([prog, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd)
    j = {}
    if expect_json:
        try:
            j = json.loads(r.stdout)
        except ValueError:
            pass
    return r, j
