/* SPDX-License-Identifier: MIT */
/*
 * mst.c - minimum spanning tree (binomial) broadcasts on a one-port r x c mesh, r and
 * c powers of two (Barnett et al., "Naive Hypercube-Like Mesh Algorithm" and "Conflict-Free
 * Hypercube-Like Mesh Algorithm").  Two algorithms that differ only in the order of
 * the bits of the node index (row * c + col: the low log2 c bits are the column).
 *
 * A node that joined at step s (the root: s = 0) sends, at every later step t, to
 * the node whose index differs from its own in bit b(t), one send per step on its
 * single injection channel.  The message tag is the step the receiver joined at.
 *
 * mstnaive  b(t) = t, lowest bit first: the row (column bits) first with distances
 *           1, 2, 4, ..., then the columns.  At step t the 2^t holders of a block of
 *           2^(t+1) consecutive nodes send 2^t to the right (or left) at once, and
 *           their XY routes share the links in the middle: Barnett et al. charges
 *           sum_t (alpha + 2^t n beta) per dimension, T = log(p) alpha + (r+c-2) n beta.
 *           The wormhole network serialises the conflicting messages link by link, as
 *           the link_conflict_cycles of a run show; the measured time is compared
 *           with the seed's formula (not exact: how much of a conflict is hidden
 *           depends on when each holder starts, which the formula ignores).
 * mstcf     b(t) = log2(p) - 1 - t, highest bit first: the root's column first with
 *           distances r/2, r/4, ..., 1, then every row with c/2, ..., 1.  Every step's
 *           messages stay in disjoint aligned blocks of one line: no conflict.
 *           Barnett et al.: T = log(p)(alpha + n beta).  Under this model (alpha = t_s,
 *           beta = 1, n = L) a message over k hops costs t_s + k + L - 1, so the node
 *           that receives at every step, after r/2 + ... + 1 + c/2 + ... + 1 hops, is
 *           the last one:
 *               T = log2(p)(t_s + L - 1) + (r - 1) + (c - 1),  exact;
 *           the seed's formula, log2(p)(t_s + L), is this with one hop per step.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"

static int mst_bits(const struct algo_params *p)
{
	return algo_log2((unsigned)p->cfg->topo.nodes);
}

/* variant: which bit a holder flips at step t. */
enum { MST_NAIVE, MST_CONFLICT_FREE };

/*
 * A static schedule (skeleton.h, struct step): node v (x = v xor root) joins at the step
 * after the one that flips its last bit to set (mstnaive: its highest set bit, mstcf: its
 * lowest; the root at step 0), and its send k is step s + k; each send waits for its
 * previous send to leave the NI and for the root's block, exactly when the plan made
 * at its receipt would (each send its own group).
 */
static bool mst_step(const struct algo_params *p, int node, int k, struct step *s)
{
	int B = mst_bits(p);
	unsigned x = (unsigned)(node ^ p->root);
	int join = !x ? 0 : p->variant == MST_NAIVE ? 32 - __builtin_clz(x) : B - __builtin_ctz(x);
	int t = join + k, b = p->variant == MST_NAIVE ? t : B - 1 - t;

	if (t >= B)
		return false;
	*s = (struct step){
		.dest = node ^ (1 << b), .b_origin = p->root, .b_dest = BLOCK_ANY, .b_index = 0,
		.w_origin = -1,
	};
	return true;
}

static int mst_supports(const struct algo_params *p, char *err, size_t len)
{
	if (algo_need_pow2_mesh(p, "the hypercube-like MST", err, len)) {
		if (p->cfg->topo.kind == TOPO_MESH)
			snprintf(err + strlen(err), len - strlen(err), " (use rsbcast or rdmesh)");
		return -1;
	}
	return 0;
}

static void naive_predict(const struct algo_params *p, const struct schedule_result *s,
			  struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int B = mst_bits(p), ts = p->cfg->startup, mu = algo_mu(p);

	(void)s;
	predict_set(o, (double)B * ts + (double)(t->rows + t->cols - 2) * mu, false,
		    "Barnett et al., naive hypercube-like MST",
		    "log(p) alpha + (r+c-2) n beta, alpha = t_s, beta = 1, n = L-1: %d*%d + %d*%d = %d "
		    "(link conflicts serialise messages)", B, ts, t->rows + t->cols - 2, mu,
		    B * ts + (t->rows + t->cols - 2) * mu);
}

static void cf_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int B = mst_bits(p), ts = p->cfg->startup, mu = algo_mu(p);
	int T = B * (ts + mu) + (t->rows - 1) + (t->cols - 1);

	(void)s;
	predict_set(o, T, true, DERIVED("mstcf"),
		    "log2(p)(t_s + L-1) + (r-1) + (c-1) = %d*%d + %d + %d = %d", B, ts + mu,
		    t->rows - 1, t->cols - 1, T);
	predict_published(o, (double)B * (ts + mu), "Barnett et al., conflict-free MST",
			  "log(p)(alpha + n beta) = %d*(%d + %d) = %d (one hop per step)", B, ts, mu,
			  B * (ts + mu));
}

const struct algorithm algo_mstnaive = {
	.name = "mstnaive",
	.networks = "mesh, r and c powers of two",
	.source = "Barnett et al., naive hypercube-like MST",
	.formula_source = "Barnett et al., naive MST (not exact: conflicts)",
	.description = "binomial tree on the node index, lowest bit first (XY link conflicts)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.supports = mst_supports,
	.variant = MST_NAIVE,
	.step = mst_step,
	.predict = naive_predict,
};

const struct algorithm algo_mstcf = {
	.name = "mstcf",
	.networks = "mesh, r and c powers of two",
	.source = "Barnett et al., conflict-free hypercube-like MST",
	.formula_source = "Barnett et al. log(p)(alpha + n beta); exact: derived",
	.description = "binomial tree on the node index, highest bit first: column, then rows",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.supports = mst_supports,
	.variant = MST_CONFLICT_FREE,
	.step = mst_step,
	.predict = cf_predict,
};
