/* SPDX-License-Identifier: MIT */
/*
 * experiment.h - an experiment as data: an INI file (read with inih, src/config.h)
 * that says which runs make up a figure and how to draw it.  docs/results.md describes
 * the format; in short:
 *
 *   [experiment]       title, source, note, command (run | traffic | trace),
 *                      plot (lines | load | histogram), and defaults for the sections
 *   [panel NAME]       one panel of the figure: its title and axes, and options
 *   [series NAME]      one curve in every panel (or in the panels it names): its
 *                      label, the curves to draw, and options
 *
 * Any other key is an option of the command, by its long name (startup = 345,
 * replication-cost = 1, algorithm = pbcast), checked as the command line would check
 * it; a series' options override its panel's, which override the experiment's.  The
 * x axis (x = dimension | side | flits | bytes | rate, values = 1..10) sets one option
 * per point; `quick.KEY = VALUE` replaces KEY of its own section under --quick.  In a
 * lines plot the formulas are evaluated at every value (run --formula-only) and the
 * runs are simulated at the values of `measure` (quick.measure under --quick), all of
 * them if it is not given.
 *
 * Every error is one line, "FILE:LINE: what", exit status 2, before anything runs.
 */
#ifndef WORMCAST_EXPERIMENT_H
#define WORMCAST_EXPERIMENT_H

#include <stdbool.h>

#include "failure.h"
#include "options.h"

enum exp_plot {
	PLOT_LINES,		/* cycles: measured points over formula lines */
	PLOT_LOAD,		/* latency against offered load, saturation marked */
	PLOT_HISTOGRAM,		/* the latencies of a trace */
};

struct experiment;

/* One run of an experiment. */
struct exp_point {
	int panel, series;	/* their numbers, in file order from 0 */
	double x;		/* the value on the x axis (0 without one) */
	bool measured;		/* simulated; else the formulas only (run --formula-only) */
	char **argv;		/* the command line (jobs.h), to free with argv_free() */
	double weight;		/* estimated cost */
};

/* Read and check the file.  0, or -1 with "FILE:LINE: what" (2) or out of memory (1). */
int experiment_load(const char *path, const char *name, struct experiment **e, struct failure *f);
void experiment_free(struct experiment *e);

/*
 * Every run of the experiment as a command line of self (this program), each checked
 * as that command would check it (a bad combination: "FILE:LINE: [series S] in [panel
 * P] at x = V: what", 2).  latencies is the file a trace run writes its latencies to.
 */
int experiment_points(const struct experiment *e, bool quick, const char *self,
		      const char *latencies, struct exp_point **points, int *n, struct failure *f);
void experiment_points_free(struct exp_point *points, int n);

/* What the figure needs: names and keys of the file. */
const char *experiment_name(const struct experiment *e);
const char *experiment_path(const struct experiment *e);
enum exp_plot experiment_plot(const struct experiment *e);
int experiment_panels(const struct experiment *e);
int experiment_series(const struct experiment *e);
const char *experiment_panel_name(const struct experiment *e, int panel);
const char *experiment_series_name(const struct experiment *e, int series);
/* Whether a series is drawn in a panel (its `panels` key). */
bool experiment_series_in(const struct experiment *e, int series, int panel);
/*
 * A display key's value for the experiment (panel and series -1), a panel (series
 * -1) or a series in a panel, or NULL if not given; the nearest section wins.
 */
const char *experiment_key(const struct experiment *e, int panel, int series, const char *key);

/* The x axis of a panel: its default label ("cube dimension d"), NULL without one. */
const char *experiment_axis_label(const struct experiment *e, int panel);

#endif
