/* SPDX-License-Identifier: MIT */
/*
 * latency.h - the summary of a list of message latencies that trace and random
 * traffic both report: mean, extremes and nearest-rank percentiles.
 */
#ifndef WORMCAST_LATENCY_H
#define WORMCAST_LATENCY_H

#include <stddef.h>
#include <stdint.h>

struct latency_summary {
	double avg;
	uint64_t min, max;
	uint64_t p50, p99;	/* nearest rank: the smallest value with p % of the values <= it */
};

/* Summarize the n latencies of lat, which may be reordered (all 0 if n is 0). */
void latency_summarize(uint64_t *lat, size_t n, struct latency_summary *s);

#endif
