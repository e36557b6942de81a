#!/usr/bin/env python3
"""Draw a wormcast figure with matplotlib.

usage: plot.py FIGURE.json OUT.png|OUT.svg ...     draw the figure into each file
       plot.py --check                             exit 0 if matplotlib is there

wormcast (src/plotter.c) runs this; FIGURE.json is the figure src/figure.h describes:
panels with their axes and series of points, each point the figures of one run. What
to draw is decided there and in the experiment files; this only draws it:

  lines      measured cycles as points over lines: the predicted cycles ("formula"),
             the source's own formula ("published", dotted), the lower bound ("bound",
             dashed), as each series' "curves" asks;
  load       mean (solid) and 99th percentile (dashed) latency against offered load,
             the saturation point marked;
  histogram  the latencies of a trace (the CSV of 'wormcast trace --latencies').
"""
import csv
import json
import math
import os
import sys

STYLE = {"formula": "-", "published": ":", "bound": "--"}
FIELD = {"formula": "predicted_cycles", "published": "published_cycles",
         "bound": "lower_bound_cycles"}
CURVE_WORDS = {"formula": "solid: predicted", "published": "dotted: published formula",
               "bound": "dashed: lower bound"}


def scaled(panel, v):
    """Cycles in the panel's unit: microseconds if it has a cycle time."""
    t = panel.get("cycle_time_us")
    return None if v is None else v * t if t else v


def draw_lines(ax, panel, colour, handles):
    from matplotlib.lines import Line2D
    used = set()
    for i, s in enumerate(panel["series"]):
        c = colour(s["label"])
        pts = sorted(s["points"], key=lambda p: p["x"])
        for curve in s["curves"]:
            xy = [(p["x"], scaled(panel, p.get(FIELD[curve]))) for p in pts]
            xy = [(x, y) for x, y in xy if y is not None]
            if xy:
                ax.plot(*zip(*xy), STYLE[curve], color=c, linewidth=1.3)
                used.add(curve)
        meas = [(p["x"], scaled(panel, p.get("cycles"))) for p in pts if p.get("cycles") is not None]
        if meas:
            ax.plot(*zip(*meas), "o", color=c, markersize=4.5, markerfacecolor="none")
        label = s["label"]
        if label not in handles:
            handles[label] = Line2D([], [], color=c, marker="o", markerfacecolor="none",
                                    markersize=4.5, linestyle="-")
    return used


def draw_load(ax, panel, colour, handles):
    """Latency (mean and 99th percentile) or, in the second row, the sent load."""
    from matplotlib.lines import Line2D
    sent = panel.get("y") == "sent"
    top = 0
    for s in panel["series"]:
        c = colour(s["label"])
        pts = sorted(s["points"], key=lambda p: p["x"])
        fields = (("sent_rate", "-"),) if sent else (("avg_latency", "-"), ("p99_latency", "--"))
        for field, style in fields:
            xy = [(p["x"], p.get(field)) for p in pts if p.get(field) is not None]
            if xy:
                ax.plot(*zip(*xy), style, marker="o", markersize=3.5, color=c, linewidth=1.3)
                top = max(top, max(x for x, _ in xy))
        sat = s.get("saturation")
        if sat is not None:
            ax.axvline(sat, color=c, linestyle=":", linewidth=1.2)
            if not sent:
                ax.annotate("saturation %.3g " % sat, xy=(sat, 0.98),
                            xycoords=("data", "axes fraction"), ha="right", va="top",
                            fontsize=7.5, color=c, rotation=90)
        if s["label"] not in handles:
            handles[s["label"]] = Line2D([], [], color=c, marker="o", markersize=3.5)
    if sent and top:
        ax.plot([0, top], [0, top], color="grey", linewidth=0.8, linestyle="-.")
    return {"sent"} if sent else {"load"}


def draw_histogram(ax, panel, colour, handles, base):
    s = panel["series"][0]
    path = os.path.join(base, panel["latencies"])
    with open(path, newline="") as f:
        lat = [int(r["latency"]) for r in csv.DictReader(f) if r["latency"]]
    c = colour(s["label"])
    ax.hist(lat, bins=panel.get("bins", 40), color=c, alpha=0.75)
    p = s["points"][0]
    for field, style, name in (("avg_latency", "-", "mean"), ("p50_latency", "--", "median"),
                               ("p99_latency", ":", "99th percentile")):
        v = p.get(field)
        if v is not None:
            ax.axvline(v, color="black", linestyle=style, linewidth=1.1)
            ax.annotate(" %s %.0f" % (name, v), xy=(v, 0.97), xycoords=("data", "axes fraction"),
                        ha="left", va="top", fontsize=8, rotation=90)
    return set()


def main(argv):
    if argv[1:] == ["--check"]:
        import matplotlib  # noqa: F401  (the check is that it imports)
        return 0
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator, ScalarFormatter
    # Text stays text in an SVG (small files), and the file is the same every time.
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "wormcast",
                         "font.size": 9, "axes.titlesize": 9.5})

    with open(argv[1]) as f:
        spec = json.load(f)
    spec = spec.get("figure", spec)     # NAME.json of reproduce holds the figure and the runs
    base = os.path.dirname(os.path.abspath(argv[1]))
    panels = spec["panels"]
    cols = 2 if len(panels) > 1 else 1
    rows = math.ceil(len(panels) / cols)
    # Inches: the panels, the title above, the legend and the note below.
    legend_rows = math.ceil((len(panels[0]["series"]) + 4) / 3) if spec["kind"] != "histogram" else 0
    below = 0.24 * legend_rows + (0.3 if spec.get("note") else 0) + 0.1
    height = 3.9 * rows + 0.5 + below
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, height), squeeze=False)
    # matplotlib's colours without its grey, which the legend's line styles use.
    palette = [c for c in plt.rcParams["axes.prop_cycle"].by_key()["color"] if c != "#7f7f7f"]
    palette += ["#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173"]
    colours = {}

    def colour(label):
        # A series keeps its colour in every panel.
        return colours.setdefault(label, palette[len(colours) % len(palette)])

    handles, curves = {}, set()
    for k, panel in enumerate(panels):
        ax = axes[k // cols][k % cols]
        kind = spec["kind"]
        if kind == "lines":
            curves |= draw_lines(ax, panel, colour, handles)
        elif kind == "load":
            curves |= draw_load(ax, panel, colour, handles)
        else:
            draw_histogram(ax, panel, colour, handles, base)
        ax.set_title(panel.get("title", ""))
        ax.set_xlabel(panel.get("x_label", ""))
        ax.set_ylabel(panel.get("y_label", ""))
        if panel.get("log_x"):
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(ScalarFormatter())
        elif kind == "lines":
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if panel.get("log_y"):
            ax.set_yscale("log")
        elif kind != "histogram":
            ax.set_ylim(bottom=0)
        ax.grid(True, linewidth=0.4, alpha=0.5)
    for k in range(len(panels), rows * cols):
        axes[k // cols][k % cols].set_visible(False)

    # One legend for the figure: the series by colour, then what the line styles mean.
    items = list(handles.items())
    if spec["kind"] == "lines":
        items.append(("points: measured", Line2D([], [], color="grey", marker="o",
                                                 markerfacecolor="none", linestyle="none")))
        items += [(CURVE_WORDS[c], Line2D([], [], color="grey", linestyle=STYLE[c]))
                  for c in ("formula", "published", "bound") if c in curves]
    elif spec["kind"] == "load":
        items += [("latency, solid: mean", Line2D([], [], color="grey", linestyle="-")),
                  ("latency, dashed: 99th percentile",
                   Line2D([], [], color="grey", linestyle="--")),
                  ("dotted: saturation point", Line2D([], [], color="grey", linestyle=":"))]
        if "sent" in curves:
            items.append(("dash-dot: sent = offered", Line2D([], [], color="grey",
                                                             linestyle="-.")))
    note = spec.get("note")
    note_h = 0.3 / height if note else 0
    if items:
        fig.legend([h for _, h in items], [t for t, _ in items], loc="lower center",
                   bbox_to_anchor=(0.5, note_h), ncol=min(3, len(items)), fontsize=8,
                   frameon=False)
    fig.suptitle(spec.get("title", ""), fontsize=11)
    if note:
        fig.text(0.5, 0.08 / height, note, ha="center", va="bottom", fontsize=7.5)
    rows_used = math.ceil(len(items) / 3) if items else 0
    bottom = (0.24 * rows_used + 0.1) / height + note_h
    fig.tight_layout(rect=(0, bottom, 1, 1 - 0.4 / height))
    for out in argv[2:]:
        fmt = "svg" if out.endswith(".svg") else "png"
        fig.savefig(out, format=fmt, dpi=110,
                    metadata={"Date": None} if fmt == "svg" else {"Software": None})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
