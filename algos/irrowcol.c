/* SPDX-License-Identifier: MIT */
/*
 * irrowcol.c - one-to-all broadcast on an all-port r x c mesh with R messages and
 * intermediate reception (Jeon & Kim's IR), row then column (the textbook's order,
 * Grama et al. 4.1.2): the root sends one R+IR message to each end of its row and of
 * its column; every node of its row that receives the row message (by IR on the way,
 * or as the end) sends one R+IR message to each end of its own column.  Every node
 * receives exactly once: the root's row from a row message, every other node from its
 * column's message.
 *
 * irrowcol    a row node sends its column messages when the row message's tail has
 *             arrived (store and forward);
 * irrowcolct  ... when its head has arrived (cut-through at the NI, as irruns): only
 *             correct if the flits arrive back to back, which the skeleton checks at
 *             the tail; refused with random sink stalls.
 *
 * No conflicts: the two row messages leave the root on different links (and
 * injection channels), every column's two messages likewise, row messages use row
 * links and column messages column links, and in all-port mode an IR copy uses the
 * ejection channel of its own input.
 *
 * Time (derived; no source gives one).  With Dc = max(cs, c-1-cs) and
 * Dr = max(rs, r-1-rs) the distances from the root (rs, cs) to its row's and
 * column's far ends, the last node is a far corner, reached by the row message (Dc
 * hops) and then a column message (Dr hops):
 *     irrowcol    T = 2 (t_s + L - 1) + Dc + Dr
 *     irrowcolct  T = 2 t_s + Dc + Dr + L - 1
 * exact; on a line (r = 1 or c = 1) one message each way: t_s + D + L - 1.
 */
#include <stdio.h>

#include "common.h"

/* tag: what the receiver got. */
enum { IRRC_ROW, IRRC_COLUMN };

enum { IRRC_STORE_AND_FORWARD, IRRC_CUT_THROUGH };

/* The R+IR sends from node towards both ends of its row or column, if they exist. */
static int irrc_ends(struct plan *pl, const struct topology *t, int node, bool column,
		     uint64_t tag)
{
	int a = mesh_row(t, node), b = mesh_col(t, node), pos = column ? a : b;
	int len = column ? t->rows : t->cols;
	int end[2] = { 0, len - 1 };

	for (int e = 0; e < 2; e++) {
		int dest = column ? end[e] * t->cols + b : a * t->cols + end[e];

		if (end[e] != pos && plan_forward(pl, dest, 0, true, tag))
			return -1;
	}
	return 0;
}

static int irrc_plan(const struct algo_params *p, int node, const struct receipt *r,
		     struct plan *pl)
{
	const struct topology *t = &p->cfg->topo;

	if (r ? r->tag != IRRC_ROW : node != p->root)
		return 0;
	if (!r && irrc_ends(pl, t, node, false, IRRC_ROW))
		return -1;
	return irrc_ends(pl, t, node, true, IRRC_COLUMN);
}

static int irrcct_supports(const struct algo_params *p, char *err, size_t len)
{
	if (algo_need_mesh(p, "irrowcolct", err, len))
		return -1;
	if (p->cfg->sink_stall > 0) {
		snprintf(err, len, "irrowcolct forwards cut-through at the NI, which is only correct "
			 "when the flits arrive back to back: no random sink stalls");
		return -1;
	}
	return 0;
}

static void irrc_predict(const struct algo_params *p, const struct schedule_result *s,
			 struct prediction *o)
{
	const struct topology *t = &p->cfg->topo;
	int rs = mesh_row(t, p->root), cs = mesh_col(t, p->root), ts = p->cfg->startup;
	int mu = algo_mu(p), r = t->rows, c = t->cols;
	int Dr = rs > r - 1 - rs ? rs : r - 1 - rs, Dc = cs > c - 1 - cs ? cs : c - 1 - cs;
	/* The row node waits for the tail (mu more cycles) unless it forwards cut-through. */
	int wait = p->variant == IRRC_CUT_THROUGH ? 0 : mu;
	int T;

	(void)s;
	if (Dr == 0 || Dc == 0) {
		T = ts + Dr + Dc + mu;
		predict_set(o, T, true, DERIVED("irrowcol-and-irrowcolct"),
			    "one line, one message each way: t_s + D + L-1 = %d + %d + %d = %d", ts,
			    Dr + Dc, mu, T);
		return;
	}
	T = 2 * ts + Dc + Dr + wait + mu;
	predict_set(o, T, true, DERIVED("irrowcol-and-irrowcolct"),
		    wait ? "2(t_s + L-1) + Dc + Dr = 2*(%d + %d) + %d + %d = %d"
			 : "2 t_s + Dc + Dr + L-1 = 2*%d + %d + %d + %d = %d",
		    ts, wait ? mu : Dc, wait ? Dc : Dr, wait ? Dr : mu, T);
}

const struct algorithm algo_irrowcol = {
	.name = "irrowcol",
	.networks = "any mesh",
	.source = "Jeon & Kim's IR on Grama et al. 4.1.2's row then column",
	.formula_source = "derived (no source formula)",
	.description = "R+IR to both ends of the root's row, then from every row node to both "
		       "ends of its column, store and forward",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = true,
	.variant = IRRC_STORE_AND_FORWARD,
	.plan = irrc_plan,
	.predict = irrc_predict,
};

const struct algorithm algo_irrowcolct = {
	.name = "irrowcolct",
	.networks = "any mesh (no sink stalls)",
	.source = "Jeon & Kim's IR on Grama et al. 4.1.2's row then column",
	.formula_source = "derived (no source formula)",
	.description = "irrowcol with the column messages sent when the row message's head "
		       "arrives (cut-through at the NI)",
	.kind = COLL_ONE_TO_ALL,
	.topologies = ALGO_MESH,
	.all_port = true,
	.cut_through = true,
	.variant = IRRC_CUT_THROUGH,
	.supports = irrcct_supports,
	.plan = irrc_plan,
	.predict = irrc_predict,
};
