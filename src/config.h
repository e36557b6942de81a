/* SPDX-License-Identifier: MIT */
/*
 * config.h - configuration files (docs/config.md): INI text read with inih.  This
 * module knows the syntax and where each key stands (FILE:LINE); which sections and
 * keys exist, and what their values mean, is the options table's business
 * (src/options.c), which this module calls for every key.
 */
#ifndef WORMCAST_CONFIG_H
#define WORMCAST_CONFIG_H

#include <stddef.h>

#include "failure.h"

/*
 * Called for every "key = value" line, in file order.  Returns 0, or -1 with one line
 * (without the file and line, which the caller adds) in msg.
 */
typedef int (*config_key_fn)(void *ctx, const char *section, const char *key,
			     const char *value, int line, char *msg, size_t len);

/* The longest line inih reads (its INI_MAX_LINE, less the line end). */
#define CONFIG_MAX_LINE 198
/* The largest configuration file read. */
#define CONFIG_MAX_BYTES (1 << 20)

/*
 * Parse INI text (len bytes, NUL bytes refused); name is the file's name in messages.
 * Line ends may be LF, CR LF or CR alone.  Returns 0, or -1 with the failure:
 * "NAME:LINE: what" (exit status 2), or out of memory (1).
 */
int config_parse(const char *name, const char *text, size_t len, config_key_fn fn, void *ctx,
		 struct failure *f);

/*
 * Read a whole configuration file into *text (NUL-terminated, to be freed).  Returns
 * 0, or -1 with "PATH: cannot read the configuration file: REASON" (2) or out of
 * memory (1).
 */
int config_read(const char *path, char **text, size_t *len, struct failure *f);

#endif
