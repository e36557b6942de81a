/* SPDX-License-Identifier: MIT */
/*
 * run.c - algo_run(): one algorithm on a fresh simulation, through the skeleton, with
 * its schedule, its prediction and its lower bound.
 */
#include <stdio.h>
#include <string.h>

#include "bounds.h"
#include "schedule.h"
#include "skeleton.h"

static int setup_error(struct algo_run *out, const char *what)
{
	snprintf(out->error, sizeof(out->error), "%s", what);
	out->status = SIM_CHECK_FAILED;
	return -1;
}

/* The simulation as the skeleton's transport. */
static int sim_tx_send(void *impl, int node, const struct send_req *r)
{
	return sim_send(impl, node, r);
}

static const char *sim_tx_error(void *impl)
{
	return sim_error(impl);
}

static void drv_start(void *ctx, struct sim *s)
{
	struct transport t = { s, sim_tx_send, sim_tx_error };

	skeleton_start(ctx, &t);
}

static void drv_event(void *ctx, struct sim *s, const struct sim_event *ev)
{
	struct transport t = { s, sim_tx_send, sim_tx_error };

	skeleton_event(ctx, &t, ev);
}

static void bound(const struct algorithm *a, const struct algo_params *p, int words,
		  struct algo_run *out)
{
	struct lower_bound b;
	int rc;

	if (a->kind == COLL_AAS)
		rc = aas_lower_bound(p->cfg, words, &b);
	else if (a->kind == COLL_AAB)
		rc = aab_lower_bound(p->cfg, words, &b);
	else
		rc = rooted_lower_bound(p->cfg, p->root, words, a->kind == COLL_REDUCE, &b);
	if (rc == 0) {
		out->lower_bound = (double)b.cycles;
		snprintf(out->bound_text, sizeof(out->bound_text), "%s", b.text);
	}
}

int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out)
{
	struct sim_config cfg;
	struct algo_params params;
	struct schedule_result sched;
	struct skeleton *sk;
	struct driver drv;
	struct sim *s;
	char err[512];
	int words;

	memset(out, 0, sizeof(*out));
	out->scheduled = -1;
	out->lower_bound = -1;
	cfg = *p->cfg;
	cfg.all_port = a->all_port;
	params = *p;
	params.cfg = &cfg;
	params.variant = a->variant;

	if (!(a->topologies & (1u << cfg.topo.kind))) {
		snprintf(err, sizeof(err), "%s does not run on a %s", a->name,
			 topology_kind_name(cfg.topo.kind));
		return setup_error(out, err);
	}
	if (engine && p->cfg->all_port != a->all_port) {
		snprintf(err, sizeof(err), "%s is %s but the engine was built for %s mode", a->name,
			 a->all_port ? "all-port" : "one-port",
			 p->cfg->all_port ? "all-port" : "one-port");
		return setup_error(out, err);
	}
	if (params.flits < 1)
		return setup_error(out, "message length must be at least 1 flit");
	if (algo_uses_root(a) && (params.root < 0 || params.root >= cfg.topo.nodes)) {
		snprintf(err, sizeof(err), "root %d outside the network (0..%d)", params.root,
			 cfg.topo.nodes - 1);
		return setup_error(out, err);
	}
	if (!algo_uses_root(a))
		params.root = 0;
	if (sim_config_check(&cfg, err, sizeof(err)))
		return setup_error(out, err);
	if (a->supports && a->supports(&params, err, sizeof(err)))
		return setup_error(out, err);

	sk = skeleton_create(a, &params);
	if (!sk)
		return setup_error(out, "out of memory");
	s = engine ? sim_create_with_engine(&cfg, engine, err, sizeof(err))
		   : sim_create(&cfg, err, sizeof(err));
	if (!s) {
		skeleton_destroy(sk);
		return setup_error(out, err);
	}

	drv = (struct driver){ .ctx = sk, .start = drv_start, .event = drv_event };
	out->status = sim_run(s, &drv);
	sim_get_stats(s, &out->stats);
	out->cycles = out->stats.last_delivery >= out->stats.first_send
			      ? out->stats.last_delivery - out->stats.first_send : 0;
	if (out->status != SIM_DONE) {
		snprintf(out->error, sizeof(out->error), "%s", sim_error(s));
		out->data_ok = false;
	} else if (skeleton_check(sk, err, sizeof(err))) {
		snprintf(out->error, sizeof(out->error), "%s", err);
		out->data_ok = false;
	} else {
		out->data_ok = out->stats.delivered_ok;
		if (!out->data_ok)
			snprintf(out->error, sizeof(out->error), "the checker reports missing deliveries");
	}

	words = skeleton_words(sk);
	/* The run's messages go before the schedule makes its own: half the peak memory. */
	skeleton_destroy(sk);
	sim_destroy(s);

	if (algo_schedule(a, &params, &sched) == 0 && sched.ok)
		out->scheduled = (double)sched.cycles;
	snprintf(out->schedule_text, sizeof(out->schedule_text), "%s", sched.text);
	out->prediction.published = -1;
	a->predict(&params, &sched, &out->prediction);
	out->predicted = out->prediction.cycles;
	snprintf(out->formula, sizeof(out->formula), "%s", out->prediction.formula);
	bound(a, &params, words, out);
	return (int)out->status;
}
