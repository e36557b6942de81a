/* SPDX-License-Identifier: MIT */
/*
 * hampath.c - the Hamiltonian-path broadcast with intermediate reception (Jeon & Kim,
 * section 2: "a straightforward broadcasting is possible using IR by sending a message
 * along a Hamiltonian path, from the source node to the end node of the path ... if we
 * consider any amount of the delay per node ... it would be O(2^n + m - 1)").
 *
 * The root makes ONE send of a path broadcast: a B header with ir = 1
 * (docs/microarchitecture.md section 8).  The routers carry it along the Hamiltonian
 * path that they compute from the root and their own index, exactly as they compute a
 * replication tree: on Q_d the reflected Gray code relabelled by xor root, on a mesh the
 * boustrophedon of the node indices, which the root sends both ways.  Every router on
 * the path copies each flit to its NI and to the next link in lockstep (IR); nobody
 * forwards in software, so the message pays one start-up.
 *
 * Time: the end of the path farthest from the root, D hops away, receives the tail
 * last; every router before it forwards, so each pays the replication cost T_r (the
 * source's "delay per node"):
 *     T = t_s + D + (L - 1) + D T_r,   D = 2^d - 1 on Q_d,
 *                                      D = max(q, p - 1 - q) on a mesh, q the root's
 *                                      position on the boustrophedon.
 * Exact: the path's links are distinct and all copies move in lockstep.
 */
#include "common.h"

static int hp_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	return plan_root_broadcast(p, node, r, pl, true);
}

static void hp_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int D = path_length(t, p->root), ts = p->cfg->startup, mu = algo_mu(p);
	int tr = p->cfg->replication_cost;
	long long T = (long long)ts + D + mu + (long long)D * tr;

	(void)s;
	predict_set(o, (double)T, true, DERIVED("hampath"),
		    "t_s + D + (L-1) + D T_r with D = %s = %d: %d + %d + %d + %d*%d = %lld",
		    t->kind == TOPO_HYPERCUBE ? "2^d - 1" : "the farther end of the path", D, ts,
		    D, mu, D, tr, T);
	predict_published(o, -1, "Jeon & Kim, Hamiltonian-path broadcast with IR",
			  "O(2^n + m - 1) with a delay per node, an order of growth");
}

const struct algorithm algo_hampath = {
	.name = "hampath",
	.networks = "Q_d; any mesh",
	.source = "Jeon & Kim, Hamiltonian-path broadcast with IR",
	.formula_source = "derived; Jeon & Kim give O(2^n + m - 1)",
	.description = "one path-broadcast message along a Hamiltonian path (Gray code; mesh "
		       "boustrophedon), received by every router on it (IR)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_HYPERCUBE | ALGO_MESH,
	.all_port = true,
	.plan = hp_plan,
	.predict = hp_predict,
};
