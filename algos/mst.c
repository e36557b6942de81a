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

#include "common.h"

static int mst_bits(const struct algo_params *p)
{
	return algo_log2((unsigned)p->cfg->topo.nodes);
}

static int mst_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		    int max, bool naive)
{
	int B = mst_bits(p), n = 0;

	for (int t = (int)tag; t < B; t++) {
		int b = naive ? t : B - 1 - t;

		if (n == max)
			return -1;
		out[n] = (struct tb_send){ .dest = node ^ (1 << b), .group = n,
					   .tag = (uint64_t)t + 1 };
		n++;
	}
	return n;
}

static int naive_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		      int max)
{
	return mst_plan(p, node, tag, out, max, true);
}

static int cf_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		   int max)
{
	return mst_plan(p, node, tag, out, max, false);
}

static const struct tb_ops naive_ops = { .plan = naive_plan };
static const struct tb_ops cf_ops = { .plan = cf_plan };

static int mst_supports(const struct algo_params *p, char *err, size_t len)
{
	const struct topology *t = &p->cfg->topo;

	if (algo_need_mesh(p, "mstnaive/mstcf", err, len))
		return -1;
	if (!algo_is_pow2(t->rows) || !algo_is_pow2(t->cols)) {
		snprintf(err, len, "the hypercube-like MST needs r and c powers of two, not %dx%d "
			 "(use rsbcast or rdmesh)", t->rows, t->cols);
		return -1;
	}
	return 0;
}

static void *naive_create(const struct algo_params *p) { return tb_create(p, &naive_ops); }
static void *cf_create(const struct algo_params *p) { return tb_create(p, &cf_ops); }

static double naive_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &naive_ops, text, len);
}

static double cf_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &cf_ops, text, len);
}

static double naive_predict(const struct algo_params *p, char *formula, size_t len)
{
	const struct topology *t = &p->cfg->topo;
	int B = mst_bits(p), ts = p->cfg->startup, L = p->flits;
	double T = (double)B * ts + (double)(t->rows + t->cols - 2) * L;

	snprintf(formula, len,
		 "Barnett et al.: log(p)*alpha + (r+c-2)*n*beta, alpha = t_s, beta = 1, n = L: "
		 "%d*%d + %d*%d = %.0f (link conflicts serialise messages)", B, ts,
		 t->rows + t->cols - 2, L, T);
	return T;
}

static double cf_predict(const struct algo_params *p, char *formula, size_t len)
{
	const struct topology *t = &p->cfg->topo;
	int B = mst_bits(p), ts = p->cfg->startup, L = p->flits;
	double T = (double)B * (ts + L - 1) + (t->rows - 1) + (t->cols - 1);

	snprintf(formula, len,
		 "log2(p)*(t_s+L-1) + (r-1) + (c-1) = %d*%d + %d + %d = %.0f "
		 "[Barnett et al.: log(p)*(alpha + n*beta) = %.0f, one hop per step]", B, ts + L - 1,
		 t->rows - 1, t->cols - 1, T, (double)B * (ts + L));
	return T;
}

const struct algorithm algo_mstnaive = {
	.name = "mstnaive",
	.source = "Barnett et al., naive hypercube-like MST",
	.description = "binomial tree on the node index, lowest bit first (XY link conflicts)",
	.topologies = ALGO_MESH,
	.all_port = false,
	.uses_root = true,
	.supports = mst_supports,
	.create = naive_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = naive_predict,
	.exact = false,
	.schedule = naive_schedule,
};

const struct algorithm algo_mstcf = {
	.name = "mstcf",
	.source = "Barnett et al., conflict-free hypercube-like MST",
	.description = "binomial tree on the node index, highest bit first: column, then rows",
	.topologies = ALGO_MESH,
	.all_port = false,
	.uses_root = true,
	.supports = mst_supports,
	.create = cf_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = cf_predict,
	.exact = true,
	.schedule = cf_schedule,
};
