/* SPDX-License-Identifier: MIT */
/*
 * bounds.c - the latency, cut and throughput bounds of bounds.h, by enumeration over
 * the graph: every pair of nodes, every straight cut, every node.
 */
#include "bounds.h"

#include <stdio.h>
#include <string.h>

static long long ceil_div(long long a, long long b)
{
	return (a + b - 1) / b;
}

static int degree(const struct topology *t, int v)
{
	int d = 0;

	for (int q = 0; q < t->ports; q++)
		d += topology_neighbor(t, v, q) >= 0;
	return d;
}

/* Payload flits per cycle a node can send or receive. */
static int cap(const struct sim_config *cfg, int v)
{
	return cfg->all_port ? degree(&cfg->topo, v) : 1;
}

/*
 * The traffic that must cross from a set of `inside` nodes to the other `outside`
 * ones, in payload flits: AAS every pair, AAB every block of the inside once.
 */
static long long crossing(bool aas, long long inside, long long outside, long long mu)
{
	return aas ? inside * outside * mu : (outside > 0 ? inside * mu : 0);
}

static void consider(struct lower_bound *b, long long flits, long long links, const char *what,
		     int k, long long ts)
{
	long long T;

	if (links <= 0 || flits <= 0)
		return;
	T = ts + 1 + ceil_div(flits, links);
	if (T > b->cut) {
		b->cut = T;
		snprintf(b->cut_name, sizeof(b->cut_name), what, k);
	}
}

/*
 * Every straight cut, in both directions (links are full-duplex, so equal counts).  On
 * a ring or torus a straight cut crosses each row (column) twice: between its two
 * halves and across the wraparound link.
 */
static void straight_cuts(const struct sim_config *cfg, bool aas, long long mu,
			  struct lower_bound *b)
{
	const struct topology *t = &cfg->topo;
	long long ts = cfg->startup, n = t->nodes, twice = topology_wraps(t) ? 2 : 1;

	if (t->kind == TOPO_HYPERCUBE) {
		for (int k = 0; k < t->dim; k++)
			consider(b, crossing(aas, n / 2, n / 2, mu), n / 2, "dimension %d", k, ts);
		return;
	}
	for (int j = 0; j + 1 < t->cols; j++) {
		long long left = (long long)t->rows * (j + 1), right = n - left;

		consider(b, crossing(aas, left, right, mu), twice * t->rows, "after column %d", j, ts);
		consider(b, crossing(aas, right, left, mu), twice * t->rows, "after column %d", j, ts);
	}
	for (int j = 0; j + 1 < t->rows; j++) {
		long long top = (long long)t->cols * (j + 1), bottom = n - top;

		consider(b, crossing(aas, top, bottom, mu), twice * t->cols, "after row %d", j, ts);
		consider(b, crossing(aas, bottom, top, mu), twice * t->cols, "after row %d", j, ts);
	}
}

static int lower_bound(const struct sim_config *cfg, int words, bool aas, struct lower_bound *b)
{
	const struct topology *t = &cfg->topo;
	long long ts = cfg->startup, mu = words, n = t->nodes, sumdist = 0, links = 0, x;
	int squeeze[FLIT_MAX_NODES];	/* ceil(mu / c_v): the cycles node v's block takes */
	bool even = true;		/* every node's block squeezed alike */

	memset(b, 0, sizeof(*b));
	if (n < 2)
		return -1;
	if (n > FLIT_MAX_NODES)
		return -1;
	/*
	 * Latency: the farthest pair, its block squeezed through the narrower end:
	 * ceil(mu / min(c_s, c_d)) = max(ceil(mu / c_s), ceil(mu / c_d)), per node once
	 * (a degree per pair made this loop a second of a Q_12 run).
	 */
	for (int v = 0; v < n; v++) {
		links += degree(t, v);
		squeeze[v] = (int)ceil_div(mu, cap(cfg, v));
		even = even && squeeze[v] == squeeze[0];
	}
	if (t->kind == TOPO_HYPERCUBE && even) {
		/*
		 * The pairs' loop below in closed form, where it was most of a large exchange's
		 * set-up (Q_12: 16.7 M pairs): from every node d 2^(d-1) hops to all the others
		 * together, the farthest d away.
		 */
		sumdist = n * t->dim * (n / 2);
		b->latency = ts + t->dim + squeeze[0];
	} else {
		for (int s = 0; s < n; s++)
			for (int d = 0; d < n; d++) {
				long long dist, T;

				if (s == d)
					continue;
				dist = topology_distance(t, s, d);
				sumdist += dist;
				T = ts + dist + (squeeze[s] > squeeze[d] ? squeeze[s] : squeeze[d]);
				if (T > b->latency)
					b->latency = T;
			}
	}
	/* Cuts: straight ones, and every node on its own (what it sends, what it receives). */
	straight_cuts(cfg, aas, mu, b);
	for (int v = 0; v < n; v++) {
		consider(b, crossing(aas, 1, n - 1, mu), cap(cfg, v), "node %d sending", v, ts);
		consider(b, crossing(aas, n - 1, 1, mu), cap(cfg, v), "node %d receiving", v, ts);
	}
	/* Throughput: the link crossings no schedule avoids, over every directed link. */
	x = aas ? mu * sumdist : mu * n * (n - 1);
	b->throughput = ts + 1 + ceil_div(x, links);
	b->cycles = b->latency;
	if (b->cut > b->cycles)
		b->cycles = b->cut;
	if (b->throughput > b->cycles)
		b->cycles = b->throughput;
	snprintf(b->text, sizeof(b->text),
		 "%s, %s, wormhole, full-duplex links: max(latency %lld, cut %s %lld, "
		 "throughput %lld) = %lld (docs/algorithms.md#lower-bounds)",
		 aas ? "AAS" : "AAB", cfg->all_port ? "all-port" : "one-port", b->latency,
		 b->cut_name[0] ? b->cut_name : "-", b->cut, b->throughput, b->cycles);
	return 0;
}

int rooted_lower_bound(const struct sim_config *cfg, int root, int words, bool reduce,
		       struct lower_bound *b)
{
	const struct topology *t = &cfg->topo;
	long long ts = cfg->startup, mu = words;
	int cr = cap(cfg, root);

	memset(b, 0, sizeof(*b));
	if (t->nodes < 2)
		return -1;
	for (int v = 0; v < t->nodes; v++) {
		int cv = cap(cfg, v);
		long long T = ts + topology_distance(t, root, v) + ceil_div(mu, cr < cv ? cr : cv);

		if (v != root && T > b->latency)
			b->latency = T;
	}
	b->cycles = b->latency;
	snprintf(b->text, sizeof(b->text),
		 "%s, %s, wormhole: latency t_s + D + ceil(mu / links) = %lld (the farthest node; "
		 "docs/algorithms.md#lower-bounds)", reduce ? "reduction" : "one-to-all",
		 cfg->all_port ? "all-port" : "one-port", b->cycles);
	return 0;
}

int aas_lower_bound(const struct sim_config *cfg, int words, struct lower_bound *b)
{
	return lower_bound(cfg, words, true, b);
}

int aab_lower_bound(const struct sim_config *cfg, int words, struct lower_bound *b)
{
	return lower_bound(cfg, words, false, b);
}
