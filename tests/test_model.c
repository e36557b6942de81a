/* SPDX-License-Identifier: MIT */
/*
 * test_model.c - the C model against docs/microarchitecture.md: the replication
 * tree, exact latencies of a pipelined broadcast and of unicasts, IR, full link
 * throughput, the NI's injection credits (their latency, the order they list), the
 * checker and the watchdog.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "checker.h"
#include "coverage.h"
#include "router_state.h"
#include "sim.h"
#include "sweep.h"

/* A driver that makes a fixed list of sends at cycle 0. */
struct sends {
	int n;
	int src[8];
	struct send_req req[8];
};

static void sends_start(void *ctx, struct sim *s)
{
	struct sends *x = ctx;

	for (int k = 0; k < x->n; k++)
		if (sim_send(s, x->src[k], &x->req[k]) < 0)
			printf("send failed: %s\n", sim_error(s));
}

static void no_event(void *c, struct sim *s, const struct sim_event *e)
{
	(void)c;
	(void)s;
	(void)e;
}

/* Router options beyond the topology, the port model and the depth. */
struct router_opts {
	int replication_cost;
	bool flip_route, flip_tree;	/* the other dimension order than the default */
	int vcs;			/* V, 0: the topology's default */
};

static enum dim_order flipped(enum dim_order o)
{
	return o == ORDER_ASCENDING ? ORDER_DESCENDING : ORDER_ASCENDING;
}

static struct sim *make_with(const char *topo, int startup, int depth, bool all_port,
			     const struct router_opts *o)
{
	struct sim_config cfg;
	char err[256];
	struct sim *s;

	sim_config_defaults(&cfg);
	if (topology_parse(topo, &cfg.topo, err, sizeof(err))) {
		printf("bad topology %s: %s\n", topo, err);
		exit(1);
	}
	cfg.startup = startup;
	cfg.buffer_depth = depth;
	cfg.all_port = all_port;
	cfg.watchdog = 500;
	if (o) {
		cfg.replication_cost = o->replication_cost;
		if (o->flip_route)
			cfg.topo.route_order = flipped(cfg.topo.route_order);
		if (o->flip_tree)
			cfg.topo.tree_order = flipped(cfg.topo.tree_order);
		if (o->vcs)
			cfg.topo.vcs = o->vcs;
	}
	s = sim_create(&cfg, err, sizeof(err));
	if (!s) {
		printf("sim_create: %s\n", err);
		exit(1);
	}
	return s;
}

static struct sim *make(const char *topo, int startup, int depth, bool all_port)
{
	return make_with(topo, startup, depth, all_port, NULL);
}

static enum sim_status run(struct sim *s, struct sends *x, struct sim_stats *st)
{
	struct driver d = { .ctx = x, .start = sends_start, .event = no_event };
	enum sim_status r = sim_run(s, &d);

	sim_get_stats(s, st);
	return r;
}

/*
 * The tree's path from the root to node is the route of the tree order from the root
 * to node (docs/microarchitecture.md section 8): walk both and compare.
 */
static bool tree_path_is_route(const struct topology *t, int root, int node)
{
	struct topology route = *t;
	int path[2 * TOPO_MAX_SIDE + TOPO_MAX_DIM], n = 0;

	route.route_order = t->tree_order;
	for (int v = node; v != root; v = replication_parent(t, root, v)) {
		if (v < 0 || n == (int)(sizeof(path) / sizeof(path[0])))
			return false;
		path[n++] = v;
	}
	for (int v = root; v != node;) {
		v = topology_neighbor(&route, v, unicast_next_port(&route, v, node));
		if (n == 0 || path[--n] != v)
			return false;
	}
	return n == 0;
}

/*
 * Every root of Q_1..Q_10 and of some meshes, in both tree orders: the tree spans,
 * each node once, children and parents agree, depth = route distance, and the path
 * to every node is its route in the tree order.
 */
static void test_replication_tree(void)
{
	char err[128];

	for (int order = 0; order < 2; order++)
		for (int d = 1; d <= 10; d++) {
			struct topology t;
			int bad = 0;

			topology_init_hypercube(&t, d, err, sizeof(err));
			t.tree_order = (enum dim_order)order;
			for (int root = 0; root < t.nodes; root++) {
				int *seen = calloc((size_t)t.nodes, sizeof(int));
				int *queue = malloc(sizeof(int) * (size_t)t.nodes), head = 0, tail = 0;
				int *depth = calloc((size_t)t.nodes, sizeof(int)), depth_max = 0;

				queue[tail++] = root;
				seen[root] = 1;
				while (head < tail) {
					int v = queue[head++];
					uint32_t ch = replication_children(&t, root, v);

					for (int p = 0; p < t.ports; p++) {
						int w;

						if (!(ch >> p & 1))
							continue;
						w = topology_neighbor(&t, v, p);
						if (w < 0 || seen[w]++ || replication_parent(&t, root, w) != v) {
							bad++;
							continue;
						}
						depth[w] = depth[v] + 1;
						if (depth[w] > depth_max)
							depth_max = depth[w];
						queue[tail++] = w;
					}
				}
				if (tail != t.nodes || depth_max != d || depth[root ^ (t.nodes - 1)] != d ||
				    replication_children(&t, root, root ^ (t.nodes - 1)) != 0)
					bad++;
				for (int v = 0; v < t.nodes && d <= 6; v++)
					if (depth[v] != topology_distance(&t, root, v) ||
					    !tree_path_is_route(&t, root, v))
						bad++;
				free(seen);
				free(queue);
				free(depth);
			}
			check(bad == 0, "%s replication tree of Q_%d spans every node once from each of %d roots, "
			      "depth %d, the terminal a leaf%s", dim_order_name(t.tree_order), d, t.nodes, d,
			      d <= 6 ? ", every path the route in that order" : "");
		}
	{
		const int sizes[][2] = { { 4, 4 }, { 5, 3 }, { 1, 8 }, { 8, 1 }, { 7, 9 } };

		for (int order = 0; order < 2; order++)
			for (unsigned k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
				struct topology t;
				int bad = 0;

				topology_init_mesh(&t, sizes[k][0], sizes[k][1], err, sizeof(err));
				t.tree_order = (enum dim_order)order;
				for (int root = 0; root < t.nodes; root++) {
					int reached = 1;

					for (int v = 0; v < t.nodes; v++) {
						uint32_t ch = replication_children(&t, root, v);

						for (int p = 0; p < 4; p++)
							if (ch >> p & 1) {
								int w = topology_neighbor(&t, v, p);

								if (w < 0 || replication_parent(&t, root, w) != v)
									bad++;
								reached++;
							}
						if (!tree_path_is_route(&t, root, v))
							bad++;
					}
					if (reached != t.nodes)
						bad++;
				}
				check(bad == 0, "mesh %dx%d %s tree spans every node once from every root, every path "
				      "the %s route", sizes[k][0], sizes[k][1],
				      order == ORDER_ASCENDING ? "row-then-column" : "column-then-row",
				      order == ORDER_ASCENDING ? "XY" : "YX");
			}
	}
}

static void test_pbcast_exact(void)
{
	const int lens[] = { 1, 2, 17, 256 };
	const int startups[] = { 1, 10, 37 };

	for (int d = 1; d <= sweep_dim(12); d++) {
		int bad = 0, runs = 0;

		for (unsigned li = 0; li < 4; li++)
			for (unsigned si = 0; si < 3; si++) {
				int roots[3] = { 0, (1 << d) - 1, (0x5a5 & ((1 << d) - 1)) };

				for (int ri = 0; ri < 3; ri++) {
					char topo[32];
					struct sim_stats st;
					struct sends x = { .n = 1, .src = { roots[ri] } };
					struct sim *s;
					enum sim_status r;
					uint64_t want = (uint64_t)(startups[si] + d + lens[li] - 1);

					snprintf(topo, sizeof(topo), "hypercube:%d", d);
					s = make(topo, startups[si], 4, true);
					x.req[0] = (struct send_req){ .type = HDR_B, .len = lens[li], .channel = -1 };
					r = run(s, &x, &st);
					runs++;
					if (r != SIM_DONE || !st.delivered_ok ||
					    st.last_delivery - st.first_send != want ||
					    st.deliveries != (uint64_t)(1 << d) - 1 ||
					    st.link_moves != (uint64_t)((1 << d) - 1) * (uint64_t)lens[li]) {
						bad++;
						printf("  d=%d L=%d t_s=%d root=%d: status %d cycles %llu want %llu\n",
						       d, lens[li], startups[si], roots[ri], r,
						       (unsigned long long)(st.last_delivery - st.first_send),
						       (unsigned long long)want);
					}
					sim_destroy(s);
				}
			}
		check(bad == 0, "B broadcast on Q_%d takes exactly t_s + d + L - 1 cycles (%d runs: L 1,2,17,256; t_s 1,10,37; 3 roots)",
		      d, runs);
	}
}

/* Head arrival cycle per node, from HEAD_ARRIVED (-1: none yet; -2: twice). */
struct head_log {
	struct sends sends;
	long long head[4096];
};

static void head_log_event(void *ctx, struct sim *s, const struct sim_event *e)
{
	struct head_log *h = ctx;

	(void)s;
	if (e->kind == EV_HEAD_ARRIVED)
		h->head[e->node] = h->head[e->node] == -1 ? (long long)e->cycle : -2;
}

static void head_log_start(void *ctx, struct sim *s)
{
	sends_start(&((struct head_log *)ctx)->sends, s);
}

/*
 * One broadcast from root with replication cost tr: every node but the root must
 * receive the head at t_s + k + T_r f, where k is its hop count along the tree (with
 * path, along the path broadcast's Hamiltonian path) and f the routers on the way that
 * forward, its own included (docs/microarchitecture.md section 9), and the tail L - 1
 * cycles later.  Returns the number of nodes that do not.
 */
static int bcast_timing(const char *topo, int root, int ts, int L, int tr, bool flip_tree,
			bool path, uint64_t *cycles)
{
	static struct head_log h;
	struct router_opts o = { .replication_cost = tr, .flip_tree = flip_tree };
	struct sim *s = make_with(topo, ts, 2 + root % 3, true, &o);
	const struct topology *t = sim_topology(s);
	struct driver d = { .ctx = &h, .start = head_log_start, .event = head_log_event };
	struct sim_stats st;
	int bad = 0;

	memset(&h, 0, sizeof(h));
	for (int v = 0; v < t->nodes; v++)
		h.head[v] = -1;
	h.sends.n = 1;
	h.sends.src[0] = root;
	h.sends.req[0] = (struct send_req){ .type = HDR_B, .ir = path, .len = L, .channel = -1 };
	if (sim_run(s, &d) != SIM_DONE)
		bad++;
	sim_get_stats(s, &st);
	*cycles = st.last_delivery - st.first_send;
	if (!st.delivered_ok || st.deliveries != (uint64_t)t->nodes - 1)
		bad++;
	for (int v = 0; v < t->nodes; v++) {
		int k = 0, forwards = 0;

		if (v == root)
			continue;
		k = path ? path_depth(t, root, v) : topology_distance(t, root, v);
		forwards = (path ? path_children(t, root, v) : replication_children(t, root, v)) != 0;
		if (h.head[v] != (long long)(ts + k + (long long)tr * (k + forwards)))
			bad++;
	}
	sim_destroy(s);
	return bad;
}

/*
 * Jeon & Kim eq. 2 with a replication cost: T = t_s + D + L - 1 + D*T_r, every node's
 * head exactly where section 9 puts it (leaves pay nothing for themselves).
 */
static void test_replication_cost(void)
{
	const int lens[] = { 1, 2, 17 };
	const int trs[] = { 1, 2, 7 };

	for (int d = 1; d <= sweep_dim(12); d++) {
		int bad = 0, runs = 0;

		for (unsigned ti = 0; ti < 3; ti++)
			for (unsigned li = 0; li < 3; li++) {
				int roots[2] = { 0, (0x5a5 + 7 * (int)li) & ((1 << d) - 1) };

				for (int ri = 0; ri < 2; ri++) {
					char topo[32];
					uint64_t cycles;
					int ts = 1 + 4 * (int)li;
					uint64_t want = (uint64_t)(ts + d + lens[li] - 1 + d * trs[ti]);

					/* Q_11 and Q_12: one root each, to keep the suite short. */
					if (d > 10 && ri)
						continue;
					snprintf(topo, sizeof(topo), "hypercube:%d", d);
					bad += bcast_timing(topo, roots[ri], ts, lens[li], trs[ti], ri == 1,
							    false, &cycles) != 0 || cycles != want;
					runs++;
				}
			}
		check(bad == 0, "B broadcast on Q_%d with T_r in {1,2,7}, both tree orders, takes exactly "
		      "t_s + d + L - 1 + d*T_r, every head at t_s + k + T_r*(forwarding routers) (%d runs)",
		      d, runs);
	}
	{
		const char *meshes[] = { "mesh:4x4", "mesh:5x3", "mesh:1x8", "mesh:8x1", "mesh:3x7" };

		for (unsigned k = 0; k < 5; k++) {
			int bad = 0, runs = 0;
			struct sim *probe = make(meshes[k], 1, 2, true);
			const struct topology *t = sim_topology(probe);
			int nodes = t->nodes;

			for (int root = 0; root < nodes; root += 2)
				for (unsigned ti = 0; ti < 3; ti++) {
					int D = 0, L = lens[(root + ti) % 3], ts = 1 + root % 5;
					uint64_t cycles;

					for (int v = 0; v < nodes; v++) {
						int dist = topology_distance(t, root, v);

						D = dist > D ? dist : D;
					}
					bad += bcast_timing(meshes[k], root, ts, L, trs[ti], (root / 2) % 2,
							    false, &cycles) != 0 ||
					       cycles != (uint64_t)(ts + D + L - 1 + D * trs[ti]);
					runs++;
				}
			sim_destroy(probe);
			check(bad == 0, "B broadcast on %s with T_r in {1,2,7}, both tree orders: t_s + D + L - 1 + "
			      "D*T_r from every second root, every head on time (%d runs)", meshes[k], runs);
		}
	}
	{
		/* Unicasts, IR or not, do not pay T_r. */
		struct router_opts o = { .replication_cost = 9 };
		struct sim *s = make_with("hypercube:5", 3, 4, true, &o);
		struct sends x = { .n = 1, .src = { 0 } };
		struct sim_stats st;

		x.req[0] = (struct send_req){ .dest = 31, .ir = true, .len = 9, .channel = -1 };
		run(s, &x, &st);
		check(st.delivered_ok && st.last_delivery - st.first_send == 3 + 5 + 9 - 1,
		      "T_r = 9: an R+IR unicast over 5 hops still takes t_s + 5 + L - 1");
		sim_destroy(s);
	}
}

static void test_unicast_exact(void)
{
	const char *topos[] = { "hypercube:6", "mesh:5x3", "mesh:1x8", "mesh:8x8" };

	for (int flip = 0; flip < 2; flip++)
		for (unsigned k = 0; k < 4; k++) {
			int bad = 0, runs = 0;
			struct router_opts o = { .flip_route = flip };
			struct sim *probe = make_with(topos[k], 1, 2, true, &o);
			int nodes = sim_topology(probe)->nodes;
			const char *order = dim_order_name(sim_topology(probe)->route_order);

			sim_destroy(probe);
			for (int src = 0; src < nodes; src += 3)
				for (int dst = 0; dst < nodes; dst += 5) {
					struct sends x = { .n = 1, .src = { src } };
					struct sim_stats st;
					struct sim *s;
					int L = 1 + (src + dst) % 9, ts = 1 + dst % 4, hops;

					if (src == dst)
						continue;
					s = make_with(topos[k], ts, 2 + (src % 3), true, &o);
					hops = topology_distance(sim_topology(s), src, dst);
					x.req[0] = (struct send_req){ .dest = dst, .len = L, .channel = -1 };
					run(s, &x, &st);
					runs++;
					if (!st.delivered_ok || st.last_delivery - st.first_send !=
					    (uint64_t)(ts + hops + L - 1))
						bad++;
					sim_destroy(s);
				}
			check(bad == 0, "lone unicasts on %s, %s route order, take t_s + hops*h + L - 1 with h = 1 "
			      "(%d pairs, depths 2..4)", topos[k], order, runs);
		}
}

/* The nodes where an R+IR message's head arrives, in the order of arrival. */
static int ir_path(const char *topo, bool flip, int src, int dst, int *nodes, int max)
{
	static struct head_log h;
	struct router_opts o = { .flip_route = flip };
	struct sim *s = make_with(topo, 2, 4, true, &o);
	struct driver d = { .ctx = &h, .start = head_log_start, .event = head_log_event };
	int n = 0;

	memset(&h, 0, sizeof(h));
	for (int v = 0; v < sim_topology(s)->nodes; v++)
		h.head[v] = -1;
	h.sends.n = 1;
	h.sends.src[0] = src;
	h.sends.req[0] = (struct send_req){ .dest = dst, .ir = true, .len = 3, .channel = -1 };
	if (sim_run(s, &d) != SIM_DONE)
		n = -1;
	for (long long c = 0; n >= 0 && c < 200; c++)
		for (int v = 0; v < sim_topology(s)->nodes; v++)
			if (h.head[v] == c && n < max)
				nodes[n++] = v;
	sim_destroy(s);
	return n;
}

/* Which way the routes go, seen from outside: the IR deliveries along the path. */
static void test_route_orders(void)
{
	static const struct {
		const char *topo;
		bool flip;
		int src, dst, n, path[8];
	} cases[] = {
		{ "hypercube:5", false, 0, 31, 5, { 1, 3, 7, 15, 31 } },
		{ "hypercube:5", true, 0, 31, 5, { 16, 24, 28, 30, 31 } },
		{ "hypercube:4", true, 5, 10, 4, { 13, 9, 11, 10 } },
		{ "mesh:4x4", false, 0, 15, 6, { 1, 2, 3, 7, 11, 15 } },
		{ "mesh:4x4", true, 0, 15, 6, { 4, 8, 12, 13, 14, 15 } },
		{ "mesh:5x3", true, 14, 1, 5, { 11, 8, 5, 2, 1 } },
	};

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int got[16], n = ir_path(cases[k].topo, cases[k].flip, cases[k].src, cases[k].dst, got, 16);
		bool ok = n == cases[k].n;

		for (int i = 0; ok && i < n; i++)
			ok = got[i] == cases[k].path[i];
		check(ok, "R+IR %d -> %d on %s, %s route order, is delivered at %d nodes in route order",
		      cases[k].src, cases[k].dst, cases[k].topo, cases[k].flip ? "flipped" : "default",
		      cases[k].n);
	}
}

static void test_ir(void)
{
	struct sim *s = make("hypercube:5", 3, 4, true);
	struct sends x = { .n = 1, .src = { 0 } };
	struct sim_stats st;
	const struct message *m;

	x.req[0] = (struct send_req){ .dest = 31, .ir = true, .len = 9, .channel = -1 };
	run(s, &x, &st);
	m = sim_message(s, 0);
	check(st.delivered_ok && m->receivers == 5 && m->delivered == 5 && st.deliveries == 5,
	      "R+IR from 0 to 31 on Q_5 is delivered at every node of the e-cube path 1,3,7,15,31");
	check(st.last_delivery - st.first_send == 3 + 5 + 9 - 1,
	      "R+IR: the destination receives its tail at t_s + k + L - 1, IR adds no delay");
	sim_destroy(s);

	s = make("mesh:4x4", 2, 3, true);
	x.req[0] = (struct send_req){ .dest = 15, .ir = true, .len = 4, .channel = -1 };
	run(s, &x, &st);
	m = sim_message(s, 0);
	check(st.delivered_ok && m->receivers == 6 && m->delivered == 6,
	      "R+IR from 0 to 15 on a 4x4 mesh reaches the 6 nodes of its XY path");
	sim_destroy(s);
}

static void test_throughput(void)
{
	/* Depth 2 is enough for one flit per cycle (docs section 7). */
	for (int depth = 2; depth <= 3; depth++) {
		struct sim *s = make("mesh:1x8", 1, depth, true);
		struct sends x = { .n = 1, .src = { 0 } };
		struct sim_stats st;

		x.req[0] = (struct send_req){ .dest = 7, .len = 1000, .channel = -1 };
		run(s, &x, &st);
		check(st.last_delivery - st.first_send == 1 + 7 + 999,
		      "a 1000-flit message streams at one flit per cycle with buffer depth %d", depth);
		sim_destroy(s);
	}
}

static void test_one_port_serialises(void)
{
	struct sim *s = make("hypercube:3", 5, 4, false);
	struct sends x = { .n = 3, .src = { 0, 0, 0 } };
	struct sim_stats st;

	for (int k = 0; k < 3; k++)
		x.req[k] = (struct send_req){ .dest = 1 << k, .len = 6, .channel = -1 };
	run(s, &x, &st);
	/* Three sends on one channel: each t_s + L, the last tail one hop later. */
	check(st.delivered_ok && st.last_delivery - st.first_send == 3 * (5 + 6) - 2,
	      "one-port NI serialises three sends: last tail at 3(t_s + L) - 2 = %llu",
	      (unsigned long long)(st.last_delivery - st.first_send));
	sim_destroy(s);

	s = make("hypercube:3", 5, 4, true);
	run(s, &x, &st);
	check(st.delivered_ok && st.last_delivery - st.first_send == 5 + 1 + 6 - 1,
	      "all-port NI sends the same three messages in parallel: t_s + 1 + L - 1");
	sim_destroy(s);
}

static void test_back_pressure(void)
{
	struct sim_config cfg;
	char err[128];
	struct sim *s;
	struct sends x = { .n = 1, .src = { 5 } };
	struct sim_stats st;
	struct driver d = { .ctx = &x, .start = sends_start, .event = no_event };

	sim_config_defaults(&cfg);
	topology_parse("hypercube:6", &cfg.topo, err, sizeof(err));
	cfg.sink_stall = 0.7;
	cfg.seed = 42;
	s = sim_create(&cfg, err, sizeof(err));
	x.req[0] = (struct send_req){ .type = HDR_B, .len = 64, .channel = -1 };
	sim_run(s, &d);
	sim_get_stats(s, &st);
	check(st.delivered_ok && st.deliveries == 63 && st.last_delivery - st.first_send > 10 + 6 + 63,
	      "a broadcast under 70%% random sink stalls is delivered intact, later than unstalled (%llu cycles)",
	      (unsigned long long)(st.last_delivery - st.first_send));
	sim_destroy(s);
}

/*
 * Injection credits return with one cycle's latency (docs/microarchitecture.md section
 * 9): a flit that leaves the router's injection FIFO in cycle c frees an entry the NI
 * fills in cycle c + 1, and the NI never drives a flit into a full FIFO.  A unicast
 * behind a stalling sink with two-flit FIFOs backs up to its source; every cycle from
 * its head to its tail, the flit the NI drove is read from the router's injection
 * input after the step (what it holds grew by it, less the flit that left: its credit
 * register), and the NI drove one exactly when the FIFO was not full after the step
 * before.  (The C model's NI derives its credits from that FIFO: a credit seen a cycle
 * late or early fails here.)
 */
static void test_injection_credit_latency(void)
{
	for (int depth = 2; depth <= 3; depth++) {
		struct sim_config cfg;
		struct router_params rp;
		struct engine e;
		struct sim *s;
		char err[256];
		enum { LEN = 48, MAX = 2000 };
		static uint8_t held[MAX], freed[MAX];
		const struct message *m;
		const struct router *r;
		int id, in, bad = -1, full = 0, refilled = 0;
		uint64_t c = 0;

		sim_config_defaults(&cfg);
		topology_parse("hypercube:3", &cfg.topo, err, sizeof(err));
		cfg.buffer_depth = depth;
		cfg.sink_stall = 0.8;
		cfg.seed = 7;
		sim_config_router_params(&cfg, &rp);
		if (model_engine_create(&e, &rp) ||
		    !(s = sim_create_with_engine(&cfg, &e, err, sizeof(err)))) {
			check(false, "injection credits: set-up");
			return;
		}
		id = sim_send(s, 1, &(struct send_req){ .dest = 6, .len = LEN, .channel = 1 });
		r = network_router(model_engine_network(&e), 1);
		in = r->n_link + 1;
		while (c < MAX && sim_step(s, NULL) == SIM_DONE && !sim_quiescent(s)) {
			held[c] = r->in[in].count;
			freed[c] = r->credit_out_q >> in & 1;
			c++;
		}
		m = sim_message(s, id);
		check(m && m->tail_cycle > m->head_cycle && m->tail_cycle < c && c < MAX,
		      "injection credits, depth %d: the message went (cycles %llu)", depth,
		      (unsigned long long)c);
		for (uint64_t k = m ? m->head_cycle : c; k <= (m ? m->tail_cycle : 0) && k < c; k++) {
			int before = k ? held[k - 1] : 0;
			int driven = held[k] - before + freed[k];
			bool room = before < depth;

			full += !room;
			/* A cycle whose credit a late NI would not yet count. */
			refilled += room && k && before + freed[k - 1] >= depth;
			if (bad < 0 && (driven != room || held[k] > depth))
				bad = (int)k;
		}
		check(bad < 0 && full > 0 && refilled > 0,
		      "injection credits, depth %d: the NI drives a flit in each cycle its router's "
		      "injection FIFO was not full after the step before, and only then (%d cycles "
		      "full, %d refilled by the last step's credit; first wrong cycle %d)",
		      depth, full, refilled, bad);
		sim_destroy(s);
		model_engine_destroy(&e);
	}
}

/*
 * One broadcast at a time among random unicasts (a third with IR): a new broadcast
 * from a random root as soon as the last one has reached every node, the unicasts
 * never stop.  docs/microarchitecture.md section 8 argues that this cannot deadlock in
 * any combination of dimension orders; the watchdog would say otherwise.
 */
struct mixed {
	uint64_t rng;
	double rate;
	int nodes, b_outstanding, broadcasts;
	uint64_t until;
};

static uint64_t mixed_next(struct mixed *m)
{
	m->rng ^= m->rng << 13;
	m->rng ^= m->rng >> 7;
	m->rng ^= m->rng << 17;
	return m->rng;
}

static void mixed_tick(void *ctx, struct sim *s)
{
	struct mixed *m = ctx;

	if (sim_now(s) >= m->until)
		return;
	for (int v = 0; v < m->nodes; v++)
		if ((double)(mixed_next(m) % 1000000) < m->rate * 1e6) {
			int dst = (int)(mixed_next(m) % (uint64_t)(m->nodes - 1));
			struct send_req r = { .dest = dst >= v ? dst + 1 : dst,
					      .ir = mixed_next(m) % 3 == 0,
					      .len = 1 + (int)(mixed_next(m) % 16), .channel = -1 };

			sim_send(s, v, &r);
		}
	if (m->b_outstanding == 0) {	/* -1: unicasts only */
		struct send_req r = { .type = HDR_B, .len = 1 + (int)(mixed_next(m) % 16),
				      .channel = -1, .tag = 1 };

		sim_send(s, (int)(mixed_next(m) % (uint64_t)m->nodes), &r);
		m->b_outstanding = m->nodes - 1;
		m->broadcasts++;
	}
}

static void mixed_event(void *ctx, struct sim *s, const struct sim_event *e)
{
	struct mixed *m = ctx;

	(void)s;
	if (e->kind == EV_TAIL_ARRIVED && e->tag == 1)
		m->b_outstanding--;
}

/*
 * Runs of the mixed workload on topo (seeds 1 and 2 from seed_base): the runs that
 * did not end delivered and without deadlock; the broadcasts and deliveries made.
 */
static int mixed_runs(const char *topo, const struct router_opts *o, double rate,
		      uint64_t until, bool unicasts_only, uint64_t seed_base, int *broadcasts,
		      uint64_t *deliveries)
{
	int bad = 0;

	for (int seed = 1; seed <= 2; seed++) {
		struct sim *s = make_with(topo, 1, 2, true, o);
		struct mixed m = { .rng = 0x9e3779b97f4a7c15ull * (uint64_t)(seed + seed_base),
				   .rate = rate, .nodes = sim_topology(s)->nodes, .until = until,
				   .b_outstanding = unicasts_only ? -1 : 0 };
		struct driver d = { .ctx = &m, .tick = mixed_tick, .event = mixed_event };
		struct sim_stats st;

		if (sim_run(s, &d) != SIM_DONE)
			bad++;
		sim_get_stats(s, &st);
		bad += !st.delivered_ok;
		*broadcasts += m.broadcasts;
		*deliveries += st.deliveries;
		sim_destroy(s);
	}
	return bad;
}

static void test_broadcast_among_unicasts(void)
{
	const char *topos[] = { "hypercube:4", "mesh:4x4", "mesh:5x3" };
	const uint64_t until = sweep_cycles(20000);

	for (unsigned k = 0; k < 3; k++)
		for (int flip = 0; flip < 4; flip++) {
			struct router_opts o = { .flip_route = flip & 1, .flip_tree = flip & 2 };
			int broadcasts = 0, bad;
			uint64_t deliveries = 0;
			struct sim *probe = make_with(topos[k], 1, 2, true, &o);
			const char *ro = dim_order_name(sim_topology(probe)->route_order);
			const char *to = dim_order_name(sim_topology(probe)->tree_order);

			sim_destroy(probe);
			bad = mixed_runs(topos[k], &o, 0.04, until, false, (uint64_t)(8 * flip),
					 &broadcasts, &deliveries);
			check(bad == 0 && broadcasts >= (int)(until / 200),
			      "%s, routes %s, trees %s: one broadcast at a time among random unicasts (IR too), "
			      "2 x %llu cycles, depth 2: no deadlock, all delivered (%d broadcasts, at least "
			      "one per 200 cycles)", topos[k], ro, to, (unsigned long long)until, broadcasts);
		}
}

/*
 * driver.delivered against event(): the same messages, at the same cycles, in the same
 * order as the event driver's last tail of each (a broadcast, an IR unicast with
 * several receivers, plain unicasts, a one-flit message), each message once, whole,
 * with the messages released (the hook is a message's last use).
 */
struct delivery_log {
	int n, bad;
	int id[8];
	uint64_t cycle[8];
	struct sends sends;
};

static void delivery_note(struct delivery_log *l, const struct sim *s, const struct message *m)
{
	if (m->delivered != m->receivers || m->last_delivery != sim_now(s) || l->n == 8)
		l->bad++;
	else {
		l->id[l->n] = m->id;
		l->cycle[l->n++] = sim_now(s);
	}
}

static void delivery_start(void *ctx, struct sim *s)
{
	sends_start(&((struct delivery_log *)ctx)->sends, s);
}

static void delivery_hook(void *ctx, struct sim *s, const struct message *m)
{
	delivery_note(ctx, s, m);
}

static void delivery_event(void *ctx, struct sim *s, const struct sim_event *e)
{
	if (e->kind == EV_TAIL_ARRIVED && e->msg->delivered == e->msg->receivers)
		delivery_note(ctx, s, e->msg);
}

static void test_delivered_hook(void)
{
	struct delivery_log log[2];

	for (int k = 0; k < 2; k++) {
		struct sim *s = make("mesh:4x4", 3, 2, true);
		struct driver d = { .ctx = &log[k], .start = delivery_start,
				    .release_messages = true };
		struct sim_stats st;

		log[k] = (struct delivery_log){ .sends = {
			.n = 5, .src = { 0, 3, 5, 9, 15 },
			.req = { { .type = HDR_B, .len = 6, .channel = -1 },
				 { .dest = 12, .ir = true, .len = 4, .channel = -1 },
				 { .dest = 6, .len = 1, .channel = -1 },
				 { .dest = 2, .len = 9, .channel = -1 },
				 { .dest = 0, .len = 3, .channel = -1 } } } };
		if (k == 0)
			d.delivered = delivery_hook;
		else
			d.event = delivery_event;
		check(sim_run(s, &d) == SIM_DONE, "delivered hook run %d done", k);
		sim_get_stats(s, &st);
		check(st.delivered_ok && log[k].bad == 0 && log[k].n == 5,
		      "%s: each of 5 messages once, whole, at its last tail (%d seen, %d wrong)",
		      k ? "event()" : "driver.delivered", log[k].n, log[k].bad);
		sim_destroy(s);
	}
	check(memcmp(log[0].id, log[1].id, sizeof(log[0].id)) == 0 &&
	      memcmp(log[0].cycle, log[1].cycle, sizeof(log[0].cycle)) == 0,
	      "driver.delivered reports the messages of event()'s last tails, same cycles, same order");
}

/*
 * Sends made after the first cycles (a credit-less ni_credits_in() before them): their
 * tails, in one cycle, are told in the order of the sends, and debug builds check the
 * NI's ready list is in a strict order (equal listing numbers once stopped such a run).
 */
struct late_sends {
	struct sends sends;
	uint64_t at;		/* the cycle of the sends */
	int done[8], n_done;
	uint64_t done_cycle[8];
};

static void late_tick(void *ctx, struct sim *s)
{
	struct late_sends *x = ctx;

	if (sim_now(s) == x->at)
		sends_start(&x->sends, s);
}

/* (Not before the sends: a simulation with nothing in flight is otherwise finished.) */
static bool late_finished(void *ctx, const struct sim *s)
{
	return sim_now(s) > ((const struct late_sends *)ctx)->at;
}

static void late_event(void *ctx, struct sim *s, const struct sim_event *e)
{
	struct late_sends *x = ctx;

	(void)s;
	if (e->kind == EV_SEND_DONE && x->n_done < 8) {
		x->done_cycle[x->n_done] = e->cycle;
		x->done[x->n_done++] = e->msg->id;
	}
}

static void test_late_sends(void)
{
	struct sim *s = make("mesh:4x4", 3, 2, true);
	struct late_sends x = { .sends = {
		.n = 3, .src = { 0, 5, 10 },
		.req = { { .dest = 3, .len = 4, .channel = -1 },
			 { .dest = 6, .len = 4, .channel = -1 },
			 { .dest = 14, .len = 4, .channel = -1 } } }, .at = 2 };
	struct driver d = { .ctx = &x, .tick = late_tick, .event = late_event,
			    .finished = late_finished };
	struct sim_stats st;
	enum sim_status r = sim_run(s, &d);

	sim_get_stats(s, &st);
	check(r == SIM_DONE && st.delivered_ok && st.messages == 3,
	      "sends at cycle 2: delivered (%s)", sim_error(s));
	check(x.n_done == 3 && x.done[0] == 0 && x.done[1] == 1 && x.done[2] == 2 &&
	      x.done_cycle[0] == x.done_cycle[1] && x.done_cycle[1] == x.done_cycle[2],
	      "sends at cycle 2: the three SEND_DONEs in one cycle, in the order of the sends "
	      "(%d: %d %d %d at %llu %llu %llu)", x.n_done, x.done[0], x.done[1], x.done[2],
	      (unsigned long long)x.done_cycle[0], (unsigned long long)x.done_cycle[1],
	      (unsigned long long)x.done_cycle[2]);
	sim_destroy(s);
}

/*
 * The credits on injection channels put channels back on the NI's list in the order
 * they were listed, which orders the tails they send and so the SEND_DONE events
 * (docs/microarchitecture.md section 9): a channel whose credit came in the last step
 * is listed at that credit, after the sends made before that step and before a send
 * made since to a channel that got none.  Node 0's channel 1 sends a message; in the
 * cycle its tail leaves, the driver sends on channel 2 (one flit longer), and at its
 * SEND_DONE (the tail's credit just came back) on channel 0 (idle from the start: no
 * credit) and then on channel 1.  The three tails leave in one cycle and are told
 * in the order channel 2, 1, 0.
 */
struct credit_order {
	struct network *net;
	int first, ids[3], done[3], n_done, credited;
	uint64_t done_cycle[3];
};

static void credit_order_tick(void *ctx, struct sim *s)
{
	struct credit_order *x = ctx;
	const struct message *m = sim_message(s, x->first);

	if (x->ids[2] < 0 && m->head_cycle && sim_now(s) == m->head_cycle + (uint64_t)m->len - 1)
		x->ids[2] = sim_send(s, 0, &(struct send_req){ .dest = 4, .len = 6, .channel = 2 });
}

static void credit_order_event(void *ctx, struct sim *s, const struct sim_event *e)
{
	struct credit_order *x = ctx;

	if (e->kind != EV_SEND_DONE)
		return;
	if (e->msg->id == x->first) {
		const struct router *r = network_router(x->net, 0);

		x->credited = r->credit_out_q >> (r->n_link + 1) & 1;
		x->ids[0] = sim_send(s, 0, &(struct send_req){ .dest = 1, .len = 5, .channel = 0 });
		x->ids[1] = sim_send(s, 0, &(struct send_req){ .dest = 2, .len = 5, .channel = 1 });
	} else if (x->n_done < 3) {
		x->done_cycle[x->n_done] = e->cycle;
		x->done[x->n_done++] = e->msg->id;
	}
}

static bool credit_order_finished(void *ctx, const struct sim *s)
{
	(void)s;
	return ((const struct credit_order *)ctx)->ids[0] >= 0;
}

static void test_credit_orders_tails(void)
{
	struct sim_config cfg;
	struct router_params rp;
	struct engine e;
	struct sim *s;
	char err[256];
	struct credit_order x = { .first = -1, .ids = { -1, -1, -1 } };
	struct driver d = { .ctx = &x, .tick = credit_order_tick, .event = credit_order_event,
			    .finished = credit_order_finished };

	sim_config_defaults(&cfg);
	cfg.pair_walk = false;	/* credit_order_event() reads router 0's own registers */
	topology_parse("hypercube:3", &cfg.topo, err, sizeof(err));
	sim_config_router_params(&cfg, &rp);
	if (model_engine_create(&e, &rp) ||
	    !(s = sim_create_with_engine(&cfg, &e, err, sizeof(err)))) {
		check(false, "credit order: set-up");
		return;
	}
	x.net = model_engine_network(&e);
	x.first = sim_send(s, 0, &(struct send_req){ .dest = 3, .len = 6, .channel = 1 });
	check(sim_run(s, &d) == SIM_DONE, "credit order: delivered (%s)", sim_error(s));
	check(x.credited && x.n_done == 3 && x.done_cycle[0] == x.done_cycle[2] &&
	      x.done[0] == x.ids[2] && x.done[1] == x.ids[1] && x.done[2] == x.ids[0],
	      "credit order: the channel whose credit came in the last step (%s) sends its "
	      "tail after the one sent to before that step and before the one sent to since, "
	      "in one cycle (SEND_DONE %d, %d, %d at %llu and %llu; sent %d, then %d and %d)",
	      x.credited ? "it did" : "it did not", x.done[0], x.done[1], x.done[2],
	      (unsigned long long)x.done_cycle[0], (unsigned long long)x.done_cycle[2],
	      x.ids[2], x.ids[0], x.ids[1]);
	sim_destroy(s);
	model_engine_destroy(&e);
}

static void test_deadlock_watchdog(void)
{
	/* Two concurrent broadcasts on Q_2 (roots 0 and 2) wait for each other's links. */
	struct sim *s = make("hypercube:2", 1, 2, true);
	struct sends x = { .n = 2, .src = { 0, 2 } };
	struct sim_stats st;
	enum sim_status r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	x.req[0] = (struct send_req){ .type = HDR_B, .len = 40, .channel = -1 };
	x.req[1] = x.req[0];
	r = run(s, &x, &st);
	f = open_memstream(&buf, &len);
	sim_write_report(s, f);
	fclose(f);
	check(r == SIM_DEADLOCK && !st.delivered_ok,
	      "two concurrent broadcasts on Q_2 deadlock and the watchdog stops the run");
	if (buf)
		fputs(buf, stdout);
	check(buf && strstr(buf, "blocked chain 1:\n") && strstr(buf, "message B from 0 seq 0") &&
	      strstr(buf, "message B from 2 seq 0") && strstr(buf, "waits for") &&
	      strstr(buf, "held by") && strstr(buf, "the cycle closes (4 steps, 2 messages)"),
	      "the deadlock report is the chain of the two broadcasts, each waiting for an "
	      "output the other holds, closing into a cycle");
	free(buf);
	sim_destroy(s);
}

static void test_bad_sends(void)
{
	struct sim *s = make("hypercube:3", 1, 2, true);
	struct send_req r = { .dest = 0, .len = 3, .channel = -1 };

	check(sim_send(s, 0, &r) < 0 && strstr(sim_error(s), "itself"), "a send to oneself is refused");
	r.dest = 8;
	check(sim_send(s, 0, &r) < 0 && strstr(sim_error(s), "no such node"), "a send to a missing node is refused");
	/* A B message with IR is the path broadcast (test_path_broadcast), not an error. */
	r = (struct send_req){ .type = HDR_B, .ir = true, .len = 3, .channel = -1 };
	check(sim_send(s, 0, &r) >= 0, "a B message with IR (the path broadcast) is accepted");
	sim_destroy(s);
}

/* Two sends made the same message (a second entry against sim_send()). */
static bool same_sent(const struct message *ma, const struct message *mb)
{
	return ma->source == mb->source && ma->seq == mb->seq && ma->type == mb->type &&
	       ma->ir == mb->ir && ma->stored == mb->stored && ma->address == mb->address &&
	       ma->len == mb->len && ma->channel == mb->channel && ma->key.base == mb->key.base &&
	       ma->key.step == mb->key.step && ma->head == mb->head && ma->tag == mb->tag &&
	       ma->send_cycle == mb->send_cycle;
}

/* Two finished runs the same, cycle for cycle, b's checked right. */
static bool same_stats(const struct sim *a, const struct sim *b)
{
	struct sim_stats sa, sb;

	sim_get_stats(a, &sa);
	sim_get_stats(b, &sb);
	return sa.cycles_run == sb.cycles_run && sa.deliveries == sb.deliveries &&
	       sa.flits_delivered == sb.flits_delivered && sa.link_moves == sb.link_moves &&
	       sa.last_delivery == sb.last_delivery && sb.delivered_ok;
}

/*
 * sim_send_seeded() is sim_send() of its request with the key of its seed
 * (payload_key_of(seed)): the same messages (every field the NI, the checker and a driver
 * read), which keep the seed they were made from, the same refusals and the same run.
 */
static void test_send_seeded(void)
{
	struct sim *a = make("hypercube:3", 2, 2, true), *b = make("hypercube:3", 2, 2, true);
	bool same = true;

	for (int k = 0; k < 24; k++) {
		int node = k % 8, dest = (node + 1 + k / 8) % 8;
		uint64_t seed = 0x8000000000001234ull + (uint64_t)k * 977;
		struct payload_key key = payload_key_of(seed);
		struct send_req r = { .dest = dest, .type = HDR_R, .len = 2 + k % 3, .key = &key,
				      .channel = -1, .tag = (uint64_t)k << 8 };
		int ia = sim_send(a, node, &r);
		int ib = sim_send_seeded(b, node, dest, r.len, seed, r.tag);
		const struct message *ma = sim_message(a, ia), *mb = sim_message(b, ib);

		same = same && ia == ib && ia >= 0 && same_sent(ma, mb) && !ma->seeded &&
		       mb->seeded && mb->seed == seed;
	}
	check(same, "sim_send_seeded() makes the messages sim_send() makes of its request with "
	      "its seed's key, and keeps the seed");
	check(sim_send_seeded(b, 3, 3, 3, 1, 0) < 0 && strstr(sim_error(b), "itself") &&
	      sim_send_seeded(b, 3, 8, 3, 1, 0) < 0 && strstr(sim_error(b), "no such node") &&
	      sim_send_seeded(b, 3, 2, 0, 1, 0) < 0 && strstr(sim_error(b), "length 0 < 1"),
	      "sim_send_seeded() refuses what sim_send() refuses");
	check(sim_run(a, NULL) == SIM_DONE && sim_run(b, NULL) == SIM_DONE,
	      "both runs deliver everything");
	check(same_stats(a, b), "and the same run, cycle for cycle");
	sim_destroy(a);
	sim_destroy(b);
}

/* A head within the payload width: its sequence number wrapped to seq_bits(W). */
static bool head_wrapped(const struct sim *s, const struct message *m)
{
	unsigned width = (unsigned)sim_config(s)->payload_width;
	uint64_t p = flit_payload(m->head);

	return p <= payload_mask(width) && flit_kind(m->head) == FLIT_HEAD &&
	       header_unpack(p, width).seq == (m->seq & payload_mask(seq_bits(width))) &&
	       header_unpack(p, width).source == (unsigned)m->source;
}

/*
 * Every entry of the send makes heads of the payload width, past the first wrap of a
 * source's sequence numbers (64 of them at W = 32): the flattened entries cut the head
 * by the run's mask, not the width's.
 */
static void test_head_wraps(void)
{
	struct sim *s = make("hypercube:3", 2, 2, true);
	unsigned wrap = 1u << seq_bits((unsigned)sim_config(s)->payload_width);
	bool ok = true;

	for (unsigned k = 0; k < 2 * wrap + 6; k++) {
		struct send_req r = { .dest = 1 + (int)k % 7, .type = HDR_R, .len = 3, .channel = -1 };
		int id = k % 3 == 0 ? sim_send(s, 0, &r)
			 : k % 3 == 1 ? sim_send_seeded(s, 0, r.dest, r.len, 7 + k, 0)
				      : sim_send_traffic(s, 0, r.dest, r.len, false, -1);

		ok = ok && id >= 0 && head_wrapped(s, sim_message(s, id));
	}
	check(ok, "every send's head is within the payload width, its sequence number wrapped");
	sim_destroy(s);
}

/* sim_send_traffic(): the message sim_send() makes of random traffic's request, and its run. */
static void test_send_traffic(void)
{
	struct sim *a = make("hypercube:3", 2, 2, true), *b = make("hypercube:3", 2, 2, true);
	bool same = true;

	for (int k = 0; k < 24; k++) {
		int node = k % 8, dest = (node + 1 + k / 8) % 8;
		struct send_req r = { .dest = dest, .type = HDR_R, .ir = k % 2, .len = 1 + k % 4,
				      .channel = k % 3 == 0 ? -1 : k % 3 };
		int ia = sim_send(a, node, &r);
		int ib = sim_send_traffic(b, node, dest, r.len, r.ir, r.channel);

		same = same && ia == ib && ia >= 0 &&
		       same_sent(sim_message(a, ia), sim_message(b, ib));
	}
	check(same, "sim_send_traffic() makes the messages sim_send() makes of its request");
	check(sim_send_traffic(b, 3, 3, 3, false, -1) < 0 && strstr(sim_error(b), "itself") &&
	      sim_send_traffic(b, 3, 2, 3, false, 9) < 0 && strstr(sim_error(b), "channel") &&
	      sim_send_traffic(b, 3, 2, 0, true, -1) < 0 && strstr(sim_error(b), "length 0 < 1"),
	      "sim_send_traffic() refuses what sim_send() refuses");
	check(sim_run(a, NULL) == SIM_DONE && sim_run(b, NULL) == SIM_DONE,
	      "both traffic runs deliver everything");
	check(same_stats(a, b), "and the same traffic run, cycle for cycle");
	sim_destroy(a);
	sim_destroy(b);
}

/*
 * A message of three generated words (sim_pattern_word(0, 7, i)) after its head: `right`
 * right flits, then one flit of `kind` with word `right` xor `flip` (or the head again),
 * and what the checker must say of that last one.
 */
struct generated_case {
	const char *what;
	int right;
	unsigned kind;
	uint64_t flip;
	bool head;
	enum checker_result want;
	const char *error;	/* in the checker's error */
};

static const struct generated_case generated[] = {
	{ "a wrong word is an error naming node, message and word", 1, FLIT_BODY, 4, false,
	  CHECK_ERROR, "message 0: data word 1" },
	{ "the words of a message are accepted", 2, FLIT_TAIL, 0, false, CHECK_TAIL, NULL },
	{ "a tail before the last word is an error", 0, FLIT_TAIL, 0, false, CHECK_ERROR,
	  "tail arrived early" },
	{ "the last word in a body flit is an error", 2, FLIT_BODY, 0, false, CHECK_ERROR,
	  "last data flit is not a tail" },
	{ "a head inside a message is an error", 1, FLIT_BODY, 0, true, CHECK_ERROR,
	  "head while message 0 is still arriving" },
	{ "a wrong word in the tail is an error", 2, FLIT_TAIL, 1, false, CHECK_ERROR,
	  "message 0: data word 2" },
};

/* The checker itself: feed it wrong flits directly and see that it says so. */
static void test_checker_catches(void)
{
	struct topology t;
	char err[128];
	uint64_t data[3] = { 11, 22, 33 };
	struct header h = { .type = HDR_R, .address = 5, .source = 0, .seq = 0 };
	struct message m = { .id = 0, .source = 0, .address = 5, .len = 4, .stored = true,
			     .data = data };
	struct checker *c;
	struct message *id;
	bool head_too;
	flit_t head, body, tail;

	topology_init_hypercube(&t, 3, err, sizeof(err));
	head = flit_make(FLIT_HEAD, header_pack(&h, 32), 32);
	m.head = head;
	body = flit_make(FLIT_BODY, 22, 32);	/* word 1 where word 0 is due */
	tail = flit_make(FLIT_TAIL, 33, 32);

	c = checker_create(&t, 3, 32);
	checker_expect(c, &m);
	check(checker_flit(c, 4, 0, head, 1, &id, &head_too) == CHECK_ERROR &&
	      strstr(checker_error(c), "must not receive"),
	      "checker: a head at a node that must not receive it is an error");
	checker_destroy(c);

	c = checker_create(&t, 3, 32);
	checker_expect(c, &m);
	check(checker_flit(c, 5, 0, body, 1, &id, &head_too) == CHECK_ERROR &&
	      strstr(checker_error(c), "without a head"),
	      "checker: a data flit with no head before it is an error");
	checker_destroy(c);

	c = checker_create(&t, 3, 32);
	checker_expect(c, &m);
	check(checker_flit(c, 5, 0, head, 1, &id, &head_too) == CHECK_HEAD &&
	      checker_flit(c, 5, 0, body, 2, &id, &head_too) == CHECK_ERROR &&
	      strstr(checker_error(c), "data word 0 is 0x16, sent 0xb"),
	      "checker: a wrong data word is an error naming both values: %s", checker_error(c));
	checker_destroy(c);

	c = checker_create(&t, 3, 32);
	checker_expect(c, &m);
	check(checker_flit(c, 5, 0, head, 1, &id, &head_too) == CHECK_HEAD &&
	      checker_flit(c, 5, 0, tail, 2, &id, &head_too) == CHECK_ERROR &&
	      strstr(checker_error(c), "tail arrived early"),
	      "checker: a tail before the last data word is an error");
	checker_destroy(c);

	c = checker_create(&t, 3, 32);
	checker_expect(c, &m);
	checker_flit(c, 5, 0, head, 1, &id, &head_too);
	checker_flit(c, 5, 0, flit_make(FLIT_BODY, 11, 32), 2, &id, &head_too);
	checker_flit(c, 5, 0, body, 3, &id, &head_too);
	check(checker_flit(c, 5, 0, tail, 4, &id, &head_too) == CHECK_TAIL &&
	      checker_outstanding(c) == 0 &&
	      checker_flit(c, 5, 0, head, 5, &id, &head_too) == CHECK_ERROR,
	      "checker: the right message is accepted once; the same message again is an error");
	checker_destroy(c);

	/* A generated payload (data NULL) is checked word by word all the same. */
	m.stored = false;
	m.seq = 7;
	m.key = sim_pattern_key(0, 7);
	for (size_t k = 0; k < sizeof(generated) / sizeof(generated[0]); k++) {
		const struct generated_case *g = &generated[k];
		enum checker_result r;

		c = checker_create(&t, 3, 32);
		checker_expect(c, &m);
		checker_flit(c, 5, 0, head, 1, &id, &head_too);
		for (int i = 0; i < g->right; i++)
			checker_flit(c, 5, 0, flit_make(i == 2 ? FLIT_TAIL : FLIT_BODY,
							sim_pattern_word(0, 7, i, 32), 32),
				     2 + (uint64_t)i, &id, &head_too);
		r = checker_flit(c, 5, 0, g->head ? head : flit_make(g->kind,
				 sim_pattern_word(0, 7, g->right, 32) ^ g->flip, 32),
				 2 + (uint64_t)g->right, &id, &head_too);
		check(r == g->want && (g->want != CHECK_ERROR || (strstr(checker_error(c), "node 5") &&
							       strstr(checker_error(c), g->error))) &&
		      (g->want != CHECK_TAIL || checker_outstanding(c) == 0),
		      "checker: generated words: %s: %s", g->what, checker_error(c));
		checker_destroy(c);
	}
}

/* A one-flit R message from source to dest with sequence number seq (W = 32). */
static struct message single(int id, int source, int dest, unsigned seq)
{
	struct header h = { .type = HDR_R, .address = (unsigned)dest, .source = (unsigned)source,
			    .seq = seq & (unsigned)payload_mask(seq_bits(32)) };

	return (struct message){ .id = id, .source = source, .seq = seq, .address = dest,
				 .len = 1, .head = flit_make(FLIT_SINGLE, header_pack(&h, 32), 32) };
}

/*
 * The checker matches a head with the oldest outstanding message whose head flit is
 * identical.  With W = 32 the sequence number wraps every 64 messages, so heads
 * repeat: random deliveries on Q_4 (up to thousands outstanding, the table growing
 * and shrinking) against a plain search for the oldest identical head.
 */
static void test_checker_oldest_identical_head(void)
{
	enum { N = 8000 };
	struct topology t;
	char err[128];
	struct message *m = malloc(sizeof(*m) * N);
	bool *done = calloc(N, sizeof(bool));
	unsigned seq[16] = { 0 };
	struct checker *c;
	uint64_t rng = 12345;
	int sent = 0, delivered = 0, wrong = 0, repeats = 0;

	topology_init_hypercube(&t, 4, err, sizeof(err));
	c = checker_create(&t, 4, 32);
	while (delivered < N) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		/* Send while fewer than 1,500 are outstanding (or at random), else deliver. */
		if (sent < N && (sent - delivered < 1500 || (rng >> 40) % 3 == 0)) {
			int s = (int)((rng >> 33) % 16), d = (int)((rng >> 20) % 15);

			d += d >= s;
			m[sent] = single(sent, s, d, seq[s]++);
			checker_expect(c, &m[sent]);
			sent++;
			continue;
		}
		/* Deliver the oldest undelivered message of a random key. */
		int pick = (int)((rng >> 24) % (uint64_t)sent), oldest = -1;
		struct message *id = NULL;
		bool head_too;

		while (done[pick])
			pick = (pick + 1) % sent;
		for (int k = 0; k < sent; k++)
			if (!done[k] && m[k].head == m[pick].head) {
				if (oldest < 0)
					oldest = k;
				else
					repeats++;
			}
		if (checker_flit(c, m[oldest].address, 0, m[oldest].head, 1, &id,
				 &head_too) != CHECK_TAIL || id != &m[oldest])
			wrong++;
		done[oldest] = true;
		delivered++;
	}
	check(wrong == 0 && repeats > 0 && checker_outstanding(c) == 0,
	      "checker: %d deliveries with repeating heads (%d repeats seen) each match the oldest "
	      "identical head (%d wrong)", N, repeats, wrong);
	checker_destroy(c);

	/* Two identical heads: the older message's data is expected, not the younger's. */
	{
		uint64_t d0[1] = { 7 }, d1[1] = { 8 };
		struct message a = single(0, 1, 2, 0), b = single(1, 1, 2, 64);
		struct message *id = NULL;
		bool head_too;

		a.len = b.len = 2;
		a.data = d0;
		b.data = d1;
		a.stored = b.stored = true;
		a.head = b.head = flit_make(FLIT_HEAD, flit_payload(a.head), 32);
		c = checker_create(&t, 4, 32);
		checker_expect(c, &a);
		checker_expect(c, &b);
		check(checker_flit(c, 2, 0, a.head, 1, &id, &head_too) == CHECK_HEAD && id == &a &&
		      checker_flit(c, 2, 0, flit_make(FLIT_TAIL, 8, 32), 2, &id, &head_too) ==
		      CHECK_ERROR && strstr(checker_error(c), "message 0: data word 0 is 0x8, sent 0x7"),
		      "checker: seq 64 wraps to seq 0's head; the younger message's data is an error: %s",
		      checker_error(c));
		checker_destroy(c);
	}

	/* What is missing is listed node by node, each node's in send order. */
	{
		struct message x[4] = { single(0, 0, 9, 0), single(1, 3, 2, 0), single(2, 1, 9, 0),
					single(3, 5, 2, 0) };
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		bool ok;

		c = checker_create(&t, 4, 32);
		for (int k = 0; k < 4; k++)
			checker_expect(c, &x[k]);
		checker_report_missing(c, f, 3);
		fclose(f);
		ok = text && !strcmp(text,
			"  missing: message 1 (R from 3, to 2, seq 0, 1 flits) at node 2\n"
			"  missing: message 3 (R from 5, to 2, seq 0, 1 flits) at node 2\n"
			"  missing: message 0 (R from 0, to 9, seq 0, 1 flits) at node 9\n"
			"  ... 4 deliveries missing in all\n");
		check(ok, "checker: missing deliveries listed by node, then send order%s%s",
		      ok ? "" : ", not:\n", ok || !text ? "" : text);
		free(text);
		checker_destroy(c);
	}
	free(m);
	free(done);
}

/*
 * Coverage reachability on a hypercube walks the routes of one source only (they
 * depend on address xor node): the same bins as walking every source and root.
 * And the flat register vector: router_state_equal() agrees with the packed vectors.
 */
static void test_coverage_reachability(void)
{
	for (int d = 1; d <= 5; d++)
		for (int ap = 0; ap <= 1; ap++) {
			struct topology t;
			struct router_params p = { .topo = &t, .all_port = ap, .buffer_depth = 4,
						   .payload_width = 32, .replication_cost = 2 };
			struct cov_space sp;
			char err[128];
			bool *a, *b;
			const char **wa, **wb;
			int n, same = 1, reachable = 0;

			topology_init_hypercube(&t, d, err, sizeof(err));
			cov_space_init(&sp, &t);
			n = cov_bins(&sp);
			a = calloc((size_t)n, sizeof(bool));
			b = calloc((size_t)n, sizeof(bool));
			wa = calloc((size_t)n, sizeof(*wa));
			wb = calloc((size_t)n, sizeof(*wb));
			if (!a || !b || !wa || !wb || cov_reachable(&sp, &p, a, wa) ||
			    cov_reachable_ex(&sp, &p, b, wb, true))
				same = 0;
			for (int k = 0; same && k < n; k++) {
				same = a[k] == b[k];
				reachable += a[k];
			}
			check(same && reachable > 0, "coverage: Q_%d %s, the bins reachable from one "
			      "source are those of every source (%d of %d)", d,
			      ap ? "all-port" : "one-port", reachable, n);
			free(a);
			free(b);
			free(wa);
			free(wb);
		}
}

static void test_register_vector(void)
{
	struct router_regs_layout l;
	struct router_state *x = calloc(2, sizeof(*x));
	uint64_t va[200], vb[200];
	unsigned seed = 7;
	int agree = 1, differ = 0;
	bool sw_same;

	if (!x)
		return;
	/* Two links with two virtual channels: out_vc_q and sw_rr_q in the vector too. */
	router_regs_layout(&l, 6, 6, 4, 2, 2);
	for (int trial = 0; trial < 2000; trial++) {
		struct router_state *a = &x[0], *b = &x[1];
		bool eq, packed_eq;

		memset(a, 0, sizeof(*a));
		a->n_in = a->n_out = 6;
		a->depth = 4;
		for (int i = 0; i < 6; i++) {
			a->in[i].count = (uint8_t)(rand_r(&seed) % 5);
			a->in[i].rd_ptr = (uint8_t)(rand_r(&seed) % 4);
			a->in[i].wr_ptr = (uint8_t)((a->in[i].rd_ptr + a->in[i].count) % 4);
			for (int k = 0; k < 4; k++)
				a->in[i].fifo[k] = (flit_t)(rand_r(&seed) % 3);
			a->in[i].route_q = (uint32_t)(rand_r(&seed) % 3);
		}
		*b = *a;
		/* One change, which may or may not be architectural (a stale FIFO slot). */
		switch (rand_r(&seed) % 6) {
		case 0:
			b->in[trial % 6].fifo[rand_r(&seed) % 4] ^= 1;
			break;
		case 1:
			b->in[trial % 6].count = (uint8_t)(rand_r(&seed) % 5);
			break;
		case 2:
			b->out[trial % 6].credits_q ^= 1;
			break;
		case 3:
			b->out_vc_q[trial % 2] ^= (uint8_t)(rand_r(&seed) % 2);
			break;
		case 4:
			b->sw_rr_q = (unsigned)(rand_r(&seed) % 6);
			break;
		default:
			b->rr_q = (unsigned)(rand_r(&seed) % 6);
			break;
		}
		eq = router_state_equal(&l, a, b);
		router_state_pack(&l, a, va);
		router_state_pack(&l, b, vb);
		packed_eq = memcmp(va, vb, sizeof(uint64_t) * (size_t)l.words) == 0;
		agree &= eq == packed_eq;
		differ += !eq;
	}
	check(agree && differ > 500 && differ < 2000, "router_state_equal() agrees with the packed "
	      "register vectors on 2000 random states (%d differ)", differ);
	/*
	 * One virtual channel: out_vc_q (the constant 0 on link_vc_o) is still compared,
	 * sw_rr_q is no register.
	 */
	router_regs_layout(&l, 6, 6, 4, 2, 1);
	x[1] = x[0];
	x[1].sw_rr_q = x[0].sw_rr_q + 1;
	sw_same = router_state_equal(&l, &x[0], &x[1]);
	x[1] = x[0];
	x[1].out_vc_q[1] ^= 1;
	router_state_pack(&l, &x[0], va);
	router_state_pack(&l, &x[1], vb);
	check(sw_same && !router_state_equal(&l, &x[0], &x[1]) &&
	      l.words == 6 * 10 + 3 * 6 + 1 + 2 && va[l.words - 1] != vb[l.words - 1],
	      "V = 1: a different sw_rr_q is the same state, a different out_vc_q is not "
	      "(the last of %d values)", l.words);
	free(x);
}

/*
 * The path broadcast (a B header with ir, docs/microarchitecture.md section 8): from
 * every root its links form a Hamiltonian path (Q_d: one, from the root; mesh: the
 * boustrophedon both ways from the root), parents and depths agree with the links,
 * and path_length is the largest depth.  Then the timing, exactly: every head at
 * t_s + k + T_r f, the whole broadcast t_s + D + L - 1 + D T_r, in either tree and
 * route order (neither changes the path).
 */
static int path_spans(const struct topology *t, int root)
{
	static int seen[4096], stack[4096];
	int bad = 0, n = 1, sp = 0, maxd = 0;

	memset(seen, 0, sizeof(seen));
	seen[root] = 1;
	stack[sp++] = root;
	while (sp) {
		int v = stack[--sp], k = path_depth(t, root, v);
		uint32_t m = path_children(t, root, v);

		maxd = k > maxd ? k : maxd;
		bad += __builtin_popcount(m) > (v == root && t->kind == TOPO_MESH ? 2 : 1);
		for (; m; m &= m - 1) {
			int u = topology_neighbor(t, v, __builtin_ctz(m));

			if (u < 0 || seen[u]) {
				bad++;
				continue;
			}
			bad += path_parent(t, root, u) != v || path_depth(t, root, u) != k + 1;
			seen[u] = 1;
			n++;
			stack[sp++] = u;
		}
	}
	return bad + (n != t->nodes) + (maxd != path_length(t, root)) +
	       (path_parent(t, root, root) != -1);
}

static void test_path_broadcast(void)
{
	const char *meshes[] = { "mesh:4x4", "mesh:5x3", "mesh:1x8", "mesh:8x1", "mesh:3x7",
				 "mesh:2x2", "mesh:8x8" };
	char err[128];

	for (int d = 1; d <= 10; d++) {
		struct topology t;
		int bad = 0;

		topology_init_hypercube(&t, d, err, sizeof(err));
		for (int root = 0; root < t.nodes; root++)
			bad += path_spans(&t, root) != 0 || path_length(&t, root) != t.nodes - 1;
		check(bad == 0, "the path broadcast's links on Q_%d form a Gray-code Hamiltonian path "
		      "from each of the %d roots", d, t.nodes);
	}
	for (unsigned k = 0; k < sizeof(meshes) / sizeof(meshes[0]); k++) {
		struct topology t;
		int bad = 0;

		topology_parse(meshes[k], &t, err, sizeof(err));
		for (int root = 0; root < t.nodes; root++)
			bad += path_spans(&t, root) != 0;
		check(bad == 0, "the path broadcast's links on %s form the boustrophedon, both ways from "
		      "each of the %d roots", meshes[k], t.nodes);
	}
	for (int d = 1; d <= 8; d++) {
		static const int trs[] = { 0, 1, 3 }, lens[] = { 1, 9, 17 };
		int bad = 0, runs = 0, n = 1 << d;
		char topo[32];

		snprintf(topo, sizeof(topo), "hypercube:%d", d);
		for (int ti = 0; ti < 3; ti++)
			for (int root = 0; root < n; root += 1 + n / 5) {
				int ts = 1 + 9 * (ti == 1), L = lens[(root + ti) % 3];
				uint64_t cycles;

				bad += bcast_timing(topo, root, ts, L, trs[ti], root % 2, true, &cycles) != 0 ||
				       cycles != (uint64_t)(ts + (n - 1) + L - 1 + (n - 1) * trs[ti]);
				runs++;
			}
		check(bad == 0, "path broadcast on Q_%d: every head at t_s + k + T_r*(forwarding routers), "
		      "exactly t_s + (p-1) + L - 1 + (p-1)*T_r, T_r in {0,1,3} (%d runs)", d, runs);
	}
	for (unsigned k = 0; k < sizeof(meshes) / sizeof(meshes[0]) - 1; k++) {
		struct topology t;
		int bad = 0, runs = 0;

		topology_parse(meshes[k], &t, err, sizeof(err));
		for (int root = 0; root < t.nodes; root++) {
			int tr = root % 3, L = 1 + 8 * (root % 2), ts = 1 + root % 4;
			int D = path_length(&t, root);
			uint64_t cycles;

			bad += bcast_timing(meshes[k], root, ts, L, tr, root % 2, true, &cycles) != 0 ||
			       cycles != (uint64_t)(ts + D + L - 1 + D * tr);
			runs++;
		}
		check(bad == 0, "path broadcast on %s from every root: every head on time, exactly "
		      "t_s + D + L - 1 + D*T_r (%d runs)", meshes[k], runs);
	}
	{
		/* Jeon & Kim's example size: Q_6, L = 9, t_s = 10. */
		uint64_t cycles;
		int bad = bcast_timing("hypercube:6", 0, 10, 9, 0, false, true, &cycles);

		check(bad == 0 && cycles == 81, "path broadcast on Q_6, L = 9, t_s = 10: %llu cycles "
		      "(10 + 63 + 8 = 81)", (unsigned long long)cycles);
	}
}

/* ---- rings and tori (docs/microarchitecture.md section 12) ---- */

static void test_ring_torus_parse(void)
{
	static const struct {
		const char *text;
		bool ok;
		int nodes, ports, vcs;
	} cases[] = {
		{ "ring:2", true, 2, 2, 2 },	     { "ring:4096", true, 4096, 2, 2 },
		{ "ring:1", false, 0, 0, 0 },	     { "ring:4097", false, 0, 0, 0 },
		{ "torus:2x2", true, 4, 4, 2 },	     { "torus:64x64", true, 4096, 4, 2 },
		{ "torus:1x8", false, 0, 0, 0 },     { "torus:8x65", false, 0, 0, 0 },
		{ "torus:8", false, 0, 0, 0 },	     { "ring:8x8", false, 0, 0, 0 },
		{ "mesh:8x8", true, 64, 4, 1 },	     { "hypercube:3", true, 8, 3, 1 },
	};
	char err[256], name[64];

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct topology t;
		int rc = topology_parse(cases[k].text, &t, err, sizeof(err));

		check(cases[k].ok ? rc == 0 && t.nodes == cases[k].nodes && t.ports == cases[k].ports &&
				    t.vcs == cases[k].vcs &&
				    !strcmp(topology_name(&t, name, sizeof(name)), cases[k].text)
				  : rc != 0 && strchr(err, '\n') == NULL && err[0],
		      "topology '%s' %s", cases[k].text,
		      cases[k].ok ? "parses, its name round-trips, V is the default" : "is refused in one line");
	}
	{
		struct topology t;

		topology_parse("torus:4x4", &t, err, sizeof(err));
		check(topology_set_vcs(&t, 1, err, sizeof(err)) && topology_set_vcs(&t, 4, err, sizeof(err)) &&
		      !topology_set_vcs(&t, 3, err, sizeof(err)) && t.vcs == 3,
		      "a torus takes V = 2 or 3, not 1 (no dateline) nor 4");
		topology_parse("mesh:4x4", &t, err, sizeof(err));
		check(topology_set_vcs(&t, 2, err, sizeof(err)) != 0, "a mesh takes V = 1 only");
	}
	check(strstr(TOPOLOGY_FORMS, "ring:N (N = 2..4096)") && strstr(TOPOLOGY_FORMS, "torus:RxC") &&
	      !strncmp(TOPOLOGY_FORMS, "hypercube:D", 11),
	      "the accepted forms are derived from the table: %s", TOPOLOGY_FORMS);
}

/* Every root, both tree orders: spans once, depth = distance, paths are routes. */
static void test_ring_torus_trees(void)
{
	static const char *topos[] = { "ring:2", "ring:3", "ring:8", "ring:9", "torus:2x2",
				       "torus:2x5", "torus:4x4", "torus:5x6", "torus:7x3" };
	char err[128];

	for (unsigned k = 0; k < sizeof(topos) / sizeof(topos[0]); k++)
		for (int order = 0; order < 2; order++) {
			struct topology t;
			int bad = 0, want_depth;

			topology_parse(topos[k], &t, err, sizeof(err));
			t.tree_order = (enum dim_order)order;
			want_depth = t.rows / 2 + t.cols / 2;
			for (int root = 0; root < t.nodes; root++) {
				int reached = 1, depth = 0;

				for (int v = 0; v < t.nodes; v++) {
					uint32_t ch = replication_children(&t, root, v);

					for (int p = 0; p < t.ports; p++)
						if (ch >> p & 1) {
							int w = topology_neighbor(&t, v, p);

							if (w < 0 || w == root ||
							    replication_parent(&t, root, w) != v)
								bad++;
							reached++;
						}
					if (!tree_path_is_route(&t, root, v))
						bad++;
					if (topology_distance(&t, root, v) > depth)
						depth = topology_distance(&t, root, v);
				}
				if (reached != t.nodes || depth != want_depth)
					bad++;
			}
			check(bad == 0, "%s %s tree spans every node once from every root, every path the "
			      "minimal route of that order, depth floor(r/2) + floor(c/2) = %d",
			      topos[k], dim_order_name(t.tree_order), want_depth);
		}
}

/*
 * Section 12's deadlock argument for unicasts: along every route the rank of the
 * VCs strictly increases (dimension, direction, then class * n + u).  Also: a route
 * changes class exactly once per dimension it wraps in, on the dateline link.
 */
static void test_dateline_ranks(void)
{
	static const char *topos[] = { "ring:2", "ring:7", "ring:8", "torus:4x4", "torus:5x6",
				       "torus:2x3" };
	char err[128];

	for (unsigned k = 0; k < sizeof(topos) / sizeof(topos[0]); k++)
		for (int order = 0; order < 2; order++) {
			struct topology t;
			int bad = 0;

			topology_parse(topos[k], &t, err, sizeof(err));
			t.route_order = (enum dim_order)order;
			for (int src = 0; src < t.nodes; src++)
				for (int dst = 0; dst < t.nodes; dst++) {
					long long last = -1;
					int hops = 0;
					bool crossed[2] = { false, false };	/* per dimension */

					for (int v = src; v != dst; hops++) {
						int p = unicast_next_port(&t, v, dst), w = topology_neighbor(&t, v, p);
						bool y = p == PORT_N || p == PORT_S, pos = p == PORT_E || p == PORT_S;
						int n = y ? t.rows : t.cols, u = y ? w / t.cols : w % t.cols;
						int c = topology_hop_class(&t, false, src, v, p);
						int rank_dim = y == (t.route_order == ORDER_ASCENDING);
						long long rank = (long long)rank_dim * 4 * n + c * n +
								 (pos ? u : n - 1 - u);
						int at = y ? v / t.cols : v % t.cols;
						bool dateline = pos ? at == n - 1 : at == 0;

						/* Class 1 from the dateline link on, within the dimension. */
						crossed[y] |= dateline;
						if (c != crossed[y])
							bad++;
						if (rank <= last)
							bad++;
						last = rank;
						v = w;
					}
					if (hops != topology_distance(&t, src, dst))
						bad++;
				}
			check(bad == 0, "%s, %s routes: every route is minimal, its VC ranks strictly increase, "
			      "class 1 from the dateline on", topos[k], dim_order_name(t.route_order));
		}
}

/* Lone unicasts (IR too) and broadcasts from every root take exactly the formulas. */
static void test_ring_torus_exact(void)
{
	static const char *topos[] = { "ring:2", "ring:7", "ring:8", "torus:4x4", "torus:3x5",
				       "torus:2x2" };

	for (unsigned k = 0; k < sizeof(topos) / sizeof(topos[0]); k++) {
		int bad = 0, runs = 0, ir_bad = 0, nodes;
		struct sim *probe = make(topos[k], 1, 2, true);

		nodes = sim_topology(probe)->nodes;
		sim_destroy(probe);
		for (int src = 0; src < nodes; src++)
			for (int dst = 0; dst < nodes; dst++) {
				struct sends x = { .n = 1, .src = { src } };
				struct sim_stats st;
				struct sim *s;
				int L = 1 + (src + dst) % 9, ts = 1 + dst % 4, hops;
				const struct message *m;

				if (src == dst)
					continue;
				s = make(topos[k], ts, 2 + (src % 3), true);
				hops = topology_distance(sim_topology(s), src, dst);
				x.req[0] = (struct send_req){ .dest = dst, .ir = (src + dst) % 2, .len = L,
							      .channel = -1 };
				run(s, &x, &st);
				m = sim_message(s, 0);
				runs++;
				if (!st.delivered_ok || st.last_delivery - st.first_send !=
				    (uint64_t)(ts + hops + L - 1))
					bad++;
				if (m->delivered != (x.req[0].ir ? hops : 1))
					ir_bad++;
				sim_destroy(s);
			}
		check(bad == 0 && ir_bad == 0, "lone unicasts on %s (every pair, IR on half) take "
		      "t_s + hops + L - 1 over the minimal route; IR delivers at every hop (%d runs)",
		      topos[k], runs);
	}
	for (unsigned k = 0; k < sizeof(topos) / sizeof(topos[0]); k++)
		for (int flip = 0; flip < 2; flip++) {
			int bad = 0, nodes = 0, D = 0;
			uint64_t cycles;
			const int trs[] = { 0, 2 }, lens[] = { 1, 17 };

			for (int root = 0; root < 64; root++) {
				struct sim *probe = make(topos[k], 1, 2, true);
				const struct topology *t = sim_topology(probe);

				nodes = t->nodes;
				D = t->rows / 2 + t->cols / 2;
				sim_destroy(probe);
				if (root >= nodes)
					break;
				for (int a = 0; a < 2; a++)
					for (int b = 0; b < 2; b++) {
						bad += bcast_timing(topos[k], root, 3, lens[b], trs[a], flip, false, &cycles);
						if (cycles != (uint64_t)(3 + D + lens[b] - 1 + D * trs[a]))
							bad++;
					}
			}
			check(bad == 0, "B broadcast on %s (%s tree, every root, L 1 and 17, T_r 0 and 2): "
			      "every head at t_s + k + T_r f, the whole in t_s + D + L - 1 + D T_r, D = %d",
			      topos[k], flip ? "flipped" : "default", D);
		}
}

/* One flit per link per cycle: two messages on the two VCs of one link share it. */
static void test_vcs_share_a_link(void)
{
	/* ring:8: 6 -> 1 crosses the dateline (class 1 on 7->0 and 0->1); 0 -> 2 is class 0. */
	struct sim *s = make("ring:8", 1, 4, true);
	struct sends x = { .n = 2, .src = { 6, 0 } };
	struct sim_stats st;
	const struct message *a, *b;
	int L = 200;

	x.req[0] = (struct send_req){ .dest = 1, .len = L, .channel = -1 };
	x.req[1] = (struct send_req){ .dest = 2, .len = L, .channel = -1 };
	run(s, &x, &st);
	a = sim_message(s, 0);
	b = sim_message(s, 1);
	check(st.delivered_ok && topology_hop_class(sim_topology(s), false, 6, 0, PORT_E) == 1 &&
	      topology_hop_class(sim_topology(s), false, 0, 0, PORT_E) == 0,
	      "ring:8: 6 -> 1 and 0 -> 2 both use link 0 -> 1, in classes 1 and 0; both delivered");
	check(a->last_delivery >= (uint64_t)(2 * L - 10) && b->last_delivery >= (uint64_t)(2 * L - 10) &&
	      st.last_delivery <= (uint64_t)(2 * L + 10),
	      "they share the link fairly, one flit per cycle: each ends near 2L (%llu and %llu, L = %d)",
	      (unsigned long long)a->last_delivery, (unsigned long long)b->last_delivery, L);
	sim_destroy(s);
}

/* Random unicasts (IR too) well beyond saturation, buffers of 2: nothing deadlocks. */
static void test_ring_torus_unicast_load(void)
{
	static const char *topos[] = { "ring:8", "ring:9", "torus:4x4", "torus:3x5" };
	const uint64_t until = sweep_cycles(5000);

	for (unsigned k = 0; k < sizeof(topos) / sizeof(topos[0]); k++) {
		int broadcasts = 0;
		uint64_t delivered = 0;
		int bad = mixed_runs(topos[k], NULL, 0.3, until, true, 100, &broadcasts, &delivered);

		check(bad == 0 && delivered > 1000, "%s, V = 2: random unicasts (IR on a third) at 0.3 "
		      "messages per node per cycle, depth 2, 2 x %llu cycles: no deadlock, all %llu "
		      "deliveries right", topos[k], (unsigned long long)until,
		      (unsigned long long)delivered);
	}
}

/* One broadcast at a time among random unicasts: a ring with V = 2, tori with V = 3. */
static void test_ring_torus_broadcast_among_unicasts(void)
{
	static const struct {
		const char *topo;
		int vcs;
	} cases[] = { { "ring:8", 2 }, { "ring:7", 2 }, { "torus:4x4", 3 }, { "torus:5x3", 3 } };
	const uint64_t until = sweep_cycles(20000);

	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		for (int flip = 0; flip < 2; flip++) {
			struct router_opts o = { .flip_route = flip, .flip_tree = flip, .vcs = cases[k].vcs };
			int broadcasts = 0;
			uint64_t deliveries = 0;
			int bad = mixed_runs(cases[k].topo, &o, 0.04, until, false, (uint64_t)(8 * flip),
					     &broadcasts, &deliveries);

			check(bad == 0 && broadcasts >= (int)(until / 200),
			      "%s, V = %d, route and tree order %s: one broadcast at a time among random "
			      "unicasts, 2 x %llu cycles, depth 2: no deadlock (%d broadcasts, at least one "
			      "per 200 cycles)", cases[k].topo, cases[k].vcs, flip ? "descending" : "ascending",
			      (unsigned long long)until, broadcasts);
		}
}

/*
 * Section 12's example: on an 8 x 8 torus with V = 2, a broadcast from (0,0) and a
 * unicast from (0,1) to (1,5) deadlock (the unicast comes round the row to where the
 * broadcast's other branch holds the column); with V = 3 the broadcast has its own
 * class and both arrive.
 */
static void test_torus_broadcast_class(void)
{
	for (int vcs = 2; vcs <= 3; vcs++) {
		struct router_opts o = { .vcs = vcs };
		struct sim *s = make_with("torus:8x8", 10, 4, true, &o);
		struct sends x = { .n = 2, .src = { 0, 1 } };
		struct sim_stats st;
		enum sim_status r;
		char *buf = NULL;
		size_t len = 0;
		FILE *f;

		x.req[0] = (struct send_req){ .type = HDR_B, .len = 64, .channel = -1 };
		x.req[1] = (struct send_req){ .dest = 13, .len = 64, .channel = -1 };
		r = run(s, &x, &st);
		f = open_memstream(&buf, &len);
		sim_write_report(s, f);
		fclose(f);
		if (vcs == 2) {
			check(r == SIM_DEADLOCK && buf && strstr(buf, "message B from 0 seq 0") &&
			      strstr(buf, "message R from 1 to 13 seq 0") && strstr(buf, "VC 0") &&
			      strstr(buf, "the cycle closes"),
			      "torus:8x8, V = 2: B from 0 and R 1 -> 13 deadlock as section 12 says; the "
			      "watchdog names both, and the VCs");
			if (r == SIM_DEADLOCK && buf)
				fputs(buf, stdout);
		} else {
			check(r == SIM_DONE && st.delivered_ok,
			      "torus:8x8, V = 3: the same two messages are delivered (B in its own class)");
		}
		free(buf);
		sim_destroy(s);
	}
}

int main(void)
{
	sweep_note("test_model");
	test_coverage_reachability();
	test_register_vector();
	test_checker_catches();
	test_replication_tree();
	test_pbcast_exact();
	test_replication_cost();
	test_unicast_exact();
	test_route_orders();
	test_ir();
	test_throughput();
	test_one_port_serialises();
	test_back_pressure();
	test_injection_credit_latency();
	test_broadcast_among_unicasts();
	test_delivered_hook();
	test_late_sends();
	test_credit_orders_tails();
	test_deadlock_watchdog();
	test_bad_sends();
	test_send_seeded();
	test_head_wraps();
	test_send_traffic();
	test_path_broadcast();
	test_checker_oldest_identical_head();
	test_ring_torus_parse();
	test_ring_torus_trees();
	test_dateline_ranks();
	test_ring_torus_exact();
	test_vcs_share_a_link();
	test_ring_torus_unicast_load();
	test_ring_torus_broadcast_among_unicasts();
	test_torus_broadcast_class();
	return check_finish();
}
