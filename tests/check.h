/* SPDX-License-Identifier: MIT */
/*
 * check.h - the C suites' side of tests/checks.py: one line per check ("PASS: ..." /
 * "FAIL: ..."), then "N passed, M failed"; check_finish() is the exit status (1 if
 * any check failed or none ran).  One test program includes it once.
 */
#ifndef WORMCAST_TEST_CHECK_H
#define WORMCAST_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int check_passed, check_failed;

static __attribute__((format(printf, 2, 3))) void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		check_passed++;
	else
		check_failed++;
}

static inline int check_finish(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed || !check_passed;
}

#endif
