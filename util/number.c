/* SPDX-License-Identifier: MIT */
/*
 * number.c - strict whole and real numbers (see number.h).  The syntax is checked
 * here character by character; only a real number that has passed it is handed to
 * strtod() for its value, so strtod's leniencies (blanks, signs, hex, inf, locale
 * decimal points never arise: wormcast does not call setlocale) cannot leak through.
 */
#include "number.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

enum number_status number_uint_n(const char *text, size_t n, uint64_t lo, uint64_t hi,
				 uint64_t *out)
{
	uint64_t v = 0;
	bool overflow = false;

	if (n == 0)
		return NUMBER_SYNTAX;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (!is_digit(text[i]))
			return NUMBER_SYNTAX;
		d = (unsigned)(text[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;	/* keep scanning: "99...9x" is a syntax error */
		else
			v = v * 10 + d;
	}
	if (overflow || v < lo || v > hi)
		return NUMBER_RANGE;
	*out = v;
	return NUMBER_OK;
}

enum number_status number_uint(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
	return number_uint_n(text, strlen(text), lo, hi, out);
}

/* digits [ "." digits ] | "." digits, then [ ("e" | "E") [ "+" | "-" ] digits ]. */
static bool real_syntax(const char *s)
{
	size_t int_digits = 0, frac_digits = 0;

	while (is_digit(*s))
		s++, int_digits++;
	if (*s == '.') {
		s++;
		while (is_digit(*s))
			s++, frac_digits++;
	}
	if (int_digits + frac_digits == 0)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!is_digit(*s))
			return false;
		while (is_digit(*s))
			s++;
	}
	return *s == '\0';
}

enum number_status number_real(const char *text, double lo, double hi, double *out)
{
	char *end;
	double v;

	if (!real_syntax(text))
		return NUMBER_SYNTAX;
	errno = 0;
	v = strtod(text, &end);
	/* ERANGE on underflow gives a tiny number or 0, which the range decides. */
	if (*end || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
		return NUMBER_RANGE;
	if (!(v >= lo && v <= hi))
		return NUMBER_RANGE;
	*out = v;
	return NUMBER_OK;
}

static const char *sep(const char *what)
{
	return what[0] ? " " : "";
}

const char *number_uint_message(enum number_status st, const char *what, const char *text,
				uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	if (st == NUMBER_SYNTAX)
		snprintf(buf, len, "%s%s'%s' is not a whole number", what, sep(what), text);
	else
		snprintf(buf, len, "%s%s%s is out of range %llu..%llu", what, sep(what), text,
			 (unsigned long long)lo, (unsigned long long)hi);
	return buf;
}

const char *number_real_message(enum number_status st, const char *what, const char *text,
				double lo, double hi, char *buf, size_t len)
{
	if (st == NUMBER_SYNTAX)
		snprintf(buf, len, "%s%s'%s' is not a number", what, sep(what), text);
	else
		snprintf(buf, len, "%s%s%s is out of range %g..%g", what, sep(what), text, lo, hi);
	return buf;
}
