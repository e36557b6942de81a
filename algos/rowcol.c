/* SPDX-License-Identifier: MIT */
/*
 * rowcol.c - all-to-all personalized exchange on an r x c mesh by rows, then columns,
 * with blocks grouped by destination column (Grama et al. 4.5, "mesh"), and its one-
 * dimensional case, the pipelined exchange on a linear array in one direction
 * (linexch1; Grama et al. 4.5 "ring / linear array", Lecture 11's cyclic pipeline).
 *
 * Each phase is the ring algorithm on every line (row, then column) of n nodes: the
 * line's nodes form the logical ring 0 -> 1 -> ... -> n-1 -> 0, all sending the same
 * way.  At step s = 1 .. n-1 a node sends to its successor the super-blocks of the
 * origin s - 1 places before it that are still on their way: those for the n - s
 * positions s .. n-1 places after that origin; the successor keeps its own and
 * forwards the rest at the next step (combining: one message per step).  A super-block
 * is what one node holds for one position of the line: in the row phase its r blocks
 * for the nodes of one destination column, in the column phase the c blocks that its
 * row gathered for one destination node.  The column phase of a node starts when it
 * holds its column's blocks from its whole row.
 *
 * "One direction" on a line without wraparound: the ring's closing edge n-1 -> 0 is
 * the XY route back along the line, n - 1 hops over the links in the other direction,
 * which nothing else uses (a wormhole message pays n - 2 more cycles for it, nothing
 * more; on a ring it would be one hop).  So the phases are conflict-free in all-port
 * mode (row and column phases use different links, channels and ejection channels).
 *
 * Time, one line of n nodes with super-blocks of B blocks: step s's message has
 * 1 + (n - s) B mu flits and one hop, so without the closing edge every node would
 * step in lockstep, T = (n-1)(t_s + 1) + B mu n(n-1)/2.  The closing edge makes node 0
 * receive n - 2 cycles late from step 2 on; the delay travels one node per step, and
 * the last messages (of node n-1 over the closing edge, and of the delayed nodes) all
 * arrive n - 2 cycles late:
 *     T_line(n, B) = (n-1)(t_s + 1) + B mu n(n-1)/2 + max(n - 2, 0),  exact (derived);
 *     rowcol:  T = T_line(c, r) + T_line(r, c)   (every column starts its phase together).
 * Grama et al. 4.5: ring (t_s + t_w m p/2)(p - 1), mesh (2 t_s + t_w m p)(sqrt(p) - 1),
 * which count no hops.
 *
 * On a torus every row and column is a ring and the closing edge n-1 -> 0 is its
 * wraparound link, one hop the positive way like every other step (minimal routing;
 * n = 2 is the tie, taken the positive way too), on a link no other message uses: the
 * phases are Lecture 11's one-way ring K(n) on every line (its tori by Cartesian
 * decomposition), every node steps in lockstep and
 *     T = T_ring(c, r) + T_ring(r, c),  T_ring(n, B) = (n-1)(t_s + 1) + B mu n(n-1)/2,
 * exact (derived); Lecture 11: sum over the dimensions of (t_s + mu t_m (p/n) n/2)(n - 1).
 *
 * torusaas2 (tori only) runs Lecture 11's two-way ring instead (ringaas2 on every line,
 * super-blocks as above): the R = floor(n/2) positions ahead served the positive way,
 * the n-1-R behind the negative way, two pipelines on different links, injection and
 * ejection channels (all-port), the positive one the longer; every node of a line
 * steps in lockstep, so
 *     T = T2(c, r) + T2(r, c),  T2(n, B) = R (t_s + 1) + B mu R(R+1)/2,  exact (derived);
 * Lecture 11: sum over the dimensions of t_AAS(K(n), (p/n) mu), its two-way formulas.
 */
#include <stdio.h>

#include "aas.h"

/*
 * The ring phase along a line: node v at position `pos` of `n` (positions map to nodes
 * by `at`), its step sends from group g0 on.  super(origin, dest position) appends the
 * blocks of one super-block.
 */
struct line {
	const struct topology *t;
	bool row;		/* along v's row, else its column */
	int n;
};

static int line_node(const struct line *ln, int v, int pos)
{
	return ln->row ? mesh_row(ln->t, v) * ln->t->cols + pos : pos * ln->t->cols + mesh_col(ln->t, v);
}

static int super_block(const struct line *ln, struct plan *pl, int origin, int dest)
{
	const struct topology *t = ln->t;

	if (ln->row) {
		/* Row phase: origin's blocks for every node of dest's column. */
		for (int i = 0; i < t->rows; i++)
			if (plan_block(pl, origin, i * t->cols + mesh_col(t, dest), 0))
				return -1;
		return 0;
	}
	/* Column phase: the blocks of origin's whole row for dest. */
	for (int j = 0; j < t->cols; j++)
		if (plan_block(pl, mesh_row(t, origin) * t->cols + j, dest, 0))
			return -1;
	return 0;
}

static int ring_phase(const struct line *ln, struct plan *pl, int v, int pos, int g0)
{
	int n = ln->n;

	for (int s = 1; s < n; s++) {
		int o = (pos - s + 1 + n) % n;
		struct xfer_spec x = { .dest = line_node(ln, v, (pos + 1) % n), .group = g0 + s - 1 };

		if (plan_xfer(pl, &x))
			return -1;
		for (int k = s; k < n; k++)
			if (super_block(ln, pl, line_node(ln, v, o), line_node(ln, v, (o + k) % n)))
				return -1;
	}
	return 0;
}

/*
 * torusaas2's phase: Lecture 11's two-way ring on the line (ringaas2 with super-blocks):
 * the super-blocks for the R = floor(n/2) positions ahead go the positive way, step k
 * carrying origin pos-k+1's for o+k .. o+R, those for the n-1-R behind the negative way.
 */
static int two_way_phase(const struct line *ln, struct plan *pl, int v, int pos, int group)
{
	int n = ln->n, R = n / 2;

	for (int dir = 1; dir >= -1; dir -= 2) {
		int reach = dir > 0 ? R : n - 1 - R;

		for (int k = 1; k <= reach; k++) {
			int o = ((pos - dir * (k - 1)) % n + n) % n;
			struct xfer_spec x = { .dest = line_node(ln, v, ((pos + dir) % n + n) % n),
					       .group = group };

			if (plan_xfer(pl, &x))
				return -1;
			for (int d = k; d <= reach; d++)
				if (super_block(ln, pl, line_node(ln, v, o),
						line_node(ln, v, ((o + dir * d) % n + n) % n)))
					return -1;
		}
	}
	return 0;
}

enum { ONE_WAY, TWO_WAYS };

static int rc_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;
	struct line row = { t, true, t->cols }, col = { t, false, t->rows };

	if (r)
		return 0;
	if (p->variant == TWO_WAYS)
		return two_way_phase(&row, pl, node, mesh_col(t, node), 0) ||
		       two_way_phase(&col, pl, node, mesh_row(t, node), 1) ? -1 : 0;
	if (ring_phase(&row, pl, node, mesh_col(t, node), 0))
		return -1;
	return ring_phase(&col, pl, node, mesh_row(t, node), t->cols - 1);
}

/*
 * T_line(n, B) of the header comment; on a torus (wraps) the closing edge is the
 * wraparound link, one hop like the others: T_ring(n, B), without the n - 2.
 */
static long long line_cycles(int n, long long B, int ts, int mu, bool wraps)
{
	return n < 2 ? 0 : (n - 1ll) * (ts + 1) + B * mu * n * (n - 1ll) / 2 + (wraps ? 0 : n - 2);
}

static void rc_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, ts = p->cfg->startup, mu = algo_mu(p);
	bool wraps = topology_wraps(t);
	long long P = t->nodes, T = line_cycles(c, r, ts, mu, wraps) + line_cycles(r, c, ts, mu, wraps);
	double grama = (ts + (double)mu * P / 2) * (r + c - 2);

	(void)s;
	if (wraps) {
		predict_set(o, (double)T, true, DERIVED("rowcol"),
			    "T_ring(c, r) + T_ring(r, c), T_ring(n, B) = (n-1)(t_s + 1) + B mu n(n-1)/2 "
			    "(the closing edge is the wraparound link) = %lld", T);
		predict_published(o, grama, "Lecture 11, tori by Cartesian decomposition, K(z) one way",
				  "(t_s + mu t_m (p/c) c/2)(c - 1) + (t_s + mu t_m (p/r) r/2)(r - 1) = %.0f",
				  grama);
		return;
	}
	predict_set(o, (double)T, true, DERIVED("rowcol"),
		    "T_line(c, r) + T_line(r, c), T_line(n, B) = (n-1)(t_s + 1) + B mu n(n-1)/2 + (n-2) "
		    "= %lld", T);
	if (r == c)
		predict_published(o, grama, "Grama et al. 4.5, mesh",
				  "(2 t_s + t_w m p)(sqrt(p) - 1) = (2*%d + %d*%lld)(%d - 1) = %.0f", ts,
				  mu, P, r, grama);
	else
		predict_published(o, grama, "Grama et al. 4.5, its ring formula per phase",
				  "(t_s + t_w m p/2)(c - 1) + (t_s + t_w m p/2)(r - 1) = %.0f", grama);
}

static void l1_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	int n = p->cfg->topo.nodes, ts = p->cfg->startup, mu = algo_mu(p);
	long long T = line_cycles(n, 1, ts, mu, false);
	double ring = (ts + (double)mu * n / 2) * (n - 1);

	(void)s;
	predict_set(o, (double)T, true, DERIVED("rowcol"),
		    "(p-1)(t_s + 1) + mu p(p-1)/2 + (p-2) (the closing edge is p-1 hops) = %lld", T);
	predict_published(o, ring, "Grama et al. 4.5, ring; Lecture 11, K(z) one way",
			  "(t_s + t_w m p/2)(p - 1) = (%d + %d*%d/2)(%d - 1) = %.0f", ts, mu, n, n, ring);
}

/* T2(n, B) = R (t_s + 1) + B mu R(R+1)/2, R = floor(n/2): ringaas2 with super-blocks. */
static long long two_way_cycles(int n, long long B, int ts, int mu)
{
	long long R = n / 2;

	return R * (ts + 1) + B * mu * R * (R + 1) / 2;
}

/* Lecture 11's two-way K(z) with m = B mu: z even / odd. */
static double two_way_published(int z, long long B, int ts, int mu)
{
	double m = (double)B * mu;

	return z % 2 == 0 ? ts * z / 2.0 + m * z * (z + 2) / 8.0
			  : ts * (z - 1) / 2.0 + m * ((double)z * z - 1) / 8.0;
}

static void t2_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, ts = p->cfg->startup, mu = algo_mu(p);
	long long T = two_way_cycles(c, r, ts, mu) + two_way_cycles(r, c, ts, mu);
	double pub = two_way_published(c, r, ts, mu) + two_way_published(r, c, ts, mu);

	(void)s;
	predict_set(o, (double)T, true, DERIVED("aas-on-tori"),
		    "T2(c, r) + T2(r, c), T2(n, B) = R (t_s + 1) + B mu R(R+1)/2, R = floor(n/2) "
		    "= %lld", T);
	predict_published(o, pub, "Lecture 11, tori by Cartesian decomposition, K(z) two ways",
			  "sum over the dimensions of t_AAS(K(z), (p/z) mu): t_s z/2 + m z(z+2)/8 "
			  "(z even), t_s (z-1)/2 + m (z^2-1)/8 (z odd) = %.1f", pub);
}

static int l1_supports(const struct algo_params *p, char *err, size_t len)
{
	return aas_need_line(p, "linexch1", err, len);
}

const struct algorithm algo_rowcol = {
	.name = "rowcol",
	.networks = "any mesh or torus",
	.source = "Grama et al. 4.5, mesh; Lecture 11, tori by Cartesian decomposition",
	.formula_source = "Grama et al. 4.5 (2 t_s + t_w m p)(sqrt(p) - 1), on tori Lecture 11's one-way ring per dimension; exact: derived",
	.description = "all-to-all personalized on a mesh or torus: the one-way ring exchange in every row (blocks grouped by destination column), then in every column",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH | ALGO_TORUS,
	.all_port = true,
	.plan = rc_plan,
	.predict = rc_predict,
};

const struct algorithm algo_linexch1 = {
	.name = "linexch1",
	.networks = "linear array (mesh:1xN, Nx1)",
	.source = "Grama et al. 4.5, ring / linear array; Lecture 11, cyclic pipeline",
	.formula_source = "Grama et al. 4.5 = Lecture 11 (t_s + t_w m p/2)(p - 1); exact: derived",
	.description = "all-to-all personalized on a linear array, one direction: the ring pipeline, its closing edge routed back along the line",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH,
	.all_port = true,
	.supports = l1_supports,
	.plan = rc_plan,
	.predict = l1_predict,
};

const struct algorithm algo_torusaas2 = {
	.name = "torusaas2",
	.networks = "any torus",
	.source = "Lecture 11, tori by Cartesian decomposition with the two-way ring",
	.formula_source = "derived; Lecture 11's two-way ring summed over the dimensions beside it",
	.description = "all-to-all personalized on a torus: the two-way ring exchange (ringaas2) in every row, then in every column, blocks grouped by destination column",
	.kind = COLL_AAS,
	.topologies = ALGO_TORUS,
	.all_port = true,
	.variant = TWO_WAYS,
	.plan = rc_plan,
	.predict = t2_predict,
};
