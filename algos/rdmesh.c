/* SPDX-License-Identifier: MIT */
/*
 * rdmesh.c - one-to-all broadcast on a one-port r x c mesh by recursive doubling
 * (Grama et al. 4.1, sections 4.1.1 and 4.1.2): along the root's row first, then every node
 * of that row in its column.  This is also Barnett et al.'s broadcast with separated
 * dimensions for sizes that are not powers of two (their MST on each line: halve it as
 * evenly as possible, send to the node at the same position in the other half): one
 * algorithm, one entry, both sources.
 *
 * On a line segment [lo, hi] held by node x: cut it into halves A = [lo, lo+h-1] and
 * B = [lo+h, hi], h = ceil(size/2); x sends to the node of the other half at its own
 * offset from the half's start (clamped to the half: the farthest-first choice of the
 * textbook, distance h), which becomes the holder of that half, and x goes on in its
 * own half.  Any r and c: a segment of s nodes takes ceil(log2 s) steps.  A row
 * node sends its column messages after its row messages, on the same (single)
 * injection channel.  The message tag carries the receiver's segment and phase.
 *
 * No conflicts: the messages of a segment stay inside it, the halves are disjoint,
 * a holder's next message trails its previous one on the same straight line (it
 * starts t_s + L - 1 cycles later), and row and column messages use different links.
 *
 * Time.  Grama et al. 4.1: T = (t_s + m t_w) log p (r, c powers of two; for others Barnett
 * et al.'s separated dimensions, (ceil(log r) + ceil(log c))(alpha + n beta)).
 * Under this model a message over k hops costs t_s + k + L - 1 and a holder's next
 * send starts t_s + L - 1 after its previous one, so the last node is reached at
 *     T = S (t_s + L - 1) + H
 * where the chain ending last pays S start-ups and H hops; for r and c powers of two
 * every chain has S = log2 p steps and the one that receives at every step travels
 * c/2 + c/4 + ... + 1 + r/2 + ... + 1 hops:
 *     T = log2(p) (t_s + L - 1) + (r - 1) + (c - 1),  any root, exact.
 * The sources' formulas count each step as t_s + L - 1, no hop: they are below it by the
 * (r - 1) + (c - 1) hops of the last chain.  For other sizes predict() evaluates the
 * schedule under the same latency model (schedule.h).
 */
#include <stdio.h>

#include "common.h"

/* tag: bits 0-7 lo, 8-15 hi, bit 16 = column phase (else row phase). */
#define RD_COL (1u << 16)

static uint64_t rd_tag(int lo, int hi, bool col)
{
	return (uint64_t)lo | (uint64_t)hi << 8 | (col ? RD_COL : 0);
}

void rd_halve(int x, int *lo, int *hi, int *y, int *ylo, int *yhi)
{
	int h = (*hi - *lo + 2) / 2;

	if (x < *lo + h) {		/* x in A: target in B */
		*y = *lo + h + (x - *lo);
		if (*y > *hi)
			*y = *hi;
		*ylo = *lo + h;
		*yhi = *hi;
		*hi = *lo + h - 1;
	} else {			/* x in B: target in A */
		*y = *lo + (x - *lo - h);
		*ylo = *lo;
		*yhi = *lo + h - 1;
		*lo = *lo + h;
	}
}

/* Halving on a line: node x's targets, appended to its plan from group g on. */
static int rd_line(const struct algo_params *p, int node, bool col, int lo, int hi,
		   struct plan *pl, int *g)
{
	const struct topology *t = &p->cfg->topo;
	int x = col ? mesh_row(t, node) : mesh_col(t, node);

	while (hi > lo) {
		int y, ylo, yhi;

		rd_halve(x, &lo, &hi, &y, &ylo, &yhi);
		if (plan_forward(pl, col ? y * t->cols + mesh_col(t, node)
					 : mesh_row(t, node) * t->cols + y,
				 (*g)++, false, rd_tag(ylo, yhi, col)))
			return -1;
	}
	return 0;
}

static int rdm_plan(const struct algo_params *p, int node, const struct receipt *r,
		    struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;
	int g = 0, lo, hi;
	uint64_t tag;

	/* The root holds its whole row. */
	if (!tree_turn(p, node, r, rd_tag(0, t->cols - 1, false), &tag))
		return 0;
	lo = (int)(tag & 0xff);
	hi = (int)(tag >> 8 & 0xff);
	if (!(tag & RD_COL)) {
		if (rd_line(p, node, false, lo, hi, pl, &g))
			return -1;
		lo = 0;
		hi = t->rows - 1;
	}
	return rd_line(p, node, true, lo, hi, pl, &g);
}

static void rdm_predict(const struct algo_params *p, const struct schedule_result *s,
			struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, ts = p->cfg->startup, mu = algo_mu(p);
	int lr = algo_ceil_log2((unsigned)r), lc = algo_ceil_log2((unsigned)c);

	if (algo_is_pow2(r) && algo_is_pow2(c)) {
		int T = (lr + lc) * (ts + mu) + (r - 1) + (c - 1);

		predict_set(o, T, true, DERIVED("rdmesh"),
			    "log2(p)(t_s + L-1) + (r-1) + (c-1) = %d*%d + %d + %d = %d", lr + lc, ts + mu,
			    r - 1, c - 1, T);
		predict_published(o, (double)(lr + lc) * (ts + mu), "Grama et al. 4.1, (t_s + t_w m) log p",
				  "(t_s + t_w m) log p = (%d + %d) * %d = %d", ts, mu, lr + lc,
				  (lr + lc) * (ts + mu));
		return;
	}
	predict_schedule(o, s, true, DERIVED("rdmesh"));
	predict_published(o, (double)(lr + lc) * (ts + mu),
			  "Barnett et al., separated dimensions",
			  "(ceil(log r) + ceil(log c))(alpha + n beta) = %d*(%d + %d) = %d", lr + lc, ts,
			  mu, (lr + lc) * (ts + mu));
}

const struct algorithm algo_rdmesh = {
	.name = "rdmesh",
	.networks = "any mesh",
	.source = "Grama et al. 4.1.1-4.1.2, recursive doubling, row then column; the same is "
		  "Barnett et al.'s separated dimensions",
	.formula_source = "Grama et al. 4.1 (t_s + t_w m) log p, Barnett et al. separated dimensions; exact: derived",
	.description = "recursive doubling farthest-first along the root's row, then in every "
		       "column (any size: Barnett et al.'s separated dimensions)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = false,
	.plan = rdm_plan,
	.predict = rdm_predict,
};
