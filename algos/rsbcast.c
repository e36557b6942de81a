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

void rs_halve(int R, int x, int *lo, int *hi, int *y, int *ylo, int *yhi)
{
	int h = (*hi - *lo + 2) / 2;

	if (x == R ? x < *lo + h : x < R) {
		/* x in A: send into B; R sends to B's far end, an L-node to its near end. */
		*y = x == R ? *hi : *lo + h;
		*ylo = *lo + h;
		*yhi = *hi;
		*hi = *lo + h - 1;
	} else {
		/* x in B: R sends to A's far end (lo), an R-node to A's near end. */
		*y = x == R ? *lo : *lo + h - 1;
		*ylo = *lo;
		*yhi = *lo + h - 1;
		*lo = *lo + h;
	}
}

bool rs_holds_end(int R, int x, int lo, int hi)
{
	return x >= lo && x <= hi && (x == R || (x < R && x == lo) || (x > R && x == hi));
}

static int rs_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	int lo, hi;
	uint64_t tag;

	if (!tree_turn(p, node, r, rs_tag(0, p->cfg->topo.nodes - 1), &tag))
		return 0;
	lo = (int)(tag & 0xfff);
	hi = (int)(tag >> 12 & 0xfff);
	if (!rs_holds_end(p->root, node, lo, hi))
		return plan_fail(pl, "holds [%d, %d], not at the end facing away from the root", lo, hi);
	for (int g = 0; hi > lo; g++) {
		int y, ylo, yhi;

		rs_halve(p->root, node, &lo, &hi, &y, &ylo, &yhi);
		if (plan_forward(pl, y, g, false, rs_tag(ylo, yhi)))
			return -1;
	}
	return 0;
}

static void rs_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int steps = algo_ceil_log2((unsigned)p->cfg->topo.nodes), ts = p->cfg->startup;
	int mu = algo_mu(p);

	predict_schedule(o, s, true, DERIVED("rsbcast"));
	predict_published(o, (double)steps * (ts + mu), "Barnett et al., RSbcast",
			  "ceil(log p)(alpha + n beta) = %d*(%d + %d) = %d", steps, ts, mu,
			  steps * (ts + mu));
}

static int rs_supports(const struct algo_params *p, char *err, size_t len)
{
	/* The conflict-freedom argument (docs/algorithms.md) is about XY routes. */
	return algo_need_ascending_routes(p, "rsbcast is conflict-free under XY routing only", err,
					  len);
}

const struct algorithm algo_rsbcast = {
	.name = "rsbcast",
	.networks = "any mesh",
	.source = "Barnett et al., RSbcast",
	.formula_source = "Barnett et al. ceil(log p)(alpha + n beta); exact: the schedule, derived",
	.description = "recursive splitting of the linearised mesh, conflict-free under XY routing",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.supports = rs_supports,
	.plan = rs_plan,
	.predict = rs_predict,
};
