/* SPDX-License-Identifier: MIT */
/*
 * reduce.c - all-to-one reduction on a one-port hypercube (Grama et al. 4.1, Algorithm 4.3,
 * relabelled with my_id xor root as in Algorithm 4.2): the dual of sbt, the same
 * binomial tree walked in the opposite order and direction, lowest dimension first.
 *
 * Every node starts with its contribution, a block of L-1 words.  Node v (virtual id
 * x = v xor root, b = lowest set bit of x, b = d at the root) has children x xor 2^j
 * for j < b, and its subtree is the 2^b nodes that agree with x on the bits from b up.
 * Its one send, to its parent x xor 2^b, carries the sum (word by word, modulo 2^W,
 * W = payload_width) of its subtree's contributions, and is made as soon as it holds
 * them all: its own and its children's partial sums.  Leaves (x odd) send at cycle 0.
 * The skeleton checks every partial sum on arrival and the root's total at the end.
 *
 * Time: Grama et al. 4.1 gives (t_s + m*t_w) * log p; each step is one hop, so here
 *     T = (t_s + 1 + mu) * d = (t_s + L) * d,  exact.
 * A node with b children sends at b*(t_s+L) (induction: its child over dimension j
 * sent at j*(t_s+L) and that 1-hop message took t_s + L), so the root's last
 * partial (from dimension d-1) arrives at d*(t_s+L).  A node's b arrivals are
 * t_s + L >= L + 1 cycles apart, so even the single shared ejection channel of a
 * one-port router is never contended, and every message uses its own tree link.
 */
#include "common.h"

static int rd_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	unsigned x = (unsigned)(node ^ p->root);
	int b = x ? __builtin_ctz(x) : 0;
	struct xfer_spec up = { .dest = node ^ (1 << b), .sum = true };

	if (r || node == p->root)
		return 0;
	if (plan_xfer(pl, &up))
		return -1;
	for (unsigned y = 0; y < 1u << b; y++)
		if (plan_block(pl, (int)(x | y) ^ p->root, p->root, 0))
			return -1;
	return 0;
}

const struct algorithm algo_reduce = {
	.name = "reduce",
	.networks = "Q_d",
	.source = "Grama et al. 4.1.5, Algorithm 4.3",
	.formula_source = "Grama et al. 4.1 (t_s + t_w m) log p; exact: derived, one hop per step",
	.description = "all-to-one sum reduction, binomial tree, lowest dimension first",
	.kind = COLL_REDUCE,
	.topologies = ALGO_HYPERCUBE,
	.all_port = false,
	.plan = rd_plan,
	.predict = binomial_tree_predict,
};
