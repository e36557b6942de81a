/* SPDX-License-Identifier: MIT */
/*
 * scatcol.c - broadcast by scatter, then collect (Barnett et al., "Scatter-Collect
 * Broadcast"), one-port, on an r x c mesh of any size.  The root's message of
 * n = L - 1 words is cut into p pieces, one per node (the skeleton's split: piece v
 * is the v-th slice, floor or ceil(n/p) words); piece v is node v's.
 *
 * sc1d  1-D: the nodes as the linear array of their indices.  Scatter by RSbcast's
 *       halving (rsbcast.c, conflict-free under XY routing): a holder of the segment
 *       [lo, hi] holds its pieces and sends the other half's pieces to the node
 *       RSbcast picks there; ceil(log2 p) steps.  Then collect around the logical ring
 *       0 -> 1 -> ... -> p-1 -> 0: at step t = 1 .. p-1 node v sends piece v - t + 1
 *       (mod p) to v + 1.
 * sc2d  2-D: scatter the rows' shares down the root's column, then every row's
 *       pieces along the row (recursive doubling's halving, rdmesh.c), collect around
 *       every row's ring (c - 1 steps, one piece each), then around every column's
 *       ring (r - 1 steps, a row's c pieces each).
 *
 * As in the source, the collect resends nodes pieces they hold already (a holder of
 * a segment, the root): the copies are checked and dropped (algorithm.redundant).
 * The phases are separated by the skeleton's ideal barrier (rounds: the source's
 * synchronous steps), so a ring never meets a scatter message.  A node sends its
 * steps in order, each when the previous one has left its NI and it holds the piece.
 *
 * No conflicts under XY routing: scatter as in RSbcast and recursive doubling (each
 * node receives one scatter message; segments are disjoint).  A ring's edges are
 * link-disjoint: v -> v+1 in a row is one hop east; the edge from a row's end to the
 * next row's start goes west along that row and one hop south; the closing edge
 * p-1 -> 0 goes west along the last row and north along column 0 (a row's or
 * column's ring: its closing edge runs back along the line).  Every node receives
 * only from its predecessor, so no message ever waits.
 *
 * Time.  Barnett et al., p = 2^d, p | n:
 *   T_sb1 = (log p + p - 1) alpha + 2 ((p-1)/p) n beta,
 *   T_sb2 = (log p + r + c - 2) alpha + 2 ((p-1)/p) n beta   (r = 2^d1, c = 2^d2).
 * They count one step per message and no hops; here a message of w words over h hops
 * costs t_s + h + w, and a ring's closing edge runs back along its line.  Where the
 * source's conditions hold the start-ups and the flits of the chain that ends last are
 * the source's, and only its hops are added: for sc2d (derived, exact)
 *     T = T_sb2 + (r - 1) + (c - 1) + (2c - 3) + (2r - 3)
 * (the scatter's chain of first sends, then in each ring len - 2 one-hop edges and the
 * closing edge, a ring of one node taking none); for sc1d the hops of RSbcast's chain,
 * which depend on the root, and 2p - 3 in the ring.  Otherwise, and for sc1d, the
 * prediction is the contention-free schedule of the plan, exact (docs/algorithms.md).
 */
#include <stdio.h>

#include "common.h"

/* tag: the segment received, [lo, hi] (13 bits each), and what it is. */
#define SC_ROW (1ull << 26)		/* sc2d: a segment of a row's positions */
#define SC_COLLECT (1ull << 27)		/* a ring message: the receiver plans nothing */

static uint64_t sc_tag(int lo, int hi, uint64_t flags)
{
	return (uint64_t)lo | (uint64_t)hi << 13 | flags;
}

/*
 * A line of len positions: position u is node node0 + u * nstride and owns the
 * pieces piece0 + u * per .. piece0 + (u + 1) * per - 1.
 */
struct sc_line {
	int len, node0, nstride, piece0, per;
};

static int sc_node(const struct sc_line *l, int u)
{
	return l->node0 + u * l->nstride;
}

/* A send of the pieces of positions [ulo, uhi] to position y's node. */
static int sc_send(const struct algo_params *p, struct plan *pl, const struct sc_line *l, int y,
		   int ulo, int uhi, int group, int round, uint64_t tag)
{
	struct xfer_spec x = { .dest = sc_node(l, y), .group = group, .round = round, .tag = tag };

	if (plan_xfer(pl, &x))
		return -1;
	for (int b = l->piece0 + ulo * l->per; b < l->piece0 + (uhi + 1) * l->per; b++)
		if (plan_block(pl, p->root, BLOCK_ANY, b))
			return -1;
	return 0;
}

/* Position x's steps of the ring collect on line l, from group *g on, in `round`. */
static int sc_ring(const struct algo_params *p, struct plan *pl, const struct sc_line *l, int x,
		   int *g, int round)
{
	for (int t = 1; t < l->len; t++) {
		int u = (x - t + 1 + l->len) % l->len;

		if (sc_send(p, pl, l, (x + 1) % l->len, u, u, (*g)++, round, SC_COLLECT))
			return -1;
	}
	return 0;
}

static int sc_packets(const struct algo_params *p)
{
	return p->cfg->topo.nodes;
}

static int sc_supports(const struct algo_params *p, char *err, size_t len)
{
	if (algo_need_mesh(p, "scatter-collect", err, len))
		return -1;
	if (p->packets) {
		snprintf(err, len, "scatter-collect cuts the message into one piece per node: a "
			 "number of packets does not apply");
		return -1;
	}
	return 0;
}

/*
 * sc1d's scatter is RSbcast's halving on the node indices, conflict-free (and so exact)
 * under XY routes only; sc2d's messages stay in one row or one column, where both route
 * orders take the same links.
 */
static int sc1_supports(const struct algo_params *p, char *err, size_t len)
{
	if (sc_supports(p, err, len))
		return -1;
	return algo_need_ascending_routes(p, "sc1d scatters by RSbcast's halving, conflict-free "
					  "under XY routing only", err, len);
}

static int sc1_plan(const struct algo_params *p, int node, const struct receipt *r,
		    struct plan *pl)
{
	int n = p->cfg->topo.nodes, g = 0, lo, hi;
	struct sc_line all = { .len = n, .node0 = 0, .nstride = 1, .piece0 = 0, .per = 1 };
	uint64_t tag;

	if (!tree_turn(p, node, r, sc_tag(0, n - 1, 0), &tag) || (tag & SC_COLLECT))
		return 0;
	lo = (int)(tag & 0x1fff);
	hi = (int)(tag >> 13 & 0x1fff);
	if (!rs_holds_end(p->root, node, lo, hi))
		return plan_fail(pl, "holds [%d, %d], not at the end facing away from the root", lo, hi);
	while (hi > lo) {
		int y, ylo, yhi;

		rs_halve(p->root, node, &lo, &hi, &y, &ylo, &yhi);
		if (sc_send(p, pl, &all, y, ylo, yhi, g++, 0, sc_tag(ylo, yhi, 0)))
			return -1;
	}
	return sc_ring(p, pl, &all, node, &g, 1);
}

static int sc2_plan(const struct algo_params *p, int node, const struct receipt *r,
		    struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;
	int R = t->rows, C = t->cols, a = mesh_row(t, node), b = mesh_col(t, node);
	int cs = mesh_col(t, p->root), g = 0, lo, hi;
	struct sc_line col_root = { .len = R, .node0 = cs, .nstride = C, .piece0 = 0, .per = C };
	struct sc_line row = { .len = C, .node0 = a * C, .nstride = 1, .piece0 = a * C, .per = 1 };
	struct sc_line col = { .len = R, .node0 = b, .nstride = C, .piece0 = 0, .per = C };
	uint64_t tag;

	if (!tree_turn(p, node, r, sc_tag(0, R - 1, 0), &tag) || (tag & SC_COLLECT))
		return 0;
	lo = (int)(tag & 0x1fff);
	hi = (int)(tag >> 13 & 0x1fff);
	if (!(tag & SC_ROW)) {
		/* In the root's column: the shares of rows [lo, hi]. */
		while (hi > lo) {
			int y, ylo, yhi;

			rd_halve(a, &lo, &hi, &y, &ylo, &yhi);
			if (sc_send(p, pl, &col_root, y, ylo, yhi, g++, 0, sc_tag(ylo, yhi, 0)))
				return -1;
		}
		lo = 0;
		hi = C - 1;
	}
	while (hi > lo) {
		int y, ylo, yhi;

		rd_halve(b, &lo, &hi, &y, &ylo, &yhi);
		if (sc_send(p, pl, &row, y, ylo, yhi, g++, 0, sc_tag(ylo, yhi, SC_ROW)))
			return -1;
	}
	if (sc_ring(p, pl, &row, b, &g, 1))
		return -1;
	return sc_ring(p, pl, &col, a, &g, 2);
}

static void sc1_predict(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *o)
{
	int n = p->cfg->topo.nodes, d = algo_ceil_log2((unsigned)n), ts = p->cfg->startup;
	int mu = algo_mu(p);
	double T = (double)(d + n - 1) * ts + 2.0 * (n - 1) / n * mu;

	predict_schedule(o, s, true, DERIVED("sc1d-and-sc2d"));
	predict_published(o, T, "Barnett et al., 1-D scatter-collect (T_sb1)",
			  "(log p + p - 1) alpha + 2((p-1)/p) n beta = (%d + %d - 1)*%d + 2*(%d/%d)*%d "
			  "= %.1f%s", d, n, ts, n - 1, n, mu, T,
			  algo_is_pow2(n) && mu % n == 0 ? "" : " (stated for p = 2^d dividing n)");
}

/*
 * The hops of a ring collect's longest chain on a line of len nodes: len - 2 one-hop
 * edges and the closing edge back along the line (len - 1 hops).
 */
static int sc_ring_hops(int len)
{
	return len < 2 ? 0 : 2 * len - 3;
}

static void sc2_predict(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, n = t->nodes, ts = p->cfg->startup, mu = algo_mu(p);
	int d = algo_ceil_log2((unsigned)r) + algo_ceil_log2((unsigned)c);
	double T = (double)(d + r + c - 2) * ts + 2.0 * (n - 1) / n * mu;
	bool stated = algo_is_pow2(r) && algo_is_pow2(c) && mu % n == 0;

	if (stated) {
		/* The source's start-ups and flits, plus the hops of the chain that ends last. */
		int H = (r - 1) + (c - 1) + sc_ring_hops(c) + sc_ring_hops(r);
		double exact = (double)(d + r + c - 2) * ts + 2.0 * (n - 1) / n * mu + H;

		predict_set(o, exact, true, DERIVED("sc1d-and-sc2d"),
			    "T_sb2 + (r-1) + (c-1) + (2c-3) + (2r-3) hops = %.0f + %d = %.0f", T, H, exact);
	} else {
		predict_schedule(o, s, true, DERIVED("sc1d-and-sc2d"));
	}
	predict_published(o, T, "Barnett et al., 2-D scatter-collect (T_sb2)",
			  "(log p + r + c - 2) alpha + 2((p-1)/p) n beta = (%d + %d + %d - 2)*%d + "
			  "2*(%d/%d)*%d = %.1f%s", d, r, c, ts, n - 1, n, mu, T,
			  stated ? "" : " (stated for r, c powers of two, p dividing n)");
}

const struct algorithm algo_sc1d = {
	.name = "sc1d",
	.networks = "any mesh",
	.source = "Barnett et al., 1-D scatter-collect",
	.formula_source = "Barnett et al. T_sb1; exact: the schedule, derived",
	.description = "scatter by RSbcast's halving, then collect around the ring of node "
		       "indices",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.redundant = true,
	.supports = sc1_supports,
	.packets = sc_packets,
	.plan = sc1_plan,
	.predict = sc1_predict,
};

const struct algorithm algo_sc2d = {
	.name = "sc2d",
	.networks = "any mesh",
	.source = "Barnett et al., 2-D scatter-collect",
	.formula_source = "Barnett et al. T_sb2; exact: derived, T_sb2 plus the hops (else the "
			  "schedule)",
	.description = "scatter down the root's column and along the rows, then collect "
		       "around every row and every column",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.redundant = true,
	.supports = sc_supports,
	.packets = sc_packets,
	.plan = sc2_plan,
	.predict = sc2_predict,
};
