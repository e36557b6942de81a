/* SPDX-License-Identifier: MIT */
/*
 * workloads.c - the three workloads of the pipeline (see workloads.h).
 */
#include "workloads.h"

#include <string.h>

/* ---- an algorithm ---- */

static void algorithm_driver(void *ctx, struct driver *d)
{
	struct algorithm_work *w = ctx;

	algo_driver(&w->session, d);
}

static int algorithm_finish(void *ctx, const struct sim *s, enum sim_status status, char *why,
			    size_t len)
{
	struct algorithm_work *w = ctx;

	algo_end(&w->session, s, status, &w->out);
	if (w->out.no_memory)
		return -1;
	/* Not done: the pipeline reports why the run stopped, not a data check. */
	if (status == SIM_DONE && !w->out.data_ok)
		snprintf(why, len, "%s", w->out.error);
	return 0;
}

static void algorithm_after(void *ctx)
{
	struct algorithm_work *w = ctx;

	algo_predict(&w->session, &w->out);
}

static const struct workload_ops algorithm_ops = {
	.driver = algorithm_driver,
	.finish = algorithm_finish,
	.after = algorithm_after,
};

int algorithm_work_init(struct algorithm_work *w, const struct algorithm *a,
			const struct algo_params *p, struct workload *wl, struct failure *f)
{
	memset(w, 0, sizeof(*w));
	w->a = a;
	if (algo_begin(a, p, &w->session, &w->out))
		return strcmp(w->out.error, NO_MEMORY) ? failf(f, EXIT_USAGE, "%s", w->out.error)
						       : fail_no_memory(f);
	*wl = (struct workload){ .ops = &algorithm_ops, .ctx = w };
	return 0;
}

void algorithm_work_release(struct algorithm_work *w)
{
	algo_abandon(&w->session);
}

/* ---- random traffic ---- */

static void traffic_driver_of(void *ctx, struct driver *d)
{
	struct traffic_work *w = ctx;

	traffic_driver(w->t, d);
}

static int traffic_finish(void *ctx, const struct sim *s, enum sim_status status, char *why,
			  size_t len)
{
	struct traffic_work *w = ctx;

	(void)s;
	(void)status;
	if (traffic_get_stats(w->t, &w->stats))
		return -1;
	/* A message that could not be sent is a failed run, never a silent drop. */
	if (traffic_error(w->t)[0])
		snprintf(why, len, "%s", traffic_error(w->t));
	return 0;
}

static const struct workload_ops traffic_ops = {
	.driver = traffic_driver_of,
	.finish = traffic_finish,
};

int traffic_work_init(struct traffic_work *w, const struct traffic_params *p,
		      const struct topology *topo, struct workload *wl, struct failure *f)
{
	memset(w, 0, sizeof(*w));
	w->params = *p;
	w->t = traffic_create(&w->params, topo);
	if (!w->t)
		return fail_no_memory(f);
	*wl = (struct workload){ .ops = &traffic_ops, .ctx = w };
	return 0;
}

void traffic_work_release(struct traffic_work *w)
{
	traffic_destroy(w->t);
	w->t = NULL;
}

/* ---- a trace ---- */

static void trace_driver_of(void *ctx, struct driver *d)
{
	struct trace_work *w = ctx;

	trace_driver(w->tr, d);
}

static int trace_finish(void *ctx, const struct sim *s, enum sim_status status, char *why,
			size_t len)
{
	struct trace_work *w = ctx;

	if (trace_get_stats(w->tr, s, &w->stats))
		return -1;
	/* The CSV's write errors are the output's (outputs_commit() reports them). */
	if (w->csv)
		trace_write_csv(w->tr, s, w->csv);
	if (trace_error(w->tr)[0])
		snprintf(why, len, "%s: %s", w->path, trace_error(w->tr));
	else if (status == SIM_DONE && w->stats.delivered != w->stats.messages)
		snprintf(why, len, "%llu of %llu messages delivered",
			 (unsigned long long)w->stats.delivered, (unsigned long long)w->stats.messages);
	return 0;
}

static const struct workload_ops trace_ops = {
	.driver = trace_driver_of,
	.finish = trace_finish,
};

int trace_work_init(struct trace_work *w, const char *path, const struct topology *topo,
		    FILE *csv, struct workload *wl, struct failure *f)
{
	char err[1024];

	memset(w, 0, sizeof(*w));
	w->path = path;
	w->csv = csv;
	w->tr = trace_load(path, topo, err, sizeof(err));
	if (!w->tr)
		return strcmp(err, NO_MEMORY) ? failf(f, EXIT_USAGE, "%s", err) : fail_no_memory(f);
	*wl = (struct workload){ .ops = &trace_ops, .ctx = w };
	return 0;
}

void trace_work_release(struct trace_work *w)
{
	trace_destroy(w->tr);
	w->tr = NULL;
}
