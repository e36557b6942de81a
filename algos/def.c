/* SPDX-License-Identifier: MIT */
/*
 * def.c - pipelined broadcast along two fences, DEF (Barnett et al., "Pipelined
 * Broadcast"), on an r x c mesh from a corner.  The root's message of n = L - 1 words
 * is cut into k packets (the skeleton's split: packet j is the j-th slice of the
 * message), which every node forwards one hop at a time, east and south only.
 *
 * Coordinates are relative to the root's corner: i = rows away from the root's row,
 * j = columns away from its column; "east" is away from the root along a row, "south"
 * away along a column (a root at another corner mirrors them).  The two fences:
 *   fence A, the even packets: the root's row eastwards (its rail), then every column
 *            southwards (its pickets);
 *   fence B, the odd packets:  the root's column southwards, then every row eastwards.
 * Their pickets are edge-disjoint; the two rails carry both fences, because the
 * root's two neighbours have no other neighbour upstream.  So node (i, j) forwards
 * packet q
 *   east  if j < c - 1 and (i == 0 or q odd),
 *   south if i < r - 1 and (j == 0 or q even),
 * straight on first, then turning (a rail node), and the root sends each packet first
 * along its own fence's rail.  This is the source's checkerboard rule made
 * event-driven: colour node (i, j) black if i + j is even; a black node sends east on
 * even steps and south on odd steps, a white node the other way round, so a packet
 * going straight on is forwarded in the very next step and a rail node turns it one
 * step later.  (A colouring by column alone would make every southward hop wait a
 * step.)  Every node's sends queue on its injection channel in the order it makes them.
 *
 * No conflicts: every message is one hop, an interior node receives the even packets
 * from the north and the odd ones from the west, and (rail first at the root) their
 * arrivals are at least one send apart.
 *
 * Time.  Barnett et al.: T = (k + r + c)(alpha + (n/k) beta), with
 * k_opt = sqrt((r + c) n beta / alpha) clipped to [1, n], the default k here (rounded;
 * --packets sets another).  Under this router, with s = t_s + w for a packet of w
 * words (the spacing of a node's sends), a 1-hop packet arrives s + 1 after its send,
 * and the packets travel straight to the far corner, D = (r - 1) + (c - 1) hops, with
 * no wait.  The one-port root sends every packet twice (m = 2 directions; m = 1 on a
 * line), so the last packet leaves it after m ((k - 1) t_s + n - w_last) and
 *     T = m ((k - 1) t_s + n - w_last) + D (t_s + w_last + 1),   exact,
 * w_last = ceil(n / k) (the longer packets are the last ones); for k | n it is
 * m (k - 1) s + D (s + 1).  defap, the same plan on all-port nodes, sends both
 * directions at once: m = 1.  The source's count is one step per packet at the root:
 * under its own one-port rule the root needs two.
 */
#include <math.h>
#include <stdio.h>

#include "common.h"

struct def_geom {
	int i, j;		/* rows and columns away from the root */
	int R, C;		/* rows and columns of the mesh */
	int east, south;	/* the neighbours away from the root, or -1 */
};

static struct def_geom def_geom(const struct algo_params *p, int node)
{
	const struct topology *t = &p->cfg->topo;
	int rr = mesh_row(t, p->root), rc = mesh_col(t, p->root);
	int r = mesh_row(t, node), c = mesh_col(t, node);
	int dr = rr == 0 ? 1 : -1, dc = rc == 0 ? 1 : -1;	/* away from the root */
	struct def_geom g = {
		.i = r > rr ? r - rr : rr - r, .j = c > rc ? c - rc : rc - c,
		.R = t->rows, .C = t->cols,
	};

	g.east = g.j < g.C - 1 ? node + dc : -1;
	g.south = g.i < g.R - 1 ? node + dr * t->cols : -1;
	return g;
}

/* Barnett et al.'s k_opt = sqrt((r + c) n beta / alpha), rounded, clipped to [1, n]. */
static int def_k_opt(const struct algo_params *p)
{
	const struct topology *t = &p->cfg->topo;
	int n = algo_mu(p);
	double k = sqrt((double)(t->rows + t->cols) * n / p->cfg->startup);

	if (k > n)
		k = n;
	return k < 1 ? 1 : (int)floor(k + 0.5);
}

static int def_packets(const struct algo_params *p)
{
	return p->packets ? p->packets : def_k_opt(p);
}

static int def_supports(const struct algo_params *p, char *err, size_t len)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, n = algo_mu(p);

	if (algo_need_mesh(p, "def", err, len))
		return -1;
	if ((mesh_row(t, p->root) != 0 && mesh_row(t, p->root) != r - 1) ||
	    (mesh_col(t, p->root) != 0 && mesh_col(t, p->root) != c - 1)) {
		snprintf(err, len, "the DEF broadcast starts its fences at a corner of the mesh: "
			 "root %d is not one of %d, %d, %d, %d", p->root, 0, c - 1, (r - 1) * c,
			 r * c - 1);
		return -1;
	}
	if (p->packets < 0 || p->packets > (n > 1 ? n : 1)) {
		snprintf(err, len, "the DEF broadcast cuts the %d payload words of an L = %d message "
			 "into at most %d packets, not %d", n, p->flits, n > 1 ? n : 1, p->packets);
		return -1;
	}
	return 0;
}

/* The node forwards packet q: along the way it came first, then turning (see above). */
static int def_plan(const struct algo_params *p, int node, const struct receipt *r,
		    struct plan *pl)
{
	struct def_geom g = def_geom(p, node);
	int k = plan_blocks(pl), first = r ? (int)r->tag : 0, last = r ? first : k - 1;

	if (!r && node != p->root)
		return 0;
	for (int q = first; q <= last; q++) {
		int e = g.east >= 0 && (g.i == 0 || q % 2) ? g.east : -1;
		int s = g.south >= 0 && (g.j == 0 || q % 2 == 0) ? g.south : -1;
		/* Straight on first: the root and row nodes east, column nodes south; the
		 * root sends an odd packet down its own rail first. */
		bool south_first = (g.j == 0 && g.i > 0) || (g.i == 0 && g.j == 0 && q % 2);
		int dest[2] = { south_first ? s : e, south_first ? e : s };

		for (int d = 0; d < 2; d++) {
			struct xfer_spec x = { .dest = dest[d], .tag = (uint64_t)q };

			if (dest[d] >= 0 &&
			    (plan_xfer(pl, &x) || plan_block(pl, p->root, BLOCK_ANY, q)))
				return -1;
		}
	}
	return 0;
}

static void def_predict(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, ts = p->cfg->startup, n = algo_mu(p);
	int k = def_packets(p), wl = (n + k - 1) / k, D = r - 1 + c - 1;
	int m = p->cfg->all_port || r == 1 || c == 1 ? 1 : 2;
	long long T = (long long)m * ((long long)(k - 1) * ts + n - wl) +
		      (long long)D * (ts + wl + 1);
	double published = (double)(k + r + c) * (ts + (double)n / k);

	(void)s;
	predict_set(o, (double)T, true, DERIVED("def-and-defap"),
		    "k = %d packets (%s), the root sends each m = %d time%s: m((k-1) t_s + n - w_last) "
		    "+ D(t_s + w_last + 1) = %d*(%d*%d + %d - %d) + %d*(%d + %d + 1) = %lld", k,
		    p->packets ? "--packets" : "Barnett et al.'s k_opt", m, m > 1 ? "s" : "", m, k - 1,
		    ts, n, wl, D, ts, wl, T);
	predict_published(o, published, "Barnett et al., pipelined DEF broadcast",
			  "(k + r + c)(alpha + (n/k) beta) = (%d + %d + %d)(%d + %d/%d) = %.1f", k, r, c,
			  ts, n, k, published);
}

const struct algorithm algo_def = {
	.name = "def",
	.networks = "mesh, root at a corner",
	.source = "Barnett et al., pipelined DEF broadcast",
	.formula_source = "Barnett et al. (k + r + c)(alpha + (n/k) beta); exact: derived",
	.description = "the message in k packets along two fences from a corner, one-port: "
		       "every packet east then south (or south then east)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.supports = def_supports,
	.packets = def_packets,
	.plan = def_plan,
	.predict = def_predict,
};

const struct algorithm algo_defap = {
	.name = "defap",
	.networks = "mesh, root at a corner",
	.source = "Barnett et al., pipelined DEF broadcast, on all-port nodes",
	.formula_source = "Barnett et al. (k + r + c)(alpha + (n/k) beta); exact: derived",
	.description = "def with all-port nodes: a packet goes east and south at once",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = true,
	.supports = def_supports,
	.packets = def_packets,
	.plan = def_plan,
	.predict = def_predict,
};
