/* SPDX-License-Identifier: MIT */
/*
 * fuzz_config.c - libFuzzer target: the configuration file reader (src/config.c, INI
 * through inih) on any bytes.  Keys are applied by a stand-in that refuses values
 * starting with 'x', so that the error paths after a key run too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fuzz_input.h"

static int apply(void *ctx, const char *section, const char *option, const char *value,
		 char *err, size_t errlen)
{
	int *keys = ctx;

	if (!section[0] || !option[0])
		abort();	/* the reader only applies known keys of a section */
	++*keys;
	if (value[0] == 'x') {
		snprintf(err, errlen, "'%s' is refused", value);
		return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512] = "", path[64];
	int keys = 0, fd = fuzz_input_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (config_load(path, apply, &keys, err, sizeof(err)) && !err[0])
		abort();	/* a refused file says why */
	fuzz_input_close(fd);
	return 0;
}
