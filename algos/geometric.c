/* SPDX-License-Identifier: MIT */
/*
 * geometric.c - the geometric gaps' table.  The traffic draws a gap per message,
 * 1 + trunc(log1p(-u) / log1p(-p)); the logarithm's call and the division were 2.4 %
 * of uniform 8x8 at 0.1's CPU time (perf, 400,000 cycles), a lookup is a few
 * instructions.  The table is not an approximation: it holds the formula's own steps,
 * found at start-up by evaluating the formula (the library's log1p()), so every gap it
 * gives is the formula's.
 *
 * What that relies on: the formula is non-decreasing in u, that is, the C library's
 * log1p() is non-increasing on [-1, 0] (IEEE division by the negative constant and the
 * truncation keep the order).  Then gap(k) = g exactly for the draws between the first
 * draw of g and the first draw of g + 1, and a step is found by bisection.  glibc's
 * log1p() is accurate to an ulp and monotonic in practice, but does not promise it; the
 * test (test_algos.c, test_geometric()) compares the table's gap with the formula's at
 * every step, the draws beside each and each cell's ends, for several p.
 *
 * The ninth session replaced the logarithm with a hand-written one checked against a
 * margin (docs/performance.md); that was not landed as a second logarithm to keep.
 * This needs none: only the formula, evaluated a few thousand times at start-up.
 */
#include "geometric.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/*
 * At most 2048 cells (16 KB; the draws are geometric over the cells' exponents: half of
 * them in the first 2^m cells) and 10 mantissa bits (p above about 1/1400); a lighter
 * load draws its gaps from the formula (few messages, few gaps).
 */
#define GEO_MAX_CELLS 2048
#define GEO_MAX_MANT 10

uint64_t geometric_formula(const struct geometric *g, uint64_t k)
{
	double u = (double)k / 9007199254740992.0;

	/*
	 * Number of trials up to and including the next success.  The quotient is never
	 * negative (log1p(-u) <= 0, log_miss < 0), where the conversion's truncation is
	 * floor(): no floor() call, the same gaps.
	 */
	return 1 + (uint64_t)(log1p(-u) / g->log_miss);
}

/*
 * The first draw whose gap exceeds gap (GEO_DRAWS if none does): from the logarithm's
 * inverse, then a gallop and a bisection on the formula itself, which are exact by its
 * monotonicity (above).  A few formula calls a step: the estimate is off by a few draws.
 */
static uint64_t first_above(const struct geometric *g, uint64_t gap)
{
	double u = -expm1((double)gap * g->log_miss);
	uint64_t k = u >= 1.0 ? GEO_DRAWS - 1 : (uint64_t)(u * 0x1p53), lo, hi, step = 1;

	if (k >= GEO_DRAWS)
		k = GEO_DRAWS - 1;
	if (geometric_formula(g, k) > gap) {
		/* gap(0) = 1 <= gap: the gallop down ends at 0 at the latest. */
		for (hi = k;; hi = lo, step *= 2) {
			lo = hi > step ? hi - step : 0;
			if (geometric_formula(g, lo) <= gap)
				break;
		}
	} else {
		for (lo = k;; lo = hi, step *= 2) {
			hi = lo + step;
			if (hi >= GEO_DRAWS)
				hi = GEO_DRAWS;	/* (not evaluated: "beyond every draw") */
			if (hi == GEO_DRAWS || geometric_formula(g, hi) > gap)
				break;
		}
	}
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (geometric_formula(g, mid) > gap)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

static uint64_t bits_of(double d)
{
	uint64_t b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static double double_of(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/*
 * The cells of m mantissa bits into g->cell; false if one holds two steps (then more
 * bits are tried).  Cells stop where a gap would exceed GEO_MAX_GAP, at GEO_MAX_CELLS,
 * or where 1 - u has fewer than m bits (a cell narrower than a draw).
 */
static bool fill_cells(struct geometric *g, unsigned m)
{
	uint64_t gap = 1, next = first_above(g, 1), after = 0, i;

	g->shift = 52 - m;
	g->top = bits_of(0x1p53) >> g->shift;
	for (i = 0; i < GEO_MAX_CELLS; i++) {
		uint64_t c = g->top - i;
		double lo_d = double_of(c << g->shift), hi_d = double_of((c + 1) << g->shift);
		/* The draws k = 2^53 - k' for the integers k' of [lo_d, hi_d), k' <= 2^53. */
		uint64_t kp_lo = (uint64_t)lo_d;
		uint64_t kp_hi = hi_d > 0x1p53 ? GEO_DRAWS : (uint64_t)hi_d - 1;
		uint64_t klo = GEO_DRAWS - kp_hi, khi = GEO_DRAWS - kp_lo;

		if (kp_lo < (1ull << m))
			break;
		while (next <= klo) {
			gap++;
			next = after ? after : first_above(g, gap);
			after = 0;
		}
		if (gap + 1 > GEO_MAX_GAP)
			break;
		if (next <= khi) {
			after = first_above(g, gap + 1);
			if (after <= khi)
				return false;
		}
		g->cell[i] = gap << GEO_STEP_BITS | (next <= khi ? next : GEO_DRAWS);
	}
	g->n_cells = i;
	return true;
}

void geometric_init(struct geometric *g, double p)
{
	double span;
	unsigned m = 0;

	memset(g, 0, sizeof(*g));
	g->log_miss = log1p(-p);
	if (!(p > 0 && p < 1) || !(g->log_miss < 0))
		return;
	/* The fewest bits whose cells (2^-m of the logarithm) are narrower than a gap's. */
	span = -g->log_miss;
	while (m < GEO_MAX_MANT && ldexp(1.0, -(int)m) > span)
		m++;
	g->cell = malloc(sizeof(*g->cell) * GEO_MAX_CELLS);
	if (!g->cell)
		return;		/* the formula for every draw: the same gaps */
	for (; m <= GEO_MAX_MANT; m++)
		if (fill_cells(g, m))
			return;
	g->n_cells = 0;
}

void geometric_free(struct geometric *g)
{
	free(g->cell);
	g->cell = NULL;
	g->n_cells = 0;
}
