/* SPDX-License-Identifier: MIT */
/*
 * linexch2.c - all-to-all personalized exchange on a linear array of p nodes
 * (mesh:1xN or mesh:Nx1), both directions at once (Lecture 11's two-way pipeline;
 * Grama et al. 4.5: "sending both ways halves the data per direction").
 *
 * Blocks for the right travel right, blocks for the left travel left, each as a
 * pipeline that combines: node i first sends its own blocks for i+1 .. p-1 to i+1, then,
 * as each message from i-1 arrives, forwards the blocks of that message's origin that
 * are not its own (again those for i+1 .. p-1), and the same to the left.  The two
 * directions use different links, injection and ejection channels (all-port), and on
 * each link the messages follow each other.
 *
 * Time: node i's message of origin o reaches i+1 at sum_{k=o}^{i} (t_s + 1 + (p-1-k) mu):
 * a node never waits for its own channel, because its previous message (of origin o+1)
 * left t_s + (p-1-i) mu after it was sent, earlier than origin o's arrival (t_s + 1 +
 * (p-1-o) mu after it).  The last arrival is origin 0's at p-1, and the left-going mirror
 * image ends at the same cycle:
 *     T = (p-1)(t_s + 1) + mu p(p-1)/2,  exact (derived).
 * The source's two-way formula is for a ring K(z) (z/2 steps, at most z/2 blocks per
 * message): t_s z/2 + mu z(z+2)/8 for z even, t_s (z-1)/2 + mu (z^2-1)/8 for z odd.
 * A line has no closing edge, so its middle link alone must carry floor(p/2) ceil(p/2)
 * blocks each way: the ring's formula is below the line's lower bound.
 */
#include "aas.h"

static int l2_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	int n = p->cfg->topo.nodes;

	if (r)
		return 0;
	/* To the right: origins node, node-1, ..., 0, their blocks for node+1 .. n-1. */
	for (int o = node; node + 1 < n && o >= 0; o--) {
		struct xfer_spec x = { .dest = node + 1 };

		if (plan_xfer(pl, &x))
			return -1;
		for (int u = node + 1; u < n; u++)
			if (plan_block(pl, o, u, 0))
				return -1;
	}
	/* To the left: origins node, node+1, ..., n-1, their blocks for 0 .. node-1. */
	for (int o = node; node > 0 && o < n; o++) {
		struct xfer_spec x = { .dest = node - 1 };

		if (plan_xfer(pl, &x))
			return -1;
		for (int u = 0; u < node; u++)
			if (plan_block(pl, o, u, 0))
				return -1;
	}
	return 0;
}

static int l2_supports(const struct algo_params *p, char *err, size_t len)
{
	return aas_need_line(p, "linexch2", err, len);
}

static void l2_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	long long z = p->cfg->topo.nodes, ts = p->cfg->startup, mu = algo_mu(p);
	long long T = (z - 1) * (ts + 1) + mu * z * (z - 1) / 2;

	(void)s;
	predict_set(o, (double)T, true, DERIVED("linexch2"),
		    "(p-1)(t_s + 1) + mu p(p-1)/2 = %lld*%lld + %lld*%lld = %lld", z - 1, ts + 1, mu,
		    z * (z - 1) / 2, T);
	predict_ring_two_way_published(o, z, ts, mu, "Lecture 11, K(z) two ways (a ring)");
}

const struct algorithm algo_linexch2 = {
	.name = "linexch2",
	.networks = "linear array (mesh:1xN, Nx1)",
	.source = "Lecture 11, two-way pipeline; Grama et al. 4.5, linear array",
	.formula_source = "derived; Lecture 11's two-way formula is for a ring",
	.description = "all-to-all personalized on a linear array, both directions: two combining pipelines",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH,
	.all_port = true,
	.supports = l2_supports,
	.plan = l2_plan,
	.predict = l2_predict,
};
