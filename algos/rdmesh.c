/* SPDX-License-Identifier: MIT */
/*
 * rdmesh.c - one-to-all broadcast on a one-port r x c mesh by recursive doubling
 * (Grama et al. 4.1, sections 4.1.1 and 4.1.2): along the root's row first, then every node
 * of that row in its column.
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
 * Time.  Grama et al. 4.1: T = (t_s + m t_w) log p (r, c powers of two; for others the seed
 * 000 form with separated dimensions, (ceil(log r) + ceil(log c))(alpha + n beta)).
 * Under this model a message over k hops costs t_s + k + L - 1 and a holder's next
 * send starts t_s + L - 1 after its previous one, so the last node is reached at
 *     T = S (t_s + L - 1) + H
 * where the chain ending last pays S start-ups and H hops; for r and c powers of two
 * every chain has S = log2 p steps and the one that receives at every step travels
 * c/2 + c/4 + ... + 1 + r/2 + ... + 1 hops:
 *     T = log2(p) (t_s + L - 1) + (r - 1) + (c - 1),  any root, exact.
 * The seed's formula counts each step as t_s + L (one hop); it matches only where
 * every step is one hop (r, c <= 2).  For other sizes predict() evaluates the
 * schedule under the same latency model (see schedule()).
 */
#include <stdio.h>

#include "common.h"

/* tag: bits 0-7 lo, 8-15 hi, bit 16 = column phase (else row phase). */
#define RD_COL (1u << 16)

static uint64_t rd_tag(int lo, int hi, bool col)
{
	return (uint64_t)lo | (uint64_t)hi << 8 | (col ? RD_COL : 0);
}

/* Halving on a line: positions of node x's targets, appended to out. */
static int rd_line(const struct algo_params *p, int node, bool col, int lo, int hi,
		   struct tb_send *out, int n, int max)
{
	const struct topology *t = &p->cfg->topo;
	int x = col ? mesh_row(t, node) : mesh_col(t, node);

	while (hi > lo) {
		int h = (hi - lo + 2) / 2, y, ylo, yhi;

		if (x < lo + h) {		/* x in A: target in B */
			y = lo + h + (x - lo);
			if (y > hi)
				y = hi;
			ylo = lo + h;
			yhi = hi;
			hi = lo + h - 1;
		} else {			/* x in B: target in A */
			y = lo + (x - lo - h);
			ylo = lo;
			yhi = lo + h - 1;
			lo = lo + h;
		}
		if (n == max)
			return -1;
		out[n] = (struct tb_send){
			.dest = col ? y * t->cols + mesh_col(t, node) : mesh_row(t, node) * t->cols + y,
			.group = n, .tag = rd_tag(ylo, yhi, col),
		};
		n++;
	}
	return n;
}

static int rdm_plan(const struct algo_params *p, int node, uint64_t tag, struct tb_send *out,
		    int max)
{
	const struct topology *t = &p->cfg->topo;
	int lo = (int)(tag & 0xff), hi = (int)(tag >> 8 & 0xff), n = 0;

	if (!(tag & RD_COL)) {
		n = rd_line(p, node, false, lo, hi, out, n, max);
		if (n < 0)
			return -1;
		lo = 0;
		hi = t->rows - 1;
	}
	return rd_line(p, node, true, lo, hi, out, n, max);
}

static struct tb_ops rdm_ops_for(const struct algo_params *p)
{
	/* The root holds its whole row. */
	struct tb_ops o = { .plan = rdm_plan, .root_tag = rd_tag(0, p->cfg->topo.cols - 1, false) };

	return o;
}

static int rdm_supports(const struct algo_params *p, char *err, size_t len)
{
	return algo_need_mesh(p, "rdmesh", err, len);
}

static void *rdm_create(const struct algo_params *p)
{
	struct tb_ops o = rdm_ops_for(p);

	return tb_create(p, &o);
}

static double rdm_schedule(const struct algo_params *p, char *text, size_t len)
{
	struct tb_ops o = rdm_ops_for(p);

	return tb_schedule(p, &o, text, len);
}

static double rdm_predict(const struct algo_params *p, char *formula, size_t len)
{
	const struct topology *t = &p->cfg->topo;
	int r = t->rows, c = t->cols, ts = p->cfg->startup, L = p->flits;
	int lr = algo_ceil_log2((unsigned)r), lc = algo_ceil_log2((unsigned)c);
	double seed = (double)(lr + lc) * (ts + L);
	char text[256];

	if (algo_is_pow2(r) && algo_is_pow2(c)) {
		double T = (double)(lr + lc) * (ts + L - 1) + (r - 1) + (c - 1);

		snprintf(formula, len,
			 "log2(p)*(t_s+L-1) + (r-1) + (c-1) = %d*%d + %d + %d = %.0f "
			 "[Grama et al. 4.1: (t_s + m t_w) log p = %.0f]", lr + lc, ts + L - 1, r - 1, c - 1,
			 T, seed);
		return T;
	}
	{
		double T = rdm_schedule(p, text, sizeof(text));

		snprintf(formula, len, "%s [Barnett et al. separated dims: (ceil(log r)+ceil(log c))"
			 "(alpha + n beta) = %.0f]", text, seed);
		return T;
	}
}

const struct algorithm algo_rdmesh = {
	.name = "rdmesh",
	.source = "Grama et al. 4.1.1-4.1.2, recursive doubling on a mesh",
	.description = "recursive doubling farthest-first along the root's row, then in every column",
	.topologies = ALGO_MESH,
	.all_port = false,
	.uses_root = true,
	.supports = rdm_supports,
	.create = rdm_create,
	.destroy = tb_destroy,
	.start = tb_start,
	.event = tb_event,
	.check = tb_check,
	.predict = rdm_predict,
	.exact = true,
	.schedule = rdm_schedule,
};
