/* SPDX-License-Identifier: MIT */
/*
 * ringaas.c - all-to-all personalized exchange (AAS) on a ring K(z) by Lecture 11's
 * cyclic pipelines: one way round (ringaas1, one-port) and both ways at once
 * (ringaas2, all-port).  docs/algorithms.md#ringaas.
 *
 * One way (ringaas1; Lecture 11: combining, one-port, half-duplex; Grama et al. 4.5,
 * ring): every node sends E.  Step k = 1 .. z-1: node i sends to i+1 the blocks of
 * origin o = i-k+1 that are still on their way, those for o+k .. o+z-1 (z-k blocks):
 * its own blocks at step 1, and at step k the message of step k-1 from i-1 less the
 * block for i.  Each message is one hop on a link no other message of its step uses,
 * from the only injection channel of its node to the only ejection channel of the next
 * one, and a node's step-k send is made when the step-(k-1) message arrives, when its
 * own step-(k-1) message has left.  So a step lasts exactly t_s + 1 + (z-k) mu:
 *     T = (z-1)(t_s + 1) + mu z(z-1)/2,  exact (derived);
 * Lecture 11: sum_{i=1}^{z-1} (t_s + mu t_m (z-i)) = (t_s + mu t_m z/2)(z-1), which
 * counts no hop.
 *
 * Both ways (ringaas2; Lecture 11's two-way pipeline: a node sends on both of its links
 * in the same step, which needs two ports, so the run is all-port): the blocks for the
 * R = floor(z/2) nodes ahead go E as above (step k: origin i-k+1, its blocks for
 * o+k .. o+R, R-k+1 of them) and those for the z-1-R nodes behind go W the same way.
 * The two pipelines use different links and different injection and ejection
 * channels (all-port pairing), so the E one, which is the longer, sets the time:
 *     T = R (t_s + 1) + mu R(R+1)/2,  exact (derived);
 * Lecture 11: z even sum_{i=1}^{z/2} (t_s + mu t_m i) = t_s z/2 + mu t_m z(z+2)/8,
 * z odd sum_{i=1}^{(z-1)/2} (t_s + mu t_m ((z+1)/2 - i)) = t_s (z-1)/2 + mu t_m (z^2-1)/8:
 * the same sums without the hop.
 */
#include <stdio.h>

#include "common.h"

enum { ONE_WAY, TWO_WAYS };

/* The nodes a pipeline serves: the R ahead (E) and the z-1-R behind (W). */
static int ahead(const struct algo_params *p)
{
	int z = p->cfg->topo.nodes;

	return p->variant == ONE_WAY ? z - 1 : z / 2;
}

/*
 * One pipeline: node i sends `reach` steps towards dir (+1 E, -1 W); step k carries
 * origin i - dir (k-1)'s blocks for its nodes k .. reach steps away in that direction.
 */
static int pipeline(const struct algo_params *p, int node, int dir, int reach, struct plan *pl)
{
	int z = p->cfg->topo.nodes;

	for (int k = 1; k <= reach; k++) {
		int o = ((node - dir * (k - 1)) % z + z) % z;
		struct xfer_spec x = { .dest = ((node + dir) % z + z) % z };

		if (plan_xfer(pl, &x))
			return -1;
		for (int d = k; d <= reach; d++)
			if (plan_block(pl, o, ((o + dir * d) % z + z) % z, 0))
				return -1;
	}
	return 0;
}

static int ringaas_plan(const struct algo_params *p, int node, const struct receipt *r,
			struct plan *pl)
{
	int z = p->cfg->topo.nodes, R = ahead(p);

	if (r)
		return 0;
	if (pipeline(p, node, +1, R, pl))
		return -1;
	return p->variant == TWO_WAYS ? pipeline(p, node, -1, z - 1 - R, pl) : 0;
}

static void ringaas_predict(const struct algo_params *p, const struct schedule_result *s,
			    struct prediction *o)
{
	long long z = p->cfg->topo.nodes, ts = p->cfg->startup, mu = algo_mu(p), R = ahead(p);
	long long T = R * (ts + 1) + mu * R * (R + 1) / 2;

	(void)s;
	if (p->variant == ONE_WAY) {
		predict_set(o, (double)T, true, DERIVED("ringaas"),
			    "(z-1)(t_s + 1) + mu z(z-1)/2 = %lld*%lld + %lld*%lld = %lld", z - 1, ts + 1,
			    mu, z * (z - 1) / 2, T);
		predict_published(o, (double)((z - 1) * ts) + mu * z * (z - 1) / 2.0,
				  "Lecture 11, ring one-way (combining, one-port)",
				  "(t_s + mu t_m z/2)(z-1) = %.1f",
				  (double)((z - 1) * ts) + mu * z * (z - 1) / 2.0);
		return;
	}
	predict_set(o, (double)T, true, DERIVED("ringaas"),
		    "R (t_s + 1) + mu R(R+1)/2, R = floor(z/2) = %lld: %lld*%lld + %lld*%lld = %lld", R,
		    R, ts + 1, mu, R * (R + 1) / 2, T);
	predict_ring_two_way_published(o, z, ts, mu, "Lecture 11, ring two-way");
}

const struct algorithm algo_ringaas1 = {
	.name = "ringaas1",
	.source = "Lecture 11, ring one-way (cyclic pipeline); Grama et al. 4.5, ring",
	.formula_source = "derived; Lecture 11: (t_s + mu t_m z/2)(z-1)",
	.description = "all-to-all personalized on a ring, one way round (E), one-port: a combining pipeline",
	.kind = COLL_AAS,
	.topologies = ALGO_RING,
	.networks = "ring:N",
	.all_port = false,
	.variant = ONE_WAY,
	.plan = ringaas_plan,
	.predict = ringaas_predict,
};

const struct algorithm algo_ringaas2 = {
	.name = "ringaas2",
	.source = "Lecture 11, ring two-way (both links of a node in one step)",
	.formula_source = "derived; Lecture 11: t_s z/2 + mu t_m z(z+2)/8 (z even), "
			  "t_s (z-1)/2 + mu t_m (z^2-1)/8 (z odd)",
	.description = "all-to-all personalized on a ring, both ways at once, all-port: two combining pipelines",
	.kind = COLL_AAS,
	.topologies = ALGO_RING,
	.networks = "ring:N",
	.all_port = true,
	.variant = TWO_WAYS,
	.plan = ringaas_plan,
	.predict = ringaas_predict,
};
