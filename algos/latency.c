/* SPDX-License-Identifier: MIT */
/*
 * latency.c - the summary of message latencies (see latency.h).
 *
 * The percentiles are read from a histogram of the values (one pass, and one over
 * the range between the smallest and the largest) when that range is not much
 * larger than the count, which is what latencies are: a run of a million messages
 * spends a few per cent of its instructions in a sort otherwise.  A wider spread
 * (or no memory for the histogram) sorts.
 */
#include "latency.h"

#include <stdbool.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The rank (1-based) of nearest-rank percentile p of n values. */
static size_t percentile_rank(size_t n, unsigned p)
{
	size_t rank = (n * p + 99) / 100;

	return rank ? rank : 1;
}

/* Percentiles 50 and 99 of the n values of lat, all in min .. max: 0, or -1 (no memory). */
static int by_histogram(const uint64_t *lat, size_t n, uint64_t min, uint64_t max,
			struct latency_summary *s)
{
	size_t range = (size_t)(max - min) + 1, seen = 0;
	size_t r50 = percentile_rank(n, 50), r99 = percentile_rank(n, 99);
	size_t *count = calloc(range, sizeof(*count));
	bool p50 = false;

	if (!count)
		return -1;
	for (size_t k = 0; k < n; k++)
		count[lat[k] - min]++;
	for (size_t v = 0; v < range; v++) {
		seen += count[v];
		if (!p50 && seen >= r50) {
			s->p50 = min + v;
			p50 = true;
		}
		if (seen >= r99) {
			s->p99 = min + v;
			break;
		}
	}
	free(count);
	return 0;
}

void latency_summarize(uint64_t *lat, size_t n, struct latency_summary *s)
{
	uint64_t sum = 0, min = UINT64_MAX, max = 0;
	double dsum = 0;

	if (n == 0) {
		*s = (struct latency_summary){ 0 };
		return;
	}
	for (size_t k = 0; k < n; k++) {
		min = lat[k] < min ? lat[k] : min;
		max = lat[k] > max ? lat[k] : max;
	}
	s->min = min;
	s->max = max;
	/*
	 * Below 2^53 every partial sum is exact in a double, so the integer sum is the sum
	 * of doubles in any order; the histogram is then used if the spread is narrow.
	 */
	if (max <= (UINT64_C(1) << 53) / n && max - min < 4 * (uint64_t)n + 4096) {
		for (size_t k = 0; k < n; k++)
			sum += lat[k];
		s->avg = (double)sum / (double)n;
		if (by_histogram(lat, n, min, max, s) == 0)
			return;
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	for (size_t k = 0; k < n; k++)
		dsum += (double)lat[k];
	s->avg = dsum / (double)n;
	s->p50 = lat[percentile_rank(n, 50) - 1];
	s->p99 = lat[percentile_rank(n, 99) - 1];
}
