/* SPDX-License-Identifier: MIT */
/*
 * irruns.c - the Gray-code Hamiltonian path covered by R+IR runs that the nodes forward
 * in software: what the Hamiltonian-path broadcast with IR (Jeon & Kim, section 2)
 * costs on a router without the path broadcast.  hampath.c is the source's algorithm,
 * one message along the whole path; this is the comparison that shows what the router
 * feature saves (2^(d-1) start-ups instead of one).
 *
 * The path is the reflected Gray code g(k) = k xor (k >> 1), k = 0 .. 2^d - 1,
 * relabelled by xor root (so it starts at the root).  Step k of the path flips
 * dimension ctz(k): 0, 1, 0, 2, 0, 1, 0, 3, ...  A single R+IR message only follows
 * its e-cube route (ascending dimensions), so it can cover a stretch of the path
 * only where the path's dimensions ascend: the maximal such runs are the pairs of
 * steps (2q+1, 2q+2), dimensions (0, ctz(2q+2) >= 1), plus the last step 2^d - 1
 * alone.  So the broadcast is 2^(d-1) R+IR messages, run q from g(2q) to
 * g(min(2q+2, 2^d-1)) delivering to both nodes it passes, each sent by the node where
 * the previous run ended.
 *
 * irruns   forwards when the HEAD of the run addressed to the node arrives (cut-
 *         through at the NI, the seed's "per-node delay" model).  That is only
 *         correct if no forwarded flit leaves before it arrived: the node sends at
 *         the head's arrival cycle a, its flit i leaves at a + t_s - 1 + i or later,
 *         and flit i arrived at a + i if the flits came back to back, so t_s >= 1
 *         suffices; the driver checks at the tail that they did (tail = head + L-1)
 *         and a random sink stall would break it, so irruns refuses sink_stall > 0.
 *         T = sum over runs (t_s + hops) + (L - 1) = 2^(d-1) t_s + (2^d - 1) + (L - 1).
 * irrunssf forwards when the whole run has arrived (store and forward between runs):
 *         T = sum over runs (t_s + hops + L - 1) = 2^(d-1) (t_s + L - 1) + 2^d - 1.
 * Both exact: the runs use distinct links of the path, every node receives once, and
 * the ejection channel of each receipt is paired with its own input link.
 */
#include <stdio.h>

#include "common.h"

static int gray(int k) { return k ^ (k >> 1); }

static int gray_inverse(int g)
{
	int k = 0;

	for (; g; g >>= 1)
		k ^= g;
	return k;
}

static int ih_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	int last = p->cfg->topo.nodes - 1, pos = gray_inverse(node ^ p->root), to;
	uint64_t tag;

	/* Runs start at even positions; odd positions are IR stops inside a run. */
	if (!tree_turn(p, node, r, 0, &tag) || pos % 2 || pos == last)
		return 0;
	to = pos + 2 < last ? pos + 2 : last;
	return plan_forward(pl, gray(to) ^ p->root, 0, true, 0);
}

/* The runs follow the Gray code path only along ascending (e-cube) routes. */
static int ih_need_ecube(const struct algo_params *p, const char *name, char *err, size_t len)
{
	char why[96];

	snprintf(why, sizeof(why), "%s covers the Gray code path with e-cube runs", name);
	return algo_need_ascending_routes(p, why, err, len);
}

static int ih_supports(const struct algo_params *p, char *err, size_t len)
{
	if (ih_need_ecube(p, "irruns", err, len))
		return -1;
	if (p->cfg->sink_stall > 0) {
		snprintf(err, len, "irruns forwards cut-through at the NI, which is only correct when "
			 "flits arrive back to back: use irrunssf with sink stalls");
		return -1;
	}
	return 0;
}

static void ih_ct_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p), runs = 1 << (d - 1);

	(void)s;
	predict_set(o, (double)runs * ts + ((1 << d) - 1) + mu, true, DERIVED("irruns"),
		    "2^(d-1) runs * t_s + (2^d - 1) hops + (L-1) = %d*%d + %d + %d = %d", runs, ts,
		    (1 << d) - 1, mu, runs * ts + (1 << d) - 1 + mu);
	predict_published(o, -1, "Jeon & Kim, Hamiltonian-path broadcast with IR",
			  "O(2^n + m - 1), an order of growth");
}

static int ihsf_supports(const struct algo_params *p, char *err, size_t len)
{
	return ih_need_ecube(p, "irrunssf", err, len);
}

static void ih_sf_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	int d = p->cfg->topo.dim, ts = p->cfg->startup, mu = algo_mu(p), runs = 1 << (d - 1);

	(void)s;
	predict_set(o, (double)runs * (ts + mu) + ((1 << d) - 1), true, DERIVED("irruns"),
		    "2^(d-1) runs * (t_s + L-1) + (2^d - 1) hops = %d*%d + %d = %d", runs, ts + mu,
		    (1 << d) - 1, runs * (ts + mu) + (1 << d) - 1);
	predict_published(o, -1, "Jeon & Kim, Hamiltonian-path broadcast with IR",
			  "O(2^n + m - 1), only when forwarding cut-through (see irruns)");
}

const struct algorithm algo_irruns = {
	.name = "irruns",
	.networks = "Q_d (no sink stalls)",
	.source = "Jeon & Kim, Hamiltonian-path broadcast with IR",
	.formula_source = "derived; Jeon & Kim give O(2^n + m - 1)",
	.description = "Gray-code Hamiltonian path, R+IR runs of 2 hops, forwarded cut-through",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.cut_through = true,
	.supports = ih_supports,
	.plan = ih_plan,
	.predict = ih_ct_predict,
};

const struct algorithm algo_irrunssf = {
	.name = "irrunssf",
	.networks = "Q_d",
	.source = "Jeon & Kim, Hamiltonian-path broadcast with IR",
	.formula_source = "derived; Jeon & Kim give O(2^n + m - 1) for cut-through forwarding",
	.description = "Gray-code Hamiltonian path, R+IR runs of 2 hops, store and forward",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE,
	.all_port = true,
	.supports = ihsf_supports,
	.plan = ih_plan,
	.predict = ih_sf_predict,
};
