/* SPDX-License-Identifier: MIT */
/*
 * binexch.c - all-to-all personalized exchange BINEXCH on a wormhole mesh M(2^k, 2^l)
 * (Lecture 11): a standard exchange on the binary node index row * c + col, the mesh
 * halved recursively, alternately across the columns (X) and the rows (Y), from the
 * largest distance down: phases X with col bit l-1, Y with row bit k-1, X with l-2, ...
 * (the longer side's extra phases last).
 *
 * A phase across a bit b of one coordinate pairs nodes 2^b apart on the same line.  The
 * 2^(b+1)-aligned groups of a line hold 2^b pairs each whose XY routes overlap, so the
 * phase takes 2^b steps: in step t only the pairs whose lower node has coordinate
 * t mod 2^b exchange, which are 2^(b+1) apart and disjoint.  Every step is one round
 * (an ideal barrier, as the source's synchronous steps), and every node makes one
 * exchange per phase, of p/2 blocks (aas_standard_step()).
 *
 * Time: in a round every message has 2^b hops and 1 + (p/2) mu flits and none waits,
 * so a round lasts t_s + 2^b + (p/2) mu and
 *     T = sum over phases of 2^b (t_s + 2^b + (p/2) mu).
 * For N = 4^k this is Lecture 11's formula (1) exactly, with t_d = 1:
 *     2 (sqrt(N) - 1)(t_s + (N/2) mu t_m) + 2 t_d (N - 1)/3.
 *
 * On a torus K(2^k, 2^l) the plan and the time are the same.  A pair 2^b apart with
 * 2^b < n/2 is routed as on the mesh (the straight way is the shorter); in the first
 * phase of a dimension the partners are n/2 apart, the tie, taken the positive way: the
 * upper node's message goes on round the wraparound instead of back, n/2 hops as on
 * the mesh, and the step's one pair per line covers the line's positive links once.
 * So every round is still conflict-free (the tests check zero conflict cycles); the
 * wraparound is used but saves nothing.
 */
#include <stdio.h>

#include "aas.h"

struct bx_phase {
	bool col;		/* across the columns (X), else the rows (Y) */
	int bit;		/* of that coordinate */
};

/* The phases in order; returns how many. */
static int bx_phases(const struct topology *t, struct bx_phase *ph)
{
	int l = algo_log2((unsigned)t->cols), k = algo_log2((unsigned)t->rows), n = 0;

	for (int i = 0; i < l || i < k; i++) {
		if (i < l)
			ph[n++] = (struct bx_phase){ true, l - 1 - i };
		if (i < k)
			ph[n++] = (struct bx_phase){ false, k - 1 - i };
	}
	return n;
}

static int bx_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;
	struct bx_phase ph[2 * TOPO_MAX_DIM];
	int n = bx_phases(t, ph), l = algo_log2((unsigned)t->cols), round = 0;
	unsigned all = (unsigned)t->nodes - 1, done = 0;

	if (r)
		return 0;
	for (int i = 0; i < n; i++) {
		unsigned bit = 1u << (ph[i].col ? ph[i].bit : l + ph[i].bit);
		int coord = ph[i].col ? mesh_col(t, node) : mesh_row(t, node), span = 1 << ph[i].bit;
		struct xfer_spec x = { .dest = node ^ (int)bit, .group = i,
				       .round = round + coord % span };

		if (plan_xfer(pl, &x) || aas_standard_step(pl, node, all, done, bit))
			return -1;
		done |= bit;
		round += span;
	}
	return 0;
}

static int bx_supports(const struct algo_params *p, char *err, size_t len)
{
	return algo_need_pow2_grid(p, "binexch", err, len);
}

static void bx_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	struct bx_phase ph[2 * TOPO_MAX_DIM];
	int n = bx_phases(t, ph), ts = p->cfg->startup, mu = algo_mu(p);
	long long N = t->nodes, T = 0;

	(void)s;
	for (int i = 0; i < n; i++) {
		long long span = 1ll << ph[i].bit;

		T += span * (ts + span + N / 2 * mu);
	}
	if (t->rows == t->cols) {
		long long q = t->rows;

		predict_set(o, (double)T, true, "Lecture 11, BINEXCH formula (1)",
			    "2 (sqrt(N) - 1)(t_s + (N/2) mu t_m) + 2 t_d (N - 1)/3 = 2*%lld*(%d + %lld*%d) "
			    "+ 2*%lld/3 = %lld", q - 1, ts, N / 2, mu, N - 1,
			    2 * (q - 1) * (ts + N / 2 * mu) + 2 * (N - 1) / 3);
		return;
	}
	predict_set(o, (double)T, true, DERIVED("binexch"),
		    "sum over phases of 2^b (t_s + 2^b + (N/2) mu) = %lld", T);
	predict_published(o, -1, "Lecture 11, BINEXCH formula (1)", "formula (1) is for N = 4^k");
}

const struct algorithm algo_binexch = {
	.name = "binexch",
	.networks = "mesh or torus, r and c powers of two",
	.source = "Lecture 11, BINEXCH",
	.formula_source = "Lecture 11 formula (1) for N = 4^k; otherwise derived, the same sum",
	.description = "all-to-all personalized on M(2^k, 2^l): standard exchange halving X and Y alternately, 2^b conflict-free steps per phase",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH | ALGO_TORUS,
	.all_port = true,
	.supports = bx_supports,
	.plan = bx_plan,
	.predict = bx_predict,
};
