/* SPDX-License-Identifier: MIT */
/*
 * failure.h - how the front end carries an error to the one place that reports it
 * (src/cli.c): one line, without the "wormcast: " prefix, and the exit status it
 * calls for.  Nothing below the command dispatcher prints an error or exits.
 *
 * Exit statuses (README, docs/robustness.md):
 *   0            the run passed every check
 *   1            a check failed (wrong delivery, wrong data, deadlock, cosimulation
 *                mismatch), an output could not be written, or memory ran out
 *   2            bad input: an option, a configuration file, a trace
 *   128 + N      stopped by signal N (SIGINT: 130, SIGTERM: 143), with a partial report
 */
#ifndef WORMCAST_FAILURE_H
#define WORMCAST_FAILURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum exit_status {
	EXIT_PASSED = 0,
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
};

#define NO_MEMORY "out of memory"

struct failure {
	int status;			/* an enum exit_status; 0 while nothing failed */
	char msg[2048];
};

/* Record a failure (the first one wins) and return -1. */
static inline __attribute__((format(printf, 3, 4))) int
failf(struct failure *f, int status, const char *fmt, ...)
{
	va_list ap;

	if (f->status)
		return -1;
	f->status = status;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Out of memory: the same message and status everywhere. */
static inline int fail_no_memory(struct failure *f)
{
	return failf(f, EXIT_FAILED, "%s", NO_MEMORY);
}

#endif
