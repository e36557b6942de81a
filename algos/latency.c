/* SPDX-License-Identifier: MIT */
/*
 * latency.c - the summary of message latencies (see latency.h).
 */
#include "latency.h"

#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t percentile(const uint64_t *sorted, size_t n, unsigned p)
{
	size_t rank = (n * p + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

void latency_summarize(uint64_t *lat, size_t n, struct latency_summary *s)
{
	double sum = 0;

	if (n == 0) {
		*s = (struct latency_summary){ 0 };
		return;
	}
	qsort(lat, n, sizeof(*lat), cmp_u64);
	for (size_t k = 0; k < n; k++)
		sum += (double)lat[k];
	s->avg = sum / (double)n;
	s->min = lat[0];
	s->max = lat[n - 1];
	s->p50 = percentile(lat, n, 50);
	s->p99 = percentile(lat, n, 99);
}
