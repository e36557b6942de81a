/* SPDX-License-Identifier: MIT */
/*
 * standexch.c - all-to-all personalized exchange by standard exchange on a one-port
 * hypercube (Lecture 11 STANDEXCH; Grama et al. 4.5, "hypercube").
 *
 * Step k = 0 .. d-1: node v exchanges with v xor 2^k one message of p/2 blocks: every
 * block it holds whose destination differs from v in bit k (aas_standard_step()).
 * Before step k, v holds the blocks (x, u) with x equal to v in the bits from k up and
 * u equal to v in the bits below k, so the blocks are regrouped at every step: half of
 * what v sends at step k arrived at step k-1.  The step-k send is made when v holds all
 * of them (they arrive with the step-(k-1) message) and its previous send has left.
 *
 * Time: every step is one 1-hop message of 1 + (p/2) mu flits, and step k+1 starts
 * when the step-k message has arrived (its SEND_DONE is one cycle earlier), so
 *     T = d (t_s + 1 + 2^(d-1) mu),  exact (derived).
 * Lecture 11: t = n (t_s + 2^(n-1) mu t_m), Grama et al. 4.5: (t_s + t_w m p/2) log p:
 * the same formula, which counts no hop: d cycles below.  Every message has its own
 * link and every node receives one message per step on its single ejection channel, so
 * nothing waits.
 */
#include "aas.h"

static int sx_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	int d = p->cfg->topo.dim;
	unsigned all = (1u << d) - 1;

	if (r)
		return 0;
	for (int k = 0; k < d; k++) {
		struct xfer_spec x = { .dest = node ^ (1 << k), .group = k };

		if (plan_xfer(pl, &x) || aas_standard_step(pl, node, all, (1u << k) - 1, 1u << k))
			return -1;
	}
	return 0;
}

static void sx_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p);
	long long half = 1ll << (d - 1);

	(void)s;
	predict_set(o, (double)d * (ts + 1 + half * mu), true, DERIVED("standexch"),
		    "d (t_s + 1 + 2^(d-1) mu): one hop per step = %d * (%d + 1 + %lld*%d) = %lld", d,
		    ts, half, mu, d * (ts + 1 + half * mu));
	predict_published(o, (double)d * (ts + half * mu),
			  "Lecture 11, STANDEXCH; Grama et al. 4.5, (t_s + t_w m p/2) log p",
			  "n (t_s + 2^(n-1) mu t_m) = %d * (%d + %lld*%d) = %lld", d, ts, half, mu,
			  d * (ts + half * mu));
}

const struct algorithm algo_standexch = {
	.name = "standexch",
	.networks = "Q_d",
	.source = "Lecture 11 STANDEXCH; Grama et al. 4.5, hypercube",
	.formula_source = "Lecture 11 n(t_s + 2^(n-1) mu t_m) = Grama et al. 4.5 (t_s + t_w m p/2) log p; exact: derived, one hop per step",
	.description = "all-to-all personalized: one dimension per step, p/2 blocks per message, regrouped at every step",
	.kind = COLL_AAS,
	.topologies = ALGO_HYPERCUBE,
	.all_port = false,
	.plan = sx_plan,
	.predict = sx_predict,
};
