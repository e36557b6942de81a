/* SPDX-License-Identifier: MIT */
/*
 * pipeline.c - the run pipeline (see pipeline.h).
 */
#include "pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The verdict of a run, for every command and engine: ok iff the run reached its end,
 * the checker saw every delivery right and none missing, the workload's own check
 * passed and the cosimulation found no mismatch.  error is the first reason it is not,
 * in the order a user looks for it.  (A waveform that could not be written is a
 * failed output, not a failed run: engine.error, for the command to report.)
 */
static void verdict(struct run_result *r, const char *sim_why, const char *work_why)
{
	bool done = r->status == SIM_DONE;

	r->interrupted = r->status == SIM_INTERRUPTED;
	r->delivered_ok = done && r->stats.delivered_ok;
	r->data_ok = done && !work_why[0];
	r->ok = r->delivered_ok && r->data_ok && r->engine.mismatches == 0 &&
		!r->engine.coverage_mismatch[0];
	if (r->ok)
		r->error[0] = '\0';
	else if (r->engine.mismatches && r->status == SIM_ENGINE_STOPPED &&
		 strncmp(sim_why, "RTL assertion", 13) == 0)
		/* The assertion and the register comparison caught the fault on the same
		 * edge: the assertion names the broken rule inside the RTL, so it comes first. */
		snprintf(r->error, sizeof(r->error), "%s; cosim mismatch: %s", sim_why,
			 r->engine.detail);
	else if (r->engine.mismatches)
		snprintf(r->error, sizeof(r->error), "cosim mismatch: %s", r->engine.detail);
	else if (r->engine.coverage_mismatch[0])
		snprintf(r->error, sizeof(r->error), "coverage: %s", r->engine.coverage_mismatch);
	else if (!done)
		snprintf(r->error, sizeof(r->error), "%s", sim_why);
	else if (!r->stats.delivered_ok)
		snprintf(r->error, sizeof(r->error), "the checker reports missing deliveries");
	else
		snprintf(r->error, sizeof(r->error), "%s", work_why);
}

/* The stopped run's multi-line report, kept beyond the simulation; -1 if out of memory. */
static int keep_report(struct run_result *r, const struct sim *s)
{
	size_t len = 0;
	FILE *f;
	bool bad;

	if (r->status != SIM_DEADLOCK)
		return 0;
	f = open_memstream(&r->report, &len);
	if (!f)
		return -1;
	sim_write_report(s, f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		free(r->report);
		r->report = NULL;
		return -1;
	}
	return 0;
}

int pipeline_run(const struct run_request *rq, struct run_result *res, struct failure *f)
{
	struct engine_box *e;
	struct driver d;
	struct sim *s;
	char err[1024], work_why[1024] = "", sim_why[1024];
	bool bad_input, no_memory;
	double t0;

	memset(res, 0, sizeof(*res));
	e = engine_create(rq->engine, rq->outputs, rq->cfg, &bad_input, err, sizeof(err));
	if (!e)
		return strcmp(err, NO_MEMORY) ? failf(f, bad_input ? EXIT_USAGE : EXIT_FAILED, "%s", err)
					      : fail_no_memory(f);
	s = sim_create_with_engine(rq->cfg, engine_of(e), err, sizeof(err));
	if (!s) {
		engine_destroy(e);
		return strcmp(err, NO_MEMORY) ? failf(f, EXIT_USAGE, "%s", err) : fail_no_memory(f);
	}
	rq->work.ops->driver(rq->work.ctx, &d);
	t0 = seconds_now();
	res->status = sim_run(s, &d);
	res->wall_seconds = seconds_now() - t0;
	sim_get_stats(s, &res->stats);
	snprintf(sim_why, sizeof(sim_why), "%s", sim_error(s));
	no_memory = res->status == SIM_NO_MEMORY ||
		    rq->work.ops->finish(rq->work.ctx, s, res->status, work_why, sizeof(work_why)) ||
		    keep_report(res, s);
	/* The simulation's memory goes before the report is made (a JSON object of a
	 * large run needs room too). */
	sim_destroy(s);
	engine_finish(e, &res->engine);
	engine_destroy(e);
	if (!no_memory && rq->work.ops->after)
		rq->work.ops->after(rq->work.ctx);
	if (no_memory) {
		run_result_free(res);
		return fail_no_memory(f);
	}
	verdict(res, sim_why, work_why);
	return 0;
}

void run_result_free(struct run_result *res)
{
	free(res->report);
	res->report = NULL;
}
