/* SPDX-License-Identifier: MIT */
/*
 * progress.h - a progress bar with the time left, on stderr, for commands that run
 * many runs (sweep, reproduce):
 *
 *   [###########.............]  12/40 runs  30%  0:12 elapsed, about 0:28 left
 *
 * It is drawn only where someone watches it: when stderr is a terminal and the user
 * did not ask for --quiet; otherwise every call does nothing, so a log file or a pipe
 * never holds carriage returns.  Runs differ in cost by orders of magnitude, so the
 * fraction done and the time left are by weight (an estimate of each run's cost
 * given by the caller), not by count.  Whoever writes to stderr while the bar is
 * shown calls progress_clear() first; the bar comes back at the next update.
 */
#ifndef WORMCAST_PROGRESS_H
#define WORMCAST_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct progress {
	bool on;		/* drawing (stderr is a terminal, not --quiet) */
	FILE *out;
	const char *unit;	/* "runs" */
	int n, done;
	double total, done_weight;
	double t0, last_draw;
	bool shown;		/* a bar is on the screen */
};

/*
 * Start: n runs of total weight total.  on says whether to draw at all; the caller
 * decides it with progress_wanted().
 */
void progress_begin(struct progress *p, bool on, FILE *out, const char *unit, int n,
		    double total);
/* stderr is a terminal and quiet is not set. */
bool progress_wanted(bool quiet);
/* A run of this weight ended; the bar is redrawn. */
void progress_step(struct progress *p, double weight);
/* Redraw if the last drawing is older than a second (the elapsed time moves on). */
void progress_tick(struct progress *p);
/* Erase the bar, to write something else on stderr. */
void progress_clear(struct progress *p);
/* Erase the bar for good. */
void progress_end(struct progress *p);

#endif
