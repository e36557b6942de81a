/* SPDX-License-Identifier: MIT */
/*
 * sweep.h - how far the C suites sweep: in full, or the small sweep of the sanitizer
 * build (WORMCAST_TEST_SWEEP=small, set in one place: tests/CMakeLists.txt).
 *
 * The main build (build/) runs every sweep in full: exact cycles and data on every
 * size, root, length and start-up its tables list.  The sanitizer build (build-asan/,
 * ASan + UBSan + the model's invariants every cycle, 20 to 30 times slower a cycle)
 * looks for memory errors and undefined behaviour: those need every code path (every
 * algorithm, topology family, odd and even size, port model, a few roots), not Q_12
 * from every root.  Its sweep is the same tables with their two largest hypercube
 * dimensions left out (a quarter of the nodes: Q_10 for a sweep to Q_12), random runs
 * a quarter as long (a soak a quarter of its runs), the largest networks of a table
 * at one message length and start-up; the runs a test makes on purpose on its largest
 * network (hk on Q_11 and Q_12, direx on Q_7, quadexch on torus:16x16, ...) stay.
 * Each test says which sweep it ran (sweep_note) so that nobody takes the small one
 * for the full one.
 */
#ifndef WORMCAST_TEST_SWEEP_H
#define WORMCAST_TEST_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The small sweep leaves out this many of a size sweep's largest hypercube dimensions... */
#define SWEEP_SMALL_DIMS_LESS 2
/* ... and runs random traffic for 1/SWEEP_SMALL_CYCLES_DIVISOR of the cycles (and soaks
 * 1/SWEEP_SMALL_CYCLES_DIVISOR of the runs). */
#define SWEEP_SMALL_CYCLES_DIVISOR 4

static inline bool sweep_small(void)
{
	const char *s = getenv("WORMCAST_TEST_SWEEP");

	return s && !strcmp(s, "small");
}

/* The largest dimension of a sweep of hypercubes whose full sweep ends at Q_full. */
static inline int sweep_dim(int full)
{
	if (!sweep_small() || full <= SWEEP_SMALL_DIMS_LESS)
		return full;
	return full - SWEEP_SMALL_DIMS_LESS;
}

/* The cycles of a random run whose full length is full. */
static inline uint64_t sweep_cycles(uint64_t full)
{
	return sweep_small() ? full / SWEEP_SMALL_CYCLES_DIVISOR : full;
}

/* The number of random runs (a soak's) whose full number is full. */
static inline int sweep_runs(int full)
{
	if (!sweep_small())
		return full;
	return (full + SWEEP_SMALL_CYCLES_DIVISOR - 1) / SWEEP_SMALL_CYCLES_DIVISOR;
}

/* One line, first in a test's output: which sweep it runs. */
static inline void sweep_note(const char *program)
{
	if (sweep_small())
		printf("%s: the SMALL sweep (WORMCAST_TEST_SWEEP=small, the sanitizer build): "
		       "hypercube sweeps %d dimensions short of the full one, random runs 1/%d as "
		       "long (or as many), large networks at one length; the main build runs the "
		       "full sweep\n", program, SWEEP_SMALL_DIMS_LESS, SWEEP_SMALL_CYCLES_DIVISOR);
	else
		printf("%s: the full sweep\n", program);
}

#endif
