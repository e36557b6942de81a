/* SPDX-License-Identifier: MIT */
/*
 * outputs.h - the files a run writes, as the options table marks them (options.def:
 * .output), opened before the run and committed after it (util/outfile.h: whole or
 * not at all).  Before anything is opened, no output may be one of the inputs (.input:
 * the configuration file, the trace) or another output: the same file, by device and
 * inode, or the same name in the same directory for files that do not exist yet.
 * Nothing else is created: a file is written only where the user named one.
 */
#ifndef WORMCAST_OUTPUTS_H
#define WORMCAST_OUTPUTS_H

#include <stdio.h>

#include "failure.h"
#include "options.h"
#include "outfile.h"

struct outputs {
	struct outfile *file[N_OPTIONS];	/* by option id; NULL if not asked for */
};

/*
 * Check the outputs against the inputs and each other (exit status 2), then open
 * every output the command was given (2 if one cannot be opened).  On failure
 * nothing stays open.
 */
int outputs_open(struct outputs *out, const struct options *o, struct failure *f);
/* The output of option id, NULL if none. */
struct outfile *outputs_file(const struct outputs *out, enum option_id id);
/*
 * Commit every output still open: 0, or -1 with the first failure ("cannot write
 * 'FILE': reason", exit status 1).  Each output is whole or absent on its own.
 */
int outputs_commit(struct outputs *out, struct failure *f);
/* Discard every output still open (nothing half-written remains). */
void outputs_discard(struct outputs *out);
/* Discard one output (it was not needed: no mismatch window). */
void outputs_drop(struct outputs *out, enum option_id id);

#endif
