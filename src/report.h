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

/* JSON objects; NULL if memory ran out. */
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
void report_sweep_header(const struct report_context *c, FILE *out);
void report_sweep_row(const struct algorithm_work *w, const struct run_result *r, FILE *out);
/* The cosimulation's totals over the rows (nothing without a cosimulation). */
void report_sweep_footer(const struct engine_report *total, FILE *out);
void report_traffic_text(const struct report_context *c, const struct traffic_work *w,
			 const struct run_result *r, FILE *out);
void report_trace_text(const struct report_context *c, const struct trace_work *w,
		       const struct run_result *r, FILE *out);

/* A failed run on err: "wormcast: REASON", then the report of a deadlock. */
void report_failure(const struct report_context *c, const struct run_result *r, FILE *err);

#endif
