/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c - libFuzzer target: the configuration file syntax (src/config.c,
 * config_parse(): INI through inih) on any bytes.  Keys go to a stand-in that refuses
 * values starting with 'x', so that the error path after a key runs too.  A refusal
 * must come with one line and exit status 2 (or 1, out of memory).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

static int key(void *ctx, const char *section, const char *name, const char *value, int line,
	       char *msg, size_t len)
{
	int *last = ctx;

	if (!section || !name || !value || line < *last)
		abort();	/* every key has its strings, in file order */
	*last = line;
	if (value[0] == 'x') {
		snprintf(msg, len, "'%s' is refused", value);
		return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct failure f = { 0 };
	int last = 0;

	if (config_parse("fuzz.ini", (const char *)data, size, key, &last, &f)) {
		if (!f.msg[0] || strchr(f.msg, '\n') ||
		    (f.status != EXIT_USAGE && f.status != EXIT_FAILED))
			abort();	/* one line, and the exit status it calls for */
	} else if (f.status) {
		abort();
	}
	return 0;
}
