/* SPDX-License-Identifier: MIT */
/*
 * test_sanity.c - router_sanity() and network_sanity() (model/router_sanity.h): they
 * hold in every cycle of busy networks of every kind (so each invariant is real), each
 * deliberately corrupted field of a router is reported with a line that names it, and
 * a debug build (WORMCAST_DEBUG) stops a run at the first broken invariant while a
 * release build never looks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ni.h"
#include "pair_walk.h"
#include "router_sanity.h"
#include "sim.h"

struct rig {
	struct sim_config cfg;
	struct router_params params;
	struct engine engine;
	struct sim *sim;
	struct network *net;
};

/* A driver that sends every node's messages at cycle 0: R, R+IR and one B. */
static void flood_start(void *ctx, struct sim *s)
{
	const struct topology *t = sim_topology(s);
	bool *with_b = ctx;

	for (int v = 0; v < t->nodes; v++) {
		struct send_req r = { .dest = (v + t->nodes / 2 + 1) % t->nodes, .type = HDR_R,
				      .len = 12, .channel = -1 };

		if (r.dest == v)
			r.dest = (v + 1) % t->nodes;
		r.ir = v % 3 == 0 && sim_config(s)->all_port;
		sim_send(s, v, &r);
		r.dest = t->nodes - 1 - v;
		r.ir = false;
		if (r.dest != v)
			sim_send(s, v, &r);
	}
	if (*with_b)
		sim_send(s, 0, &(struct send_req){ .type = HDR_B, .len = 9, .channel = -1 });
}

static void no_event(void *c, struct sim *s, const struct sim_event *e)
{
	(void)c;
	(void)s;
	(void)e;
}

/* The C model and its simulation for the configuration g->cfg. */
static int rig_start(struct rig *g)
{
	char err[256];

	sim_config_router_params(&g->cfg, &g->params);
	if (model_engine_create(&g->engine, &g->params))
		return -1;
	g->sim = sim_create_with_engine(&g->cfg, &g->engine, err, sizeof(err));
	g->net = model_engine_network(&g->engine);
	return g->sim ? 0 : -1;
}

static int rig_init(struct rig *g, const char *topo, bool all_port, int replication_cost)
{
	char err[256];

	sim_config_defaults(&g->cfg);
	if (topology_parse(topo, &g->cfg.topo, err, sizeof(err)))
		return -1;
	g->cfg.all_port = all_port;
	g->cfg.startup = 2;
	g->cfg.sink_stall = 0.7;	/* back-pressure: the FIFOs fill up */
	g->cfg.seed = 5;
	g->cfg.replication_cost = replication_cost;
	return rig_start(g);
}

static void rig_free(struct rig *g)
{
	sim_destroy(g->sim);
	model_engine_destroy(&g->engine);
}

/*
 * The state of g was just corrupted: a debug build's check after the next cycle stops
 * the run, naming the check (who) and the cycle; a release build never looks.
 */
static void next_cycle_stops(struct rig *g, const struct driver *d, const char *who)
{
	enum sim_status st = sim_step(g->sim, d);

#ifdef WORMCAST_DEBUG
	check(st == SIM_ENGINE_STOPPED && strstr(sim_error(g->sim), who) &&
	      strstr(sim_error(g->sim), "cycle "),
	      "debug build: the next cycle stops the run: %s", sim_error(g->sim));
#else
	(void)who;
	check(st == SIM_DONE && !network_sanity_error(g->net)[0],
	      "release build: no check between cycles (status %d)", st);
#endif
}

/* Every invariant of every router and link holds after every cycle of a busy run. */
static void healthy(const char *topo, bool all_port, int replication_cost, bool with_b)
{
	struct rig g;
	struct driver d = { .ctx = &with_b, .start = flood_start, .event = no_event };
	char err[320] = "";
	int cycles = 0, broken = 0, max_buffered = 0;

	if (rig_init(&g, topo, all_port, replication_cost)) {
		check(0, "%s: cannot set up", topo);
		return;
	}
	while (sim_step(g.sim, &d) == SIM_DONE && !sim_quiescent(g.sim) && cycles < 20000) {
		cycles++;
		if (network_buffered(g.net) > max_buffered)
			max_buffered = network_buffered(g.net);
		if (!broken && network_sanity(g.net, NULL, 0, err, sizeof(err)))
			broken = cycles;
	}
	check(!broken && sim_quiescent(g.sim) && max_buffered > 0,
	      "%s %s T_r=%d%s: every invariant of every router and link holds in each of %d "
	      "cycles (up to %d flits buffered)%s%s", topo, all_port ? "all-port" : "one-port",
	      replication_cost, with_b ? " with a broadcast" : "", cycles, max_buffered,
	      broken ? "; broken: " : "", err);
	rig_free(&g);
}

/* A router of the network with flits buffered at a link input, and that input. */
static struct router *busy_router(struct network *n, int *input)
{
	const struct topology *t = network_params(n)->topo;

	for (int v = 0; v < t->nodes; v++) {
		/* The test corrupts it on purpose: the network only hands out const. */
		struct router *r = (struct router *)network_router(n, v);

		for (int i = 0; i < r->n_ports; i++)
			if (r->in[i].count && r->in[i].route_q) {
				*input = i;
				return r;
			}
	}
	return NULL;
}

/* Corrupt one field, see it reported with the words expected, put it back. */
#define CORRUPT(field, bad, words)                                                      \
	do {                                                                            \
		__typeof__(field) saved = (field);                                      \
		char e[320] = "";                                                       \
		int rc;                                                                 \
		(field) = (bad);                                                        \
		rc = network_sanity(g.net, NULL, 0, e, sizeof(e));                      \
		(field) = saved;                                                        \
		check(rc == -1 && strstr(e, (words)) && strstr(e, "router_sanity: node ") && \
		      network_sanity(g.net, NULL, 0, e, sizeof(e)) == 0,                 \
		      "%s corrupted: reported (%s)", #field, e);                         \
	} while (0)

static void corruptions(void)
{
	struct rig g;
	bool with_b = false;
	struct driver d = { .ctx = &with_b, .start = flood_start, .event = no_event };
	struct router *r = NULL;
	int i = 0, other, o, cycles = 0;
	char err[320];
	bool ok;

	if (rig_init(&g, "hypercube:3", true, 0)) {
		check(0, "hypercube:3: cannot set up");
		return;
	}
	while (sim_step(g.sim, &d) == SIM_DONE && cycles++ < 200)
		if ((r = busy_router(g.net, &i)) != NULL && cycles > 20)
			break;
	ok = r != NULL && network_sanity(g.net, NULL, 0, err, sizeof(err)) == 0;
	check(ok, "a busy router to corrupt: node %d input %d holds %d flits", r ? r->node : -1,
	      i, r ? r->in[i].count : 0);
	if (!ok) {
		rig_free(&g);
		return;
	}
	o = __builtin_ctz(r->in[i].route_q);
	other = (i + 1) % r->n_in;
	CORRUPT(r->in[i].count, (uint8_t)(r->in[i].count - 1), "buffered");
	CORRUPT(r->in[i].count, (uint8_t)(r->depth + 1), "flits, its FIFO");
	CORRUPT(r->nonempty, r->nonempty ^ (1u << i), "nonempty bit");
	CORRUPT(r->in[i].rd_ptr, (uint8_t)r->depth, "read pointer");
	CORRUPT(r->credits_q[o], (uint8_t)(r->depth + 1), "above the depth");
	CORRUPT(r->has_credit_q, r->has_credit_q ^ (1u << o), "has_credit_q bit");
	/* A link output's readiness with one free slot downstream (router.h). */
	CORRUPT(r->credit1_q, r->credit1_q ^ 1u, "credit1_q bit 0");
	CORRUPT(r->credit1_q, r->credit1_q | (1u << r->n_link), "credit1_q 0x");
	CORRUPT(r->owned_q, r->owned_q ^ (1u << o), "owned_q is");
	CORRUPT(r->owning, r->owning ^ (1u << i), "owning bit");
	CORRUPT(r->in[other].route_q, r->in[other].route_q | r->in[i].route_q, "owned by input");
	CORRUPT(r->in[i].route_q, 0u, "no route but a");
	CORRUPT(r->out_valid_q, r->out_valid_q | (1u << 30), "beyond the");
	/* The outputs sent are the routes of the inputs that moved (router_join_steady()). */
	CORRUPT(r->out_valid_q, r->out_valid_q ^ r->in[i].route_q, "moved and own");
	CORRUPT(r->holding, r->holding ^ (1u << i), "holding");
	/* A router with flits buffered is not steady (the steady cycle, network.c). */
	CORRUPT(r->steady, ROUTER_STEADY, "steady (");
	/* Nor after its tails left (router_join_steady(), router.h). */
	CORRUPT(r->steady, ROUTER_STEADY_RELEASED, "steady (");
	CORRUPT(r->steady, ROUTER_STEADY_RELEASED + 1, "steady (");
	/* The join's constants for its inline route (router_join_steady(), router.h). */
	CORRUPT(r->route_kind, ROUTER_ROUTE_MESH_XY, "route_kind");
	CORRUPT(r->route_kind, ROUTER_ROUTE_CALL, "route_kind");
	CORRUPT(r->mesh_col, 1, "mesh_col 1");
	CORRUPT(r->eject_mul, r->eject_mul ^ 1u, "eject_mul");
	/* The route a message holds is its head's (the join routes unicasts inline). */
	CORRUPT(r->in[i].head, r->in[i].head ^ ((flit_t)1 << FLIT_TYPE_BIT), "its head");

	/* The debug build's per-cycle check stops the run; a release build never looks. */
	{
		uint8_t saved = r->credits_q[o];

		r->credits_q[o] = (uint8_t)(r->depth + 1);
		r->has_credit_q |= 1u << o;
		next_cycle_stops(&g, &d, "router_sanity: node");
		r->credits_q[o] = saved;
	}
	rig_free(&g);
}

/*
 * Debug builds: the NI of the C model derives an injection channel's credits from what
 * its router's injection input holds, and checks them against the credit list it
 * counts as well (ni.c): an input that holds one flit more than the NI drove into it
 * stops the run before the next step.
 */
static void injection_credits(void)
{
#ifdef WORMCAST_DEBUG
	struct rig g;
	bool with_b = false;
	struct driver d = { .ctx = &with_b, .start = flood_start, .event = no_event };
	struct router *r = NULL;
	int in = -1, cycles = 0;
	enum sim_status st;

	if (rig_init(&g, "hypercube:3", true, 0)) {
		check(0, "hypercube:3: cannot set up");
		return;
	}
	/*
	 * An injection input with room for a flit more that holds flits of a message not
	 * wholly driven (the last is no tail): its NI channel is sending, checked each cycle.
	 */
	while (in < 0 && sim_step(g.sim, &d) == SIM_DONE && cycles++ < 200)
		for (int v = 0; v < 8 && in < 0; v++) {
			r = (struct router *)network_router(g.net, v);
			for (int i = r->n_link; i < r->n_in && in < 0; i++) {
				const struct router_input *x = &r->in[i];

				if (x->count && x->count < r->depth &&
				    !flit_is_tail(r->fifo[i * r->depth +
							  (x->rd_ptr + x->count - 1) % r->depth]))
					in = i;
			}
		}
	check(in >= 0, "an injection input whose channel is sending (node %d input %d)",
	      r ? r->node : -1, in);
	if (in >= 0) {
		r->in[in].count++;
		st = sim_step(g.sim, &d);
		check(st == SIM_ENGINE_STOPPED && strstr(sim_error(g.sim), "injection channel's credits"),
		      "debug build: an injection input holding a flit more than the NI drove stops "
		      "the run: %s", sim_error(g.sim));
	}
	rig_free(&g);
#endif
}

/*
 * A rig on hypercube:3 under the pair walk (rig_init()'s sinks stall: the pair walk
 * covers sinks that never do); -1 (reported) if it cannot be set up.
 */
static int pair_walk_rig(struct rig *g)
{
	char err[256];

	sim_config_defaults(&g->cfg);
	g->cfg.startup = 2;
	g->cfg.pair_walk = true;
	if (topology_parse("hypercube:3", &g->cfg.topo, err, sizeof(err)) || rig_start(g) ||
	    !network_pair_walk(g->net)) {
		check(0, "pair walk on hypercube:3: cannot set up");
		return -1;
	}
	return 0;
}

/*
 * The pair walk (on unless --no-pair-walk, model/pair_walk.h): its invariants hold in every cycle of
 * a busy run (R, R+IR and a B), and a debug build stops the run at the step after its
 * state is corrupted (a ring holding more than depth flits; a link output owned by
 * no pair; a pair's address of another input than its own; heads pending at a router
 * not marked as having them, which the allocation's one-head path relies on; an input
 * marked ejecting without a route to its ejection, which the walk of ejset visits; a
 * link pair in the walk's layer of another port, whose order "shows a flit" relies on).
 */
static void pair_walk_checks(int what)
{
	static const char *const names[] = { "a ring over its depth", "an output owned by no pair",
					     "a pair's address of another input",
					     "heads pending at an unmarked router",
					     "an input marked ejecting without its route",
					     "a link pair in the walk's layer of another port" };
	struct rig g;
	bool with_b = true;
	struct driver d = { .ctx = &with_b, .start = flood_start, .event = no_event };
	char err[256];
	int cycles = 0, broken = 0;
	enum sim_status st = SIM_DONE;

	if (pair_walk_rig(&g))
		return;
	while ((cycles < 8 || !network_buffered(g.net)) && cycles < 200 &&
	       (st = sim_step(g.sim, &d)) == SIM_DONE) {
		cycles++;
		if (!broken && pair_walk_sanity(network_pair_walk(g.net), err, sizeof(err)))
			broken = cycles;
	}
	check(st == SIM_DONE && !broken && network_buffered(g.net) > 0,
	      "pair walk on hypercube:3: its invariants hold in each of %d busy cycles (%d flits "
	      "buffered, status %d)%s%s", cycles, network_buffered(g.net), (int)st,
	      broken ? "; broken: " : "", broken ? err : "");
	pair_walk_corrupt(network_pair_walk(g.net), what);
	check(pair_walk_sanity(network_pair_walk(g.net), err, sizeof(err)) && strstr(err, "pair_walk"),
	      "pair walk: %s is reported: %s", names[what], err);
	next_cycle_stops(&g, &d, "pair_walk");
	rig_free(&g);
}

/*
 * Under the pair walk the NI keeps each injection channel's input index (ni.c): a
 * wrong one is reported by a debug build's pass (each ready channel checks its own),
 * which stops the run; the release build runs it.
 */
static void pair_walk_inputs(void)
{
	struct rig g;
	bool with_b = false;
	struct driver d = { .ctx = &with_b, .start = flood_start, .event = no_event };
	int cycles = 0;

	if (pair_walk_rig(&g))
		return;
	/* Past the start-up: every node's channels are sending. */
	while (cycles < 4 && sim_step(g.sim, &d) == SIM_DONE)
		cycles++;
	check(cycles == 4 && !sim_quiescent(g.sim),
	      "pair walk on hypercube:3: sending after %d cycles", cycles);
	ni_corrupt(sim_ni(g.sim), 0);
	next_cycle_stops(&g, &d, "injection channel's input in the pair walk");
	rig_free(&g);
}

int main(void)
{
	healthy("hypercube:3", true, 0, true);
	healthy("hypercube:4", true, 3, true);
	healthy("hypercube:4", false, 0, false);
	healthy("mesh:3x4", true, 2, true);
	healthy("mesh:4x4", false, 0, false);
	healthy("mesh:1x5", true, 0, true);
	corruptions();
	injection_credits();
	pair_walk_checks(0);
	pair_walk_checks(1);
	pair_walk_checks(2);
	pair_walk_checks(3);
	pair_walk_checks(4);
	pair_walk_checks(5);
	pair_walk_inputs();
	return check_finish();
}
