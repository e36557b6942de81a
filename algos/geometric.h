/* SPDX-License-Identifier: MIT */
/*
 * geometric.h - the random traffic's geometric gaps, 1 + trunc(log1p(-u) / log1p(-p))
 * for a draw u = k / 2^53, found in a table of the formula's own steps instead of
 * computed with a logarithm and a division per gap (geometric.c says why, and what the
 * table's gaps rely on to be the formula's).
 */
#ifndef WORMCAST_GEOMETRIC_H
#define WORMCAST_GEOMETRIC_H

#include <stdint.h>
#include <string.h>

#define GEO_DRAWS (1ull << 53)		/* k is in [0, GEO_DRAWS): u = k / 2^53 */
#define GEO_STEP_BITS 54		/* a cell: gap << 54 | the draw of its step */
#define GEO_STEP_MASK ((1ull << GEO_STEP_BITS) - 1)
#define GEO_MAX_GAP 1023		/* the largest gap a cell holds (10 bits) */

/*
 * A cell holds the draws k whose 1 - u (exact: 2^53 - k, as a double) has one exponent
 * and the same leading mantissa bits: equal steps of the logarithm, so that a cell of
 * fewer bits than the gaps' spacing holds at most one step.  Cell i is found from
 * 1 - u's bits by top - (bits >> shift), i from 0 (u = 0) upwards as u grows.
 */
struct geometric {
	double log_miss;	/* log1p(-p): a constant of every gap */
	uint64_t *cell;		/* gap << GEO_STEP_BITS | the first draw of gap + 1 */
	uint64_t n_cells;	/* 0: no table, the formula for every draw */
	uint64_t top;		/* the bits of 2^53 >> shift */
	unsigned shift;		/* 52 - the mantissa bits of a cell */
};

/* p in (0, 1): the table made (a few thousand log1p() calls); without memory, none. */
void geometric_init(struct geometric *g, double p);
void geometric_free(struct geometric *g);

/* The formula itself, for draw k: the gap the table must give. */
uint64_t geometric_formula(const struct geometric *g, uint64_t k);

/* The gap of draw k (in [0, 2^53)): the formula's, from the table where it reaches. */
static inline uint64_t geometric_gap(const struct geometric *g, uint64_t k)
{
	double d = (double)(int64_t)(GEO_DRAWS - k);	/* 1 - u, times 2^53: exact */
	uint64_t bits, i, c;

	memcpy(&bits, &d, sizeof(bits));
	i = g->top - (bits >> g->shift);
	if (__builtin_expect(i >= g->n_cells, 0))
		return geometric_formula(g, k);
	c = g->cell[i];
	return (c >> GEO_STEP_BITS) + (k >= (c & GEO_STEP_MASK));
}

#endif
