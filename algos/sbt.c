/* SPDX-License-Identifier: MIT */
/*
 * sbt.c - spanning binomial tree broadcast on a one-port hypercube (Grama et al. 4.1,
 * Algorithm 4.2: any root by relabelling my_id xor root, one dimension per step,
 * highest first).
 *
 * Node v (virtual id x = v xor root) obtains the message at the step of the lowest set
 * bit b of x (the root: b = d) and then sends it to x xor 2^i for i = b-1 down to 0.
 * All its sends queue on the single injection channel of a one-port NI.
 *
 * Time: Grama et al. 4.1 gives T = (t_s + m*t_w) * log p.  Under this model a 1-hop message
 * costs t_s + 1 + (L-1) = t_s + L from the send to its tail, so with m*t_w = L:
 *     T = (t_s + L) * d,  exact.
 * Why exactly: consecutive sends of one node are t_s + L - 1 apart (the channel is
 * free the cycle after the previous tail left), one cycle less than a step.  A node
 * whose chain from the root contains k messages, the last over dimension b_k, gets
 * the message at k*(t_s+L) + (d - k - b_k)*(t_s+L-1), which is largest, d*(t_s+L),
 * for the node root xor (2^d - 1) (every message of its chain is its sender's first).
 * Every message uses a distinct tree link and every node receives once, so nothing
 * waits in the network.
 */
#include <stdio.h>

#include "common.h"

static int sbt_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		    int max)
{
	int d = p->cfg->topo.dim;
	unsigned x = (unsigned)(node ^ p->root);
	int b = x ? __builtin_ctz(x) : d, n = 0;

	(void)tag;
	for (int i = b - 1; i >= 0; i--) {
		if (n == max)
			return -1;
		out[n] = (struct tb_send){ .dest = node ^ (1 << i), .group = n };
		n++;
	}
	return n;
}

static const struct tb_ops sbt_ops = { .plan = sbt_plan };

static int sbt_supports(const struct algo_params *p, char *err, size_t len)
{
	return algo_need_hypercube(p, "sbt", err, len);
}

static void *sbt_create(const struct algo_params *p)
{
	return tb_create(p, &sbt_ops);
}

static double sbt_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &sbt_ops, text, len);
}

const struct algorithm algo_sbt = {
	.name = "sbt",
	.source = "Grama et al. 4.1.3, Algorithm 4.2",
	.description = "spanning binomial tree broadcast, one dimension per step, highest first",
	.topologies = ALGO_HYPERCUBE,
	.all_port = false,
	.uses_root = true,
	.supports = sbt_supports,
	.create = sbt_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = binomial_tree_predict,
	.exact = true,
	.schedule = sbt_schedule,
};
