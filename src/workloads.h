/* SPDX-License-Identifier: MIT */
/*
 * workloads.h - what each command runs through the pipeline (pipeline.h): an
 * algorithm (run, sweep), random traffic (traffic) or a trace (trace).  Each keeps
 * the figures the report prints.
 */
#ifndef WORMCAST_WORKLOADS_H
#define WORMCAST_WORKLOADS_H

#include <stdio.h>

#include "algos.h"
#include "failure.h"
#include "pipeline.h"
#include "trace.h"
#include "traffic.h"

struct algorithm_work {
	const struct algorithm *a;
	struct algo_session session;
	struct algo_run out;		/* cycles, formula, data check, ... */
};

/* Begin algorithm a with parameters p (p->cfg is the run's configuration). */
int algorithm_work_init(struct algorithm_work *w, const struct algorithm *a,
			const struct algo_params *p, struct workload *wl, struct failure *f);
/* After pipeline_run(): frees what a run that did not happen left. */
void algorithm_work_release(struct algorithm_work *w);

struct traffic_work {
	struct traffic_params params;
	struct traffic *t;
	struct traffic_stats stats;
};

int traffic_work_init(struct traffic_work *w, const struct traffic_params *p,
		      const struct topology *topo, struct workload *wl, struct failure *f);
void traffic_work_release(struct traffic_work *w);

struct trace_work {
	const char *path;
	struct trace *tr;
	FILE *csv;			/* --latencies, or NULL */
	struct trace_stats stats;
};

/* Read the trace (bad input: exit status 2, "FILE:LINE: ..."). */
int trace_work_init(struct trace_work *w, const char *path, const struct topology *topo,
		    FILE *csv, struct workload *wl, struct failure *f);
void trace_work_release(struct trace_work *w);

#endif
