/* SPDX-License-Identifier: MIT */
/*
 * pbcast.c - pipelined broadcast with message replication (Jeon & Kim).
 *
 * The root makes ONE send of a B message of L flits.  Its router replicates it onto
 * every port in the same cycle (docs/microarchitecture.md section 8, "Root
 * replication"), and every router of the replication tree copies each flit to its
 * children and to its NI in lockstep (Algorithm B on Q_d; row then columns on a
 * mesh).  Nobody forwards in software.
 *
 * Time (Jeon & Kim eq. 2): T = T_s + n*T_f + m*T_c + n*T_r.  Here T_s = t_s, T_f = h = 1,
 * m*T_c = L - 1 (the flits after the head, one per cycle), and T_r = the router's
 * replication cost, which every router that replicates and forwards the head pays
 * once (docs/microarchitecture.md section 7, step 5).  So
 *     hypercube:  t_s + d + L - 1 + d*T_r  (the terminal node root xor (2^d - 1) is d hops
 *                                           away, behind d forwarding routers)
 *     mesh:       t_s + D + L - 1 + D*T_r  (D = the largest distance from the root: the
 *                                           tree's path to a node is a shortest path)
 *     ring, torus: the same, D = floor(r/2) + floor(c/2) from any root (section 12)
 * Exact, eq. 2 itself: the tree's edges are distinct links, all copies move in lockstep
 * and the nodes farthest from the root are leaves, which forward nothing.
 */
#include <stdio.h>

#include "common.h"

static int pb_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	return plan_root_broadcast(p, node, r, pl, false);
}

/* Largest route distance from the root. */
static int pb_depth(const struct algo_params *p)
{
	const struct topology *t = &p->cfg->topo;
	int r, c, dr, dc;

	if (t->kind == TOPO_HYPERCUBE)
		return t->dim;
	/* Rings and tori: every root is as far from the farthest node. */
	if (topology_wraps(t))
		return t->rows / 2 + t->cols / 2;
	r = mesh_row(t, p->root);
	c = mesh_col(t, p->root);
	dr = r > t->rows - 1 - r ? r : t->rows - 1 - r;
	dc = c > t->cols - 1 - c ? c : t->cols - 1 - c;
	return dr + dc;
}

static void pb_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int D = pb_depth(p), ts = p->cfg->startup, mu = algo_mu(p), tr = p->cfg->replication_cost;
	int T = ts + D + mu + D * tr;

	(void)s;
	if (p->cfg->topo.kind == TOPO_HYPERCUBE)
		predict_set(o, T, true, "Jeon & Kim eq. 2",
			    "T_s + n T_f + m T_c + n T_r with n = d, T_f = 1, m T_c = L-1: "
			    "t_s + d + (L-1) + d T_r = %d + %d + %d + %d*%d = %d", ts, D, mu, D, tr, T);
	else
		predict_set(o, T, true, DERIVED("pbcast"),
			    "Jeon & Kim eq. 2 on the %s's tree, n = D = the largest distance from the "
			    "root: t_s + D + (L-1) + D T_r = %d + %d + %d + %d*%d = %d",
			    topology_kind_name(p->cfg->topo.kind), ts, D, mu, D, tr, T);
}

const struct algorithm algo_pbcast = {
	.name = "pbcast",
	.networks = "Q_d; any mesh, ring or torus",
	.source = "Jeon & Kim, Algorithms A and B",
	.formula_source = "Jeon & Kim eq. 2; on meshes, rings and tori derived with n = D",
	.description = "pipelined broadcast: one B message replicated by the routers (MR)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE | ALGO_MESH | ALGO_RING | ALGO_TORUS,
	.all_port = true,
	.plan = pb_plan,
	.predict = pb_predict,
};
