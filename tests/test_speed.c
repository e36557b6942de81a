/* SPDX-License-Identifier: MIT */
/*
 * test_speed.c - the model's speed and memory options change no result
 * (docs/performance.md).  Every workload runs with each option on and off, and the
 * runs must agree exactly: status, cycles, every statistic (flit-hops, deliveries,
 * conflict cycles), the data check, the contention-free schedule, the prediction and
 * the bound; for traffic also every message's send, head, tail and delivery cycles.
 *
 * The options:
 *   direct NI      the NIs call the C model directly (model_engine_network()); off:
 *                  the same model behind a pass-through engine table, which the NIs
 *                  call through like any other engine (the RTL, the cosimulation);
 *   release        the simulation frees each message once delivered everywhere
 *                  (driver.release_messages, set by the algorithm runs), and each page
 *                  of its message table once all its messages are; off: kept;
 *   plan as it goes  direx plans its sends at receipts (plan_sends()); off: every send
 *                  planned at the start, as a plan without memory limits would;
 *   generated payload  a send without data (traffic, traces) has its words generated
 *                  by the NI and the checker; off: the same words given and stored;
 *   closed-form schedule  an algorithm's contention-free evaluation in closed form
 *                  (algorithm.schedule); off: evaluated event by event;
 *   latency histogram  the traffic's percentiles read from a histogram of the
 *                  latencies (algos/latency.c); off: the latencies sorted, and the
 *                  mean summed in sorted order, as it was done before.
 * Every algorithm of the table runs on every small network it supports.
 * One line per check; the last line is "N passed, M failed"; exit 0 iff none failed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos.h"
#include "latency.h"
#include "schedule.h"
#include "skeleton.h"

static int passed, failed;

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		passed++;
	else
		failed++;
	printf("%s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* ---- the C model behind a table of its own: the NIs cannot take the direct path ---- */

static struct engine *inner_of(void *e) { return e; }
static void pt_inject(void *e, int node, int ch, flit_t f)
{
	inner_of(e)->ops->inject(inner_of(e)->impl, node, ch, f);
}
static void pt_credit(void *e, int node, int ch)
{
	inner_of(e)->ops->return_credit(inner_of(e)->impl, node, ch);
}
static int pt_step(void *e, uint64_t cycle) { return inner_of(e)->ops->step(inner_of(e)->impl, cycle); }
static int pt_ejections(void *e, const struct channel_event **l)
{
	return inner_of(e)->ops->ejections(inner_of(e)->impl, l);
}
static int pt_inj_credits(void *e, const struct channel_event **l)
{
	return inner_of(e)->ops->inj_credits(inner_of(e)->impl, l);
}
static int pt_outputs(void *e) { return inner_of(e)->ops->outputs_valid(inner_of(e)->impl); }
static int pt_state(void *e, int node, struct router_state *s)
{
	return inner_of(e)->ops->router_state(inner_of(e)->impl, node, s);
}
static uint64_t pt_moves(void *e) { return inner_of(e)->ops->link_moves(inner_of(e)->impl); }
static uint64_t pt_conflicts(void *e) { return inner_of(e)->ops->conflict_cycles(inner_of(e)->impl); }

static const struct engine_ops pass_through_ops = {
	.name = "model (through the engine table)",
	.inject = pt_inject, .return_credit = pt_credit, .step = pt_step,
	.ejections = pt_ejections, .inj_credits = pt_inj_credits, .outputs_valid = pt_outputs,
	.router_state = pt_state, .link_moves = pt_moves, .conflict_cycles = pt_conflicts,
};

/* A model engine for cfg in a's port mode, wrapped; 0 or -1. */
static int table_engine(const struct sim_config *cfg, bool all_port, struct sim_config *run_cfg,
			struct engine *inner, struct engine *outer)
{
	struct router_params rp;

	*run_cfg = *cfg;
	run_cfg->all_port = all_port;
	sim_config_router_params(run_cfg, &rp);
	if (model_engine_create(inner, &rp))
		return -1;
	*outer = (struct engine){ &pass_through_ops, inner };
	return 0;
}

/* The default configuration on network `net`; false (reported) if it does not parse. */
static bool config_for(const char *net, bool all_port, struct sim_config *cfg)
{
	char err[256];

	sim_config_defaults(cfg);
	cfg->all_port = all_port;
	if (topology_parse(net, &cfg->topo, err, sizeof(err)) == 0)
		return true;
	check(false, "%s: %s", net, err);
	return false;
}

/* ---- algorithms ---- */

static bool same_stats(const struct sim_stats *a, const struct sim_stats *b)
{
	return a->cycles_run == b->cycles_run && a->first_send == b->first_send &&
	       a->last_delivery == b->last_delivery && a->messages == b->messages &&
	       a->deliveries == b->deliveries && a->flits_delivered == b->flits_delivered &&
	       a->link_moves == b->link_moves && a->conflict_cycles == b->conflict_cycles &&
	       a->conflicts_measured == b->conflicts_measured && a->delivered_ok == b->delivered_ok;
}

static bool same_run(const struct algo_run *a, const struct algo_run *b)
{
	return a->status == b->status && same_stats(&a->stats, &b->stats) &&
	       a->cycles == b->cycles && a->predicted == b->predicted &&
	       !strcmp(a->formula, b->formula) && a->data_ok == b->data_ok &&
	       !strcmp(a->error, b->error) && a->scheduled == b->scheduled &&
	       !strcmp(a->schedule_text, b->schedule_text) && a->lower_bound == b->lower_bound &&
	       a->packets == b->packets && !strcmp(a->bound_text, b->bound_text) &&
	       a->prediction.published == b->prediction.published;
}

/*
 * The run with the simulation keeping every message (release off), or releasing them
 * as the driver says; *released: how many messages sim_message() no longer finds.
 */
static int run_with(const struct algorithm *a, const struct algo_params *p, bool keep,
		    struct algo_run *out, int *released)
{
	struct algo_session x;
	struct driver d;
	struct sim *s;
	char err[256];

	if (algo_begin(a, p, &x, out))
		return -1;
	s = sim_create(&x.cfg, err, sizeof(err));
	if (!s) {
		algo_abandon(&x);
		return -1;
	}
	algo_driver(&x, &d);
	if (keep)
		d.release_messages = false;
	algo_end(&x, s, sim_run(s, &d), out);
	*released = 0;
	for (int i = 0; i < sim_message_count(s); i++)
		*released += !sim_message(s, i);
	sim_destroy(s);
	algo_predict(&x, out);
	return 0;
}

static int run_keeping(const struct algorithm *a, const struct algo_params *p, struct algo_run *out)
{
	int released;

	return run_with(a, p, true, out, &released);
}

/* direx with every send planned at the start (the plan before plan_sends()). */
static int eager_direx_plan(const struct algo_params *p, int node, const struct receipt *r,
			    struct plan *pl)
{
	int n = p->cfg->topo.nodes;

	if (r)
		return 0;
	for (int j = 1; j < n; j++) {
		struct xfer_spec x = { .dest = node ^ j, .group = j - 1 };

		if (plan_xfer(pl, &x) || plan_block(pl, node, node ^ j, 0) ||
		    (j > 1 && plan_wait(pl, node ^ (j - 1), node, 0)))
			return -1;
	}
	return 0;
}

static void one_algorithm(const struct algorithm *a, const char *net, int flits, int root)
{
	struct sim_config cfg, run_cfg;
	struct algo_params p = { .cfg = &cfg, .root = root, .flits = flits };
	struct algo_run def, table, keep;
	struct engine inner, outer;
	char err[256];

	if (!config_for(net, a->all_port, &cfg))
		return;
	if (!(a->topologies & (1u << cfg.topo.kind)) ||
	    (a->supports && a->supports(&p, err, sizeof(err))))
		return;
	/* (Its own outcome, a deadlock included, is test_algos's; here: the same each way.) */
	if (algo_run(a, &p, NULL, &def) < 0) {
		check(false, "%s on %s, L = %d: the run itself: %s", a->name, net, flits, def.error);
		return;
	}
	if (table_engine(&cfg, a->all_port, &run_cfg, &inner, &outer)) {
		check(false, "out of memory");
		return;
	}
	algo_run(a, &p, &outer, &table);
	model_engine_destroy(&inner);
	check(same_run(&def, &table), "%s on %s, L = %d: direct NI on and off: %llu cycles, "
	      "%llu flit-hops", a->name, net, flits, (unsigned long long)def.cycles,
	      (unsigned long long)def.stats.link_moves);
	check(run_keeping(a, &p, &keep) == 0 && same_run(&def, &keep),
	      "%s on %s, L = %d: release on and off", a->name, net, flits);
	if (a == algo_find("direx")) {
		struct algorithm eager = *a;
		struct algo_run e;

		eager.plan = eager_direx_plan;
		algo_run(&eager, &p, NULL, &e);
		check(same_run(&def, &e), "%s on %s, L = %d: plan as it goes on and off", a->name,
		      net, flits);
	}
}

/*
 * More messages than several pages of the simulation's message table (model/sim.c): a
 * page is freed once all its messages are released; the run is the same as one that
 * keeps every message, and sim_message() finds none of the released ones.
 */
static void message_pages(void)
{
	struct sim_config cfg;
	struct algo_params p = { .cfg = &cfg, .flits = 2 };
	struct algo_run rel, keep;
	int released = -1, kept = -1;

	if (!config_for("hypercube:7", true, &cfg))
		return;
	run_with(algo_find("direx"), &p, false, &rel, &released);
	run_with(algo_find("direx"), &p, true, &keep, &kept);
	check(rel.status == SIM_DONE && rel.stats.messages == 128 * 127 &&
	      released == (int)rel.stats.messages && kept == 0 && same_run(&rel, &keep),
	      "direx on Q_7: %llu messages (%d released, %d kept: none), release on and off alike",
	      (unsigned long long)rel.stats.messages, released, (int)keep.stats.messages - kept);
}

/* Every algorithm with a closed-form schedule, against the evaluation event by event. */
static void closed_form_schedules(void)
{
	static const char *const nets[] = { "hypercube:1", "hypercube:2", "hypercube:3",
					    "hypercube:5", "hypercube:7", "mesh:4x4" };
	static const int lens[] = { 1, 2, 9 }, startups[] = { 1, 10 };

	for (int i = 0; algorithms[i]; i++) {
		const struct algorithm *a = algorithms[i];
		int cases = 0, same = 0;

		if (!a->schedule)
			continue;
		for (size_t k = 0; k < sizeof(nets) / sizeof(nets[0]); k++)
			for (size_t l = 0; l < 3; l++)
				for (size_t t = 0; t < 2; t++) {
					struct sim_config cfg;
					struct algo_params p = { .cfg = &cfg, .flits = lens[l] };
					struct schedule_result x, y;
					char err[256];

					if (!config_for(nets[k], a->all_port, &cfg))
						return;
					cfg.startup = startups[t];
					if (!(a->topologies & (1u << cfg.topo.kind)) ||
					    (a->supports && a->supports(&p, err, sizeof(err))))
						continue;
					cases++;
					if (algo_schedule(a, &p, &x) == 0 &&
					    algo_schedule_traced(a, &p, &y, NULL) == 0 && x.ok == y.ok &&
					    x.cycles == y.cycles && x.startups == y.startups &&
					    x.hops == y.hops && x.flits == y.flits &&
					    x.messages == y.messages && !strcmp(x.text, y.text))
						same++;
					else
						printf("     %s on %s, L = %d, t_s = %d: %s | %s\n", a->name,
						       nets[k], lens[l], startups[t], x.text, y.text);
				}
		check(cases > 0 && same == cases, "%s: closed-form schedule on and off: %d of %d "
		      "cases the same", a->name, same, cases);
	}
}

/* ---- traffic: generated payload on and off ---- */

struct traffic {
	uint64_t rng;
	int nodes, flits, sends_per_cycle;
	uint64_t until;
	bool give_data;
	unsigned width;
	unsigned *seq;		/* per source: the sequence number its next message gets */
	uint64_t data[64];
};

static uint64_t next_rand(struct traffic *tr)
{
	tr->rng = tr->rng * 6364136223846793005ull + 1442695040888963407ull;
	return tr->rng >> 33;
}

/*
 * Every cycle until `until`, a few unicasts of 1..flits flits (broadcasts mixed with
 * them may deadlock: algos/bcast_gate.h).
 */
static void traffic_tick(void *ctx, struct sim *s)
{
	struct traffic *tr = ctx;

	if (sim_now(s) >= tr->until)
		return;
	for (int k = 0; k < tr->sends_per_cycle; k++) {
		int src = (int)(next_rand(tr) % (uint64_t)tr->nodes);
		int dst = (int)(next_rand(tr) % (uint64_t)tr->nodes);
		int len = 1 + (int)(next_rand(tr) % (uint64_t)tr->flits);
		struct send_req r = { .dest = dst, .type = HDR_R, .len = len, .channel = -1 };

		if (dst == src)
			continue;
		if (tr->give_data) {
			for (int i = 0; i < len - 1; i++)
				tr->data[i] = sim_pattern_word(src, tr->seq[src], i, tr->width);
			r.data = tr->data;
		}
		if (sim_send(s, src, &r) >= 0)
			tr->seq[src]++;
	}
}

static bool traffic_finished(void *ctx, const struct sim *s)
{
	return sim_now(s) >= ((const struct traffic *)ctx)->until;
}

/* One traffic run; its statistics, and the simulation for its messages (caller frees). */
static struct sim *run_traffic(const struct sim_config *cfg, struct engine *e, bool give_data,
			       bool release, struct sim_stats *st, enum sim_status *status)
{
	char err[256];
	struct sim *s = e ? sim_create_with_engine(cfg, e, err, sizeof(err))
			  : sim_create(cfg, err, sizeof(err));
	struct traffic tr = { .rng = 12345, .nodes = cfg->topo.nodes, .flits = 9,
			      .sends_per_cycle = 2, .until = 300, .give_data = give_data,
			      .width = (unsigned)cfg->payload_width };
	struct driver d = { .ctx = &tr, .tick = traffic_tick, .finished = traffic_finished,
			    .release_messages = release };

	tr.seq = calloc((size_t)tr.nodes, sizeof(unsigned));
	if (!s || !tr.seq) {
		free(tr.seq);
		sim_destroy(s);
		return NULL;
	}
	*status = sim_run(s, &d);
	sim_get_stats(s, st);
	free(tr.seq);
	return s;
}

static bool same_messages(const struct sim *a, const struct sim *b)
{
	if (sim_message_count(a) != sim_message_count(b))
		return false;
	for (int i = 0; i < sim_message_count(a); i++) {
		const struct message *x = sim_message(a, i), *y = sim_message(b, i);

		if (!x || !y || x->source != y->source || x->len != y->len ||
		    x->send_cycle != y->send_cycle || x->head_cycle != y->head_cycle ||
		    x->tail_cycle != y->tail_cycle || x->delivered != y->delivered ||
		    x->last_delivery != y->last_delivery || x->head != y->head)
			return false;
	}
	return true;
}

static void one_traffic(const char *net, bool all_port)
{
	struct sim_config cfg, run_cfg;
	struct sim_stats st[4];
	enum sim_status status[4];
	struct sim *s[4];
	struct engine inner, outer;

	if (!config_for(net, all_port, &cfg))
		return;
	if (table_engine(&cfg, all_port, &run_cfg, &inner, &outer)) {
		check(false, "out of memory");
		return;
	}
	s[0] = run_traffic(&cfg, NULL, false, false, &st[0], &status[0]);
	s[1] = run_traffic(&cfg, NULL, true, false, &st[1], &status[1]);
	s[2] = run_traffic(&cfg, &outer, false, false, &st[2], &status[2]);
	s[3] = run_traffic(&cfg, NULL, false, true, &st[3], &status[3]);
	if (!s[0] || !s[1] || !s[2] || !s[3]) {
		check(false, "%s: out of memory", net);
	} else {
		check(status[0] == SIM_DONE && st[0].delivered_ok && st[0].messages > 100,
		      "traffic on %s (%s): status %d, %llu messages, %llu flit-hops, all delivered", net,
		      all_port ? "all-port" : "one-port", (int)status[0], (unsigned long long)st[0].messages,
		      (unsigned long long)st[0].link_moves);
		check(status[1] == status[0] && same_stats(&st[0], &st[1]) && same_messages(s[0], s[1]),
		      "traffic on %s: generated payload on and off", net);
		check(status[2] == status[0] && same_stats(&st[0], &st[2]) && same_messages(s[0], s[2]),
		      "traffic on %s: direct NI on and off", net);
		check(status[3] == status[0] && same_stats(&st[0], &st[3]) &&
		      sim_message(s[3], 0) == NULL,
		      "traffic on %s: release on and off (and released messages are gone)", net);
	}
	for (int k = 0; k < 4; k++)
		sim_destroy(s[k]);
	model_engine_destroy(&inner);
}

/* ---- latency summaries: the histogram against the sort ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The summary as it was made before the histogram: sorted, summed in order. */
static void sorted_summary(const uint64_t *lat, size_t n, struct latency_summary *s)
{
	uint64_t *v = malloc(sizeof(*v) * n);
	double sum = 0;
	size_t r50 = (n * 50 + 99) / 100, r99 = (n * 99 + 99) / 100;

	memcpy(v, lat, sizeof(*v) * n);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t k = 0; k < n; k++)
		sum += (double)v[k];
	s->avg = sum / (double)n;
	s->min = v[0];
	s->max = v[n - 1];
	s->p50 = v[r50 ? r50 - 1 : 0];
	s->p99 = v[r99 ? r99 - 1 : 0];
	free(v);
}

static void latency_histogram(void)
{
	/* n, spread: narrow spreads take the histogram, wide ones the sort. */
	static const struct { size_t n; uint64_t spread; } cases[] = {
		{ 1, 1 }, { 2, 1 }, { 7, 3 }, { 100, 40 }, { 101, 1000 }, { 10000, 300 },
		{ 10000, 50000 }, { 1000, 1ull << 40 }, { 5, 1ull << 62 },
	};
	uint64_t x = 88172645463325252ull;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = cases[c].n;
		uint64_t *lat = malloc(sizeof(*lat) * n);
		struct latency_summary want, got;

		for (size_t k = 0; k < n; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			lat[k] = 12 + x % cases[c].spread;
		}
		sorted_summary(lat, n, &want);
		latency_summarize(lat, n, &got);
		check(want.avg == got.avg && want.min == got.min && want.max == got.max &&
		      want.p50 == got.p50 && want.p99 == got.p99,
		      "latency summary of %zu values spread over %llu: mean %g, min %llu, p50 %llu, "
		      "p99 %llu, max %llu", n, (unsigned long long)cases[c].spread, got.avg,
		      (unsigned long long)got.min, (unsigned long long)got.p50,
		      (unsigned long long)got.p99, (unsigned long long)got.max);
		free(lat);
	}
}

int main(void)
{
	static const struct { const char *net; int flits; int root; } nets[] = {
		{ "hypercube:4", 5, 3 }, { "hypercube:3", 1, 0 }, { "mesh:4x4", 6, 5 },
		{ "mesh:2x4", 3, 0 }, { "torus:4x4", 4, 1 }, { "ring:6", 3, 2 },
		{ "ring:5", 4, 0 },
	};

	/* The comparison sees a difference of one cycle (t_s 10 and 11). */
	{
		struct sim_config cfg;
		struct algo_params p = { .cfg = &cfg, .root = 0, .flits = 5 };
		struct algo_run a, b;
		char err[256];

		sim_config_defaults(&cfg);
		topology_parse("hypercube:3", &cfg.topo, err, sizeof(err));
		algo_run(algo_find("pbcast"), &p, NULL, &a);
		cfg.startup++;
		algo_run(algo_find("pbcast"), &p, NULL, &b);
		check(a.status == SIM_DONE && !same_run(&a, &b) && a.cycles + 1 == b.cycles,
		      "the comparison tells pbcast with t_s = 10 (%llu cycles) from t_s = 11",
		      (unsigned long long)a.cycles);
	}
	for (int i = 0; algorithms[i]; i++)
		for (size_t k = 0; k < sizeof(nets) / sizeof(nets[0]); k++)
			one_algorithm(algorithms[i], nets[k].net, nets[k].flits, nets[k].root);
	closed_form_schedules();
	message_pages();
	latency_histogram();
	one_traffic("hypercube:4", true);
	one_traffic("mesh:4x4", false);
	one_traffic("torus:4x4", true);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
