/* SPDX-License-Identifier: MIT */
/*
 * figure.h - what a plot shows, as the JSON the plotter draws (scripts/plot.py): a
 * figure of panels, each with its axes and its series, each series a list of points
 * that carry the figures of one run (measured, predicted, published, bound cycles;
 * latencies).  Everything the plot says is decided here or in the experiment file;
 * the plotter only draws.
 *
 *   {"kind": "lines" | "load" | "histogram", "title": ..., "note": ...,
 *    "panels": [{"title": ..., "x_label": ..., "y_label": ..., "log_x": bool,
 *                "log_y": bool, "cycle_time_us": number | null,
 *                "series": [{"label": ..., "curves": [...], "points": [...]}]}]}
 *
 * Building stops quietly at the first allocation that fails; figure_ok() says so.
 */
#ifndef WORMCAST_FIGURE_H
#define WORMCAST_FIGURE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

struct figure {
	cJSON *root;
	cJSON *panels;
	bool failed;
};

int figure_begin(struct figure *fig, const char *kind, const char *title);
/* A panel, with its axes; NULL if memory ran out. */
cJSON *figure_panel(struct figure *fig, const char *title, const char *x_label,
		    const char *y_label, bool log_x, bool log_y);
/* A series of a panel; curves: the lines besides the measured points ("formula,bound"). */
cJSON *figure_series(struct figure *fig, cJSON *panel, const char *label, const char *curves);
/* A point of a series: x and the figures of the run's JSON object. */
void figure_point(struct figure *fig, cJSON *series, double x, const cJSON *run);
/* Set a text, number or bool of an object of the figure. */
void figure_text(struct figure *fig, cJSON *obj, const char *key, const char *value);
void figure_number(struct figure *fig, cJSON *obj, const char *key, double value);
void figure_bool(struct figure *fig, cJSON *obj, const char *key, bool value);
void figure_null(struct figure *fig, cJSON *obj, const char *key);
/* The figure, or NULL (and everything freed) if memory ran out. */
cJSON *figure_end(struct figure *fig);

/*
 * The figure of a sweep (sweep --plot, merge --plot): cycles against L, a series per
 * algorithm.  NULL if memory ran out.
 */
cJSON *figure_of_sweep(const cJSON *runs);

#endif
