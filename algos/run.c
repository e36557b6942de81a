/* SPDX-License-Identifier: MIT */
/*
 * run.c - algo_run(): one algorithm on a fresh simulation.
 */
#include <stdio.h>
#include <string.h>

#include "algos.h"

static int setup_error(struct algo_run *out, const char *what)
{
	snprintf(out->error, sizeof(out->error), "%s", what);
	out->status = SIM_CHECK_FAILED;
	return -1;
}

int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out)
{
	struct sim_config cfg;
	struct algo_params params;
	struct driver drv;
	struct sim *s;
	void *ctx;
	char err[512];

	memset(out, 0, sizeof(*out));
	out->scheduled = -1;
	cfg = *p->cfg;
	cfg.all_port = a->all_port;
	params = *p;
	params.cfg = &cfg;

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
	if (a->uses_root && (params.root < 0 || params.root >= cfg.topo.nodes)) {
		snprintf(err, sizeof(err), "root %d outside the network (0..%d)", params.root,
			 cfg.topo.nodes - 1);
		return setup_error(out, err);
	}
	if (!a->uses_root)
		params.root = 0;
	if (sim_config_check(&cfg, err, sizeof(err)))
		return setup_error(out, err);
	if (a->supports && a->supports(&params, err, sizeof(err)))
		return setup_error(out, err);

	ctx = a->create(&params);
	if (!ctx)
		return setup_error(out, "out of memory");
	s = engine ? sim_create_with_engine(&cfg, engine, err, sizeof(err))
		   : sim_create(&cfg, err, sizeof(err));
	if (!s) {
		a->destroy(ctx);
		return setup_error(out, err);
	}

	drv = (struct driver){ .ctx = ctx, .start = a->start, .event = a->event };
	out->status = sim_run(s, &drv);
	sim_get_stats(s, &out->stats);
	out->cycles = out->stats.last_delivery >= out->stats.first_send
			      ? out->stats.last_delivery - out->stats.first_send : 0;
	if (out->status != SIM_DONE) {
		snprintf(out->error, sizeof(out->error), "%s", sim_error(s));
		out->data_ok = false;
	} else if (a->check(ctx, s, err, sizeof(err))) {
		snprintf(out->error, sizeof(out->error), "%s", err);
		out->data_ok = false;
	} else {
		out->data_ok = out->stats.delivered_ok;
		if (!out->data_ok)
			snprintf(out->error, sizeof(out->error), "the checker reports missing deliveries");
	}
	out->predicted = a->predict(&params, out->formula, sizeof(out->formula));
	if (a->schedule)
		out->scheduled = a->schedule(&params, out->schedule_text, sizeof(out->schedule_text));
	a->destroy(ctx);
	sim_destroy(s);
	return (int)out->status;
}
