/* SPDX-License-Identifier: MIT */
/*
 * test_options.c - the option parser and the INI reader as a library, from memory
 * (options_parse_memory(), the fuzzers' entry point): every default of the table
 * parses, values land where the table says, the configuration file and the command
 * line combine, and every error comes back as a failure (status and one line)
 * without printing or exiting.  Also the strict number parser (util/number.h) and the
 * growable arrays (util/grow.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "grow.h"
#include "number.h"
#include "options.h"

/* Parse "cmd args..." (NULL-terminated) with an optional configuration text. */
static int parse(struct options *o, struct failure *f, const char *ini, ...)
{
	char *argv[32];
	int argc = 0;
	bool help;
	va_list ap;

	va_start(ap, ini);
	for (const char *a; argc < 31 && (a = va_arg(ap, const char *));)
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	memset(f, 0, sizeof(*f));
	return options_parse_memory(o, (enum command)command_find(argv[0]), argc, argv, "t.ini",
				    ini, ini ? strlen(ini) : 0, &help, f);
}

static void numbers(void)
{
	static const struct {
		const char *text;
		enum number_status st;
		uint64_t v;
	} u[] = {
		{ "0", NUMBER_OK, 0 }, { "42", NUMBER_OK, 42 }, { "010", NUMBER_OK, 10 },
		{ "18446744073709551615", NUMBER_OK, UINT64_MAX },
		{ "18446744073709551616", NUMBER_RANGE, 0 }, { "+1", NUMBER_SYNTAX, 0 },
		{ "-1", NUMBER_SYNTAX, 0 }, { " 1", NUMBER_SYNTAX, 0 }, { "1 ", NUMBER_SYNTAX, 0 },
		{ "", NUMBER_SYNTAX, 0 }, { "0x10", NUMBER_SYNTAX, 0 }, { "1e3", NUMBER_SYNTAX, 0 },
		{ "99999999999999999999x", NUMBER_SYNTAX, 0 },
	};
	static const struct {
		const char *text;
		enum number_status st;
	} r[] = {
		{ "0.5", NUMBER_OK }, { ".5", NUMBER_OK }, { "1.", NUMBER_OK }, { "1e-3", NUMBER_OK },
		{ "2E+0", NUMBER_OK }, { "+0.5", NUMBER_SYNTAX }, { "-0.5", NUMBER_SYNTAX },
		{ "0x1p-3", NUMBER_SYNTAX }, { "inf", NUMBER_SYNTAX }, { "nan", NUMBER_SYNTAX },
		{ ".", NUMBER_SYNTAX }, { "1e", NUMBER_SYNTAX }, { " 1", NUMBER_SYNTAX },
		{ "1 ", NUMBER_SYNTAX }, { "1e999", NUMBER_RANGE }, { "3", NUMBER_RANGE },
	};

	for (size_t k = 0; k < sizeof(u) / sizeof(u[0]); k++) {
		uint64_t v = 7;
		enum number_status st = number_uint(u[k].text, 0, UINT64_MAX, &v);

		check(st == u[k].st && (st != NUMBER_OK || v == u[k].v), "number_uint(\"%s\") = %d",
		      u[k].text, (int)st);
	}
	for (size_t k = 0; k < sizeof(r) / sizeof(r[0]); k++) {
		double v;
		enum number_status st = number_real(r[k].text, 0, 2, &v);

		check(st == r[k].st, "number_real(\"%s\") in 0..2 = %d", r[k].text, (int)st);
	}
}

/*
 * grow_array() of a (first 16, max 40) to hold need, checked to leave the capacity
 * want; on failure a is freed and NULL returned, so the caller just stops.
 */
static int *grows_to(int *a, size_t *cap, size_t need, size_t want, const char *what)
{
	int *b = grow_array(a, cap, need, sizeof(*a), 16, 40);

	check(b && *cap == want, "grow_array() %s: cap %zu (want %zu)", what, *cap, want);
	if (!b)
		free(a);
	return b;
}

/* grow_array(): doubling from first, contents kept, clamped to max, overflow refused. */
static void grows(void)
{
	size_t cap = 0, was;
	int *a = grow_array(NULL, &cap, 1, sizeof(*a), 16, 40);

	check(a && cap == 16, "grow_array() from empty: cap %zu (want 16)", cap);
	if (!a)
		return;
	for (int k = 0; k < 16; k++)
		a[k] = k;
	a = grows_to(a, &cap, 17, 32, "when full doubles");
	if (!a)
		return;
	check(a[0] == 0 && a[15] == 15, "grow_array() keeps the elements");
	check(grow_array(a, &cap, 20, sizeof(*a), 16, 40) == a && cap == 32,
	      "grow_array() with room: the same array, cap %zu (want 32)", cap);
	a = grows_to(a, &cap, 33, 40, "stops at max");
	if (!a)
		return;
	errno = 0;
	check(!grow_array(a, &cap, 41, sizeof(*a), 16, 40) && cap == 40 && errno == ENOMEM,
	      "grow_array() past max refused: cap %zu (want 40), errno %d", cap, errno);
	was = cap;
	check(!grow_array(a, &cap, SIZE_MAX / 8 + 1, 8, 16, SIZE_MAX) && cap == was,
	      "grow_array() whose byte count would wrap refused: cap %zu", cap);
	check(!grow_array(a, &cap, SIZE_MAX, 2, 16, SIZE_MAX) && cap == was,
	      "grow_array() of SIZE_MAX elements refused: cap %zu", cap);
	a[39] = 39;	/* still the caller's, whole, after a refusal */
	free(a);
	cap = 0;
	a = grow_array(NULL, &cap, 100, sizeof(*a), 16, SIZE_MAX);
	check(a && cap == 128, "grow_array() doubles first until it holds need: cap %zu "
	      "(want 128)", cap);
	free(a);
}

int main(void)
{
	struct options o;
	struct failure f;
	int rc;

	numbers();
	grows();

	rc = parse(&o, &f, NULL, "run", "--topology", "mesh:4x4", "--algorithm", "pbcast",
		   "--flits", "9", "--startup=3", NULL);
	check(rc == 0 && !strcmp(opt(&o, OPT_TOPOLOGY)->text, "mesh:4x4") &&
	      opt(&o, OPT_FLITS)->u == 9 && opt(&o, OPT_STARTUP)->u == 3 &&
	      opt(&o, OPT_BUFFER_DEPTH)->u == 4 && !opt(&o, OPT_BUFFER_DEPTH)->set,
	      "run from memory: given values and the table's defaults (%s)", f.msg);

	rc = parse(&o, &f, "[ni]\rstartup = 7\r[network]\rtopology = hypercube:3\r[traffic]\r"
		   "flits = 2-9\rrate = 0.5\r", "traffic", "--rate", "0.25", NULL);
	check(rc == 0 && opt(&o, OPT_STARTUP)->u == 7 && opt(&o, OPT_RATE)->d == 0.25 &&
	      opt(&o, OPT_FLITS_RANGE)->u == 2 && opt(&o, OPT_FLITS_RANGE)->u_max == 9 &&
	      !strcmp(opt(&o, OPT_STARTUP)->origin, "t.ini:2: startup"),
	      "traffic: a CR-only configuration text, the command line overriding it (%s)", f.msg);

	rc = parse(&o, &f, NULL, "sweep", "--topology", "hypercube:4", "--algorithms", "pbcast,hk",
		   "--flits", "1,2,017", NULL);
	check(rc == 0 && opt(&o, OPT_ALGORITHMS)->n == 2 && opt(&o, OPT_FLITS_LIST)->n == 3 &&
	      opt(&o, OPT_FLITS_LIST)->items[2] == 17 &&
	      !strcmp(opt(&o, OPT_ALGORITHMS)->names[1], "hk"),
	      "sweep: lists of algorithms and lengths (%s)", f.msg);

	static const struct {
		const char *ini;
		const char *args[8];
		const char *msg;
	} bad[] = {
		{ NULL, { "run", "--topology", "hypercube:4", "--flits", "8", NULL },
		  "run needs --algorithm" },
		{ NULL, { "run", "--topology", "hypercube:4", "--algorithm", "pbcast", "--flits", "0" },
		  "--flits: 0 is out of range 1..16777216" },
		{ NULL, { "trace", "--topology", "hypercube:4", "--trace", "", NULL },
		  "--trace: empty file name" },
		{ NULL, { "traffic", "--flits", "9-2", NULL }, "--flits: '9-2': MAX is below MIN" },
		{ NULL, { "traffic", "--flits", "2-", NULL }, "--flits: '' is not a whole number" },
		{ NULL, { "list", "--topology", "hypercube:4", NULL }, "unknown option '--topology'" },
		{ "[ni]\nstartup = 3\nstartup = 4\n", { "list", NULL },
		  "t.ini:3: 'startup' in [ni] is given twice (first on line 2)" },
		{ "[traffic]\nflits = 9-2\n", { "list", NULL },
		  "t.ini:2: flits: '9-2': MAX is below MIN" },
		{ "[algorithm]\nflits = 1,x\n", { "trace", NULL },
		  "t.ini:2: flits: 'x' is not a whole number" },
		{ "[nosuch]\nx = 1\n", { "list", NULL }, "t.ini:2: unknown section [nosuch]" },
		{ "x = 1\n", { "list", NULL }, "t.ini:1: 'x' is outside a section" },
		{ "[ni\n", { "list", NULL }, "t.ini:1: syntax error" },
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char *argv[9] = { 0 };
		int argc = 0;
		bool help;

		for (; argc < 8 && bad[k].args[argc]; argc++)
			argv[argc] = (char *)bad[k].args[argc];
		memset(&f, 0, sizeof(f));
		rc = options_parse_memory(&o, (enum command)command_find(argv[0]), argc, argv,
					  "t.ini", bad[k].ini, bad[k].ini ? strlen(bad[k].ini) : 0,
					  &help, &f);
		check(rc == -1 && f.status == EXIT_USAGE && strstr(f.msg, bad[k].msg) &&
		      !strchr(f.msg, '\n'),
		      "error returned, not printed: '%s' (want '%s')", f.msg, bad[k].msg);
	}
	return check_finish();
}
