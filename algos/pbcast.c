/* SPDX-License-Identifier: MIT */
/*
 * pbcast.c - pipelined broadcast with message replication (Jeon & Kim).
 *
 * The root makes ONE send of a B message of L flits.  Its router replicates it onto
 * every port in the same cycle (docs/microarchitecture.md section 8, "Root
 * replication"), and every router of the replication tree copies each flit to its
 * children and to its NI in lockstep (Algorithm B on Q_d; row then columns on a
 * mesh).  Nobody forwards in software: every non-root node just stores the data on
 * TAIL_ARRIVED.
 *
 * Time (Jeon & Kim eq. 2): T = T_s + n*T_f + m*T_c + n*T_r.  Here T_s = t_s, T_f = h = 1,
 * m*T_c = L - 1 (the flits after the head, one per cycle), and T_r = the router's
 * replication cost, which every router that replicates and forwards the head pays
 * once (docs/microarchitecture.md section 7, step 5).  So
 *     hypercube:  t_s + d + L - 1 + d*T_r  (the terminal node root xor (2^d - 1) is d hops
 *                                           away, behind d forwarding routers)
 *     mesh:       t_s + D + L - 1 + D*T_r  (D = the largest distance from the root: the
 *                                           tree's path to a node is a shortest path)
 * Exact, eq. 2 itself: the tree's edges are distinct links, all copies move in lockstep
 * and the nodes farthest from the root are leaves, which forward nothing.
 */
#include <stdio.h>

#include "common.h"

static int pb_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		   int max)
{
	(void)tag;
	if (node != p->root)
		return 0;
	if (max < 1)
		return -1;
	out[0] = (struct tb_send){ .dest = node, .group = 0, .bcast = true };
	return 1;
}

static const struct tb_ops pb_ops = { .plan = pb_plan };

static int pb_supports(const struct algo_params *p, char *err, size_t len)
{
	(void)p;
	(void)err;
	(void)len;
	return 0;
}

static void *pb_create(const struct algo_params *p)
{
	return tb_create(p, &pb_ops);
}

/* Largest route distance from the root. */
static int pb_depth(const struct algo_params *p)
{
	const struct topology *t = &p->cfg->topo;
	int r, c, dr, dc;

	if (t->kind == TOPO_HYPERCUBE)
		return t->dim;
	r = mesh_row(t, p->root);
	c = mesh_col(t, p->root);
	dr = r > t->rows - 1 - r ? r : t->rows - 1 - r;
	dc = c > t->cols - 1 - c ? c : t->cols - 1 - c;
	return dr + dc;
}

static double pb_predict(const struct algo_params *p, char *formula, size_t len)
{
	int D = pb_depth(p), ts = p->cfg->startup, L = p->flits, tr = p->cfg->replication_cost;
	double T = (double)ts + D + L - 1 + (double)D * tr;

	if (p->cfg->topo.kind == TOPO_HYPERCUBE)
		snprintf(formula, len,
			 "Jeon & Kim eq. 2 exactly, T_s + n*T_f + m*T_c + n*T_r with n = d, T_f = 1, "
			 "m*T_c = L-1: t_s + d + (L-1) + d*T_r = %d + %d + %d + %d*%d = %.0f",
			 ts, D, L - 1, D, tr, T);
	else
		snprintf(formula, len,
			 "Jeon & Kim eq. 2 exactly on the mesh tree, n = D = max distance from the root: "
			 "t_s + D + (L-1) + D*T_r = %d + %d + %d + %d*%d = %.0f", ts, D, L - 1, D, tr, T);
	return T;
}

static double pb_schedule(const struct algo_params *p, char *text, size_t len)
{
	return tb_schedule(p, &pb_ops, text, len);
}

const struct algorithm algo_pbcast = {
	.name = "pbcast",
	.source = "Jeon & Kim, Algorithms A and B",
	.description = "pipelined broadcast: one B message replicated by the routers (MR)",
	.topologies = ALGO_HYPERCUBE | ALGO_MESH,
	.all_port = true,
	.uses_root = true,
	.supports = pb_supports,
	.create = pb_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = pb_predict,
	.exact = true,
	.schedule = pb_schedule,
};
