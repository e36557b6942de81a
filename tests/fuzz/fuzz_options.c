/* SPDX-License-Identifier: MIT */
/*
 * fuzz_options.c - libFuzzer target: the option parser (src/options.c,
 * options_parse_memory()) on any command line and configuration file.  The input is
 * a command byte, then NUL-separated words (the arguments), then, after an empty word
 * (two NULs in a row), the text of the configuration file.  Parsing must neither
 * print nor exit, and a refusal must come with one line and exit status 2 (or 1, out
 * of memory).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum { MAX_ARGS = 64 };
	char *text, *argv[MAX_ARGS + 2], *config = NULL, *end;
	struct options *o;
	struct failure f = { 0 };
	size_t config_len = 0;
	bool help = false;
	int argc = 1;

	if (size < 1)
		return 0;
	text = malloc(size + 1);
	o = malloc(sizeof(*o));
	if (!text || !o)
		goto out;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	end = text + size - 1;
	argv[0] = (char *)command_name((enum command)(data[0] % N_COMMANDS));
	for (char *w = text; w < end; w += strlen(w) + 1) {
		if (!*w) {
			config = w + 1;		/* the configuration file follows */
			config_len = (size_t)(end - config);
			break;
		}
		if (argc < MAX_ARGS)
			argv[argc++] = w;
	}
	argv[argc] = NULL;
	if (options_parse_memory(o, (enum command)(data[0] % N_COMMANDS), argc, argv,
				 "fuzz.ini", config, config ? config_len : 0, &help, &f)) {
		if (!f.msg[0] || strchr(f.msg, '\n') ||
		    (f.status != EXIT_USAGE && f.status != EXIT_FAILED))
			abort();	/* one line, and the exit status it calls for */
	} else if (f.status) {
		abort();
	}
out:
	free(text);
	free(o);
	return 0;
}
