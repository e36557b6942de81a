/* SPDX-License-Identifier: MIT */
/*
 * rdring.c - one-to-all broadcast on a one-port ring by recursive doubling (Grama et
 * al. 4.1.1): the source sends first to the farthest node, then the distance halves
 * each step (rdring), against the same doubling nearest-first (rdringnf), which the
 * source warns congests links.
 *
 * Positions are offsets from the root, x = (node - root) mod N.  Farthest-first is
 * rdmesh's halving (rd_halve()) on the offsets 0..N-1: the holder of [lo, hi] sends
 * the other half to the node at its own offset there.  Every message goes the
 * positive way round (E; ties included, docs/microarchitecture.md section 12) except
 * when N is odd and the first half is longer than N/2, and the messages of one step
 * lie in disjoint segments: no two share a link.  Nearest-first: the holder at offset
 * x, which received at step s (x < 2^s), sends at steps s, s+1, ... to x + 2^k while
 * that is below N: at step k the messages x -> x + 2^k of x = 0 .. 2^k - 1 all cross
 * the links between 2^k - 1 and 2^k, so they queue there (link_conflict_cycles).
 *
 * Time.  Grama et al. 4.1: (t_s + t_w m) log p.  Under this router a k-hop message
 * costs t_s + k + L - 1 and a holder's next send starts t_s + L - 1 after its last, so
 * farthest-first on N = 2^n nodes ends when the chain that receives at every step has
 * crossed N/2 + N/4 + ... + 1 = N - 1 hops:
 *     T = log2(N) (t_s + L - 1) + (N - 1),  exact (rdmesh's formula with r = 1);
 * other N: the contention-free schedule, exact.  Nearest-first: the contention-free
 * schedule is a lower estimate (not exact): its messages wait for each other.
 */
#include "common.h"

/* tag: bits 0-15 lo, 16-31 hi (farthest-first); the step (nearest-first). */
static uint64_t rr_tag(int lo, int hi)
{
	return (uint64_t)lo | (uint64_t)hi << 16;
}

static int rr_node(const struct algo_params *p, int offset)
{
	return (p->root + offset) % p->cfg->topo.nodes;
}

static int rr_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	int n = p->cfg->topo.nodes, x = (node - p->root + n) % n, g = 0;
	uint64_t tag;

	if (p->variant == 0) {
		int lo, hi;

		if (!tree_turn(p, node, r, rr_tag(0, n - 1), &tag))
			return 0;
		lo = (int)(tag & 0xffff);
		hi = (int)(tag >> 16 & 0xffff);
		while (hi > lo) {
			int y, ylo, yhi;

			rd_halve(x, &lo, &hi, &y, &ylo, &yhi);
			if (plan_forward(pl, rr_node(p, y), g++, false, rr_tag(ylo, yhi)))
				return -1;
		}
		return 0;
	}
	/* Nearest-first: the root at step 0, offset x at the step after its bit length. */
	if (!tree_turn(p, node, r, 0, &tag))
		return 0;
	for (int k = x ? algo_log2((unsigned)x) + 1 : 0; x + (1 << k) < n; k++)
		if (plan_forward(pl, rr_node(p, x + (1 << k)), g++, false, (uint64_t)k + 1))
			return -1;
	return 0;
}

static void rr_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int n = p->cfg->topo.nodes, ts = p->cfg->startup, mu = algo_mu(p);
	int ln = algo_ceil_log2((unsigned)n);

	if (p->variant == 0 && algo_is_pow2(n)) {
		int T = ln * (ts + mu) + n - 1;

		predict_set(o, T, true, DERIVED("rdring"),
			    "log2(N)(t_s + L-1) + (N-1) = %d*%d + %d = %d", ln, ts + mu, n - 1, T);
	} else {
		predict_schedule(o, s, p->variant == 0, DERIVED("rdring"));
	}
	predict_published(o, (double)ln * (ts + mu), "Grama et al. 4.1, (t_s + t_w m) log p",
			  "(t_s + t_w m) log p = (%d + %d) * %d = %d", ts, mu, ln, ln * (ts + mu));
}

const struct algorithm algo_rdring = {
	.name = "rdring",
	.networks = "any ring",
	.source = "Grama et al. 4.1.1, recursive doubling on a ring, farthest first",
	.formula_source = "Grama et al. 4.1 (t_s + t_w m) log p; exact: derived",
	.description = "recursive doubling farthest-first on a ring: distance N/2, N/4, ... "
		       "(conflict-free)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_RING,
	.all_port = false,
	.variant = 0,
	.plan = rr_plan,
	.predict = rr_predict,
};

const struct algorithm algo_rdringnf = {
	.name = "rdringnf",
	.networks = "any ring",
	.source = "Grama et al. 4.1.1, recursive doubling nearest first (the congesting order)",
	.formula_source = "Grama et al. 4.1 (t_s + t_w m) log p; the contention-free schedule, "
			  "not exact: the messages of a step share links",
	.description = "recursive doubling nearest-first on a ring: distance 1, 2, 4, ... "
		       "(its conflicts are link_conflict_cycles)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_RING,
	.all_port = false,
	.variant = 1,
	.plan = rr_plan,
	.predict = rr_predict,
};
