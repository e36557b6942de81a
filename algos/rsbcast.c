/* SPDX-License-Identifier: MIT */
/*
 * rsbcast.c - recursive splitting broadcast, RSbcast (Barnett et al.), on a one-port r x c
 * mesh of any size, viewed as the linear array of node indices row * c + col.
 *
 * A holder x of a segment [lo, hi] of the array cuts it into halves A = [lo, lo+h-1]
 * and B = [lo+h, hi], h = ceil(size/2), sends the message to one node of the half
 * it is not in, which becomes the holder of that half, and goes on in its own half.
 * The target is the node of the other half farthest from x whose own messages will
 * travel back towards the original root R:
 *  - R itself sends to the far end of the other half (hi if R is in A, lo if in B);
 *  - an L-node (x < R) always holds the left end of its segment and sends to the
 *    left end of B, i.e. to the right;
 *  - an R-node (x > R) always holds the right end and sends to the right end of A,
 *    i.e. to the left.
 * So messages from L-nodes go right to L-nodes, from R-nodes left to R-nodes, and two
 * messages of one step are never "away from each other" (<j,i>, <k,l> with
 * i < j < k < l), the only pattern that conflicts under XY routing (Barnett et al.'s
 * case analysis).  Segments are disjoint and a holder's later messages trail its
 * earlier ones from the same source, so nothing waits: conflict-free.  The tag
 * carries the receiver's segment.
 *
 * Time.  Barnett et al.: T = ceil(log p)(alpha + n beta).  Under this model every chain has
 * at most ceil(log2 p) sends, each costing t_s + L - 1 plus its XY hop count, so
 *     T = S (t_s + L - 1) + H
 * for the chain that ends last (S <= ceil(log2 p) start-ups, H its hops), which
 * predict() evaluates exactly by walking the schedule (tb_eval in common.c).  The
 * seed's formula is the special case of one hop per message.
 */
#include <stdio.h>

#include "common.h"

static uint64_t rs_tag(int lo, int hi)
{
	return (uint64_t)lo | (uint64_t)hi << 12;
}

static int rs_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		   int max)
{
	int lo = (int)(tag & 0xfff), hi = (int)(tag >> 12 & 0xfff), R = p->root, x = node, n = 0;

	if ((x < R && x != lo) || (x > R && x != hi) || x < lo || x > hi)
		return -1;	/* cannot happen: a holder is at the end facing away from R */
	while (hi > lo) {
		int h = (hi - lo + 2) / 2, y;
		uint64_t ytag;

		if (x == R ? x < lo + h : x < R) {
			/* x in A: send into B; R sends to B's far end, an L-node to its near end. */
			y = x == R ? hi : lo + h;
			ytag = rs_tag(lo + h, hi);
			hi = lo + h - 1;
		} else {
			/* x in B: R sends to A's far end (lo), an R-node to A's near end. */
			y = x == R ? lo : lo + h - 1;
			ytag = rs_tag(lo, lo + h - 1);
			lo = lo + h;
		}
		if (n == max)
			return -1;
		out[n] = (struct tb_send){ .dest = y, .group = n, .tag = ytag };
		n++;
	}
	return n;
}

static struct tb_ops rs_ops_for(const struct algo_params *p)
{
	struct tb_ops o = { .plan = rs_plan, .root_tag = rs_tag(0, p->cfg->topo.nodes - 1) };

	return o;
}

static int rs_supports(const struct algo_params *p, char *err, size_t len)
{
	if (algo_need_mesh(p, "rsbcast", err, len))
		return -1;
	/* The conflict-freedom argument (docs/algorithms.md) is about XY routes. */
	if (p->cfg->topo.route_order != ORDER_ASCENDING) {
		snprintf(err, len, "rsbcast is conflict-free under XY routing only: use --route-order ascending");
		return -1;
	}
	return 0;
}

static void *rs_create(const struct algo_params *p)
{
	struct tb_ops o = rs_ops_for(p);

	return tb_create(p, &o);
}

static double rs_schedule(const struct algo_params *p, char *text, size_t len)
{
	struct tb_ops o = rs_ops_for(p);

	return tb_schedule(p, &o, text, len);
}

static double rs_predict(const struct algo_params *p, char *formula, size_t len)
{
	int steps = algo_ceil_log2((unsigned)p->cfg->topo.nodes);
	char text[200];
	double T = rs_schedule(p, text, sizeof(text));

	snprintf(formula, len, "%s [Barnett et al.: ceil(log p)*(alpha + n*beta) = %d*(%d + %d) = %d]",
		 text, steps, p->cfg->startup, p->flits, steps * (p->cfg->startup + p->flits));
	return T;
}

const struct algorithm algo_rsbcast = {
	.name = "rsbcast",
	.source = "Barnett et al., RSbcast",
	.description = "recursive splitting of the linearised mesh, conflict-free under XY routing",
	.topologies = ALGO_MESH,
	.all_port = false,
	.uses_root = true,
	.supports = rs_supports,
	.create = rs_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = rs_predict,
	.exact = true,
	.schedule = rs_schedule,
};
