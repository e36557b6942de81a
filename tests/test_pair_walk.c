/* SPDX-License-Identifier: MIT */
/*
 * test_pair_walk.c - the pair walk (model/pair_walk.h; the default, --no-pair-walk
 * steps the routers) is the routers' network, exactly.
 *
 * 1. On and off: every algorithm of the table on hypercubes and meshes, and random
 *    traffic of every kind (R, R+IR, B trees, B+IR paths, rival broadcasts), run with
 *    the option and without: the same status, cycles, statistics, data check and,
 *    for traffic, every message's cycles; the run says which core ran (the pair walk
 *    where it covers the network, the routers on a torus, one-port or T_r > 0).
 * 2. Lockstep: the routers' network and the pair walk's driven by one NI with the
 *    same inputs every cycle, and after every cycle every router's section 6
 *    registers (as derived: router_state_same_flits()), the ejections, the injection
 *    credits and the counters compared.  The comparison is the cosimulation's, with
 *    the C model on both sides.  A mutant of the pair walk (docs/performance.md,
 *    fourteenth session (pair): a ready test one flit too generous) fails it.
 * One line per check; the last line is "N passed, M failed"; exit 0 iff none failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "check.h"
#include "pair_walk.h"
#include "same_run.h"

/*
 * Two states of one router equal in every register the pair walk derives: all of
 * router_state_equal()'s but the FIFO pointers (the live entries are compared in
 * order).  On a difference, its name into why.
 */
static bool router_state_same_flits(const struct router_state *a, const struct router_state *b,
				    char *why, size_t len)
{
	if (a->rr_q != b->rr_q) {
		snprintf(why, len, "rr_q %u / %u", a->rr_q, b->rr_q);
		return false;
	}
	for (int i = 0; i < a->n_in; i++) {
		const struct router_state_input *x = &a->in[i], *y = &b->in[i];

		if (x->count != y->count || x->route_q != y->route_q ||
		    x->credit_out_q != y->credit_out_q || x->hold_q != y->hold_q ||
		    (x->route_q && x->msg_head != y->msg_head)) {
			snprintf(why, len, "input %d: count %d / %d, route_q %#x / %#x, "
				 "credit_out_q %d / %d, hold_q %d / %d", i, x->count, y->count,
				 x->route_q, y->route_q, x->credit_out_q, y->credit_out_q,
				 x->hold_q, y->hold_q);
			return false;
		}
		for (int k = 0; k < x->count; k++)
			if (router_state_fifo(a, i, k) != router_state_fifo(b, i, k)) {
				snprintf(why, len, "input %d: FIFO entry %d of %d", i, k, x->count);
				return false;
			}
	}
	for (int o = 0; o < a->n_out; o++) {
		const struct router_state_output *x = &a->out[o], *y = &b->out[o];

		if (x->out_valid_q != y->out_valid_q || x->out_flit_q != y->out_flit_q ||
		    x->credits_q != y->credits_q) {
			snprintf(why, len, "output %d: out_valid_q %d / %d, out_flit_q %#llx / "
				 "%#llx, credits_q %d / %d", o, x->out_valid_q, y->out_valid_q,
				 (unsigned long long)x->out_flit_q, (unsigned long long)y->out_flit_q,
				 x->credits_q, y->credits_q);
			return false;
		}
	}
	return true;
}

/* ---- 1. every algorithm ---- */

static void one_algorithm(const struct algorithm *a, const char *net, int flits, int root,
			  bool covered)
{
	struct sim_config cfg;
	struct algo_params p = { .cfg = &cfg, .root = root, .flits = flits };
	struct algo_run off, on;
	char err[256];

	if (!config_for(net, true, &cfg) || !(a->topologies & (1u << cfg.topo.kind)) ||
	    (a->supports && a->supports(&p, err, sizeof(err))))
		return;
	cfg.all_port = a->all_port;
	algo_run(a, &p, NULL, &off);
	cfg.pair_walk = true;
	algo_run(a, &p, NULL, &on);
	covered = covered && a->all_port;
	check(same_run(&off, &on) && on.stats.network_core &&
	      !strcmp(on.stats.network_core, covered ? "pair-walk" : "routers") &&
	      !strcmp(off.stats.network_core, "routers"),
	      "%s on %s, L = %d: pair walk on and off: %llu cycles, %llu flit-hops, %llu "
	      "conflict cycles (ran: %s)", a->name, net, flits, (unsigned long long)on.cycles,
	      (unsigned long long)on.stats.link_moves,
	      (unsigned long long)on.stats.conflict_cycles,
	      on.stats.network_core ? on.stats.network_core : "?");
}

/* ---- random traffic of every kind ---- */

struct traffic {
	uint64_t rng;
	int nodes, flits, until;
	int b_per_mille, ir_per_mille;	/* of the sends */
	bool rivals;			/* broadcasts from two roots at once */
};

static uint64_t next_rand(struct traffic *tr)
{
	tr->rng = tr->rng * 6364136223846793005ull + 1442695040888963407ull;
	return tr->rng >> 33;
}

static void traffic_tick(void *ctx, struct sim *s)
{
	struct traffic *tr = ctx;

	if (sim_now(s) >= (uint64_t)tr->until)
		return;
	for (int k = 0; k < 2; k++) {
		int src = (int)(next_rand(tr) % (uint64_t)tr->nodes);
		int dst = (int)(next_rand(tr) % (uint64_t)tr->nodes);
		int len = 1 + (int)(next_rand(tr) % (uint64_t)tr->flits);
		int kind = (int)(next_rand(tr) % 1000);
		struct send_req r = { .dest = dst, .type = HDR_R, .len = len, .channel = -1 };

		if (kind < tr->b_per_mille) {
			r.type = HDR_B;
			r.ir = next_rand(tr) % 4 == 0;	/* a path broadcast */
			sim_send(s, src, &r);
			if (tr->rivals)
				sim_send(s, (src + tr->nodes / 2 + 1) % tr->nodes,
					 &(struct send_req){ .type = HDR_B, .len = len, .channel = -1 });
			continue;
		}
		r.ir = kind < tr->b_per_mille + tr->ir_per_mille;
		if (dst != src)
			sim_send(s, src, &r);
	}
}

static bool traffic_finished(void *ctx, const struct sim *s)
{
	return sim_now(s) >= (uint64_t)((const struct traffic *)ctx)->until;
}

static struct traffic traffic_of(const struct sim_config *cfg, int b, int ir, bool rivals)
{
	return (struct traffic){ .rng = 777, .nodes = cfg->topo.nodes, .flits = 9, .until = 400,
				 .b_per_mille = b, .ir_per_mille = ir, .rivals = rivals };
}

static struct sim *run_traffic(const struct sim_config *cfg, struct engine *e, struct traffic tr,
			       struct sim_stats *st, enum sim_status *status)
{
	char err[256];
	struct sim *s = e ? sim_create_with_engine(cfg, e, err, sizeof(err))
			  : sim_create(cfg, err, sizeof(err));
	struct driver d = { .ctx = &tr, .tick = traffic_tick, .finished = traffic_finished };

	if (!s)
		return NULL;
	*status = sim_run(s, &d);
	sim_get_stats(s, st);
	return s;
}

static void one_traffic(const char *net, int b, int ir, bool rivals, int depth)
{
	struct sim_config cfg;
	struct sim_stats st[2];
	enum sim_status status[2];
	struct sim *s[2];

	if (!config_for(net, true, &cfg))
		return;
	cfg.buffer_depth = depth;
	s[0] = run_traffic(&cfg, NULL, traffic_of(&cfg, b, ir, rivals), &st[0], &status[0]);
	cfg.pair_walk = true;
	s[1] = run_traffic(&cfg, NULL, traffic_of(&cfg, b, ir, rivals), &st[1], &status[1]);
	check(s[0] && s[1] && status[0] == status[1] && same_stats(&st[0], &st[1]) &&
	      same_messages(s[0], s[1]) && !strcmp(sim_error(s[0]), sim_error(s[1])) &&
	      st[1].network_core &&
	      !strcmp(st[1].network_core, "pair-walk") && st[0].messages > 100,
	      "traffic on %s, depth %d, B %d, IR %d per mille%s: pair walk on and off: status "
	      "%d, %llu messages, %llu flit-hops, %llu conflict cycles", net, depth, b, ir,
	      rivals ? ", rival broadcasts" : "", (int)status[1],
	      (unsigned long long)st[1].messages, (unsigned long long)st[1].link_moves,
	      (unsigned long long)st[1].conflict_cycles);
	sim_destroy(s[0]);
	sim_destroy(s[1]);
}

/* ---- 2. lockstep ---- */

struct lockstep {
	struct network *routers, *pairs;
	int nodes, channels;
	uint64_t cycles;
	char why[512];
};

static struct lockstep *ls_of(void *e) { return e; }

static void ls_inject(void *e, int node, int ch, flit_t f)
{
	network_inject(ls_of(e)->routers, node, ch, f);
	network_inject(ls_of(e)->pairs, node, ch, f);
}

/*
 * Sinks that never stall: both networks return their ejection credits themselves in
 * the cycle the NI would (network_return_ejection_credits()), so the NI's are dropped.
 */
static void ls_credit(void *e, int node, int ch)
{
	(void)e;
	(void)node;
	(void)ch;
}

static bool same_events(const struct channel_event *a, int na, const struct channel_event *b,
			int nb, bool flits)
{
	if (na != nb)
		return false;
	for (int k = 0; k < na; k++)
		if (a[k].node != b[k].node || a[k].channel != b[k].channel ||
		    (flits && a[k].flit != b[k].flit))
			return false;
	return true;
}

static int ls_compare(struct lockstep *l, uint64_t cycle)
{
	const struct channel_event *a, *b;
	int na, nb;
	char why[400];

	na = network_ejections(l->routers, &a);
	nb = network_ejections(l->pairs, &b);
	if (!same_events(a, na, b, nb, true)) {
		snprintf(l->why, sizeof(l->why), "cycle %llu: ejections %d / %d",
			 (unsigned long long)cycle, na, nb);
		return -1;
	}
	na = network_inj_credits(l->routers, &a);
	nb = network_inj_credits(l->pairs, &b);
	if (!same_events(a, na, b, nb, false)) {
		snprintf(l->why, sizeof(l->why), "cycle %llu: injection credits %d / %d",
			 (unsigned long long)cycle, na, nb);
		return -1;
	}
	if (network_last_moves(l->routers) != network_last_moves(l->pairs) ||
	    network_link_moves(l->routers) != network_link_moves(l->pairs) ||
	    network_conflict_cycles(l->routers) != network_conflict_cycles(l->pairs) ||
	    network_buffered(l->routers) != network_buffered(l->pairs)) {
		snprintf(l->why, sizeof(l->why), "cycle %llu: counters", (unsigned long long)cycle);
		return -1;
	}
	for (int v = 0; v < l->nodes; v++) {
		struct router_state x, y;

		for (int c = 0; c < l->channels; c++)
			if (network_inj_held(l->routers, v, c) != network_inj_held(l->pairs, v, c) ||
			    network_inj_credited(l->routers, v, c) != network_inj_credited(l->pairs, v, c)) {
				snprintf(l->why, sizeof(l->why), "cycle %llu: node %d injection "
					 "channel %d", (unsigned long long)cycle, v, c);
				return -1;
			}
		network_router_state(l->routers, v, &x);
		network_router_state(l->pairs, v, &y);
		if (!router_state_same_flits(&x, &y, why, sizeof(why))) {
			snprintf(l->why, sizeof(l->why), "cycle %llu: node %d: %s (routers / pair walk)",
				 (unsigned long long)cycle, v, why);
			return -1;
		}
	}
	return 0;
}

static int ls_step(void *e, uint64_t cycle)
{
	struct lockstep *l = e;

	network_step(l->routers, cycle);
	network_step(l->pairs, cycle);
	l->cycles++;
	return ls_compare(l, cycle);
}

static int ls_ejections(void *e, const struct channel_event **l)
{
	return network_ejections(ls_of(e)->routers, l);
}
static int ls_inj_credits(void *e, const struct channel_event **l)
{
	return network_inj_credits(ls_of(e)->routers, l);
}
static int ls_outputs(void *e) { return network_last_moves(ls_of(e)->routers); }
static int ls_state(void *e, int node, struct router_state *s)
{
	network_router_state(ls_of(e)->routers, node, s);
	return 0;
}
static uint64_t ls_moves(void *e) { return network_link_moves(ls_of(e)->routers); }
static uint64_t ls_conflicts(void *e) { return network_conflict_cycles(ls_of(e)->routers); }
static const char *ls_reason(void *e) { return ls_of(e)->why; }

static const struct engine_ops lockstep_ops = {
	.name = "model: routers and pair walk in lockstep",
	.inject = ls_inject, .return_credit = ls_credit, .step = ls_step,
	.ejections = ls_ejections, .inj_credits = ls_inj_credits, .outputs_valid = ls_outputs,
	.router_state = ls_state, .link_moves = ls_moves, .conflict_cycles = ls_conflicts,
	.stop_reason = ls_reason,
};

/*
 * The two networks of configuration cfg, with sinks that never stall: true if the pair
 * walk covers it (l's networks are for network_destroy() either way).
 */
static bool ls_open(struct lockstep *l, const struct sim_config *cfg)
{
	struct router_params rp;

	sim_config_router_params(cfg, &rp);
	l->routers = network_create(&rp);
	l->pairs = network_create(&rp);
	if (!l->routers || !l->pairs)
		return false;
	network_return_ejection_credits(l->routers);
	network_return_ejection_credits(l->pairs);
	l->nodes = cfg->topo.nodes;
	l->channels = cfg->topo.ports;
	return network_use_pair_walk(l->pairs);
}

static void lockstep(const char *net, int b, int ir, bool rivals, int depth)
{
	struct sim_config cfg;
	struct lockstep l = { 0 };
	struct engine e = { &lockstep_ops, &l };
	struct sim_stats st;
	enum sim_status status = SIM_DONE;
	struct sim *s = NULL;
	bool covered = false;

	if (!config_for(net, true, &cfg))
		return;
	cfg.buffer_depth = depth;
	covered = ls_open(&l, &cfg);
	if (covered)
		s = run_traffic(&cfg, &e, traffic_of(&cfg, b, ir, rivals), &st, &status);
	check(covered && s && l.cycles > 300 && !l.why[0] && st.messages > 100,
	      "lockstep on %s, depth %d, B %d, IR %d per mille%s: every router's registers, the "
	      "ejections, the injection credits and the counters the same after each of %llu "
	      "cycles (%llu messages, %llu flit-hops, status %d)%s%s", net, depth, b, ir,
	      rivals ? ", rival broadcasts" : "", (unsigned long long)l.cycles,
	      s ? (unsigned long long)st.messages : 0ull, s ? (unsigned long long)st.link_moves : 0ull,
	      (int)status, l.why[0] ? ": " : "", l.why);
	sim_destroy(s);
	network_destroy(l.routers);
	network_destroy(l.pairs);
}

/*
 * Worms with gaps, in lockstep: every node sends a unicast to the node across the whole
 * cube (every dimension), driving its injection channel by hand and leaving it empty
 * one cycle in three.  The NI never leaves such a gap inside a worm, so that the
 * walk's runs above never see an input that a pair drained and that a flit refills in
 * the cycle after: here the input downstream of every gap is, and a flit pushed into it
 * must not be seen there before the next cycle whichever pair is walked first (the
 * order of pair_walk.c's lists; with the layers walked upwards, or the injection pairs
 * before them, this check fails).
 */
static void gaps(const char *net, int flits, int depth)
{
	struct sim_config cfg;
	struct lockstep l = { 0 };
	bool covered = false;
	int sent = 0, ejected = 0;

	if (!config_for(net, true, &cfg))
		return;
	cfg.buffer_depth = depth;
	if (ls_open(&l, &cfg)) {
		int nodes = cfg.topo.nodes, *next = calloc((size_t)nodes, sizeof(*next));
		const unsigned width = (unsigned)cfg.payload_width;

		covered = next != NULL;
		for (uint64_t c = 0; covered && c < (uint64_t)(8 * flits + 40) && !l.why[0]; c++) {
			const struct channel_event *e;

			for (int v = 0; v < nodes; v++) {
				struct header h = { .type = HDR_R, .address = (unsigned)(nodes - 1 - v),
						    .source = (unsigned)v };
				int k = next[v];

				if (k == flits || c % 3 == 2 || network_inj_held(l.routers, v, 0) >= depth)
					continue;
				ls_inject(&l, v, 0, flit_make(k == 0 ? FLIT_HEAD : k == flits - 1 ? FLIT_TAIL
							     : FLIT_BODY,
							     k ? (uint64_t)(v * 100 + k) : header_pack(&h, width),
							     width));
				next[v]++;
				sent++;
			}
			ls_step(&l, c);
			ejected += network_ejections(l.pairs, &e);
		}
		free(next);
	}
	check(covered && !l.why[0] && sent == cfg.topo.nodes * flits && ejected == sent,
	      "lockstep on %s, depth %d, worms of %d flits with a gap one cycle in three: every "
	      "router's registers, the ejections, the injection credits and the counters the "
	      "same after each of %llu cycles (%d flits sent, %d ejected)%s%s", net, depth, flits,
	      (unsigned long long)l.cycles, sent, ejected, l.why[0] ? ": " : "", l.why);
	network_destroy(l.routers);
	network_destroy(l.pairs);
}

int main(void)
{
	static const struct { const char *net; int flits; int root; bool covered; } nets[] = {
		{ "hypercube:4", 5, 3, true }, { "hypercube:3", 1, 0, true },
		{ "mesh:4x4", 6, 5, true }, { "mesh:2x4", 3, 0, true },
		{ "hypercube:5", 17, 9, true }, { "mesh:3x5", 12, 7, true },
		{ "torus:4x4", 4, 1, false },
	};

	for (int i = 0; algorithms[i]; i++)
		for (size_t k = 0; k < sizeof(nets) / sizeof(nets[0]); k++)
			one_algorithm(algorithms[i], nets[k].net, nets[k].flits, nets[k].root,
				      nets[k].covered);
	one_traffic("hypercube:4", 0, 0, false, 4);
	one_traffic("hypercube:5", 20, 300, false, 2);
	one_traffic("mesh:4x4", 20, 300, false, 3);
	one_traffic("mesh:3x5", 30, 200, true, 4);
	one_traffic("hypercube:4", 30, 200, true, 2);
	/* Deeper than the ring in the input's record (PW_RING_IN): the rings apart. */
	one_traffic("mesh:4x4", 20, 300, true, 8);
	lockstep("hypercube:4", 0, 0, false, 4);
	lockstep("hypercube:4", 0, 400, false, 2);
	lockstep("hypercube:5", 20, 300, true, 3);
	lockstep("mesh:4x4", 20, 300, false, 4);
	lockstep("mesh:3x5", 30, 200, true, 2);
	lockstep("mesh:1x6", 30, 200, true, 4);
	lockstep("hypercube:4", 20, 300, true, 6);
	gaps("hypercube:4", 12, 4);
	gaps("hypercube:5", 9, 2);
	gaps("mesh:4x4", 12, 3);
	return check_finish();
}
