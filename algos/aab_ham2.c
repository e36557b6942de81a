/* SPDX-License-Identifier: MIT */
/*
 * aab_ham2.c - all-to-all broadcast (gossip) on an all-port n x n torus along two
 * edge-disjoint Hamiltonian cycles (Lecture 11, Lemma 13).  docs/algorithms.md#aabham2.
 *
 * The cycles (node (i, j) = row i, column j, positions mod n, n >= 3):
 *   H1 runs along the rows: row i eastwards from column -i to column -i-1, then S into
 *      row i+1 at column -(i+1): every horizontal edge but one per row, one vertical
 *      edge per row;
 *   H2 runs down the columns: column j southwards from row -j to row -j-1 = n-1-j, then
 *      E into column j+1 at row -(j+1): every vertical edge but one per column, one
 *      horizontal edge per column.
 * The vertical edge H1 takes below row i is in column -(i+1), the one H2 leaves out in
 * that column; the horizontal edge H2 takes in row n-1-j joins columns j and j+1, the
 * one H1 leaves out in that row.  So H2 is H1's complement: together they use each link
 * once, both ways.
 *
 * Each node's message (mu payload flits, mu even) is two blocks of mu/2: block 0
 * travels on H1, block 1 on H2, each both ways round its cycle, without combining:
 * forward step k = 1 .. ceil((N-1)/2), a node sends the next node of the cycle the block
 * of the node k-1 places behind it (its own at step 1, later the one it has just
 * received), and backward the same for floor((N-1)/2) steps.  The four pipelines of a
 * node use its four links (one each way on each cycle), four injection channels and,
 * at the receivers, four ejection channels (all-port): a step of every pipeline lasts
 * exactly t_s + 1 + mu/2 and its next send is made when its block arrives, so
 *     T = ceil((N-1)/2) (t_s + 1 + mu/2),  exact (derived);
 * Lecture 11, Lemma 13: r (t_s + (mu/2) t_m) with r ~ z1 z2 / 2 rounds.
 *
 * Only n x n: Lemma 13 is stated for any K(z1, z2) without a construction, and these
 * sweeps are complements only when there are as many rows as columns (H1 takes one
 * vertical link per row, H2 one horizontal link per column).  n = 2: the tie rule
 * routes both neighbours' messages over the positive links, two per node, not four.
 * mu even: the halves are skeleton blocks, all of one size.  docs/algorithms.md#aabham2.
 */
#include <stdio.h>

#include "common.h"

/* Node at position k of cycle c (0: H1, 1: H2) on the n x n torus. */
static int cycle_node(int n, int c, int k)
{
	int a = k / n, t = k % n, s = (n - a) % n;

	if (c == 0)
		return a * n + (s + t) % n;		/* row a, from column -a eastwards */
	return ((s + t) % n) * n + a;			/* column a, from row -a southwards */
}

/* Position of node v on cycle c: the inverse of cycle_node(). */
static int cycle_pos(int n, int c, int v)
{
	int i = v / n, j = v % n;

	if (c == 0)
		return i * n + ((j + i) % n);		/* t = j - (-i) */
	return j * n + ((i + j) % n);			/* t = i - (-j) */
}

static int ham2_plan(const struct algo_params *p, int node, const struct receipt *r,
		     struct plan *pl)
{
	int n = p->cfg->topo.rows, N = n * n, fwd = N / 2, back = (N - 1) / 2;

	if (r)
		return 0;
	for (int c = 0; c < 2; c++) {
		int a = cycle_pos(n, c, node);

		for (int dir = 1; dir >= -1; dir -= 2) {
			int steps = dir > 0 ? fwd : back;

			for (int k = 1; k <= steps; k++) {
				struct xfer_spec x = { .dest = cycle_node(n, c, (a + dir + N) % N) };
				int o = cycle_node(n, c, ((a - dir * (k - 1)) % N + N) % N);

				if (plan_xfer(pl, &x) || plan_block(pl, o, BLOCK_ANY, c))
					return -1;
			}
		}
	}
	return 0;
}

static int ham2_supports(const struct algo_params *p, char *err, size_t len)
{
	const struct topology *t = &p->cfg->topo;

	if (t->rows != t->cols || t->rows < 3) {
		snprintf(err, len, "aabham2 runs on a square torus n x n with n >= 3 (its two Hamiltonian "
			 "cycles), not %dx%d", t->rows, t->cols);
		return -1;
	}
	if (algo_mu(p) % 2) {
		snprintf(err, len, "aabham2 splits a message of --flits L into two halves: L - 1 must be "
			 "even, not %d", algo_mu(p));
		return -1;
	}
	return 0;
}

/* Two blocks per node, one per cycle, of mu/2 words each. */
static void ham2_shape(const struct algo_params *p, int *blocks, int *words)
{
	*blocks = 2;
	*words = algo_mu(p) / 2;
}

static void ham2_predict(const struct algo_params *p, const struct schedule_result *s,
			 struct prediction *o)
{
	long long n = p->cfg->topo.rows, N = n * n, ts = p->cfg->startup, half = algo_mu(p) / 2;
	long long r = N / 2, T = r * (ts + 1 + half);

	(void)s;
	predict_set(o, (double)T, true, DERIVED("aabham2"),
		    "ceil((N-1)/2) (t_s + 1 + mu/2) = %lld * (%lld + 1 + %lld) = %lld", r, ts, half, T);
	predict_published(o, (double)(r * (ts + half)), "Lecture 11, Lemma 13",
			  "r (t_s + (mu/2) t_m), r = ceil((N-1)/2) ~ z1 z2/2: %lld * (%lld + %lld) = %lld",
			  r, ts, half, r * (ts + half));
}

const struct algorithm algo_aabham2 = {
	.name = "aabham2",
	.source = "Lecture 11, Lemma 13 (two edge-disjoint Hamiltonian cycles)",
	.formula_source = "derived; Lecture 11, Lemma 13: r (t_s + (mu/2) t_m), r ~ z1 z2/2",
	.description = "all-to-all broadcast, all-port square torus: half of each message round each of two "
		       "edge-disjoint Hamiltonian cycles, both ways",
	.kind = COLL_AAB,
	.topologies = ALGO_TORUS,
	.networks = "torus:nxn, n >= 3; --flits L with L - 1 even",
	.all_port = true,
	.supports = ham2_supports,
	.shape = ham2_shape,
	.plan = ham2_plan,
	.predict = ham2_predict,
};
