#!/usr/bin/env python3
"""Print the tables of docs/results.md, as Markdown, from what 'wormcast reproduce' wrote.

usage: scripts/results-tables.py DIR [NAME...]     (default: every NAME.json in DIR)

For each experiment, one table per panel: a row per x, a column per series.  A lines
plot shows the measured cycles, "= predicted" where the prediction is exact, the
prediction beside them where it is not, and the prediction alone, in parentheses,
where nothing was simulated; a load plot shows mean / 99th percentile latency and the
sent load, and the saturation point of each series; a histogram its summary.
"""
import json
import os
import sys


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float) and v != int(v):
        return "%.3g" % v
    return "{:,}".format(int(v))


def lines_cell(run):
    meas, pred = run.get("cycles"), run.get("predicted_cycles")
    if not run.get("simulated"):
        return "(%s)" % fmt(pred)
    if meas == pred:
        return "%s =" % fmt(meas)
    return "%s (%s)" % (fmt(meas), fmt(pred))


def load_cell(run):
    return "%s / %s / %s" % (fmt(run.get("avg_latency")), fmt(run.get("p99_latency")),
                             fmt(run.get("sent_rate")))


def table(exp):
    fig, runs = exp["figure"], exp["runs"]
    kind = fig["kind"]
    out = ["### %s" % fig["title"], ""]
    if kind == "histogram":
        r = runs[0]
        out += ["| messages | delivered | mean | min | median | p99 | max |", "|---|---|---|---|---|---|---|",
                "| %s | %s | %s | %s | %s | %s | %s |" % tuple(fmt(r.get(k)) for k in (
                    "messages", "delivered", "avg_latency", "min_latency", "p50_latency",
                    "p99_latency", "max_latency")), ""]
        return out
    # A load figure has a second row of panels (the sent load): the first row will do.
    for p in fig["panels"]:
        if p.get("y") == "sent":
            continue
        panel = p["name"]
        labels = {s["name"]: s["label"] for s in p["series"]}
        series = [s["name"] for s in p["series"]]
        out.append("%s%s" % (p["title"], ", mean / p99 latency / sent load" if kind == "load" else ""))
        out.append("")
        out.append("| %s | %s |" % (p["x_label"], " | ".join(labels[n] for n in series)))
        out.append("|---" * (len(series) + 1) + "|")
        xs = []
        for r in runs:
            if r["panel"] == panel and r["x"] not in xs:
                xs.append(r["x"])
        for x in xs:
            cells = []
            for n in series:
                r = next((r for r in runs if r["panel"] == panel and r["series"] == n and r["x"] == x), None)
                cells.append("" if r is None else lines_cell(r) if kind == "lines" else load_cell(r))
            out.append("| %s | %s |" % (fmt(x), " | ".join(cells)))
        if kind == "load":
            sat = []
            for n in series:
                r = next(r for r in runs if r["panel"] == panel and r["series"] == n)
                sat.append("%s: %s" % (labels.get(n, n), fmt(r.get("saturation"))
                                       if r.get("saturation") is not None else "none"))
            out.append("")
            out.append("Saturation point: " + "; ".join(sat) + ".")
        out.append("")
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    d = argv[1]
    names = argv[2:] or sorted(f[:-5] for f in os.listdir(d) if f.endswith(".json"))
    for name in names:
        with open(os.path.join(d, name + ".json")) as f:
            print("\n".join(table(json.load(f))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
