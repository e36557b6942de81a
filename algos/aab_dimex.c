/* SPDX-License-Identifier: MIT */
/*
 * aab_dimex.c - all-to-all broadcast (gossip) on a one-port hypercube by dimension
 * exchange with combining (Lecture 11, Corollary 10).
 *
 * Step i = 0 .. d-1: node v sends to v xor 2^i every block it holds, the blocks of
 * the 2^i nodes that agree with v on bits i.. d-1, in one message of 1 + 2^i mu flits,
 * and receives as many from its partner.  A node makes its step-i send when its step
 * i-1 send has left the NI (group i-1 before group i) and it holds the blocks (its
 * partner's step i-1 message).  All nodes are alike, so every step starts everywhere
 * in the same cycle; a step's messages are one hop each, on distinct link directions,
 * one per injection and one per ejection channel: no contention.  A step lasts until
 * its tail arrives, t_s + 1 + 2^i mu after its send (SEND_DONE is one cycle earlier),
 * so, exactly,
 *     T = sum_{i=0}^{d-1} (t_s + 1 + 2^i mu) = d (t_s + 1) + mu (2^d - 1).
 * Lecture 11's sum_{i=0}^{n-1} (t_s + 2^i mu t_m) = n t_s + mu t_m (2^n - 1) counts
 * no hop; here every step pays its one hop, d cycles in all.
 */
#include <stdio.h>

#include "common.h"

static int dimex_plan(const struct algo_params *p, int node, const struct receipt *r,
		      struct plan *pl)
{
	int d = p->cfg->topo.dim;

	if (r)
		return 0;
	for (int i = 0; i < d; i++) {
		struct xfer_spec x = { .dest = node ^ (1 << i), .group = i };
		int low = node & ~((1 << i) - 1);

		if (plan_xfer(pl, &x))
			return -1;
		/* Every block held: the subcube of bits 0 .. i-1 around node. */
		for (int u = low; u < low + (1 << i); u++)
			if (plan_block(pl, u, BLOCK_ANY, 0))
				return -1;
	}
	return 0;
}

static void dimex_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p);
	double span = (double)((1u << d) - 1) * mu;

	(void)s;
	predict_set(o, d * (ts + 1.0) + span, true, DERIVED("aabdimex"),
		    "sum_{i<d} (t_s + 1 + 2^i mu) = d (t_s + 1) + mu (2^d - 1) = %d * %d + %.0f = %.0f",
		    d, ts + 1, span, d * (ts + 1.0) + span);
	predict_published(o, (double)d * ts + span, "Lecture 11, Corollary 10",
			  "sum_{i=0}^{n-1} (t_s + 2^i mu t_m) = n t_s + mu t_m (2^n - 1) = %d * %d + %.0f "
			  "= %.0f", d, ts, span, (double)d * ts + span);
}

const struct algorithm algo_aabdimex = {
	.name = "aabdimex",
	.source = "Lecture 11, Corollary 10 (dimension exchange with combining)",
	.formula_source = "derived; Lecture 11, Corollary 10: n t_s + mu t_m (2^n - 1)",
	.description = "all-to-all broadcast, one-port: step i, exchange everything held across dimension i",
	.kind = COLL_AAB,
	.topologies = ALGO_HYPERCUBE,
	.networks = "Q_d",
	.all_port = false,
	.plan = dimex_plan,
	.predict = dimex_predict,
};
