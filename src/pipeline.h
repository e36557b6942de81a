/* SPDX-License-Identifier: MIT */
/*
 * pipeline.h - the one run pipeline of every command (run, sweep, traffic, trace):
 *
 *   configuration -> engine -> driver -> checker -> verdict -> report
 *
 * A command says what to run (a struct run_request: the simulation's configuration,
 * the engine and its outputs, and a workload: the driver and its own figures); the
 * pipeline builds the engine and the simulation, runs the cycle loop until the end,
 * a deadlock, a wrong delivery, a cosimulation mismatch, an interruption or a lack of
 * memory, collects every figure while the simulation still exists, frees it, and
 * computes the verdict, in one place.  The report (src/report.c) only prints.
 */
#ifndef WORMCAST_PIPELINE_H
#define WORMCAST_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engines.h"
#include "failure.h"
#include "sim.h"

/* What a command runs: the driver, and its figures and checks after the run. */
struct workload_ops {
	void (*driver)(void *ctx, struct driver *d);
	/*
	 * After the run, with the simulation still there: collect the workload's figures
	 * and check what only it can check (the data every node ends with, sends that
	 * failed), which means something only if the run reached its end (status
	 * SIM_DONE).  Returns 0, or -1 if memory ran out; why gets "" or the reason the
	 * workload's check failed.
	 */
	int (*finish)(void *ctx, const struct sim *s, enum sim_status status, char *why,
		      size_t len);
	/*
	 * Optional: figures that need no simulation, computed after it is freed (an
	 * algorithm's schedule makes messages of its own: they need not coexist).
	 */
	void (*after)(void *ctx);
};

struct workload {
	const struct workload_ops *ops;
	void *ctx;
};

struct run_request {
	const struct sim_config *cfg;		/* cfg->stop: the interruption flag */
	const struct engine_options *engine;
	const struct engine_outputs *outputs;
	struct workload work;
};

struct run_result {
	enum sim_status status;
	struct sim_stats stats;
	struct engine_report engine;
	double wall_seconds;
	/* The verdict (pipeline.c: verdict()). */
	bool delivered_ok;	/* the checker: every message where it belongs, intact, all of it */
	bool data_ok;		/* the workload's own check */
	bool ok;		/* both, no deadlock, no mismatch */
	bool interrupted;	/* stopped by a signal: a partial result */
	char error[1024];	/* the first reason ok is false, "" if ok */
	char *report;		/* the stopped run's report (deadlock chains), or NULL */
};

/*
 * Run rq.  Returns 0 when the run ran (res holds its figures and verdict, whatever
 * they are), or -1 with f when it could not start or could not go on: an engine that
 * cannot be built (exit status 2 for a configuration that is not built), memory that
 * ran out (1).  Free res with run_result_free().
 */
int pipeline_run(const struct run_request *rq, struct run_result *res, struct failure *f);
void run_result_free(struct run_result *res);

#endif
