/* SPDX-License-Identifier: MIT */
/*
 * aas.c - the standard-exchange step and the line check shared by AAS algorithms.
 */
#include "aas.h"

#include <stdio.h>

int aas_standard_step(struct plan *pl, int v, unsigned all, unsigned done, unsigned bit)
{
	unsigned rest = all & ~done & ~bit, x0 = (unsigned)v & ~done;
	unsigned u0 = ((unsigned)v & done) | (((unsigned)v ^ bit) & bit);

	/* Every subset sx of done and su of rest, in increasing order. */
	for (unsigned sx = 0;; sx = (sx - done) & done) {
		for (unsigned su = 0;; su = (su - rest) & rest) {
			if (plan_block(pl, (int)(x0 | sx), (int)(u0 | su), 0))
				return -1;
			if (su == rest)
				break;
		}
		if (sx == done)
			break;
	}
	return 0;
}

int aas_need_line(const struct algo_params *p, const char *name, char *err, size_t len)
{
	const struct topology *t = &p->cfg->topo;

	if (algo_need_mesh(p, name, err, len))
		return -1;
	if ((t->rows != 1 && t->cols != 1) || t->nodes < 2) {
		snprintf(err, len, "%s runs on a linear array (mesh:1xN or mesh:Nx1, N >= 2), not %dx%d",
			 name, t->rows, t->cols);
		return -1;
	}
	return 0;
}
