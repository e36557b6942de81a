"""checks.py - the one reporting convention of the Python test suites: one line per
check ("PASS: ..." / "FAIL: ..."), then "N passed, M failed", exit status 1 if any
check failed.

    from checks import check, finish
    check(result == expected, "what was checked, with the values seen")
    finish()
"""
import sys

_counts = {"passed": 0, "failed": 0}


def check(ok, what):
    """Record one check; returns ok so a caller can stop early after a failure."""
    print(("PASS: " if ok else "FAIL: ") + what, flush=True)
    _counts["passed" if ok else "failed"] += 1
    return ok


def finish():
    """Print the summary and exit: 0 if every check passed, 1 otherwise."""
    print("%d passed, %d failed" % (_counts["passed"], _counts["failed"]))
    sys.exit(1 if _counts["failed"] or not _counts["passed"] else 0)
