/* SPDX-License-Identifier: MIT */
/*
 * direx.c - all-to-all personalized exchange by direct exchange, DIREXCH (Grama et al. 4.5
 * and Lecture 11) on an all-port hypercube.
 *
 * Step j = 1 .. p-1: node i sends its block for i xor j straight to i xor j along the
 * e-cube route.  Steps are synchronised locally: node i makes its step j+1 send when
 * its step-j send has left the NI (group j-1 before group j) and it holds the block
 * of its step-j partner.
 *
 * Congestion-free steps: in step j the message from i crosses dimension b (a set bit
 * of j) at node i xor (j mod 2^b); two sources meeting on the same link would be
 * equal.  The routes of one step are therefore link-disjoint, the first hop of each
 * node uses its own injection channel (the lowest set bit of j) and every node
 * receives one block per step on the ejection channel paired with the link of the
 * highest set bit of j.  By induction all nodes start step j together at T_j and
 *     T_{j+1} = T_j + t_s + popcount(j) + L - 1
 * (the tail arrives after popcount(j) hops; SEND_DONE, at T_j + t_s + L - 1, is
 * earlier).  The exchange ends when the last step's tails arrive:
 *     T = sum_{j=1}^{p-1} (t_s + popcount(j) + L - 1) = (p-1)(t_s + L - 1) + d 2^(d-1),
 * exact.  Grama et al. 4.5 writes (t_s + t_w m)(p - 1), which counts no hops; with
 * m = mu = L - 1 it is (p-1)(t_s + L - 1) and undercounts by the hops, d 2^(d-1).  Lecture 11's form with the per-hop term,
 * (2^n - 1)(t_s + n t_d/2 + mu t_m), with mu t_m = L - 1 and t_d = 1 is d/2 below the
 * exact value: the average popcount over j = 1..p-1 is d 2^(d-1)/(p-1), slightly more
 * than d/2.
 */
#include <stdio.h>

#include "common.h"

static int dx_plan(const struct algo_params *p, int node, const struct receipt *r,
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

static void dx_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int d = algo_log2((unsigned)t->nodes), n = t->nodes, ts = p->cfg->startup, mu = algo_mu(p);
	double grama = (double)(n - 1) * (ts + mu);

	(void)s;
	{
		double T = (double)(n - 1) * (ts + mu) + (double)d * (n / 2);

		predict_set(o, T, true, DERIVED("direx"),
			    "sum_j (t_s + popcount(j) + L-1) = (p-1)(t_s + L-1) + d 2^(d-1) = %.0f", T);
		predict_published(o, (double)(n - 1) * (ts + d / 2.0 + mu),
				  "Lecture 11, DIREXCH (t_d n/2 is the mean distance)",
				  "(2^n - 1)(t_s + n t_d/2 + mu t_m) = %.1f [Grama et al. 4.5: "
				  "(t_s + t_w m)(p-1) = %.0f]", (double)(n - 1) * (ts + d / 2.0 + mu), grama);
	}
}

const struct algorithm algo_direx = {
	.name = "direx",
	.source = "Grama et al. 4.5 and Lecture 11, DIREXCH",
	.formula_source = "derived; Lecture 11 (2^n - 1)(t_s + n t_d/2 + mu t_m), Grama et al. 4.5 (t_s + t_w m)(p - 1)",
	.description = "all-to-all personalized exchange: step j, node i sends to i xor j",
	.kind = COLL_AAS,
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.plan = dx_plan,
	.predict = dx_predict,
};
