/* SPDX-License-Identifier: MIT */
/*
 * direx.c - all-to-all personalized exchange by direct exchange, DIREXCH (Grama et al. 4.5
 * and Lecture 11) on an all-port hypercube, and on a mesh with r and c powers of two
 * (the node index row * c + col as the binary address, Lecture 11).
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
 *
 * On a mesh the permutations x -> x xor j are not congestion-free under XY routing:
 * in some steps several routes share a link (up to max(r, c)/2 of them, Lecture 11),
 * the wormhole network serialises them and link_conflict_cycles counts the waiting.
 * The prediction there is an estimate, sum_j (t_s + D_j + K_j (L-1)), with D_j the
 * longest route of step j and K_j the number of routes on its most loaded link.
 *
 * On a torus with r and c powers of two the same plan runs with minimal routes (the
 * wraparound, ties the positive way) and the same estimate over those routes.  The
 * steps congest there too.  With long messages the measurement can exceed the estimate,
 * on tori and on large meshes (a blocked worm holds the links behind it and delays
 * routes the estimate counts as free): it is no bound (docs/algorithms.md#direx).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

/*
 * Node i's send k is step j = k + 1: its block for i xor j, waiting (j > 1) for the block
 * of its step-j-1 partner.  A static schedule (skeleton.h, struct step): the skeleton
 * keeps per node the next send, not p - 1 of them (16.8 M on Q_12), and makes it when
 * the send before it has left the NI and the awaited block has arrived, exactly when
 * the plan made at the start would.
 */
static bool dx_step(const struct algo_params *p, int node, int k, struct step *s)
{
	int j = k + 1;

	if (j >= p->cfg->topo.nodes)
		return false;
	*s = (struct step){
		.dest = node ^ j, .b_origin = node, .b_dest = node ^ j, .b_index = 0,
		.w_origin = j > 1 ? node ^ (j - 1) : -1, .w_dest = node, .w_index = 0,
		.wait_once = true,	/* each step's partner is another node */
	};
	return true;
}

static int dx_supports(const struct algo_params *p, char *err, size_t len)
{
	return p->cfg->topo.kind == TOPO_HYPERCUBE ? 0 : algo_need_pow2_grid(p, "direx", err, len);
}

/* Step j on a mesh: its longest route and the most routes on one directed link. */
static void dx_step_load(const struct topology *t, int j, int *count, int *longest, int *load)
{
	memset(count, 0, sizeof(int) * (size_t)t->nodes * (size_t)t->ports);
	*longest = *load = 0;
	for (int i = 0; i < t->nodes; i++) {
		int hops = 0;

		for (int v = i; v != (i ^ j); hops++) {
			int q = unicast_next_port(t, v, i ^ j), *c = &count[v * t->ports + q];

			if (++*c > *load)
				*load = *c;
			v = topology_neighbor(t, v, q);
		}
		if (hops > *longest)
			*longest = hops;
	}
}

static void dx_mesh_predict(const struct algo_params *p, struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int n = t->nodes, ts = p->cfg->startup, mu = algo_mu(p), worst = 0;
	int *count = malloc(sizeof(int) * (size_t)n * (size_t)t->ports);
	double T = 0;

	if (!count) {
		predict_set(o, -1, false, DERIVED("direx"), "out of memory");
		return;
	}
	for (int j = 1; j < n; j++) {
		int longest, load;

		dx_step_load(t, j, count, &longest, &load);
		T += ts + longest + (double)load * mu;
		worst = load > worst ? load : worst;
	}
	free(count);
	predict_set(o, T, false, DERIVED("direx"),
		    "estimate sum_j (t_s + D_j + K_j (L-1)), D_j the longest route and K_j the most "
		    "routes on one link in step j (up to %d) = %.0f", worst, T);
	predict_published(o, -1, "Lecture 11, DIREXCH on meshes",
			  "no formula; the largest link congestion is max(r, c)/2 = %d",
			  (t->rows > t->cols ? t->rows : t->cols) / 2);
}

static void dx_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int d = algo_log2((unsigned)t->nodes), n = t->nodes, ts = p->cfg->startup, mu = algo_mu(p);
	double grama = (double)(n - 1) * (ts + mu);

	(void)s;
	if (t->kind != TOPO_HYPERCUBE) {
		dx_mesh_predict(p, o);
		return;
	}
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

/*
 * On Q_d the contention-free evaluation in closed form: every node makes its step
 * j + 1 send when the step-j block arrives (popcount(j) hops after its start; its own
 * SEND_DONE is earlier), so the last tail ends a chain of p - 1 start-ups,
 * sum_j popcount(j) = d 2^(d-1) hops and (p-1)(L-1) flits, from the first send at 0.
 */
static int dx_schedule(const struct algo_params *p, struct schedule_result *r)
{
	const struct topology *t = &p->cfg->topo;
	int n = t->nodes, d = algo_log2((unsigned)n);

	if (t->kind != TOPO_HYPERCUBE)
		return -1;
	memset(r, 0, sizeof(*r));
	r->ok = true;
	r->startups = n - 1;
	r->hops = d * (n / 2);
	r->flits = (uint64_t)(n - 1) * (uint64_t)(p->flits - 1);
	r->cycles = (uint64_t)r->startups * (uint64_t)p->cfg->startup + (uint64_t)r->hops + r->flits;
	r->messages = (uint64_t)n * (uint64_t)(n - 1);
	schedule_describe(r);
	return 0;
}

const struct algorithm algo_direx = {
	.name = "direx",
	.networks = "Q_d; mesh or torus, r and c powers of two",
	.source = "Grama et al. 4.5 and Lecture 11, DIREXCH",
	.formula_source = "derived; Lecture 11 (2^n - 1)(t_s + n t_d/2 + mu t_m), Grama et al. 4.5 (t_s + t_w m)(p - 1); on meshes an estimate",
	.description = "all-to-all personalized exchange: step j, node i sends to i xor j",
	.kind = COLL_AAS,
	.topologies = ALGO_HYPERCUBE | ALGO_MESH | ALGO_TORUS,
	.all_port = true,
	.supports = dx_supports,
	.step = dx_step,
	.schedule = dx_schedule,
	.predict = dx_predict,
};
