/* SPDX-License-Identifier: MIT */
/*
 * plotter.h - plots are drawn by matplotlib (scripts/plot.py), never by hand.
 *
 * What to draw is a JSON "figure" that wormcast builds from the runs (the figure's
 * panels, each with its axes and series of points: figure.h); the plotter only draws
 * it.  It writes into scratch files that are copied into wormcast's own outputs
 * (util/outfile.h), so a plot is whole or absent like every other output.
 *
 * The interpreter is $WORMCAST_PYTHON if set, else the one the build found with
 * matplotlib (CMake: WORMCAST_PYTHON), else python3 from PATH.
 */
#ifndef WORMCAST_PLOTTER_H
#define WORMCAST_PLOTTER_H

#include "failure.h"
#include "outfile.h"

/*
 * Is the plotter there (the interpreter, matplotlib, scripts/plot.py)?  0, or -1 with
 * one line saying what is missing and how to get it (exit status 1).  Asked before
 * any run, so that a missing plotter costs no time.
 */
int plotter_check(struct failure *f);

/*
 * Draw the figure whose JSON is at figure_path into each of the n outputs (the
 * format by each output's name: .png or .svg).  The outputs are left open for the
 * caller to commit.  0, or -1 with the failure (exit status 1).
 */
int plotter_draw(const char *figure_path, struct outfile *const *outs, int n, struct failure *f);

/* One figure to draw (plotter_draw_all). */
#define PLOTTER_MAX_OUTPUTS 4
struct plot_request {
	const char *figure;				/* the figure's JSON file */
	struct outfile *outs[PLOTTER_MAX_OUTPUTS];	/* left open for the caller */
	int n;
};

/* Draw n figures, `parallel` plotters at once; 0, or -1 with the first failure. */
int plotter_draw_all(const struct plot_request *r, int n, int parallel, struct failure *f);

/* The format of a plot file by its name: "png", "svg", or NULL if neither. */
const char *plotter_format(const char *path);

#endif
