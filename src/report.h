/* SPDX-License-Identifier: MIT */
/*
 * report.h - what the commands print: one JSON object (--json) or a readable table on
 * stdout, and a failed run's reason and report on stderr.  The figures and the verdict
 * come from the pipeline (pipeline.h); nothing is decided here.  A figure the engine
 * does not measure is null in JSON and "not measured" in the table, never 0.
 */
#ifndef WORMCAST_REPORT_H
#define WORMCAST_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "failure.h"
#include "pipeline.h"
#include "workloads.h"

/* The parameters the reports echo. */
struct report_context {
	const struct sim_config *cfg;
	const char *engine;
	const char *mismatch_vcd;	/* where the mismatch window went, or NULL */
};

/*
 * JSON objects; NULL if memory ran out.  A run's r is NULL without a simulation
 * (--formula-only): the measured figures are null.
 */
cJSON *report_run_json(const struct report_context *c, const struct algorithm_work *w,
		       const struct run_result *r);
cJSON *report_traffic_json(const struct report_context *c, const struct traffic_work *w,
			   const struct run_result *r);
cJSON *report_trace_json(const struct report_context *c, const struct trace_work *w,
			 const char *latencies, const struct run_result *r);

/* j (freed) as one line of text, to free; NULL if memory ran out (or j is NULL). */
char *report_json_text(cJSON *j);
/* Print j (freed) as one line on out: 0, or -1 with the failure (out of memory). */
int report_print_json(cJSON *j, FILE *out, struct failure *f);

/* Readable tables. */
void report_run_text(const struct report_context *c, const struct algorithm_work *w,
		     const struct run_result *r, FILE *out);
/*
 * The sweep's table, from the runs' JSON objects (a local sweep and 'merge' print the
 * same): the header (from the first run), a row per run, the cosimulation's totals
 * over the runs (nothing without a cosimulation).
 */
void report_sweep_header(const cJSON *run, FILE *out);
void report_sweep_row(const cJSON *run, FILE *out);
void report_sweep_footer(const cJSON *runs, FILE *out);
void report_traffic_text(const struct report_context *c, const struct traffic_work *w,
			 const struct run_result *r, FILE *out);
void report_trace_text(const struct report_context *c, const struct trace_work *w,
		       const struct run_result *r, FILE *out);

/* A failed run on err: "wormcast: REASON", then the report of a deadlock. */
void report_failure(const struct report_context *c, const struct run_result *r, FILE *err);

#endif
