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
 * Time: Grama et al. 4.1 gives T = (t_s + m*t_w) * log p.  Under this model a 1-hop
 * message of mu = L - 1 payload flits costs t_s + 1 + mu from the send to its tail, so
 *     T = (t_s + 1 + mu) * d = (t_s + L) * d,  exact:
 * consecutive sends of one node are t_s + L - 1 apart (the channel is free the cycle
 * after the previous tail left), one cycle less than a step.  A node whose chain from
 * the root contains k messages, the last over dimension b_k, gets the message at
 * k*(t_s+L) + (d - k - b_k)*(t_s+L-1), which is largest, d*(t_s+L), for the node
 * root xor (2^d - 1) (every message of its chain is its sender's first).  Every
 * message uses a distinct tree link and every node receives once, so nothing waits
 * in the network.
 */
#include "common.h"

/*
 * A static schedule (skeleton.h, struct step): node v's send k is to x xor 2^(b-1-k),
 * made when its send k - 1 has left the NI and it holds the root's block, exactly when
 * the plan made at its receipt would (each send its own group): the skeleton keeps the
 * next send, not a record per send.
 */
static bool sbt_step(const struct algo_params *p, int node, int k, struct step *s)
{
	unsigned x = (unsigned)(node ^ p->root);
	int b = x ? __builtin_ctz(x) : p->cfg->topo.dim;

	if (k >= b)
		return false;
	*s = (struct step){
		.dest = node ^ (1 << (b - 1 - k)), .b_origin = p->root, .b_dest = BLOCK_ANY,
		.b_index = 0, .w_origin = -1,
	};
	return true;
}

const struct algorithm algo_sbt = {
	.name = "sbt",
	.networks = "Q_d",
	.source = "Grama et al. 4.1.3, Algorithm 4.2",
	.formula_source = "Grama et al. 4.1 (t_s + t_w m) log p; exact: derived, one hop per step",
	.description = "spanning binomial tree broadcast, one dimension per step, highest first",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE,
	.all_port = false,
	.step = sbt_step,
	.predict = binomial_tree_predict,
};
