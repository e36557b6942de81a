/* SPDX-License-Identifier: MIT */
/*
 * run.c - one algorithm through the skeleton, with its schedule, its prediction and
 * its lower bound, in three steps (algos.h): algo_begin() checks the parameters and
 * makes the driver; algo_end() takes what only the simulation knows (on a simulation
 * the caller made and runs: src/pipeline.c); algo_predict(), once the simulation is
 * freed, evaluates the schedule (which makes its own messages: half the peak memory
 * when they do not coexist), the prediction and the bound.  algo_run() does all three
 * around a fresh simulation.
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

static int sim_tx_send_seeded(void *impl, int node, int dest, int len, uint64_t seed,
			      uint64_t tag)
{
	return sim_send_seeded(impl, node, dest, len, seed, tag);
}

static const char *sim_tx_error(void *impl)
{
	return sim_error(impl);
}

static void drv_start(void *ctx, struct sim *s)
{
	struct transport t = { .impl = s, .send = sim_tx_send, .send_seeded = sim_tx_send_seeded,
			       .error = sim_tx_error };

	skeleton_start(ctx, &t);
	if (!skeleton_counts_heads(ctx))
		sim_no_head_events(s);
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

int algo_begin(const struct algorithm *a, const struct algo_params *p, struct algo_session *x,
	       struct algo_run *out)
{
	char err[512];

	memset(out, 0, sizeof(*out));
	memset(x, 0, sizeof(*x));
	out->scheduled = -1;
	out->lower_bound = -1;
	out->packets = -1;
	x->a = a;
	x->cfg = *p->cfg;
	x->cfg.all_port = a->all_port;
	x->params = *p;
	x->params.cfg = &x->cfg;
	x->params.variant = a->variant;

	if (!(a->topologies & (1u << x->cfg.topo.kind))) {
		snprintf(err, sizeof(err), "%s does not run on a %s", a->name,
			 topology_kind_name(x->cfg.topo.kind));
		return setup_error(out, err);
	}
	if (x->params.flits < 1)
		return setup_error(out, "message length must be at least 1 flit");
	if (algo_uses_root(a) && (x->params.root < 0 || x->params.root >= x->cfg.topo.nodes)) {
		snprintf(err, sizeof(err), "root %d outside the network (0..%d)", x->params.root,
			 x->cfg.topo.nodes - 1);
		return setup_error(out, err);
	}
	if (!algo_uses_root(a))
		x->params.root = 0;
	if (x->params.packets && !a->packets) {
		snprintf(err, sizeof(err), "%s sends its message whole: a number of packets does not "
			 "apply", a->name);
		return setup_error(out, err);
	}
	if (sim_config_check(&x->cfg, err, sizeof(err)))
		return setup_error(out, err);
	if (a->supports && a->supports(&x->params, err, sizeof(err)))
		return setup_error(out, err);
	x->sk = skeleton_create(a, &x->params);
	if (!x->sk)
		return setup_error(out, "out of memory");
	return 0;
}

void algo_driver(struct algo_session *x, struct driver *d)
{
	/* A static schedule's tails and SEND_DONEs through the narrow hooks, no event(). */
	void (*delivered)(void *, struct sim *, const struct message *) =
		skeleton_sim_delivered(x->sk);

	*d = (struct driver){ .ctx = x->sk, .start = drv_start,
			      .event = delivered ? NULL : skeleton_sim_event, .delivered = delivered,
			      .send_done = skeleton_sim_send_done(x->sk),
			      .send_done_gates = skeleton_sim_send_done_gates(x->sk),
			      .release_messages = skeleton_releases_messages(x->sk) };
}

/* What the bound needs of the driver's shape, kept before the driver is freed. */
static void keep_shape(struct algo_session *x, struct algo_run *out)
{
	/*
	 * Every node must receive the whole message, however it is cut into packets or
	 * blocks (shape(): every block of an origin).
	 */
	x->words = x->a->packets ? x->params.flits - 1
		   : x->a->shape ? skeleton_words(x->sk) * skeleton_blocks(x->sk)
				 : skeleton_words(x->sk);
	if (x->a->packets)
		out->packets = skeleton_blocks(x->sk);
}

void algo_end(struct algo_session *x, const struct sim *s, enum sim_status status,
	      struct algo_run *out)
{
	char err[512];

	out->status = status;
	sim_get_stats(s, &out->stats);
	out->cycles = out->stats.last_delivery >= out->stats.first_send
			      ? out->stats.last_delivery - out->stats.first_send : 0;
	if (out->status != SIM_DONE) {
		snprintf(out->error, sizeof(out->error), "%s", sim_error(s));
		out->data_ok = false;
	} else if (skeleton_check(x->sk, err, sizeof(err))) {
		snprintf(out->error, sizeof(out->error), "%s", err);
		out->data_ok = false;
	} else {
		out->data_ok = out->stats.delivered_ok;
		if (!out->data_ok)
			snprintf(out->error, sizeof(out->error), "the checker reports missing deliveries");
	}
	out->no_memory = skeleton_no_memory(x->sk);
	keep_shape(x, out);
	algo_abandon(x);
}

void algo_predict(struct algo_session *x, struct algo_run *out)
{
	const struct algorithm *a = x->a;
	struct schedule_result sched;

	if (algo_schedule(a, &x->params, &sched) == 0 && sched.ok)
		out->scheduled = (double)sched.cycles;
	snprintf(out->schedule_text, sizeof(out->schedule_text), "%s", sched.text);
	out->prediction.published = -1;
	a->predict(&x->params, &sched, &out->prediction);
	out->predicted = out->prediction.cycles;
	snprintf(out->formula, sizeof(out->formula), "%s", out->prediction.formula);
	bound(a, &x->params, x->words, out);
}

void algo_predict_only(struct algo_session *x, struct algo_run *out)
{
	keep_shape(x, out);
	algo_abandon(x);
	algo_predict(x, out);
}

void algo_abandon(struct algo_session *x)
{
	skeleton_destroy(x->sk);
	x->sk = NULL;
}

int algo_run(const struct algorithm *a, const struct algo_params *p, struct engine *engine,
	     struct algo_run *out)
{
	struct algo_session x;
	struct driver drv;
	struct sim *s;
	char err[512];

	if (engine && p->cfg->all_port != a->all_port) {
		memset(out, 0, sizeof(*out));
		snprintf(err, sizeof(err), "%s is %s but the engine was built for %s mode", a->name,
			 a->all_port ? "all-port" : "one-port",
			 p->cfg->all_port ? "all-port" : "one-port");
		return setup_error(out, err);
	}
	if (algo_begin(a, p, &x, out))
		return -1;
	s = engine ? sim_create_with_engine(&x.cfg, engine, err, sizeof(err))
		   : sim_create(&x.cfg, err, sizeof(err));
	if (!s) {
		algo_abandon(&x);
		return setup_error(out, err);
	}
	algo_driver(&x, &drv);
	algo_end(&x, s, sim_run(s, &drv), out);
	/* The run's messages go before the schedule makes its own: half the peak memory. */
	sim_destroy(s);
	algo_predict(&x, out);
	return (int)out->status;
}
