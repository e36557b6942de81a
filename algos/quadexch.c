/* SPDX-License-Identifier: MIT */
/*
 * quadexch.c - all-to-all personalized exchange QUADEXCH on a wormhole mesh M(2^k, 2^k)
 * (Lecture 11), with mirror symmetry (quadexch) or, the source's variant, homothety
 * (quadexchh).
 *
 * Phase l = 0 .. k-1 works inside every region of S x S nodes, S = 2^(k-l) (the whole
 * mesh, then its quadrants, ...), split into four quadrants of s = S/2.  A node's
 * partners are its images in the three other quadrants: mirrored across the region's
 * middle lines (row r -> S-1-r, column c -> S-1-c, within the region), or translated
 * by s (homothety).  Each quadruple runs a micro-AAS of three steps (horizontal
 * partner, vertical partner, diagonal partner), each node sending every partner the
 * blocks it holds for that partner's quadrant; step j+1 waits for step j's send and
 * for the partner's step-j message.  Quadruples are scheduled in s sub-phases (global
 * rounds): sub-phase i takes the quadruples whose top-left member (tr, tc) has
 * tc - tr = i mod s, one per row and one per column of the quadrant, so the 3 steps of
 * all of them use distinct links.  After phase l a node holds, for every node of its
 * own quadrant, the blocks of 4^(l+1) sources (Lecture 11's "the same on
 * M(sqrt(N)/2, sqrt(N)/2) with 4 mu"), so every message of every phase carries N/4
 * blocks.
 *
 * Time: a micro-AAS of a quadruple whose horizontal and vertical distances are h, v
 * takes 3 t_s + 3 (N/4) mu + 2 (h + v) (its 4 nodes are symmetric, so they step
 * together), and a sub-phase is its longest micro-AAS:
 *   mirror:     h + v = 2 (S - 1) - 2 (tr + tc), longest 4 (S-1) - 4 min(i, s - i);
 *   homothety:  h = v = s, always 2 S.
 *     T = sum_l sum_{i<s} (3 t_s + 3 (N/4) mu + H(l, i)),  exact (derived).
 * Lecture 11: the first sub-phase 3 t_s + 3 (N/4) mu t_m + 4 t_d (sqrt(N) - 1), exactly
 * this; the later ones "k t_d sqrt(N), k ~ 3..4"; phase 1 at most (3 sqrt(N)/2) t_s +
 * (3 N sqrt(N)/8) mu t_m + 2 N t_d, and with homothety exactly N t_d for the hops, summed by
 * formula (2) over M(sqrt(N)/2^l) with 4^l mu.  The homothety's sum is the exact value; the
 * mirror's upper estimate of the hops is (8/3)(N - 1) against the exact sum.
 *
 * On a torus K(2^k, 2^k) the same plan runs with minimal routes.  Only phase 0 (S = n)
 * can route differently from the mesh: a mirror image d = n-1-2x places away is reached
 * the shorter way, min(d, n - d) hops, often through the wraparound (d is odd, n even:
 * never a tie); the homothety's partners are n/2 away, the tie, taken the positive way,
 * so the pair's two messages go round the line's two halves in the same direction, still
 * s hops each.  A quadruple keeps its own rows and columns and its members' messages
 * of one step go opposite ways, so the sub-phases stay conflict-free (the tests check
 * zero conflict cycles) and H(0, i) of the mirror is the sub-phase's largest
 * 2 (h + v) with the torus distances; the homothety's time is the mesh's.
 */
#include <stdio.h>

#include "aas.h"

struct qx_level {
	int S, s;		/* region and quadrant sides */
	int mh, mv;		/* a partner's column / row: xor with these */
};

static struct qx_level qx_level(const struct algo_params *p, int l, bool mirror)
{
	int k = algo_log2((unsigned)p->cfg->topo.rows), S = 1 << (k - l);

	return (struct qx_level){ S, S / 2, mirror ? S - 1 : S / 2, mirror ? S - 1 : S / 2 };
}

/* The blocks of v for the quadrant of node `to` at level l: (x, u), x in Src_l(v). */
static int qx_blocks(const struct algo_params *p, struct plan *pl, int v, int to, int l,
		     bool mirror)
{
	const struct topology *t = &p->cfg->topo;
	struct qx_level q = qx_level(p, l, mirror);
	int r0 = mesh_row(t, to) & ~(q.s - 1), c0 = mesh_col(t, to) & ~(q.s - 1);

	/* Src_l(v): v with any set of the row and column flips of the levels before l. */
	for (unsigned fr = 0; fr < 1u << l; fr++)
		for (unsigned fc = 0; fc < 1u << l; fc++) {
			int xr = mesh_row(t, v), xc = mesh_col(t, v);

			for (int j = 0; j < l; j++) {
				struct qx_level qj = qx_level(p, j, mirror);

				xr ^= fr >> j & 1 ? qj.mv : 0;
				xc ^= fc >> j & 1 ? qj.mh : 0;
			}
			for (int ur = r0; ur < r0 + q.s; ur++)
				for (int uc = c0; uc < c0 + q.s; uc++)
					if (plan_block(pl, xr * t->cols + xc, ur * t->cols + uc, 0))
						return -1;
		}
	return 0;
}

/* The sub-phase of a node at level l: from its quadruple's top-left member. */
static int qx_subphase(const struct topology *t, int v, struct qx_level q, bool mirror)
{
	int qr = mesh_row(t, v) & (q.S - 1), qc = mesh_col(t, v) & (q.S - 1);
	int tr = mirror ? (qr < q.s ? qr : q.S - 1 - qr) : qr & (q.s - 1);
	int tc = mirror ? (qc < q.s ? qc : q.S - 1 - qc) : qc & (q.s - 1);

	return ((tc - tr) % q.s + q.s) % q.s;
}

/* variant: QX_MIRROR (quadexch) or QX_HOMOTHETY (quadexchh). */
enum { QX_MIRROR, QX_HOMOTHETY };

static int qx_plan(const struct algo_params *p, int node, const struct receipt *r,
		   struct plan *pl)
{
	bool mirror = p->variant == QX_MIRROR;
	const struct topology *t = &p->cfg->topo;
	int k = algo_log2((unsigned)t->rows), round = 0, row = mesh_row(t, node);
	int col = mesh_col(t, node);

	if (r)
		return 0;
	for (int l = 0; l < k; l++) {
		struct qx_level q = qx_level(p, l, mirror);
		int partner[3] = {
			row * t->cols + (col ^ q.mh), (row ^ q.mv) * t->cols + col,
			(row ^ q.mv) * t->cols + (col ^ q.mh),
		};

		for (int j = 0; j < 3; j++) {
			struct xfer_spec x = { .dest = partner[j], .group = 3 * l + j,
					       .round = round + qx_subphase(t, node, q, mirror) };

			if (plan_xfer(pl, &x) || qx_blocks(p, pl, node, partner[j], l, mirror))
				return -1;
			/* The partner's previous step has arrived: its first block is (partner, corner). */
			if (j > 0 && plan_wait(pl, partner[j - 1],
					       (row & ~(q.s - 1)) * t->cols + (col & ~(q.s - 1)), 0))
				return -1;
		}
		round += q.s;
	}
	return 0;
}

static int qx_supports(const struct algo_params *p, char *err, size_t len)
{
	const struct topology *t = &p->cfg->topo;

	if (algo_need_pow2_grid(p, "QUADEXCH", err, len))
		return -1;
	if (t->rows != t->cols || t->rows < 2) {
		snprintf(err, len, "QUADEXCH runs on square meshes and tori of side 2^k, k >= 1, not %dx%d",
			 t->rows, t->cols);
		return -1;
	}
	return 0;
}

/*
 * Hops between a node and its mirror image d places along a line of n (the region's
 * S - 1 - 2x): on a torus the shorter way round, which in phase 0 (S = n) is often the
 * wraparound (d = n - 1 is one hop); d is odd and n even, so never a tie.
 */
static int qx_hops(const struct topology *t, int d)
{
	return topology_wraps(t) && t->rows - d < d ? t->rows - d : d;
}

/* H(l, i) of a mirror sub-phase on a torus: its longest micro-AAS's 2 (h + v). */
static long long qx_torus_hops(const struct topology *t, struct qx_level q, int i)
{
	long long H = 0;

	for (int tr = 0; tr < q.s; tr++) {
		int tc = (tr + i) % q.s;
		long long h = 2ll * (qx_hops(t, q.S - 1 - 2 * tc) + qx_hops(t, q.S - 1 - 2 * tr));

		H = h > H ? h : H;
	}
	return H;
}

/* The exact sum over phases and sub-phases. */
static long long qx_cycles(const struct algo_params *p, bool mirror)
{
	const struct topology *t = &p->cfg->topo;
	int k = algo_log2((unsigned)t->rows), ts = p->cfg->startup, mu = algo_mu(p);
	long long N = t->nodes, T = 0;

	for (int l = 0; l < k; l++) {
		struct qx_level q = qx_level(p, l, mirror);

		for (int i = 0; i < q.s; i++) {
			int m = i < q.s - i ? i : q.s - i;
			long long H = !mirror ? 2ll * q.S
				      : topology_wraps(t) ? qx_torus_hops(t, q, i)
				      : 4ll * (q.S - 1) - 4ll * m;

			T += 3ll * ts + 3 * (N / 4) * mu + H;
		}
	}
	return T;
}

/*
 * Lecture 11's formula (2), t(M(sqrt N), mu) = t_phase1(M(sqrt N), mu) + t(M(sqrt N / 2), 4 mu),
 * with its phase 1 (3 sqrt(N)/2) t_s + (3 N sqrt(N)/8) mu t_m + H(N) t_d, where H(N) = 2N
 * (mirror: the source's upper estimate) or N (homothety).
 */
static double qx_formula2(const struct algo_params *p, bool mirror)
{
	double ts = p->cfg->startup, mu = algo_mu(p), T = 0;

	for (double q = p->cfg->topo.rows; q >= 2; q /= 2, mu *= 4)
		T += 1.5 * q * ts + 0.375 * q * q * q * mu + (mirror ? 2 : 1) * q * q;
	return T;
}

static void qx_predict(const struct algo_params *p, const struct schedule_result *s,
		       struct prediction *o)
{
	(void)s;
	if (topology_wraps(&p->cfg->topo))
		predict_set(o, (double)qx_cycles(p, true), true, DERIVED("quadexch"),
			    "sum over phases and sub-phases i of 3 t_s + 3 (N/4) mu + max 2 (h + v), "
			    "h and v the torus distances to the mirror images = %lld", qx_cycles(p, true));
	else
		predict_set(o, (double)qx_cycles(p, true), true, DERIVED("quadexch"),
			    "sum over phases and sub-phases i of 3 t_s + 3 (N/4) mu + 4 (S-1) - 4 min(i, s-i) = %lld",
			    qx_cycles(p, true));
	predict_published(o, qx_formula2(p, true),
			  "Lecture 11, QUADEXCH formula (2) with its phase-1 upper estimate",
			  "sum over levels of (3 sqrt(N)/2) t_s + (3 N sqrt(N)/8) mu t_m + 2N t_d, "
			  "N / 4 and mu * 4 per level = %.0f", qx_formula2(p, true));
}

static void qxh_predict(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *o)
{
	(void)s;
	predict_set(o, qx_formula2(p, false), true,
		    "Lecture 11, QUADEXCH formula (2) with the homothety's phase 1",
		    "sum over levels of (3 sqrt(N)/2) t_s + (3 N sqrt(N)/8) mu t_m + N t_d, N / 4 and "
		    "mu * 4 per level = %.0f", qx_formula2(p, false));
}

const struct algorithm algo_quadexch = {
	.name = "quadexch",
	.networks = "square mesh or torus, side a power of two",
	.source = "Lecture 11, QUADEXCH",
	.formula_source = "derived; Lecture 11 formula (2) with its phase-1 upper estimate beside it",
	.description = "all-to-all personalized on M(2^k, 2^k): recursive quadrants, 3-step micro-AAS among mirror images",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH | ALGO_TORUS,
	.all_port = true,
	.supports = qx_supports,
	.plan = qx_plan,
	.predict = qx_predict,
};

const struct algorithm algo_quadexchh = {
	.name = "quadexchh",
	.networks = "square mesh or torus, side a power of two",
	.source = "Lecture 11, QUADEXCH with homothety",
	.formula_source = "Lecture 11 formula (2) with the homothety's phase 1",
	.description = "QUADEXCH with the partners translated by half a region instead of mirrored",
	.kind = COLL_AAS,
	.topologies = ALGO_MESH | ALGO_TORUS,
	.all_port = true,
	.supports = qx_supports,
	.variant = QX_HOMOTHETY,
	.plan = qx_plan,
	.predict = qxh_predict,
};
