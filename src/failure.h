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

/*
 * Record a failure (the first one wins) and return -1.  The message is one line
 * whatever it quotes: a control character in it (an argument or a file name with a
 * line end, an escape sequence) is written as \n, \r, \t or \xHH (found by
 * tests/fuzz/fuzz_options.c).
 */
static inline __attribute__((format(printf, 3, 4))) int
failf(struct failure *f, int status, const char *fmt, ...)
{
	char raw[sizeof(f->msg)];
	size_t k = 0;
	va_list ap;

	if (f->status)
		return -1;
	f->status = status;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	for (const char *p = raw; *p && k + 5 < sizeof(f->msg); p++) {
		unsigned char c = (unsigned char)*p;

		if (c >= 0x20 && c != 0x7f)
			f->msg[k++] = (char)c;
		else if (c == '\n' || c == '\r' || c == '\t')
			k += (size_t)snprintf(f->msg + k, 3, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else
			k += (size_t)snprintf(f->msg + k, 5, "\\x%02x", c);
	}
	f->msg[k] = '\0';
	return -1;
}

/* Out of memory: the same message and status everywhere. */
static inline int fail_no_memory(struct failure *f)
{
	return failf(f, EXIT_FAILED, "%s", NO_MEMORY);
}

#endif
